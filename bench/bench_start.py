"""The kiosk's start with a long history; prints its figures (no assertion).

    .venv/bin/python bench/bench_start.py [--history 10000] [--dir DIR] [--runs 3]

Builds a journal of ``--history`` finished games (half Pillars, half Builders, 4 players, one
unfinished game on top, as a table that has played for years would have) and measures:

- opening the journal (``Journal.open`` as the kiosk opens it), in this process;
- start to first frame: ``companion kiosk`` started as a process (SDL's dummy video driver),
  until it tells systemd READY=1, which the main loop sends after its first frame is on screen;
  that is Python's start, the imports, the settings, the journal, the window and the home
  screen's first frame.

A few dozen real games are played through the journal (rules and all); the rest of the history
repeats their rows under new ids in one transaction, so a 10,000-game journal (~300 MB) takes
about a minute to build, not days.  With ``--dir`` the journal is kept there and reused by the
next run with the same ``--history``.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.engine import get_game
from companion.engine.simulate import random_game
from companion.journal import Journal

TEMPLATES = 40
"""Real games played through the journal; the history repeats them."""


def build(path: Path, history: int) -> None:
    """A journal at ``path`` with ``history`` finished games and one unfinished game."""
    with Journal.open(path) as journal:
        for k in range(min(TEMPLATES, history)):
            game = get_game(("pillars", "builders")[k % 2])
            setup = game.setup(4)
            _, actions = random_game(game, setup, random.Random(k))
            jg = journal.start(setup, k)
            for a in actions:
                jg.play(a)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN IMMEDIATE")
    columns = ("game, setup, seed, status, started, updated, ended, touched, actions, period, "
               "scores, winners, companions")
    for n in range(history - min(TEMPLATES, history)):
        template = n % TEMPLATES + 1
        cur = conn.execute(
            f"INSERT INTO games ({columns}) SELECT {columns.replace('touched', '0')} FROM games "
            "WHERE id = ?", (template,),
        )
        new = cur.lastrowid
        conn.execute("UPDATE games SET touched = ? WHERE id = ?", (new, new))
        conn.execute(
            "INSERT INTO entries (game_id, seq, kind, text, time) SELECT ?, seq, kind, text, "
            "time FROM entries WHERE game_id = ?", (new, template),
        )
        conn.execute(
            "INSERT INTO periods (game_id, period, scores) SELECT ?, period, scores FROM "
            "periods WHERE game_id = ?", (new, template),
        )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    with Journal.open(path) as journal:  # an unfinished game on top: the home screen's Resume
        game = get_game("pillars")
        setup = game.setup(4)
        _, actions = random_game(game, setup, random.Random(99))
        jg = journal.start(setup, 99)
        for a in actions[:120]:
            jg.play(a)


def first_frame(config: Path, runs: int) -> list[float]:
    """Seconds from starting ``companion kiosk`` to its READY=1 (sent after the first frame)."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="bench-start-") as tmp:
            address = str(Path(tmp) / "notify")
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.bind(address)
            sock.settimeout(60)
            env = {
                **os.environ,
                "NOTIFY_SOCKET": address,
                "SDL_VIDEODRIVER": "dummy",
                "SDL_AUDIODRIVER": "dummy",
                "PYGAME_HIDE_SUPPORT_PROMPT": "1",
            }
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "kiosk", "--windowed", "--config",
                 str(config)],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )
            try:
                while True:
                    message = sock.recv(4096).decode()
                    if "READY=1" in message:
                        times.append(time.perf_counter() - t0)
                        break
            finally:
                proc.kill()
                proc.wait()
                sock.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--history", type=int, default=10_000, help="finished games")
    parser.add_argument("--dir", help="keep the journal in DIR (reused when it is there)")
    parser.add_argument("--runs", type=int, default=3, help="starts to time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-start-") as tmp:
        folder = Path(args.dir) if args.dir else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"history-{args.history}.sqlite3"
        if not path.exists():
            t0 = time.perf_counter()
            build(path, args.history)
            print(f"built {path} in {time.perf_counter() - t0:.1f} s")
        with Journal.open(path, read_only=True) as journal:
            page = journal.page("finished", 0, 1)
        size = path.stat().st_size
        print(f"journal: {page.total} finished games, {size / 1e6:.0f} MB")
        opens = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            Journal.open(path, busy_timeout=0.05).close()
            opens.append(time.perf_counter() - t0)
        print(f"opening it (Journal.open as the kiosk does): median "
              f"{statistics.median(opens) * 1000:.0f} ms, max {max(opens) * 1000:.0f} ms")
        config = folder / "config.toml"
        config.write_text(f'[kiosk]\nsound = false\njournal = "{path}"\n', encoding="utf-8")
        times = first_frame(config, args.runs)
        print(f"start to first frame (companion kiosk, {args.history} finished games): median "
              f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
              f"over {len(times)} starts")


if __name__ == "__main__":
    main()
