"""A second writer never freezes the kiosk (issue 24, item 4): with another process holding
the journal's write lock, a tap costs the main loop a frame or two, the screen says the journal
is busy and what to do, the watchdog keeps hearing from the loop, and at start a held journal
is tried again until it opens."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import pygame
import pytest

from companion.engine import CHANCE, get_game
from companion.engine.simulate import sample
from companion.journal import Journal
from companion.kiosk.app import App
from companion.kiosk.config import Config
from companion.kiosk.config import save as save_config
from companion.kiosk.inputs import Tap
from companion.main import open_journal
from tests import kiosk_helpers  # noqa: F401 - SDL's dummy drivers
from tests.kiosk_helpers import start_while_held

BUSY_TEXT = "Another program is using the journal"


class Holder:
    """Another program holding the journal's write lock (BEGIN IMMEDIATE)."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.conn.execute("ROLLBACK")
        self.conn.close()


def kiosk(tmp_path: Path) -> App:
    """The app with its journal opened as ``companion.main`` opens it, a Pillars game going."""
    pygame.init()
    config = Config(sound=False, journal=str(tmp_path / "journal.sqlite3"))
    journal = open_journal(config)
    app = App(config, size=(800, 480), fullscreen=False, journal=journal,
              config_path=tmp_path / "config.toml", seed=1)
    game = get_game("pillars")
    app.session = journal.start(game.setup(2), seed=0)
    app.render(force=True)
    return app


def next_action(app: App) -> object:
    assert app.session is not None
    game, state = app.session.game, app.session.state
    if game.current_player(state) == CHANCE:
        return sample(game.chance_outcomes(state), random.Random(1))
    return game.legal_actions(state)[0]


def test_a_tap_while_another_program_writes_costs_a_frame_or_two(tmp_path: Path) -> None:
    app = kiosk(tmp_path)
    assert app.session is not None
    holder = Holder(tmp_path / "journal.sqlite3")
    try:
        worst = 0.0
        for _ in range(3):  # the audit's three taps: 31.4 s, past the watchdog
            action = next_action(app)
            t0 = time.monotonic()
            assert not app.play(action)
            worst = max(worst, time.monotonic() - t0)
            assert app.toast_text is not None and BUSY_TEXT in app.toast_text
            assert "then try again" in app.toast_text
        assert worst < 0.25, f"a tap stalled the loop {worst:.3f} s"
        assert app.session.entries == 0
    finally:
        holder.release()
    assert app.play(next_action(app))  # free again: the same tap goes in
    assert app.session.entries == 1


def test_the_watchdog_hears_from_the_loop_while_the_journal_is_held(tmp_path: Path) -> None:
    app = kiosk(tmp_path)
    pings: list[float] = []

    class Notifier:
        def ready(self) -> None:
            pass

        def stopping(self) -> None:
            pass

        def tick(self) -> None:
            pings.append(time.monotonic())

    app.notifier = Notifier()  # type: ignore[assignment]
    taps: list[float] = []

    def handle(inp: object) -> None:  # every tap plays the next action
        if isinstance(inp, Tap):
            taps.append(time.monotonic())
            app.play(next_action(app))

    app.screen.handle = handle  # type: ignore[method-assign]
    holder = Holder(tmp_path / "journal.sqlite3")
    try:
        for _ in range(3):
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(5, 5), button=1))
        app.run(max_passes=20)
    finally:
        holder.release()
    assert len(taps) == 3
    gaps = [b - a for a, b in zip(pings, pings[1:], strict=False)]
    assert max(gaps) < 0.5, f"the loop went {max(gaps):.3f} s without a pass"
    assert app.toast_text is not None and BUSY_TEXT in app.toast_text


def test_a_journal_held_at_start_opens(tmp_path: Path) -> None:
    """The schema is current: opening takes no write lock, so a writer elsewhere is no bar."""
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    holder = Holder(path)
    try:
        t0 = time.monotonic()
        journal = open_journal(Config(journal=str(path)))
        assert time.monotonic() - t0 < 1.0
        journal.close()
    finally:
        holder.release()


def v1_journal(path: Path) -> None:
    """A journal of schema version 1: opening it migrates, which needs the write lock."""
    from companion.journal.schema import APPLICATION_ID, MIGRATIONS

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    for statement in MIGRATIONS[0].statements:
        conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.close()


def test_a_journal_held_at_start_is_tried_again_until_it_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.kiosk.screens.home import ErrorScreen, HomeScreen

    path = tmp_path / "journal.sqlite3"
    v1_journal(path)
    cfg = tmp_path / "config.toml"
    save_config(Config(journal=str(path), sound=False), cfg)
    holder = Holder(path)
    seen = start_while_held(monkeypatch, cfg, holder.release)
    assert seen["seconds"] < 5
    assert isinstance(seen["first"], ErrorScreen)
    assert BUSY_TEXT in str(seen["message"]) and "tries again" in str(seen["message"])
    assert float(seen["retry"]) < 0.25
    assert isinstance(seen["still"], ErrorScreen)
    assert isinstance(seen["then"], HomeScreen)
    assert seen["journal"] is not None
    with Journal.open(path, read_only=True) as journal:
        assert journal.games() == []
