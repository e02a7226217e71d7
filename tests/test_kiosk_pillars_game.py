"""A complete game of Pillars played through the kiosk's input layer, as a table would.

Taps and key presses go in as SDL events; the driver chooses each decision at random among the
engine's legal ones (seeded) and performs it with the kiosk's own buttons; the bag and the die
are the kiosk's DRAW and ROLL; revealed cards are tapped in from the picker.  At the end the
journal's record, applied to the engine alone, must give the scores the end screen shows.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.engine import CHANCE, get_game, replay
from companion.engine.simulate import sample
from companion.kiosk.screens.end import EndScreen
from companion.pillars.actions import Action
from companion.pillars.kiosk import PillarsScreen
from tests.kiosk_helpers import find, keys, make_app, press, tap, wait
from tests.sweeps import ids, sampled


def start_game(app: Any, players: int) -> None:
    tap(app, "new")
    tap(app, f"players {players}")
    tap(app, "start")
    assert isinstance(app.screen, PillarsScreen), type(app.screen)


def last_action(app: Any) -> str:
    record = app.journal.record(app.session.id)
    return record.actions[-1] if record.actions else ""


def perform(app: Any, action: Action, rng: random.Random) -> None:
    """Do ``action`` with the screen's buttons."""
    verb = action.verb
    if verb == "remigius":
        tap(app, "remigius")
        tap(app, str(action))
    elif verb in ("buy", "sell"):
        name, n = str(action.args[0]), int(action.args[1])
        for _ in range(n - 1):
            tap(app, f"more {name}")
        tap(app, f"{verb} {name}")
    elif verb == "return":
        for name, n in zip(action.args[::2], action.args[1::2], strict=True):
            for _ in range(int(n)):
                tap(app, f"more {name}")
        tap(app, "confirm")
    elif verb in ("convert", "done"):
        raise AssertionError("the cathedral is driven by drive_cathedral")
    else:
        tap(app, str(action))


def drive_cathedral(app: Any, rng: random.Random) -> str:
    """Take the pre-filled best conversion, or first take one use away; the expected text."""
    screen = app.screen
    if screen.cathedral.choice.uses and rng.random() < 0.3:
        card = rng.choice(sorted(c for c, n in screen.cathedral.choice.uses.items() if n))
        tap(app, f"less {card}")
    from companion.pillars.actions import convert_action

    uses = {c: n for c, n in screen.cathedral.choice.uses.items() if n}
    expected = str(convert_action(uses)) if uses else "done"
    if find(app, "confirm").enabled:
        tap(app, "confirm")
    else:  # that use cannot be taken away (a requirement); back to the best
        tap(app, "best")
        uses = {c: n for c, n in screen.cathedral.choice.uses.items() if n}
        expected = str(convert_action(uses)) if uses else "done"
        tap(app, "confirm")
    return expected


def play_through(app: Any, rng: random.Random, limit: int = 20000) -> None:
    game = get_game("pillars")
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, EndScreen):
            return
        assert isinstance(screen, PillarsScreen), type(screen)
        if screen.anim is not None:
            wait(app, 1.5)
            continue
        if screen.result is not None or screen.preview is not None or (
                screen.handouts.current is not None):
            press(app, "confirm")
            continue
        state = app.session.state
        if game.current_player(state) == CHANCE:
            if state.step == "draw":
                press(app, "draw")
            elif state.step == "roll":
                press(app, "roll")
            else:
                outcome = sample(game.chance_outcomes(state), rng)
                if state.step == "peek":
                    tap(app, "private")  # Ellen's owner alone enters the event
                tap(app, str(outcome))
                assert app.screen.preview is not None  # a reveal is always confirmed
                press(app, "confirm")
                assert last_action(app) == str(outcome)
            continue
        if state.step == "cathedral":
            expected = drive_cathedral(app, rng)
        else:
            options = [a for a in game.legal_actions(state) if a.verb != "craft"]
            action = rng.choice(options)
            perform(app, action, rng)
            expected = str(action)
        if app.screen.preview is not None:
            press(app, "confirm")
        assert last_action(app) == expected, (expected, last_action(app), keys(app))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "seed", "size"), sampled([(4, 11, (800, 480)),
                                                                (3, 5, (720, 1280))], keep=[]),
                         ids=ids)  # both under -m full: the default run's whole Pillars game
# through the kiosk, each move checked against the journal and the end against the engine, is
# test_words_kiosk's (in Japanese, with undos, the log and the help among its moves)
def test_a_complete_game_through_the_kiosk(tmp_path: Path, players: int, seed: int,
                                           size: tuple[int, int]) -> None:
    app = make_app(tmp_path, size=size, seed=seed)
    start_game(app, players)
    game_id = app.session.id
    play_through(app, random.Random(seed))
    end = app.screen
    assert isinstance(end, EndScreen)
    record = app.journal.record(game_id)
    state = replay(get_game("pillars"), record)
    engine = get_game("pillars")
    assert engine.is_over(state)
    assert end.summary.scores == engine.scores(state)
    assert list(end.summary.winners) == engine.winners(state)
    assert app.journal.get(game_id).status == "finished"
    assert len(app.journal.get(game_id).periods) >= 6
    assert len(record.actions) > 300


def test_virtual_deck_draws_the_cards(tmp_path: Path) -> None:
    app = make_app(tmp_path, virtual_deck=True, seed=3)
    start_game(app, 2)
    state = app.session.state
    assert state.step == "draft"  # privileges, craftsmen and resource cards drawn already
    assert len(state.kingsbridge) == 2 and len(state.pool) == 9
