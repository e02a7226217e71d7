"""The Pillars' simulation path: a mutable state for search and random playouts.

``apply`` in the rules copies the state into a mutable draft, checks the action, runs the step's
handler and freezes the draft into the next state.  The simulation path keeps one draft for the
whole game instead: every seat stays thawed (``seats`` and the draft's mutable seats are the
same objects, so the steps read what they wrote), each action runs the step's own handler from
the rules (``STEP_TABLE``) with no check before it and no freeze after it, and :meth:`freeze`
builds the rules' :class:`~companion.pillars.state.PillarsState` on demand.  The hottest lists
(the draft, placing, the market, chance) are mirrored here without building action lists in the
random playout.  ``companion.engine.sim.verified_game`` compares it with the rules at every step
(``tests/test_sim_pillars.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container
from typing import Any

from companion.engine.core import CHANCE, TERMINAL, Setup
from companion.engine.draft import thaw
from companion.engine.ledger import Ledger, Notes, reconcile
from companion.engine.sim import Features

from . import data as D
from .actions import BUY, CRAFT, DONE, PASS, PLACE, REMIGIUS, SELL, TAKE, Action, return_action
from .cathedral import end_round, return_ways
from .chance import CARD_STEPS, DIE_FACES, deck, outcomes, privilege_deck
from .conversion import best_conversion
from .draft import (
    PillarsDraft,
    SeatDraft,
    add,
    from_supply,
    gain_gold,
    gain_vp,
    pay_or_lose,
    settle,
    without,
)
from .invariants import holdings
from .phase1 import end_draft
from .phase2 import after_builder
from .phase3 import take_privilege
from .signals import NAMES
from .state import PillarsState, Seat
from .steps import CHANCE_STEPS, STEP

_HANDLER = {s.name: s.handler for s in STEP.values()}
_LEGAL = {s.name: s.legal for s in STEP.values()}
_CARD_VERB = {step: verb for step, (verb, _kind, _what) in CARD_STEPS.items()}
_OUTCOME: dict[tuple[str, Any], Action] = {}


def _outcome(verb: str, arg: Any) -> Action:
    """The interned chance outcome ``verb arg`` (equal to the rules' own)."""
    a = _OUTCOME.get((verb, arg))
    if a is None:
        a = _OUTCOME[verb, arg] = Action(verb, (arg,))
    return a


# Craftsman ids by what their kind allows (rulings P13): ``kinds(s) & X`` as a set test.
_WOOD_IDS = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.WOODWORKER_KINDS)
_STONE_IDS = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.STONECUTTER_KINDS)
_MORTAR_IDS = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.MORTAR_KINDS)
_AUTO = frozenset(c for c, m in D.CRAFTSMEN.items() if m.spec.auto)
_NEEDS_MORTAR = frozenset(c for c, m in D.CRAFTSMEN.items() if m.spec.needs_mortar)
_INPUTS = {c: m.spec.inputs for c, m in D.CRAFTSMEN.items()}
_CAPACITY = {c: m.capacity for c, m in D.CRAFTSMEN.items()}
_CARD_WORKERS = {c: k.workers for c, k in D.RESOURCE_CARDS.items()}
_COST = {c: m.cost for c, m in D.CRAFTSMEN.items()}
_SPACE_IDS = tuple(sp.id for sp in D.SPACES)
_PLACE = tuple(PLACE[k] for k in _SPACE_IDS)
_REMIGIUS = tuple(REMIGIUS[k] for k in _SPACE_IDS)
_RES_INDEX = {name: i for i, name in enumerate(D.RESOURCES)}
_MOST = len(SELL[0]) - 1
_SPEC_GOLD = {c: m.spec.gold for c, m in D.CRAFTSMEN.items()}
_SPEC_VP = {c: m.spec.vp for c, m in D.CRAFTSMEN.items()}
_NO_CUBES = (0, 0, 0, 0)
_RETURNS: dict[tuple[int, ...], list[tuple[int, ...]]] = {}


