"""The Pillars of the Earth as the registry sees it: one :class:`GameSpec`.

``MARKERS`` is the order of the camera stickers: append-only, since a card's position plus
``MARKER_BASE`` is the id printed on its sticker.
"""

from __future__ import annotations

from companion.engine.registry import CardInfo, GameSpec

from . import data as D
from .rules import PillarsGame

MARKER_BASE = 0

MARKERS: tuple[str, ...] = (
    # privileges
    "madonna", "richard", "tom", "aliena", "wollmesse", "toledo", "jack", "otto", "francis",
    "priorphilip", "ellen", "steuerfreiheit", "thomas", "remigius", "vollendung",
    "feierlichkeiten",
    # events
    "koenig", "william", "richardevent", "konflikt", "stadtmauer", "philip", "kaltewinter",
    "freiwilligen", "teile", "erzbischof",
    # resource cards
    "sand2", "sand3", "sand4", "wood2", "wood3", "wood4", "stone2", "stone3", "stone4",
    # craftsmen of rounds 1-6
    "mason1", "toolmaker1", "mortar1", "woodworker1", "potter2", "architect2", "mason2",
    "carpenter2", "potter3", "sculptor3", "carpenter3", "mason3", "mason4", "sculptor4",
    "carpenter4", "glassblower4", "carpenter5", "goldsmith5", "sculptor5", "glassblower5",
    "bellmaker6", "organbuilder6", "sculptor6", "goldsmith6",
    # starting craftsmen, red, blue, yellow, green
    "mortar0r", "woodworker0r", "stonecutter0r", "mortar0b", "woodworker0b", "stonecutter0b",
    "mortar0y", "woodworker0y", "stonecutter0y", "mortar0g", "woodworker0g", "stonecutter0g",
)  # fmt: skip


def _kind(card: str) -> str:
    if card in D.PRIVILEGES:
        return "privilege"
    if card in D.EVENTS:
        return "event"
    if card in D.RESOURCE_CARDS:
        return "resource"
    return "craftsman"


SPEC = GameSpec(
    name=PillarsGame.name,
    title=PillarsGame.title,
    rules=PillarsGame,
    bgg_id=24480,
    min_players=PillarsGame.min_players,
    max_players=PillarsGame.max_players,
    options=PillarsGame.options,
    cards=tuple(CardInfo(c, _kind(c), D.card_name(c)) for c in MARKERS),
    colours=tuple(D.COLOUR_CODE),
    marker_base=MARKER_BASE,
    rank=1,
    screen="companion.kiosk.screens.pillars:PillarsScreen",
    scenes="companion.kiosk.scenes.pillars:SCENES",
)
