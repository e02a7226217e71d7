"""The mutable draft every step's handler changes, and the small gains and losses every step
uses (gold limit P2, VP floor P3, unpaid gold P5, the supply and owed cubes P16).

The rules' ``apply`` thaws a state into a :class:`PillarsDraft` for one action (seats thawed on
first use) and freezes it again; the simulation path (``sim.py``) keeps one subclass of it for
a whole game with every seat thawed.  Handlers read a seat in ``seats`` (as the step has left
it so far) and change it through :meth:`PillarsDraft.s`, which thaws it on first use."""

from __future__ import annotations

from typing import Any, TypeAlias, TypeVar

from companion.engine.core import COLOURS, Setup
from companion.engine.draft import Draft, check_draftable, thaw
from companion.engine.ledger import Ledger, Notes

from . import data as D
from .actions import Action
from .refusals import refuse
from .state import PillarsState, Seat

T = TypeVar("T")

check_draftable(PillarsState)
check_draftable(Seat)
NO_CUBES = (0, 0, 0, 0)
_ORDERS = {
    n: tuple(tuple((start + k) % n for k in range(n)) for start in range(n))
    for n in range(1, len(COLOURS) + 1)
}
"""``_ORDERS[n][start]``: the ``n`` seats in turn order from ``start``."""


class SeatDraft(Draft):
    """One seat, mutable (thawed on first use by :meth:`PillarsDraft.s`); ``_i`` is its seat
    and ``notes`` the table's ledger notes for this ``apply`` (not the draft itself: no
    reference cycle, so a draft is freed as soon as ``apply`` returns), None where no history
    is kept (the simulation path: a step writes its entries only ``if s.notes is not None``)."""

    __slots__ = ("_i", "notes")
    _i: int
    notes: Notes | None
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
    """The whole table, mutable.  ``seats`` holds each seat as the step has left it so far:
    the state's frozen seat until a step changes it through :meth:`s`, which thaws it."""

    __slots__ = ("_notes",)
    setup: Setup
    round: int
    step: str
    turn: int
    queue: tuple[int, ...]
    start: int
    seats: list[Seat | SeatDraft]
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
    ledger: Ledger
    _notes: Notes  # this apply's ledger entries; ``period`` follows ``round``

    def __init__(self, state: PillarsState) -> None:
        super().__init__(state)
        self.seats = list(state.seats)
        self._notes = Notes(state.round)

    def s(self, i: int) -> SeatDraft:
        """The mutable seat ``i`` (thawed on first use)."""
        m = self.seats[i]
        if m.__class__ is SeatDraft:
            return m  # thawed already
        t: SeatDraft = thaw(m, SeatDraft)
        t._i = i
        t.notes = self._notes
        self.seats[i] = t
        return t

    @property
    def n(self) -> int:
        return len(self.seats)

    def order(self) -> tuple[int, ...]:
        """Seats in turn order from the start player."""
        return _ORDERS[len(self.seats)][self.start]

    def next_round(self) -> None:
        """The round counter moves on (the ledger's entries from now on are the next round's)."""
        self.round += 1
        self._notes.period = self.round

    def freeze(self) -> PillarsState:
        """The next state (a draft is frozen once, at the end of ``apply``)."""
        self.seats = tuple(  # type: ignore[assignment]  # as the state holds them
            [m.freeze_as(Seat) if isinstance(m, SeatDraft) else m for m in self.seats]
        )
        if self._notes.raw:
            self.ledger = self._notes.extend(self.ledger)
        return self.freeze_as(PillarsState)


Table: TypeAlias = PillarsState | PillarsDraft
"""What the legal actions and chance outcomes read: the rules' state or a draft (the simulation
path's, whose seats are all thawed, or one inside ``apply``)."""


def add(t: tuple[int, ...], i: int, n: int) -> Any:
    """``t`` with ``n`` added to its ``i``-th count."""
    counts = list(t)
    counts[i] += n
    return tuple(counts)


def without(t: tuple[T, ...], item: T) -> tuple[T, ...]:
    """``t`` without the first ``item``."""
    items = list(t)
    items.remove(item)
    return tuple(items)


