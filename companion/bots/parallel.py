"""Independent pieces of work on several cores, with the same results as one after another.

The strong search runs several independent trees (root parallelism, :mod:`.search`); each is a
pure function of its index (its generator is seeded before any work starts), so where it runs
changes nothing.  :func:`run` runs ``work(0)``, ``work(1)``, … ``work(count - 1)`` in up to
``workers`` processes: this one and children made with ``os.fork`` (no pickling of the work,
no start-up: a child is a copy of this process, rules and bots already imported), each child
sending its results back through a pipe.  The results come back in index order, so whatever
the number of cores the caller sums them in the same order and gets the same floats.

When it forks.  Only where forking is safe and possible: a POSIX system, more than one piece
of work, and a process with **one thread** (a fork copies only the thread that forks; a
threaded process, such as the kiosk itself with its display, could deadlock its child).  The
kiosk's worker process (a child of the fork server, one thread) qualifies; the kiosk's
``thread`` mode and a test runner with threads run everything here, with the same results.
A child that fails (it cannot fork, it dies) has its work done here again: the results are the
same, only slower.

Orphans.  When the kiosk cancels a decision it stops the worker process at once (SIGTERM);
its children notice that their parent is gone (:func:`abandoned`, which a long piece of work
calls every few iterations) and exit.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

_PARENT: int | None = None
"""In a child: the pid of the process that forked it (None in a process that is no child)."""


@dataclass
class Run:
    """How the last :func:`run` went (for benchmarks): the processes it used, each piece's CPU
    seconds and the CPU seconds of each process (this one first)."""

    processes: int = 1
    piece_cpu: list[float] = field(default_factory=list)
    process_cpu: list[float] = field(default_factory=list)


    def critical(self, cores: int) -> float:
        """The CPU seconds of the busiest process had the pieces run on ``cores`` processes
        (piece ``i`` on process ``i % cores``, as :func:`run` deals them)."""
        loads = [0.0] * max(1, min(cores, len(self.piece_cpu) or 1))
        for i, t in enumerate(self.piece_cpu):
            loads[i % len(loads)] += t
        return max(loads)


last = Run()
"""The last :func:`run` of this process."""

_RECORD: list[Run] | None = None


@contextlib.contextmanager
def recording() -> Iterator[list[Run]]:
    """Every :func:`run` of this process while the block runs, in order (for benchmarks)."""
    global _RECORD
    saved = _RECORD
    _RECORD = []
    try:
        yield _RECORD
    finally:
        _RECORD = saved


def can_fork() -> bool:
    """Whether this process may fork for :func:`run`: a POSIX ``fork`` and a single thread."""
    return hasattr(os, "fork") and threading.active_count() == 1


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def abandoned() -> bool:
    """True in a child of :func:`run` whose parent has gone (it should stop at once)."""
    return _PARENT is not None and os.getppid() != _PARENT


def leave() -> None:
    """End this child of :func:`run` at once (its parent has gone)."""
    os._exit(1)


def run(work: Callable[[int], T], count: int, workers: int) -> list[T]:
    """``[work(0), …, work(count - 1)]``, computed in up to ``workers`` processes when
    forking is safe (:func:`can_fork`), else here; the same list either way.  Piece ``i``
    runs in process ``i % processes`` (this one is process 0)."""
    if count < 0:
        raise ValueError(f"count must be at least 0, not {count}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    processes = min(workers, count) if can_fork() else 1
    results: dict[int, T] = {}
    cpu: dict[int, float] = {}
    children: list[tuple[int, int, int]] = []  # (pid, read end, process number)
    try:
        for p in range(1, processes):
            child = _fork(work, range(p, count, processes))
            if child is not None:
                children.append((*child, p))
        t0 = time.process_time()
        forked = {p for _, _, p in children}
        mine = [i for i in range(count) if i % processes not in forked]
        _compute(work, mine, results, cpu)
        process_cpu = [time.process_time() - t0]
        while children:
            pid, fd, p = children[0]
            got = _collect(pid, fd)
            children.pop(0)
            if got is None:  # the child failed: its share is done here
                t1 = time.process_time()
                _compute(work, list(range(p, count, processes)), results, cpu)
                process_cpu[0] += time.process_time() - t1
                continue
            part, part_cpu, total = got
            results.update(part)
            cpu.update(part_cpu)
            process_cpu.append(total)
    finally:
        for pid, fd, _ in children:  # interrupted: no child outlives the call
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.close(fd)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
    global last
    last = Run(processes, [cpu[i] for i in range(count)], process_cpu)
    if _RECORD is not None:
        _RECORD.append(last)
    return [results[i] for i in range(count)]


def _compute(
    work: Callable[[int], T], indices: list[int], results: dict[int, T], cpu: dict[int, float]
) -> None:
    for i in indices:
        if abandoned():  # the parent has gone: nobody wants the rest
            leave()
        t0 = time.process_time()
        results[i] = work(i)
        cpu[i] = time.process_time() - t0


def _fork(work: Callable[[int], Any], indices: range) -> tuple[int, int] | None:
    """Fork a child that computes ``work`` at ``indices`` and pickles ``(results, piece CPU,
    its CPU)`` into a pipe; (pid, the pipe's read end), or None if it could not fork."""
    global _PARENT
    parent = os.getpid()
    try:
        r, w = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return None
    if pid:
        os.close(w)
        return pid, r
    # the child: compute, send, leave without running the parent's exit handlers
    status = 1
    try:
        os.close(r)
        _PARENT = parent
        t0 = time.process_time()
        results: dict[int, Any] = {}
        cpu: dict[int, float] = {}
        _compute(work, list(indices), results, cpu)
        data = pickle.dumps((results, cpu, time.process_time() - t0))
        with os.fdopen(w, "wb") as out:
            out.write(data)
        status = 0
    except BaseException:  # noqa: BLE001 - the parent does this share itself
        status = 1
    finally:
        os._exit(status)


def _collect(pid: int, fd: int) -> tuple[dict[int, Any], dict[int, float], float] | None:
    """A child's results (None if it failed), the child reaped."""
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    except OSError:
        chunks = []
    data = b"".join(chunks)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    if status != 0 or not data:
        return None
    try:
        got: tuple[dict[int, Any], dict[int, float], float] = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a torn message: the parent does the share itself
        return None
    return got
