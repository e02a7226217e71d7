"""The button panel on gpiozero's MockFactory, driving the kiosk as the table would.

Each press drives a mock pin; the panel's callback posts ``Press(role)`` to pygame's queue; the
test hands the queued events to ``app.handle_event`` as the main loop does.  The panel's clock
is the kiosk's (``app.time``), so long presses, stuck buttons and light patterns are stepped
with ``wait`` and never slept through.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from gpiozero import Device  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

from companion.builders.kiosk import BuildersScreen
from companion.engine import get_game, replay
from companion.kiosk.app import App
from companion.kiosk.devices import draw_lights, light_rects, table_view
from companion.kiosk.inputs import INPUT_EVENT, Press
from companion.kiosk.screens.end import EndScreen
from companion.kiosk.screens.game import open_game
from companion.kiosk.screenshots import find_prefixes
from companion.panel import LEDS, Panel, PinConfigError, ScreenLeds, open_panel
from companion.panel.lamps import CHASE_STEP, END_SECONDS, REFUSAL_STEP
from tests.kiosk_helpers import find, handed_out, keys, make_app, open_device, tap, wait
from tests.sweeps import covered, ids
from tests.test_kiosk_shell import game_at, refused_take_position


class HeldPin(MockPin):  # type: ignore[misc]
    """A button pin whose contact is closed: the pull-up cannot raise it."""

    def _set_pull(self, value: str) -> None:
        self._pull = value
        self._state = False


class Rig:
    """The app, the mock pins and the panel, with the table's gestures."""

    def __init__(self, app: App, factory: Any, panel: Panel) -> None:
        self.app = app
        self.factory = factory
        self.panel = panel
        self.presses = 0

    def pin(self, role: str) -> Any:
        return self.factory.pin(self.panel.pins.buttons[role])

    def lit(self) -> set[str]:
        return {n for n in LEDS if self.factory.pin(self.panel.pins.leds[n]).state}

    def sync(self) -> list[Any]:
        """One pass of the main loop: the queued inputs, a frame, the devices."""
        events = pygame.event.get(INPUT_EVENT)
        for event in events:
            self.app.handle_event(event)
        self.app.render()
        self.app.update_devices()
        return [e.input for e in events]

    def down(self, role: str) -> list[Any]:
        self.pin(role).drive_low()
        return self.sync()

    def up(self, role: str) -> list[Any]:
        self.pin(role).drive_high()
        return self.sync()

    def hold(self, seconds: float) -> None:
        wait(self.app, seconds)
        self.app.update_devices()

    def press(self, role: str, hold: float = 0.12) -> list[Any]:
        """Press and release a button (a moment after the last gesture); the inputs it
        posted."""
        self.presses += 1
        wait(self.app, 0.1)
        self.down(role)
        self.hold(hold)
        return self.up(role)


@pytest.fixture
def rigs(tmp_path: Path) -> Iterator[Callable[..., Rig]]:
    made: list[Rig] = []

    def make(virtual_deck: bool = False, **kwargs: Any) -> Rig:
        folder = tmp_path / f"rig{len(made)}"
        folder.mkdir()
        app = make_app(folder, virtual_deck=virtual_deck)
        pygame.event.clear()
        factory = kwargs.pop("factory", None) or MockFactory()
        panel = open_device(app, open_panel, pin_factory=factory, clock=lambda: app.time, **kwargs)
        assert isinstance(panel, Panel), app.toast_text
        app.add_device(panel)
        rig = Rig(app, factory, panel)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.app.close_devices()
        rig.factory.reset()
        assert rig.app.journal is not None
        rig.app.journal.close()


def entries(app: App) -> int:
    assert app.session is not None
    return app.session.entries


def last(app: App) -> str:
    assert app.session is not None and app.journal is not None
    actions = app.journal.record(app.session.id).actions
    return actions[-1] if actions else ""


def builders_at(app: App, key: str) -> None:
    assert app.journal is not None
    setup, actions = find_prefixes("builders", [key], players=3)[key]
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    open_game(app)
    app.render(force=True)
    handed_out(app)


def colour(app: App, seat: int) -> str:
    assert app.session is not None
    return str(app.session.state.setup.players[seat].colour)


# -- each button in each situation -------------------------------------------------------------


def test_draw_draws_and_the_drawn_colour_lights(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "draw")
    rig.sync()
    assert rig.lit() == set()  # the table draws: nobody decides
    assert rig.press("draw") == [Press("draw")]
    assert app.session is not None
    assert last(app).startswith("draw ")
    rig.hold(1.0)  # the draw's animation
    state = app.session.state
    assert state.step == "place" and state.drawn >= 0
    assert rig.lit() == {colour(app, state.drawn)}


