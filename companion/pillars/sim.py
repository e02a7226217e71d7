"""The Pillars' simulation path: a mutable state for search and random playouts.

``apply`` in the rules checks an action, thaws the state into a draft, runs the step's handler
and freezes the draft into the next state.  The simulation path keeps one draft for the whole
game instead: every seat stays thawed (``seats`` and the draft's mutable seats are the same
objects), and it runs the rules' own contract on it, written once in the rules' modules: the
legal actions and the current player (``steps.py``), the chance outcomes (``chance.py``) and
each step's handler (``STEP``), with no check before it and no freeze after it;
:meth:`PillarsSim.freeze` builds the rules' :class:`~companion.pillars.state.PillarsState` on
demand.  What is its own is what only the bots ask: the features and signals, a seat's view
(``hidden_event``, ``determinize``), the random playout and the others' cheap decisions
(``advance``).  ``companion.engine.sim.verified_game`` checks at every step of random games
that the in-place path and the rules' thaw, apply, freeze give equal states, lists and
outcomes (``tests/test_sim_pillars.py``).
"""

from __future__ import annotations

import random
from collections.abc import Container
from typing import Any

from companion.engine.core import Setup
from companion.engine.draft import thaw
from companion.engine.ledger import Ledger, Notes, reconcile
from companion.engine.sim import Features
from companion.engine.simulate import sample

from . import data as D
from .actions import PASS, Action
from .cathedral import hand_uses, legal_cathedral, mortar, winning_seats
from .chance import outcomes
from .conversion import best_conversion
from .draft import PillarsDraft, SeatDraft, reserve
from .invariants import holdings
from .phase3 import card_yields
from .signals import NAMES
from .state import PillarsState, Seat
from .steps import CHANCE_STEPS, STEP, current_player, legal_actions

_HANDLER = {s.name: s.handler for s in STEP.values()}
_LEGAL = {s.name: s.legal for s in STEP.values()}
_CONVERTIBLE: dict[tuple[Any, ...], int] = {}
""":func:`_convertible`'s answers by what decides them (a few thousand in a game's searches;
forgotten past :data:`_CONVERTIBLE_MOST`)."""
_CONVERTIBLE_MOST = 50_000


def _convertible(s: SeatDraft) -> int:
    """The VP the seat's craftsmen could still make at this round's cathedral from the cubes
    it holds and its resource cards will yield (the best conversion, ``conversion.py``, with
    each craftsman's uses left this round; the Goldsmith's from its gold)."""
    crafts = hand_uses(s)
    res = [h + y for h, y in zip(s.res, card_yields(s), strict=True)]
    has_mortar = mortar(s)
    key = (crafts, *res, s.gold, has_mortar)
    vp = _CONVERTIBLE.get(key)
    if vp is None:
        if len(_CONVERTIBLE) >= _CONVERTIBLE_MOST:
            _CONVERTIBLE.clear()
        ways = [(D.CRAFTSMEN[c], k) for c, k in crafts]
        held = (res[0], res[1], res[2], res[3])
        vp = _CONVERTIBLE[key] = best_conversion(ways, held, s.gold, has_mortar).vp
    return vp


_PEEKED = frozenset({"draft", "draft-discard", "draw", "place", "parked"})
"""The steps between Ellen's look at the event (round start) and its reveal (phase III)."""


def _thaw_seats(m: PillarsSim, seats: Any) -> None:
    """Every seat thawed for good, with no ledger notes (positions, not history)."""
    mut = []
    for i, seat in enumerate(seats):
        t = thaw(seat, SeatDraft)
        t._i = i
        t.notes = None
        mut.append(t)
    m.seats = mut
    m._notes = Notes(m.round)


