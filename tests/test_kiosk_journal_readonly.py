"""A read-only card (issue 51, item 5): a journal that cannot be written is named as read-only
when it is opened (not "unable to open database file", nor a failure at the first tap), and
the kiosk tries it again from its loop, like a journal another program holds, so it starts
once the card can be written, without a restart.  A journal error that comes again and again
(a full card fails every tap) is logged once, then counted.

How a file is made read-only here: the tests may run as root, whom ``chmod`` does not stop, so
SQLite itself is made to open the journal read-only (``mode=ro`` in its URI, for every
connection that would write it): SQLite then refuses every write with SQLITE_READONLY, as on
a card whose lock switch is on.  (A read-only mount, as the audit does, was run by hand: see
the branch's report.)"""

from __future__ import annotations

import hashlib
import random
import sqlite3
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.engine import CHANCE, get_game
from companion.engine.simulate import sample
from companion.journal import Journal, JournalError
from companion.kiosk.app import JOURNAL_RETRY_SECONDS, App
from companion.kiosk.config import Config
from companion.kiosk.config import save as save_config
from tests import kiosk_helpers  # noqa: F401 - SDL's dummy drivers
from tests.kiosk_helpers import make_app, start_while_held

Capsys = pytest.CaptureFixture[str]


class ReadOnlyCard:
    """While ``on``, every connection that would write the journal at ``path`` is opened by
    SQLite read-only (``mode=ro``); the read-only connections are left as they are."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
        self.path = path
        self.on = True
        real = sqlite3.connect

        def connect(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
            if self.on and not kwargs.get("uri") and Path(database) == path:
                return real(path.absolute().as_uri() + "?mode=ro", *args, uri=True, **kwargs)
            return real(database, *args, **kwargs)

        monkeypatch.setattr(sqlite3, "connect", connect)


def digest(path: Path) -> tuple[str, bytes]:
    """The journal's bytes, and its write-ahead log's (SQLite's readers may make an empty one
    and its index where they can, even read-only: they hold nothing)."""
    wal = path.with_name(path.name + "-wal")
    return (hashlib.sha256(path.read_bytes()).hexdigest(),
            wal.read_bytes() if wal.exists() else b"")


def test_a_read_only_journal_is_named_at_open_and_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.journal.errors import JournalReadOnly

    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        journal.start(get_game("pillars").setup(2), seed=1)
    before = digest(path)
    ReadOnlyCard(monkeypatch, path)
    with pytest.raises(JournalReadOnly) as caught:
        Journal.open(path, busy_timeout=0.05)
    text = str(caught.value)
    assert f"the journal {path} is read-only" in text and "unable to open" not in text
    assert digest(path) == before  # nothing written or moved
    assert {p.name for p in tmp_path.iterdir()} <= {
        "journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm"}


def test_a_read_only_card_at_start_is_tried_again_until_it_can_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    from companion.kiosk.screens.home import ErrorScreen, HomeScreen

    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    cfg = tmp_path / "config.toml"
    save_config(Config(journal=str(path), sound=False, language="zh"), cfg)
    card = ReadOnlyCard(monkeypatch, path)

    def unlock() -> None:  # the card's lock switch is off again
        card.on = False

    def play(app: App, seen: dict[str, Any]) -> None:
        assert app.journal is not None
        app.session = app.journal.start(get_game("pillars").setup(2), seed=1)
        seen["played"] = app.play(next_action(app, random.Random(1)))

    pygame.init()
    seen = start_while_held(monkeypatch, cfg, unlock, play)
    assert isinstance(seen["first"], ErrorScreen)
    assert "无法写入游戏记录" in seen["message"] and "只读" in seen["message"]  # read-only
    assert "每隔几秒会再试一次" in seen["message"]  # and it tries again
    assert seen["retry"] < 0.25
    assert isinstance(seen["still"], ErrorScreen)
    assert isinstance(seen["then"], HomeScreen)
    assert "游戏记录又可以写入了。" in seen["toasts"]  # (after the camera's notice)
    assert seen["played"] is True
    err = capsys.readouterr().err
    assert f"the journal {path} is read-only" in err and "unable to open" not in err
    with Journal.open(path, read_only=True) as journal:
        assert journal.games()[0].actions == 1


def test_another_fault_while_waiting_is_shown_and_not_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read-only at start, then the file is replaced by something that is no journal at all
    and cannot be moved aside: that fault is shown, and the waiting ends."""
    from companion.kiosk.journal_watch import JournalWatch

    calls: list[int] = []

    def opener() -> Journal:
        calls.append(1)
        raise JournalError("the journal x cannot be used and cannot be moved aside")

    app = make_app(tmp_path)
    app.journal = None
    app.journal_watch = JournalWatch(app, opener)
    app.go("error", message="read-only")
    app.tick(JOURNAL_RETRY_SECONDS + 0.1)
    app.tick(JOURNAL_RETRY_SECONDS + 0.1)
    assert len(calls) == 1 and "cannot be moved aside" in getattr(app.screen, "message", "")


