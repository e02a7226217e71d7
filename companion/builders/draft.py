"""The mutable table of The Builders: the one state every rule of the game edits in place.

A :class:`Draft` holds the fields of a :class:`BuildersState`, the rows, decks and chance
steps in lists and ``sent`` in a dict, each player as a :class:`Seat`: a mutable record of
the player's immutable values (tuples of cards, :class:`Site` records), each replaced when it
changes, so that thawing a seat and freezing it copy nothing, and a seat unchanged by an
action keeps its record.  The rules' steps (:mod:`.turn`, :mod:`.chance`) are written over
it, and both paths run them:

- the bots' search (:class:`~companion.builders.sim.BuildersSim`, a draft with the search's
  measures) runs them on legal actions, unchecked and with no history, on copies;
- the engine (``BuildersGame.apply``) thaws its immutable state into that same table class,
  keeping the ledger's notes, refuses an illegal action before any step edits it
  (``turn.check``), runs the steps and freezes the table back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Self

from companion.engine.ledger import Ledger, Raw, merge, reconcile

from .checks import SUPPLY, holdings, shared_supply
from .state import BuildersState, PlayerState, Site


class Seat:
    """One player's coins and cards: the fields of a :class:`PlayerState`, each replaced when
    it changes."""

    __slots__ = ("coins", "idle", "sites", "finished", "vp")

    def __init__(
        self,
        coins: int,
        idle: tuple[str, ...],
        sites: tuple[Site, ...],
        finished: tuple[str, ...],
        vp: int,
    ) -> None:
        self.coins = coins
        self.idle = idle
        self.sites = sites
        self.finished = finished
        self.vp = vp

    def copy(self) -> Seat:
        """An independent copy (sharing the immutable values)."""
        return Seat(self.coins, self.idle, self.sites, self.finished, self.vp)


def _frozen(p: Seat, thawed: PlayerState) -> PlayerState:
    """The record of seat ``p``: ``thawed`` itself while ``p`` holds its very values (an
    action changes one seat at most: the others keep their records)."""
    if (
        p.idle is thawed.idle
        and p.sites is thawed.sites
        and p.finished is thawed.finished
        and p.coins == thawed.coins
        and p.vp == thawed.vp
    ):
        return thawed
    return PlayerState(p.coins, p.idle, p.sites, p.finished, p.vp)


class Draft:
    """A whole table, mutable: the fields of a :class:`BuildersState` (``players`` as
    :class:`Seat` records, ``sent`` a dict), with ``notes``, the ledger's entries of the
    changes since it was thawed (None when it keeps no history), and ``pool``, what the
    workers nobody holds supply (:meth:`shared`)."""

    __slots__ = (
        "setup",
        "players",
        "building_deck",
        "building_next",
        "building_row",
        "worker_deck",
        "worker_next",
        "worker_row",
        "apprentices",
        "pending",
        "pending_seat",
        "turn_player",
        "ap",
        "sent",
        "coin_ap",
        "turn",
        "end",
        "over",
        "cumulative_coins",
        "show_next_worker",
        "solo",
        "automa_workers",
        "automa_finished",
        "set_aside",
        "ledger",
        "notes",
        "pool",
        "thawed",
    )

    def __init__(self, st: BuildersState, notes: bool = False) -> None:
        self.setup = st.setup
        players: list[Seat] = []
        for p in st.players:
            players.append(Seat(p.coins, p.idle, p.sites, p.finished, p.vp))
        self.players = players
        self.building_deck = list(st.building_deck)
        self.building_next = st.building_next
        self.building_row = list(st.building_row)
        self.worker_deck = list(st.worker_deck)
        self.worker_next = st.worker_next
        self.worker_row = list(st.worker_row)
        self.apprentices = list(st.apprentices)
        self.pending = list(st.pending)
        self.pending_seat = st.pending_seat
        self.turn_player = st.turn_player
        self.ap = st.ap
        self.sent = dict(st.sent)
        self.coin_ap = st.coin_ap
        self.turn = st.turn
        self.end = st.end
        self.over = st.over
        self.cumulative_coins = st.cumulative_coins
        self.show_next_worker = st.show_next_worker
        self.solo = st.solo
        self.automa_workers = list(st.automa_workers)
        self.automa_finished = list(st.automa_finished)
        self.set_aside = list(st.set_aside)
        self.ledger = st.ledger
        """The ledger the table was thawed with."""
        self.notes: list[Raw] | None = [] if notes else None
        """The ledger's changes since the thaw, in order; None on a table that keeps no
        history (the search's), whose frozen ledger is reconciled with the holdings instead."""
        self.pool: list[int] | None = None
        """What every worker nobody holds supplies (row, deck, its top, Apprentices to deal),
        once asked for (:meth:`shared`), then kept up to date (:meth:`taken`)."""
        self.thawed = st.players
        """The players' records the table was thawed from (:meth:`freeze` keeps those unchanged)."""

    @classmethod
    def thaw(cls, st: BuildersState, notes: bool = False) -> Self:
        """A mutable copy of the immutable ``st``; with ``notes``, one that keeps the ledger's
        entries of what is done to it."""
        return cls(st, notes)

    def copy(self) -> Self:
        """An independent copy: the lists and the dict copied, the rest shared (immutable).
        Field by field, not a loop over the slots: the search copies a table at every
        simulation, and the loop's getattr and setattr were most of the copy."""
        d = object.__new__(type(self))
        d.setup = self.setup
        d.players = list(map(Seat.copy, self.players))
        d.building_deck = self.building_deck[:]
        d.building_next = self.building_next
        d.building_row = self.building_row[:]
        d.worker_deck = self.worker_deck[:]
        d.worker_next = self.worker_next
        d.worker_row = self.worker_row[:]
        d.apprentices = self.apprentices[:]
        d.pending = self.pending[:]
        d.pending_seat = self.pending_seat
        d.turn_player = self.turn_player
        d.ap = self.ap
        d.sent = dict(self.sent)
        d.coin_ap = self.coin_ap
        d.turn = self.turn
        d.end = self.end
        d.over = self.over
        d.cumulative_coins = self.cumulative_coins
        d.show_next_worker = self.show_next_worker
        d.solo = self.solo
        d.automa_workers = self.automa_workers[:]
        d.automa_finished = self.automa_finished[:]
        d.set_aside = self.set_aside[:]
        d.ledger = self.ledger
        d.notes = None if self.notes is None else self.notes[:]
        d.pool = None if self.pool is None else self.pool[:]
        d.thawed = self.thawed
        return d

    def freeze(self) -> BuildersState:
        """The immutable state with the draft's values.  Its ledger is the thawed one with the
        notes added; on a table that keeps no history, the thawed one then one ``position``
        entry per amount changed since, so that it still adds up to the holdings."""
        notes = self.notes
        state = BuildersState(
            self.setup,
            tuple(map(_frozen, self.players, self.thawed)),
            tuple(self.building_deck),
            self.building_next,
            tuple(self.building_row),
            tuple(self.worker_deck),
            self.worker_next,
            tuple(self.worker_row),
            tuple(self.apprentices),
            tuple(self.pending),
            self.pending_seat,
            self.turn_player,
            self.ap,
            tuple(self.sent.items()),
            self.coin_ap,
            self.turn,
            self.end,
            self.over,
            self.cumulative_coins,
            self.show_next_worker,
            self.solo,
            tuple(self.automa_workers),
            tuple(self.automa_finished),
            tuple(self.set_aside),
            self.ledger.append(merge(notes)) if notes else self.ledger,
        )
        if notes is None:
            entries = reconcile(self.ledger.entries(), holdings(state), self.turn)
            return replace(state, ledger=Ledger(entries))
        return state

    def note(self, seat: int, what: str, amount: int, cause: str, **detail: int | str) -> None:
        """A ledger entry for ``seat`` in this turn (see ``docs/builders.md``, "The ledger");
        the steps call it only on a table that keeps notes."""
        self.notes.append((self.turn, seat, what, cause, tuple(detail.items()), amount))  # type: ignore[union-attr]

    def shared(self) -> list[int]:
        """What every worker nobody holds supplies of each resource: the worker row, the
        worker deck and its top, the Apprentices still to deal (``checks.can_progress``)."""
        if self.pool is None:
            self.pool = shared_supply(self)
        return self.pool

    def taken(self, card: str) -> None:
        """Worker ``card`` left the shared pool (recruited, dealt, taken by the Automa)."""
        pool = self.pool
        if pool is not None:
            o = SUPPLY[card]
            pool[0] -= o[0]
            pool[1] -= o[1]
            pool[2] -= o[2]
            pool[3] -= o[3]
