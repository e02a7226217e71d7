"""Fit a game's evaluation on self-play games; print the fit, its test on games held out of it,
and the model to paste into the game's declared signals (``companion/<game>/signals.py``, its
``MODEL``; ``companion/engine/signals.py`` says what a game declares).

    nice -n 10 .venv/bin/python bench/fit_evaluation.py --game builders --games 1200 \\
        --bots heuristic,greedy,search@50 --epsilon 0.1 --seed 1 [--workers 2]

Games: each seat gets one of ``--bots`` at random, every decision is a random legal one with
probability ``--epsilon`` (so that the data holds more than one bot's habits), player counts
2, 3 and 4 in turn.  Positions: every decision of every game with probability ``--sample``;
each seat's signals (the simulation path's ``signals()``) and its final score (The Builders:
VP and a point per 10 coins; The Pillars: VP; ties are split by the rules' own winners).
The games are split by seed: one in ``--holdout`` (default 4) is held out of the fit.

The fit: least squares (a small ridge) of the final score on the signals and a constant,
then the margin scale by likelihood of the wins.  The test, on held-out games, per player
count and per third of the game: R² of the final score, log-loss of who wins, and how often
the seat with the best predicted margin is the winner, beside the same for the heuristic's
judgement (its score through the logistic at ``TEMPERATURE``) and for the model the game
declares now (if there is one for these signals).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from math import log
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from companion.bots import HeuristicBot, SearchBot, make_bot
from companion.bots.bots import TEMPERATURE, options, outcome
from companion.bots.evaluation import Model, logistic, margins, model_for
from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.sim import SimState, simulator
from companion.engine.simulate import sample

Row = tuple[int, int, float, list[list[float]], list[float]]
"""One position: game index, players, share of the game played, each seat's signals, the
heuristic's score of each seat."""


def final_scores(game: str, sim: SimState) -> list[float]:
    """What a seat's evaluation predicts: its final score."""
    seats = range(sim.seat_count())
    if game == "builders":
        return [sim.players[i].vp + sim.players[i].coins / 10 for i in seats]  # type: ignore[attr-defined]
    return [float(sim.seats[i].vp) for i in seats]  # type: ignore[attr-defined]


def one_game(job: tuple[str, int, int, list[str], float, float]) -> dict[str, Any] | None:
    """Play game ``k`` and return its sampled positions and results (None if it hit the
    action limit)."""
    name, k, players, bots, epsilon, rate = job
    game = get_game(name)
    rng = random.Random(f"fit/{k}")
    table = [_bot(rng.choice(bots)) for _ in range(players)]
    sim = simulator(game).start(game.setup(players))
    heuristic = HeuristicBot()
    picks = [random.Random(f"fit/{k}/{s}") for s in range(players)]
    taken: list[tuple[int, list[list[float]], list[float]]] = []
    steps = 0
    for _ in range(20_000):
        who = sim.current_player()
        if who == TERMINAL:
            break
        if who == CHANCE:
            sim.apply(sample(sim.chance_outcomes(), rng))
            continue
        if rng.random() < rate:
            taken.append((steps, sim.signals(), heuristic.scores(sim)))  # type: ignore[attr-defined]
        sim.apply(decide(sim, who, table, picks, rng, epsilon))
        steps += 1
    else:
        return None
    return {
        "k": k,
        "players": players,
        "steps": steps,
        "rows": [(s / max(steps, 1), sig, h) for s, sig, h in taken],
        "final": final_scores(name, sim),
        "wins": outcome(sim),
    }


def decide(
    sim: SimState,
    who: int,
    table: list[Any],
    picks: list[random.Random],
    rng: random.Random,
    epsilon: float,
) -> Any:
    """Seat ``who``'s action in a self-play game: with probability ``epsilon`` (when it has a
    choice) a random legal one, else its bot's (so that the data holds more than one bot's
    habits)."""
    legal = options(sim)
    if len(legal) > 1 and rng.random() < epsilon:
        return rng.choice(legal)
    return table[who].choose(sim, who, picks[who])


