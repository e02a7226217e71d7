"""Benchmarks of the rules engines; prints its figures (no assertion: see the issue notes).

    .venv/bin/python bench/bench_engine.py [--games N] [--game pillars|builders|all]

- random complete games of the most players the game takes (4 for both titles) per second on
  one core (seeded chance, random decisions),
  on the immutable rules and on the simulation path (``companion.engine.sim``) that bots and
  ``companion simulate`` use: the same games (same seeds, same actions), timed in alternating
  chunks in one run so that the ratio holds on a busy machine;
- replaying a complete game record of that size (parse + apply every action), in milliseconds;
- Pillars: the best cathedral conversion on the hardest realistic hand, in milliseconds.
Targets: at least 100 games/s on the rules and 500 (goal 1 000) on the simulation path, replay
under 20 ms, best conversion well under 10 ms.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from dataclasses import replace

from companion.engine import Record, get_game, replay
from companion.engine.registry import names as game_names
from companion.engine.registry import spec
from companion.engine.sim import simulator
from companion.engine.simulate import random_game


def bench_games(name: str, games: int) -> None:
    game = get_game(name)
    setup = game.setup(spec(name).max_players)
    actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        _, acts = random_game(game, setup, random.Random(seed))
        actions += len(acts)
    dt = time.perf_counter() - t0
    print(
        f"{name}: {games} random {len(setup.players)}-player games in {dt:.2f} s: "
        f"{games / dt:.1f} games/s, "
        f"{actions / dt:,.0f} actions/s, {actions / games:.0f} actions per game"
    )


def bench_sim(name: str, games: int, chunk: int = 20) -> None:
    """The simulation path against the rules on the same games, in alternating chunks."""
    game = get_game(name)
    path = simulator(game)
    setup = game.setup(spec(name).max_players)
    rules = fast = rules_cpu = fast_cpu = 0.0
    actions = 0
    for first in range(0, games, chunk):
        seeds = range(first, min(first + chunk, games))
        t0, c0 = time.perf_counter(), time.process_time()
        for seed in seeds:
            random_game(game, setup, random.Random(seed))
        t1, c1 = time.perf_counter(), time.process_time()
        for seed in seeds:
            actions += len(path.start(setup).random_playout(random.Random(seed)))
        t2, c2 = time.perf_counter(), time.process_time()
        rules += t1 - t0
        fast += t2 - t1
        rules_cpu += c1 - c0
        fast_cpu += c2 - c1
    print(
        f"{name}: simulation path {games / fast:.0f} games/s ({actions / fast:,.0f} actions/s), "
        f"rules {games / rules:.0f} games/s on the same {games} {len(setup.players)}-player games: "
        f"{rules / fast:.2f} times as fast; by CPU time (what a busy machine leaves of one "
        f"core) {games / fast_cpu:.0f} against {games / rules_cpu:.0f} games/s, "
        f"{rules_cpu / fast_cpu:.2f} times"
    )


def machine() -> str:
    """What the figures ran on (the load average says how busy the machine was)."""
    try:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    return (
        f"{platform.machine()} {platform.processor() or ''}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {load}; one process"
    )


def bench_replay(name: str, repeats: int = 30) -> None:
    game = get_game(name)
    setup = game.setup(spec(name).max_players)
    times = []
    longest = None
    for seed in range(10):
        _, acts = random_game(game, setup, random.Random(seed))
        if longest is None or len(acts) > len(longest):
            longest = acts
    assert longest is not None
    record = Record(setup, tuple(str(a) for a in longest), 0)
    text = record.dumps()
    for _ in range(repeats):
        t0 = time.perf_counter()
        replay(game, Record.loads(text))
        times.append(time.perf_counter() - t0)
    print(
        f"{name}: replaying a complete record of {len(longest)} actions (JSON text to final "
        f"state): median {statistics.median(times) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms"
    )


def bench_conversion(repeats: int = 200) -> None:
    from companion.pillars import PillarsGame

    game = PillarsGame()
    state = game.initial_state(game.setup(2))
    seats = list(state.seats)
    seats[0] = replace(
        seats[0],
        craftsmen=(
            "bellmaker6",
            "glassblower5",
            "organbuilder6",
            "woodworker1",
            "goldsmith6",
            "mason4",
        ),
        privileges=("jack",),
        res=(5, 5, 5, 5),
        gold=30,
        boost="mason4",
    )
    state = replace(state, seats=tuple(seats), step="cathedral", turn=0)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        conv = game.best_conversion(state)
        times.append(time.perf_counter() - t0)
    print(
        f"pillars: best conversion (6 craftsmen, 5 of each resource, 30 gold; {conv.vp} VP): "
        f"median {statistics.median(times) * 1000:.3f} ms, max {max(times) * 1000:.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--game", default="all", choices=[*game_names(), "all"])
    parser.add_argument(
        "--sim-only", action="store_true", help="only the simulation path against the rules"
    )
    args = parser.parse_args()
    names = game_names() if args.game == "all" else (args.game,)
    print(machine())
    for name in names:
        try:
            get_game(name)
        except ImportError:
            print(f"{name}: not available")
            continue
        bench_sim(name, args.games)
        if args.sim_only:
            continue
        bench_games(name, args.games)
        bench_replay(name)
    if "pillars" in names and not args.sim_only:
        bench_conversion()


if __name__ == "__main__":
    main()
