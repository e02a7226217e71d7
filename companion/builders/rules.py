"""The rules of The Builders: Middle Ages on the shared engine core.

A turn is the table :data:`TURN` below (``builders.md`` §2 and §3, rulings B1 to B8).
The turn starts with 3 AP.  It also ends by itself when nothing but ``end turn`` is possible
(no AP and fewer than 5 coins, in practice).  At the end of a turn, a player with 17 VP or more
from finished buildings and machines triggers the end: the round is completed so that everyone
has had the same number of turns.  B6: the end is also triggered when no player can make
progress any more (see :func:`can_progress`).  Final score: VP + 1 per full 10 coins; ties go to
the most VP from cards, then the most coins, then the win is shared (B5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn

from companion.engine.core import CHANCE, TERMINAL, Game, Option, Setup
from companion.engine.errors import IllegalAction, SetupError

from .actions import (
    BUY_ACTION,
    END_TURN,
    Action,
    BuyAction,
    DealApprentice,
    EndTurn,
    Recruit,
    Reveal,
    Send,
    ShowNext,
    Start,
    TakeCoins,
    parse_action,
)
from .cards import (
    APPRENTICES,
    BUILDING,
    BUILDINGS,
    MACHINE_IDS,
    ORDER,
    OUTPUT,
    WAGE,
    WORKER,
    WORKERS,
)
from .state import (
    DEAL_APPRENTICE,
    NEXT_BUILDING,
    NEXT_WORKER,
    REVEAL_BUILDING,
    REVEAL_WORKER,
    BuildersState,
    PlayerState,
    Site,
)

START_AP = 3
"""Free action points at the start of every turn."""
ACTION_PRICE = 5
"""Coins for one extra action point (B2)."""
START_COINS = 10
ROW_SIZE = 5
SOLO_ROW_SIZE = 4
AUTOMA = "Automa"
"""The name of the automatic opponent of the solo variant (B9, unofficial)."""
END_VP = 17
"""VP from finished cards that trigger the end of the game at the end of one's turn."""
COIN_TABLE = (0, 1, 3, 6)
"""Coins for 0, 1, 2 or 3 AP spent on taking coins."""

# The rule tags carried by IllegalAction.rule: the section of builders.md or the ruling.
R_OVER = "3.3 game over"
R_CHANCE = "chance"
R_START = "2.2 start construction"
R_RECRUIT = "2.2 recruit"
R_SEND = "2.3 send a worker"
R_WAGE = "2.3 wage"
R_SEND_AP = "2.3 escalating AP cost"
R_COINS = "B1 take coins"
R_BUY = "B2 extra actions"
R_END = "B2 end of turn"


@dataclass(frozen=True, slots=True)
class Move:
    """One kind of move in a turn as the rulebook lists it: for help screens and messages."""

    form: str
    cost: str
    effect: str
    rule: str


TURN: tuple[Move, ...] = (
    Move(
        "start <building>", "1 AP", "a row card becomes an open site; the row is refilled", R_START
    ),
    Move(
        "recruit <worker>",
        "1 AP",
        "a row worker joins the idle workers; the row is refilled",
        R_RECRUIT,
    ),
    Move(
        "send <worker> to <site>",
        "n AP for the n-th worker sent to that site this turn, and the wage (0 for a machine)",
        "the worker's resources go to the site; a site whose needs are all met is finished at "
        "once: workers back, coins and VP paid, a machine joins the workers with wage 0",
        R_SEND_AP,
    ),
    Move(
        "coins <k>ap", "k AP, k = 1, 2 or 3", "1, 3 or 6 coins (option coins: cumulative)", R_COINS
    ),
    Move("buy action", "5 coins", "+1 AP, at any time in the turn, any number", R_BUY),
    Move("end turn", "nothing", "AP left are lost; the next player clockwise begins", R_END),
)
"""The moves of a turn, in the rulebook's order."""

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

# Interned actions: legal_actions hands out these objects instead of building new ones.
_START = {c.id: Start(c.id) for c in BUILDINGS}
_RECRUIT = {c.id: Recruit(c.id) for c in WORKERS}
_SEND = {(w, s.id): Send(w, s.id) for w in (*WORKER, *MACHINE_IDS) for s in BUILDINGS}
_TAKE = (TakeCoins(1), TakeCoins(2), TakeCoins(3))
_REVEAL: dict[str, dict[str, Action]] = {
    REVEAL_BUILDING: {c.id: Reveal("building", c.id) for c in BUILDINGS},
    NEXT_BUILDING: {c.id: ShowNext("building", c.id) for c in BUILDINGS},
    REVEAL_WORKER: {c.id: Reveal("worker", c.id) for c in WORKERS},
    NEXT_WORKER: {c.id: ShowNext("worker", c.id) for c in WORKERS},
    DEAL_APPRENTICE: {a: DealApprentice(a) for a in APPRENTICES},
}
_NEEDS = {c.id: c.needs for c in BUILDINGS}
_STEP = {
    (Reveal, "building"): REVEAL_BUILDING,
    (ShowNext, "building"): NEXT_BUILDING,
    (Reveal, "worker"): REVEAL_WORKER,
    (ShowNext, "worker"): NEXT_WORKER,
}


