"""A Pillars round and a Builders round in which every card the table reveals is read by the
camera: the fake camera plays frames of the right card (the empty table, the card held up, the
table again), the pipeline is stepped on each frame, and its Card inputs go through the kiosk's
own event handling.  Decisions are random legal ones made with the kiosk's buttons.  At the end,
the journal's record applied by the engine alone gives the kiosk's state, and every reveal in
it is a card the camera read."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest

from companion.builders.kiosk import BuildersScreen
from companion.engine import CHANCE, get_game, replay
from companion.engine.simulate import sample
from companion.kiosk.inputs import INPUT_EVENT, Card
from companion.pillars.kiosk import PillarsScreen
from companion.vision.markers import markers_of
from companion.vision.pipeline import CardTracker, Pipeline
from companion.vision.synth import card_frame
from tests import test_kiosk_builders_game as builders_driver
from tests import test_kiosk_pillars_game as pillars_driver
from tests.kiosk_helpers import handed_out, make_app, press, tap, wait


class FakeCamera:
    """What the camera would see while the table reveals one card after another."""

    def __init__(self) -> None:
        self.pipeline = Pipeline(tracker=CardTracker(show_frames=3, gone_frames=3))
        self.empty = card_frame(None, seed=7)
        self.frames: dict[int, np.ndarray] = {}
        self.copies: dict[tuple[str, str], int] = {}
        self.read: list[Card] = []

    def frame(self, marker: int) -> np.ndarray:
        if marker not in self.frames:
            self.frames[marker] = card_frame(marker, seed=marker)
        return self.frames[marker]

    def show(self, app: Any, game: str, card: str) -> None:
        """Hold the card up to the camera, then take it away; hand every reading to the
        kiosk as its main loop would."""
        copy = self.copies.get((game, card), 0)  # the next physical copy of that card
        self.copies[(game, card)] = copy + 1
        marker = markers_of(game, card)[copy]
        before = len(self.read)
        for frame in [self.empty] * 2 + [self.frame(marker)] * 5 + [self.empty] * 4:
            for inp in self.pipeline.step(frame).reading.inputs():
                self.read.append(inp)
                app.handle_event(pygame.event.Event(INPUT_EVENT, input=inp))
                app.render()
        assert self.read[before:] == [Card(game, card)], (card, self.read[before:])


def check_against_the_engine(app: Any, camera: FakeCamera, name: str) -> None:
    record = app.journal.record(app.session.id)
    assert replay(get_game(name), record) == app.session.state
    verbs = ("privilege", "craftsman", "resource", "event", "peek", "reveal", "next", "deal")
    revealed = [a for a in record.actions if a.split(" ", 1)[0] in verbs]
    print(name, len(record.actions), "actions,", len(camera.read), "cards read by the camera")
    assert len(revealed) == len(camera.read) > 5
    assert [c.card for c in camera.read] == [r.split()[-1] for r in revealed]


@pytest.mark.full  # 1 s of CPU: -m full (the Pillars' cards read one by one through the kiosk
# are test_kiosk_camera's, run by default; the Builders' round here too)
def test_a_pillars_round_read_by_the_camera(tmp_path: Path) -> None:
    rng = random.Random(3)
    app = make_app(tmp_path, seed=3)
    tap(app, "new")
    tap(app, "players 2")
    tap(app, "start")
    handed_out(app)  # each seat's starting pieces
    game = get_game("pillars")
    camera = FakeCamera()
    for _ in range(2000):
        screen = app.screen
        assert isinstance(screen, PillarsScreen), type(screen)
        state = app.session.state
        if state.round == 2:
            break
        if screen.anim is not None:
            wait(app, 1.5)
            continue
        if screen.result is not None or screen.preview is not None or (
                screen.handouts.current is not None):
            press(app, "confirm")
            continue
        if game.current_player(state) == CHANCE:
            if state.step == "draw":
                press(app, "draw")
            elif state.step == "roll":
                press(app, "roll")
            else:
                outcome = sample(game.chance_outcomes(state), rng)
                camera.show(app, "pillars", str(outcome.args[0]))
                assert app.screen.preview is not None  # a reveal is confirmed first
                assert app.screen.preview.action == outcome
                press(app, "confirm")
                assert pillars_driver.last_action(app) == str(outcome)
            continue
        if state.step == "cathedral":
            pillars_driver.drive_cathedral(app, rng)
        else:
            options = [a for a in game.legal_actions(state) if a.verb != "craft"]
            pillars_driver.perform(app, rng.choice(options), rng)
        if app.screen.preview is not None:
            press(app, "confirm")
    else:
        raise AssertionError("the round did not end")
    check_against_the_engine(app, camera, "pillars")


def test_a_builders_round_read_by_the_camera(tmp_path: Path) -> None:
    rng = random.Random(5)
    app = make_app(tmp_path, seed=5)
    tap(app, "new")
    tap(app, "game builders")
    tap(app, "players 2")
    tap(app, "start")
    handed_out(app)  # each seat's starting pieces
    game = get_game("builders")
    camera = FakeCamera()
    turns = 0
    last_turn = app.session.state.turn
    for _ in range(2000):
        screen = app.screen
        assert isinstance(screen, BuildersScreen), type(screen)
        state = app.session.state
        if state.turn != last_turn:
            turns += 1
            last_turn = state.turn
        if turns == 2 and not state.pending:  # both players have played a turn
            break
        if screen.celebrate is not None:
            wait(app, 2.0)
            continue
        if game.current_player(state) == CHANCE:
            outcome = sample(game.chance_outcomes(state), rng)
            camera.show(app, "builders", outcome.card)
            assert app.screen.preview is not None  # the reveal waits for CONFIRM
            press(app, "confirm")
            assert builders_driver.last_action(app) == str(outcome)
            continue
        action = rng.choice(game.legal_actions(state))
        builders_driver.perform(app, action)
        assert builders_driver.last_action(app) == str(action)
    else:
        raise AssertionError("the round did not end")
    check_against_the_engine(app, camera, "builders")
