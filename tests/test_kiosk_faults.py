"""Faults become screens, not crashes: every journal error on screen in the table's language
with what to do, anything unexpected on an error screen with a Restart button and its
traceback on standard error, and names that cannot break what shows them."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pygame
import pytest

from companion.engine import CHANCE, get_game
from companion.engine.simulate import sample
from companion.journal import Journal, JournalDataError
from companion.kiosk.app import App
from companion.kiosk.guard import FaultScreen
from companion.kiosk.screens.end import EndScreen
from companion.kiosk.screens.game import open_game
from companion.kiosk.screens.history import GamesScreen
from companion.kiosk.screens.home import HomeScreen
from companion.kiosk.screenshots import find_prefixes
from companion.pillars.kiosk.screen import PillarsScreen
from tests.kiosk_helpers import find, handed_out, keys, make_app, tap


def game_at(app: App, step: str) -> None:
    setup, actions = find_prefixes("pillars", [step])[step]
    assert app.journal is not None
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    open_game(app)
    app.render(force=True)
    handed_out(app)


def finished_game(journal: Journal, seed: int, names: tuple[str, ...] | None = None) -> int:
    """Play a seeded random Pillars game to its end in ``journal``; its id."""
    game = get_game("pillars")
    setup = game.setup(4)
    if names is not None:
        from dataclasses import replace

        setup = replace(
            setup,
            players=tuple(replace(p, name=n) for p, n in zip(setup.players, names, strict=True)),
        )
    session = journal.start(setup, seed=seed)
    rng = random.Random(seed)
    while not session.is_over():
        state = session.state
        if game.current_player(state) == CHANCE:
            session.play(sample(game.chance_outcomes(state), rng))
        else:
            session.play(rng.choice(game.legal_actions(state)))
    return session.id


# -- journal errors ------------------------------------------------------------------------


def test_a_full_disk_is_a_message_in_the_tables_language_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    """SQLite's max_page_count makes the journal file unable to grow: the same SQLITE_FULL
    a full SD card gives."""
    app = make_app(tmp_path, language="zh")
    game_at(app, "draw")
    assert app.journal is not None and app.session is not None
    conn = app.journal._db()
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
    game = app.session.game
    rng = random.Random(5)
    for _ in range(2000):
        state = app.session.state
        entries = app.session.entries
        if game.current_player(state) == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = rng.choice(game.legal_actions(state))
        if not app.play(action):
            break
    else:
        pytest.fail("the journal never filled up")
    app.render()
    assert isinstance(app.screen, PillarsScreen)  # the table stays on its game
    assert app.toast_text is not None and "存储空间已满" in app.toast_text
    assert app.session.state is state and app.session.entries == entries
    assert len(app.journal.entries(app.session.id)) == entries  # nothing half-written
    conn.execute("PRAGMA max_page_count = 1073741823")  # space freed: the same action goes in
    assert app.play(action)


def test_another_writer_holding_the_journal_is_a_message(tmp_path: Path) -> None:
    app = make_app(tmp_path, language="ja")
    game_at(app, "draw")
    assert app.journal is not None and app.session is not None
    app.journal._db().execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(tmp_path / "journal.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        state = app.session.state
        game = app.session.game
        action = sample(game.chance_outcomes(state), random.Random(1))
        assert not app.play(action)
        assert app.toast_text is not None and "別のプログラムが記録を使っています" in app.toast_text
        assert app.session.state is state
        # a new game cannot be written either: the fault screen says so, the kiosk goes on
        app.show(HomeScreen(app))
        app.render(force=True)
        tap(app, "new")
        tap(app, "start")
        assert isinstance(app.screen, FaultScreen)
        assert "別のプログラム" in app.screen.texts()[0]
    finally:
        other.execute("ROLLBACK")
        other.close()
    tap(app, "home")
    assert isinstance(app.screen, HomeScreen)


def test_rows_that_do_not_parse_leave_the_other_games_usable(tmp_path: Path) -> None:
    """``UPDATE games SET scores='oops'``: home, history and the end screen used to raise."""
    journal = Journal.open(tmp_path / "journal.sqlite3")
    good = finished_game(journal, 1)
    bad = finished_game(journal, 2)
    unfinished = journal.start(get_game("pillars").setup(3), seed=3).id
    broken = journal.start(get_game("pillars").setup(2), seed=4).id
    journal._db().execute("UPDATE games SET scores = 'oops' WHERE id IN (?, ?)", (bad, broken))
    journal.close()
    app = make_app(tmp_path, language="zh")
    assert isinstance(app.screen, HomeScreen)
    app.render(force=True)
    assert "new" in keys(app)
    assert app.toast_text is not None and "游戏记录中有一局无法读取" in app.toast_text
    # the broken game was the most recent unfinished one: the other one is still listed
    assert "others" in keys(app) or "resume" in keys(app)
    tap(app, "history")
    assert isinstance(app.screen, GamesScreen)
    assert f"game {good}" in keys(app) and f"game {bad}" not in keys(app)
    tap(app, f"game {good}")
    assert isinstance(app.screen, EndScreen)
    del unfinished


def test_a_game_that_no_longer_replays_is_a_fault_screen_with_a_way_home(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    setup, actions = find_prefixes("pillars", ["place"])["place"]
    session = journal.start(setup, seed=0)
    for a in actions:
        session.play(a)
    journal._db().execute(
        "UPDATE entries SET text = 'take nonsense' WHERE game_id = ? AND seq = 3", (session.id,)
    )
    journal.close()
    app = make_app(tmp_path, language="ja")
    tap(app, "resume")
    assert isinstance(app.screen, FaultScreen)
    what, todo = app.screen.texts()
    assert what == "記録の中に読めないゲームがあります" and "新しいゲーム" in todo
    assert isinstance(app.screen.error, JournalDataError)
    assert "home" in keys(app) and "restart" not in keys(app)
    tap(app, "home")
    assert isinstance(app.screen, HomeScreen)
    assert app.session is None


# -- anything unexpected ---------------------------------------------------------------------


class Boom(Exception):
    pass


def test_an_unexpected_error_shows_a_restart_button_and_logs_the_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path)
    restarted: list[bool] = []
    app.restart_hook = lambda: restarted.append(True)

    def explode(self: object) -> None:
        raise Boom("the settings screen fell over")

    from companion.kiosk.screens.settings import SettingsScreen

    monkeypatch.setattr(SettingsScreen, "on_show", explode)
    tap(app, "settings")  # the error comes from handling the tap
    assert isinstance(app.screen, FaultScreen)
    assert "restart" in keys(app)
    err = capsys.readouterr().err
    assert "Traceback" in err and "Boom: the settings screen fell over" in err
    tap(app, "restart")
    assert restarted == [True]
    assert app.journal is not None and app.journal.closed
    assert not app.running


def test_a_screen_that_fails_to_draw_gives_way_to_the_fault_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path)

    def explode(self: object, surface: pygame.Surface) -> None:
        raise ZeroDivisionError("drawing")

    monkeypatch.setattr(HomeScreen, "render", explode)
    app.dirty = True
    assert app.render()
    assert isinstance(app.screen, FaultScreen)
    assert "restart" in keys(app) and find(app, "restart").rect.width > 0


def test_time_and_the_main_loop_are_guarded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path)

    def explode(self: object, dt: float) -> bool:
        raise RuntimeError("tick")

    monkeypatch.setattr(HomeScreen, "update", explode)
    app.run(max_passes=3)
    assert isinstance(app.screen, FaultScreen)


def test_a_fault_on_the_fault_screen_ends_the_kiosk_instead_of_looping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path)
    app.show(FaultScreen(app, RuntimeError("first")))

    def explode(self: object, surface: pygame.Surface) -> None:
        raise RuntimeError("second")

    monkeypatch.setattr(FaultScreen, "render", explode)
    with pytest.raises(RuntimeError, match="second"):
        app.render(force=True)


# -- names -----------------------------------------------------------------------------------

NASTY = (
    "Al\x00ice",
    "\x1b[2J\x1b[31mRed",
    "\u202eevil\u202c name",
    "x" * 5000,
)


def test_nasty_names_on_the_end_screen_and_the_qr_code(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    game_id = finished_game(journal, 7, NASTY)
    link = journal.bgstats_link(game_id)
    journal.close()
    from urllib.parse import unquote

    data = unquote(link.split("data=", 1)[1])
    assert "\x00" not in data and "\x1b" not in data and "\u202e" not in data
    assert "x" * 41 not in data  # names are cut to 40 characters
    app = make_app(tmp_path)
    app.show(EndScreen(app, game_id))
    app.render(force=True)
    assert isinstance(app.screen, EndScreen) and app.screen.link == link
    assert "qr" in keys(app)


def test_a_link_too_long_for_a_qr_code_leaves_a_note_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    game_id = finished_game(journal, 8)
    journal.close()
    monkeypatch.setattr(Journal, "bgstats_link", lambda self, gid: "x" * 8000)
    app = make_app(tmp_path)
    app.show(EndScreen(app, game_id))
    app.render(force=True)
    assert isinstance(app.screen, EndScreen) and app.screen.link is None
    assert "companion export" in app.screen.qr_note and "qr" not in keys(app)