def _label(card: str) -> str:
    """A card as messages show it: its English name."""
    c = BUILDING.get(card)
    return c.display_en if c is not None else WORKER[card].display_en


def _where(state: BuildersState, card: str) -> str:
    """Where ``card`` lies on the table, for messages."""
    places = [
        (state.building_row + state.worker_row, "in a row"),
        (state.building_deck + state.worker_deck, "hidden in a deck"),
        ((state.building_next, state.worker_next), "on top of a deck"),
        (state.apprentices, "among the Apprentices to deal"),
    ]
    for cards, where in places:
        if card in cards:
            return where
    if card in state.automa_workers or card in state.automa_finished:
        return f"with {AUTOMA}"
    if card in state.set_aside:
        return "set aside"
    for spec, p in zip(state.setup.players, state.players, strict=True):
        if (
            card in p.idle
            or card in p.finished
            or any(card == s.card or card in s.workers for s in p.sites)
        ):
            return f"with {spec.name}"
    return "nowhere on the table"


def _seat_name(state: BuildersState, seat: int) -> str:
    """The name at ``seat``; the seat after the last one is the solo variant's Automa."""
    return AUTOMA if seat == len(state.players) else state.setup.players[seat].name


def _ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if n <= len(_ORDINALS) else f"{n}th"


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``cards`` less one copy of ``card`` (which must be there)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _covers(supplied: tuple[int, int, int, int], needs: tuple[int, int, int, int]) -> bool:
    return (
        supplied[0] >= needs[0]
        and supplied[1] >= needs[1]
        and supplied[2] >= needs[2]
        and supplied[3] >= needs[3]
    )


def _total(cards: Iterable[str], base: tuple[int, int, int, int] = (0, 0, 0, 0)) -> list[int]:
    s0, s1, s2, s3 = base
    for c in cards:
        o = OUTPUT[c]
        s0 += o[0]
        s1 += o[1]
        s2 += o[2]
        s3 += o[3]
    return [s0, s1, s2, s3]


def can_progress(state: BuildersState) -> bool:
    """Whether any player could still finish any site (ruling B6).

    Optimistic on purpose: a player is granted every idle worker of their own plus every worker
    still in the worker row or deck, unlimited coins (taking coins is always possible) and
    unlimited turns.  A site can be finished if what it already has plus all those workers
    covers its needs; a building in the row or deck counts as a site with nothing on it.  No
    action other than finishing a site ever widens these pools, so once this is false no site
    can ever be finished again: no VP can be earned any more.
    """
    return _can_progress(state)


def _can_progress(state: BuildersState | _Draft) -> bool:
    shared = _total(state.worker_row + state.worker_deck + state.apprentices)
    if state.worker_next is not None:
        o = OUTPUT[state.worker_next]
        shared = [shared[0] + o[0], shared[1] + o[1], shared[2] + o[2], shared[3] + o[3]]
    startable = state.building_row + state.building_deck
    if state.building_next is not None:
        startable += (state.building_next,)
    if state.solo:
        workers = len(state.automa_workers) + len(state.worker_row) + len(state.worker_deck)
        if workers + (state.worker_next is not None) >= 3 and startable:
            return True  # the Automa can still complete a building
    for p in state.players:
        pool = _total(p.idle, (shared[0], shared[1], shared[2], shared[3]))
        for site in p.sites:
            s = site.supplied
            n = _NEEDS[site.card]
            if (
                s[0] + pool[0] >= n[0]
                and s[1] + pool[1] >= n[1]
                and s[2] + pool[2] >= n[2]
                and s[3] + pool[3] >= n[3]
            ):
                return True
        for card in startable:
            n = _NEEDS[card]
            if pool[0] >= n[0] and pool[1] >= n[1] and pool[2] >= n[2] and pool[3] >= n[3]:
                return True
    return False


