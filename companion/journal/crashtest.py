"""The journal's kill test: the closest a test can come to pulling the plug.

A child process plays random games through the journal (chance sampled from a seeded generator,
decisions chosen at random, now and then an undo or an abandoned game) and reports each call
AFTER it has returned, one line appended to an acknowledgement file.  The parent kills it with
SIGKILL at a random moment (sometimes before it has even opened the journal), then checks:

- the file opens without a notice and ``PRAGMA integrity_check`` is ok;
- every game holds every acknowledged entry, in order, and at most one entry more; across the
  whole journal at most one operation (an entry, a new game, an abandon) was committed but not
  acknowledged;
- a resumed game's state equals the engine's replay of exactly the actions its record holds,
  and the listing data (action count, scores, status, winners, end time, the per-round or
  per-turn scores) agree with that replay.

Then a new child resumes where the last one died.  Run it on the Pi itself to test the real SD
card (a SIGKILL tests the software's side; the device's own caching is tested only by cutting
the power)::

    python -m companion.journal.crashtest --kills 300 [--path FILE] [--seed N]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from companion.engine import CHANCE, Game, Setup, get_game, replay
from companion.engine.registry import names as game_names
from companion.engine.simulate import sample
from companion.text import json_text

from .errors import JournalError
from .journal import Journal


class CrashTestFailure(AssertionError):
    """The journal broke one of its promises."""


# -- the child --------------------------------------------------------------------------------


def child(path: Path, ack_path: Path, seed: int) -> NoReturn:
    """Play through the journal forever, acknowledging each call after it returns."""
    rng = random.Random(seed)
    fd = os.open(ack_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def ack(*fields: object) -> None:
        os.write(fd, ("\t".join(map(str, fields)) + "\n").encode("utf-8"))

    journal = Journal.open(path)
    for name in game_names():  # the games' rules loaded before the kills start counting
        get_game(name)
    os.write(1, b"ready\n")
    while True:
        try:
            jg = journal.resume()
            ack("resume", jg.id, jg.entries)
        except JournalError:
            name = rng.choice(game_names())
            game = get_game(name)
            n = rng.randint(game.min_players, game.max_players)
            jg = journal.start(game.setup(n, start_player=rng.randrange(n)), rng.randrange(2**31))
            ack("start", jg.id, 0)
        game = jg.game
        while not jg.is_over():
            r = rng.random()
            if r < 0.0005:
                journal.abandon(jg.id)
                ack("abandon", jg.id)
                break
            if r < 0.08 and jg.can_undo():
                action = jg.undo()
                ack("undo", jg.id, jg.entries, game.format_action(action))
                continue
            state = jg.state
            if game.current_player(state) == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                action = rng.choice(game.legal_actions(state))
            jg.play(action)
            ack("action", jg.id, jg.entries, game.format_action(action))


# -- the parent -------------------------------------------------------------------------------


@dataclass
class Report:
    """What a run did: kills, how many came before the child had opened the journal, how many
    left one operation committed but unacknowledged, games and entries checked, seconds."""

    kills: int = 0
    startup_kills: int = 0
    unacknowledged: int = 0
    games: int = 0
    finished: int = 0
    entries: int = 0
    seconds: float = 0.0
    checks: int = 0

    def __str__(self) -> str:
        return (
            f"{self.kills} kills ({self.startup_kills} while starting up) in "
            f"{self.seconds:.1f} s; {self.games} games ({self.finished} finished), "
            f"{self.entries} entries; {self.unacknowledged} kills left one committed but "
            f"unacknowledged operation; {self.checks} game checks, all passed"
        )


@dataclass
class _Known:
    """What the parent knows a game holds: acknowledged (or, after a check, found) entries."""

    entries: list[tuple[str, str]] = field(default_factory=list)
    abandoned: bool = False


def expected_periods(
    game: Game[Any, Any], setup: Setup, actions: list[str]
) -> list[tuple[int, dict[str, int]]]:
    """The per-period scores the journal must hold for these actions (recomputed here)."""
    state = game.initial_state(setup)
    rows: dict[int, dict[str, int]] = {}
    period = game.period_after(None, state)
    for text in actions:
        after = game.apply(state, game.parse_action(text))
        before_p = period.number
        period = game.period_after(period, after)
        after_p = period.number
        if after_p != before_p:
            rows[before_p] = game.scores(after)
        if game.is_over(after):
            rows[after_p] = game.scores(after)
        state = after
    return sorted(rows.items())


def _fail(cycle: int, message: str) -> NoReturn:
    raise CrashTestFailure(f"after kill {cycle}: {message}")


def _read_acks(ack_path: Path, known: dict[int, _Known]) -> set[int]:
    """Fold the acknowledgement file into ``known``; the ids of the games it mentions."""
    touched: set[int] = set()
    if not ack_path.exists():
        return touched
    for line in ack_path.read_text(encoding="utf-8").splitlines():
        kind, game_id, *rest = line.split("\t")
        gid = int(game_id)
        touched.add(gid)
        k = known.setdefault(gid, _Known())
        if kind in ("action", "undo"):
            seq, text = int(rest[0]), rest[1]
            if seq != len(k.entries) + 1:
                raise CrashTestFailure(
                    f"game {gid}: acknowledged entry {seq} follows entry {len(k.entries)}"
                )
            k.entries.append((kind, text))
        elif kind == "abandon":
            k.abandoned = True
        elif kind == "resume":
            if int(rest[0]) != len(k.entries):
                raise CrashTestFailure(
                    f"game {gid} resumed with {rest[0]} entries; the journal held "
                    f"{len(k.entries)} when it was last checked"
                )
            k.abandoned = False
        else:  # start
            k.abandoned = False
    return touched


def _snapshot(path: Path) -> dict[int, tuple[str, int]]:
    """Each game's status and entry count, read with a plain connection."""
    conn = sqlite3.connect(str(path))
    try:
        return {
            int(gid): (str(status), int(n))
            for gid, status, n in conn.execute(
                "SELECT id, status, (SELECT COUNT(*) FROM entries WHERE game_id = games.id) "
                "FROM games"
            )
        }
    finally:
        conn.close()


