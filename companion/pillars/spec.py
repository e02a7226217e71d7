"""The Pillars of the Earth as the registry sees it: one :class:`GameSpec`.

``MARKERS`` is the order of the camera stickers: append-only, since a card's position plus
``MARKER_BASE`` is the id printed on its sticker.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.engine.registry import CardInfo, GameSpec, TableZone

from . import data as D
from .rules import PillarsGame

if TYPE_CHECKING:
    from companion.engine.signals import Signals
    from companion.engine.sim import Simulator

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


def table_zones(players: int) -> tuple[TableZone, ...]:
    """The table mode's zones, with the corner markers on the corners of the board: the
    privilege cards of Kingsbridge, the craftsmen of Shiring, and each player's craftsmen in
    their area below or above the board."""
    zones = [
        TableZone("kingsbridge", (0.04, 0.04, 0.34, 0.30), frozenset({"privilege"}),
                  area="kingsbridge"),
        TableZone("shiring", (0.66, 0.04, 0.96, 0.30), frozenset({"craftsman"}), area="shiring"),
    ]
    spots = [(0.0, 1.04), (0.5, 1.04), (0.5, -0.56), (0.0, -0.56)]
    for seat in range(players):
        u, v = spots[seat % 4]
        zones.append(TableZone(f"craftsmen/{seat}", (u, v, u + 0.5, v + 0.52),
                               frozenset({"craftsman"}), seat, role="craftsmen"))
    return tuple(zones)


def table_cards(state: Any) -> dict[str, list[str]]:
    """Where the engine has each card the table mode checks, by zone id."""
    out: dict[str, list[str]] = {
        "kingsbridge": [c for c in state.kingsbridge if c],
        "shiring": [c for c in state.shiring if c],
    }
    for seat, s in enumerate(state.seats):
        out[f"craftsmen/{seat}"] = list(s.craftsmen)
    return out


def _label(card: str) -> str:
    """The card's English name, as printed beside its sticker (a starting craftsman says
    whose)."""
    c = D.CRAFTSMEN.get(card)
    if c is not None and c.round == 0:
        colour = next(k for k, v in D.COLOUR_CODE.items() if v == card[-1])
        return f"{D.KIND_NAMES[c.kind]} (start, {colour})"
    return D.card_name(card)


# The declared extension points.  Each loader imports its module when called, never when this
# spec is: the engine, the bots and the command line read the spec without pygame.


def _screen() -> type[Any]:
    from .kiosk.screen import PillarsScreen

    return PillarsScreen


def _words() -> type[Any]:
    from .kiosk.words import PillarsWords

    return PillarsWords


def _guide() -> Any:
    from .kiosk.guide import steps

    return steps


def _scenes() -> Any:
    from .kiosk import scenes

    return scenes


def _simulator() -> Simulator:
    from .sim import SIMULATOR

    return SIMULATOR


def _signals() -> Signals:
    from .signals import SIGNALS

    return SIGNALS


STRENGTHS = {"strong": "search@500o+convert"}
"""The companion's bot at each strength where it is not the default one (easy: the heuristic;
normal: ``search@500``).  In three- and four-player games more iterations were no stronger
(``search@1500s4`` won 0.39 of 64 three-player games against normal, ``search@1000s4`` 0.29 of
55 four-player ones); strong judges by the heuristic with the VP the seat's craftsmen can still
make this round from its cubes (``+convert``, ``signals.py``: ``search@500+convert`` won 0.91
of 96 three-player games against normal, 0.80 of 96 four-player ones, 0.97 of 64 at two, and
23 of 24 against ``search@1500s4``, strong before), and since session 16 in a tree of the
seat's own decisions, the others' played by a fixed rule (``o``): ``search@500o+convert`` won
0.71, 0.69 and 0.58 of 24, 26 and 24 games at two, three and four players against
``search@500+convert`` (even: 0.50, 0.33, 0.25), at about twice its CPU a decision, still a
Pi 4's budget (``docs/notes/bots-lab.md``)."""


SPEC = GameSpec(
    name=PillarsGame.name,
    title=PillarsGame.title,
    rules=PillarsGame,
    bgg_id=24480,
    min_players=PillarsGame.min_players,
    max_players=PillarsGame.max_players,
    options=PillarsGame.options,
    cards=tuple(CardInfo(c, _kind(c), _label(c)) for c in MARKERS),
    colours=tuple(D.COLOUR_CODE),
    marker_base=MARKER_BASE,
    table_zones=table_zones,
    table_cards=table_cards,
    rank=1,
    screen=_screen,
    words=_words,
    scenes=_scenes,
    guide=_guide,
    simulator=_simulator,
    signals=_signals,
    strengths=STRENGTHS,
    locale=Path(__file__).resolve().parent / "locale",
)
