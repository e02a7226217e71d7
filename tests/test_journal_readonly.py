"""The commands that only read (``games``, ``export``, ``replay ID``) read a journal a writer
holds, or one a crash left with its ``-wal``, and create, rename or delete nothing beside it
(issue 24, items 5 and 6)."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal, JournalError
from companion.journal.schema import APPLICATION_ID, read_header

Capsys = pytest.CaptureFixture[str]

ROOT = Path(__file__).resolve().parents[1]

WRITER = textwrap.dedent(
    """
    import os, random, signal, sys
    from companion.engine import CHANCE, get_game
    from companion.engine.simulate import sample
    from companion.journal import Journal

    path, actions, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    journal = Journal.open(path)
    game = get_game("pillars")
    jg = journal.start(game.setup(2), seed=3)
    rng = random.Random(3)
    for _ in range(actions):
        s = jg.state
        if game.current_player(s) == CHANCE:
            jg.play(sample(game.chance_outcomes(s), rng))
        else:
            jg.play(rng.choice(game.legal_actions(s)))
    if mode == "hold":  # keep the journal open, holding its write lock, until killed
        journal._db().execute("BEGIN IMMEDIATE")
        print("holding", flush=True)
        sys.stdin.read()
    os.kill(os.getpid(), signal.SIGKILL)  # a crash: no close, no checkpoint
    """
)


def crashed_writer(path: Path, actions: int = 25) -> None:
    """A writer that started a game, played ``actions`` actions and was SIGKILLed."""
    proc = subprocess.run(
        [sys.executable, "-c", WRITER, str(path), str(actions), "kill"],
        cwd=ROOT, capture_output=True, timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()


def listing(folder: Path) -> dict[str, str]:
    """Every file of ``folder`` with a digest of its bytes (for a ``-shm``, SQLite's shared
    index that any reader may update, only that it is there)."""
    return {
        p.name: "index" if p.name.endswith("-shm") else hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
    }


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def read_everything(capsys: Capsys, path: Path) -> None:
    """games, export and replay of game 1 all answer from the journal at ``path``."""
    code, out, err = run(capsys, "games", "--journal", str(path))
    assert code == 0, err
    assert "pillars" in out and "playing" in out, out
    assert "25 actions" in out, out
    code, out, err = run(capsys, "export", "1", "--journal", str(path))
    assert code == 0, err
    assert '"actions"' in out
    code, out, err = run(capsys, "replay", "1", "--journal", str(path), "--json")
    assert code == 0, err
    assert '"actions": 25' in out


def test_a_journal_a_crash_left_with_its_wal_is_read_and_nothing_is_made(
    capsys: Capsys, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite3"
    crashed_writer(path)
    names = set(listing(tmp_path))
    assert names == {"journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm"}
    before = listing(tmp_path)
    read_everything(capsys, path)
    assert listing(tmp_path) == before


def test_a_wal_without_its_shm_is_read_and_no_shm_is_made(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    crashed_writer(path)
    (tmp_path / "journal.sqlite3-shm").unlink()
    before = listing(tmp_path)
    read_everything(capsys, path)
    assert listing(tmp_path) == before  # no 32 KiB -shm appeared


def test_a_journal_held_by_a_live_writer_is_read(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), "25", "hold"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"holding"
        names = set(listing(tmp_path))
        read_everything(capsys, path)
        assert set(listing(tmp_path)) == names
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_new_journal_is_marked_in_its_header_at_once(tmp_path: Path) -> None:
    """The mark is in the main file from the start, not only after the first checkpoint."""
    path = tmp_path / "journal.sqlite3"
    crashed_writer(path, actions=3)
    header = read_header(path)
    assert header is not None and header.application_id == APPLICATION_ID


def test_an_unmarked_journal_is_recognised_by_its_schema(capsys: Capsys, tmp_path: Path) -> None:
    """A journal made before the header was marked at creation, never checkpointed since:
    recognised by its tables."""
    path = tmp_path / "journal.sqlite3"
    crashed_writer(path)
    with open(path, "r+b") as f:  # as the old companion left it: no mark in the main file
        f.seek(68)
        f.write(b"\0\0\0\0")
    conn = sqlite3.connect(path.absolute().as_uri() + "?mode=ro", uri=True)
    conn.close()
    before = listing(tmp_path)
    code, out, err = run(capsys, "games", "--journal", str(path))
    assert code == 0, err
    assert "25 actions" in out
    assert listing(tmp_path) == before


def test_another_programs_database_with_a_wal_is_still_refused(
    capsys: Capsys, tmp_path: Path
) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE games (id INTEGER)")
    conn.commit()
    before = listing(tmp_path)
    code, out, err = run(capsys, "games", "--journal", str(path))
    assert code == 1 and "not a companion journal" in err
    assert out == ""
    with pytest.raises(JournalError, match="not a companion journal"):
        Journal.open(path, read_only=True)
    assert listing(tmp_path) == before
    conn.close()


def test_a_fifo_as_the_journal_is_refused_at_once(capsys: Capsys, tmp_path: Path) -> None:
    import time

    path = tmp_path / "journal.sqlite3"
    os.mkfifo(path)
    for argv in (["games"], ["export", "1"], ["replay", "1"]):
        t0 = time.monotonic()
        code, out, err = run(capsys, *argv, "--journal", str(path))
        assert code == 1 and "not a regular file" in err, (argv, err)
        assert time.monotonic() - t0 < 2
    t0 = time.monotonic()
    with pytest.raises(JournalError, match="not a regular file"):
        Journal.open(path)
    assert time.monotonic() - t0 < 2
    assert [p.name for p in tmp_path.iterdir()] == ["journal.sqlite3"]


def test_a_stale_shm_without_a_wal_makes_no_wal(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    crashed_writer(path)
    with Journal.open(path):  # a clean close: the log is folded in and removed
        pass
    (tmp_path / "journal.sqlite3-shm").write_bytes(b"\0" * 32768)  # left behind somehow
    before = listing(tmp_path)
    code, out, err = run(capsys, "games", "--journal", str(path))
    assert code == 0, err
    assert "25 actions" in out
    assert listing(tmp_path) == before
