"""Screens made ahead (``companion.kiosk.screens.prepare``) and the game log kept
(``companion.kiosk.logcache``): the first frame of a screen one tap away is drawn in the idle
time, and the tap shows the screen that was drawn, whose frame then paints nothing afresh;
Resume takes the game replayed ahead, unless the journal changed since; nothing a screen made
ahead says reaches the table before it is shown; the log kept step by step is the log built
afresh."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.engine import CHANCE, get_game  # noqa: E402
from companion.journal import GamePage  # noqa: E402
from companion.kiosk import logcache, retained  # noqa: E402
from companion.kiosk.app import App  # noqa: E402
from companion.kiosk.gamelog import log_entries  # noqa: E402
from companion.kiosk.screens.base import GameScreen  # noqa: E402
from companion.kiosk.screens.prepare import NewGame, Resumed  # noqa: E402
from companion.kiosk.words import words_for  # noqa: E402

from .kiosk_helpers import make_app, tap  # noqa: E402
from .test_journal import play_random  # noqa: E402
from .test_lookahead import _all_ahead, _painted  # noqa: E402
from .test_retained import _fresh  # noqa: E402, F401 - (its autouse fixture)


def _home_with_a_game(tmp: Path, name: str = "pillars", actions: int = 40) -> App:
    app = make_app(tmp, size=(720, 1280))
    play_random(app.journal.start(get_game(name).setup(3), seed=2), random.Random(3), actions)
    app.go("home")  # (it reads the journal when shown)
    app.render(force=True)
    return app


@pytest.mark.parametrize("key, name", [("settings", "SettingsScreen"),
                                       ("history", "GamesScreen"), ("new", "SetupScreen")])
def test_a_screen_the_home_screen_leads_to_is_made_ahead_and_shown_as_drawn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, name: str) -> None:
    app = _home_with_a_game(tmp_path)
    assert _all_ahead(app) >= 4  # Resume's game, a new game, the history, the settings
    made = [s for s in app.ahead.prepared.values() if type(s).__name__ == name]
    assert len(made) == 1
    painted = _painted(monkeypatch)
    tap(app, key)
    assert app.screen is made[0]
    assert painted == []  # its first frame blits what was drawn ahead
    assert app.ahead.prepared == {}


def test_without_drawing_ahead_the_first_frame_paints_its_parts(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """(The check above can fail: a screen not made ahead paints its parts.)"""
    app = _home_with_a_game(tmp_path)
    painted = _painted(monkeypatch)
    tap(app, "settings")
    assert painted


def test_resume_takes_the_game_replayed_ahead(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    app = _home_with_a_game(tmp_path)
    _all_ahead(app)
    made = next(v for v in app.ahead.prepared.values() if isinstance(v, Resumed))
    replays: list[int] = []
    real = app.journal.resume
    monkeypatch.setattr(app.journal, "resume", lambda i=None: replays.append(1) or real(i))
    painted = _painted(monkeypatch)
    tap(app, "resume")
    assert replays == []  # not replayed again on the tap
    assert app.session is made.session and app.screen is made.screen
    assert isinstance(app.screen, GameScreen)
    assert len(app.session.playthrough.actions) == 40
    assert painted == []
    app.screen.propose(app.session.game.legal_actions(app.session.state)[0])
    app.screen.confirm_preview() if app.screen.preview is not None else None
    assert len(app.journal.record(app.session.id).actions) == 41  # it plays on the journal


def test_resume_replays_the_game_again_when_the_journal_changed(tmp_path: Path) -> None:
    app = _home_with_a_game(tmp_path)
    _all_ahead(app)
    game_id = app.journal.page("playing", 0, 1).games[0].id
    play_random(app.journal.resume(game_id), random.Random(9), 1)  # another program plays on
    tap(app, "resume")
    assert len(app.session.playthrough.actions) == 41
    assert isinstance(app.screen, GameScreen)


def test_screens_made_ahead_for_another_screen_are_not_shown(tmp_path: Path) -> None:
    app = _home_with_a_game(tmp_path)
    _all_ahead(app)
    made = list(app.ahead.prepared.values())  # (held, so no new screen can take an address)
    app.show(app.screen.__class__(app))  # another home screen, shown some other way
    shown = app.go("settings")
    assert not any(shown is m for m in made)


def test_a_screen_made_ahead_says_nothing_until_it_is_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _home_with_a_game(tmp_path)
    page = app.journal.page
    monkeypatch.setattr(app.journal, "page", lambda status, start, count: GamePage(
        page(status, start, count).games, 1, ["game 7: its scores cannot be read"]))
    _all_ahead(app)
    assert app.toast_text is None
    tap(app, "history")
    assert app.toast_text is not None and "cannot be read" in app.toast_text


def test_start_shows_the_new_game_made_ahead_for_the_table_chosen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _home_with_a_game(tmp_path)
    tap(app, "new")
    _all_ahead(app)
    made = next(v for v in app.ahead.prepared.values() if isinstance(v, NewGame))
    painted = _painted(monkeypatch)
    tap(app, "start")
    assert app.screen is made.screen and app.session is not made.session
    assert app.session.id > 0 and app.session.state == made.session.state  # (the same seed)
    assert painted == []
    started = app.journal.record(app.session.id)
    assert started.setup == made.session.playthrough.setup and not started.actions


def test_a_table_changed_after_drawing_ahead_starts_its_own_game(tmp_path: Path) -> None:
    app = _home_with_a_game(tmp_path)
    tap(app, "new")
    _all_ahead(app)
    made = next(v for v in app.ahead.prepared.values() if isinstance(v, NewGame))
    app.screen.count = 2  # the table chose two seats meanwhile (no idle pass since)
    app.screen.begin()
    assert app.screen is not made.screen
    assert len(app.session.playthrough.setup.players) == 2


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_the_log_kept_step_by_step_is_the_log_built_afresh(tmp_path: Path, name: str) -> None:
    app = make_app(tmp_path)
    session = app.journal.start(get_game(name).setup(4), seed=5)
    pt = session.playthrough
    for k in range(6):
        play_random(session, random.Random(k), 17)
        expected = 1  # the 17 actions since: one step (``LOG_STEP`` actions a step)
        if k == 3:  # undone past what was kept: built again, from the first action
            while not session.can_undo():
                play_random(session, random.Random(k), 1)
            while logcache.behind(session):
                logcache.keep_up(session, app.metrics, app.size)
            session.undo()
            expected = -(-len(pt.actions) // logcache.LOG_STEP)
        steps = 0
        while logcache.behind(session):
            logcache.keep_up(session, app.metrics, app.size)
            steps += 1
        assert steps == expected
        fresh = log_entries(session.game, pt.setup, pt.actions, states=pt.states)
        assert logcache.table_log(session) == fresh


def test_the_game_keeps_its_log_up_in_the_idle_time(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    app = _home_with_a_game(tmp_path, "builders", actions=90)
    _all_ahead(app)
    tap(app, "resume")
    _all_ahead(app)
    assert not logcache.behind(app.session)
    built: list[int] = []
    real: Callable[..., object] = logcache.extend_log
    monkeypatch.setattr(logcache, "extend_log",
                        lambda g, a, s, older, done: built.append(len(a) - done) or real(
                            g, a, s, older, done))
    measured: list[str] = []
    real_rows = logcache.rows
    monkeypatch.setattr(logcache, "rows", lambda t, f, w: measured.append(t) or real_rows(t, f, w))
    made = [s for s in app.ahead.prepared.values() if type(s).__name__ == "LogScreen"]
    assert len(made) == 1
    painted = _painted(monkeypatch)
    tap(app, "log")
    assert app.screen is made[0]  # the log screen made ahead for this position
    assert built == [] and measured == []  # nothing built or measured on the tap
    assert painted == []
    tap(app, "back")
    app.screen.propose(app.session.game.legal_actions(app.session.state)[0])
    if app.screen.preview is not None:
        app.screen.confirm_preview()
    app.render(force=True)
    tap(app, "log")  # (before anything was drawn ahead: a new log screen, the game as it is)
    assert app.screen is not made[0] and built == [1]
    assert retained.MISMATCHES == []
    assert pygame.display.get_init()


def test_a_log_made_ahead_of_a_move_shows_the_game_after_it(tmp_path: Path) -> None:
    """The log made ahead for a position, tapped after the next move before anything was
    drawn ahead: it shows the move (it reads the game again when the game has moved on)."""
    from companion.kiosk.screens.game import open_game

    from .kiosk_helpers import drawn_texts

    app = make_app(tmp_path, size=(800, 480))
    app.session = app.journal.start(get_game("pillars").setup(3), seed=2)
    play_random(app.session, random.Random(3), 30)
    open_game(app)
    app.render(force=True)
    _all_ahead(app)
    made = next(s for s in app.ahead.prepared.values() if type(s).__name__ == "LogScreen")
    game = app.session.game
    while game.current_player(app.session.state) == CHANCE:
        play_random(app.session, random.Random(3), 1)
    action = game.legal_actions(app.session.state)[0]
    app.play(action)
    app.render(force=True)
    tap(app, "log")
    assert app.screen is made and len(made.sections()) > 0
    words = words_for("pillars")
    assert any(words.action_text(app.session.playthrough.states[-2], action) in t
               for t in drawn_texts(app))


def test_the_end_screen_of_the_game_on_the_table_does_not_replay_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's last action shows its end screen without replaying the game from the
    journal (the session holds its state); the same scores as a replay; from the history, the
    journal's game is replayed."""
    from companion.engine import replay
    from companion.kiosk.screens import end

    app = make_app(tmp_path, size=(800, 480))
    session = app.journal.start(get_game("pillars").setup(2), seed=4)
    play_random(session, random.Random(6))  # to the end
    replays: list[int] = []
    monkeypatch.setattr(end, "replay", lambda g, r: replays.append(1) or replay(g, r))
    app.session = session
    app.open_game()
    assert type(app.screen).__name__ == "EndScreen" and replays == []
    again = end.EndScreen(app, session.id)
    app.session = None
    fresh = end.EndScreen(app, session.id)
    assert replays == [1] and fresh.summary == again.summary and fresh.state == again.state


