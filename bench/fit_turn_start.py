"""Fit The Builders' evaluation where a ``search@Nt`` judges its leaves: at the start of a
seat's turn, every other seat's turn spent (``docs/notes/bots-lab.md``, "The curve against the same
search").  Prints the fit, its test on held-out games beside the open evaluation's, and the
``--try-evaluation`` spec that lets ``bench_bots.py`` play a search with it.

    nice -n 10 .venv/bin/python bench/fit_turn_start.py --games 1500 \\
        --bots search@50t+open,search@50t+open,heuristic --epsilon 0.1 --seed 1 \\
        --save /tmp/turns0.json [--tie coins=0.1,left*coins=0.05] [--try SPECFILE]

Games: player counts 2, 3 and 4 in turn, each seat one of ``--bots`` at random, every decision
with a choice a random one with probability ``--epsilon``.  Positions: the start of every
turn (each seat's signals, ``BuildersSim.signals``), labelled with each seat's share of the
win.  One game in four (by seed) is held out of the fit.

The fit: each seat's chance of winning is the logistic of its weighted signals less the best
other seat's (the form :class:`companion.bots.evaluation.Evaluation` judges with), the weights
by least log-loss (Adam, full batch, a small L2), started from the open evaluation;
``--tie NAME=R`` keeps a weight at ``R`` times the VP's (e.g. a coin at a tenth of a VP, what
the final score counts it).  ``--try SPECFILE``: a ``--try-evaluation`` spec to register
first, so that ``--bots`` may name a search with it (a second round on the fitted judge's own
games).  ``--load`` fits games saved by ``--save`` (comma-separated files) without playing.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from companion.bots import make_bot
from companion.bots.bots import outcome
from companion.bots.evaluation import evaluations, model_for
from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.sim import simulator
from companion.engine.simulate import sample

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_bots  # noqa: E402  (--try-evaluation's parser)
from fit_evaluation import decide  # noqa: E402

Job = tuple[int, int, list[str], float]


def one_game(job: Job) -> dict[str, Any] | None:
    """Game ``k``: each turn's first position (the turn player, every seat's signals) and
    each seat's share of the win; None if it hit the arena's action limit."""
    k, players, bots, epsilon = job
    game = get_game("builders")
    rng = random.Random(f"turns/{k}")
    table = [make_bot(rng.choice(bots)) for _ in range(players)]
    picks = [random.Random(f"turns/{k}/{s}") for s in range(players)]
    sim: Any = simulator(game).start(game.setup(players))
    rows: list[tuple[int, list[list[float]]]] = []
    last = None
    for _ in range(20_000):
        who = sim.current_player()
        if who == TERMINAL:
            return {"k": k, "players": players, "rows": rows, "win": outcome(sim)}
        if who == CHANCE:
            sim.apply(sample(sim.chance_outcomes(), rng))
            continue
        if (sim.turn, sim.turn_player) != last:
            last = (sim.turn, sim.turn_player)
            rows.append((who, sim.signals()))
        sim.apply(decide(sim, who, table, picks, rng, epsilon))
    return None


Data = dict[int, tuple[Any, Any]]
"""Per player count: signals (positions × seats × signals) and win shares (positions × seats)."""


def arrays(games: list[dict[str, Any]]) -> Data:
    xs: dict[int, list[Any]] = {}
    ys: dict[int, list[Any]] = {}
    for g in games:
        for _who, sig in g["rows"]:
            xs.setdefault(g["players"], []).append(sig)
            ys.setdefault(g["players"], []).append(g["win"])
    return {p: (np.array(xs[p], float), np.array(ys[p], float)) for p in xs}


def loss_grad(w: Any, data: Data) -> tuple[float, Any]:
    """Mean log-loss of every seat's win and its gradient in ``w``."""
    total, n, grad = 0.0, 0, np.zeros_like(w)
    for x, y in data.values():
        s = x @ w
        order = np.argsort(-s, axis=1)
        top = order[:, :1]
        nxt = order[:, 1:2]
        lead = np.take_along_axis(s, top, 1) == s
        other = np.where(lead, nxt, top)  # each seat's best other seat
        m = s - np.take_along_axis(s, other, 1)
        p = 1 / (1 + np.exp(-np.clip(m, -50, 50)))
        total += float(-(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)).sum())
        n += y.size
        xo = np.take_along_axis(x, np.broadcast_to(other[:, :, None], x.shape), 1)
        grad += np.einsum("ns,nsk->k", p - y, x - xo)
    return total / max(n, 1), grad / max(n, 1)