# -- a repeated journal error ----------------------------------------------------------------


def next_action(app: App, rng: random.Random) -> Any:
    assert app.session is not None
    game, state = app.session.game, app.session.state
    if game.current_player(state) == CHANCE:
        return sample(game.chance_outcomes(state), rng)
    return rng.choice(game.legal_actions(state))


def fill_up(app: App, rng: random.Random) -> Any:
    """Play into the app's journal, its file unable to grow (SQLITE_FULL, as a full card),
    until a tap fails; that action."""
    assert app.journal is not None and app.session is not None
    conn = app.journal._db()
    conn.execute("PRAGMA synchronous = OFF")  # (a test's journal: no flushes)
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
    for _ in range(2000):
        action = next_action(app, rng)
        if not app.play(action):
            return action
    pytest.fail("the journal never filled up")


def test_a_full_card_is_logged_once_then_counted(tmp_path: Path, capsys: Capsys) -> None:
    app = make_app(tmp_path)
    assert app.journal is not None
    now = [100.0]
    app.journal_errors.clock = lambda: now[0]
    app.session = app.journal.start(get_game("pillars").setup(3), seed=2)
    rng = random.Random(5)
    action = fill_up(app, rng)
    for _ in range(300):  # the audit's taps: each refused, none logged again
        now[0] += 0.01
        assert not app.play(action)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion: journal error, shown on screen: ")
    assert "database or disk is full" in err
    now[0] += 60  # a minute on: the count so far, with the next tap
    assert not app.play(action)
    err = capsys.readouterr().err
    assert err.startswith("companion: journal error repeated 301 times in 63 s: the journal ")
    assert err.count("\n") == 1
    for _ in range(4):
        assert not app.play(action)
    app.journal._db().execute("PRAGMA max_page_count = 1073741823")  # space freed
    assert app.play(action)
    assert capsys.readouterr().err == (
        "companion: journal error repeated 4 times in 0 s, then the journal worked again: "
        + err.split(": ", 2)[2]
    )
    assert app.play(next_action(app, rng))
    assert capsys.readouterr().err == ""  # working: nothing more to say


def test_another_error_or_the_end_writes_the_count(capsys: Capsys) -> None:
    from companion.kiosk.guard import JournalErrorLog

    now = [0.0]
    log = JournalErrorLog(clock=lambda: now[0])
    for _ in range(3):
        now[0] += 1
        log.error(JournalError("disk full"))
    log.error(JournalError("I/O error"))
    log.error(JournalError("I/O error"))
    log.ended(", until the kiosk ended")
    log.ended()
    assert capsys.readouterr().err.splitlines() == [
        "companion: journal error, shown on screen: disk full",
        "companion: journal error repeated 2 times in 2 s, then another error: disk full",
        "companion: journal error, shown on screen: I/O error",
        "companion: journal error repeated 1 times in 0 s, until the kiosk ended: I/O error",
    ]
