"""The Builders: Middle Ages as the registry sees it: one :class:`GameSpec`.

``MARKERS`` is the order of the camera stickers: append-only, since a card's position plus
``MARKER_BASE`` is the id printed on its sticker (a card with two physical copies, the all-round
Craftsman, has two consecutive ids).
"""

from __future__ import annotations

from companion.engine.registry import CardInfo, GameSpec

from . import cards as C
from .rules import BuildersGame

MARKER_BASE = 100

MARKERS: tuple[str, ...] = (
    # buildings
    "tonnelle", "cabane", "pont-couvert", "cabane-perchee", "pont-en-pierre", "lavoir",
    "hutte-de-paille", "maison-urbaine", "chaumiere", "maison-rurale", "maisonnette", "etable",
    "auberge", "porcherie", "relais-rural", "silo-a-grains", "ecurie", "forge", "moulin-a-vent",
    "moulin-a-eau", "halles", "maison-bourgeoise", "relais-postal", "hotel", "taverne",
    "ferme", "eglise", "tour-de-guet", "abbaye", "cloitre", "chapelle", "aqueduc",
    "chateau-fort", "cathedrale",
    # machines
    "grue-1", "grue-2", "scie-circulaire-1", "scie-circulaire-2", "instrument-de-mesure-1",
    "instrument-de-mesure-2", "four-a-tuiles-1", "four-a-tuiles-2",
    # workers (the all-round Craftsman has two physical cards)
    "apprenti-1100", "apprenti-1010", "apprenti-1001", "apprenti-0110", "apprenti-0101",
    "apprenti-0011", "manoeuvre-2100", "manoeuvre-2010", "manoeuvre-2001", "manoeuvre-1200",
    "manoeuvre-0210", "manoeuvre-0201", "manoeuvre-1020", "manoeuvre-0120", "manoeuvre-0021",
    "manoeuvre-1002", "manoeuvre-0102", "manoeuvre-0012", "compagnon-1111",
    "compagnon-2200", "compagnon-2020", "compagnon-2002", "compagnon-0220", "compagnon-0202",
    "compagnon-0022", "compagnon-2110", "compagnon-1201", "compagnon-1021", "compagnon-0112",
    "compagnon-3100", "compagnon-0301", "compagnon-1030", "compagnon-0013", "maitre-3200",
    "maitre-2300", "maitre-3002", "maitre-2003", "maitre-0320", "maitre-0230", "maitre-0032",
    "maitre-0023",
)  # fmt: skip


def _info(card: str) -> CardInfo:
    if card in C.BUILDING:
        b = C.BUILDING[card]
        return CardInfo(card, "machine" if b.is_machine else "building", C.card_name(card))
    w = C.WORKER[card]
    return CardInfo(card, "worker", C.card_name(card), w.count)


SPEC = GameSpec(
    name=BuildersGame.name,
    title=BuildersGame.title,
    rules=BuildersGame,
    bgg_id=144553,
    min_players=BuildersGame.min_players,
    max_players=BuildersGame.max_players,
    options=BuildersGame.options,
    cards=tuple(_info(c) for c in MARKERS),
    marker_base=MARKER_BASE,
    rank=2,
    screen="companion.kiosk.screens.builders:BuildersScreen",
    scenes="companion.kiosk.scenes.builders:SCENES",
    unofficial_options=("solo",),
)
