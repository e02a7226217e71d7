"""Benchmarks of the rules engines; prints its figures (no assertion: see the issue notes).

    .venv/bin/python bench/bench_engine.py [--games N] [--game pillars|builders|all]

- random complete 4-player games per second on one core (seeded chance, random decisions);
- replaying a complete 4-player game record (parse + apply every action), in milliseconds;
- Pillars: the best cathedral conversion on the hardest realistic hand, in milliseconds.
Targets: at least 100 games/s, replay under 20 ms, best conversion well under 10 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from companion.engine import Record, get_game, replay
from companion.engine.registry import names as game_names
from companion.engine.simulate import random_game


def bench_games(name: str, games: int) -> None:
    game = get_game(name)
    setup = game.setup(4)
    actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        _, acts = random_game(game, setup, random.Random(seed))
        actions += len(acts)
    dt = time.perf_counter() - t0
    print(
        f"{name}: {games} random 4-player games in {dt:.2f} s: {games / dt:.1f} games/s, "
        f"{actions / dt:,.0f} actions/s, {actions / games:.0f} actions per game"
    )


def bench_replay(name: str, repeats: int = 30) -> None:
    game = get_game(name)
    setup = game.setup(4)
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
    args = parser.parse_args()
    names = game_names() if args.game == "all" else (args.game,)
    for name in names:
        try:
            get_game(name)
        except ImportError:
            print(f"{name}: not available")
            continue
        bench_games(name, args.games)
        bench_replay(name)
    if "pillars" in names:
        bench_conversion()


if __name__ == "__main__":
    main()
