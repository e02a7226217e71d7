"""The immutable state of one game of The Builders: Middle Ages.

Hidden decks are multisets: a tuple of card ids in catalogue order, since nobody knows (and the
rules never need) the order of face-down cards.  Which card comes next is a chance node.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.core import Setup
from companion.engine.ledger import Ledger

from .cards import NO_RESOURCES, Resources

# The chance steps a state can be waiting for; the text is the verb of the outcome's notation.
REVEAL_BUILDING = "reveal building"
NEXT_BUILDING = "next building"
REVEAL_WORKER = "reveal worker"
NEXT_WORKER = "next worker"
DEAL_APPRENTICE = "deal apprentice"


@dataclass(frozen=True, slots=True)
class Site:
    """An open construction site: the card, who works on it and what they supply so far."""

    card: str
    workers: tuple[str, ...] = ()
    supplied: Resources = NO_RESOURCES


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's coins and cards.

    ``idle`` holds the workers and finished machines free to be sent, ``sites`` the open
    construction sites in the order started, ``finished`` the completed buildings and machines
    (a finished machine is also in ``idle`` or on one of the sites), ``vp`` their points.
    """

    coins: int = 10
    idle: tuple[str, ...] = ()
    sites: tuple[Site, ...] = ()
    finished: tuple[str, ...] = ()
    vp: int = 0


@dataclass(frozen=True, slots=True)
class BuildersState:
    """A whole table: decks, rows, players, whose turn it is and what chance step is due.

    ``pending`` lists the chance steps still to happen, first one next (a reveal into a row,
    a new visible deck top, or an Apprentice dealt to the seat in ``pending_seat``).  ``sent``
    counts the workers sent to each site this turn, ``coin_ap`` the AP spent on coins this
    turn.  ``end`` says why the game is ending (set when the end is triggered) and ``over``
    whether the last turn has been played.

    The solo variant (one player, unofficial, ruling B9) adds an automatic opponent, the
    Automa: ``automa_workers`` are the workers it holds, ``automa_finished`` the buildings it
    has completed (their VP are its score) and ``set_aside`` the workers it used up, which are
    out of the game.

    ``ledger`` is every change of coins, VP and workers with its cause, append-only: history,
    not position, so it is left out of ``==`` and the hash (a position built by hand equals
    the played one).
    """

    setup: Setup
    players: tuple[PlayerState, ...]
    building_deck: tuple[str, ...]
    building_next: str | None
    building_row: tuple[str, ...]
    worker_deck: tuple[str, ...]
    worker_next: str | None
    worker_row: tuple[str, ...]
    apprentices: tuple[str, ...]
    pending: tuple[str, ...]
    pending_seat: int
    turn_player: int
    ap: int
    sent: tuple[tuple[str, int], ...]
    coin_ap: int
    turn: int
    end: str | None
    over: bool
    cumulative_coins: bool
    show_next_worker: bool
    solo: bool = False
    automa_workers: tuple[str, ...] = ()
    automa_finished: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()
    ledger: Ledger = field(default=Ledger(), compare=False, repr=False)