class _Draft:
    """A private mutable copy of a state, used inside ``apply`` and frozen at the end."""

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
    )

    def __init__(self, s: BuildersState) -> None:
        self.setup = s.setup
        self.players = list(s.players)
        self.building_deck = s.building_deck
        self.building_next = s.building_next
        self.building_row = s.building_row
        self.worker_deck = s.worker_deck
        self.worker_next = s.worker_next
        self.worker_row = s.worker_row
        self.apprentices = s.apprentices
        self.pending = s.pending
        self.pending_seat = s.pending_seat
        self.turn_player = s.turn_player
        self.ap = s.ap
        self.sent = s.sent
        self.coin_ap = s.coin_ap
        self.turn = s.turn
        self.end = s.end
        self.over = s.over
        self.cumulative_coins = s.cumulative_coins
        self.show_next_worker = s.show_next_worker
        self.solo = s.solo
        self.automa_workers = s.automa_workers
        self.automa_finished = s.automa_finished
        self.set_aside = s.set_aside

    def freeze(self) -> BuildersState:
        return BuildersState(
            self.setup,
            tuple(self.players),
            self.building_deck,
            self.building_next,
            self.building_row,
            self.worker_deck,
            self.worker_next,
            self.worker_row,
            self.apprentices,
            self.pending,
            self.pending_seat,
            self.turn_player,
            self.ap,
            self.sent,
            self.coin_ap,
            self.turn,
            self.end,
            self.over,
            self.cumulative_coins,
            self.show_next_worker,
            self.solo,
            self.automa_workers,
            self.automa_finished,
            self.set_aside,
        )


