"""Opening the journal does not grow with its history (issue 24, item 9): it checks what the
start needs, and the whole file is checked in the background once the kiosk is on screen; a
check that finds damage says so, and the next start sets the damaged file aside.

The figure (start to first frame at 10,000 finished games) is measured by
``bench/bench_start.py``, not here."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.journal import Journal
from companion.journal import schema as schema_mod
from companion.kiosk.app import App
from companion.kiosk.config import Config
from tests import kiosk_helpers  # noqa: F401 - SDL's dummy drivers

from .test_journal import finished_game


def traced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SQL statement the journal's connections run from now on."""
    statements: list[str] = []
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(schema_mod.sqlite3, "connect", connect)
    return statements


def test_opening_checks_the_start_tables_not_the_whole_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        finished_game(journal, "pillars", seed=1)
    statements = traced(monkeypatch)
    Journal.open(path).close()
    checks = [s for s in statements if "quick_check" in s or "integrity_check" in s]
    assert checks == ["PRAGMA quick_check(meta)", "PRAGMA quick_check(games)"]


def damage_entries(path: Path) -> None:
    """Garble the last pages of the file: the entries of the history, not what the start
    reads."""
    data = bytearray(path.read_bytes())
    size = 4096
    pages = len(data) // size
    for page in range(pages - 3, pages - 1):
        data[page * size + 100 : (page + 1) * size] = b"\xa5" * (size - 100)
    path.write_bytes(bytes(data))


def journal_with_history(path: Path) -> None:
    with Journal.open(path) as journal:
        finished_game(journal, "builders", 2, 1)
    conn = sqlite3.connect(path, isolation_level=None)
    for _ in range(4):  # more history, fast: the game's entries again under new ids
        conn.execute("INSERT INTO games (game, setup, seed, status, started, updated, ended, "
                     "touched, actions, period, scores, winners) SELECT game, setup, seed, "
                     "status, started, updated, ended, touched + 1, actions, period, scores, "
                     "winners FROM games WHERE id = 1")
        conn.execute("INSERT INTO entries (game_id, seq, kind, text, time) "
                     "SELECT last_insert_rowid(), seq, kind, text, time "
                     "FROM entries WHERE game_id = 1")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
    conn.close()


def test_damage_in_the_history_is_found_by_the_full_check_and_set_aside_next_time(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    journal_with_history(path)
    damage_entries(path)
    with Journal.open(path) as journal:  # the start is not held up
        assert journal.notice is None
        problems = journal.check()
        assert problems, "the full check sees the garbled pages"
    assert schema_mod.check_mark(path).exists()
    with Journal.open(path) as journal:  # the next start checks everything first
        assert journal.notice is not None and "damage" in journal.notice
        assert journal.games() == []
    assert list(tmp_path.glob("journal.sqlite3.damaged-*"))
    assert not schema_mod.check_mark(path).exists()


def test_a_clean_full_check_leaves_no_note(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal_with_history(path)
    with Journal.open(path) as journal:
        assert journal.check() == []
    assert not schema_mod.check_mark(path).exists()


def test_the_kiosk_checks_the_journal_after_its_first_frame_and_says_what_it_found(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    journal_with_history(path)
    damage_entries(path)
    pygame.init()
    journal = Journal.open(path)
    app = App(Config(sound=False), size=(800, 480), fullscreen=False, journal=journal,
              config_path=tmp_path / "config.toml")
    app.run(max_passes=1)  # the first frame, then the check starts in its thread
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not (app.toast_text or "").startswith(
        "The journal's check found damage"
    ):
        time.sleep(0.02)
        app.tick(0.02)
    assert app.toast_text is not None and "Copy the journal" in app.toast_text
    journal.close()