def _bot(name: str) -> Any:
    """A bot by name; ``old@N`` is ``search@N`` judging its leaves by the heuristic (as
    before the fitted evaluation), ``old4@N`` the same with 4 random decisions first."""
    if name.startswith("old"):
        depth, _, n = name.partition("@")
        return SearchBot(
            think=None, iterations=int(n), fitted=False, depth=4 if depth == "old4" else 0
        )
    return make_bot(name)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gauss-Jordan elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        if abs(piv) < 1e-12:
            continue
        for j in range(c, n + 1):
            m[c][j] /= piv
        for r in range(n):
            if r != c and m[r][c] != 0.0:
                f = m[r][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] for i in range(n)]


def fit(samples: list[tuple[list[float], float]], ridge: float) -> list[float]:
    """Least squares with a constant (the last weight) and a ridge on the others."""
    d = len(samples[0][0]) + 1
    ata = [[0.0] * d for _ in range(d)]
    atb = [0.0] * d
    for x, y in samples:
        xs = [*x, 1.0]
        for i in range(d):
            xi = xs[i]
            if xi == 0.0:
                continue
            atb[i] += xi * y
            row = ata[i]
            for j in range(d):
                row[j] += xi * xs[j]
    for i in range(d - 1):
        ata[i][i] += ridge * len(samples)
    return solve(ata, atb)


