"""Bot strength in the arena, the no-stall check, the think times; prints its figures (no
assertion) and, with ``--table --write``, puts the strength table into ``docs/bots.md``.

    .venv/bin/python bench/bench_bots.py --table [--write] [--games 2=200,3=150,4=150]
    .venv/bin/python bench/bench_bots.py --pairs search@500/heuristic --players 2,3,4 --games 40
    .venv/bin/python bench/bench_bots.py --curve --game builders --players 4 --games 100
    .venv/bin/python bench/bench_bots.py --stalls 1000
    .venv/bin/python bench/bench_bots.py --think --game builders --strengths normal,strong,hint \
        --players 2,4 --samples 30 --decision-workers 2
    .venv/bin/python bench/bench_bots.py --rate
    .venv/bin/python bench/bench_bots.py --try-evaluation x:left*workforce=0.08 \
        --pairs search@500+x/search@500 --game builders --players 2 --games 48 --seed 1001

A pairing ``FIRST/SECOND``: ``FIRST`` takes one seat, ``SECOND`` every other one; game
``k`` seats ``FIRST`` at seat ``k mod players`` (seats rotated) and draws chance from seed
``seed + k``.  The figure is FIRST's share of the wins (a shared win split, 1/players is an
even share) with its Wilson 95 % interval.  A game that reaches the arena's action limit
(``tournament.MAX_ACTIONS``) counts as lost for FIRST and is reported in the ``limit``
column.  Where the game reports each seat's final points, a line also gives the share of
the other seats FIRST outscored (a tie half; even 0.50 at any table size) with its normal
95 % interval: win or lose, how far up the table FIRST finished, a finer measure than the
wins at three and four players; a ``--log`` line then ends with the seats' points.

``--table``: for each game and 2, 3 and 4 players, each strength against the next weaker
one, against the heuristic and against ``greedy`` (one ply of the search's own evaluation),
plus the heuristic against random.  ``--curve``: ``search@N`` against the heuristic for N in
50, 200, 500, 2000, 4000 (``--curve-bot``: another search, ``{n}`` its iterations, e.g.
``search@{n}t+open``; ``--curve-against``: another opponent, e.g. the same search at 500
iterations, ``search@500t+open``, whose own point is left out).  ``--stalls N``: N all-bot
games per game and player count from mixes of the fast bots (random, heuristic, greedy) and
as many search games as ``--stall-search`` says, counting those ended by the limit.
``--think``: CPU time a decision of each strength (median, 95th percentile, most) over
positions from games of that strength, per game at 2 and 4 players (``hint``: the kiosk's
hint), with the wall time when a decision may use ``--decision-workers`` processes and the
critical path a Raspberry Pi 4's four cores would wait for, times the CPython factor of
``docs/pi.md``.  ``--rate``: the search's iterations a second.

CPU: at most two worker processes (``--workers``, default 2), each at ``nice`` 5 (the script
lowers its own priority): the machine is shared.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from companion.bots import (
    STRENGTHS,
    HeuristicBot,
    SearchBot,
    evaluation,
    make_bot,
    parallel,
    search,
    tournament,
    wilson,
)
from companion.bots.bots import options
from companion.bots.evaluation import model_for
from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.errors import SetupError
from companion.engine.registry import names as game_names
from companion.engine.registry import specs as game_specs
from companion.engine.sim import SimState, simulator
from companion.engine.simulate import sample

DOCS = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
TABLE_LOG = Path(__file__).resolve().parent / "bots-table.jsonl"
"""The table's games, one JSON line each, kept in the repository: ``--table`` plays only the
games it does not hold (a changed strength's lines), ``--table --no-play`` makes the table
from it alone, and ``--table --write`` leaves in it exactly the games the table counts."""
BEGIN = "<!-- bench_bots --table: begin -->"
END = "<!-- bench_bots --table: end -->"

Job = tuple[str, int, str, str, int]
"""One game: game name, players, FIRST, SECOND, seed."""


@dataclass
class GameResult:
    share: float
    limit: bool
    decisions: list[float] = field(default_factory=list)
    """CPU seconds of each of FIRST's decisions that had a choice."""
    points: list[int] = field(default_factory=list)
    """Each seat's final points, in seat order (FIRST's seat is ``seed % players``); empty for
    a game that reached the limit, and in logs written before the arena kept them."""

    def outscored(self, me: int) -> float | None:
        """The share of the other seats whose final points FIRST (seat ``me``) passed, a tie
        half; None without points.  Win or lose, it says how far up the table FIRST
        finished: 0.5 is even at any table size."""
        if not self.points:
            return None
        mine = self.points[me]
        others = [p for s, p in enumerate(self.points) if s != me]
        return sum(1.0 if mine > p else 0.5 if mine == p else 0.0 for p in others) / len(others)


def play_one(job: Job) -> GameResult:
    """One arena game; FIRST's win share, whether it hit the limit, FIRST's think times."""
    name, players, first, second, seed = job
    game = get_game(name)
    me = seed % players
    table = [make_bot(first if s == me else second) for s in range(players)]
    setup = game.setup(players)
    sim = simulator(game).start(setup)
    chance = random.Random(seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    times: list[float] = []
    for _ in range(tournament.MAX_ACTIONS):
        who = sim.current_player()
        if who == TERMINAL:
            winners = sim.winners()
            share = 1 / len(winners) if me in winners else 0.0
            scores = game.scores(sim.freeze())
            return GameResult(share, False, times, [scores[n] for n in setup.names])
        if who == CHANCE:
            action = sample(sim.chance_outcomes(), chance)
        elif who == me:
            t0 = time.process_time()
            action = table[who].choose(sim, who, rngs[who])
            if len(sim.legal_actions()) > 1:
                times.append(time.process_time() - t0)
        else:
            action = table[who].choose(sim, who, rngs[who])
        sim.apply(action)
    return GameResult(0.0, True, times)


@dataclass
class Line:
    """One pairing's result."""

    game: str
    players: int
    first: str
    second: str
    games: int = 0
    wins: float = 0.0
    limit: int = 0
    seconds: float = 0.0
    think: list[float] = field(default_factory=list)
    outscored: list[float] = field(default_factory=list)
    """Each game's :meth:`GameResult.outscored` (the games whose points are known)."""

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def text(self) -> str:
        lo, hi = self.interval()
        return (
            f"{self.game}, {self.players} players, {self.first} vs {self.second}, "
            f"{self.games} games: {self.first} {self.wins / self.games:.3f} [{lo:.3f}, {hi:.3f}] "
            f"(even {1 / self.players:.2f}), ended by the limit {self.limit} "
            f"({self.seconds:.0f} s){self.outscored_text()}"
        )

    def outscored_text(self) -> str:
        """``; others outscored M [lo, hi] in N`` (the mean of :attr:`outscored` with its
        normal 95 % interval; even 0.50), or nothing without points."""
        n = len(self.outscored)
        if n < 2:
            return ""
        mean = statistics.fmean(self.outscored)
        half = 1.96 * statistics.stdev(self.outscored) / n**0.5
        lo, hi = max(0.0, mean - half), min(1.0, mean + half)
        return f"; others outscored {mean:.3f} [{lo:.3f}, {hi:.3f}] in {n}"


def run(
    pairings: Iterable[tuple[str, int, str, str, int]],
    seed: int,
    workers: int,
    quiet: bool,
    log: str | None = None,
    play: bool = True,
) -> list[Line]:
    """Play every pairing ``(game, players, first, second, games)`` on ``workers``
    processes; the lines in the order given.  ``log``: a file that gets one JSON line a game
    as it ends (a long run cut short keeps its games)."""
    lines: list[Line] = []
    jobs: list[tuple[int, Job]] = []
    order: dict[tuple[int, int], float] = {}
    for pairing in pairings:
        lines.append(Line(*pairing[:4]))
        games = pairing[4]
        for k, job in enumerate(table_jobs([pairing], seed)):
            jobs.append((len(lines) - 1, job))
            order[len(lines) - 1, job[4]] = (k + 1) / games
    # every line at the same pace (its share of games played), the cheaper first within a
    # share: a run cut short has played the same share of every line
    jobs.sort(key=lambda j: (order[j[0], j[1][4]], _cost(j[1]), j[0]))
    t0 = time.perf_counter()
    left = {i: sum(1 for j, _ in jobs if j == i) for i in range(len(lines))}
    # games a run cut short (or the table's last run) has played already
    done = read_log(Path(log)) if log and Path(log).exists() else {}
    if not play:  # the table from the log alone: only the games it holds
        jobs = [(i, job) for i, job in jobs if tuple(job) in done]
        left = {i: sum(1 for j, _ in jobs if j == i) for i in range(len(lines))}
    todo = [job for _, job in jobs if tuple(job) not in done]
    with contextlib.ExitStack() as stack:
        fresh: Iterator[GameResult] = iter(())
        if todo:  # no processes for a table the log holds whole
            pool = stack.enter_context(Pool(max(1, min(workers, 2)), initializer=_lower_priority))
            fresh = pool.imap(play_one, todo, chunksize=1)
        results = (done[tuple(job)] if tuple(job) in done else next(fresh) for _, job in jobs)
        for (i, _job), r in zip(jobs, results, strict=True):
            line = lines[i]
            if log and tuple(_job) not in done:
                with open(log, "a", encoding="utf-8") as f:
                    f.write(_log_line(_job, r) + "\n")
            line.games += 1
            line.wins += r.share
            line.limit += r.limit
            line.think += r.decisions
            beaten = r.outscored(_job[4] % _job[1])
            if beaten is not None:
                line.outscored.append(beaten)
            left[i] -= 1
            if not left[i]:
                line.seconds = time.perf_counter() - t0
                if not quiet:
                    print(line.text(), flush=True)
    return lines


def _log_line(job: Job, r: GameResult) -> str:
    """A game's line in a ``--log``: the job, FIRST's share, the limit, FIRST's CPU seconds a
    decision (to the tenth of a millisecond) and, when known, each seat's final points."""
    row = [*job, r.share, r.limit, [round(t, 4) for t in r.decisions]]
    return json.dumps([*row, r.points] if r.points else row)


def read_log(log: Path) -> dict[tuple[Any, ...], GameResult]:
    """The games a ``--log`` holds, by job; ValueError naming the line that is no game's."""
    held: dict[tuple[Any, ...], GameResult] = {}
    for n, text in enumerate(log.read_text(encoding="utf-8").splitlines(), 1):
        try:
            row = json.loads(text)
            if not isinstance(row, list) or len(row) not in (8, 9):
                raise ValueError(f"{row!r:.40} is not a list of 8 or 9 fields")
            share, limit, decisions, *points = row[5:]
        except (ValueError, TypeError) as exc:  # a line cut short, or no game's line
            raise ValueError(f"{log}, line {n}: not a game of the arena ({exc})") from None
        held[tuple(row[:5])] = GameResult(share, bool(limit), decisions, *points)
    return held


def keep_only(log: Path, jobs: Iterable[Job]) -> int:
    """Leave in ``log`` exactly the games of ``jobs`` it holds, in that order (a table's log
    then holds the games its table counts, not those of bots a strength no longer plays);
    the games it dropped."""
    held = read_log(log)
    kept = [_log_line(job, held[tuple(job)]) for job in jobs if tuple(job) in held]
    log.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return len(held) - len(kept)


def table_jobs(plan: Iterable[tuple[str, int, str, str, int]], seed: int) -> list[Job]:
    """The games of pairings ``(game, players, first, second, games)``, pairing by pairing
    (seeds ``seed``, ``seed + 1``…): what :func:`run` plays and a table's log keeps."""
    return [
        (game, players, first, second, seed + k)
        for game, players, first, second, games in plan
        for k in range(games)
    ]


def _cost(job: Job) -> float:
    """A rough cost of a game (for the order of the jobs)."""
    _name, players, first, second, _seed = job
    return _iterations(first) + (players - 1) * _iterations(second)


def try_evaluation(spec: str) -> None:
    """Register ``NAME[@GAME]:SIGNAL=W,...`` in :data:`~companion.bots.evaluation.EVALUATIONS`:
    each model of :func:`~companion.bots.evaluation.bases` (the games' fitted ones, and the
    heuristic's judgement as a model for a game that has none: The Pillars) that weighs every
    signal named (of ``GAME`` only, if given), with those weights changed (``scale=S``: its
    margin scale, in the model's units: a Builders point, a Pillars gold), for a search's
    ``+NAME`` (in this process and the arena's, which it forks); ValueError for a spec that
    names no game, signal or number there is."""
    head, _, changes = spec.partition(":")
    name, _, game = head.partition("@")
    if not (re.fullmatch(r"\w+", name) and changes and re.fullmatch(r"\w*", game)):
        raise ValueError(f"an evaluation to try is NAME[@GAME]:SIGNAL=W,..., not {spec!r}")
    bases = evaluation.bases()
    if game:
        bases = tuple(m for m in bases if m.game == game)
        if not bases:
            games = ", ".join(sorted({m.game for m in evaluation.bases()}))
            raise ValueError(f"{spec!r}: no model of a game {game!r}; the games are {games}")
    weights: dict[str, float] = {}
    scale = None
    for part in changes.split(","):
        key, _, value = part.partition("=")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"{spec!r}: {value!r} is not a number") from None
        if key == "scale":
            scale = number
        else:
            weights[key] = number
    if scale is not None and not scale > 0:
        raise ValueError(f"{spec!r}: the scale must be above 0")
    try:
        evaluation.EVALUATIONS[name] = evaluation.changed(weights, bases, scale)
    except ValueError as exc:
        raise ValueError(f"{spec!r}: {exc}") from None


def _iterations(bot: str) -> float:
    m = re.match(r"search@(\d+)(?:[xs](\d+))?", bot)
    if m:
        return float(m.group(1)) * int(m.group(2) or 1)
    return 5.0 if bot == "greedy" else 1.0


def _lower_priority() -> None:
    """Nice 5 at least (the machine is shared); a search's trees one after another in this
    process (the arena already runs a game per core; the decisions are the same)."""
    search.WORKERS = 1
    with contextlib.suppress(OSError):
        if os.nice(0) < 5:
            os.nice(5 - os.nice(0))


# -- the table ---------------------------------------------------------------------------------
def strength_bots(game: str, players: int | None = None) -> list[tuple[str, str]]:
    """Each strength's name and its bot in ``game`` with ``players`` players, weakest first."""
    return [(s.name, s.bot_for(game, players)) for s in STRENGTHS.values()]


TABLE_GAMES = {
    # (first, second): games at 2, 3 and 4 players (0: not run)
    ("easy", "random"): (40, 40, 40),
    ("normal", "easy"): (30, 30, 100),
    ("normal", "greedy"): (20, 20, 40),
    ("strong", "normal"): (64, 16, 16),
    ("strong", "easy"): (4, 4, 4),
    ("strong", "greedy"): (4, 4, 4),
}
"""The table's games a pairing (times ``--scale``), spent where the issue's claims are (normal
against the heuristic at four players, strong against normal at two) and what about an hour
and a half of two shared cores gives (a two-player game of strong against normal costs 25 to
45 s of CPU there).  The games run every line at the same pace, so a run cut
short (``--log`` keeps its games) has played the same share of each line."""

TABLE_GAMES_BY_GAME = {
    # (game, first, second): games at 2, 3 and 4 players, where a game's claim needs more
    ("builders", "strong", "normal"): (64, 96, 96),
    ("builders", "strong", "easy"): (20, 20, 20),
    ("builders", "strong", "greedy"): (20, 20, 20),
    ("pillars", "strong", "normal"): (64, 96, 96),
    ("pillars", "strong", "easy"): (20, 20, 20),
}
"""The Builders' strong, and the Pillars' at three and four players: a game of it costs what
normal's does (``search@500+lean``, ``search@500+open``, ``search@500+convert``), and 96
games against normal give intervals clear of the even share."""


def table_pairings(scale: float, names: list[str]) -> list[tuple[str, int, str, str, int]]:
    """The table's pairings: each search strength against the next weaker, the heuristic and
    greedy; easy against random.  Greedy is left out where it is the heuristic (a game
    without a fitted evaluation: greedy then follows the heuristic's own score)."""
    out = []
    for game in names:
        fitted = model_for(simulator(get_game(game)).start(get_game(game).setup(2))) is not None
        for players in (2, 3, 4):
            try:
                get_game(game).setup(players)
            except SetupError:  # a game for fewer players (the tests' third game)
                continue
            bot = dict(strength_bots(game, players)) | {"random": "random", "greedy": "greedy"}
            for (first, second), counts in TABLE_GAMES.items():
                if second == "greedy" and not fitted:
                    continue
                counts = TABLE_GAMES_BY_GAME.get((game, first, second), counts)
                n = round(counts[players - 2] * scale)
                out.append((game, players, bot[first], bot[second], n))
    return out


def own_games() -> list[str]:
    """The companion's own games (not a test's installed one)."""
    return [n for n in game_names() if type(get_game(n)).__module__.startswith("companion.")]


def strength_of(bot: str) -> str:
    for s in STRENGTHS.values():
        declared = (b for spec in game_specs() for k, b in spec.strengths.items()
                    if k.partition("/")[0] == s.name)
        if bot == s.bot or bot in declared:
            return f"{s.name} (`{bot}`)"
    return f"`{bot}`"


def markdown(lines: list[Line], command: str, took: float, workers: int = 2) -> str:
    """The table as Markdown, with how it was made (``workers`` processes)."""
    processes = "one worker process" if workers == 1 else f"{workers} worker processes"
    out = [
        BEGIN,
        "",
        f"Made by `{command}` on this machine's two shared cores ({processes} at "
        f"nice {os.nice(0)}; the last run {took / 60:.0f} min: with ``--log`` a run takes "
        "the games the log holds from earlier runs of the same command and plays the rest).  "
        "Share: the "
        "first bot's share of the wins (ties "
        "shared), one seat against the second bot in every other seat, seats rotated game "
        "by game; even is 1/players.  Limit: games ended by the arena's action limit "
        f"({tournament.MAX_ACTIONS} actions; counted as lost for the first bot).",
        "",
        "| game | players | first | second | games | share | 95 % interval | even | limit |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for line in lines:
        if not line.games:
            out.append(
                f"| {line.game} | {line.players} | {strength_of(line.first)} | "
                f"{strength_of(line.second)} | 0 | not run (CPU) | | {1 / line.players:.2f} | |"
            )
            continue
        lo, hi = line.interval()
        out.append(
            f"| {line.game} | {line.players} | {strength_of(line.first)} | "
            f"{strength_of(line.second)} | {line.games} | {line.wins / line.games:.2f} | "
            f"{lo:.2f}–{hi:.2f} | {1 / line.players:.2f} | {line.limit} |"
        )
    out += ["", END]
    return "\n".join(out)


def write_table(text: str) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    if BEGIN in doc and END in doc:
        head, rest = doc.split(BEGIN, 1)
        _old, tail = rest.split(END, 1)
        doc = head + text + tail
    else:
        doc = doc.rstrip("\n") + "\n\n" + text + "\n"
    DOCS.write_text(doc, encoding="utf-8")


def think_report(lines: list[Line]) -> None:
    """Median, 95th percentile and most CPU seconds a decision, per first bot, game, size."""
    seen: dict[tuple[str, str, int], list[float]] = {}
    for line in lines:
        seen.setdefault((line.first, line.game, line.players), []).extend(line.think)
    for (bot, game, players), t in sorted(seen.items()):
        if len(t) < 2:
            continue
        t.sort()
        p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
        print(
            f"think {bot} {game} {players}p: {len(t)} decisions, median "
            f"{statistics.median(t) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, most "
            f"{t[-1] * 1000:.0f} ms of CPU",
            flush=True,
        )


# -- stalls ------------------------------------------------------------------------------------
STALL_MIXES = [
    "random",
    "heuristic",
    "greedy",
    "heuristic,random",
    "greedy,heuristic",
    "greedy,random",
    "greedy,heuristic,random",
]


def stall_job(job: tuple[str, int, list[str], int]) -> tuple[bool, int]:
    """One all-bot game of a mix (seat ``s`` plays ``mix[(s + seed) % len(mix)]``); whether
    it hit the limit, and its length in actions."""
    name, players, mix, seed = job
    game = get_game(name)
    table = [make_bot(mix[(s + seed) % len(mix)]) for s in range(players)]
    setup = game.setup(players)
    sim = simulator(game).start(setup)
    chance = random.Random(seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    for n in range(tournament.MAX_ACTIONS):
        who = sim.current_player()
        if who == TERMINAL:
            return False, n
        if who == CHANCE:
            sim.apply(sample(sim.chance_outcomes(), chance))
        else:
            sim.apply(table[who].choose(sim, who, rngs[who]))
    return True, tournament.MAX_ACTIONS


def stalls(
    names: list[str], counts: list[int], games: int, search: list[str], seed: int, workers: int
) -> None:
    for name in names:
        for players in counts:
            jobs = []
            for k in range(games):
                mix = STALL_MIXES[k % len(STALL_MIXES)].split(",")
                jobs.append((name, players, mix, seed + k))
            for k, bot in enumerate(search):
                a, b = bot.split("/") if "/" in bot else (bot, "heuristic")
                jobs.append((name, players, [a, b], seed + games + k))
            t0 = time.perf_counter()
            with Pool(max(1, min(workers, 2)), initializer=_lower_priority) as pool:
                res = pool.map(stall_job, jobs, chunksize=4)
            limit = sum(1 for hit, _ in res if hit)
            longest = max(n for _, n in res)
            print(
                f"{name}, {players} players: {len(jobs)} all-bot games ({games} of the mixes "
                f"{' | '.join(STALL_MIXES)}; {len(search)} with a search), ended by the limit: "
                f"{limit}; the longest {longest} actions ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )


# -- think time and rate -------------------------------------------------------------------------
def positions(
    name: str, players: int, count: int, seed: int, bot: str = "heuristic"
) -> list[SimState]:
    """``count`` decisions (with a choice) spread over games of ``bot``."""
    game = get_game(name)
    out: list[SimState] = []
    player = make_bot(bot) if bot != "heuristic" else HeuristicBot()
    k = 0
    while len(out) < count:
        rng = random.Random(seed + k)
        sim = simulator(game).start(game.setup(players))
        found: list[SimState] = []
        while sim.current_player() != TERMINAL:
            who = sim.current_player()
            if who == CHANCE:
                sim.apply(sample(sim.chance_outcomes(), rng))
                continue
            if len(options(sim)) > 1:
                found.append(sim.copy())
            sim.apply(player.choose(sim, who, rng))
        out += found[:: max(1, len(found) // 10)][:10]
        k += 1
    return out[:count]


PI4_FACTOR = (13.1, 16.1)
"""How many times slower a Raspberry Pi 4 core runs this project's Python than this machine's
(``docs/pi.md``: 13.1 to 13.4 at 1.8 GHz, 15.7 to 16.1 at 1.5 GHz)."""

PI4_CORES = 4


@dataclass
class Think:
    """One decision's times: CPU seconds of all its processes, wall seconds, and its critical
    path on a machine with a core per tree (the longest tree's CPU; all its CPU for one
    tree)."""

    cpu: float
    wall: float
    critical: float


HINT = "hint"
"""``--think``'s name for the kiosk's hint (``companion.kiosk.seats.suggest``: the hint
strength's search for the candidates, then equal playouts to rank them, in this process)."""


def think_job(job: tuple[str, int, str, int, int]) -> list[Think]:
    name, players, bot, seed, workers = job
    search.WORKERS = workers
    states = positions(name, players, 10, seed, "greedy")
    hint = bot == HINT
    b = make_bot(STRENGTHS["strong"].bot_for(name, players) if hint else bot)
    out = []
    for k, sim in enumerate(states):
        with parallel.recording() as runs:
            t0, w0 = time.process_time(), time.perf_counter()
            if hint:
                from companion.kiosk.seats import HINT_CHOICES, suggest

                suggest(name, sim.freeze(), sim.current_player(), f"bench{k}", HINT_CHOICES)
            else:
                b.choose(sim, sim.current_player(), random.Random(k))
            cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        # this process's CPU counts its own share of each run's pieces and all the rest (a
        # hint's bookkeeping); the children's come back with their pieces.  The critical
        # path: the rest, and each run's busiest process had it had a core a piece, up to 4
        rest = cpu - sum(r.process_cpu[0] for r in runs if r.process_cpu)
        cpu += sum(sum(r.process_cpu[1:]) for r in runs)
        critical = rest + sum(r.critical(PI4_CORES) for r in runs)
        out.append(Think(cpu, wall, critical))
    return out


def _p95(t: list[float]) -> float:
    t = sorted(t)
    return t[min(len(t) - 1, int(0.95 * len(t)))]


def think(
    names: list[str],
    counts: list[int],
    samples: int,
    workers: int,
    strengths: list[str],
    decision_workers: int = 1,
) -> None:
    """Times a decision of each strength over positions from greedy games: CPU (all its
    processes), wall (with ``decision_workers`` processes a decision, one decision at a time
    if more than one), and a Pi 4's p95 from the critical path (one tree a core)."""
    jobs = [
        (name, players, bot, 100 * k + 1, decision_workers)
        for name in names
        for players in counts
        for strength, bot in [
            *strength_bots(name, players),
            (HINT, HINT),
            *((s, s) for s in strengths if s not in STRENGTHS and s != HINT),  # a bot's name
        ]
        if strength in strengths
        for k in range(max(1, samples // 10))
    ]
    outer = 1 if decision_workers > 1 else max(1, min(workers, 2))
    with Pool(outer, initializer=_lower_priority) as pool:
        res = pool.map(think_job, jobs, chunksize=1)
    seen: dict[tuple[str, int, str], list[Think]] = {}
    for (name, players, bot, _, _), t in zip(jobs, res, strict=True):
        seen.setdefault((name, players, bot), []).extend(t)
    lo, hi = PI4_FACTOR
    for (name, players, bot), got in seen.items():
        cpu = sorted(t.cpu for t in got)
        wall = [t.wall for t in got]
        crit = _p95([t.critical for t in got])
        print(
            f"{name}, {players} players, {strength_of(bot)}: {len(got)} decisions; CPU "
            f"median {statistics.median(cpu) * 1000:.0f} ms, p95 {_p95(cpu) * 1000:.0f} ms, "
            f"most {cpu[-1] * 1000:.0f} ms; wall ({decision_workers} process(es) a decision) "
            f"median {statistics.median(wall) * 1000:.0f} ms, p95 {_p95(wall) * 1000:.0f} ms; "
            f"critical path p95 {crit * 1000:.0f} ms: a Pi 4 ({PI4_CORES} cores, "
            f"{lo:g}-{hi:g}x) p95 {lo * crit:.2f}-{hi * crit:.2f} s",
            flush=True,
        )


def rate(name: str, players: int) -> None:
    """The search's iterations per second of CPU time over positions from heuristic games."""
    states = positions(name, players, 40, 1)
    bot = SearchBot(think=None, iterations=1000)
    done = 0
    t0 = time.process_time()
    for k, sim in enumerate(states):
        bot.choose(sim, sim.current_player(), random.Random(k))
        done += bot.last_iterations
    per_s = done / (time.process_time() - t0)
    print(f"{name}, {players} players: search {per_s:,.0f} iterations/s of CPU", flush=True)


def parse_games(text: str) -> dict[int, int]:
    """``2=200,3=150,4=150`` (or one number for every size)."""
    if "=" not in text:
        n = int(text)
        return {2: n, 3: n, 4: n}
    out = {}
    for part in text.split(","):
        k, v = part.split("=")
        out[int(k)] = int(v)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="all", choices=[*game_names(), "all"])
    parser.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    parser.add_argument("--games", default="40", help="games a pairing: N or 2=N,3=N,4=N")
    parser.add_argument("--scale", type=float, default=1.0, help="the table's games times this")
    parser.add_argument(
        "--log",
        help="append one JSON line a game to this file (--table: bench/bots-table.jsonl)",
    )
    parser.add_argument(
        "--no-play", action="store_true", help="--table from the --log's games alone"
    )
    parser.add_argument("--pairs", help="FIRST/SECOND pairings, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes (at most 2)")
    parser.add_argument("--table", action="store_true", help="the strength table")
    parser.add_argument("--write", action="store_true", help="put the table into docs/bots.md")
    parser.add_argument(
        "--curve", action="store_true", help="search@N against the heuristic (--curve-against)"
    )
    parser.add_argument("--budgets", default="50,200,500,2000,4000", help="N for --curve")
    parser.add_argument(
        "--curve-bot",
        default="search@{n}",
        help="--curve's bot, {n} its iterations (e.g. search@{n}t+tempo)",
    )
    parser.add_argument(
        "--curve-against",
        default="heuristic",
        help="--curve's opponent in every other seat (e.g. search@500t+open: the same search "
        "at a budget of reference, whose own point is then left out: even by definition)",
    )
    parser.add_argument("--stalls", type=int, help="all-bot games a game and player count")
    parser.add_argument(
        "--stall-search", default="", help="search pairings added to --stalls (A/B,...)"
    )
    parser.add_argument("--think", action="store_true", help="CPU a decision, per strength")
    parser.add_argument(
        "--strengths",
        default="easy,normal,strong",
        help="for --think (and hint: the kiosk's; or a bot's name, e.g. search@1500s4)",
    )
    parser.add_argument("--samples", type=int, default=60, help="positions for --think")
    parser.add_argument(
        "--decision-workers",
        type=int,
        default=1,
        help="--think: processes a root-parallel decision may use (then one decision at a time)",
    )
    parser.add_argument("--rate", action="store_true", help="the search's iterations/s")
    parser.add_argument(
        "--try-evaluation",
        action="append",
        default=[],
        metavar="NAME[@GAME]:SIGNAL=W,...",
        help="an evaluation to try, NAME: the fitted models (and The Pillars' heuristic as a "
        "model) that weigh these signals, with these weights (or scale=S); "
        "a search takes it as +NAME, e.g. --try-evaluation x:left*workforce=0.08 --pairs "
        "search@500+x/search@500",
    )
    args = parser.parse_args()
    _lower_priority()
    try:
        for spec in args.try_evaluation:
            try_evaluation(spec)
    except ValueError as exc:
        sys.exit(f"bench_bots: {exc}")
    names = list(game_names()) if args.game == "all" else [args.game]
    try:
        counts = [int(p) for p in args.players.split(",")]
        games = parse_games(args.games)
        pairs = [p.split("/") for p in args.pairs.split(",")] if args.pairs else []
        for p in pairs:
            if len(p) != 2:
                raise ValueError(f"a pairing is FIRST/SECOND, not {'/'.join(p)!r}")
            for b in p:
                make_bot(b)
        if args.curve:
            if "{n}" not in args.curve_bot:
                raise ValueError(f"--curve-bot needs {{n}} (the iterations): {args.curve_bot!r}")
            make_bot(args.curve_bot.replace("{n}", "1"))
            make_bot(args.curve_against)
        if args.think:
            for b in args.strengths.split(","):
                if b not in STRENGTHS and b != HINT:
                    make_bot(b)
    except ValueError as exc:
        sys.exit(f"bench_bots: {exc}")
    t0 = time.perf_counter()
    if args.rate:
        for name in names:
            for players in counts:
                try:
                    get_game(name).setup(players)
                except SetupError:  # a game for fewer players (the tests' third game)
                    continue
                rate(name, players)
        return
    if args.think:
        think(
            names,
            counts,
            args.samples,
            args.workers,
            args.strengths.split(","),
            args.decision_workers,
        )
        return
    if args.stalls:
        extra = [s for s in args.stall_search.split(",") if s]
        stalls(names, counts, args.stalls, extra, args.seed, args.workers)
        return
    if args.table:
        if args.game == "all":
            names = own_games()
        plan = [p for p in table_pairings(args.scale, names) if p[1] in counts]
        log = args.log or str(TABLE_LOG)
        lines = run(plan, args.seed, args.workers, quiet=False, log=log, play=not args.no_play)
        command = "python bench/bench_bots.py " + " ".join(sys.argv[1:])
        shown = command.replace(" --write", "").replace(" --no-play", "")
        text = markdown(lines, shown, time.perf_counter() - t0, max(1, min(args.workers, 2)))
        print(text)
        think_report(lines)
        if args.write:
            write_table(text)
            if Path(log).exists():  # the whole table's (a run of one game keeps the other's)
                whole = table_jobs(table_pairings(args.scale, own_games()), args.seed)
                dropped = keep_only(Path(log), whole)
                print(f"{log}: the table's games kept, {dropped} others dropped")
        return
    if args.curve:
        plan = []
        for name in names:
            for players in counts:
                for n in (int(b) for b in args.budgets.split(",")):
                    bot = args.curve_bot.replace("{n}", str(n))
                    if bot == args.curve_against:  # against itself: even by definition
                        print(f"{name}, {players} players, {bot}: the reference (even)")
                        continue
                    plan.append((name, players, bot, args.curve_against, games[players]))
        run(plan, args.seed, args.workers, quiet=False, log=args.log)
        return
    plan = [
        (name, players, a, b, games.get(players, 40))
        for name in names
        for players in counts
        for a, b in (pairs or [("heuristic", "random"), ("search@500", "heuristic")])
    ]
    lines = run(plan, args.seed, args.workers, quiet=False, log=args.log)
    think_report(lines)


if __name__ == "__main__":
    try:
        main()
    except ValueError as exc:  # a log that holds no games of the arena
        sys.exit(f"bench_bots: {exc}")