class BuildersGame(Game[BuildersState, Action]):
    """The Builders: Middle Ages (Frédéric Henry, Bombyx 2013) for 2 to 4 players.

    One player plays the unofficial solo fan variant (ruling B9) against the Automa."""

    name: ClassVar[str] = "builders"
    title: ClassVar[str] = "The Builders: Middle Ages"
    min_players: ClassVar[int] = 1
    """One player plays the unofficial solo variant (B9) against the Automa."""
    max_players: ClassVar[int] = 4
    options: ClassVar[Mapping[str, Option]] = {
        "coins": Option(
            "separate",
            ("separate", "cumulative"),
            "B1: 'separate' prices every take-coins action on its own (1/2/3 AP give 1/3/6); "
            "'cumulative' adds up a turn's coin AP (1 AP then 1 AP give 1 + 2), at most 3 a turn",
        ),
        "show_next_worker": Option(
            False,
            (False, True),
            "B3: the top of the building deck is always public; True makes the top of the "
            "worker deck public too",
        ),
    }

    # -- set-up ---------------------------------------------------------------------------
    def validate_setup(self, setup: Setup) -> None:
        """Raise SetupError unless ``setup`` is legal; a solo player cannot be the Automa."""
        super().validate_setup(setup)
        if len(setup.players) == 1 and setup.players[0].name.strip().lower() == AUTOMA.lower():
            raise SetupError(f"{AUTOMA} is the name of the solo opponent; choose another name")

    def initial_state(self, setup: Setup) -> BuildersState:
        """The table before the first card is dealt; raises SetupError on a bad set-up.

        The chance steps of the set-up come first: five buildings into the row, the new top of
        the building deck, one Apprentice to each player from the first player on, five
        workers into the row (the leftover Apprentices are shuffled in first) and, with the
        option, the top of the worker deck.
        """
        self.validate_setup(setup)
        n = len(setup.players)
        solo = n == 1
        row = SOLO_ROW_SIZE if solo else ROW_SIZE
        show_next_worker = bool(self.option(setup, "show_next_worker"))
        pending = (
            (REVEAL_BUILDING,) * row
            + (NEXT_BUILDING,)
            + (DEAL_APPRENTICE,) * (n + solo)
            + (REVEAL_WORKER,) * row
            + ((NEXT_WORKER,) if show_next_worker else ())
        )
        worker_deck = tuple(c.id for c in WORKERS if c.rank != "apprentice" for _ in range(c.count))
        return BuildersState(
            setup=setup,
            players=tuple(PlayerState(coins=START_COINS) for _ in range(n)),
            building_deck=tuple(c.id for c in BUILDINGS),
            building_next=None,
            building_row=(),
            worker_deck=worker_deck,
            worker_next=None,
            worker_row=(),
            apprentices=APPRENTICES,
            pending=pending,
            pending_seat=setup.start_player,
            turn_player=setup.start_player,
            ap=START_AP,
            sent=(),
            coin_ap=0,
            turn=1,
            end=None,
            over=False,
            cumulative_coins=self.option(setup, "coins") == "cumulative",
            show_next_worker=show_next_worker,
            solo=solo,
        )

    def setup_of(self, state: BuildersState) -> Setup:
        """The set-up the game was started from."""
        return state.setup

    # -- whose move -----------------------------------------------------------------------
    def current_player(self, state: BuildersState) -> int:
        """The seat to act, CHANCE while a card is to be revealed, TERMINAL when over."""
        if state.over:
            return TERMINAL
        if state.pending:
            return CHANCE
        return state.turn_player

    def chance_outcomes(self, state: BuildersState) -> list[tuple[Action, float]]:
        """Every card that can come next with its probability, in catalogue order.

        Identical cards weigh by their copies still hidden.  Empty unless at a chance node."""
        if state.over or not state.pending:
            return []
        step = state.pending[0]
        if step == DEAL_APPRENTICE:
            hidden = state.apprentices
        elif step in (REVEAL_BUILDING, NEXT_BUILDING):
            hidden = state.building_deck
        else:
            hidden = state.worker_deck
        table = _REVEAL[step]
        total = len(hidden)
        outcomes: list[tuple[Action, float]] = []
        prev: str | None = None
        count = 0
        for card in hidden:
            if card == prev:
                count += 1
                continue
            if prev is not None:
                outcomes.append((table[prev], count / total))
            prev, count = card, 1
        if prev is not None:
            outcomes.append((table[prev], count / total))
        return outcomes

    def legal_actions(self, state: BuildersState) -> list[Action]:
        """The decisions open to the player whose turn it is; empty at chance and at the end."""
        if state.over or state.pending:
            return []
        me = state.players[state.turn_player]
        ap = state.ap
        coins = me.coins
        actions: list[Action] = []
        if ap >= 1:
            actions.extend(_START[c] for c in state.building_row)
            recruit = _RECRUIT
            actions.extend(recruit[c] for c in dict.fromkeys(state.worker_row))
            if me.sites and me.idle:
                sent = dict(state.sent)
                open_sites = [s.card for s in me.sites if sent.get(s.card, 0) < ap]
                if open_sites:
                    send = _SEND
                    for w in dict.fromkeys(me.idle):
                        if WAGE[w] <= coins:
                            actions.extend(send[w, s] for s in open_sites)
            if state.cumulative_coins:
                actions.extend(_TAKE[: min(ap, 3 - state.coin_ap)])
            else:
                actions.extend(_TAKE[: min(ap, 3)])
        if coins >= ACTION_PRICE:
            actions.append(BUY_ACTION)
        actions.append(END_TURN)
        return actions

    # -- moves ----------------------------------------------------------------------------
    def apply(self, state: BuildersState, action: Action) -> BuildersState:
        """The state after ``action``; raises IllegalAction naming the player, the rule and the
        numbers, and leaves ``state`` unchanged."""
        if state.over:
            raise IllegalAction(
                action, f"The game is over ({state.end}); no more actions are possible", R_OVER
            )
        d = _Draft(state)
        if state.pending:
            self._chance(state, d, action)
        else:
            if isinstance(action, Send):
                self._send(d, action)
            elif isinstance(action, Start):
                self._start(d, action)
            elif isinstance(action, Recruit):
                self._recruit(d, action)
            elif isinstance(action, TakeCoins):
                self._coins(d, action)
            elif isinstance(action, BuyAction):
                self._buy(d, action)
            elif isinstance(action, EndTurn):
                self._end_turn(d)
                return d.freeze()
            elif isinstance(action, (Reveal, ShowNext, DealApprentice)):
                name = state.setup.players[state.turn_player].name
                raise IllegalAction(
                    action,
                    f"No card is being revealed now: it is {name}'s turn to act",
                    R_CHANCE,
                )
            else:
                raise IllegalAction(action, f"{action!r} is not a move of {self.title}", R_CHANCE)
        if not d.pending and not d.over and not self._can_act(d):
            self._end_turn(d)
        return d.freeze()

    def period(self, state: BuildersState) -> int:
        """The number of the turn being played (1 for the first player's first turn)."""
        return state.turn

    def parse_action(self, text: str) -> Action:
        """The action written ``text``; raises MalformedAction naming what is wrong."""
        return parse_action(text)

    # -- chance ---------------------------------------------------------------------------
    def _chance(self, state: BuildersState, d: _Draft, action: Action) -> None:
        step = state.pending[0]
        if isinstance(action, (Reveal, ShowNext)) and _STEP[type(action), action.deck] == step:
            card = action.card
            if action.deck == "building" and card in state.building_deck:
                d.building_deck = _without(state.building_deck, card)
                if step == REVEAL_BUILDING:
                    d.building_row = state.building_row + (card,)
                else:
                    d.building_next = card
                d.pending = state.pending[1:]
                return
            if action.deck == "worker" and card in state.worker_deck:
                d.worker_deck = _without(state.worker_deck, card)
                if step == REVEAL_WORKER:
                    d.worker_row = state.worker_row + (card,)
                else:
                    d.worker_next = card
                d.pending = state.pending[1:]
                return
        elif (
            isinstance(action, DealApprentice)
            and step == DEAL_APPRENTICE
            and action.card in state.apprentices
        ):
            seat = state.pending_seat
            if seat == len(d.players):  # solo: the Automa's Apprentice
                d.automa_workers = (action.card,)
            else:
                p = d.players[seat]
                d.players[seat] = PlayerState(
                    p.coins, p.idle + (action.card,), p.sites, p.finished, p.vp
                )
            d.apprentices = _without(state.apprentices, action.card)
            d.pending = state.pending[1:]
            d.pending_seat = seat + 1 if d.solo else (seat + 1) % len(d.players)
            if not d.pending or d.pending[0] != DEAL_APPRENTICE:
                # B4: the Apprentices nobody was dealt are shuffled into the worker deck.
                d.worker_deck = tuple(
                    sorted(state.worker_deck + d.apprentices, key=ORDER.__getitem__)
                )
                d.apprentices = ()
            return
        self._refuse_chance(state, action)

    def _refuse_chance(self, state: BuildersState, action: Action) -> NoReturn:
        step = state.pending[0]
        if step == DEAL_APPRENTICE:
            who = _seat_name(state, state.pending_seat)
            what = f"an Apprentice to be dealt to {who} (deal apprentice <card>)"
        else:
            what = f"a card to be revealed ({step} <card>)"
        if isinstance(action, (Reveal, ShowNext, DealApprentice)) and str(action).startswith(step):
            hidden = len(self.chance_outcomes(state))
            raise IllegalAction(
                action,
                f"{_label(action.card)} cannot come up now: it is {_where(state, action.card)}; "
                f"{hidden} other cards can",
                R_CHANCE,
            )
        raise IllegalAction(action, f"Waiting for {what}, not for {action}", R_CHANCE)

    # -- decisions ------------------------------------------------------------------------
    def _who(self, d: _Draft) -> str:
        return d.setup.players[d.turn_player].name

    def _need_ap(self, d: _Draft, action: Action, cost: int, doing: str, rule: str) -> None:
        if d.ap < cost:
            hint = (
                ""
                if d.players[d.turn_player].coins < ACTION_PRICE
                else (f" (an extra action costs {ACTION_PRICE} coins)")
            )
            raise IllegalAction(
                action, f"{doing} costs {cost} AP; {self._who(d)} has {d.ap}{hint}", rule
            )

    def _start(self, d: _Draft, action: Start) -> None:
        card = action.card
        if card not in d.building_row:
            raise IllegalAction(
                action,
                f"{self._who(d)} cannot start {_label(card)}: it is not in the building row "
                f"({', '.join(d.building_row) or 'empty'})",
                R_START,
            )
        self._need_ap(d, action, 1, f"Starting {_label(card)}", R_START)
        d.ap -= 1
        p = d.players[d.turn_player]
        d.players[d.turn_player] = PlayerState(
            p.coins, p.idle, p.sites + (Site(card),), p.finished, p.vp
        )
        d.building_row = _without(d.building_row, card)
        self._refill_buildings(d)

    def _recruit(self, d: _Draft, action: Recruit) -> None:
        card = action.card
        if card not in d.worker_row:
            raise IllegalAction(
                action,
                f"{self._who(d)} cannot recruit {_label(card)}: it is not in the worker row "
                f"({', '.join(d.worker_row) or 'empty'})",
                R_RECRUIT,
            )
        self._need_ap(d, action, 1, f"Recruiting {_label(card)}", R_RECRUIT)
        d.ap -= 1
        p = d.players[d.turn_player]
        d.players[d.turn_player] = PlayerState(p.coins, p.idle + (card,), p.sites, p.finished, p.vp)
        d.worker_row = _without(d.worker_row, card)
        self._refill_workers(d)

    def _refill_buildings(self, d: _Draft) -> None:
        """A card left the building row: the visible top slides in and the next one shows."""
        if d.building_next is not None:
            d.building_row += (d.building_next,)
            d.building_next = None
            if d.building_deck:
                d.pending += (NEXT_BUILDING,)
        elif d.building_deck:
            d.pending += (REVEAL_BUILDING,)

    def _refill_workers(self, d: _Draft) -> None:
        """A card left the worker row: a hidden card is revealed (or the visible top slides in)."""
        if d.worker_next is not None:
            d.worker_row += (d.worker_next,)
            d.worker_next = None
            if d.worker_deck:
                d.pending += (NEXT_WORKER,)
        elif d.worker_deck:
            d.pending += (NEXT_WORKER,) if d.show_next_worker else (REVEAL_WORKER,)

    def _send(self, d: _Draft, action: Send) -> None:
        seat = d.turn_player
        p = d.players[seat]
        worker, card = action.worker, action.site
        who = self._who(d)
        if worker not in p.idle:
            if worker in MACHINE_IDS and worker not in p.finished:
                reason = f"{_label(worker)} is not a finished machine of {who}"
            else:
                free = ", ".join(p.idle) or "none"
                reason = f"{who} has no idle {_label(worker)} (idle: {free})"
            raise IllegalAction(action, reason, R_SEND)
        index = -1
        for i, s in enumerate(p.sites):
            if s.card == card:
                index = i
                break
        if index < 0:
            sites = ", ".join(s.card for s in p.sites) or "none"
            raise IllegalAction(
                action,
                f"{_label(card)} is not an open site of {who} (open sites: {sites})",
                R_SEND,
            )
        sent = dict(d.sent)
        nth = sent.get(card, 0) + 1
        self._need_ap(
            d,
            action,
            nth,
            f"Sending the {_ordinal(nth)} worker to {_label(card)} this turn"
            if nth > 1
            else f"Sending a worker to {_label(card)}",
            R_SEND_AP,
        )
        wage = WAGE[worker]
        if wage > p.coins:
            raise IllegalAction(
                action,
                f"Sending {_label(worker)} costs a wage of {wage} coins; {who} has {p.coins}",
                R_WAGE,
            )
        d.ap -= nth
        sent[card] = nth
        d.sent = tuple(sent.items())
        site = p.sites[index]
        o = OUTPUT[worker]
        had = site.supplied
        supplied = (had[0] + o[0], had[1] + o[1], had[2] + o[2], had[3] + o[3])
        idle = _without(p.idle, worker)
        coins = p.coins - wage
        if _covers(supplied, _NEEDS[card]):
            # Finished: workers go home, the card pays, a machine joins the workers (3.1, 3.2).
            b = BUILDING[card]
            idle += site.workers + (worker,)
            if b.kind == "machine":
                idle += (card,)
            d.players[seat] = PlayerState(
                coins + b.coins,
                idle,
                p.sites[:index] + p.sites[index + 1 :],
                p.finished + (card,),
                p.vp + b.vp,
            )
        else:
            worked = Site(card, site.workers + (worker,), supplied)
            d.players[seat] = PlayerState(
                coins, idle, p.sites[:index] + (worked,) + p.sites[index + 1 :], p.finished, p.vp
            )

    def _coins(self, d: _Draft, action: TakeCoins) -> None:
        k = action.ap
        who = self._who(d)
        if d.cumulative_coins:
            if d.coin_ap + k > 3:
                raise IllegalAction(
                    action,
                    f"{who} has spent {d.coin_ap} AP on coins this turn; with cumulative coins "
                    f"a turn converts at most 3 AP (6 coins), so {k} more is too many",
                    R_COINS,
                )
            gain = COIN_TABLE[d.coin_ap + k] - COIN_TABLE[d.coin_ap]
        else:
            gain = COIN_TABLE[k]
        self._need_ap(d, action, k, f"Taking {gain} coins", R_COINS)
        d.ap -= k
        d.coin_ap += k
        p = d.players[d.turn_player]
        d.players[d.turn_player] = PlayerState(p.coins + gain, p.idle, p.sites, p.finished, p.vp)

    def _buy(self, d: _Draft, action: Action) -> None:
        p = d.players[d.turn_player]
        if p.coins < ACTION_PRICE:
            raise IllegalAction(
                action,
                f"An extra action costs {ACTION_PRICE} coins; {self._who(d)} has {p.coins}",
                R_BUY,
            )
        d.ap += 1
        d.players[d.turn_player] = PlayerState(
            p.coins - ACTION_PRICE, p.idle, p.sites, p.finished, p.vp
        )

    def _can_act(self, d: _Draft) -> bool:
        """Whether the player has any move besides ``end turn``."""
        p = d.players[d.turn_player]
        if p.coins >= ACTION_PRICE:
            return True
        ap = d.ap
        if ap == 0:
            return False
        if not d.cumulative_coins or d.coin_ap < 3 or d.building_row or d.worker_row:
            return True
        if not p.sites or not any(WAGE[w] <= p.coins for w in p.idle):
            return False
        sent = dict(d.sent)
        return any(sent.get(s.card, 0) < ap for s in p.sites)

    def _end_turn(self, d: _Draft) -> None:
        """Close the turn: end trigger (3.3, B6), then the next player or the end."""
        n = len(d.players)
        seat = d.turn_player
        if d.end is None:
            if d.players[seat].vp >= END_VP:
                d.end = f"{self._who(d)} reached {d.players[seat].vp} VP"
            elif not _can_progress(d):
                d.end = "no player can finish a site any more"
        if d.solo:
            # The Automa plays after every turn, and once more after the player reached 17.
            self._automa_turn(d)
            vp = sum(BUILDING[c].vp for c in d.automa_finished)
            if d.end is None and vp >= END_VP:
                d.end = f"{AUTOMA} reached {vp} VP"
            last = d.end is not None
        else:
            last = d.end is not None and seat == (d.setup.start_player - 1) % n
        if last:
            d.over = True
            d.pending = ()
            d.ap = 0
            d.sent = ()
            d.coin_ap = 0
            return
        d.turn_player = (seat + 1) % n
        d.ap = START_AP
        d.sent = ()
        d.coin_ap = 0
        d.turn += 1

    def _automa_turn(self, d: _Draft) -> None:
        """The solo opponent's turn (B9, fan variant): take the dearest worker in the row, the
        rightmost on a tie; holding 3 workers, complete the row's building with the most VP,
        the rightmost on a tie, and set it aside with the 3 oldest workers.  No coins."""
        row = d.worker_row
        if row:
            i = max(range(len(row)), key=lambda k: (WAGE[row[k]], k))
            d.automa_workers += (row[i],)
            d.worker_row = row[:i] + row[i + 1 :]
            self._refill_workers(d)
        brow = d.building_row
        if len(d.automa_workers) >= 3 and brow:
            i = max(range(len(brow)), key=lambda k: (BUILDING[brow[k]].vp, k))
            d.automa_finished += (brow[i],)
            d.set_aside += d.automa_workers[:3]
            d.automa_workers = d.automa_workers[3:]
            d.building_row = brow[:i] + brow[i + 1 :]
            self._refill_buildings(d)

    # -- results --------------------------------------------------------------------------
    def scores(self, state: BuildersState) -> dict[str, int]:
        """Points by name: VP of finished cards plus 1 per full 10 coins (3.4); in the solo
        variant the Automa scores the VP of its buildings."""
        return {name: key[0] for name, key in self._ranking(state)}

    def winners(self, state: BuildersState) -> list[str]:
        """The winners of a finished game (B5 tie-breaks; shared win); empty before the end."""
        if not state.over:
            return []
        ranking = self._ranking(state)
        best = max(key for _, key in ranking)
        return [name for name, key in ranking if key == best]

    def _ranking(self, state: BuildersState) -> list[tuple[str, tuple[int, int, int]]]:
        """Each name with its B5 key: points, then VP from cards, then coins."""
        ranking = [
            (spec.name, (p.vp + p.coins // 10, p.vp, p.coins))
            for spec, p in zip(state.setup.players, state.players, strict=True)
        ]
        if state.solo:
            vp = sum(BUILDING[c].vp for c in state.automa_finished)
            ranking.append((AUTOMA, (vp, vp, 0)))
        return ranking

    # -- checks and summaries -------------------------------------------------------------
    def invariants(self, state: BuildersState) -> list[str]:
        """Conservation problems: every card in exactly one place, sane counters; [] if fine."""
        problems: list[str] = []
        places: dict[str, list[str]] = {}

        def put(card: str, where: str) -> None:
            places.setdefault(card, []).append(where)

        for c in state.building_deck:
            put(c, "building deck")
        if state.building_next is not None:
            put(state.building_next, "top of the building deck")
        for c in state.building_row:
            put(c, "building row")
        for c in state.worker_deck:
            put(c, "worker deck")
        if state.worker_next is not None:
            put(state.worker_next, "top of the worker deck")
        for c in state.worker_row:
            put(c, "worker row")
        for c in state.apprentices:
            put(c, "Apprentices to deal")
        for c in state.automa_workers:
            put(c, f"{AUTOMA}'s workers")
        for c in state.automa_finished:
            put(c, f"{AUTOMA}'s buildings")
        for c in state.set_aside:
            put(c, "set aside")
        for spec, p in zip(state.setup.players, state.players, strict=True):
            if p.coins < 0:
                problems.append(f"{spec.name} has {p.coins} coins")
            machine_jobs: dict[str, int] = {}
            for c in p.finished:
                put(c, f"{spec.name}'s finished cards")
            for c in p.idle:
                if c in MACHINE_IDS:
                    machine_jobs[c] = machine_jobs.get(c, 0) + 1
                else:
                    put(c, f"{spec.name}'s idle workers")
            supplied_vp = sum(BUILDING[c].vp for c in p.finished)
            if supplied_vp != p.vp:
                problems.append(
                    f"{spec.name} has {p.vp} VP but the finished cards give {supplied_vp}"
                )
            for site in p.sites:
                put(site.card, f"{spec.name}'s sites")
                for w in site.workers:
                    if w in MACHINE_IDS:
                        machine_jobs[w] = machine_jobs.get(w, 0) + 1
                    else:
                        put(w, f"{spec.name}'s site {site.card}")
                if tuple(_total(site.workers)) != site.supplied:
                    problems.append(f"{spec.name}'s site {site.card} has a wrong supply total")
                if _covers(site.supplied, _NEEDS[site.card]):
                    problems.append(f"{spec.name}'s site {site.card} is complete but still open")
            for m in MACHINE_IDS:
                jobs = machine_jobs.get(m, 0)
                expected = 1 if m in p.finished else 0
                if jobs != expected:
                    problems.append(
                        f"machine {m} works {jobs} times for {spec.name}, expected {expected}"
                    )
        for b in BUILDINGS:
            where = places.get(b.id, [])
            if len(where) != 1:
                problems.append(f"building {b.id} is in {len(where)} places: {where}")
        for wc in WORKERS:
            where = places.get(wc.id, [])
            if len(where) != wc.count:
                problems.append(f"worker {wc.id} is in {len(where)} places (expected {wc.count})")
        strays = set(places) - set(BUILDING) - set(WORKER)
        if strays:
            problems.append(f"unknown cards on the table: {sorted(strays)}")
        if state.ap < 0:
            problems.append(f"{state.ap} AP")
        size = SOLO_ROW_SIZE if state.solo else ROW_SIZE
        if len(state.building_row) > size or len(state.worker_row) > size:
            problems.append(f"a row has more than {size} cards")
        if not state.solo and (state.automa_workers or state.automa_finished or state.set_aside):
            problems.append(f"{AUTOMA} cards in a game with {len(state.players)} players")
        return problems

    def summary(self, state: BuildersState) -> dict[str, Any]:
        """A JSON-ready picture of the table: scores, rows, decks and every player's cards."""
        n = len(state.players)
        players = []
        for spec, p in zip(state.setup.players, state.players, strict=True):
            players.append(
                {
                    "name": spec.name,
                    "colour": spec.colour,
                    "coins": p.coins,
                    "vp": p.vp,
                    "points": p.vp + p.coins // 10,
                    "idle": list(p.idle),
                    "sites": [
                        {
                            "card": s.card,
                            "workers": list(s.workers),
                            "supplied": list(s.supplied),
                            "needs": list(_NEEDS[s.card]),
                        }
                        for s in p.sites
                    ],
                    "finished": list(p.finished),
                }
            )
        who = self.current_player(state)
        summary: dict[str, Any] = {
            "game": self.name,
            "over": state.over,
            "scores": self.scores(state),
            "winners": self.winners(state),
            "turn": state.turn,
            "round": (state.turn - 1) // n + 1,
            "to_act": (
                "chance"
                if who == CHANCE
                else None
                if who == TERMINAL
                else state.setup.players[who].name
            ),
            "waiting_for": state.pending[0] if state.pending else None,
            "ap": state.ap,
            "end": state.end,
            "building_row": list(state.building_row),
            "building_next": state.building_next,
            "building_deck": len(state.building_deck),
            "worker_row": list(state.worker_row),
            "worker_next": state.worker_next,
            "worker_deck": len(state.worker_deck),
            "options": {
                "coins": "cumulative" if state.cumulative_coins else "separate",
                "show_next_worker": state.show_next_worker,
            },
            "players": players,
        }
        if state.solo:
            summary["variant"] = "solo (unofficial fan variant, B9)"
            summary["automa"] = {
                "name": AUTOMA,
                "workers": list(state.automa_workers),
                "finished": list(state.automa_finished),
                "vp": sum(BUILDING[c].vp for c in state.automa_finished),
                "set_aside": list(state.set_aside),
            }
        return summary

    def describe(self, state: BuildersState) -> str:
        """A few lines of plain text: whose turn, the rows, and each player's position."""
        n = len(state.players)
        round_no = (state.turn - 1) // n + 1
        lines: list[str] = []
        if state.over:
            lines.append(f"Game over ({state.end}); winners: {', '.join(self.winners(state))}")
        elif state.pending:
            lines.append(f"Round {round_no}: waiting for {state.pending[0]}")
        else:
            name = state.setup.players[state.turn_player].name
            lines.append(f"Round {round_no}: {name} to play with {state.ap} AP")
            if state.end:
                lines.append(f"Last round: {state.end}")
        nb = state.building_next or "hidden"
        lines.append(
            f"Buildings: {' '.join(state.building_row) or '-'} | next {nb}, "
            f"{len(state.building_deck)} more in the deck"
        )
        nw = state.worker_next or "hidden"
        lines.append(
            f"Workers: {' '.join(state.worker_row) or '-'} | next {nw}, "
            f"{len(state.worker_deck)} more in the deck"
        )
        for spec, p in zip(state.setup.players, state.players, strict=True):
            sites = "; ".join(
                f"{s.card} {'/'.join(map(str, s.supplied))} of {'/'.join(map(str, _NEEDS[s.card]))}"
                for s in p.sites
            )
            lines.append(
                f"{spec.name}: {p.vp} VP, {p.coins} coins, idle {' '.join(p.idle) or '-'}, "
                f"sites {sites or '-'}, finished {' '.join(p.finished) or '-'}"
            )
        if state.solo:
            vp = sum(BUILDING[c].vp for c in state.automa_finished)
            lines.append(
                f"{AUTOMA} (solo variant): {vp} VP, holds "
                f"{' '.join(state.automa_workers) or '-'}, "
                f"finished {' '.join(state.automa_finished) or '-'}"
            )
        return "\n".join(lines)