@pytest.mark.parametrize("unfinished", [True, False])
def test_a_game_of_the_history_s_list_is_opened_as_made_ahead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unfinished: bool) -> None:
    """The lists of games: each game of the page is made ahead as a tap opens it (an
    unfinished game replayed with its table screen, a finished one's end screen); the tap
    shows it without reading the game again, and its first frame paints nothing afresh."""
    from companion.kiosk.screens.end import EndScreen

    app = make_app(tmp_path)
    rng = random.Random(5)
    for k in range(2):
        session = app.journal.start(get_game("builders").setup(2), seed=k)
        play_random(session, rng, 30 if unfinished else 10_000)
    assert app.journal.page("playing" if unfinished else "finished", 0, 5).total == 2
    app.go("games", unfinished=unfinished)
    app.render(force=True)
    _all_ahead(app)
    replays: list[int] = []
    for name in ("resume", "record"):
        real = getattr(app.journal, name)
        monkeypatch.setattr(app.journal, name,
                            lambda i=None, real=real: replays.append(1) or real(i))
    painted = _painted(monkeypatch)
    button = next(b for b in app.screen.buttons if b.key.startswith("game "))
    tap(app, button.key)
    assert replays == []
    assert isinstance(app.screen, GameScreen if unfinished else EndScreen)
    assert painted == []


