"""The garbage collector kept out of the frames (``companion.kiosk.memory``): the main loop
settles what the start loaded, collects the oldest generation itself, in its idle time once
the frames ahead are drawn (or at once when far overdue), and gives CPython its collector
back when it ends."""

from __future__ import annotations

import gc
import os
import weakref
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.kiosk import memory  # noqa: E402

from .kiosk_helpers import make_app  # noqa: E402


@pytest.fixture
def taken() -> Iterator[None]:
    before = memory.take_over()
    try:
        yield
    finally:
        memory.give_back(before)


def _cycles(n: int) -> None:
    """``n`` objects in cycles, dropped (only the collector frees them)."""
    for _ in range(n):
        a: list[object] = []
        a.append(a)


def _middle_collections(n: int) -> None:
    for _ in range(n):
        gc.collect(1)


def test_the_older_generations_wait_for_the_idle_time(taken: None) -> None:
    gc.collect()
    _cycles(20_000)  # (enough for CPython's own thresholds, which no longer apply)
    assert gc.get_count()[1] >= memory.EVERY  # the middle generation is due...
    assert memory.collect(idle=False) is None  # ... but not in a frame's pass
    assert memory.collect(idle=True) == 1  # a pass that drew ahead: now
    assert gc.get_count()[1] == 0
    _middle_collections(memory.EVERY + 2)  # the oldest is due...
    assert memory.collect(idle=True) is None  # ... but frames are left to draw ahead
    assert memory.collect(idle=True, done=True) == 2  # all drawn: now
    assert gc.get_count()[2] == 0
    assert memory.collect(idle=True, done=True) is None  # (nothing due)


def test_a_table_with_no_idle_time_has_it_collected_in_the_end(taken: None) -> None:
    gc.collect()
    _middle_collections(memory.AT_MOST - 1)
    assert memory.collect(idle=False) is None
    _middle_collections(1)
    assert memory.collect(idle=False) == 2
    assert gc.get_count()[2] == 0


class _Node:
    def __init__(self) -> None:
        self.me = self


def test_settling_frees_the_cycles_and_takes_what_is_alive_out_of_sight(taken: None) -> None:
    dropped = weakref.ref(_Node())  # (a cycle, dropped at once)
    alive = _Node()
    memory.settle()
    assert dropped() is None
    assert gc.get_freeze_count() > 0
    assert all(o is not alive for o in gc.get_objects())  # (frozen: out of the collector's sight)


def test_the_main_loop_collects_in_its_idle_time_and_gives_the_collector_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    thresholds = gc.get_threshold()
    app = make_app(tmp_path)
    seen: list[tuple[bool, int, int]] = []
    collect = memory.collect

    def recording(idle: bool, done: bool = False) -> int | None:
        seen.append((done, gc.get_threshold()[2], gc.get_freeze_count()))
        return collect(idle, done)

    monkeypatch.setattr(memory, "collect", recording)
    pygame.event.clear()
    app.run(max_passes=12)
    assert len(seen) == 12
    assert all(threshold == memory._NEVER for _idle, threshold, _frozen in seen)
    assert seen[0][2] < seen[1][2]  # settled after the first pass (its frame shown)
    assert seen[-1][0]  # by the last pass, everything drawn ahead: the idle time is free
    assert app.ahead.done
    assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0
