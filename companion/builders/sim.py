"""The Builders' simulation path: the rules' mutable table with what the bots' search asks.

:class:`BuildersSim` is a :class:`~companion.builders.draft.Draft`, the table every rule of the
game is written over: it lists the legal actions and chance outcomes and applies them with the
rules' own functions (``turn.legal_actions``, ``chance.outcomes``, ``turn.play``), unchecked and
keeping no history, and freezes into the rules' :class:`~companion.builders.state.BuildersState`.
What is its own is the search's: copies and determinizations, the bots' measures of a position
(``features``, ``signals``), the fused random playout and the fixed rules that play on cheaply
(``settle``, ``conclude``, ``advance``).  ``BuildersGame.apply`` thaws into this class too, with
the ledger's notes and the refusal checks: the steps see one type on both paths.
"""

from __future__ import annotations

import random
from collections.abc import Container, Sequence
from typing import Any

from companion.engine.sim import Features
from companion.engine.simulate import sample

from .actions import (
    BUY_ACTION,
    END_TURN,
    TAKE_COINS,
    Action,
    BuyAction,
    EndTurn,
    Recruit,
    Send,
    Start,
)
from .cards import BUILDINGS, ORDER, OUTPUT, WAGE, WORKERS
from .chance import OUTCOME, hidden, outcomes
from .checks import NEEDS, SUPPLY, ranking
from .constants import ACTION_PRICE, COIN_TABLE, END_VP, START_AP
from .draft import Draft, Seat
from .signals import NAMES
from .state import Site
from .turn import RECRUIT, SEND, START, legal_actions, play, to_act

_MACHINE = {c.id: c.is_machine for c in BUILDINGS}
_NEED_TOTAL = {c.id: sum(c.needs) for c in BUILDINGS}
_WORTH = {c.id: c.vp + c.coins / 10 for c in BUILDINGS}
"""What finishing a building brings: its VP, and its coins at 10 a point."""
_WAGE = dict(WAGE)
_HANDS = {w: (*o, sum(o), bool(_MACHINE.get(w))) for w, o in dict(OUTPUT).items()}
"""What each worker or machine brings to :meth:`BuildersSim.signals`: what it supplies of each
resource, in all, and whether it is a machine."""
_PLAN_HANDS = {w: (*o, _WAGE[w]) for w, o in dict(OUTPUT).items()}
"""What each worker or machine supplies of each resource, and its wage (:func:`_plan`)."""
(_TWIN,) = (c.id for c in WORKERS if c.count > 1)
"""The one worker with two copies: the only card a row or a hand can hold twice."""
_MAX_WAGE = max(_WAGE.values())
_PROGRESS = (Start, Recruit, Send)
CREW = 5
"""How many workers the ``crew`` signal counts (the most supplying): about what a seat keeps
busy, a placement an AP and three AP a turn, with workers held on sites until they finish."""
_AP_COINS = COIN_TABLE[3] // 3
"""What an AP is worth in coins: taking coins with 3 AP gives 6."""


def _supplies(pool: list[tuple[int, int, int, int, int]]) -> tuple[int, int, int, int]:
    """What the workers of ``pool`` (:data:`_PLAN_HANDS`) supply of each resource together."""
    t0 = t1 = t2 = t3 = 0
    for h in pool:
        t0 += h[0]
        t1 += h[1]
        t2 += h[2]
        t3 += h[3]
    return t0, t1, t2, t3


def _fill(
    pool: list[tuple[int, int, int, int, int]],
    purse: int,
    r0: int,
    r1: int,
    r2: int,
    r3: int,
) -> tuple[int, list[int], int]:
    """Supply a site still needing ``r0..r3`` from ``pool`` (each worker's supply of each
    resource and its wage, :data:`_PLAN_HANDS`) with ``purse`` coins for the wages: again and
    again the unused worker that brings the most of what it still needs (the cheaper of
    equals, then the first) while the coins pay its wage.  What it still needs after, the
    workers used (indices into ``pool``) and the wages they cost."""
    spent = 0
    used: list[int] = []
    while r0 + r1 + r2 + r3:
        best = -1
        gain_best = 0
        wage_best = 0
        left = purse - spent
        for i, (h0, h1, h2, h3, wage) in enumerate(pool):
            if wage > left or i in used:
                continue
            gain = (
                (h0 if h0 < r0 else r0)
                + (h1 if h1 < r1 else r1)
                + (h2 if h2 < r2 else r2)
                + (h3 if h3 < r3 else r3)
            )
            if gain > gain_best or (gain and gain == gain_best and wage < wage_best):
                best, gain_best, wage_best = i, gain, wage
        if best < 0:
            break
        h0, h1, h2, h3, _ = pool[best]
        used.append(best)
        spent += wage_best
        r0 = r0 - h0 if h0 < r0 else 0
        r1 = r1 - h1 if h1 < r1 else 0
        r2 = r2 - h2 if h2 < r2 else 0
        r3 = r3 - h3 if h3 < r3 else 0
    return r0 + r1 + r2 + r3, used, spent


