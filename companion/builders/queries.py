"""Public questions a screen asks about a Builders table, answered by the rules.

Everything a screen would otherwise compute by copying a rule (what an action costs now, the
AP the next worker sent to a site costs, what sending a worker would supply and pay, the coins
a take-coins action gives under the table's option, the turns left in the last round...) is a
method of :class:`Queries`, which :class:`~companion.builders.rules.BuildersGame` inherits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from companion.engine.errors import IllegalAction, RulesError

from .actions import Action, BuyAction, Recruit, Send, Start, TakeCoins
from .cards import BUILDING, MACHINE_IDS, OUTPUT, WAGE, Resources
from .checks import NEEDS, can_progress, covers
from .constants import ACTION_PRICE, END_VP, MAX_COIN_AP, START_AP
from .state import BuildersState
from .turn import check_form, coin_gain


@dataclass(frozen=True, slots=True)
class Cost:
    """What an action costs now: action points and coins (a wage, an extra action)."""

    ap: int
    coins: int


@dataclass(frozen=True, slots=True)
class SendPreview:
    """What sending ``worker`` to ``site`` now would cost and do.

    ``adds`` is what the worker supplies, ``supplied`` the site's total afterwards (extra is
    lost when it finishes), ``finishes`` whether that completes the site, ``coins`` and ``vp``
    what the card then pays (0 otherwise)."""

    worker: str
    site: str
    ap: int
    wage: int
    adds: Resources
    supplied: Resources
    needs: Resources
    finishes: bool
    coins: int
    vp: int


@dataclass(frozen=True, slots=True)
class SiteView:
    """An open site: its workers, what they supply against what it needs, what is missing,
    and ``next_ap``, the AP the next worker sent there this turn costs."""

    card: str
    workers: tuple[str, ...]
    supplied: Resources
    needs: Resources
    missing: Resources
    next_ap: int


@dataclass(frozen=True, slots=True)
class WorkerView:
    """Idle workers of one kind (``count`` copies) or a finished machine: its wage and what it
    supplies."""

    card: str
    count: int
    wage: int
    supplies: Resources
    machine: bool


@dataclass(frozen=True, slots=True)
class Completion:
    """A card ``seat`` finished between two states, with the coins and VP it paid."""

    seat: int
    card: str
    coins: int
    vp: int


class Queries:
    """The questions of the module docstring; every method is pure."""

    end_vp: ClassVar[int] = END_VP
    """VP from finished cards that trigger the end at the end of one's turn (3.3)."""
    action_price: ClassVar[int] = ACTION_PRICE
    """Coins for one extra AP (B2)."""
    start_ap: ClassVar[int] = START_AP
    """AP at the start of every turn."""

    if TYPE_CHECKING:  # BuildersGame provides it

        def apply(self, state: BuildersState, action: Action) -> BuildersState: ...

    # -- the turn ---------------------------------------------------------------------------
    def ap_left(self, state: BuildersState) -> int:
        """The AP the player whose turn it is has left (0 once the game is over)."""
        return state.ap

    def round_of(self, state: BuildersState) -> int:
        """The round being played: 1 until every player has had a turn, and so on."""
        return (state.turn - 1) // len(state.players) + 1

    def sent_this_turn(self, state: BuildersState) -> dict[str, int]:
        """Workers sent to each site this turn, by site id."""
        return dict(state.sent)

    def send_cost(self, state: BuildersState, site: str) -> int:
        """The AP the next worker sent to ``site`` this turn costs (n for the n-th, 2.3)."""
        for card, n in state.sent:
            if card == site:
                return n + 1
        return 1

    @staticmethod
    def wage(card: str) -> int:
        """The wage paid each time ``card`` is sent: by rank for a worker, 0 for a machine;
        IllegalAction (``action.card``) for anything else."""
        wage = WAGE.get(card) if isinstance(card, str) else None
        if wage is None:
            raise IllegalAction(
                card, f"{card!r} is not a worker or a machine", "action.card", card=str(card)
            )
        return wage

    def coins_for(self, state: BuildersState, ap: int) -> int | None:
        """The coins taking coins with ``ap`` AP gives now under the table's option (B1), or
        None when that amount cannot be taken (out of 1 to 3, or past 3 AP this turn with
        cumulative coins)."""
        if type(ap) is not int or not 1 <= ap <= MAX_COIN_AP:
            return None
        if state.cumulative_coins and state.coin_ap + ap > MAX_COIN_AP:
            return None
        return coin_gain(state.coin_ap, ap, state.cumulative_coins)

    def cost(self, state: BuildersState, action: Action) -> Cost:
        """What ``action`` costs the player whose turn it is now, allowed or not: 1 AP to
        start or recruit, n AP and the wage to send the n-th worker to a site this turn, k AP
        for coins, 5 coins for an extra action; chance outcomes and ``end turn`` cost nothing.
        Raises IllegalAction for an action that is no action of the game."""
        check_form(action)
        if isinstance(action, (Start, Recruit)):
            return Cost(1, 0)
        if isinstance(action, Send):
            return Cost(self.send_cost(state, action.site), WAGE[action.worker])
        if isinstance(action, TakeCoins):
            return Cost(action.ap, 0)
        if isinstance(action, BuyAction):
            return Cost(0, ACTION_PRICE)
        return Cost(0, 0)

    def refusal(self, state: BuildersState, action: Action) -> RulesError | None:
        """Why ``action`` is refused now (its IllegalAction, tag and fields), None if allowed."""
        try:
            self.apply(state, action)
        except RulesError as exc:
            return exc
        return None

    def allowed(self, state: BuildersState, action: Action) -> bool:
        """Whether ``action`` can be applied now (affordable, in a row, the right turn...)."""
        return self.refusal(state, action) is None

    def send_preview(self, state: BuildersState, worker: str, site: str) -> SendPreview:
        """What sending ``worker`` to ``site`` (an open site of the player whose turn it is)
        would cost, supply and pay.  IllegalAction when ``site`` is not such a site or the
        cards are not a worker and a building."""
        check_form(Send(worker, site))
        me = state.players[state.turn_player]
        for s in me.sites:
            if s.card == site:
                break
        else:
            raise IllegalAction(
                f"send {worker} to {site}",
                f"{site} is not an open site",
                "send.site",
                player=state.turn_player,
                site=site,
            )
        o = OUTPUT[worker]
        had = s.supplied
        supplied = (had[0] + o[0], had[1] + o[1], had[2] + o[2], had[3] + o[3])
        needs = NEEDS[site]
        finishes = covers(supplied, needs)
        b = BUILDING[site]
        return SendPreview(
            worker,
            site,
            self.send_cost(state, site),
            WAGE[worker],
            o,
            supplied,
            needs,
            finishes,
            b.coins if finishes else 0,
            b.vp if finishes else 0,
        )

    # -- a player's cards -------------------------------------------------------------------
    def _seat(self, state: BuildersState, seat: int | None) -> int:
        return state.turn_player if seat is None else seat

    def sites(self, state: BuildersState, seat: int | None = None) -> list[SiteView]:
        """The open sites of ``seat`` (default: the player whose turn it is), in the order
        started; ``next_ap`` counts this turn's sends for the player whose turn it is only."""
        seat = self._seat(state, seat)
        sent = dict(state.sent) if seat == state.turn_player else {}
        out = []
        for s in state.players[seat].sites:
            n = NEEDS[s.card]
            have = s.supplied
            missing = (
                max(0, n[0] - have[0]),
                max(0, n[1] - have[1]),
                max(0, n[2] - have[2]),
                max(0, n[3] - have[3]),
            )
            out.append(SiteView(s.card, s.workers, have, n, missing, sent.get(s.card, 0) + 1))
        return out

    def idle_workers(self, state: BuildersState, seat: int | None = None) -> list[WorkerView]:
        """The idle workers and finished machines of ``seat`` (default: the player whose turn
        it is), one entry per kind with its count, wage and supply, in the order gained."""
        idle = state.players[self._seat(state, seat)].idle
        return [
            WorkerView(w, idle.count(w), WAGE[w], OUTPUT[w], w in MACHINE_IDS)
            for w in dict.fromkeys(idle)
        ]

    def machines(self, state: BuildersState, seat: int) -> dict[str, str | None]:
        """The finished machines of ``seat``: each with the site it works on, None when idle."""
        p = state.players[seat]
        out: dict[str, str | None] = {}
        for m in p.finished:
            if m in MACHINE_IDS:
                out[m] = next((s.card for s in p.sites if m in s.workers), None)
        return out

    def vp_breakdown(self, state: BuildersState, seat: int) -> dict[str, int]:
        """The points of ``seat`` by source: ``buildings`` and ``machines`` (VP of finished
        cards), ``coins`` (1 per full 10 coins) and their ``total``."""
        p = state.players[seat]
        machines = sum(BUILDING[c].vp for c in p.finished if c in MACHINE_IDS)
        coins = p.coins // 10
        return {
            "buildings": p.vp - machines,
            "machines": machines,
            "coins": coins,
            "total": p.vp + coins,
        }

    def cards_in_view(self, state: BuildersState, seat: int) -> dict[str, list[str]]:
        """The face-up cards of ``seat`` as the camera sees them: ``sites`` (the site cards
        and the workers on them) and ``workers`` (the idle ones); finished machines lie
        turned over and are left out."""
        p = state.players[seat]
        hidden = set(p.finished)
        return {
            "sites": [s.card for s in p.sites]
            + [w for s in p.sites for w in s.workers if w not in hidden],
            "workers": [w for w in p.idle if w not in hidden],
        }

    # -- between two states -----------------------------------------------------------------
    def completions(self, before: BuildersState, after: BuildersState) -> list[Completion]:
        """The cards finished between ``before`` and ``after`` (for example by one send), with
        what each paid."""
        out = []
        for seat, (a, b) in enumerate(zip(before.players, after.players, strict=True)):
            for card in b.finished[len(a.finished) :]:
                c = BUILDING[card]
                out.append(Completion(seat, card, c.coins, c.vp))
        return out

    # -- the end ----------------------------------------------------------------------------
    def end_reason(self, state: BuildersState) -> str | None:
        """Why the end was triggered (17 VP reached, no progress possible), None before."""
        return state.end

    def end_at_turn_end(self, state: BuildersState) -> str | None:
        """Why ending the current turn now would trigger the end (the player has 17 VP from
        cards, or no player can finish a site any more, B6); None if it would not, or if the
        end is already triggered or the game over."""
        if state.over or state.end is not None:
            return None
        name = state.setup.players[state.turn_player].name
        vp = state.players[state.turn_player].vp
        if vp >= END_VP:
            return f"{name} reached {vp} VP"
        if not can_progress(state):
            return "no player can finish a site any more"
        return None

    def turns_left(self, state: BuildersState) -> int | None:
        """Turns still to play once the end is triggered, the current one included (0 when
        over; None before the end is triggered).  Solo: the current turn is the last."""
        if state.over:
            return 0
        if state.end is None:
            return None
        if state.solo:
            return 1
        n = len(state.players)
        return (state.setup.start_player - state.turn_player - 1) % n + 1