def put(t: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """``t`` with ``value`` as its ``i``-th item."""
    items = list(t)
    items[i] = value
    return tuple(items)


# -- gains and losses, each written to the ledger with its cause ------------------------------


def note(s: SeatDraft, what: str, amount: int, cause: str, **detail: int | str) -> None:
    """A ledger entry for seat ``s`` this round (see ``docs/pillars.md``, "The ledger")."""
    _note(s, what, amount, cause, detail)


def _note(s: SeatDraft, what: str, amount: int, cause: str, detail: dict[str, int | str]) -> None:
    """The entry, where the seat keeps notes (the hottest steps ask ``s.notes`` first)."""
    notes = s.notes
    if notes is not None:
        notes.add(notes.period, s._i, what, amount, cause, tuple(detail.items()) if detail else ())


def gain_gold(s: SeatDraft, n: int, cause: str, **detail: int | str) -> None:
    """Gain gold up to the limit of 30 (ruling P2); ``capped`` says what the limit took."""
    got = min(D.GOLD_LIMIT, s.gold + n) - s.gold
    s.gold += got
    if s.notes is not None:
        if got != n:
            detail["capped"] = n - got
        _note(s, "gold", got, cause, detail)


def pay_gold(s: SeatDraft, n: int, cause: str, **detail: int | str) -> None:
    """Pay ``n`` gold the seat has (a cost checked beforehand)."""
    s.gold -= n
    if s.notes is not None:
        _note(s, "gold", -n, cause, detail)


def gain_vp(s: SeatDraft, n: int, cause: str, **detail: int | str) -> None:
    """Gain (or lose) VP; never below 0 (ruling P3): ``capped`` says what the floor kept."""
    got = max(0, s.vp + n) - s.vp
    s.vp += got
    if s.notes is not None:
        if got != n:
            detail["capped"] = n - got
        _note(s, "vp", got, cause, detail)


def pay_or_lose(s: SeatDraft, amount: int, cause: str, **detail: int | str) -> None:
    """Pay gold; what cannot be paid costs 1 VP per 2 gold, rounded down (ruling P5): the VP
    entry has ``short``, the gold not paid."""
    paid = min(amount, s.gold)
    if paid:
        pay_gold(s, paid, cause, **detail)
    short = amount - paid
    if short:
        gain_vp(s, -(short // 2), cause, short=short, **detail)


def gain_cubes(s: SeatDraft, r: int, n: int, cause: str, **detail: int | str) -> None:
    """Cubes from the market or the court (not the general supply: its count is the caller's)."""
    s.res = add(s.res, r, n)
    if s.notes is not None:
        _note(s, D.RESOURCES[r], n, cause, detail)


def from_supply(
    d: PillarsDraft,
    s: SeatDraft,
    r: int,
    n: int,
    cause: str,
    owe: bool = False,
    **detail: int | str,
) -> None:
    """Cubes from the general supply.  At production (``owe``) the whole yield is the player's
    at once and what the supply lacks is owed (ruling P16: ``owed`` in the entry); other gains
    give what it has (``capped``: what it lacked)."""
    got = min(n, d.supply[r])
    if got:
        d.supply = add(d.supply, r, -got)
    if n > got:
        if owe:
            s.owed = add(s.owed, r, n - got)
            detail["owed"] = n - got
            got = n
        else:
            detail["capped"] = n - got
    if got:
        s.res = add(s.res, r, got)
    if s.notes is not None:
        _note(s, D.RESOURCES[r], got, cause, detail)


def spend(d: PillarsDraft, s: SeatDraft, cubes: Any, cause: str, **detail: int | str) -> None:
    """Cubes (stone, wood, sand, metal: the first four of ``cubes``) back to the general
    supply: owed ones first (they were never handed over, so the debt is cancelled), then the
    rest, which the supply hands on at once to anyone still owed that resource (ruling P16)."""
    back = False
    for r in range(4):
        k = cubes[r]
        if k:
            if s.notes is not None:
                _note(s, D.RESOURCES[r], -k, cause, detail)
            s.res = add(s.res, r, -k)
            owed = s.owed[r]
            if owed:
                cancel = k if k < owed else owed
                s.owed = add(s.owed, r, -cancel)
                k -= cancel
            if k:
                # cubes are owed only while the supply has none of them (invariants.py)
                back = back or not d.supply[r]
                d.supply = add(d.supply, r, k)
    if back:
        settle(d)


def settle(d: PillarsDraft) -> None:
    """Hand over owed cubes while the supply has them, in turn order from the start player."""
    for i in d.order():
        if d.seats[i].owed == NO_CUBES:
            continue
        s = d.s(i)
        for r in range(4):
            give = min(s.owed[r], d.supply[r])
            if give:
                s.owed = add(s.owed, r, -give)
                d.supply = add(d.supply, r, -give)


CARD_WORKERS = {c: k.workers for c, k in D.RESOURCE_CARDS.items()}
"""The workers each resource card takes."""


def reserve(s: Seat | SeatDraft) -> int:
    """Workers not on a resource card (own, gray and black)."""
    free = s.workers + s.gray
    for c in s.cards:
        free -= CARD_WORKERS[c]
    return free


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


def check_discard(state: PillarsState, a: Action, rule: str) -> None:
    """Refuse discarding a craftsman the player to act does not have (``rule``: phase1.limit
    or shiring.limit)."""
    s = state.seats[state.turn]
    if a.args[0] not in s.craftsmen:
        lim = limit(s)
        raise refuse(
            a,
            rule,
            f"{state.setup.players[state.turn].name} has {len(s.craftsmen)} craftsmen and may "
            f"keep {lim}: discard one of {', '.join(s.craftsmen)}",
            player=state.turn,
            have=len(s.craftsmen),
            limit=lim,
        )


def discard(d: PillarsDraft, a: Action) -> None:
    """Discard one own craftsman over the limit: it leaves the game."""
    s = d.s(d.turn)
    card = str(a.args[0])
    s.craftsmen = without(s.craftsmen, card)
    d.removed = (*d.removed, card)
