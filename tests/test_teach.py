"""Teach mode: the first time each kind of step appears in a table's first game of a title, the
help opens by itself ("New: ..."), with the rule and this moment's numbers; one tap closes it,
"?" opens it again; the companion's steps and a table's later games are not taught."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.kiosk.screens.base import GameScreen
from tests.kiosk_helpers import drawn_texts, handed_out, make_app, press, tap, wait


def _new_game(app: Any, game: str, players: int, companion: int | None = None) -> None:
    tap(app, "new")
    tap(app, f"game {game}")
    tap(app, f"players {players}")
    if companion is not None:
        for _k in range(4):
            if app.screen.strengths[companion] == "easy":
                break
            tap(app, f"who {companion}")
    tap(app, "start")
    handed_out(app)
    wait(app, 0.1)


def _teaching(app: Any, teach: str = "first") -> Any:
    app.config = app.config.with_(teach=teach)
    return app


def test_a_new_kind_of_step_opens_its_help_once(tmp_path: Path) -> None:
    app = _teaching(make_app(tmp_path, virtual_deck=True))
    _new_game(app, "pillars", 2)
    screen = app.screen
    assert isinstance(screen, GameScreen) and screen.state.step == "draft"
    assert screen.help_open and screen.teacher.teaching == "draft"
    texts = drawn_texts(app)
    assert any(t.startswith("New: Phase I") for t in texts), texts
    assert any("Now: Red has 12 workers free and 20 gold" in t for t in texts), texts
    press(app, "confirm")  # one tap: closed
    assert not screen.help_open
    tap(app, "pass")  # Red passes; Blue's draft: the same kind, not taught again
    wait(app, 0.1)
    assert screen.state.step == "draft" and not screen.help_open
    tap(app, "help")  # "?" opens the same help, not as new
    assert screen.help_open and not screen.teacher.teaching
    assert any(t.startswith("Phase I") for t in drawn_texts(app))
    app.journal.close()


def test_only_the_first_game_of_a_title_teaches_unless_the_table_asks(tmp_path: Path) -> None:
    app = _teaching(make_app(tmp_path, virtual_deck=True))
    _new_game(app, "pillars", 2)
    assert app.screen.help_open
    tap(app, "close")
    tap(app, "menu")
    _new_game(app, "pillars", 2)  # a second Pillars game: the table knows it
    assert not app.screen.help_open
    tap(app, "menu")
    _new_game(app, "builders", 2)  # but its first Builders game teaches
    for _k in range(40):
        if app.screen.help_open:
            break
        handed_out(app)
        wait(app, 0.1)
    assert app.screen.help_open and app.screen.teacher.teaching == "turn"
    assert any(t == "New: your turn" for t in drawn_texts(app))
    tap(app, "close")
    tap(app, "menu")
    _teaching(app, "on")
    _new_game(app, "pillars", 2)  # "on": every game teaches
    assert app.screen.help_open
    tap(app, "close")
    tap(app, "menu")
    _teaching(app, "off")
    app.journal.close()


def test_the_companion_s_steps_are_not_taught(tmp_path: Path) -> None:
    app = _teaching(make_app(tmp_path, virtual_deck=True), "on")
    _new_game(app, "pillars", 2, companion=0)  # the companion decides first
    screen = app.screen
    assert screen.state.step == "draft" and screen.game.current_player(screen.state) == 0
    assert not screen.help_open
    app.companion.close()
    app.journal.close()
