"""The action log screen (issue 13): one tap from every game screen and back to it as it was,
the game so far in the table's language, newest first under round or turn headings, scrolled
by dragging, by a flick that slows down, and by buttons; a drag never taps what it starts on.
Through the input layer (touch events on SDL's dummy driver), with the overflow check."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.kiosk import i18n, ui
from companion.kiosk.gamelog import log_entries
from companion.kiosk.gestures import HOLD_SECONDS, Gestures
from companion.kiosk.inputs import Drag, Fling, Hold, Pointer, Tap
from companion.kiosk.screens.log import LogScreen
from companion.kiosk.words import words_for
from tests.kiosk_helpers import drag, enter, find, make_app, position, press, tap, wait
from tests.sweeps import covered, ids

LANGUAGES = ("en", "zh", "ja")
SIZES = ((800, 480), (720, 1280))


@pytest.fixture
def drawn() -> Iterator[list[str]]:
    ui.DRAWN = []
    ui.OVERFLOWS.clear()
    try:
        yield ui.DRAWN
    finally:
        ui.DRAWN = None
        i18n.set_language("en")


def at(game_name: str, round_or_turn: int) -> tuple[Any, list[str]]:
    """A seeded game of ``game_name`` at the first decision of round (Pillars) or turn
    (Builders) ``round_or_turn``."""
    from companion.engine import get_game

    game = get_game(game_name)

    def stop(state: Any, action: Any, after: Any) -> bool:
        return game.period_of(state).number >= round_or_turn and game.current_player(state) >= 0

    setup, actions, _a = position(game_name, stop, players=3)
    return setup, actions


def open_log(tmp_path: Path, game_name: str, period: int, **app_args: Any) -> Any:
    app = make_app(tmp_path, **app_args)
    setup, actions = at(game_name, period)
    enter(app, setup, actions)
    return app


@pytest.mark.parametrize(("size", "language", "game_name"), covered(
    [(size, lang, name) for size in SIZES for lang in LANGUAGES
     for name in ("pillars", "builders")]),
    ids=ids)  # each size, language and game by default, every combination under -m full
def test_the_log_is_one_tap_away_and_closes_back_to_where_it_was(
    tmp_path: Path, drawn: list[str], game_name: str, language: str, size: tuple[int, int]
) -> None:
    app = open_log(tmp_path, game_name, 3 if game_name == "pillars" else 12, size=size,
                   language=language)
    table = app.screen
    table.help_open = True  # something open on the game screen stays open
    app.render(force=True)
    drawn.clear()
    tap(app, "log", touch=True)
    assert isinstance(app.screen, LogScreen)
    session = app.session
    pt = session.playthrough
    sections = log_entries(session.game, pt.setup, pt.actions)
    newest = sections[0]
    assert newest.heading == words_for(game_name).period_heading(pt.states[-2])
    assert newest.heading in drawn
    # newest first: the last action's words are drawn before those of the one before it
    texts = [e.text for e in newest.entries]
    assert texts[0] in drawn
    later = [t for t in texts if t in drawn]
    assert [drawn.index(t) for t in later] == sorted(drawn.index(t) for t in later)
    assert not ui.OVERFLOWS, ui.OVERFLOWS
    tap(app, "back", touch=True)
    assert app.screen is table and table.help_open
    assert len(app.session.playthrough.actions) == len(pt.actions)  # the log plays nothing


def test_every_game_screen_has_the_log_button(tmp_path: Path) -> None:
    from companion.builders.kiosk.screen import BuildersScreen
    from companion.pillars.kiosk import PillarsScreen

    for game_name, cls in (("pillars", PillarsScreen), ("builders", BuildersScreen)):
        app = open_log(tmp_path / game_name, game_name, 2)
        assert isinstance(app.screen, cls)
        assert find(app, "log").enabled
        tap(app, "log")
        assert isinstance(app.screen, LogScreen)
        press(app, "back")  # the table's BACK button closes it too
        assert isinstance(app.screen, cls)


def test_a_drag_scrolls_and_a_flick_keeps_going_then_stops(tmp_path: Path) -> None:
    app = open_log(tmp_path, "pillars", 4, size=(800, 480))
    tap(app, "log")
    log = app.screen
    assert isinstance(log, LogScreen) and log.max_offset() > 400
    view = log.view
    x = view.centerx
    # a slow drag moves the list with the finger, and stops with it
    drag(app, (x, view.bottom - 20), (x, view.bottom - 220), seconds=1.0, steps=20, pause=0.3)
    assert log.offset == pytest.approx(200, abs=2)
    assert log.speed == 0 and not log.animating()
    # a flick keeps going, slows down, and stops
    drag(app, (x, view.bottom - 20), (x, view.bottom - 120), seconds=0.08, steps=4)
    assert log.speed > 0
    moved = log.offset
    wait(app, 0.3)
    assert log.offset > moved + 20
    wait(app, 4.0)
    assert log.speed == 0
    assert 0 < log.offset <= log.max_offset()
    # dragging the other way past the newest stops at the newest
    drag(app, (x, view.top + 20), (x, view.bottom - 5), seconds=0.5, steps=10, pause=0.3)
    drag(app, (x, view.top + 20), (x, view.bottom - 5), seconds=0.5, steps=10, pause=0.3)
    drag(app, (x, view.top + 20), (x, view.bottom - 5), seconds=0.5, steps=10, pause=0.3)
    assert log.offset >= 0
    drag(app, (x, view.top + 20), (x, view.top + 20 + log.offset + 50), seconds=0.5,
         steps=10, pause=0.3)
    assert log.offset == 0


def test_the_buttons_scroll_too(tmp_path: Path, drawn: list[str]) -> None:
    app = open_log(tmp_path, "builders", 30, size=(720, 1280))
    tap(app, "log")
    log = app.screen
    assert not find(app, "newer").enabled  # at the newest already
    tap(app, "older")
    step = log.view.height * 0.8
    assert log.offset == pytest.approx(step, abs=1)
    tap(app, "older")
    assert log.offset == pytest.approx(min(2 * step, log.max_offset()), abs=1)
    tap(app, "newer")
    tap(app, "latest")
    assert log.offset == 0
    for _k in range(200):
        if not find(app, "older").enabled:
            break
        tap(app, "older")
    assert log.offset == log.max_offset()  # the oldest: the start of the game
    assert not ui.OVERFLOWS, ui.OVERFLOWS


def test_a_drag_that_starts_on_a_button_never_taps_it(tmp_path: Path) -> None:
    app = open_log(tmp_path, "pillars", 3)
    tap(app, "log")
    log = app.screen
    older = find(app, "older").rect
    drag(app, older.center, (older.centerx, older.centery - 150), seconds=0.4)
    assert log.offset == 0  # not scrolled by the button, nor by the drag (outside the list)
    assert isinstance(app.screen, LogScreen)
    back = find(app, "back").rect
    drag(app, back.center, (back.centerx + 200, back.centery + 200), seconds=0.4)
    assert isinstance(app.screen, LogScreen)  # a drag from Back does not go back


def test_the_log_follows_the_language(tmp_path: Path, drawn: list[str]) -> None:
    app = open_log(tmp_path, "pillars", 2)
    tap(app, "log")
    heading_en = app.screen.sections()[0].heading
    tap(app, "language")  # to 简体中文
    assert i18n.language() == "zh"
    app.render(force=True)
    heading_zh = app.screen.sections()[0].heading
    assert heading_zh != heading_en and heading_zh in drawn
    assert not ui.OVERFLOWS, ui.OVERFLOWS


def test_an_empty_log_says_so(tmp_path: Path, drawn: list[str]) -> None:
    from companion.engine import get_game

    app = make_app(tmp_path)
    enter(app, get_game("pillars").setup(2), [])
    tap(app, "log")
    assert app.screen.sections() == []
    assert i18n._("Nothing has happened yet") in drawn


# -- the gestures themselves ---------------------------------------------------------------


def test_a_still_finger_is_a_hold_once_and_its_tap_is_swallowed() -> None:
    g = Gestures(slop=10)
    assert g.feed(Pointer("down", (100, 100)), 0.0) == []
    assert g.tick(HOLD_SECONDS - 0.01) == []
    assert g.feed(Pointer("move", (104, 103)), 0.3) == []  # within the slop
    assert g.tick(HOLD_SECONDS) == [Hold((100, 100))]
    assert g.tick(HOLD_SECONDS + 1) == []  # once
    assert g.feed(Tap((104, 103)), 1.0) == []  # the hold's tap is not taken


def test_a_quick_press_is_the_tap_it_always_was() -> None:
    g = Gestures(slop=10)
    g.feed(Pointer("down", (50, 50)), 0.0)
    assert g.tick(0.1) == []
    assert g.feed(Tap((51, 50)), 0.15) == [Tap((51, 50))]
    # an up with no down (a synthetic tap, or an old driver) is a tap too
    assert g.feed(Tap((5, 5)), 1.0) == [Tap((5, 5))]


def test_a_moving_finger_drags_and_flicks_never_taps_never_holds() -> None:
    g = Gestures(slop=10)
    g.feed(Pointer("down", (100, 300)), 0.0)
    assert g.feed(Pointer("move", (100, 295)), 0.02) == []  # within the slop: nothing yet
    out = g.feed(Pointer("move", (100, 250)), 0.04)
    assert out == [Drag((100, 250), -50, (100, 300))]
    assert g.tick(5.0) == []  # a drag is never a hold
    out = g.feed(Pointer("move", (100, 200)), 0.06)
    assert out == [Drag((100, 200), -50, (100, 300))]
    fling = g.feed(Tap((100, 190)), 0.08)
    assert len(fling) == 1 and isinstance(fling[0], Fling)
    assert fling[0].vy < -1000 and fling[0].start == (100, 300)


NASTY = ("Al\x00ice", "\x1b[2J\x1b[31mRed", "\u202eevil\u202c name", "x" * 5000)


@pytest.mark.parametrize("game_name", ["pillars", "builders"])
def test_nasty_names_in_the_log_and_the_breakdowns(
    tmp_path: Path, drawn: list[str], game_name: str
) -> None:
    from companion.engine import get_game
    from companion.kiosk.breakdown import game_table, period_table

    game = get_game(game_name)
    names = list(NASTY[:3]) if game_name == "pillars" else list(NASTY[1:4])
    setup, actions, _a = position(
        game_name, lambda s, a, n: game.period_of(s).number >= 3, players=3
    )
    nasty = game.setup(names, start_player=setup.start_player, options=dict(setup.options))
    app = make_app(tmp_path)
    app.session = app.journal.start(nasty, seed=0)  # names as an old journal may hold them
    for a in actions:
        app.session.play(a)
    app.go("log")
    app.render(force=True)
    assert isinstance(app.screen, LogScreen) and app.screen.sections()
    state = app.session.state
    texts = [*drawn, *(n for _c, n in game_table(game, state).players),
             *(n for _c, n in period_table(game, state, 1, "t").players)]
    for bad in ("\x00", "\x1b", "\u202e"):
        assert not any(bad in t for t in texts)


@pytest.mark.parametrize("from_history", [False, True])
def test_the_end_screen_opens_the_whole_games_log(
    tmp_path: Path, drawn: list[str], from_history: bool
) -> None:
    from companion.engine import get_game
    from companion.kiosk.screens.end import EndScreen

    game = get_game("builders")
    setup, actions, last = position("builders", lambda s, a, n: n.over, players=2)
    app = make_app(tmp_path)
    enter(app, setup, [*actions, str(last)])
    end = app.screen
    assert isinstance(end, EndScreen)
    if from_history:  # a finished game opened from the history: nothing on the table
        app.session = None
        end = EndScreen(app, end.info.id, back_to_history=True)
        app.show(end)
        app.render(force=True)
    drawn.clear()
    tap(app, "log")
    log = app.screen
    assert isinstance(log, LogScreen)
    record = app.journal.record(end.info.id)
    expected = log_entries(game, record.setup, record.actions)
    assert log.sections() == expected
    assert expected[0].entries[0].text in drawn  # the last action of the game, first
    tap(app, "back")
    assert app.screen is end
    assert not ui.OVERFLOWS, ui.OVERFLOWS


def test_a_game_with_no_words_of_its_own_gets_a_log_and_a_breakdown(tmp_path: Path) -> None:
    """The toy game of the tests (no ledger, no words class): its generic screen still has
    the Log button, the log has its default words, the end screen's breakdown is empty."""
    from companion.kiosk.screens.end import EndScreen
    from companion.kiosk.screens.generic import GenericGameScreen
    from tests.toygame import register_toy, unregister_toy

    register_toy()
    try:
        app = make_app(tmp_path)
        tap(app, "new")
        tap(app, "game sticks")
        tap(app, "players 2")
        tap(app, "start")
        assert isinstance(app.screen, GenericGameScreen)
        for _k in range(3):
            if "virtual" in [b.key for b in app.screen.buttons]:
                press(app, "draw")
            else:
                tap(app, next(b.key for b in app.screen.buttons if b.key.startswith("take ")))
        tap(app, "log")
        assert isinstance(app.screen, LogScreen) and app.screen.sections()
        tap(app, "back")
        assert isinstance(app.screen, GenericGameScreen)
        for _k in range(60):
            if isinstance(app.screen, EndScreen):
                break
            if "virtual" in [b.key for b in app.screen.buttons]:
                press(app, "draw")
            else:
                tap(app, next(b.key for b in app.screen.buttons if b.key.startswith("take ")))
        assert isinstance(app.screen, EndScreen)
        assert all(not s.rows or s.rows[-1].total for s in app.screen.table.sections)
    finally:
        unregister_toy()


@pytest.mark.parametrize("size", SIZES)
def test_the_log_s_rows_are_kept_wherever_it_scrolls(tmp_path: Path, size: tuple[int, int],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The log redrawn or scrolled blits the rows it drew (none is laid out again), and the
    frame is the one drawn with every row afresh."""
    import pygame

    from companion.kiosk.screens import log as log_module

    app = open_log(tmp_path, "pillars", 4, size=size)
    tap(app, "log")
    log = app.screen
    assert isinstance(log, LogScreen) and log.max_offset() > 100
    log.offset = 37.0
    app.render(force=True)
    rows: list[object] = []
    real = log._row
    monkeypatch.setattr(log, "_row", lambda b, w: rows.append(b) or real(b, w))
    app.render(force=True)
    assert rows == []
    log.offset = 80.0  # scrolled: the same rows, elsewhere
    app.render(force=True)
    shown = pygame.image.tobytes(app.surface, "RGB")
    assert len(rows) < 3  # (only the rows scrolled into view)
    log_module.ROWS.clear()
    app.render(force=True)
    assert len(rows) > 5 and pygame.image.tobytes(app.surface, "RGB") == shown