def test_the_log_s_back_is_drawn_ahead_and_the_log_comes_early(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game screen draws the log's first frame among its first frames ahead (after
    ``LOG_AFTER``); the log screen draws the game it was opened from ahead, so Back's frame
    paints nothing afresh, and the game screen's panels are as they were."""
    from companion.kiosk.screens import ahead

    app = _home_with_a_game(tmp_path, "pillars", actions=60)
    _all_ahead(app)
    tap(app, "resume")
    game_screen = app.screen
    _all_ahead(app)  # (the log kept up: none of its steps among the jobs below)
    jobs = [getattr(j, "func", j) for j in game_screen.likely_next()]
    assert jobs.index(ahead._log_frame) == ahead.LOG_AFTER < len(jobs) - 2
    tap(app, "log")
    panels = {k: dict(vars(v)) for k, v in vars(game_screen).items() if hasattr(v, "__dict__")
              and type(v).__module__.startswith("companion.pillars.kiosk")}
    assert _all_ahead(app) >= 1
    assert {k: dict(vars(getattr(game_screen, k))) for k in panels} == panels
    painted = _painted(monkeypatch)
    tap(app, "back")
    assert app.screen is game_screen
    assert painted == []


def test_resume_s_game_has_its_log_kept_up_on_the_home_screen(tmp_path: Path) -> None:
    """The home screen keeps the log of Resume's game (replayed ahead) up in its idle time,
    after the first frames of the screens it leads to: the game resumed spends its first idle
    passes on its frames, not on its log's words."""
    app = _home_with_a_game(tmp_path, "builders", actions=90)
    scratch, jobs = pygame.Surface(app.size), []
    for job in app.screen.likely_next():  # (each done as the idle time does, in turn)
        jobs.append(getattr(job, "func", job).__name__)
        job(scratch)
    steps = [k for k, name in enumerate(jobs) if name == "_resume_log"]
    assert jobs[0] == "resume_frame" and steps  # the replay first, the log's words last:
    assert jobs.count("route_frame") >= 3 and jobs.index("route_frame") < steps[0]
    made = next(v for v in app.ahead.prepared.values() if isinstance(v, Resumed))
    assert not logcache.behind(made.session)
    tap(app, "resume")
    assert app.session is made.session and not logcache.behind(app.session)