def _return_ways(res: tuple[int, ...]) -> list[tuple[int, ...]]:
    """``cathedral.return_ways(res, sum(res) - 5)``, remembered (few hands ever occur)."""
    ways = _RETURNS.get(res)
    if ways is None:
        ways = _RETURNS[res] = return_ways(res, sum(res) - 5)
    return ways


_RETURN_ACTION: dict[tuple[int, ...], Action] = {}


def _return_action(way: tuple[int, ...]) -> Action:
    a = _RETURN_ACTION.get(way)
    if a is None:
        a = _RETURN_ACTION[way] = return_action({D.RESOURCES[r]: k for r, k in enumerate(way)})
    return a


_ARCHBISHOP = D.SPACE_INDEX["archbishop"]
_KINGSBRIDGE = D.AREA_SPACES["kingsbridge"]
_PRIORY = tuple(zip(D.AREA_SPACES["priory"], D.PRIORY_VP, strict=True))
_CARD_RESOURCE = {c: k.resource for c, k in D.RESOURCE_CARDS.items()}
_CARD_YIELD = {c: k.yield_ for c, k in D.RESOURCE_CARDS.items()}
_BONUS = D.PRODUCTION_BONUS
_CONVERTIBLE: dict[tuple[Any, ...], int] = {}
""":func:`_convertible`'s answers by what decides them (a few thousand in a game's searches;
forgotten past :data:`_CONVERTIBLE_MOST`)."""
_CONVERTIBLE_MOST = 50_000


def _convertible(s: SeatDraft) -> int:
    """The VP the seat's craftsmen could still make at this round's cathedral from the cubes
    it holds and its resource cards will yield (the best conversion, ``conversion.py``, with
    each craftsman's uses left this round; the Goldsmith's from its gold)."""
    used = dict(s.uses) if s.uses else {}
    boost = s.boost
    crafts = tuple(
        (c, _CAPACITY[c] + (boost == c) - used.get(c, 0)) for c in s.craftsmen if c not in _AUTO
    )
    res = list(s.res)
    mod = s.yield_mod
    for c in s.cards:
        n = _CARD_YIELD[c] + mod
        if n > 0:
            res[_CARD_RESOURCE[c]] += n
    mortar = not _MORTAR_IDS.isdisjoint(s.craftsmen)
    key = (crafts, *res, s.gold, mortar)
    vp = _CONVERTIBLE.get(key)
    if vp is None:
        if len(_CONVERTIBLE) >= _CONVERTIBLE_MOST:
            _CONVERTIBLE.clear()
        ways = [(D.CRAFTSMEN[c], k) for c, k in crafts]
        held = (res[0], res[1], res[2], res[3])
        vp = _CONVERTIBLE[key] = best_conversion(ways, held, s.gold, mortar).vp
    return vp


_NO_BOOST_IDS = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.NO_BOOST_KINDS)

_FREE: dict[tuple[int, ...], tuple[tuple[Action, ...], tuple[Action, ...]]] = {}


def _free(spaces: tuple[int, ...]) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    """``place`` and ``remigius`` on every free space, in space order (remembered: a round
    fills the board one builder at a time, so few boards recur often)."""
    got = _FREE.get(spaces)
    if got is None:
        if len(_FREE) > 50_000:
            _FREE.clear()
        free = [k for k, who in enumerate(spaces) if who < 0]
        got = _FREE[spaces] = (
            tuple(_PLACE[k] for k in free),
            tuple(_REMIGIUS[k] for k in free),
        )
    return got


_PEEKED = frozenset({"draft", "draft-discard", "draw", "place", "parked"})
"""The steps between Ellen's look at the event (round start) and its reveal (phase III)."""


def _nth_free(spaces: tuple[int, ...], k: int) -> int:
    """The index of the ``k``-th free space (0 first), as ``_free`` orders them."""
    i = spaces.index(-1)
    while k:
        i = spaces.index(-1, i + 1)
        k -= 1
    return i