def _integrity(path: Path, cycle: int) -> None:
    if not path.exists():
        return
    conn = sqlite3.connect(str(path))
    try:
        result = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()
    if result != ["ok"]:
        _fail(cycle, f"integrity_check: {result[:5]}")


def check_game(journal: Journal, game_id: int, known: _Known, cycle: int) -> int:
    """Check one game against what was acknowledged; the number of unacknowledged entries it
    holds (0 or 1).  Afterwards ``known`` holds what the journal holds."""
    info = journal.get(game_id)
    entries = journal.entries(game_id)
    found = [(e.kind, e.text) for e in entries]
    acked = known.entries
    if found[: len(acked)] != acked:
        _fail(cycle, f"game {game_id} lost or changed acknowledged entries")
    extra = len(found) - len(acked)
    if extra not in (0, 1):
        _fail(cycle, f"game {game_id} has {extra} more entries than were acknowledged")
    effective: list[str] = []
    for kind, text in found:
        if kind == "action":
            effective.append(text)
        else:
            effective.pop()
    record = journal.record(game_id)
    if list(record.actions) != effective:
        _fail(cycle, f"game {game_id}: its record is not its entries with the undos applied")
    game = get_game(info.game)
    state = replay(game, record)
    if info.status != "abandoned":
        resumed = journal.resume(game_id)
        if resumed.state != state or resumed.entries != len(found):
            _fail(cycle, f"game {game_id}: the resumed state differs from the replayed record")
    if known.abandoned and info.status != "abandoned":
        _fail(cycle, f"game {game_id} was abandoned, but the journal says {info.status}")
    over = game.is_over(state)
    if info.status != "abandoned" and info.status != ("finished" if over else "playing"):
        _fail(cycle, f"game {game_id} is {info.status}, but over is {over}")
    finished = info.status == "finished"
    if (info.ended is not None) != finished:
        _fail(cycle, f"game {game_id}: end time {info.ended} for a {info.status} game")
    if info.actions != len(effective) or info.scores != game.scores(state):
        _fail(cycle, f"game {game_id}: its listed actions or scores are not the replay's")
    if info.winners != (game.winners(state) if finished else []):
        _fail(cycle, f"game {game_id}: winners {info.winners} are not the replay's")
    if info.periods != expected_periods(game, info.setup, effective):
        _fail(cycle, f"game {game_id}: its per-period scores are not the replay's")
    known.entries = found
    return extra