def loss(p: float, y: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return -(y * log(p) + (1 - y) * log(1 - p))


def fit_scale(cases: list[tuple[list[float], list[float]]]) -> float:
    """The margin scale with the least log-loss of the wins (a grid, then a finer one)."""

    def total(scale: float) -> float:
        return sum(
            loss(logistic(m / scale), y)
            for margin, wins in cases
            for m, y in zip(margin, wins, strict=True)
        )

    grid = [0.25 * 1.25**i for i in range(30)]
    best = min(grid, key=total)
    fine = [best * (0.9 + 0.02 * i) for i in range(11)]
    return min(fine, key=total)


def report(
    label: str,
    games: list[dict[str, Any]],
    predict: Any,
    chance: Any,
) -> None:
    """R², log-loss and winner accuracy on ``games``, per player count and third of a game."""
    for players in (2, 3, 4, 0):
        for lo, hi, part in (
            (0.0, 1 / 3, "early"),
            (1 / 3, 2 / 3, "middle"),
            (2 / 3, 1.01, "late"),
            (0.0, 1.01, "all"),
        ):
            if players == 0 and part != "all":
                continue
            ys: list[float] = []
            ps: list[float] = []
            ll = 0.0
            n = 0
            hits = 0.0
            positions = 0
            for g in games:
                if players and g["players"] != players:
                    continue
                for share, sig, heur in g["rows"]:
                    if not lo <= share < hi:
                        continue
                    pred = predict(sig, heur)
                    if pred is not None:
                        ys += g["final"]
                        ps += pred
                    ch = chance(sig, heur)
                    for c, y in zip(ch, g["wins"], strict=True):
                        ll += loss(c, y)
                        n += 1
                    best = max(range(len(ch)), key=ch.__getitem__)
                    hits += g["wins"][best]
                    positions += 1
            if not positions:
                continue
            r2 = ""
            if ys:
                mean = sum(ys) / len(ys)
                sst = sum((y - mean) ** 2 for y in ys)
                sse = sum((y - p) ** 2 for y, p in zip(ys, ps, strict=True))
                r2 = f"R² {1 - sse / sst:.3f}, "
            who = f"{players} players" if players else "all"
            print(
                f"  {label:<10} {who:<9} {part:<6} {positions:>6} positions: {r2}"
                f"log-loss {ll / n:.3f}, best margin wins {hits / positions:.1%}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="builders", choices=["builders", "pillars"])
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--bots", default="heuristic,greedy")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--sample", type=float, default=0.05)
    parser.add_argument("--holdout", type=int, default=4)
    parser.add_argument("--ridge", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--fix",
        default="",
        help="weights not fitted, NAME=VALUE,... (e.g. vp=1,coins=0.1: what the score is)",
    )
    parser.add_argument("--save", help="write the games' positions to this JSON file")
    parser.add_argument("--load", help="read the positions from this JSON file (no games)")
    args = parser.parse_args()
    bots = args.bots.split(",")
    try:
        for b in bots:
            _bot(b)
    except ValueError as exc:
        sys.exit(f"fit_evaluation: {exc}")
    jobs = [
        (args.game, args.seed + k, 2 + k % 3, bots, args.epsilon, args.sample)
        for k in range(args.games)
    ]
    t0 = time.perf_counter()
    if args.load:
        played = json.loads(Path(args.load).read_text())
    else:
        with Pool(max(1, min(args.workers, 2))) as pool:
            played = pool.map(one_game, jobs, chunksize=4)
    if args.save:
        Path(args.save).write_text(json.dumps(played))
    games = [g for g in played if g is not None]
    source = (
        f"loaded from {args.load}"
        if args.load
        else f"of {','.join(bots)}, epsilon {args.epsilon}, in {time.perf_counter() - t0:.0f} s"
    )
    print(
        f"{args.game}: {len(games)} games ({len(played) - len(games)} at the action limit) "
        f"{source}",
        flush=True,
    )
    train = [g for g in games if g["k"] % args.holdout]
    test = [g for g in games if not g["k"] % args.holdout]
    sim = simulator(get_game(args.game)).start(get_game(args.game).setup(2))
    names: tuple[str, ...] = sim.SIGNALS  # type: ignore[attr-defined]
    fixed = {}
    for part in filter(None, args.fix.split(",")):
        key, _, val = part.partition("=")
        if key not in names:
            sys.exit(f"fit_evaluation: --fix {key!r} is none of the signals {', '.join(names)}")
        fixed[names.index(key)] = float(val)
    free = [i for i in range(len(names)) if i not in fixed]
    samples = [
        (
            [sig[i][j] for j in free],
            g["final"][i] - sum(v * sig[i][j] for j, v in fixed.items()),
        )
        for g in train
        for _s, sig, _h in g["rows"]
        for i in range(len(sig))
    ]
    fitted_w = fit(samples, args.ridge)
    w = [0.0] * (len(names) + 1)
    for j, v in fixed.items():
        w[j] = v
    for j, v in zip(free, fitted_w, strict=False):
        w[j] = v
    w[-1] = fitted_w[-1]
    weights = w[:-1]
    cases = []
    for g in train:
        for _s, sig, _h in g["rows"]:
            pred = [sum(a * b for a, b in zip(weights, r, strict=True)) for r in sig]
            cases.append((margins(pred), g["wins"]))
    scale = fit_scale(cases)
    print(
        f"fitted on {len(samples)} seat-positions of {len(train)} games; held out "
        f"{len(test)} games",
        flush=True,
    )
    for j, (n, x) in enumerate(zip(names, weights, strict=True)):
        print(f"  {n:<16} {x:+.4f}{'  (fixed)' if j in fixed else ''}")
    print(f"  (constant {w[-1]:+.3f}), margin scale {scale:.3f}")

    def fitted_pred(sig: list[list[float]], _h: list[float]) -> list[float]:
        return [w[-1] + sum(a * b for a, b in zip(weights, r, strict=True)) for r in sig]

    def fitted_chance(sig: list[list[float]], h: list[float]) -> list[float]:
        return [logistic(m / scale) for m in margins(fitted_pred(sig, h))]

    def heur_chance(_sig: list[list[float]], h: list[float]) -> list[float]:
        return [logistic(x / TEMPERATURE) for x in h]

    print("held-out test (R² with the constant; the bots need only the margins):")
    report("fitted", test, fitted_pred, fitted_chance)
    report("heuristic", test, lambda s, h: None, heur_chance)
    current = model_for(sim)
    if current is not None:
        model = current

        def now_pred(sig: list[list[float]], _h: list[float]) -> list[float]:
            return None  # type: ignore[return-value]  # no constant kept: no R²

        def now_chance(sig: list[list[float]], h: list[float]) -> list[float]:
            return [logistic(m / model.scale) for m in margins(model.predict(sig))]

        report("declared", test, now_pred, now_chance)
    print("the model:")
    print(
        f"    Model(\n        {args.game!r},\n        {names!r},\n"
        f"        ({', '.join(f'{x:.4f}' for x in weights)}),\n        {scale:.3f},\n    ),"
    )
    _ = Model


if __name__ == "__main__":
    main()
