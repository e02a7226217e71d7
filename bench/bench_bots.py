"""Bot strength in the arena; prints its figures (the issue's bar, no assertion).

    .venv/bin/python bench/bench_bots.py [--games 400] [--game pillars|builders|all]

For each game: the heuristic bot against random play over ``--games`` two-player games (the
issue's bar: the heuristic wins at least 90 %), then three- and four-player tables with one
heuristic seat among random ones (a quarter of the games), seats rotated every game, win rates
with Wilson 95 % intervals, and the time each took.
"""

from __future__ import annotations

import argparse
import time

from companion.bots import arena
from companion.engine import get_game
from companion.engine.registry import names as game_names


def line(name: str, players: int, bots: list[str], games: int, seed: int) -> None:
    t0 = time.perf_counter()
    result = arena(get_game(name), players, bots, games, seed).to_json()
    dt = time.perf_counter() - t0
    parts = []
    for bot, r in result["bots"].items():
        lo, hi = r["ci95"]
        parts.append(f"{bot} {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]")
    print(
        f"{name}, {players} players, bots {','.join(bots)}, {games} games "
        f"({dt:.1f} s): " + "; ".join(parts)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--game", default="all", choices=[*game_names(), "all"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = game_names() if args.game == "all" else (args.game,)
    for name in names:
        line(name, 2, ["heuristic", "random"], args.games, args.seed)
        few = max(1, args.games // 4)
        line(name, 3, ["heuristic", "random", "random"], few, args.seed)
        line(name, 4, ["heuristic", "random", "random", "random"], few, args.seed)


if __name__ == "__main__":
    main()