def fit(w0: Any, data: Data, ties: dict[int, float], steps: int = 3000) -> Any:
    """Adam on :func:`loss_grad` from ``w0``, each tied weight kept at its ratio to the VP's."""

    def tie(w: Any) -> Any:
        for i, r in ties.items():
            w[i] = r * w[0]
        return w

    w = tie(w0.copy())
    m1 = np.zeros_like(w)
    m2 = np.zeros_like(w)
    for t in range(1, steps + 1):
        _, g = loss_grad(w, data)
        g = g + 1e-4 * w
        for i, r in ties.items():
            g[0] += r * g[i]
            g[i] = 0.0
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g * g
        w -= 0.02 * (m1 / (1 - 0.9**t)) / (np.sqrt(m2 / (1 - 0.999**t)) + 1e-8)
        tie(w)
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--bots", default="search@50t+open,search@50t+open,heuristic")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tie", default="", help="NAME=R,...: weights kept at R times the VP's")
    parser.add_argument("--try", dest="spec", help="a --try-evaluation spec file to register")
    parser.add_argument("--save", help="write the games' positions to this JSON file")
    parser.add_argument("--load", help="fit these saved files (comma-separated), no games")
    parser.add_argument("--name", default="fit", help="the printed spec's evaluation name")
    args = parser.parse_args()
    sim: Any = simulator(get_game("builders")).start(get_game("builders").setup(2))
    names: tuple[str, ...] = sim.SIGNALS
    try:
        if args.spec:
            bench_bots.try_evaluation(Path(args.spec).read_text(encoding="utf-8").strip())
        bots = args.bots.split(",")
        for b in bots:
            make_bot(b)
        ties = {}
        for part in filter(None, args.tie.split(",")):
            key, _, val = part.partition("=")
            if key not in names:
                raise ValueError(f"--tie {key!r} is none of the signals {', '.join(names)}")
            ties[names.index(key)] = float(val)
    except (ValueError, OSError) as exc:
        sys.exit(f"fit_turn_start: {exc}")
    if args.load:
        games = [g for f in args.load.split(",") for g in json.loads(Path(f).read_text())]
    else:
        jobs = [(args.seed + k, 2 + k % 3, bots, args.epsilon) for k in range(args.games)]
        with Pool(2) as pool:
            played = pool.map(one_game, jobs, chunksize=2)
        games = [g for g in played if g is not None]
        print(f"{len(games)} games ({len(played) - len(games)} at the action limit)")
        if args.save:
            Path(args.save).write_text(json.dumps(games))
    train = arrays([g for g in games if g["k"] % 4])
    test = arrays([g for g in games if not g["k"] % 4])
    open_model = model_for(sim, evaluations()["open"])
    assert open_model is not None
    start = np.array(open_model.weights) / open_model.scale
    best = min((loss_grad(start * a, train)[0], float(a)) for a in np.linspace(0.2, 3.0, 57))[1]
    start = start * best

    def line(label: str, w: Any) -> str:
        per = " ".join(f"{p}p {loss_grad(w, {p: test[p]})[0]:.4f}" for p in sorted(test))
        return (
            f"{label}: log-loss train {loss_grad(w, train)[0]:.4f}, "
            f"held out {loss_grad(w, test)[0]:.4f} ({per})"
        )

    print(line("open (its scale fitted)", start))
    w = fit(start, train, ties)
    print(line("fitted", w))
    scale = 1 / w[0]
    spec = ",".join(f"{n}={x * scale:.4f}" for n, x in zip(names, w, strict=True))
    print(f"{args.name}@builders:{spec},scale={scale:.4f}")


if __name__ == "__main__":
    main()
