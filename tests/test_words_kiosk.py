"""Scripted random games of both games through the kiosk in Chinese and Japanese: every text the
screens draw (``ui.DRAWN``), refusals, undo toasts and previews included, is the table's
language: no notation, no card id, no internal name, no untranslated English word.  In English
too: no notation and no card id.  Each is a whole game played with the buttons, undos and
looks at the log and the help among its moves: every move is the journal's next action, and
the end screen's scores are those of the record replayed by the engine."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine import CHANCE, get_game, replay
from companion.engine.simulate import sample
from companion.kiosk import i18n, ui
from companion.kiosk.screens.end import EndScreen
from tests.kiosk_helpers import make_app, press, tap, wait

from . import test_kiosk_builders_game as BK
from . import test_kiosk_pillars_game as PK
from .sweeps import sampled
from .test_words_actions import leaks

PROPER_NAMES = ("companion", "BG Stats")
"""Names kept in every language: the program's and the BG Stats app's."""


@pytest.fixture
def drawn() -> Iterator[list[str]]:
    texts: list[str] = []
    ui.DRAWN = texts
    yield texts
    ui.DRAWN = None


def tap_disabled(app: Any, rng: random.Random) -> None:
    """Tap a greyed-out button, if any: the kiosk says why the engine refuses it."""
    off = [b.key for b in app.screen.buttons if not getattr(b, "enabled", True)]
    if off:
        tap(app, rng.choice(off))


def look_at_the_log(app: Any) -> None:
    """Open the log, scroll back a little, and return to the game."""
    table = app.screen
    tap(app, "log")
    for _k in range(2):
        if "older" in [b.key for b in app.screen.buttons]:
            tap(app, "older")
    press(app, "back")
    assert app.screen is table


def pillars_step(app: Any, rng: random.Random) -> None:
    """One step of a Pillars game through the kiosk (as ``PK.play_through`` does)."""
    game = get_game("pillars")
    screen = app.screen
    if screen.anim is not None:
        wait(app, 1.5)
        return
    if screen.result is not None or screen.preview is not None or (
            screen.handouts.current is not None):
        press(app, "confirm")
        return
    state = app.session.state
    if game.current_player(state) == CHANCE:
        if state.step == "draw":
            press(app, "draw")
        elif state.step == "roll":
            press(app, "roll")
        else:
            outcome = sample(game.chance_outcomes(state), rng)
            if state.step == "peek":
                tap(app, "private")
            tap(app, str(outcome))
            press(app, "confirm")
            assert PK.last_action(app) == str(outcome)
        return
    if state.step == "cathedral":
        expected = PK.drive_cathedral(app, rng)
    else:
        options = [a for a in game.legal_actions(state) if a.verb != "craft"]
        action = rng.choice(options)
        PK.perform(app, action, rng)
        expected = str(action)
    if app.screen.preview is not None:
        press(app, "confirm")
    assert PK.last_action(app) == expected, (expected, PK.last_action(app))


def builders_step(app: Any, rng: random.Random) -> None:
    """One step of a Builders game through the kiosk (as ``BK.play_through`` does)."""
    game = get_game("builders")
    screen = app.screen
    if screen.celebrate is not None:
        wait(app, 2.0)
        return
    if screen.handouts.current is not None:
        press(app, "confirm")
        return
    state = app.session.state
    if game.current_player(state) == CHANCE:
        outcome = sample(game.chance_outcomes(state), rng)
        BK.tap_paged(app, str(outcome), "more cards")
        press(app, "confirm")
        assert BK.last_action(app) == str(outcome)
        return
    action = rng.choice(game.legal_actions(state))
    BK.perform(app, action)
    assert BK.last_action(app) == str(action), (str(action), BK.last_action(app))


def play(app: Any, name: str, rng: random.Random, limit: int = 20000) -> tuple[int, int, int]:
    """Play to the end, now and then undoing a decision, tapping a refused button, opening
    the log and the help; how many undos, looks at the log and at the help."""
    step = pillars_step if name == "pillars" else builders_step
    undos = logs = helps = 0
    for k in range(limit):
        if isinstance(app.screen, EndScreen):
            return undos, logs, helps
        if k % 7 == 3:
            tap_disabled(app, rng)
        if k % 23 == 11 and app.session.can_undo():
            press(app, "undo")
            undos += 1
            continue
        if k % 97 == 50 and "log" in [b.key for b in app.screen.buttons]:
            look_at_the_log(app)
            logs += 1
        if k % 61 == 30 and not getattr(app.screen, "help_open", True):
            press(app, "help")  # the help of this moment, then back to the game
            helps += app.screen.help_open
            press(app, "help")
        step(app, rng)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("name", "lang", "seed"), sampled([
    ("pillars", "zh", 3), ("pillars", "ja", 4), ("builders", "zh", 5), ("builders", "ja", 6),
    ("builders", "en", 8),
], keep=[1]))  # by default a Pillars game in Japanese (a Builders' in Chinese: its actions'
# and refusals' words, test_words_actions and test_words_refusals); all under -m full
def test_a_game_through_the_kiosk_speaks_only_the_tables_language(
    tmp_path: Path, drawn: list[str], name: str, lang: str, seed: int
) -> None:
    app = make_app(tmp_path, language=lang, seed=seed)
    tap(app, "new")
    tap(app, f"game {name}")
    tap(app, "players 3")
    tap(app, "start")
    game_id = app.session.id
    undos, logs, helps = play(app, name, random.Random(seed))
    assert undos > 0 and logs > 0 and helps > 0
    # the whole game was played as the engine plays it: its end as the record's replay ends
    end, engine = app.screen, get_game(name)
    state = replay(engine, app.journal.record(game_id))
    assert isinstance(end, EndScreen) and engine.is_over(state)
    assert end.summary.scores == engine.scores(state)
    assert list(end.summary.winners) == engine.winners(state)
    assert app.journal.get(game_id).status == "finished"
    assert any(i18n._("Undone: {action}", action="") in t for t in drawn) or undos == 0
    names = PROPER_NAMES
    if app.session is not None:
        names += tuple(app.session.game.setup_of(app.session.state).names)
    bad = sorted(t for t in set(drawn) if leaks(t, lang, names))  # each text once
    assert not bad, bad[:40]


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_undo_says_what_was_undone_in_words(tmp_path: Path, lang: str) -> None:
    from companion.kiosk.words import words_for

    app = make_app(tmp_path, language=lang, seed=2)
    tap(app, "new")
    tap(app, "game builders")
    tap(app, "players 2")
    tap(app, "start")
    rng = random.Random(2)
    game = get_game("builders")
    while not app.session.can_undo():
        builders_step(app, rng)
    before = app.session.playthrough.game.initial_state(app.session.playthrough.setup)
    for a in app.session.playthrough.actions[:-1]:
        before = game.apply(before, a)
    done = app.session.playthrough.actions[-1]
    press(app, "undo")
    want = i18n._("Undone: {action}", action=words_for("builders").action_text(before, done))
    assert app.toast_text == want
    assert str(done) not in want