def run(
    path: Path,
    kills: int,
    seed: int = 0,
    *,
    max_life: float = 0.25,
    startup_kills: float = 0.15,
    workdir: Path | None = None,
    log: Any = None,
) -> Report:
    """Kill ``kills`` children playing into the journal at ``path``, checking after each.

    ``max_life`` bounds a child's life after it has opened the journal (seconds);
    ``startup_kills`` is the share of kills made before that; the acknowledgement files go to
    ``workdir`` (default: a temporary folder)."""
    rng = random.Random(seed)
    report = Report()
    known: dict[int, _Known] = {}
    seen: dict[int, tuple[str, int]] = {}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="companion-crashtest-", dir=workdir) as tmp:
        for cycle in range(1, kills + 1):
            ack_path = Path(tmp) / f"ack-{cycle}"
            err_path = Path(tmp) / f"err-{cycle}"
            with err_path.open("wb") as err:
                proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "companion.journal.crashtest",
                        "child",
                        str(path),
                        str(ack_path),
                        str(rng.randrange(2**31)),
                    ],
                    stdout=subprocess.PIPE,
                    stderr=err,
                )
                assert proc.stdout is not None
                if rng.random() < startup_kills:
                    report.startup_kills += 1
                    time.sleep(rng.uniform(0.0, 0.12))
                else:
                    if proc.stdout.readline() != b"ready\n":
                        proc.wait()
                        why = _tail(err_path)
                        _fail(cycle, f"the child died before opening the journal: {why}")
                    time.sleep(rng.uniform(0.0, max_life))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                proc.stdout.close()
            if proc.returncode != -signal.SIGKILL:
                _fail(cycle, f"the child ended by itself ({proc.returncode}): {_tail(err_path)}")
            report.kills += 1
            touched = _read_acks(ack_path, known)
            _integrity(path, cycle)
            if not path.exists():
                continue
            now = _snapshot(path)
            changed = {gid for gid, s in now.items() if seen.get(gid) != s} | touched
            unacked = 0
            with Journal.open(path) as journal:
                if journal.notice:
                    _fail(cycle, f"the journal was not usable: {journal.notice}")
                for gid in sorted(changed):
                    if gid not in now:
                        _fail(cycle, f"game {gid} was acknowledged but is not in the journal")
                    k = known.setdefault(gid, _Known())
                    if gid not in seen and not k.entries and gid not in touched:
                        unacked += 1  # a game started, committed, not acknowledged
                    status = now[gid][0]
                    if status == "abandoned" and not k.abandoned:
                        unacked += 1
                        k.abandoned = True
                    unacked += check_game(journal, gid, k, cycle)
                    report.checks += 1
            if unacked > 1:
                _fail(cycle, f"{unacked} operations were committed but not acknowledged")
            report.unacknowledged += unacked
            seen = now
            if log is not None and cycle % 50 == 0:
                print(f"  {cycle} kills ...", file=log, flush=True)
        with Journal.open(path) as journal:
            for info in journal.games():
                check_game(journal, info.id, known.setdefault(info.id, _Known()), kills)
                report.checks += 1
                report.games += 1
                report.finished += info.status == "finished"
                report.entries += len(known[info.id].entries)
    report.seconds = time.perf_counter() - t0
    return report


def _tail(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return "(no output)"
    return text[-2000:] or "(no output)"


MAX_KILLS = 100_000
"""The most kills one run makes (some four hours here)."""


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["child"]:
        child(Path(args[1]), Path(args[2]), int(args[3]))
    parser = argparse.ArgumentParser(
        prog="python -m companion.journal.crashtest",
        description="Kill a child playing into a journal again and again; check the journal.",
    )
    parser.add_argument("--kills", type=int, default=300,
                        help=f"how many times the child is killed (default 300, 1 to {MAX_KILLS})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--path", help="the journal to use (default: a new one in a temp folder)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    opts = parser.parse_args(args)
    if not 1 <= opts.kills <= MAX_KILLS:
        parser.error(f"argument --kills: {opts.kills} is not from 1 to the maximum, {MAX_KILLS}")
    with tempfile.TemporaryDirectory(prefix="companion-crashtest-") as tmp:
        path = Path(opts.path) if opts.path else Path(tmp) / "journal.sqlite3"
        try:
            report = run(path, opts.kills, opts.seed, log=sys.stderr)
        except CrashTestFailure as exc:
            print(f"FAILED: {exc}", file=sys.stderr)
            return 1
    print(json_text(report.__dict__) if opts.json else report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
