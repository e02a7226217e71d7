"""The ledger: every change of a player's points and holdings, with its cause.

A game that keeps a ledger appends one :class:`Entry` per change inside ``apply`` (a Priory's
+2 VP and a Conflict's -2 VP are two entries, never a net 0) and keeps the entries in its state
as an append-only :class:`Ledger`, so the ledger is a function of the record: replaying the
same actions gives the same entries.  ``game.ledger(state)`` returns them;
``game.holdings(state)`` says what they must add up to (each player's VP, gold or coins,
resources, workers).  A preview of an action's effects is
``game.ledger(after)[len(game.ledger(before)):]``.

``cause`` is a stable tag listed per game in ``docs/pillars.md`` and ``docs/builders.md``, and
``detail`` holds named values (``card``, ``space``...) so that a screen can word an entry in any
language, as it does a refusal's rule tag and fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

Detail = tuple[tuple[str, int | str], ...]

POINTS = "vp"
"""An entry's ``what`` for points (victory points): what a summary adds up by cause."""


class Entry(NamedTuple):
    """One change: in ``period`` (the round or turn, ``Game.period_of``'s number), seat ``player``'s
    ``what`` ("vp", "gold", "coins", a resource name, "workers") changed by ``amount`` because
    of ``cause`` (a stable tag), with named ``detail`` values."""

    period: int
    player: int
    what: str
    amount: int
    cause: str
    detail: Detail = ()

    def get(self, key: str, default: Any = None) -> Any:
        """The detail value named ``key`` (``default`` when the entry has none)."""
        for k, v in self.detail:
            if k == key:
                return v
        return default

    def to_json(self) -> dict[str, Any]:
        """The entry as a JSON object: ``period``, ``player``, ``what``, ``amount``, ``cause``,
        ``detail`` (an object, empty when there is none)."""
        return {
            "period": self.period,
            "player": self.player,
            "what": self.what,
            "amount": self.amount,
            "cause": self.cause,
            "detail": dict(self.detail),
        }


_TAIL = 64


class Ledger(NamedTuple):
    """The entries of a game so far, immutable, in two tuples so that appending to it inside
    ``apply`` costs little however long the game: new entries go to the short ``tail``, which
    joins the ``head`` once it holds 64.  :meth:`entries` is the whole ledger as one tuple."""

    head: tuple[Entry, ...] = ()
    tail: tuple[Entry, ...] = ()

    def entries(self) -> tuple[Entry, ...]:
        """Every entry, oldest first."""
        return self.head + self.tail if self.tail else self.head

    def append(self, new: tuple[Entry, ...]) -> Ledger:
        """The ledger with ``new`` entries after the others."""
        tail = self.tail + new
        if len(tail) >= _TAIL:
            return _entry(Ledger, (self.head + tail, ()))
        return _entry(Ledger, (self.head, tail))


def totals(entries: Iterable[Entry]) -> dict[tuple[int, str], int]:
    """The sum of the entries' amounts by (player, what)."""
    out: dict[tuple[int, str], int] = {}
    for e in entries:
        key = (e.player, e.what)
        out[key] = out.get(key, 0) + e.amount
    return out


def mismatches(
    entries: Iterable[Entry], holdings: Mapping[tuple[int, str], int]
) -> list[str]:
    """Where the entries do not add up to ``holdings``: one line per (player, what) whose sum
    differs (a missing key counts as 0); empty when every total holds."""
    sums = totals(entries)
    out = []
    for key in sorted(set(sums) | set(holdings)):
        got, want = sums.get(key, 0), holdings.get(key, 0)
        if got != want:
            out.append(f"seat {key[0]} {key[1]}: the ledger adds up to {got}, the state has {want}")
    return out


def reconcile(
    entries: tuple[Entry, ...],
    holdings: Mapping[tuple[int, str], int],
    period: int,
    cause: str = "position",
) -> tuple[Entry, ...]:
    """``entries`` followed by one ``cause`` entry per (player, what) whose sum differs from
    ``holdings``, so that the result adds up exactly (a position built by hand for a test or a
    tutorial starts its ledger this way)."""
    sums = totals(entries)
    extra = []
    for key in sorted(set(sums) | set(holdings)):
        diff = holdings.get(key, 0) - sums.get(key, 0)
        if diff:
            extra.append(Entry(period, key[0], key[1], diff, cause))
    return entries + tuple(extra)


def _capped(detail: Detail) -> bool:
    return any(k == "capped" for k, _ in detail)


_entry = tuple.__new__  # a NamedTuple built without its Python-level __new__ (apply is hot)


Raw = tuple[int, int, str, str, Detail, int]
"""A change as noted inside ``apply``: (period, player, what, cause, detail, amount)."""


def merge(raw: list[Raw]) -> tuple[Entry, ...]:
    """The entries of the changes ``raw`` noted by one ``apply``: changes with the same period,
    player, what, cause and detail merged into the first (three uses of one craftsman are one
    entry), sums of 0 left out unless the detail has ``capped`` (what a limit took)."""
    if len(raw) == 1:
        period, player, what, cause, detail, amount = raw[0]
        if not amount and not _capped(detail):
            return ()
        return (_entry(Entry, (period, player, what, amount, cause, detail)),)
    sums: dict[tuple[int, int, str, str, Detail], int] = {}
    for period, player, what, cause, detail, amount in raw:
        key = (period, player, what, cause, detail)
        sums[key] = sums.get(key, 0) + amount
    return tuple(
        [
            _entry(Entry, (k[0], k[1], k[2], n, k[3], k[4]))
            for k, n in sums.items()
            if n or _capped(k[4])
        ]
    )


class Notes:
    """The entries one ``apply`` adds, in order; an entry with the same period, player, what,
    cause and detail as an earlier one of the same ``apply`` is merged into it (three uses of
    one craftsman are one entry), and a change of 0 is left out unless its detail has
    ``capped`` (what a limit took).  ``period`` is for the caller: the period its next
    entries belong to."""

    __slots__ = ("raw", "period")

    def __init__(self, period: int = 0) -> None:
        self.raw: list[Raw] = []
        self.period = period

    def add(
        self, period: int, player: int, what: str, amount: int, cause: str, detail: Detail = ()
    ) -> None:
        """Note a change (merged and checked for 0 when the entries are made)."""
        self.raw.append((period, player, what, cause, detail, amount))

    def entries(self) -> tuple[Entry, ...]:
        """This ``apply``'s entries, merged, in the order first noted."""
        return merge(self.raw)

    def extend(self, ledger: Ledger) -> Ledger:
        """``ledger`` with this ``apply``'s entries appended."""
        new = self.entries()
        return ledger.append(new) if new else ledger


class Cause(NamedTuple):
    """A cause tag's documentation: the ``whats`` it changes, the ``fields`` always in its
    entries' detail, the ``optional`` ones present only when they apply, and its meaning."""

    whats: tuple[str, ...]
    fields: tuple[str, ...]
    optional: tuple[str, ...]
    meaning: str


def docs_table(causes: Mapping[str, Cause]) -> str:
    """A game's cause tags as the Markdown table of its docs page (optional fields with ?)."""
    lines = ["| cause | what | detail | meaning |", "|---|---|---|---|"]
    for tag, c in causes.items():
        whats = ", ".join(f"`{w}`" for w in c.whats)
        names = [f"`{f}`" for f in c.fields] + [f"`{f}`?" for f in c.optional]
        lines.append(f"| `{tag}` | {whats} | {', '.join(names) or 'none'} | {c.meaning} |")
    return "\n".join(lines)
