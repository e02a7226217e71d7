"""What the journal hands out: a game as listed (:class:`GameInfo`) and a row of its log
(:class:`Entry`).  Plain data, imported by the journal and by the BG Stats export alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from companion.engine import Setup


@dataclass(frozen=True)
class GameInfo:
    """One game of the journal as the kiosk lists it: set-up, times, status, scores.

    ``scores`` are the latest (the final scores once finished), ``winners`` empty until the
    end, ``periods`` each finished round (Pillars) or turn (Builders) with everyone's scores
    at its end, in order, for the charts.  ``companions`` maps each seat the companion plays
    to its strength (empty when people sit at every seat)."""

    id: int
    game: str
    setup: Setup
    started: datetime
    updated: datetime
    ended: datetime | None
    status: str
    actions: int
    scores: dict[str, int]
    winners: list[str]
    periods: list[tuple[int, dict[str, int]]]
    seed: int | None = None
    companions: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """One row of a game's log: a play (``kind`` 'action') or an undo of the action ``text``."""

    seq: int
    kind: str
    text: str
    time: datetime


__all__ = ["Entry", "GameInfo"]
