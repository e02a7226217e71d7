"""The rules of The Pillars of the Earth: set-up, the three phases of a round, the end.

The round is the table ``STEPS`` below, read like the rulebook.  ``apply`` copies the state into
a private mutable draft, performs the action, runs every automatic step up to the next decision
or chance node, and freezes the draft into the next state.  The state given to ``apply`` is
never modified, also when the action is refused.
"""

from __future__ import annotations

from dataclasses import fields
from itertools import product
from typing import Any

from companion.engine.core import CHANCE, TERMINAL, Game, Setup
from companion.engine.errors import IllegalAction

from . import data as D
from .actions import DONE, PASS, REDRAW, Action, convert_action, parse_action, return_action
from .conversion import Conversion, best_conversion
from .state import PillarsState, Seat

# ---------------------------------------------------------------------------------------------
# The round, step by step.  Each entry: the state's ``step`` value, who acts, and what it is.
STEPS: tuple[tuple[str, str, str], ...] = (
    ("privilege", "chance", "Round start: reveal a privilege card onto each Kingsbridge space"),
    ("craftsman", "chance", "Round start: reveal a craftsman onto each Shiring space"),
    ("resource", "chance", "Round start: reveal 7 of the 9 resource cards into the pool"),
    ("peek", "chance", "Round start (Ellen): the coming event is revealed early"),
    ("draft", "player", "Phase I: take a card from the pool or pass"),
    ("draft-discard", "player", "Phase I: over the craftsman limit, discard one"),
    ("draw", "chance", "Phase II: draw a master builder from the bag"),
    ("place", "player", "Phase II: place the drawn builder, or pass"),
    ("parked", "player", "Phase II: place a passed builder, free"),
    ("event", "chance", "Phase III step 1: reveal the event card"),
    ("archbishop", "player", "Step 2: Archbishop's Office: protection or a market cube"),
    ("thomas", "player", "Step 1: play Thomas against this negative event?"),
    ("lose", "player", "Step 1 (event): give up one craftsman"),
    ("boost", "player", "Step 1 (event): one craftsman gets +1 capacity this round"),
    ("roll", "chance", "Step 9: King's Court: roll the tax die"),
    ("taxfree", "player", "Step 9: play the tax exemption this round?"),
    ("shiring-discard", "player", "Step 10: over the craftsman limit, discard one"),
    ("market", "player", "Step 12: the market: buy or sell one resource type, or pass"),
    ("cathedral", "player", "Step 13: the cathedral: use your craftsmen"),
    ("return", "player", "Step 13: keep at most 5 resources; give back the rest"),
    ("over", "end", "The game is over"),
)
STEP_HELP = {s: h for s, _, h in STEPS}
_CHANCE_STEPS = frozenset(s for s, who, _ in STEPS if who == "chance")

_RES_INDEX = {name: i for i, name in enumerate(D.RESOURCES)}
_SEAT_FIELDS = tuple(f.name for f in fields(Seat))
_STATE_FIELDS = tuple(f.name for f in fields(PillarsState))


# ---------------------------------------------------------------------------------------------
# The private mutable draft used inside apply().


def _copier(name: str, fields_: tuple[str, ...], target: type | None) -> Any:
    """Straight-line code copying ``fields_`` from ``src`` onto ``dst`` (a new ``target``
    built without its frozen ``__init__`` when given): the draft's hot path, written out
    the way dataclasses writes its own ``__init__``."""
    env: dict[str, Any] = {"_new": object.__new__, "_cls": target}
    lines = [f"def {name}(dst, src):"]
    if target is not None:
        lines.append("    dst = _new(_cls)")
        for k, f in enumerate(fields_):
            env[f"_set{k}"] = target.__dict__[f].__set__
            lines.append(f"    _set{k}(dst, src.{f})")
    else:
        lines += [f"    dst.{f} = src.{f}" for f in fields_]
    lines.append("    return dst")
    exec("\n".join(lines), env)
    return env[name]


class _SeatDraft:
    __slots__ = _SEAT_FIELDS

    def __init__(self, seat: Seat) -> None:
        _thaw_seat(self, seat)

    def freeze(self) -> Seat:
        return _freeze_seat(None, self)  # type: ignore[no-any-return]


_thaw_seat = _copier("thaw_seat", _SEAT_FIELDS, None)
_freeze_seat = _copier("freeze_seat", _SEAT_FIELDS, Seat)


class _Draft:
    __slots__ = (*_STATE_FIELDS, "_mut")

    setup: Setup
    round: int
    step: str
    turn: int
    queue: tuple[int, ...]
    start: int
    seats: tuple[Seat, ...]
    supply: tuple[int, int, int, int]
    market: tuple[int, int, int]
    court_metal: int
    castle_gray: int
    round_craftsmen: tuple[str, ...]
    shiring: tuple[str, ...]
    pool: tuple[str, ...]
    res_hidden: tuple[str, ...]
    priv_unseen: tuple[str, ...]
    kingsbridge: tuple[str, ...]
    priv_out: tuple[str, ...]
    events_unseen: tuple[str, ...]
    event: str
    events_done: tuple[str, ...]
    removed: tuple[str, ...]
    bag: tuple[int, ...]
    aside: tuple[int, ...]
    spaces: tuple[int, ...]
    parked: tuple[int, ...]
    decided: int
    drawn: int
    redraw_used: bool
    tax: int
    market_live: tuple[int, ...]
    market_slot: int
    over: bool
    _mut: list[Any]

    def __init__(self, state: PillarsState) -> None:
        _thaw_state(self, state)
        self._mut = [None] * len(state.seats)

    def s(self, i: int) -> Any:
        """The mutable seat ``i`` (thawed on first use)."""
        m = self._mut[i]
        if m is None:
            m = self._mut[i] = _SeatDraft(self.seats[i])
        return m

    @property
    def n(self) -> int:
        return len(self.seats)

    def name(self, i: int) -> str:
        return self.setup.players[i].name

    def order(self) -> list[int]:
        """Seats in turn order from the start player."""
        n = len(self.seats)
        return [(self.start + k) % n for k in range(n)]

    def freeze(self) -> PillarsState:
        seats = tuple(
            m.freeze() if m is not None else s for m, s in zip(self._mut, self.seats, strict=True)
        )
        self.seats = seats
        self._mut = [None] * len(seats)
        return _freeze_state(None, self)  # type: ignore[no-any-return]


_thaw_state = _copier("thaw_state", _STATE_FIELDS, None)
_freeze_state = _copier("freeze_state", _STATE_FIELDS, PillarsState)


def _add(t: tuple[int, ...], i: int, n: int) -> Any:
    return t[:i] + (t[i] + n,) + t[i + 1 :]