def _plan(p: Seat) -> float:
    """The worth still to come of the open sites ``p`` can finish with its idle workers and
    its coins, each worker and each coin used once: the sites nearest to done first, each
    supplied by :func:`_fill`, and counted only when it is finished so (its share still to
    supply times its VP and coins at 10 a point)."""
    todo = []
    for site in p.sites:
        n = NEEDS[site.card]
        s = site.supplied
        r0 = n[0] - s[0] if s[0] < n[0] else 0
        r1 = n[1] - s[1] if s[1] < n[1] else 0
        r2 = n[2] - s[2] if s[2] < n[2] else 0
        r3 = n[3] - s[3] if s[3] < n[3] else 0
        need = r0 + r1 + r2 + r3
        if need:
            todo.append((need, r0, r1, r2, r3, site.card))
    if not todo:
        return 0.0
    todo.sort()
    pool = [_PLAN_HANDS[w] for w in p.idle]
    coins = p.coins
    total = 0.0
    t0, t1, t2, t3 = _supplies(pool)
    for need, r0, r1, r2, r3, card in todo:
        if t0 < r0 or t1 < r1 or t2 < r2 or t3 < r3:
            continue  # the idle workers together cannot supply it, whatever the coins
        left, used, spent = _fill(pool, coins, r0, r1, r2, r3)
        if left:
            continue  # not finished with what is left: counts nothing
        total += need / _NEED_TOTAL[card] * _WORTH[card]
        coins -= spent
        for i in used:
            h = pool[i]
            t0 -= h[0]
            t1 -= h[1]
            t2 -= h[2]
            t3 -= h[3]
        pool = [h for i, h in enumerate(pool) if i not in used]
        if not pool:
            break
    return total


def _best_start(p: Seat, row: list[str]) -> str | None:
    """The building of ``row`` worth most (the first of equals) that ``p``'s idle workers
    and coins could finish once started (:func:`_fill`), or None."""
    pool = [_PLAN_HANDS[w] for w in p.idle]
    if not pool:
        return None
    t0, t1, t2, t3 = _supplies(pool)
    best = None
    best_worth = 0.0
    for card in row:
        worth = _WORTH[card]
        if worth <= best_worth:
            continue
        r0, r1, r2, r3 = NEEDS[card]
        if t0 < r0 or t1 < r1 or t2 < r2 or t3 < r3:
            continue
        if not _fill(pool, p.coins, r0, r1, r2, r3)[0]:
            best, best_worth = card, worth
    return best