def test_the_settings_draw_each_language_and_back_ahead(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """On the settings, the idle time draws the screen in each other language and makes Back's
    home screen: a language's button, and Back, paint nothing afresh; the language drawn
    ahead is not the table's until it is tapped."""
    from companion.kiosk import i18n

    app = _home_with_a_game(tmp_path)
    _all_ahead(app)
    tap(app, "settings")
    assert _all_ahead(app) >= 3  # home, this frame, the two other languages
    assert i18n.language() == "en"
    painted = _painted(monkeypatch)
    tap(app, "language zh")
    assert i18n.language() == "zh" and painted == []
    _all_ahead(app)
    painted.clear()  # (what the idle time painted)
    tap(app, "language ja")
    assert i18n.language() == "ja" and painted == []
    _all_ahead(app)
    painted.clear()
    tap(app, "back")
    assert type(app.screen).__name__ == "HomeScreen"
    assert painted == []


def test_the_settings_draw_a_quarter_turn_ahead(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """On the settings, the idle time draws the screen turned a quarter (the other size,
    every part new), so a rotation's button paints nothing afresh; the frame on screen and
    its metrics stay the table's."""
    app = _home_with_a_game(tmp_path)
    _all_ahead(app)
    tap(app, "settings")
    metrics, size = app.metrics, app.surface.get_size()
    _all_ahead(app)
    assert app.metrics is metrics and app.surface.get_size() == size == (720, 1280)
    assert app.config.rotation == 0
    painted = _painted(monkeypatch)
    tap(app, "rotation 90")
    assert app.surface.get_size() == (1280, 720)
    assert painted == []