_ROLL = [(_outcome("roll", v), D.TAX_DIE.count(v) / 6) for v in DIE_FACES]


_REVEAL: dict[str, dict[str, Action]] = {
    verb: {c: Action(verb, (c,)) for c in cards} for verb, cards, _what in CARD_STEPS.values()
}
"""Every card reveal by verb and card (the same actions ``chance.outcomes`` makes)."""


class _NoNotes(Notes):
    """Ledger notes thrown away: the simulation path keeps positions, not history."""

    __slots__ = ()

    def add(
        self, period: int, player: int, what: str, amount: int, cause: str, detail: Any = ()
    ) -> None:
        return None


def _thaw_seats(m: PillarsSim, seats: Any) -> None:
    notes = _NoNotes(m.round)
    mut = []
    for i, seat in enumerate(seats):
        t = thaw(seat, SeatDraft)
        t._i = i
        t._n = notes
        mut.append(t)
    m._mut = mut
    m.seats = mut
    m._notes = notes


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

    @property
    def cost(self) -> int:
        """The cost marker, as ``PillarsState.cost``."""
        if self.drawn < 0 and not any(self.bag):
            return 0
        return max(D.FIRST_COST - self.decided, 0)

    def seat_count(self) -> int:
        return len(self.seats)

    def winners(self) -> list[int]:
        """Most VP, then most gold; a shared win still tied (``PillarsGame.winners``, by
        seat); empty before the end."""
        if not self.over:
            return []
        keys = [(s.vp, s.gold) for s in self.seats]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

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
            gold += s.workers + s.gray - sum(_CARD_WORKERS[c] for c in s.cards)
        price = D.MARKET_PRICE
        res = s.res
        cubes = res[0] * price[0] + res[1] * price[1] + res[2] * price[2] + res[3] * price[3]
        for c in s.cards:
            cubes += max(0, _CARD_YIELD[c] + s.yield_mod) * price[_CARD_RESOURCE[c]]
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

    # -- the contract -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.step in CHANCE_STEPS:
            return CHANCE
        return self.turn

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        fast = _FAST_LEGAL.get(self.step)
        if fast is not None:
            return fast(self)
        legal = _LEGAL[self.step]
        return [] if legal is None else legal(self)  # type: ignore[arg-type]

    # Mirrors of the most frequent steps' legal actions and handlers (the rest run the rules'
    # own): the same lists in the same order, the same changes, no refusal checks.
    def _legal_draft(self) -> list[Action]:
        s = self.seats[self.turn]
        free = s.workers + s.gray
        for c in s.cards:
            free -= _CARD_WORKERS[c]
        gold = s.gold
        out = []
        for card in self.pool:
            need = _CARD_WORKERS.get(card)
            if need is not None:
                if need <= free:
                    out.append(TAKE[card])
            elif _COST[card] <= gold:
                out.append(TAKE[card])
        out.append(PASS)
        return out

    def _legal_place(self) -> list[Action]:
        s = self.seats[self.turn]
        cost = D.FIRST_COST - self.decided
        free = _free(self.spaces)
        if cost <= 0:
            return list(free[0])
        out: list[Action] = list(free[0]) if s.gold >= cost else []
        out.append(PASS)
        if "remigius" in s.privileges:
            out += free[1]
        return out

    def _legal_parked(self) -> list[Action]:
        return list(_free(self.spaces)[0])

    def _legal_market(self) -> list[Action]:
        s = self.seats[self.turn]
        gold = s.gold
        market = self.market
        sold = s.sold
        bought = s.bought
        crafts = s.craftsmen
        out = [PASS]
        if not sold & 1:
            out += BUY[0][1 : min(market[0], gold // 4) + 1]
        if not sold & 2 and not _WOOD_IDS.isdisjoint(crafts):
            out += BUY[1][1 : min(market[1], gold // 3) + 1]
        if not sold & 4:
            out += BUY[2][1 : min(market[2], gold // 2) + 1]
        res = s.res
        if not bought & 1 and not _STONE_IDS.isdisjoint(crafts):
            out += SELL[0][1 : min(res[0], _MOST) + 1]
        if not bought & 2:
            out += SELL[1][1 : min(res[1], _MOST) + 1]
        if not bought & 4:
            out += SELL[2][1 : min(res[2], _MOST) + 1]
        if not bought & 8:
            out += SELL[3][1 : min(res[3], _MOST) + 1]
        return out

    def _legal_cathedral(self) -> list[Action]:
        s = self.seats[self.turn]
        crafts = s.craftsmen
        mortar = not _MORTAR_IDS.isdisjoint(crafts)
        res = s.res
        gold = s.gold
        uses = dict(s.uses)
        boost = s.boost
        out = []
        for c in crafts:
            if c in _AUTO:
                continue
            if uses.get(c, 0) >= _CAPACITY[c] + (boost == c):
                continue
            if not mortar and c in _NEEDS_MORTAR:
                continue
            need = _INPUTS[c]
            if (
                need[0] > res[0]
                or need[1] > res[1]
                or need[2] > res[2]
                or need[3] > res[3]
                or need[4] > gold
            ):
                continue
            out.append(CRAFT[c])
        out.append(DONE)
        return out

    def _do_draft(self, a: Action) -> None:
        i = self.turn
        s = self.seats[i]
        if a.verb == "pass":
            s.passed = True
        else:
            card: str = a.args[0]  # type: ignore[assignment]
            pool = list(self.pool)
            pool.remove(card)
            self.pool = tuple(pool)
            if card in _CARD_WORKERS:
                s.cards = (*s.cards, card)
            else:
                s.gold -= _COST[card]
                s.craftsmen = (*s.craftsmen, card)
                if len(s.craftsmen) > D.CRAFTSMAN_LIMIT + ("jack" in s.privileges):
                    self.step = "draft-discard"
                    return
        self.step = "draft"
        if self.pool:
            n = len(self.seats)
            seats = self.seats
            for k in range(1, n + 1):
                j = (i + k) % n
                if not seats[j].passed:
                    self.turn = j
                    return
        end_draft(self)

    def _do_place(self, a: Action) -> None:
        if a.verb == "redraw":
            _HANDLER["place"](self, a)  # type: ignore[misc]
            return
        i = self.turn
        s = self.seats[i]
        if a.verb == "pass":
            self.parked = (*self.parked, i)
        else:
            k = D.SPACE_INDEX[a.args[0]]  # type: ignore[index]
            if a.verb == "remigius":
                privileges = list(s.privileges)
                privileges.remove("remigius")
                s.privileges = tuple(privileges)
                s.spent = (*s.spent, "remigius")
            else:
                s.gold -= max(D.FIRST_COST - self.decided, 0)
            spaces = self.spaces
            self.spaces = spaces[:k] + (i,) + spaces[k + 1 :]
        self.decided += 1
        self.drawn = -1
        after_builder(self)

    def _spend_one(self, s: SeatDraft, r: int, n: int) -> None:
        """``spend`` of ``n`` cubes of one resource ``r`` (owed ones first, ruling P16)."""
        s.res = add(s.res, r, -n)
        owed = s.owed
        cancel = owed[r] if owed[r] < n else n
        if cancel:
            s.owed = add(owed, r, -cancel)
        if n > cancel:
            self.supply = add(self.supply, r, n - cancel)
            for seat in self.seats:
                if seat.owed != _NO_CUBES:
                    settle(self)
                    break

    def _spend(self, s: SeatDraft, cubes: Any) -> None:
        """``draft.spend`` without its ledger notes (the simulation path keeps none): cubes
        back, owed ones first, the rest handed on to whoever is still owed (ruling P16)."""
        res = list(s.res)
        supply = list(self.supply)
        owed = s.owed
        back = False
        if owed == _NO_CUBES:
            for r in range(4):
                k = cubes[r]
                if k:
                    res[r] -= k
                    supply[r] += k
                    back = True
        else:
            left = list(owed)
            for r in range(4):
                k = cubes[r]
                if not k:
                    continue
                res[r] -= k
                cancel = k if k < left[r] else left[r]
                left[r] -= cancel
                if k > cancel:
                    supply[r] += k - cancel
                    back = True
            s.owed = tuple(left)
        s.res = tuple(res)
        self.supply = tuple(supply)
        if back:
            for seat in self.seats:
                if seat.owed != _NO_CUBES:
                    settle(self)
                    break

    def _legal_return(self) -> list[Action]:
        return [_return_action(w) for w in _return_ways(self.seats[self.turn].res)]

    def _do_cathedral(self, a: Action) -> None:
        i = self.turn
        s = self.seats[i]
        if a.verb == "craft":
            c: str = a.args[0]  # type: ignore[assignment]
            need = _INPUTS[c]
            if need[0] or need[1] or need[2] or need[3]:
                self._spend(s, need)
            gold = s.gold - need[4] + _SPEC_GOLD[c]
            s.gold = gold if gold < D.GOLD_LIMIT else D.GOLD_LIMIT
            vp = s.vp + _SPEC_VP[c]
            s.vp = vp if vp > 0 else 0
            uses = dict(s.uses)
            uses[c] = uses.get(c, 0) + 1
            s.uses = tuple(uses.items())
            return
        if a.verb == "convert":
            _HANDLER["cathedral"](self, a)  # type: ignore[misc]
            return
        if sum(s.res) > 5:
            ways = _return_ways(s.res)
            if len(ways) > 1:
                self.step = "return"
                return
            self._spend(s, ways[0])
        self._next_cathedral()

    def _next_market(self) -> None:
        """``market.next_market``: the next market space still trading, in slot order, or
        the cathedral (``cathedral.start_cathedral``) once all have passed."""
        live = self.market_live
        if live:
            slot = self.market_slot
            k = live[0]
            for m in live:
                if m > slot:
                    k = m
                    break
            self.market_slot = k
            self.step = "market"
            self.turn = self.spaces[k]
        else:
            self.market_slot = -1
            self.market_live = ()
            self.queue = tuple(self.order())
            self._next_cathedral()

    def _next_cathedral(self) -> None:
        """``cathedral.next_cathedral``: the next player at the cathedral, whose Tool Maker
        and Architect work first by themselves; after the last, the end of the round."""
        if not self.queue:
            end_round(self)
            return
        self.turn, self.queue = self.queue[0], self.queue[1:]
        self.step = "cathedral"
        s = self.seats[self.turn]
        for c in s.craftsmen:
            if c in _AUTO:
                spec = D.CRAFTSMEN[c].spec
                if not spec.needs_metal or s.res[D.METAL]:
                    times = 1 + (s.boost == c)
                    gold = s.gold + spec.gold * times
                    s.gold = gold if gold < D.GOLD_LIMIT else D.GOLD_LIMIT
                    vp = s.vp + spec.vp * times
                    s.vp = vp if vp > 0 else 0
                    s.uses = (*s.uses, (c, times))

    def _do_return(self, a: Action) -> None:
        s = self.seats[self.turn]
        cubes = [0, 0, 0, 0]
        args = a.args
        for k in range(0, len(args), 2):
            cubes[_RES_INDEX[args[k]]] = args[k + 1]  # type: ignore[index, assignment]
        self._spend(s, cubes)
        self._next_cathedral()

    def _reveal_builder(self, a: Action) -> None:
        colour = a.args[0]
        i = 0
        for p in self.setup.players:
            if p.colour == colour:
                break
            i += 1
        s = self.seats[i]
        if s.walled and s.drawn >= 2:
            _HANDLER["draw"](self, a)  # type: ignore[misc]  # ruling P6: set aside, redraw
            return
        self.bag = add(self.bag, i, -1)
        s.drawn += 1
        self.drawn = i
        self.turn = i
        self.step = "place"

    # Phase III steps 1 to 8 (``phase3``): the event, the Archbishop, Thomas's queue, the
    # event's effect, then wool mill, Kingsbridge, Priory and production, run once a round.
    def _do_event(self, a: Action) -> None:
        card: str = a.args[0]  # type: ignore[assignment]
        self.events_unseen = without(self.events_unseen, card)
        self.event = card
        arch = self.spaces[_ARCHBISHOP]
        if arch >= 0:
            self.step = "archbishop"
            self.turn = arch
        else:
            self._thomas()

    def _do_archbishop(self, a: Action) -> None:
        s = self.seats[self.turn]
        choice: str = a.args[0]  # type: ignore[assignment]
        if choice == "protect":
            s.protected = True
        else:
            r = _RES_INDEX[choice]
            self.market = add(self.market, r, -1)
            s.res = add(s.res, r, 1)
        self._thomas()

    def _thomas(self) -> None:
        seats = self.seats
        queue: tuple[int, ...] = ()
        if self.event and not D.EVENTS[self.event]:
            queue = tuple(
                i
                for i in self.order()
                if "thomas" in seats[i].privileges and not seats[i].protected
            )
        self.queue = queue
        if queue:
            self.turn, self.queue = queue[0], queue[1:]
            self.step = "thomas"
        else:
            self.turn = -1
            self._resolve_event()

    def _resolve_event(self) -> None:
        ev = self.event
        seats = self.seats
        good = D.EVENTS.get(ev, True)
        affected = [i for i in self.order() if good or not seats[i].protected]
        if ev == "koenig":
            for i in affected:
                gain_gold(seats[i], 5, "event")
        elif ev == "william":
            for i in affected:
                pay_or_lose(seats[i], 4, "event")
        elif ev == "richardevent":
            for i in affected:
                from_supply(self, seats[i], D.METAL, 1, "event")
        elif ev == "konflikt":
            for i in affected:
                gain_vp(seats[i], -2, "event")
        elif ev == "stadtmauer":
            if self.round < D.ROUNDS:
                for i in affected:
                    seats[i].walled_next = True
        elif ev == "philip":
            for i in affected:
                s = seats[i]
                gain_gold(s, min(s.wool, 5), "event")
        elif ev == "kaltewinter":
            for i in affected:
                seats[i].yield_mod = -1
        elif ev == "freiwilligen":
            for i in affected:
                seats[i].yield_mod = 1
        elif ev == "teile" or ev == "erzbischof":
            if ev == "teile":
                queue = tuple(i for i in affected if seats[i].craftsmen)
            else:
                queue = tuple(
                    i for i in affected if any(c not in _NO_BOOST_IDS for c in seats[i].craftsmen)
                )
            self.queue = queue
            if queue:
                self.turn, self.queue = queue[0], queue[1:]
                self.step = "lose" if ev == "teile" else "boost"
                return
            self.turn = -1
        self._after_event()

    def _after_event(self) -> None:
        """``phase3.after_event``: steps 3 to 8, then the tax roll."""
        order = self.order()
        seats = self.seats
        for i in order:
            s = seats[i]
            gold = s.gold + s.wool
            s.gold = gold if gold < D.GOLD_LIMIT else D.GOLD_LIMIT
            s.wool = 0
        spaces = self.spaces
        for slot, card in zip(_KINGSBRIDGE, self.kingsbridge, strict=False):
            owner = spaces[slot]
            if owner < 0:
                self.priv_out = (*self.priv_out, card)
            else:
                take_privilege(self, owner, card)
        self.kingsbridge = ()
        for slot, vp in _PRIORY:
            owner = spaces[slot]
            if owner >= 0:
                s = seats[owner]
                gain_vp(s, vp + ("priorphilip" in s.privileges), "priory")
        # 6-8: wood, stone, sand in turn order each (ruling P16 for what the supply lacks)
        yields = []
        for i in order:
            s = seats[i]
            y = [0, 0, 0, 0]
            mod = s.yield_mod
            for c in s.cards:
                n = _CARD_YIELD[c] + mod
                if n > 0:
                    y[_CARD_RESOURCE[c]] += n
            for p in s.privileges:
                r = _BONUS.get(p)
                if r is not None:
                    y[r] += 1
            yields.append(y)
        for r in (D.WOOD, D.STONE, D.SAND):
            for i, y in zip(order, yields, strict=True):
                if y[r]:
                    from_supply(self, seats[i], r, y[r], "production", owe=True)
        for i in order:
            s = seats[i]
            if s.cards:
                self.res_hidden = self.res_hidden + s.cards
                s.cards = ()
        self.step = "roll"
        self.turn = -1

    def _do_market(self, a: Action) -> None:
        if a.verb == "pass":
            slot = self.market_slot
            self.market_live = tuple(m for m in self.market_live if m != slot)
            self._next_market()
            return
        s = self.seats[self.turn]
        name: str = a.args[0]  # type: ignore[assignment]
        n: int = a.args[1]  # type: ignore[assignment]
        r = _RES_INDEX[name]
        price = D.MARKET_PRICE[r]
        if a.verb == "buy":
            s.gold -= n * price
            self.market = add(self.market, r, -n)
            s.res = add(s.res, r, n)
            s.bought |= 1 << r
        else:
            self._spend_one(s, r, n)
            gold = s.gold + n * price
            s.gold = gold if gold < D.GOLD_LIMIT else D.GOLD_LIMIT
            s.sold |= 1 << r
        self._next_market()

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """As ``chance.outcomes`` (equal lists), a card's reveal taken from :data:`_REVEAL`
        rather than made anew at every draw (the search draws chance at every iteration)."""
        if self.over:
            return []
        kind = CARD_STEPS.get(self.step)
        if kind is None:
            return outcomes(self)  # type: ignore[arg-type]
        cards = deck(self)  # type: ignore[arg-type]
        reveal = _REVEAL[kind[0]]
        p = 1 / len(cards)
        return [(reveal[c], p) for c in cards]

    def apply(self, action: Action) -> None:
        """Apply a legal action or chance outcome in place (unchecked): the step's handler."""
        fast = _FAST_DO.get(self.step)
        if fast is not None:
            fast(self, action)
            return
        handler = _HANDLER[self.step]
        assert handler is not None
        handler(self, action)

    # -- the fused random playout -----------------------------------------------------------
    def random_playout(self, rng: random.Random, max_actions: int = 100_000) -> list[Any]:
        """Play to the end exactly as ``random_game`` does with ``rng`` (same draws, same
        choices)."""
        actions: list[Any] = []
        append = actions.append
        rand = rng.random
        below = getattr(rng, "_randbelow", rng.randrange)  # what rng.choice draws with
        handlers = _ALL_HANDLERS
        for _ in range(max_actions):
            if self.over:
                return actions
            step = self.step
            if step in CHANCE_STEPS:
                action = self._sample(step, rand())
            else:
                action = self._at_random(step, below)
            handlers[step](self, action)  # type: ignore[misc]
            append(action)
        raise RuntimeError(f"pillars: no end after {max_actions} actions")

    def _at_random(self, step: str, below: Callable[[int], int]) -> Action:
        """``rng.choice`` of the decision's legal actions, as the random playout draws it."""
        if step == "place":
            return self._pick_place(below)
        if step == "parked":
            spaces = self.spaces
            return _PLACE[_nth_free(spaces, below(spaces.count(-1)))]
        options = _ALL_LEGAL[step](self)  # type: ignore[misc, arg-type]
        return options[below(len(options))]

    def advance(self, seat: int, rng: random.Random) -> None:
        """Play on in place until ``seat`` decides (or the game ends), every other seat's
        decisions by a cheap fixed rule: at the cathedral it makes all its craftsmen can (the
        first craft the rules list, again and again), it skips the market, and anything else
        it chooses as the random playout does (:meth:`random_playout`); chance drawn with
        ``rng``.  The search's model of the others (``search@No``): they convert their cubes,
        as players do, without a search."""
        rand = rng.random
        below = getattr(rng, "_randbelow", rng.randrange)
        while not self.over:
            step = self.step
            if step in CHANCE_STEPS:
                action = self._sample(step, rand())
            elif self.turn == seat:
                return
            elif step == "cathedral":
                action = self._legal_cathedral()[0]  # a craft while one is left, then done
            elif step == "market":
                action = PASS
            else:
                action = self._at_random(step, below)
            self.apply(action)

    def _pick_place(self, below: Callable[[int], int]) -> Action:
        """``rng.choice(self._legal_place())`` without building the list."""
        s = self.seats[self.turn]
        cost = D.FIRST_COST - self.decided
        spaces = self.spaces
        n = spaces.count(-1)
        if cost <= 0:
            return _PLACE[_nth_free(spaces, below(n))]
        m = n if s.gold >= cost else 0
        extra = n if "remigius" in s.privileges else 0
        k = below(m + 1 + extra)
        if k < m:
            return _PLACE[_nth_free(spaces, k)]
        if k == m:
            return PASS
        return _REMIGIUS[_nth_free(spaces, k - m - 1)]

    def _sample(self, step: str, x: float) -> Action:
        """``sample(self.chance_outcomes(), rng)`` for a draw ``x`` of ``rng.random()``."""
        if step == "draw":
            bag = self.bag
            total = sum(bag)
            acc = 0.0
            last = -1
            for i, k in enumerate(bag):
                if k:
                    acc += k / total
                    last = i
                    if x < acc:
                        break
            return _outcome("draw", self.setup.players[last].colour)
        if step == "roll":
            acc = 0.0
            for outcome, p in _ROLL:
                acc += p
                if x < acc:
                    return outcome
            return _ROLL[-1][0]
        if step == "privilege":
            cards = privilege_deck(self)  # type: ignore[arg-type]
        elif step == "craftsman":
            cards = self.round_craftsmen
        elif step == "resource":
            cards = self.res_hidden
        else:
            cards = self.events_unseen
        p = 1 / len(cards)
        acc = 0.0
        for card in cards:
            acc += p
            if x < acc:
                return _outcome(_CARD_VERB[step], card)
        return _outcome(_CARD_VERB[step], cards[-1])


_FAST_LEGAL = {
    "draft": PillarsSim._legal_draft,
    "place": PillarsSim._legal_place,
    "parked": PillarsSim._legal_parked,
    "market": PillarsSim._legal_market,
    "cathedral": PillarsSim._legal_cathedral,
    "return": PillarsSim._legal_return,
}
_FAST_DO = {
    "draft": PillarsSim._do_draft,
    "place": PillarsSim._do_place,
    "market": PillarsSim._do_market,
    "cathedral": PillarsSim._do_cathedral,
    "return": PillarsSim._do_return,
    "draw": PillarsSim._reveal_builder,
    "event": PillarsSim._do_event,
    "archbishop": PillarsSim._do_archbishop,
}

_ALL_LEGAL = {**_LEGAL, **_FAST_LEGAL}
_ALL_HANDLERS = {**_HANDLER, **_FAST_DO}


class PillarsSimulator:
    """The Pillars' :class:`companion.engine.sim.Simulator`."""

    def start(self, setup: Setup) -> PillarsSim:
        from .rules import PillarsGame

        return PillarsSim.thaw(PillarsGame().initial_state(setup))

    def thaw(self, state: PillarsState) -> PillarsSim:
        return PillarsSim.thaw(state)


SIMULATOR = PillarsSimulator()
"""The simulation path this game's registry record declares (``spec.py``: ``simulator``)."""
