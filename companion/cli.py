"""The ``companion`` command: ``simulate`` random games and ``replay`` game records."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.engine import GAMES, Record, RecordError, RulesError, get_game, replay
from companion.engine.simulate import random_game


def _simulate(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    try:
        setup = game.setup(args.players)
    except RulesError as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("companion simulate: --games must be 1 or more", file=sys.stderr)
        return 2
    records = Path(args.records) if args.records else None
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"companion simulate: cannot use {records} for records: {exc}", file=sys.stderr)
            return 2
    results: list[dict[str, Any]] = []
    total_actions = 0
    elapsed = 0.0
    for k in range(args.games):
        seed = args.seed + k
        rng = random.Random(seed)
        t0 = time.perf_counter()
        state, actions = random_game(game, setup, rng)
        elapsed += time.perf_counter() - t0
        total_actions += len(actions)
        scores = game.scores(state)
        winners = game.winners(state)
        results.append(
            {"seed": seed, "scores": scores, "winners": winners, "actions": len(actions)}
        )
        if records is not None:
            record = Record(setup, tuple(game.format_action(a) for a in actions), seed)
            record.save(records / f"{args.game}-{args.players}p-seed{seed}.json")
        if not args.json:
            table = ", ".join(f"{name} {pts}" for name, pts in scores.items())
            print(
                f"game {k + 1} (seed {seed}): {table}; won by {' and '.join(winners)}; "
                f"{len(actions)} actions"
            )
    timing = {
        "seconds": round(elapsed, 6),
        "games_per_second": round(args.games / elapsed, 2) if elapsed else None,
        "actions_per_second": round(total_actions / elapsed, 1) if elapsed else None,
    }
    if args.json:
        print(
            json.dumps(
                {
                    "game": args.game,
                    "players": args.players,
                    "seed": args.seed,
                    "games": results,
                    "timing": timing,
                },
                ensure_ascii=False,
            )
        )
    else:
        print(
            f"{args.games} games, {total_actions} actions in {elapsed:.3f} s: "
            f"{timing['games_per_second']} games/s, {timing['actions_per_second']} actions/s"
        )
    return 0


def _replay(args: argparse.Namespace) -> int:
    try:
        record = Record.load(args.record)
        game = get_game(record.setup.game)
        state = replay(game, record)
    except RecordError as exc:
        print(f"companion replay: {args.record}: {exc}", file=sys.stderr)
        return 1
    except RulesError as exc:
        print(f"companion replay: {args.record}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        out = game.summary(state)
        out["actions"] = len(record.actions)
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(game.describe(state))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="A table companion for The Pillars of the Earth and The Builders: Middle Ages.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play random games with seeded chance")
    sim.add_argument("game", choices=GAMES)
    sim.add_argument("--players", type=int, default=4, help="2 to 4 (default 4)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    sim.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--records", metavar="DIR", help="write each game's record into DIR")
    sim.set_defaults(run=_simulate)
    rep = sub.add_parser("replay", help="apply a game record and print the result")
    rep.add_argument("record", help="a game record (JSON)")
    rep.add_argument("--json", action="store_true", help="print one JSON object")
    rep.set_defaults(run=_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