class BuildersSim(Draft):
    """A whole table, mutable, for the search (see :class:`companion.engine.sim.SimState`) and
    for the rules' ``apply``."""

    __slots__ = ()

    def seat_count(self) -> int:
        return len(self.players)

    def winners(self) -> list[int]:
        """``BuildersGame.winners`` by seat (B5 tie-breaks, shared wins); the solo Automa's
        seat is the one after the last; empty before the end."""
        if not self.over:
            return []
        keys = [key for _, key in ranking(self)]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def determinize(self, seat: int, rng: random.Random) -> BuildersSim:
        """A copy with the hidden decks in catalogue order.  The Builders hides nothing a
        seat could know and another not: the decks are face down for everyone, held as
        multisets (the chance steps draw from them; no order is ever kept) and every card
        in the rows and in the players' hands is open.  ``rng`` is not used."""
        m = self.copy()
        m.building_deck.sort(key=ORDER.__getitem__)
        m.worker_deck.sort(key=ORDER.__getitem__)
        m.apprentices.sort(key=ORDER.__getitem__)
        return m

    def features(self, seat: int) -> Features:
        """Coins, idle workers and machines, each open site by how far it is supplied (a
        started one counts a tenth more) times what finishing it brings (VP, and coins at 10
        a point), and as tempo, for the player whose turn it is, each AP left at the two
        coins an AP brings when taken as coins (AP are lost at the end of the turn)."""
        p = self.players[seat]
        sites = 0.0
        for site in p.sites:
            card = site.card
            n = NEEDS[card]
            s = site.supplied
            done = (
                (s[0] if s[0] < n[0] else n[0])
                + (s[1] if s[1] < n[1] else n[1])
                + (s[2] if s[2] < n[2] else n[2])
                + (s[3] if s[3] < n[3] else n[3])
            )
            sites += (0.1 + done / _NEED_TOTAL[card]) * _WORTH[card]
        tempo = _AP_COINS * self.ap if seat == self.turn_player and not self.over else 0
        return Features(p.vp, p.coins, 0, len(p.idle), sites, tempo)

    SIGNALS = NAMES
    """What :meth:`signals` measures of each seat, in order (``signals.py`` declares how the
    bots weigh them: the fitted model).  ``vp`` VP of finished cards; ``coins``;
    ``sites`` each open site's worth (its VP and its coins at 10 a point) times how far the
    workers *on it* have supplied it (a site nobody works on counts nothing); ``reach`` the
    worth still to come of the open sites the seat's idle workers and machines could finish
    (all of them together); ``open`` how many sites are open; ``workforce`` the resources the
    seat's workers (idle or on a site, machines aside) supply in all; ``machines`` finished
    machines (they work for no wage); ``ap`` the AP left when it is the seat's turn;
    ``left`` how far the end is (the VP the leader still needs to reach the end, as a share of
    17; 0 once the end is triggered) times each of the others; ``tempo`` the AP the seat still
    has to spend in the round, the same at any phase of it: the turn player's AP left, a
    turn's AP for a seat whose turn in the round is still to come, 0 for one that has played
    (``ap`` counts the turn player's alone, so a position just after a turn's end is worth a
    turn's AP more to the next player than the one just before it); ``crew`` the resources
    of the seat's :data:`CREW` most supplying workers (idle or on a site, machines aside):
    ``workforce`` with diminishing returns, since a seat places at most a few workers a turn
    and every placement needs AP and a wage, so a worker beyond those adds nothing; ``plan``
    the worth still to come of the open sites the seat can finish with what it holds, each
    idle worker and each coin used once (:func:`_plan`): ``reach`` with the wages paid and
    no worker counted twice, so that a site needs workers, and workers need coins."""

    def rounds_played(self) -> int:
        """Whole rounds of turns played (the bots' guard against endless games reads it)."""
        return self.turn // len(self.players)

    def is_progress(self, action: Action) -> bool:
        """Whether ``action`` uses up something the game has only so much of (a building
        started, a worker recruited or sent): a game of such actions alone cannot go on for
        ever, as one of taking coins and ending turns can."""
        return type(action) in _PROGRESS

    def is_detour(self, action: Action) -> bool:
        """Whether ``action`` buys an AP: with nothing to use up, buying AP with the coins a
        wage needs (and taking a coin with it) can go on for ever."""
        return type(action) is BuyAction

    def is_pass(self, action: Action) -> bool:
        """Whether ``action`` ends the turn: with nothing to use up, a seat that ends its turn
        instead of taking the coins a wage needs can go on for ever."""
        return type(action) is EndTurn

    def settle(self, seat: int, rng: random.Random) -> None:
        """Play on in place, cheaply, until a turn of ``seat`` begins (or the game ends):
        every turn's AP left taken as coins (as many as the coin table gives for them at
        once), then the turn ended; chance drawn with ``rng``.  The search's phase-consistent
        leaf (``search@Nt``): every leaf judged at the same point of the round, the start of
        the searching seat's turn, each seat's AP turned into what they are surely worth."""
        self._play_on(seat, rng, own=False, others=False)

    def conclude(self, seat: int, rng: random.Random) -> None:
        """Play on in place, cheaply, until a turn of ``seat`` begins (or the game ends): the
        rest of ``seat``'s own turn taken as coins (as :meth:`settle`), every other seat's
        turn by the fixed rule of :meth:`advance`; chance drawn with ``rng``.  The leaf of a
        search whose walks play the others by that rule (``search@Nao``): the leaf's others
        play as the tree's others do, not as coins."""
        self._play_on(seat, rng, own=False, others=True)

    def advance(self, seat: int, rng: random.Random) -> None:
        """Play on in place, cheaply, until a turn of ``seat`` begins (or the game ends),
        every other seat building by a fixed rule, an action at a time (:meth:`_building`),
        else taking its AP as coins (as :meth:`settle`); chance drawn with ``rng``.  The
        search's model of the others' turns (``search@Nto``): they build, as players do,
        without a search."""
        self._play_on(seat, rng, own=True, others=True)

    def _play_on(self, seat: int, rng: random.Random, own: bool, others: bool) -> None:
        """Each turn by the rule (:meth:`rule_action`) to the start of a turn of ``seat``:
        ``seat``'s own turn building with ``own``, the other seats' with ``others``."""
        turn = self.turn
        apply = self.apply
        while not self.over:
            if self.pending:
                apply(sample(self.chance_outcomes(), rng))
                continue
            if self.turn != turn and self.turn_player == seat:
                return
            apply(self.rule_action(own if self.turn_player == seat else others))

    def rule_action(self, build: bool = True) -> Action:
        """The turn player's next action by the fixed rule that :meth:`advance` (``build``) and
        :meth:`settle` play: with ``build``, the rule's building action (:meth:`_building`);
        else the AP left taken as coins (as many as the coin table gives for them at once);
        with none left, the turn ended."""
        act = self._building() if build else None
        if act is None:
            ap = self.ap
            k = min(ap, 3 - self.coin_ap) if self.cumulative_coins else min(ap, 3)
            act = TAKE_COINS[k - 1] if k >= 1 else END_TURN
        return act

    def _building(self) -> Action | None:
        """The fixed rule's building action for the turn player, or None: send the idle worker
        that supplies the most an open site still needs (one it can pay, to a site it has the
        AP for; the first of equals); else, with no site open, start the row's building worth
        most that its idle workers and coins can finish (:func:`_best_start`)."""
        p = self.players[self.turn_player]
        ap = self.ap
        if ap < 1 or not p.idle:
            return None
        if not p.sites:
            card = _best_start(p, self.building_row)
            return None if card is None else START[card]
        act: Action | None = None
        sent = self.sent
        best = 0
        for site in p.sites:
            if sent.get(site.card, 0) >= ap:
                continue  # the next worker to it costs more AP than are left
            n = NEEDS[site.card]
            s = site.supplied
            for w in p.idle:
                if _WAGE[w] > p.coins:
                    continue
                h = SUPPLY[w]
                gain = 0
                for k in range(4):
                    r = n[k] - s[k]
                    if r > 0:
                        gain += h[k] if h[k] < r else r
                if gain > best:
                    best = gain
                    act = SEND[w, site.card]
        return act

    def signals(self, skip: Container[str] = ()) -> list[list[float]]:
        """Each seat's :data:`SIGNALS`, in seat order; those named in ``skip`` (a judge that
        gives them no weight) may be left at 0 when they cost time (``plan``)."""
        planned = "plan" not in skip
        players = self.players
        lead = max(p.vp for p in players)
        left = 0.0 if self.end is not None else max(0, END_VP - lead) / END_VP
        out = []
        hands = _HANDS
        seats = len(players)
        start = self.setup.start_player
        now = (self.turn_player - start) % seats
        over = self.over
        for seat, p in enumerate(players):
            sites = reach = 0.0
            i0 = i1 = i2 = i3 = 0
            workforce = 0
            machines = 0
            supplies = []
            for w in p.idle:
                o0, o1, o2, o3, supply, machine = hands[w]
                i0 += o0
                i1 += o1
                i2 += o2
                i3 += o3
                if machine:
                    machines += 1
                else:
                    workforce += supply
                    supplies.append(supply)
            for site in p.sites:
                card = site.card
                n = NEEDS[card]
                s = site.supplied
                d0 = s[0] if s[0] < n[0] else n[0]
                d1 = s[1] if s[1] < n[1] else n[1]
                d2 = s[2] if s[2] < n[2] else n[2]
                d3 = s[3] if s[3] < n[3] else n[3]
                worth = _WORTH[card]
                frac = (d0 + d1 + d2 + d3) / _NEED_TOTAL[card]
                sites += frac * worth
                if d0 + i0 >= n[0] and d1 + i1 >= n[1] and d2 + i2 >= n[2] and d3 + i3 >= n[3]:
                    reach += (1.0 - frac) * worth
                for w in site.workers:
                    hand = hands[w]
                    if hand[5]:
                        machines += 1
                    else:
                        workforce += hand[4]
                        supplies.append(hand[4])
            if len(supplies) > CREW:
                supplies.sort(reverse=True)
                crew = sum(supplies[:CREW])
            else:
                crew = workforce
            if over:
                ap = tempo = 0
            elif seat == self.turn_player:
                ap = tempo = self.ap
            else:
                ap = 0
                tempo = START_AP if (seat - start) % seats > now else 0
            out.append(
                [
                    p.vp,
                    p.coins,
                    sites,
                    reach,
                    len(p.sites),
                    workforce,
                    machines,
                    ap,
                    left * sites,
                    left * reach,
                    left * workforce,
                    left * machines,
                    left * p.coins,
                    tempo,
                    crew,
                    left * crew,
                    _plan(p) if planned and p.idle else 0.0,
                ]
            )
        return out

    # -- the contract: the rules' own functions -------------------------------------------
    def current_player(self) -> int:
        return to_act(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """As ``BuildersGame.chance_outcomes``: the distinct hidden cards weighted by copies."""
        return outcomes(self)

    def legal_actions(self) -> list[Action]:
        """As ``BuildersGame.legal_actions``, in the same order."""
        return legal_actions(self, self.sent)

    apply = play
    """Apply a legal action or chance outcome in place (``turn.play``, unchecked)."""

    # -- the fused random playout -----------------------------------------------------------
    def random_playout(self, rng: random.Random, max_actions: int = 100_000) -> list[Any]:
        """Play to the end exactly as ``random_game`` does with ``rng`` (same draws, same
        choices), without building the lists of legal actions."""
        actions: list[Any] = []
        append = actions.append
        rand = rng.random
        below = getattr(rng, "_randbelow", rng.randrange)  # what rng.choice draws with
        outcome = OUTCOME
        apply = self.apply
        pick = self._pick
        for _ in range(max_actions):
            if self.over:
                return actions
            pending = self.pending
            if pending:
                step = pending[0]
                cards = hidden(self, step)
                total = len(cards)
                x = rand()
                acc = 0.0
                prev = cards[0]
                count = 0
                chosen = None
                for card in cards:
                    if card == prev:
                        count += 1
                        continue
                    acc += count / total
                    if x < acc:
                        chosen = prev
                        break
                    prev, count = card, 1
                if chosen is None:
                    chosen = prev
                action: Action = outcome[step][chosen]
            else:
                action = pick(below)
            apply(action)
            append(action)
        raise RuntimeError(f"builders: no end after {max_actions} actions")

    def _pick(self, below: Any) -> Action:
        """``rng.choice(self.legal_actions())`` without building the list."""
        me = self.players[self.turn_player]
        ap = self.ap
        coins = me.coins
        buy = coins >= ACTION_PRICE
        if ap < 1:
            if buy:
                return BUY_ACTION if below(2) == 0 else END_TURN
            below(1)  # rng.choice draws even from a list of one
            return END_TURN
        row = self.building_row
        recruits = self.worker_row
        if recruits.count(_TWIN) > 1:
            recruits = list(dict.fromkeys(recruits))
        idle: Sequence[str] = ()
        open_sites: Sequence[Site] = ()
        n_sites = n_sends = 0
        if me.sites and me.idle:
            sent = self.sent
            if sent:  # (loops, not comprehensions: no frame to build)
                open_sites = []
                for s in me.sites:
                    if sent.get(s.card, 0) < ap:
                        open_sites.append(s)
            else:
                open_sites = me.sites
            if open_sites:
                idle = me.idle
                if idle.count(_TWIN) > 1:
                    idle = list(dict.fromkeys(idle))
                if coins < _MAX_WAGE:
                    wage = _WAGE
                    payable = []
                    for w in idle:
                        if wage[w] <= coins:
                            payable.append(w)
                    idle = payable
                n_sites = len(open_sites)
                n_sends = len(idle) * n_sites
        if self.cumulative_coins:
            n_coins = min(ap, 3 - self.coin_ap)
        else:
            n_coins = 3 if ap > 3 else ap
        n_row = len(row)
        n_recruits = len(recruits)
        k = below(n_row + n_recruits + n_sends + n_coins + buy + 1)
        if k < n_row:
            return START[row[k]]
        k -= n_row
        if k < n_recruits:
            return RECRUIT[recruits[k]]
        k -= n_recruits
        if k < n_sends:
            w, s = divmod(k, n_sites)
            return SEND[idle[w], open_sites[s].card]
        k -= n_sends
        if k < n_coins:
            return TAKE_COINS[k]
        return BUY_ACTION if k == n_coins and buy else END_TURN