def test_pass_passes_the_drawn_builder(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "place")
    assert app.session is not None
    assert find(app, "pass").enabled
    before = entries(app)
    assert rig.press("pass") == [Press("pass")]
    assert entries(app) == before + 1 and last(app) == "pass"


def test_roll_rolls_the_tax_die(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "roll")
    rig.sync()
    assert rig.lit() == set()
    assert rig.press("roll") == [Press("roll")]
    assert last(app).startswith("roll ")


def test_pass_in_phase_one_and_at_the_market(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    for step in ("draft", "market"):
        game_at(app, step)
        assert app.session is not None
        seat = app.session.state.turn
        rig.sync()
        assert rig.lit() == {colour(app, seat)}
        before = entries(app)
        rig.press("pass")
        assert entries(app) == before + 1 and last(app) == "pass", step


def test_confirm_confirms_a_preview_and_the_cathedral(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "event")  # the table taps the event card in; CONFIRM commits it
    card = next(k for k in keys(app) if k.startswith("event "))
    tap(app, card)
    before = entries(app)
    assert rig.press("confirm") == [Press("confirm")]
    assert entries(app) == before + 1 and last(app) == card
    game_at(app, "cathedral")
    assert app.session is not None
    assert find(app, "confirm").enabled
    before = entries(app)
    rig.press("confirm")
    assert entries(app) > before
    assert last(app) == "done" or last(app).startswith("convert")


def test_builders_confirm_ends_the_turn_and_the_light_follows(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    builders_at(app, "turn")
    assert isinstance(app.screen, BuildersScreen) and app.session is not None
    rig.sync()
    first = app.session.state.turn_player
    assert rig.lit() == {colour(app, first)}
    assert rig.press("confirm") == [Press("confirm")]
    assert last(app) == "end turn"
    state = app.session.state
    assert state.turn_player != first
    assert rig.lit() == {colour(app, state.turn_player)}


def test_undo_needs_a_long_press(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "draft")
    assert app.session is not None
    rig.press("pass")
    passed = app.session.state
    assert rig.press("undo", hold=0.4) == []  # a brush of the hand
    assert app.session.state == passed
    rig.hold(0.1)
    assert app.toast_text is not None and "Hold UNDO" in app.toast_text
    rig.down("undo")
    rig.hold(0.9)
    assert "status" not in rig.lit()
    rig.hold(0.15)
    assert "status" in rig.lit()  # held long enough: release to undo
    assert rig.up("undo") == [Press("undo")]
    assert app.session.state != passed
    kinds = [e.kind for e in app.journal.entries(app.session.id)][-2:]  # type: ignore[union-attr]
    assert kinds == ["action", "undo"]


def test_a_bouncing_press_is_one_input(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "draft")
    inputs: list[Any] = []
    pin = rig.pin("pass")
    for _ in range(3):  # closing: three quick contacts
        pin.drive_low()
        wait(app, 0.002)
        pin.drive_high()
        wait(app, 0.002)
    pin.drive_low()
    wait(app, 0.15)
    pin.drive_high()  # opening: chatter
    for _ in range(3):
        wait(app, 0.003)
        pin.drive_low()
        wait(app, 0.003)
        pin.drive_high()
    inputs += rig.sync()
    assert inputs == [Press("pass")]


def test_a_stuck_button_is_reported_not_obeyed(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "draw")
    before = entries(app)
    assert rig.down("draw") == []
    rig.hold(5.5)
    assert app.toast_text is not None and "DRAW" in app.toast_text
    assert "stuck" in app.toast_text
    rig.hold(10.0)
    assert rig.up("draw") == []
    assert entries(app) == before
    assert app.toast_text is not None and "works again" in app.toast_text
    rig.hold(0.1)
    assert rig.press("draw") == [Press("draw")]
    assert entries(app) == before + 1


def test_a_button_held_at_start_up_is_reported_not_obeyed(rigs: Callable[..., Rig]) -> None:
    factory = MockFactory()
    factory.pin(5, pin_class=HeldPin)  # DRAW's pin: the button is down already
    rig = rigs(factory=factory)
    app = rig.app
    assert app.toast_text is not None and "DRAW" in app.toast_text
    assert "start-up" in app.toast_text
    game_at(app, "draw")
    before = entries(app)
    rig.hold(0.5)
    assert rig.up("draw") == []
    assert entries(app) == before
    rig.hold(0.1)
    assert rig.press("draw") == [Press("draw")]


def test_buttons_without_a_use_here_change_nothing(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "market")
    state = app.session.state if app.session else None
    assert rig.press("draw") == [Press("draw")]
    assert rig.press("roll") == [Press("roll")]
    assert app.session is not None and app.session.state == state


# -- the lights ----------------------------------------------------------------------------------


def test_the_status_light_flashes_on_a_refusal(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    assert app.journal is not None
    setup, actions = refused_take_position()
    app.session = app.journal.start(setup, seed=0)  # type: ignore[arg-type]
    for a in actions:
        app.session.play(a)
    open_game(app)
    app.render(force=True)
    handed_out(app)
    player = colour(app, app.session.state.turn)
    rig.sync()
    assert rig.lit() == {player}
    refused = next(b for b in app.screen.buttons if b.key.startswith("take ") and not b.enabled)
    tap(app, refused.key)
    seen = []
    for _ in range(8):
        app.update_devices()
        seen.append("status" in rig.lit())
        assert player in rig.lit()
        wait(app, REFUSAL_STEP)
    assert seen == [True, False, True, False, True, False, False, False]


def test_the_end_of_a_game_plays_its_pattern(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    app = rig.app
    game_at(app, "over")
    assert isinstance(app.screen, EndScreen)
    rig.sync()
    assert rig.lit() == {"red"}
    wait(app, CHASE_STEP)
    app.update_devices()
    assert rig.lit() == {"blue"}
    wait(app, END_SECONDS)
    app.update_devices()
    assert rig.lit() == table_view(app.session).winners


def test_game_over_notice_from_the_app(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    rig.app.notify("game-over")
    rig.sync()
    assert rig.lit() == {"red"}


def test_closing_the_panel_turns_the_lights_off(rigs: Callable[..., Rig]) -> None:
    rig = rigs()
    game_at(rig.app, "draft")
    rig.sync()
    assert rig.lit()
    pins = [rig.factory.pin(g) for g in rig.panel.pins.leds.values()]
    rig.panel.close()
    assert not any(p.state for p in pins)


# -- opening the panel ------------------------------------------------------------------------


@pytest.fixture
def no_factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()


def test_off_a_pi_the_lights_go_on_screen_with_one_notice(
    tmp_path: Path, no_factory: None
) -> None:
    app = make_app(tmp_path)
    device = open_device(app, open_panel, model_path=tmp_path / "no-model")
    assert isinstance(device, ScreenLeds)
    assert app.toast_text is not None
    assert "not a Raspberry Pi" in app.toast_text and "keyboard" in app.toast_text
    app.toast("something else", now=True)
    app.add_device(device)
    app.update_devices()
    assert app.toast_text == "something else"
    wait(app, 4.5)  # one notice: nothing else was waiting behind it
    app.update_devices()
    assert app.toast_text is None


def test_without_gpiozero_the_notice_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero", None)
    app = make_app(tmp_path)
    assert isinstance(open_device(app, open_panel), ScreenLeds)
    assert app.toast_text is not None and ".[panel]" in app.toast_text


def test_on_a_pi_5_without_lgpio_the_notice_names_the_package(
    tmp_path: Path, no_factory: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    monkeypatch.setitem(sys.modules, "lgpio", None)
    app = make_app(tmp_path)
    assert isinstance(open_device(app, open_panel, model_path=model), ScreenLeds)
    assert app.toast_text is not None and "python3-lgpio" in app.toast_text


def test_on_a_pi_the_named_factory_is_used(
    tmp_path: Path, no_factory: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    app = make_app(tmp_path)
    panel = open_device(app, open_panel, model_path=model)
    try:
        assert isinstance(panel, Panel)
        assert type(panel.factory).__name__ == "MockFactory"
        assert app.toast_text is None
    finally:
        panel.close()


def test_pins_another_program_holds_give_the_notice(tmp_path: Path) -> None:
    factory = MockFactory()
    from gpiozero import LED

    squatter = LED(17, pin_factory=factory)  # the red LED's pin is taken
    try:
        app = make_app(tmp_path)
        assert isinstance(open_device(app, open_panel, pin_factory=factory), ScreenLeds)
        assert app.toast_text is not None and "cannot be opened" in app.toast_text
        LED(5, pin_factory=factory).close()  # the buttons opened before were closed again
    finally:
        squatter.close()
        factory.reset()


def test_a_bad_pin_map_stops_with_the_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    (tmp_path / "config.toml").write_text("[panel.buttons]\nundo = 17\n", encoding="utf-8")
    with pytest.raises(PinConfigError, match=r"config\.toml, line 2: GPIO 17 is used twice"):
        open_device(app, open_panel, pin_factory=MockFactory())


def test_a_panel_turned_off_gives_screen_lights_quietly(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    (tmp_path / "config.toml").write_text("[panel]\nenabled = false\n", encoding="utf-8")
    assert isinstance(open_device(app, open_panel, pin_factory=MockFactory()), ScreenLeds)
    assert app.toast_text is None


# -- the lights on screen ---------------------------------------------------------------------


@pytest.mark.parametrize(("where", "size"), covered(
    [(where, size) for where in ("draft", "place", "market", "builders", "over")
     for size in ((800, 480), (720, 1280))]), ids=ids)  # each screen in one size: all, -m full
def test_screen_lights_are_drawn_clear_of_the_buttons(
    tmp_path: Path, size: tuple[int, int], where: str
) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    app = make_app(tmp_path, size=size)
    leds = ScreenLeds()
    app.add_device(leds)
    if where == "builders":
        builders_at(app, "turn")
    else:
        game_at(app, where)
    app.update_devices()
    assert app.dirty  # a change of lights asks for a frame
    app.render()
    draw_lights(app.surface, app.metrics, leds.lights)
    spots = light_rects(app.metrics)
    for name, (x, y), r in spots:
        box = pygame.Rect(x - r - 1, y - r - 1, 2 * r + 3, 2 * r + 3)
        hit = [b.key for b in app.screen.buttons
               if b.rect.colliderect(box) and not b.extra.get("area")]  # drawn buttons only
        assert not hit, (name, hit)
        expected = leds.lights.lit[name]
        pixel = app.surface.get_at((x, y))[:3]
        bright = max(pixel) >= 150
        assert bright == expected, (name, pixel)


def test_screen_lights_hide_without_a_game(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    leds = ScreenLeds()
    app.add_device(leds)
    app.update_devices()
    app.render(force=True)
    before = pygame.image.tobytes(app.surface, "RGB")
    draw_lights(app.surface, app.metrics, leds.lights)
    assert pygame.image.tobytes(app.surface, "RGB") == before


# -- a round driven by the panel ----------------------------------------------------------------


def test_a_pillars_round_by_panel_presses_matches_the_engine(rigs: Callable[..., Rig]) -> None:
    """From phase I of round 1 to phase I of round 2: DRAW, ROLL, PASS and CONFIRM on the
    panel; touches only for choices the buttons cannot make (a space, a card, a resource).
    After every step the journal's record applied by the engine gives the kiosk's state."""
    rig = rigs(virtual_deck=True)
    app = rig.app
    game = get_game("pillars")
    game_at(app, "draft")
    assert app.session is not None and app.journal is not None
    start_round = app.session.state.round
    touches = 0
    used: set[str] = set()
    for _ in range(400):
        state = app.session.state
        if state.round > start_round and state.step == "draft":
            break
        screen: Any = app.screen
        assert screen.help_open is False
        if screen.anim is not None:
            wait(app, 1.2)
            continue
        if (screen.result is not None or screen.preview is not None
                or screen.handouts.current is not None):
            role = "confirm"
        elif state.step in ("draft", "market"):
            role = "pass"
        elif state.step == "draw":
            role = "draw"
        elif state.step == "roll":
            role = "roll"
        elif state.step == "place" and find(app, "pass").enabled:
            role = "pass"
        elif state.step == "cathedral":
            role = "confirm"
        elif state.step == "return":
            excess = sum(state.seats[state.turn].res) - 5
            for _k in range(excess):
                tap(app, next(k for k in keys(app) if k.startswith("more ") and
                              find(app, k).enabled))
                touches += 1
            role = "confirm"
        else:  # a space for a builder that cannot pass, Archbishop, Thomas, a discard...
            legal = {str(a) for a in game.legal_actions(state)}
            key = next(b.key for b in app.screen.buttons if b.enabled and b.key in legal)
            tap(app, key)
            touches += 1
            role = ""
        if role:
            before = (entries(app), screen.preview, screen.result,
                      len(screen.handouts.pending), screen.handout_view.page_of())
            assert rig.press(role) == [Press(role)]
            used.add(role)
            after = (entries(app), screen.preview, screen.result, len(screen.handouts.pending),
                     screen.handout_view.page_of())
            assert after != before, (role, state.step)
        record = app.journal.record(app.session.id)
        assert replay(game, record) == app.session.state
    else:
        raise AssertionError("the round did not end")
    assert used == {"draw", "roll", "pass", "confirm"}
    assert rig.presses > touches
    assert app.session.state.round == start_round + 1
