"""The private mutable draft used inside ``apply``, and the small gains and losses every step
uses (gold limit P2, VP floor P3, unpaid gold P5, the supply and owed cubes P16)."""

from __future__ import annotations

from typing import Any

from companion.engine.core import Setup
from companion.engine.draft import Draft, check_draftable, thaw

from . import data as D
from .actions import Action
from .refusals import refuse
from .state import PillarsState, Seat

check_draftable(PillarsState)
check_draftable(Seat)


class SeatDraft(Draft):
    """One seat, mutable (thawed on first use by :meth:`PillarsDraft.s`)."""

    __slots__ = ()
    gold: int
    vp: int
    res: tuple[int, ...]
    owed: tuple[int, ...]
    craftsmen: tuple[str, ...]
    workers: int
    gray: int
    gray_next: int
    cards: tuple[str, ...]
    wool: int
    privileges: tuple[str, ...]
    spent: tuple[str, ...]
    passed: bool
    drawn: int
    walled: bool
    walled_next: bool
    protected: bool
    taxfree: bool
    yield_mod: int
    boost: str
    bought: int
    sold: int
    uses: tuple[tuple[str, int], ...]


class PillarsDraft(Draft):
    """The whole table, mutable; seats are thawed only when a step touches them."""

    __slots__ = ("_mut",)
    setup: Setup
    round: int
    step: str
    turn: int
    queue: tuple[int, ...]
    start: int
    seats: tuple[Seat, ...]
    supply: tuple[int, ...]
    market: tuple[int, ...]
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
    _mut: list[SeatDraft | None]

    def __init__(self, state: PillarsState) -> None:
        super().__init__(state)
        self._mut = [None] * len(state.seats)

    def s(self, i: int) -> SeatDraft:
        """The mutable seat ``i`` (thawed on first use)."""
        m = self._mut[i]
        if m is None:
            m = self._mut[i] = thaw(self.seats[i], SeatDraft)
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
        """The next state (a draft is frozen once, at the end of ``apply``)."""
        mut = self._mut
        if mut.count(None) != len(mut):
            seats = self.seats
            self.seats = tuple(
                [seats[i] if m is None else m.freeze_as(Seat) for i, m in enumerate(mut)]
            )
        return self.freeze_as(PillarsState)


def add(t: tuple[int, ...], i: int, n: int) -> Any:
    return t[:i] + (t[i] + n,) + t[i + 1 :]


def without(t: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = t.index(item)
    return t[:i] + t[i + 1 :]


# -- gains and losses ---------------------------------------------------------------------------


def gain_gold(s: SeatDraft, n: int) -> None:
    """Gain gold up to the limit of 30 (ruling P2)."""
    s.gold = min(D.GOLD_LIMIT, s.gold + n)


def gain_vp(s: SeatDraft, n: int) -> None:
    """Gain (or lose) VP; never below 0 (ruling P3)."""
    s.vp = max(0, s.vp + n)


def pay_or_lose(s: SeatDraft, amount: int) -> None:
    """Pay gold; what cannot be paid costs 1 VP per 2 gold, rounded down (ruling P5)."""
    short = max(0, amount - s.gold)
    s.gold = max(0, s.gold - amount)
    gain_vp(s, -(short // 2))


def from_supply(d: PillarsDraft, s: SeatDraft, r: int, n: int, owe: bool = False) -> None:
    """Cubes from the general supply.  At production (``owe``) the whole yield is the player's
    at once and what the supply lacks is owed (ruling P16); other gains give what it has."""
    got = min(n, d.supply[r])
    if got:
        d.supply = add(d.supply, r, -got)
    if owe and n > got:
        s.owed = add(s.owed, r, n - got)
        got = n
    if got:
        s.res = add(s.res, r, got)


def spend(d: PillarsDraft, s: SeatDraft, cubes: tuple[int, ...]) -> None:
    """Cubes (stone, wood, sand, metal) back to the general supply: owed ones first (they
    were never handed over, so the debt is cancelled), then the rest, which the supply hands
    on at once to anyone still owed that resource (ruling P16)."""
    res = list(s.res)
    supply = list(d.supply)
    owed = list(s.owed)
    back = False
    for r, k in enumerate(cubes):
        if not k:
            continue
        res[r] -= k
        cancel = min(k, owed[r])
        owed[r] -= cancel
        if k > cancel:
            supply[r] += k - cancel
            back = True
    s.res = tuple(res)
    s.owed = tuple(owed)
    d.supply = tuple(supply)
    if back:
        settle(d)


def settle(d: PillarsDraft) -> None:
    """Hand over owed cubes while the supply has them, in turn order from the start player."""
    for i in d.order():
        owed = d.seats[i].owed if d._mut[i] is None else d.s(i).owed
        if not any(owed):
            continue
        s = d.s(i)
        for r in range(4):
            give = min(s.owed[r], d.supply[r])
            if give:
                s.owed = add(s.owed, r, -give)
                d.supply = add(d.supply, r, -give)


def reserve(s: Any) -> int:
    """Workers not on a resource card (own, gray and black)."""
    return int(s.workers + s.gray - sum(D.RESOURCE_CARDS[c].workers for c in s.cards))


def used(s: Any, craftsman: str) -> int:
    for c, n in s.uses:
        if c == craftsman:
            return int(n)
    return 0


def limit(s: Any) -> int:
    return D.CRAFTSMAN_LIMIT + ("jack" in s.privileges)


def kinds(s: Any) -> set[str]:
    return {D.CRAFTSMEN[c].kind for c in s.craftsmen}


def capacity(seat: Any, card: str) -> int:
    c = D.CRAFTSMEN[card]
    base = 1 if c.spec.auto else c.capacity
    return base + int(seat.boost == card)


def discard(d: PillarsDraft, a: Action, rule: str) -> None:
    """Discard one own craftsman over the limit (``rule``: phase1.limit or shiring.limit)."""
    s = d.s(d.turn)
    if a.args[0] not in s.craftsmen:
        lim = limit(s)
        raise refuse(
            a,
            rule,
            f"{d.name(d.turn)} has {len(s.craftsmen)} craftsmen and may keep {lim}: "
            f"discard one of {', '.join(s.craftsmen)}",
            player=d.turn,
            have=len(s.craftsmen),
            limit=lim,
        )
    card = str(a.args[0])
    s.craftsmen = without(s.craftsmen, card)
    d.removed = (*d.removed, card)
