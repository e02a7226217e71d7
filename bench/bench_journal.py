"""Benchmarks of the game journal; prints its figures (no assertion).

    .venv/bin/python bench/bench_journal.py [--games N] [--history N] [--kills N] [--dir DIR]

- committing one action: ``JournaledGame.play`` (the rules, then one durable SQLite transaction
  in WAL mode with synchronous=FULL), median and p99 over complete random 4-player games, next
  to the rules alone (``Game.apply``) for comparison;
- resuming a complete 4-player game of each kind (reading its entries and replaying them into a
  Playthrough), median and max: the target is well under one screen frame (~16 ms);
- opening a journal holding ``--history`` finished games (with SQLite's quick check);
- with ``--kills N``: the long kill test (companion.journal.crashtest), N SIGKILLs.

The journal is written under ``--dir`` (default: the system's temporary folder); on the Pi, point
it at the SD card to measure the real device.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.engine import CHANCE, get_game, replay
from companion.engine.simulate import random_game, sample
from companion.journal import Journal
from companion.journal.crashtest import run as kill_test


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def bench_commit(journal: Journal, name: str, games: int) -> list[int]:
    """Play ``games`` random 4-player games through the journal, timing every play; the ids."""
    game = get_game(name)
    setup = game.setup(4)
    journaled: list[float] = []
    rules: list[float] = []
    ids = []
    for seed in range(games):
        rng = random.Random(seed)
        jg = journal.start(setup, seed)
        ids.append(jg.id)
        while not jg.is_over():
            state = jg.state
            if game.current_player(state) == CHANCE:
                action: Any = sample(game.chance_outcomes(state), rng)
            else:
                action = rng.choice(game.legal_actions(state))
            t0 = time.perf_counter()
            game.apply(state, action)
            t1 = time.perf_counter()
            jg.play(action)
            t2 = time.perf_counter()
            rules.append(t1 - t0)
            journaled.append(t2 - t1)
    print(
        f"{name}: committing one action (rules + durable commit), {len(journaled)} actions in "
        f"{games} games: median {ms(statistics.median(journaled))}, p99 {ms(p99(journaled))}, "
        f"max {ms(max(journaled))}; the rules alone: median {ms(statistics.median(rules))}"
    )
    return ids


def bench_resume(journal: Journal, name: str, ids: list[int], repeats: int = 30) -> None:
    longest = max(ids, key=lambda i: journal.get(i).actions)
    actions = journal.get(longest).actions
    entries = len(journal.entries(longest))
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        journal.resume(longest)
        times.append(time.perf_counter() - t0)
    record = journal.record(longest)
    game = get_game(name)
    engine = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        replay(game, record)
        engine.append(time.perf_counter() - t0)
    print(
        f"{name}: resuming a complete 4-player game ({actions} actions, {entries} entries): "
        f"median {ms(statistics.median(times))}, max {ms(max(times))}; the engine's replay of "
        f"its record alone: median {ms(statistics.median(engine))}"
    )


def bench_open(folder: Path, history: int) -> None:
    path = folder / "history.sqlite3"
    with Journal.open(path) as journal:
        for k in range(history):
            name = ("pillars", "builders")[k % 2]
            game = get_game(name)
            setup = game.setup(4)
            _, actions = random_game(game, setup, random.Random(k))
            jg = journal.start(setup, k)
            for a in actions:
                jg.play(a)
        entries = sum(len(journal.entries(info.id)) for info in journal.games())
    size = path.stat().st_size + sum(
        p.stat().st_size for p in folder.glob("history.sqlite3-*") if p.exists()
    )
    times = []
    for _ in range(10):
        t0 = time.perf_counter()
        Journal.open(path).close()
        times.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    with Journal.open(path) as journal:
        journal.finished()
    listing = time.perf_counter() - t0
    print(
        f"opening a journal of {history} finished games ({entries} entries, "
        f"{size / 1e6:.1f} MB, quick check included): median {ms(statistics.median(times))}, "
        f"max {ms(max(times))}; opening and listing the history: {ms(listing)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games of each kind to time")
    parser.add_argument("--history", type=int, default=20, help="finished games for the open")
    parser.add_argument("--kills", type=int, default=0, help="also run the kill test, N kills")
    parser.add_argument("--dir", help="where to write the journals (default: a temp folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-journal-", dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"journals in {folder}")
        with Journal.open(folder / "journal.sqlite3") as journal:
            for name in ("pillars", "builders"):
                ids = bench_commit(journal, name, args.games)
                bench_resume(journal, name, ids)
        bench_open(folder, args.history)
        if args.kills:
            print(f"kill test: {args.kills} kills ...", flush=True)
            report = kill_test(folder / "killed.sqlite3", args.kills, seed=1)
            print(f"kill test: {report}")


if __name__ == "__main__":
    main()
