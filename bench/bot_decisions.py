"""The bots' decisions on seeded positions, written to a file and compared with another run's:
a change that must keep every decision (a refactoring of the bots, the signals or the
strengths) is checked by running this before and after it.

    .venv/bin/python bench/bot_decisions.py --out /tmp/before.json        # on the old code
    .venv/bin/python bench/bot_decisions.py --out /tmp/after.json         # on the new code
    .venv/bin/python bench/bot_decisions.py --compare /tmp/before.json /tmp/after.json

Positions: for each game (``--games``, default every registered one) and each table size
its spec allows (up to four), seeded games walked by a mix of the heuristic and random
decisions; every ``--every``-th decision with a choice is kept, up to ``--positions`` per game
and size.  At each, with generators seeded from the position's number:

- ``heuristic``, ``greedy`` and ``search@100`` choose, each named evaluation's search
  (``search@60+NAME``) chooses, and the heuristic ranks its three best choices (with the
  win chances of its judged playouts: every float of the judgement is compared);
- on every fourth position, the companion's easy and normal decide from the rules' state
  (``companion.bots.decide``: the strengths as the games declare them, the seed from the
  position) and normal ranks its choices (``search@500``'s win chances);
- on every twelfth, strong decides and the hint ranks (``companion.bots.hint``).

Each record holds a digest of the position (the rules' state as the seat sees it), so a
change in the walk is reported as such.  ``--compare`` prints the records that differ and
exits 1 if any does.  CPU: one process, at nice 10 (the machine is shared).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from companion.bots import HeuristicBot, decide, hint, make_bot, search
from companion.bots.bots import options
from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.errors import SetupError
from companion.engine.registry import names as game_names
from companion.engine.sim import simulator
from companion.engine.simulate import sample

EVALUATION_NAMES = ("lean", "open", "tempo", "plan", "convert")
"""The named evaluations whose searches are compared (a name a game does not know judges it
as without the name: compared too)."""


def _digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def _ranked(choices: list[Any]) -> list[list[Any]]:
    return [[str(c.action), repr(c.win_chance), c.visits] for c in choices]


def positions(name: str, players: int, want: int, every: int) -> list[tuple[Any, int]]:
    """Up to ``want`` decisions with a choice (the simulation state and its seat) from seeded
    games walked by the heuristic and random decisions."""
    game = get_game(name)
    walker = HeuristicBot()
    out: list[tuple[Any, int]] = []
    g = 0
    while len(out) < want and g < 200:
        g += 1
        rng = random.Random(f"{name}/{players}/{g}")
        sim = simulator(game).start(game.setup(players))
        k = 0
        for _ in range(20_000):
            who = sim.current_player()
            if who == TERMINAL or len(out) >= want:
                break
            if who == CHANCE:
                sim.apply(sample(sim.chance_outcomes(), rng))
                continue
            legal = options(sim)
            if len(legal) > 1:
                k += 1
                if k % every == 0:
                    out.append((sim.copy(), who))
            if rng.random() < 0.5:
                sim.apply(walker.choose(sim, who, rng))
            else:
                sim.apply(legal[rng.randrange(len(legal))])
    return out


def record(name: str, players: int, index: int, sim: Any, seat: int) -> dict[str, Any]:
    """Every decision of the module's list at one position."""
    game = get_game(name)
    state = sim.freeze()
    out: dict[str, Any] = {
        "where": f"{name}/{players}/{index}",
        "position": _digest(sim.determinize(seat, random.Random(0)).freeze()),
        "seat": seat,
    }

    def gen(tag: str) -> random.Random:
        return random.Random(f"{name}/{players}/{index}/{tag}")

    for bot in ("heuristic", "greedy", "search@100"):
        out[bot] = str(make_bot(bot).choose(sim.copy(), seat, gen(bot)))
    for evaluation in EVALUATION_NAMES:
        bot = f"search@60+{evaluation}"
        out[bot] = str(make_bot(bot).choose(sim.copy(), seat, gen(bot)))
    out["heuristic rank"] = _ranked(make_bot("heuristic").rank(sim.copy(), seat, gen("r"), 3))
    salt = f"{name}/{players}/{index}"
    if index % 4 == 0:
        for strength in ("easy", "normal"):
            out[strength] = str(decide(game, state, seat, strength, salt))
        out["normal rank"] = _ranked(hint(game, state, seat, 3, "normal", salt))
    if index % 12 == 0:
        out["strong"] = str(decide(game, state, seat, "strong", salt))
        out["hint"] = _ranked(hint(game, state, seat, 3, salt=salt))
    return out


def collect(games: list[str], want: int, every: int) -> list[dict[str, Any]]:
    records = []
    for name in games:
        spec_game = get_game(name)
        for players in range(1, 5):
            try:
                spec_game.setup(players)
            except SetupError:
                continue
            t0 = time.process_time()
            found = positions(name, players, want, every)
            for i, (sim, seat) in enumerate(found):
                records.append(record(name, players, i, sim, seat))
            took = time.process_time() - t0
            print(f"{name}, {players} players: {len(found)} positions ({took:.0f} s)", flush=True)
    return records


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> int:
    """Print every record that differs; the number of differences."""
    old = {r["where"]: r for r in before}
    new = {r["where"]: r for r in after}
    differ = 0
    for where in sorted(old.keys() | new.keys()):
        a, b = old.get(where), new.get(where)
        if a is None or b is None:
            print(f"{where}: only {'after' if a is None else 'before'}")
            differ += 1
            continue
        for key in sorted(a.keys() | b.keys()):
            if a.get(key) != b.get(key):
                print(f"{where} {key}: {a.get(key)!r} -> {b.get(key)!r}")
                differ += 1
    decisions = sum(len(r) - 3 for r in before)
    print(f"{len(before)} positions, {decisions} decisions and rankings compared: {differ} differ")
    return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the decisions to this JSON file")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--games", help="comma-separated game names (default: every one)")
    parser.add_argument("--positions", type=int, default=48, help="per game and table size")
    parser.add_argument("--every", type=int, default=5)
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(Path(p).read_text(encoding="utf-8")) for p in args.compare)
        return 1 if compare(before, after) else 0
    if not args.out:
        parser.error("--out FILE or --compare BEFORE AFTER")
    with contextlib.suppress(OSError):
        if os.nice(0) < 10:
            os.nice(10 - os.nice(0))
    search.WORKERS = 1  # a strong search's trees one after another: the same decisions
    games = args.games.split(",") if args.games else list(game_names())
    t0 = time.process_time()
    records = collect(games, args.positions, args.every)
    Path(args.out).write_text(json.dumps(records, indent=0), encoding="utf-8")
    print(f"{len(records)} positions written to {args.out} ({time.process_time() - t0:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