def _without(t: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = t.index(item)
    return t[:i] + t[i + 1 :]


# -- gains and losses ---------------------------------------------------------------------------


def _gold(s: Any, n: int) -> None:
    """Gain gold up to the limit of 30 (ruling P2)."""
    s.gold = min(D.GOLD_LIMIT, s.gold + n)


def _vp(s: Any, n: int) -> None:
    """Gain (or lose) VP; never below 0 (ruling P3)."""
    s.vp = max(0, s.vp + n)


def _pay_or_lose(s: Any, amount: int) -> None:
    """Pay gold; what cannot be paid costs 1 VP per 2 gold, rounded down (ruling P5)."""
    short = max(0, amount - s.gold)
    s.gold = max(0, s.gold - amount)
    _vp(s, -(short // 2))


def _from_supply(d: _Draft, s: Any, r: int, n: int, owe: bool = False) -> None:
    """Cubes from the general supply; a shortfall is owed when ``owe`` (production)."""
    got = min(n, d.supply[r])
    if got:
        d.supply = _add(d.supply, r, -got)
        s.res = _add(s.res, r, got)
    if owe and n > got:
        s.owed = _add(s.owed, r, n - got)


def _reserve(s: Any) -> int:
    """Workers not on a resource card (own, gray and black)."""
    return int(s.workers + s.gray - sum(D.RESOURCE_CARDS[c].workers for c in s.cards))


def _used(s: Any, craftsman: str) -> int:
    for c, n in s.uses:
        if c == craftsman:
            return int(n)
    return 0


def _limit(s: Any) -> int:
    return D.CRAFTSMAN_LIMIT + ("jack" in s.privileges)


def _kinds(s: Any) -> set[str]:
    return {D.CRAFTSMEN[c].kind for c in s.craftsmen}


def _capacity(seat: Any, card: str) -> int:
    c = D.CRAFTSMEN[card]
    base = 1 if c.spec.auto else c.capacity
    return base + int(seat.boost == card)


# ---------------------------------------------------------------------------------------------


class PillarsGame(Game[PillarsState, Action]):
    """The Pillars of the Earth (Kosmos 2006 / Mayfair 2007), base game, 2 to 4 players."""

    name = "pillars"
    title = "The Pillars of the Earth"
    min_players = 2
    max_players = 4

    # -- set-up ---------------------------------------------------------------------------
    def initial_state(self, setup: Setup) -> PillarsState:
        """Round 1 before the first reveal; raises SetupError on a bad set-up."""
        self.validate_setup(setup)
        n = len(setup.players)
        seats = []
        for k in range(n):
            seat_no = (k - setup.start_player) % n  # gold 20, 21, 22, 23 from the start player
            colour = setup.players[k].colour
            seats.append(
                Seat(
                    gold=20 + seat_no,
                    vp=D.START_VP,
                    res=(0, 0, 0, 0),
                    owed=(0, 0, 0, 0),
                    craftsmen=tuple(c.id for c in D.start_cards(colour)),
                    workers=D.OWN_WORKERS,
                    gray=0,
                    gray_next=0,
                    cards=(),
                    wool=0,
                    privileges=(),
                    spent=(),
                    passed=False,
                    drawn=0,
                    walled=False,
                    walled_next=False,
                    protected=False,
                    taxfree=False,
                    yield_mod=0,
                    boost="",
                    bought=0,
                    sold=0,
                    uses=(),
                )
            )
        market = (D.MARKET_STOCK,) * 3
        supply = (
            D.CUBES[0] - D.MARKET_STOCK,
            D.CUBES[1] - D.MARKET_STOCK,
            D.CUBES[2] - D.MARKET_STOCK,
            D.CUBES[3] - 1,
        )
        state = PillarsState(
            setup=setup,
            round=1,
            step="privilege",
            turn=-1,
            queue=(),
            start=setup.start_player,
            seats=tuple(seats),
            supply=supply,
            market=market,
            court_metal=1,
            castle_gray=D.GRAY_WORKERS,
            round_craftsmen=tuple(c.id for c in D.ROUND_CRAFTSMEN[0]),
            shiring=(),
            pool=(),
            res_hidden=D.RESOURCE_CARD_IDS,
            priv_unseen=D.SHUFFLED_PRIVILEGES,
            kingsbridge=(),
            priv_out=(),
            events_unseen=tuple(D.EVENTS),
            event="",
            events_done=(),
            removed=(),
            bag=(D.BUILDERS_EACH,) * n,
            aside=(0,) * n,
            spaces=(-1,) * len(D.SPACES),
            parked=(),
            decided=0,
            drawn=-1,
            redraw_used=False,
            tax=0,
            market_live=(),
            market_slot=-1,
            over=False,
        )
        return state

    def setup_of(self, state: PillarsState) -> Setup:
        return state.setup

    # -- the contract ---------------------------------------------------------------------
    def current_player(self, state: PillarsState) -> int:
        if state.over:
            return TERMINAL
        if state.step in _CHANCE_STEPS:
            return CHANCE
        return state.turn

    def chance_outcomes(self, state: PillarsState) -> list[tuple[Action, float]]:
        step = state.step
        if step == "privilege":
            deck = self._privilege_deck(state)
            return [(Action("privilege", (c,)), 1 / len(deck)) for c in deck]
        if step == "craftsman":
            deck = state.round_craftsmen
            return [(Action("craftsman", (c,)), 1 / len(deck)) for c in deck]
        if step == "resource":
            deck = state.res_hidden
            return [(Action("resource", (c,)), 1 / len(deck)) for c in deck]
        if step in ("event", "peek"):
            deck = state.events_unseen
            return [(Action("event", (c,)), 1 / len(deck)) for c in deck]
        if step == "draw":
            total = sum(state.bag)
            return [
                (Action("draw", (state.setup.players[i].colour,)), k / total)
                for i, k in enumerate(state.bag)
                if k
            ]
        if step == "roll":
            return [(Action("roll", (v,)), D.TAX_DIE.count(v) / 6) for v in (2, 3, 4, 5)]
        return []

    def _privilege_deck(self, state: PillarsState) -> tuple[str, ...]:
        if state.round == D.ROUNDS:
            return tuple(c for c in D.LAST_ROUND_PRIVILEGES if c not in state.kingsbridge)
        return state.priv_unseen

    def legal_actions(self, state: PillarsState) -> list[Action]:
        if state.over or state.step in _CHANCE_STEPS:
            return []
        return getattr(self, "_legal_" + state.step.replace("-", "_"))(state)  # type: ignore[no-any-return]

    def apply(self, state: PillarsState, action: Action) -> PillarsState:
        """The next state; raises IllegalAction with the rule and the numbers."""
        if not isinstance(action, Action):
            raise IllegalAction(action, f"{action!r} is not an action of {self.title}")
        if state.over:
            raise IllegalAction(action, f"{action}: the game is over", "end")
        d = _Draft(state)
        if state.step in _CHANCE_STEPS:
            self.check_chance(state, action)
            getattr(self, "_chance_" + state.step)(d, action)
        else:
            handler = getattr(self, "_do_" + state.step.replace("-", "_"))
            handler(d, action)
        return d.freeze()

    def scores(self, state: PillarsState) -> dict[str, int]:
        return {p.name: s.vp for p, s in zip(state.setup.players, state.seats, strict=True)}

    def winners(self, state: PillarsState) -> list[str]:
        """Most VP, then most gold; still tied: a shared win (ruling P14)."""
        best = max((s.vp, s.gold) for s in state.seats)
        return [
            p.name
            for p, s in zip(state.setup.players, state.seats, strict=True)
            if (s.vp, s.gold) == best
        ]

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def period(self, state: PillarsState) -> int:
        """The round, 1 to 6."""
        return state.round

    # -- helpers for the kiosk and tests ---------------------------------------------------
    def cost(self, state: PillarsState) -> int:
        """What placing the drawn builder costs now."""
        return state.cost

    def best_conversion(self, state: PillarsState, seat: int | None = None) -> Conversion:
        """The cathedral conversion giving the most VP for ``seat`` (default: the one to act)."""
        i = state.turn if seat is None else seat
        s = state.seats[i]
        return best_conversion(
            [
                (D.CRAFTSMEN[c], _capacity(s, c) - _used(s, c))
                for c in s.craftsmen
                if not D.CRAFTSMEN[c].spec.auto
            ],
            s.res,
            s.gold,
            bool(_kinds(s) & D.MORTAR_KINDS),
        )

    def best_convert_action(self, state: PillarsState) -> Action:
        """The ``convert`` action of the best conversion (``done`` when nothing converts)."""
        conv = self.best_conversion(state)
        return convert_action(conv.uses) if conv.uses else DONE

    def summary(self, state: PillarsState) -> dict[str, Any]:
        """Round, step, whose decision, and every player's holdings, JSON-ready."""
        who = self.current_player(state)
        players = []
        for p, s in zip(state.setup.players, state.seats, strict=True):
            players.append(
                {
                    "name": p.name,
                    "colour": p.colour,
                    "vp": s.vp,
                    "gold": s.gold,
                    "resources": dict(zip(D.RESOURCES, s.res, strict=True)),
                    "craftsmen": list(s.craftsmen),
                    "privileges": list(s.privileges),
                    "workers": s.workers + s.gray,
                }
            )
        over = state.over
        return {
            "game": self.name,
            "round": state.round,
            "step": state.step,
            "to_act": "chance"
            if who == CHANCE
            else (None if who == TERMINAL else state.setup.players[who].name),
            "start_player": state.setup.players[state.start].name,
            "players": players,
            "over": over,
            "scores": self.scores(state),
            "winners": self.winners(state) if over else [],
        }

    def describe(self, state: PillarsState) -> str:
        """A few readable lines: the round and step, then one line per player."""
        info = self.summary(state)
        head = "Game over" if state.over else f"Round {state.round}: {STEP_HELP[state.step]}"
        lines = [head]
        for p in info["players"]:
            res = ", ".join(f"{k} {v}" for k, v in p["resources"].items() if v) or "no resources"
            crafts = ", ".join(D.card_name(c) for c in p["craftsmen"])
            lines.append(
                f"  {p['name']} ({p['colour']}): {p['vp']} VP, {p['gold']} gold, {res}; {crafts}"
            )
        if state.over:
            lines.append("Won by " + " and ".join(info["winners"]))
        return "\n".join(lines)

    # ==================================================================================
    # Chance
    def _chance_privilege(self, d: _Draft, a: Action) -> None:
        card = str(a.args[0])
        if d.round < D.ROUNDS:
            d.priv_unseen = _without(d.priv_unseen, card)
        d.kingsbridge = (*d.kingsbridge, card)
        if len(d.kingsbridge) == 2:
            d.step = "craftsman"

    def _chance_craftsman(self, d: _Draft, a: Action) -> None:
        card = str(a.args[0])
        d.round_craftsmen = _without(d.round_craftsmen, card)
        d.shiring = (*d.shiring, card)
        if len(d.shiring) == 2:
            d.pool = d.round_craftsmen
            d.round_craftsmen = ()
            d.step = "resource"

    def _chance_resource(self, d: _Draft, a: Action) -> None:
        card = str(a.args[0])
        d.res_hidden = _without(d.res_hidden, card)
        d.pool = (*d.pool, card)
        if len(d.res_hidden) == len(D.RESOURCE_CARDS) - D.RESOURCE_CARDS_REVEALED:
            if d.events_unseen and any("ellen" in s.privileges for s in d.seats):
                d.step = "peek"
            else:
                self._start_draft(d)

    def _chance_peek(self, d: _Draft, a: Action) -> None:
        self._reveal_event(d, str(a.args[0]))
        self._start_draft(d)

    def _chance_event(self, d: _Draft, a: Action) -> None:
        self._reveal_event(d, str(a.args[0]))
        self._after_event_reveal(d)

    def _reveal_event(self, d: _Draft, card: str) -> None:
        d.events_unseen = _without(d.events_unseen, card)
        d.event = card

    def _chance_draw(self, d: _Draft, a: Action) -> None:
        colour = str(a.args[0])
        i = next(k for k, p in enumerate(d.setup.players) if p.colour == colour)
        d.bag = _add(d.bag, i, -1)
        s = d.s(i)
        if s.walled and s.drawn >= 2:
            # Ruling P6: this colour's third builder is set aside; draw another.
            d.aside = _add(d.aside, i, 1)
            self._after_builder(d)
            return
        s.drawn += 1
        d.drawn = i
        d.turn = i
        d.step = "place"

    def _chance_roll(self, d: _Draft, a: Action) -> None:
        d.tax = int(a.args[0])
        court = D.AREA_SPACES["court"]
        first = d.spaces[court[0]]
        if first >= 0 and d.court_metal:
            d.court_metal = 0
            s = d.s(first)
            s.res = _add(s.res, D.METAL, 1)
        exempt = {d.spaces[k] for k in court}
        d.queue = tuple(
            i for i in d.order() if i not in exempt and "steuerfreiheit" in d.seats[i].privileges
        )
        self._next_in_queue(d, "taxfree", self._pay_tax)

    # ==================================================================================
    # Round start and phase I
    def _start_round(self, d: _Draft) -> None:
        d.step = "privilege"
        d.turn = -1
        d.kingsbridge = ()
        d.shiring = ()
        d.pool = ()
        d.round_craftsmen = tuple(c.id for c in D.ROUND_CRAFTSMEN[d.round - 1])

    def _start_draft(self, d: _Draft) -> None:
        d.step = "draft"
        d.turn = d.start
        if not d.pool:
            self._end_draft(d)

    def _legal_draft(self, state: PillarsState) -> list[Action]:
        s = state.seats[state.turn]
        out = []
        reserve = _reserve(s)
        for card in state.pool:
            rc = D.RESOURCE_CARDS.get(card)
            if rc is not None:
                if rc.workers <= reserve:
                    out.append(Action("take", (card,)))
            elif D.CRAFTSMEN[card].cost <= s.gold:
                out.append(Action("take", (card,)))
        out.append(PASS)
        return out

    def _do_draft(self, d: _Draft, a: Action) -> None:
        i = d.turn
        s = d.s(i)
        who = d.name(i)
        if a == PASS:
            s.passed = True
            self._next_draft_turn(d)
            return
        if a.verb != "take":
            raise IllegalAction(a, f"Phase I: {who} takes a card from the pool or passes", "draft")
        card = str(a.args[0])
        if card not in d.pool:
            raise IllegalAction(a, f"{D.card_name(card)} is not in the pool", "draft")
        rc = D.RESOURCE_CARDS.get(card)
        if rc is not None:
            if rc.workers > _reserve(s):
                raise IllegalAction(
                    a,
                    f"{who} cannot take {D.card_name(card)}: it needs {rc.workers} workers, "
                    f"{who} has {_reserve(s)}",
                    "workers",
                )
            s.cards = (*s.cards, card)
            d.pool = _without(d.pool, card)
            self._next_draft_turn(d)
            return
        cm = D.CRAFTSMEN[card]
        if cm.cost > s.gold:
            raise IllegalAction(
                a,
                f"{who} cannot take the {D.card_name(card)}: it costs {cm.cost} gold, {who} has "
                f"{s.gold}",
                "gold",
            )
        s.gold -= cm.cost
        s.craftsmen = (*s.craftsmen, card)
        d.pool = _without(d.pool, card)
        if len(s.craftsmen) > _limit(s):
            d.step = "draft-discard"
        else:
            self._next_draft_turn(d)

    def _next_draft_turn(self, d: _Draft) -> None:
        d.step = "draft"
        if d.pool:
            n = d.n
            for k in range(1, n + 1):
                i = (d.turn + k) % n
                if not d.s(i).passed:
                    d.turn = i
                    return
        self._end_draft(d)

    def _legal_discard(self, state: PillarsState) -> list[Action]:
        return [Action("discard", (c,)) for c in state.seats[state.turn].craftsmen]

    _legal_draft_discard = _legal_discard
    _legal_shiring_discard = _legal_discard

    def _discard(self, d: _Draft, a: Action) -> None:
        s = d.s(d.turn)
        if a.verb != "discard" or a.args[0] not in s.craftsmen:
            limit = _limit(s)
            raise IllegalAction(
                a,
                f"{d.name(d.turn)} has {len(s.craftsmen)} craftsmen and may keep {limit}: "
                f"discard one of {', '.join(s.craftsmen)}",
                "craftsman limit",
            )
        card = str(a.args[0])
        s.craftsmen = _without(s.craftsmen, card)
        d.removed = (*d.removed, card)

    def _do_draft_discard(self, d: _Draft, a: Action) -> None:
        self._discard(d, a)
        self._next_draft_turn(d)

    def _end_draft(self, d: _Draft) -> None:
        for card in d.pool:
            if card in D.CRAFTSMEN:
                d.removed = (*d.removed, card)  # untaken craftsmen leave the game
            else:
                d.res_hidden = (*d.res_hidden, card)  # untaken resource cards wait
        d.pool = ()
        for i in range(d.n):
            s = d.s(i)
            s.wool = _reserve(s)
        d.step = "draw"
        d.turn = -1
        if not sum(d.bag):
            self._after_builder(d)

    # ==================================================================================
    # Phase II: the master builders
    def _legal_place(self, state: PillarsState) -> list[Action]:
        s = state.seats[state.turn]
        cost = state.cost
        free = [k for k, who in enumerate(state.spaces) if who < 0]
        out = []
        if s.gold >= cost:
            out += [_PLACE[k] for k in free]
        if cost > 0:
            out.append(PASS)
            if "remigius" in s.privileges:
                out += [_REMIGIUS[k] for k in free]
        if not state.redraw_used:
            out.append(REDRAW)
        return out

    def _legal_parked(self, state: PillarsState) -> list[Action]:
        return [_PLACE[k] for k, who in enumerate(state.spaces) if who < 0]

    def _check_space(self, d: _Draft, a: Action) -> int:
        k = D.SPACE_INDEX[str(a.args[0])]
        if d.spaces[k] >= 0:
            raise IllegalAction(
                a,
                f"{D.space_name(D.SPACES[k].id)} is taken by {d.name(d.spaces[k])}'s builder; "
                "each space holds one master builder",
                "one builder per space",
            )
        return k

    def _do_place(self, d: _Draft, a: Action) -> None:
        i = d.turn
        who = d.name(i)
        s = d.s(i)
        cost = max(D.FIRST_COST - d.decided, 0)
        if a == REDRAW:
            if d.redraw_used:
                raise IllegalAction(a, "the start player has already re-drawn this round", "redraw")
            d.redraw_used = True
            d.bag = _add(d.bag, i, 1)
            s.drawn -= 1
            d.drawn = -1
            d.step = "draw"
            d.turn = -1
            return
        if a == PASS:
            if cost == 0:
                raise IllegalAction(
                    a, f"placement is free now, so {who}'s builder must be placed", "no pass"
                )
            d.parked = (*d.parked, i)
        elif a.verb in ("place", "remigius"):
            k = self._check_space(d, a)
            if a.verb == "remigius":
                if "remigius" not in s.privileges:
                    raise IllegalAction(a, f"{who} does not hold Remigius", "remigius")
                if cost == 0:
                    raise IllegalAction(a, "placement is free already; keep Remigius", "remigius")
                s.privileges = _without(s.privileges, "remigius")
                s.spent = (*s.spent, "remigius")
            elif cost > s.gold:
                raise IllegalAction(
                    a,
                    f"{who} cannot place a builder for {cost} gold: {who} has {s.gold}; "
                    f"{who} must pass",
                    "cost",
                )
            else:
                s.gold -= cost
            d.spaces = d.spaces[:k] + (i,) + d.spaces[k + 1 :]
        else:
            raise IllegalAction(
                a, f"Phase II: {who} places the drawn builder or passes", "placement"
            )
        d.decided += 1
        d.drawn = -1
        self._after_builder(d)

    def _after_builder(self, d: _Draft) -> None:
        if sum(d.bag):
            d.step = "draw"
            d.turn = -1
        elif d.parked:
            d.step = "parked"
            d.turn = d.parked[0]
        else:
            self._start_phase3(d)

    def _do_parked(self, d: _Draft, a: Action) -> None:
        if a.verb != "place":
            raise IllegalAction(
                a, f"{d.name(d.turn)}'s passed builder is placed now, free", "parked builders"
            )
        k = self._check_space(d, a)
        d.spaces = d.spaces[:k] + (d.turn,) + d.spaces[k + 1 :]
        d.parked = d.parked[1:]
        self._after_builder(d)

    # ==================================================================================
    # Phase III
    def _start_phase3(self, d: _Draft) -> None:
        d.turn = -1
        if d.event:
            self._after_event_reveal(d)
        elif d.events_unseen:
            d.step = "event"
        else:
            self._after_event(d)

    def _after_event_reveal(self, d: _Draft) -> None:
        arch = d.spaces[D.SPACE_INDEX["archbishop"]]
        if arch >= 0:
            d.step = "archbishop"
            d.turn = arch
        else:
            self._thomas(d)

    def _legal_archbishop(self, state: PillarsState) -> list[Action]:
        out = [_ARCH["protect"]]
        out += [_ARCH[r] for r, k in zip(D.RESOURCES, state.market, strict=False) if k]
        return out

    def _do_archbishop(self, d: _Draft, a: Action) -> None:
        if a.verb != "archbishop":
            raise IllegalAction(
                a, "Archbishop's Office: choose protection or a cube from the market", "P1"
            )
        s = d.s(d.turn)
        choice = str(a.args[0])
        if choice == "protect":
            s.protected = True
        else:
            r = _RES_INDEX[choice]
            if not d.market[r]:
                raise IllegalAction(a, f"the market has no {choice} left", "P1")
            d.market = _add(d.market, r, -1)
            s.res = _add(s.res, r, 1)
        self._thomas(d)

    def _thomas(self, d: _Draft) -> None:
        if d.event and not D.EVENTS[d.event]:
            d.queue = tuple(
                i for i in d.order() if "thomas" in d.seats[i].privileges and not d.s(i).protected
            )
        else:
            d.queue = ()
        self._next_in_queue(d, "thomas", self._resolve_event)

    def _next_in_queue(self, d: _Draft, step: str, then: Any) -> None:
        if d.queue:
            d.turn, d.queue = d.queue[0], d.queue[1:]
            d.step = step
        else:
            d.turn = -1
            then(d)

    def _legal_thomas(self, state: PillarsState) -> list[Action]:
        return [_PLAY["thomas"], _KEEP["thomas"]]

    def _legal_taxfree(self, state: PillarsState) -> list[Action]:
        return [_PLAY["steuerfreiheit"], _KEEP["steuerfreiheit"]]

    def _play_once(self, d: _Draft, a: Action, card: str) -> bool:
        if a.verb not in ("play", "keep") or a.args[0] != card:
            raise IllegalAction(a, f"{d.name(d.turn)} decides: play {card} or keep {card}", card)
        if a.verb == "keep":
            return False
        s = d.s(d.turn)
        s.privileges = _without(s.privileges, card)
        s.spent = (*s.spent, card)
        return True

    def _do_thomas(self, d: _Draft, a: Action) -> None:
        if self._play_once(d, a, "thomas"):
            d.s(d.turn).protected = True
        self._next_in_queue(d, "thomas", self._resolve_event)

    def _resolve_event(self, d: _Draft) -> None:
        ev = d.event
        affected = [i for i in d.order() if D.EVENTS.get(ev, True) or not d.s(i).protected]
        if ev == "koenig":
            for i in affected:
                _gold(d.s(i), 5)
        elif ev == "william":
            for i in affected:
                _pay_or_lose(d.s(i), 4)
        elif ev == "richardevent":
            for i in affected:
                _from_supply(d, d.s(i), D.METAL, 1)
        elif ev == "konflikt":
            for i in affected:
                _vp(d.s(i), -2)
        elif ev == "stadtmauer":
            if d.round < D.ROUNDS:
                for i in affected:
                    d.s(i).walled_next = True
        elif ev == "philip":
            for i in affected:
                s = d.s(i)
                _gold(s, min(s.wool, 5))
        elif ev == "kaltewinter":
            for i in affected:
                d.s(i).yield_mod = -1
        elif ev == "freiwilligen":
            for i in affected:
                d.s(i).yield_mod = 1
        elif ev == "teile":
            d.queue = tuple(i for i in affected if d.s(i).craftsmen)
            self._next_in_queue(d, "lose", self._after_event)
            return
        elif ev == "erzbischof":
            d.queue = tuple(
                i
                for i in affected
                if any(D.CRAFTSMEN[c].kind not in D.NO_BOOST_KINDS for c in d.s(i).craftsmen)
            )
            self._next_in_queue(d, "boost", self._after_event)
            return
        self._after_event(d)

    def _legal_lose(self, state: PillarsState) -> list[Action]:
        return [Action("lose", (c,)) for c in state.seats[state.turn].craftsmen]

    def _do_lose(self, d: _Draft, a: Action) -> None:
        s = d.s(d.turn)
        if a.verb != "lose" or a.args[0] not in s.craftsmen:
            raise IllegalAction(
                a,
                f"{d.name(d.turn)} gives up one own craftsman: {', '.join(s.craftsmen)}",
                "P11",
            )
        card = str(a.args[0])
        s.craftsmen = _without(s.craftsmen, card)
        d.removed = (*d.removed, card)
        self._next_in_queue(d, "lose", self._after_event)

    def _legal_boost(self, state: PillarsState) -> list[Action]:
        return [
            Action("boost", (c,))
            for c in state.seats[state.turn].craftsmen
            if D.CRAFTSMEN[c].kind not in D.NO_BOOST_KINDS
        ]

    def _do_boost(self, d: _Draft, a: Action) -> None:
        s = d.s(d.turn)
        ok = a.verb == "boost" and a.args[0] in s.craftsmen
        if not ok or D.CRAFTSMEN[str(a.args[0])].kind in D.NO_BOOST_KINDS:
            raise IllegalAction(
                a,
                f"{d.name(d.turn)} picks one own craftsman, not a Bellmaker or Organ Builder, "
                "for +1 capacity this round",
                "P12",
            )
        s.boost = str(a.args[0])
        self._next_in_queue(d, "boost", self._after_event)

    def _after_event(self, d: _Draft) -> None:
        """Steps 3 to 8: wool mill, Kingsbridge, Priory, production; then the tax roll."""
        order = d.order()
        # 3. Wool mill: 1 gold per worker there; the workers go home.
        for i in order:
            s = d.s(i)
            _gold(s, s.wool)
            s.wool = 0
        # 4. Kingsbridge: each builder takes the card on its space; the others are discarded.
        for slot, card in zip(D.AREA_SPACES["kingsbridge"], d.kingsbridge, strict=False):
            owner = d.spaces[slot]
            if owner < 0:
                d.priv_out = (*d.priv_out, card)
            else:
                self._take_privilege(d, owner, card)
        d.kingsbridge = ()
        # 5. Priory: 2 VP and 1 VP, +1 per builder with Prior Philip.
        for slot, vp in zip(D.AREA_SPACES["priory"], D.PRIORY_VP, strict=True):
            owner = d.spaces[slot]
            if owner >= 0:
                s = d.s(owner)
                _vp(s, vp + ("priorphilip" in s.privileges))
        # 6-8. Forest, quarry, gravel pit: cards yield from the general supply.
        for r in (D.WOOD, D.STONE, D.SAND):
            for i in order:
                s = d.s(i)
                if s.owed[r]:
                    owed = s.owed[r]
                    s.owed = _add(s.owed, r, -owed)
                    _from_supply(d, s, r, owed, owe=True)
                n = sum(
                    max(0, D.RESOURCE_CARDS[c].yield_ + s.yield_mod)
                    for c in s.cards
                    if D.RESOURCE_CARDS[c].resource == r
                )
                n += sum(1 for p in s.privileges if D.PRODUCTION_BONUS.get(p) == r)
                if n:
                    _from_supply(d, s, r, n, owe=True)
        for i in order:
            s = d.s(i)
            d.res_hidden = d.res_hidden + s.cards
            s.cards = ()
        d.step = "roll"
        d.turn = -1

    def _take_privilege(self, d: _Draft, i: int, card: str) -> None:
        s = d.s(i)
        kind = D.PRIVILEGES[card]
        if kind != D.IMMEDIATE:
            s.privileges = (*s.privileges, card)
            if card == "otto":
                s.workers += 1  # the black worker (ruling P8)
            return
        d.priv_out = (*d.priv_out, card)
        if card == "madonna":
            _vp(s, 3)
        elif card == "wollmesse":
            _gold(s, 8)
        elif card == "toledo":
            _from_supply(d, s, D.METAL, 2)
        elif card == "vollendung":
            _from_supply(d, s, D.STONE, 1)
            _from_supply(d, s, D.WOOD, 1)
        elif card == "feierlichkeiten":
            _from_supply(d, s, D.METAL, 1)

    # -- 9. King's Court ---------------------------------------------------------------
    def _do_taxfree(self, d: _Draft, a: Action) -> None:
        if self._play_once(d, a, "steuerfreiheit"):
            d.s(d.turn).taxfree = True
        self._next_in_queue(d, "taxfree", self._pay_tax)

    def _pay_tax(self, d: _Draft) -> None:
        """Everyone without a builder at the King's Court pays the roll (Francis: 2)."""
        exempt = {d.spaces[k] for k in D.AREA_SPACES["court"]}
        for i in d.order():
            s = d.s(i)
            if i in exempt or s.taxfree:
                continue
            _pay_or_lose(s, 2 if "francis" in s.privileges else d.tax)
        self._shiring(d)

    # -- 10. Shiring, 11. Shiring Castle -------------------------------------------------
    def _shiring(self, d: _Draft) -> None:
        over = []
        for slot, card in zip(D.AREA_SPACES["shiring"], d.shiring, strict=False):
            owner = d.spaces[slot]
            if owner < 0:
                d.removed = (*d.removed, card)
            else:
                s = d.s(owner)
                s.craftsmen = (*s.craftsmen, card)
                if len(s.craftsmen) > _limit(s) and owner not in over:
                    over.append(owner)
        d.shiring = ()
        d.queue = tuple(i for i in d.order() if i in over)
        self._next_in_queue(d, "shiring-discard", self._castle)

    def _do_shiring_discard(self, d: _Draft, a: Action) -> None:
        self._discard(d, a)
        s = d.s(d.turn)
        if len(s.craftsmen) > _limit(s):
            return  # two Shiring craftsmen over the limit: discard again
        self._next_in_queue(d, "shiring-discard", self._castle)

    def _castle(self, d: _Draft) -> None:
        owner = d.spaces[D.SPACE_INDEX["castle"]]
        if owner >= 0:
            take = min(2, d.castle_gray)
            d.castle_gray -= take
            d.s(owner).gray_next += take
        d.market_live = tuple(k for k in D.AREA_SPACES["market"] if d.spaces[k] >= 0)
        self._next_market(d, first=True)

    # -- 12. The market -------------------------------------------------------------------
    def _next_market(self, d: _Draft, first: bool = False) -> None:
        if d.market_live:
            later = [m for m in d.market_live if m > d.market_slot]
            k = d.market_live[0] if first or not later else later[0]
            d.market_slot = k
            d.step = "market"
            d.turn = d.spaces[k]
        else:
            d.market_slot = -1
            self._start_cathedral(d)

    def _legal_market(self, state: PillarsState) -> list[Action]:
        s = state.seats[state.turn]
        kinds = _kinds(s)
        out = [PASS]
        for r in (D.STONE, D.WOOD, D.SAND):
            if s.sold >> r & 1 or (r == D.WOOD and not kinds & D.WOODWORKER_KINDS):
                continue
            most = min(state.market[r], s.gold // D.MARKET_PRICE[r])
            out += [_BUY[r][k] for k in range(1, most + 1)]
        for r in (D.STONE, D.WOOD, D.SAND, D.METAL):
            if s.bought >> r & 1 or (r == D.STONE and not kinds & D.STONECUTTER_KINDS):
                continue
            out += [_SELL[r][k] for k in range(1, s.res[r] + 1)]
        return out

    def _do_market(self, d: _Draft, a: Action) -> None:
        i = d.turn
        who = d.name(i)
        s = d.s(i)
        if a == PASS:
            d.market_live = tuple(m for m in d.market_live if m != d.market_slot)
            self._next_market(d)
            return
        if a.verb not in ("buy", "sell"):
            raise IllegalAction(
                a, f"the market: {who} buys or sells one resource type, or passes", "market"
            )
        name, n = str(a.args[0]), int(a.args[1])
        r = _RES_INDEX[name]
        price = D.MARKET_PRICE[r]
        kinds = _kinds(s)
        if a.verb == "buy":
            if s.sold >> r & 1:
                raise IllegalAction(
                    a, f"{who} sold {name} this round and cannot buy it too", "buy and sell"
                )
            if r == D.WOOD and not kinds & D.WOODWORKER_KINDS:
                raise IllegalAction(a, f"{who} has no Woodworker and cannot buy wood", "P13")
            if n > d.market[r]:
                raise IllegalAction(a, f"the market has {d.market[r]} {name}, not {n}", "stock")
            if n * price > s.gold:
                raise IllegalAction(
                    a, f"{n} {name} cost {n * price} gold; {who} has {s.gold}", "gold"
                )
            s.gold -= n * price
            d.market = _add(d.market, r, -n)
            s.res = _add(s.res, r, n)
            s.bought |= 1 << r
        else:
            if s.bought >> r & 1:
                raise IllegalAction(
                    a, f"{who} bought {name} this round and cannot sell it too", "buy and sell"
                )
            if r == D.STONE and not kinds & D.STONECUTTER_KINDS:
                raise IllegalAction(a, f"{who} has no Stonecutter and cannot sell stone", "P13")
            if n > s.res[r]:
                raise IllegalAction(a, f"{who} has {s.res[r]} {name}, not {n}", "stock")
            s.res = _add(s.res, r, -n)
            d.supply = _add(d.supply, r, n)  # sold cubes go to the general supply
            _gold(s, n * price)
            s.sold |= 1 << r
        self._next_market(d)

    # -- 13. The cathedral ----------------------------------------------------------------
    def _start_cathedral(self, d: _Draft) -> None:
        d.market_live = ()
        d.queue = tuple(d.order())
        self._next_cathedral(d)

    def _next_cathedral(self, d: _Draft) -> None:
        if not d.queue:
            self._end_round(d)
            return
        d.turn, d.queue = d.queue[0], d.queue[1:]
        d.step = "cathedral"
        s = d.s(d.turn)
        # Tool Maker and Architect work by themselves, first: the Tool Maker needs metal at
        # the end of the round, and that metal may still be spent afterwards.
        for c in s.craftsmen:
            spec = D.CRAFTSMEN[c].spec
            if spec.auto and (not spec.needs_metal or s.res[D.METAL]):
                times = _capacity(s, c)
                _gold(s, spec.gold * times)
                _vp(s, spec.vp * times)
                s.uses = (*s.uses, (c, times))

    def _legal_cathedral(self, state: PillarsState) -> list[Action]:
        s = state.seats[state.turn]
        mortar = bool(_kinds(s) & D.MORTAR_KINDS)
        out = []
        for c in s.craftsmen:
            if self._can_use(s, c, mortar) is None:
                out.append(_CRAFT[c])
        out.append(DONE)
        return out

    def _can_use(self, s: Any, c: str, mortar: bool) -> str | None:
        """None if craftsman ``c`` can work once more now, else the reason it cannot."""
        card = D.CRAFTSMEN[c]
        spec = card.spec
        if spec.auto:
            return f"{c} works by itself"
        cap = _capacity(s, c)
        used = _used(s, c)
        if used >= cap:
            return f"{c} works at most {cap} times a round and has worked {used}"
        if spec.needs_mortar and not mortar:
            return f"{c} scores only for a player with a Mortar Mixer"
        need = spec.inputs
        for r in range(4):
            if need[r] > s.res[r]:
                return f"{c} needs {need[r]} {D.RESOURCES[r]}, there is {s.res[r]}"
        if need[4] > s.gold:
            return f"{c} needs {need[4]} gold, there is {s.gold}"
        return None

    def _use(self, d: _Draft, s: Any, c: str, a: Action) -> None:
        if c not in s.craftsmen:
            raise IllegalAction(a, f"{d.name(d.turn)} has no craftsman {c}", "cathedral")
        why = self._can_use(s, c, bool(_kinds(s) & D.MORTAR_KINDS))
        if why is not None:
            raise IllegalAction(a, f"{d.name(d.turn)} cannot use {c}: {why}", "cathedral")
        spec = D.CRAFTSMEN[c].spec
        need = spec.inputs
        s.res = tuple(h - k for h, k in zip(s.res, need[:4], strict=False))
        d.supply = tuple(h + k for h, k in zip(d.supply, need[:4], strict=False))  # type: ignore
        s.gold -= need[4]
        _gold(s, spec.gold)
        _vp(s, spec.vp)
        uses = dict(s.uses)
        uses[c] = uses.get(c, 0) + 1
        s.uses = tuple(uses.items())

    def _do_cathedral(self, d: _Draft, a: Action) -> None:
        s = d.s(d.turn)
        if a.verb == "craft":
            self._use(d, s, str(a.args[0]), a)
            return
        if a.verb == "convert":
            for c, times in self._convert_order(s, a):
                for _ in range(times):
                    self._use(d, s, c, a)
        elif a != DONE:
            raise IllegalAction(
                a,
                f"the cathedral: {d.name(d.turn)} uses craftsmen, converts, or is done",
                "cathedral",
            )
        self._finish_conversion(d)

    def _convert_order(self, s: Any, a: Action) -> list[tuple[str, int]]:
        """The uses of a ``convert`` in an order that wastes no gold: craftsmen that take no
        gold first; then the Goldsmith spends while it can and the Master Woodworker earns
        when the gold runs short, so the limit of 30 bites as late as possible."""
        plain: list[tuple[str, int]] = []
        smiths: list[str] = []
        earners: list[str] = []
        for c, times in zip(a.args[::2], a.args[1::2], strict=True):
            kind = D.CRAFTSMEN[str(c)].kind
            if kind == "goldsmith":
                smiths += [str(c)] * int(times)
            elif kind == "woodworker!":
                earners += [str(c)] * int(times)
            else:
                plain.append((str(c), int(times)))
        gold = s.gold
        for c in smiths:
            while gold < 3 and earners:
                plain.append((earners.pop(), 1))
                gold += 4
            plain.append((c, 1))
            gold -= 3
        plain += [(c, 1) for c in earners]
        return plain

    def _finish_conversion(self, d: _Draft) -> None:
        s = d.s(d.turn)
        excess = sum(s.res) - 5
        if excess > 0:
            ways = _return_ways(s.res, excess)
            if len(ways) > 1:
                d.step = "return"
                return
            self._return(d, s, ways[0])
        self._next_cathedral(d)

    def _legal_return(self, state: PillarsState) -> list[Action]:
        s = state.seats[state.turn]
        return [
            return_action({D.RESOURCES[r]: k for r, k in enumerate(w)})
            for w in _return_ways(s.res, sum(s.res) - 5)
        ]

    def _return(self, d: _Draft, s: Any, cubes: tuple[int, ...]) -> None:
        s.res = tuple(h - k for h, k in zip(s.res, cubes, strict=True))
        d.supply = tuple(h + k for h, k in zip(d.supply, cubes, strict=True))  # type: ignore

    def _do_return(self, d: _Draft, a: Action) -> None:
        s = d.s(d.turn)
        excess = sum(s.res) - 5
        cubes = [0, 0, 0, 0]
        if a.verb == "return":
            for name, k in zip(a.args[::2], a.args[1::2], strict=True):
                cubes[_RES_INDEX[str(name)]] = int(k)
        held = ", ".join(f"{k} {n}" for k, n in zip(s.res, D.RESOURCES, strict=True) if k)
        if (
            a.verb != "return"
            or sum(cubes) != excess
            or any(k > h for k, h in zip(cubes, s.res, strict=True))
        ):
            raise IllegalAction(
                a,
                f"{d.name(d.turn)} may keep at most 5 resources and holds {held}: give back "
                f"exactly {excess}",
                "keep 5",
            )
        self._return(d, s, tuple(cubes))
        self._next_cathedral(d)

    # -- 14. Next start player, and the next round ----------------------------------------
    def _end_round(self, d: _Draft) -> None:
        d.step = "over"
        d.turn = -1
        d.queue = ()
        owner = d.spaces[D.SPACE_INDEX["cathedral"]]
        d.start = owner if owner >= 0 else (d.start + 1) % d.n
        if d.event:
            d.events_done = (*d.events_done, d.event)
            d.event = ""
        if d.round == D.ROUNDS:
            d.over = True
            return
        d.round += 1
        n = d.n
        # Master builders back into the bag, those set aside too.
        d.bag = tuple(D.BUILDERS_EACH for _ in range(n))
        d.aside = (0,) * n
        d.spaces = (-1,) * len(D.SPACES)
        d.parked = ()
        d.decided = 0
        d.drawn = -1
        d.redraw_used = False
        d.tax = 0
        for i in range(n):
            s = d.s(i)
            d.castle_gray += s.gray
            s.gray, s.gray_next = s.gray_next, 0
            s.passed = False
            s.drawn = 0
            s.walled, s.walled_next = s.walled_next, False
            s.protected = False
            s.taxfree = False
            s.yield_mod = 0
            s.boost = ""
            s.bought = s.sold = 0
            s.uses = ()
        # Market back to 4 of each, the court's metal, from the general supply.
        market = list(d.market)
        supply = list(d.supply)
        for r in range(3):
            add = min(D.MARKET_STOCK - market[r], supply[r]) if market[r] < D.MARKET_STOCK else 0
            market[r] += add
            supply[r] -= add
        if not d.court_metal and supply[D.METAL]:
            d.court_metal = 1
            supply[D.METAL] -= 1
        d.market = tuple(market)  # type: ignore[assignment]
        d.supply = tuple(supply)  # type: ignore[assignment]
        self._start_round(d)

    # ==================================================================================
    def invariants(self, state: PillarsState) -> list[str]:
        """Conservation: cubes, workers, builders and every card in exactly one place."""
        bad = []
        for r, total in enumerate(D.CUBES):
            held = state.supply[r] + sum(s.res[r] for s in state.seats)
            held += state.market[r] if r < 3 else state.court_metal
            if held != total:
                bad.append(f"{D.RESOURCES[r]}: {held} cubes, expected {total}")
            if state.supply[r] < 0 or any(s.res[r] < 0 for s in state.seats):
                bad.append(f"{D.RESOURCES[r]}: a negative count")
        gray = state.castle_gray + sum(s.gray + s.gray_next for s in state.seats)
        if gray != D.GRAY_WORKERS:
            bad.append(f"gray workers: {gray}, expected {D.GRAY_WORKERS}")
        for i, s in enumerate(state.seats):
            name = state.setup.players[i].name
            own = D.OWN_WORKERS + ("otto" in s.privileges)
            if s.workers != own:
                bad.append(f"{name}: {s.workers} workers, expected {own}")
            if _reserve(s) < s.wool or _reserve(s) < 0:
                bad.append(f"{name}: more workers placed than owned")
            builders = (
                state.bag[i]
                + state.aside[i]
                + state.spaces.count(i)
                + state.parked.count(i)
                + (state.drawn == i)
            )
            if builders != D.BUILDERS_EACH:
                bad.append(f"{name}: {builders} master builders, expected 3")
            if s.gold < 0 or s.gold > D.GOLD_LIMIT or s.vp < 0:
                bad.append(f"{name}: gold {s.gold}, VP {s.vp} out of range")
            if len(s.craftsmen) > _limit(s) and state.step not in (
                "draft-discard",
                "shiring-discard",
            ):
                bad.append(f"{name}: {len(s.craftsmen)} craftsmen over the limit")
        # Craftsman cards.
        colours = [p.colour for p in state.setup.players]
        expected = sorted(
            [c.id for rnd in D.ROUND_CRAFTSMEN for c in rnd]
            + [c.id for col in colours for c in D.start_cards(col)]
        )
        future = [c.id for rnd in D.ROUND_CRAFTSMEN[state.round :] for c in rnd]
        if state.step in ("privilege",) and not state.shiring and not state.pool:
            pass
        places = (
            list(state.round_craftsmen)
            + future
            + list(state.shiring)
            + [c for c in state.pool if c in D.CRAFTSMEN]
            + [c for s in state.seats for c in s.craftsmen]
            + list(state.removed)
        )
        if sorted(places) != expected:
            bad.append("craftsman cards: some card is missing or in two places")
        # Privilege cards.
        privs = (
            list(state.priv_unseen)
            + [c for c in state.kingsbridge if c not in D.LAST_ROUND_PRIVILEGES]
            + [
                c
                for s in state.seats
                for c in s.privileges + s.spent
                if c not in D.LAST_ROUND_PRIVILEGES
            ]
            + [c for c in state.priv_out if c not in D.LAST_ROUND_PRIVILEGES]
        )
        if sorted(privs) != sorted(D.SHUFFLED_PRIVILEGES):
            bad.append("privilege cards: some card is missing or in two places")
        last = (
            [c for c in state.kingsbridge if c in D.LAST_ROUND_PRIVILEGES]
            + [c for c in state.priv_out if c in D.LAST_ROUND_PRIVILEGES]
            + [c for s in state.seats for c in s.privileges if c in D.LAST_ROUND_PRIVILEGES]
        )
        if len(set(last)) != len(last) or (last and state.round < D.ROUNDS):
            bad.append("last-round privilege cards: out before round 6 or in two places")
        events = (
            list(state.events_unseen)
            + list(state.events_done)
            + ([state.event] if state.event else [])
        )
        if sorted(events) != sorted(D.EVENTS):
            bad.append("event cards: some card is missing or in two places")
        res_cards = (
            list(state.res_hidden)
            + [c for c in state.pool if c in D.RESOURCE_CARDS]
            + [c for s in state.seats for c in s.cards]
        )
        if sorted(res_cards) != sorted(D.RESOURCE_CARD_IDS):
            bad.append("resource cards: some card is missing or in two places")
        return bad


def _return_ways(res: tuple[int, ...], excess: int) -> list[tuple[int, ...]]:
    """Every way to give back exactly ``excess`` cubes from ``res``."""
    return [w for w in product(*(range(min(h, excess) + 1) for h in res)) if sum(w) == excess]


_PLACE = [Action("place", (s.id,)) for s in D.SPACES]
_REMIGIUS = [Action("remigius", (s.id,)) for s in D.SPACES]
_ARCH = {k: Action("archbishop", (k,)) for k in ("protect", "stone", "wood", "sand")}
_PLAY = {k: Action("play", (k,)) for k in ("thomas", "steuerfreiheit")}
_KEEP = {k: Action("keep", (k,)) for k in ("thomas", "steuerfreiheit")}
_BUY = [[Action("buy", (D.RESOURCES[r], k)) for k in range(30)] for r in range(3)]
_SELL = [[Action("sell", (D.RESOURCES[r], k)) for k in range(40)] for r in range(4)]
_CRAFT = {c: Action("craft", (c,)) for c in D.CRAFTSMEN}
