"""The ledger: every change of a player's points and holdings, with its cause.

A game that keeps a ledger appends one :class:`Entry` per change inside ``apply`` (a Priory's
+2 VP and a Conflict's -2 VP are two entries, never a net 0) and keeps the entries in its state
as an append-only tuple, so the ledger is a function of the record: replaying the same actions
gives the same entries.  ``game.ledger(state)`` returns them; ``game.holdings(state)`` says
what they must add up to (each player's VP, gold or coins, resources, workers).  A preview of an
action's effects is ``game.ledger(after)[len(game.ledger(before)):]``.

``cause`` is a stable tag listed per game in ``docs/pillars.md`` and ``docs/builders.md``, and
``detail`` holds named values (``card``, ``space``...) so that a screen can word an entry in any
language, as it does a refusal's rule tag and fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

Detail = tuple[tuple[str, int | str], ...]


class Entry(NamedTuple):
    """One change: in ``period`` (the round or turn, ``Game.period``), seat ``player``'s
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


class Notes:
    """The entries one ``apply`` adds, in order; an entry with the same period, player, what,
    cause and detail as an earlier one of the same ``apply`` is merged into it (three uses of
    one craftsman are one entry)."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: list[Entry] = []

    def add(
        self, period: int, player: int, what: str, amount: int, cause: str, detail: Detail = ()
    ) -> None:
        """Add a change (nothing for 0 unless ``detail`` has ``capped``: what a limit took)."""
        if not amount and not _capped(detail):
            return
        entries = self.entries
        for k, e in enumerate(entries):
            if (
                e.player == player
                and e.what == what
                and e.cause == cause
                and e.detail == detail
                and e.period == period
            ):
                entries[k] = Entry(period, player, what, e.amount + amount, cause, detail)
                return
        entries.append(Entry(period, player, what, amount, cause, detail))

    def extend(self, ledger: tuple[Entry, ...]) -> tuple[Entry, ...]:
        """``ledger`` with this ``apply``'s entries appended (sums of 0 after merging dropped,
        unless ``capped``)."""
        new = [e for e in self.entries if e.amount or _capped(e.detail)]
        return ledger + tuple(new) if new else ledger
