"""The Builders: Middle Ages as the registry sees it: one :class:`GameSpec`.

``MARKERS`` is the order of the camera stickers: append-only, since a card's position plus
``MARKER_BASE`` is the id printed on its sticker (a card with two physical copies, the all-round
Craftsman, has two consecutive ids).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.engine.registry import CardInfo, GameSpec, TableZone

from . import cards as C
from .rules import BuildersGame

if TYPE_CHECKING:
    from companion.engine.signals import Signals
    from companion.engine.sim import Simulator

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
        kind = "machine" if b.is_machine else "building"
        return CardInfo(card, kind, C.card_name(card), printed=C.card_name(card, "fr"))
    w = C.WORKER[card]
    return CardInfo(card, "worker", C.card_name(card), w.count, C.card_name(card, "fr"))


def table_zones(players: int) -> tuple[TableZone, ...]:
    """The table mode's zones, with the corner markers on the corners of the play area: the
    card rows across the middle, each player's building sites (with the workers on them) and
    idle workers in the halves or quarters around them."""
    work = frozenset({"worker", "machine"})
    sites = frozenset({"building", "machine", "worker"})
    if players <= 2:
        quads = [(0.0, 1.0, True), (0.0, 1.0, False)]
    else:
        quads = [(0.0, 0.5, True), (0.5, 1.0, True), (0.5, 1.0, False), (0.0, 0.5, False)]
    zones: list[TableZone] = []
    for seat in range(players):
        u0, u1, bottom = quads[seat % len(quads)]
        if bottom:  # sites nearer the middle, idle workers nearer the player
            zones.append(TableZone(f"sites/{seat}", (u0, 0.62, u1, 0.81), sites, seat,
                                   role="sites"))
            zones.append(TableZone(f"workers/{seat}", (u0, 0.81, u1, 1.0), work, seat,
                                   role="workers"))
        else:
            zones.append(TableZone(f"sites/{seat}", (u0, 0.19, u1, 0.38), sites, seat,
                                   role="sites"))
            zones.append(TableZone(f"workers/{seat}", (u0, 0.0, u1, 0.19), work, seat,
                                   role="workers"))
    return tuple(zones)


def table_cards(state: Any) -> dict[str, list[str]]:
    """Where the engine has each card the table mode checks, by zone id.  Finished machines
    are turned over, so they are expected nowhere (see ``BuildersGame.cards_in_view``)."""
    game = BuildersGame()
    out: dict[str, list[str]] = {}
    for seat in range(len(state.players)):
        view = game.cards_in_view(state, seat)
        out[f"sites/{seat}"] = view["sites"]
        out[f"workers/{seat}"] = view["workers"]
    return out


OPTION_LABELS = {
    "coins": ("Taking coins", ("Each action alone", "Cumulative")),
    "show_next_worker": ("Next worker", ("Hidden", "Shown")),
}
"""What the set-up screen calls each option and its choices (English; the kiosk translates)."""


# The declared extension points.  Each loader imports its module when called, never when this
# spec is: the engine, the bots and the command line read the spec without pygame.


def _screen() -> type[Any]:
    from .kiosk.screen import BuildersScreen

    return BuildersScreen


def _words() -> type[Any]:
    from .kiosk.words import BuildersWords

    return BuildersWords


def _guide() -> Any:
    from .kiosk.guide import steps

    return steps


def _scenes() -> Any:
    from .kiosk import scenes

    return scenes


def _simulator() -> Simulator:
    from .rules import SIMULATOR

    return SIMULATOR


def _signals() -> Signals:
    from .signals import SIGNALS

    return SIGNALS


STRENGTHS = {
    "normal/4": "search@50t+open",
    "strong/2": "search@500+lean",
    "strong": "search@500+open",
}
"""The companion's bot at each strength where it is not the default one (easy: the heuristic;
normal: ``search@500``).  More iterations did not make the search stronger: the evaluation is
a judge of the next turn or two, and a deeper tree finds its errors (``docs/notes/bots-lab.md``).
Strong at two players is normal's search with the evaluation tuned against normal at two
players (``+lean``, ``signals.py``: a worker's resources worth less, so that it does not
recruit workers it cannot pay), which won 0.92 of 48 two-player games against normal at the
same 500 iterations (four trees of 1000 with it won 0.06 of 32 against it at 500: more thought
is weaker still).  At three and four players it was no better than normal; there (and solo)
strong is normal's search with open sites not held against the seat (``+open``), which won
0.54 (three players) and 0.45 (four) of 96 games against normal (even: 0.33 and 0.25).

Normal at four players is fifty iterations whose leaves are played on to the start of the
seat's next turn (each turn's AP left taken as coins) and judged there by the open evaluation
(``search@50t+open``, a decision cheaper on a Pi); against three heuristics it won 0.625 of 40
held-out games where ``search@500`` won 0.43 of 100, and strong (``search@500+open``) won 0.35
of 96 against three of it (even: 0.25; ``docs/notes/bots-lab.md``, "Phase-consistent leaves")."""


SPEC = GameSpec(
    name=BuildersGame.name,
    title=BuildersGame.title,
    rules=BuildersGame,
    bgg_id=144553,
    min_players=BuildersGame.min_players,
    max_players=BuildersGame.max_players,
    options={
        name: replace(opt, label=OPTION_LABELS[name][0], labels=OPTION_LABELS[name][1])
        if name in OPTION_LABELS
        else opt
        for name, opt in BuildersGame.options.items()
    },
    cards=tuple(_info(c) for c in MARKERS),
    marker_base=MARKER_BASE,
    table_zones=table_zones,
    table_cards=table_cards,
    rank=2,
    screen=_screen,
    words=_words,
    scenes=_scenes,
    guide=_guide,
    simulator=_simulator,
    signals=_signals,
    strengths=STRENGTHS,
    locale=Path(__file__).resolve().parent / "locale",
    unofficial_options=("solo",),
)
