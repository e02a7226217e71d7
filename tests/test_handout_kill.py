"""Kill the kiosk anywhere: every hand-out step due survives the restart, and no other.

A game is played through the table screen (the people's decisions, the table's reveals or the
virtual deck's, hand-out steps confirmed now and then, an undo now and then) and the kiosk is
stopped at random moments, with the virtual-deck setting flipped at random before it starts
again.  What is due is what was pending when it stopped (each confirmation is committed before
the next step shows); after the restart the table screen must show exactly those steps for the
actions the game had (ids, titles, lines, in order), whatever the setting says now: what a
restart hands out is decided by what the journal says happened (who dealt each card), never
by a setting changed since.  The set-up's holdings and an undo's give-back are steps like any
other; so are the last action's, on a game that ended before they were confirmed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.engine import CHANCE, get_game
from companion.engine.simulate import sample
from companion.kiosk.screens.base import GameScreen
from companion.kiosk.screens.end import EndScreen
from tests.kiosk_helpers import make_app
from tests.sweeps import sampled


def _due(screen: GameScreen[Any, Any], actions: int) -> list[tuple[int, str, str, Any]]:
    """The steps pending for the first ``actions`` actions (and the give-backs), those
    waiting behind a result on show too: what a restart must show again."""
    held = [(i, "dealt#0", s.title, s.lines) for i, s in getattr(screen, "after_result", [])]
    return [(p.index, p.id, p.step.title, p.step.lines) for p in screen.handouts.pending
            if p.back or p.index < actions] + [h for h in held if h[0] < actions]


def _settle(app: Any) -> None:
    """Let animations and celebrations end (time passes)."""
    for _k in range(40):
        screen = app.screen
        if not isinstance(screen, GameScreen) or not screen.animating():
            return
        app.tick(0.25)


def _step(app: Any, rng: random.Random) -> bool:
    """One thing the table does; False once the game is over and handed out."""
    screen = app.screen
    if not isinstance(screen, GameScreen):
        return False
    _settle(app)
    game, state = screen.game, screen.state
    if screen.handouts.current is not None and rng.random() < 0.7:
        screen.confirm_handout()
    elif getattr(screen, "result", None) is not None:
        screen.dismiss_result()
    elif screen.preview is not None:
        screen.confirm_preview()
    elif game.is_over(state):
        return screen.handouts.current is not None
    elif screen.session.can_undo() and rng.random() < 0.08:
        screen.undo()
    elif game.current_player(state) == CHANCE:
        screen.commit(sample(game.chance_outcomes(state), rng))  # the table's own reveal
    else:
        screen.commit(rng.choice(game.legal_actions(state)))
    app.render(force=True)
    return True


def _restart(app: Any, tmp: Path, deck: bool) -> Any:
    game_id = app.session.id
    app.companion.close()
    app.journal.close()
    again = make_app(tmp, virtual_deck=deck)
    again.session = again.journal.resume(game_id)
    again.open_game()
    again.render(force=True)
    return again


def _run(tmp: Path, name: str, players: int, deck: bool, seed: int, steps: int) -> int:
    """A game killed every few steps; the number of restarts checked."""
    rng = random.Random(seed)
    game = get_game(name)
    app = make_app(tmp, virtual_deck=deck, seed=seed)
    app.session = app.journal.start(game.setup(players), seed=seed, handing_out=True)
    app.open_game()
    checked = 0
    for _k in range(steps):
        if rng.random() < 0.15 and isinstance(app.screen, GameScreen):
            actions = len(app.session.playthrough.actions)
            due = _due(app.screen, actions)
            deck = rng.random() < 0.5  # the setting flipped (or not) before the restart
            app = _restart(app, tmp, deck)
            if not due and isinstance(app.screen, EndScreen):
                checked += 1
                break
            assert isinstance(app.screen, GameScreen), (name, due)
            assert _due(app.screen, actions) == due, (name, seed, deck)
            checked += 1
        if not _step(app, rng):
            break
    app.companion.close()
    app.journal.close()
    return checked


@pytest.mark.parametrize(("name", "players", "deck"), sampled([("pillars", 3, True),
                                                               ("builders", 2, False)], keep=[0]))
# the Builders' under -m full (and whole games of both, killed anywhere, under -m slow)
def test_a_restart_shows_exactly_the_steps_due(tmp_path: Path, name: str, players: int,
                                               deck: bool) -> None:
    assert _run(tmp_path, name, players, deck, seed=5, steps=160) >= 8


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("name", "players"), [("pillars", 4), ("pillars", 2),
                                               ("builders", 4), ("builders", 3)])
def test_whole_games_killed_anywhere_show_exactly_the_steps_due(
        tmp_path: Path, name: str, players: int, seed: int) -> None:
    assert _run(tmp_path, name, players, seed % 2 == 0, seed=seed, steps=4000) >= 30