class PillarsSim(PillarsDraft):
    """A whole table, mutable, for search (see :class:`companion.engine.sim.SimState`)."""

    __slots__ = ()
    seats: list[SeatDraft]  # type: ignore[assignment]  # every seat thawed, for good

    @classmethod
    def thaw(cls, state: PillarsState) -> PillarsSim:
        """A mutable copy of the rules' state ``state``."""
        m: PillarsSim = thaw(state, cls)
        _thaw_seats(m, state.seats)
        return m

    def freeze(self) -> PillarsState:
        """The rules' immutable state equal to this one.  The simulation path keeps no ledger
        (history, not position, outside ``==``): the frozen state's ledger is the one it was
        thawed with, then one ``position`` entry per amount changed since, so that it still
        adds up to the holdings."""
        out = object.__new__(PillarsState)
        out.__dict__.update(self.__dict__)
        out.__dict__["seats"] = tuple([m.freeze_as(Seat) for m in self.seats])
        out.__dict__["ledger"] = Ledger(reconcile(self.ledger.entries(), holdings(out), self.round))
        return out

    def copy(self) -> PillarsSim:
        """An independent copy."""
        m: PillarsSim = thaw(self, PillarsSim)
        _thaw_seats(m, self.seats)
        return m

    def s(self, i: int) -> SeatDraft:
        """The mutable seat ``i`` (every seat is thawed for good)."""
        return self.seats[i]

    def seat_count(self) -> int:
        return len(self.seats)

    def winners(self) -> list[int]:
        """The winning seats (``cathedral.winning_seats``); empty before the end."""
        return winning_seats(self) if self.over else []

    def hidden_event(self, seat: int) -> bool:
        """Whether this round's event lies face down for ``seat``: Ellen's owner looked at it
        at the start of the round (``peek``) and it is shown to the table only at the start
        of phase III.  The one thing in a Pillars state a seat may not see: the decks, the
        bag and the round's cards are sets the chance steps draw from, never an order."""
        if not self.event or self.step not in _PEEKED:
            return False
        return "ellen" not in self.seats[seat].privileges

    def determinize(self, seat: int, rng: random.Random) -> PillarsSim:
        """A copy; where Ellen's owner has seen an event ``seat`` has not
        (:meth:`hidden_event`), that event drawn anew from the ones ``seat`` has not seen."""
        m = self.copy()
        if self.hidden_event(seat):
            unseen = {*self.events_unseen, self.event}
            cards = [c for c in D.EVENTS if c in unseen]  # canonical order
            pick = cards[rng.randrange(len(cards))]
            m.event = pick
            m.events_unseen = tuple(c for c in cards if c != pick)
        return m

    def features(self, seat: int) -> Features:
        """Gold (with the wool mill's coming income), cubes held and this round's production
        in gold at market prices, craftsmen; Pillars has no construction sites."""
        s = self.seats[seat]
        gold = s.gold + s.wool
        if self.step == "draft" or self.step == "draft-discard":
            gold += reserve(s)
        price = D.MARKET_PRICE
        cubes = 0
        for r, y in enumerate(card_yields(s)):
            cubes += (s.res[r] + y) * price[r]
        return Features(s.vp, gold, cubes, len(s.craftsmen), 0)

    SIGNALS = NAMES
    """What :meth:`signals` measures of each seat, in order (``signals.py`` declares how the
    bots weigh them): ``vp``; ``gold``, ``cubes`` (in gold at
    market prices) and ``craftsmen`` as :meth:`features` counts them; ``privileges`` the
    privilege cards held; ``left`` the share of the game still to play (rounds, 1 before the
    first, 0 after the last) times each of the others: gold, cubes and craftsmen are worth
    VP only while rounds are left to turn them into VP; ``convertible`` the VP its craftsmen
    could still make at this round's cathedral from the cubes it holds and will produce (what
    its cubes are worth to it this round, where ``cubes`` counts their market price)."""

    def signals(self, skip: Container[str] = ()) -> list[list[float]]:
        """Each seat's :data:`SIGNALS`, in seat order (``skip``: signals a judge gives no
        weight; all of The Pillars' cost little, so it measures them all)."""
        left = max(0, D.ROUNDS - self.round + 1) / D.ROUNDS if not self.over else 0.0
        out = []
        for seat, s in enumerate(self.seats):
            f = self.features(seat)
            privileges = len(s.privileges)
            out.append(
                [
                    f.score,
                    f.money,
                    f.goods,
                    f.hands,
                    privileges,
                    left * f.money,
                    left * f.goods,
                    left * f.hands,
                    left * privileges,
                    _convertible(s),
                ]
            )
        return out

    # -- the contract: the rules' own functions, on this draft ------------------------------
    def current_player(self) -> int:
        return current_player(self)

    def legal_actions(self) -> list[Action]:
        return legal_actions(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return outcomes(self)

    def apply(self, action: Action) -> None:
        """Apply a legal action or chance outcome in place (unchecked): the step's handler."""
        handler = _HANDLER[self.step]
        assert handler is not None
        handler(self, action)

    def random_playout(self, rng: random.Random, max_actions: int = 100_000) -> list[Any]:
        """Play to the end exactly as ``random_game`` does with ``rng`` (same draws, same
        choices: ``rng.choice`` draws with ``_randbelow``)."""
        actions: list[Any] = []
        append = actions.append
        below = getattr(rng, "_randbelow", rng.randrange)
        chance, handlers, legal = CHANCE_STEPS, _HANDLER, _LEGAL
        for _ in range(max_actions):
            if self.over:
                return actions
            step = self.step
            if step in chance:
                action = sample(outcomes(self), rng)
            else:
                options = legal[step](self)  # type: ignore[misc]
                action = options[below(len(options))]
            handlers[step](self, action)  # type: ignore[misc]
            append(action)
        raise RuntimeError(f"pillars: no end after {max_actions} actions")

    def advance(self, seat: int, rng: random.Random) -> None:
        """Play on in place until ``seat`` decides (or the game ends), every other seat's
        decisions by a cheap fixed rule: at the cathedral it makes all its craftsmen can (the
        first craft the rules list, again and again), it skips the market, and anything else
        it chooses as the random playout does (:meth:`random_playout`); chance drawn with
        ``rng``.  The search's model of the others (``search@No``): they convert their cubes,
        as players do, without a search."""
        while not self.over:
            step = self.step
            if step in CHANCE_STEPS:
                action = sample(outcomes(self), rng)
            elif self.turn == seat:
                return
            elif step == "cathedral":
                action = legal_cathedral(self)[0]  # a craft while one is left, then done
            elif step == "market":
                action = PASS
            else:
                action = rng.choice(legal_actions(self))
            self.apply(action)


class PillarsSimulator:
    """The Pillars' :class:`companion.engine.sim.Simulator`."""

    def __init__(self) -> None:
        self._first: tuple[Setup, PillarsState] | None = None

    def start(self, setup: Setup) -> PillarsSim:
        """The first state of ``setup``, thawed (the last set-up's is remembered: playouts
        start the same table again and again)."""
        from .rules import PillarsGame

        first = self._first
        if first is None or first[0] is not setup:
            first = self._first = (setup, PillarsGame().initial_state(setup))
        return PillarsSim.thaw(first[1])

    def thaw(self, state: PillarsState) -> PillarsSim:
        return PillarsSim.thaw(state)


SIMULATOR = PillarsSimulator()
"""The simulation path this game's registry record declares (``spec.py``: ``simulator``)."""
