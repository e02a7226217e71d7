"""The kiosk shell as a person uses it: touch and mouse, refusals, undo, languages, resume,
set-up, names, settings, and a clear screen instead of a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.kiosk import config as config_mod
from companion.kiosk.app import App
from companion.kiosk.config import Config, ConfigError
from companion.kiosk.i18n import language
from companion.kiosk.screens.game import open_game
from companion.kiosk.screens.home import ErrorScreen, HomeScreen
from companion.kiosk.screens.settings import journal_line
from companion.kiosk.screens.setup import NameScreen, SetupScreen
from companion.kiosk.screenshots import find_prefixes
from companion.main import run_kiosk
from companion.pillars.kiosk import PillarsScreen
from tests.kiosk_helpers import find, handed_out, keys, make_app, press, tap, wait


def game_at(app: App, step: str, players: int = 4, settle: bool = True) -> None:
    """Put the app on a Pillars game at the first state of ``step`` (from a seeded game);
    with ``settle`` the hand-out steps shown on opening are confirmed."""
    setup, actions = find_prefixes("pillars", [step], players=players)[step]
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    open_game(app)
    app.render(force=True)
    if settle:
        handed_out(app)


def test_a_touch_counts_once(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    game_at(app, "market")
    b = find(app, "more stone")
    w, h = app.size
    x, y = b.rect.center
    # SDL sends a finger event and a synthesised mouse event for one touch
    app.handle_event(pygame.event.Event(pygame.FINGERUP, x=x / w, y=y / h, touch_id=1,
                                        finger_id=0))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1, touch=True))
    app.render()
    assert app.screen.market.choice.qty["stone"] == 2
    tap(app, "more stone")  # a mouse click
    assert app.screen.market.choice.qty["stone"] == 3


def refused_take_position() -> tuple[object, list[str]]:
    """A seeded game's first draft position where a card in the pool cannot be taken."""
    import random

    from companion.engine import CHANCE, get_game
    from companion.engine.simulate import sample

    game = get_game("pillars")
    for seed in range(200):
        rng = random.Random(seed)
        setup = game.setup(4)
        state = game.initial_state(setup)
        actions: list[str] = []
        while not game.is_over(state):
            if state.step == "draft":
                legal = {str(a) for a in game.legal_actions(state)}
                if any(f"take {c}" not in legal for c in state.pool):
                    return setup, actions
            if game.current_player(state) == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)
            actions.append(str(action))
    raise AssertionError("no such position in 200 games")


def test_a_refused_card_shows_the_reason_and_changes_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    setup, actions = refused_take_position()
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    open_game(app)
    app.render(force=True)
    handed_out(app)
    out_of_reach = [b for b in app.screen.buttons if b.key.startswith("take ") and not b.enabled]
    assert out_of_reach, keys(app)
    before = app.session.state
    entries = len(app.journal.entries(app.session.id))
    tap(app, out_of_reach[0].key)
    assert app.session.state == before
    assert len(app.journal.entries(app.session.id)) == entries
    assert app.toast_text is not None
    assert "cannot take" in app.toast_text
    assert any(word in app.toast_text for word in ("workers", "gold"))


def test_undo_goes_back_over_decisions_but_never_past_a_draw(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    game_at(app, "draw")
    press(app, "draw")
    wait(app, 1.5)
    drawn = app.session.state
    assert drawn.step == "place"
    tap(app, "pass") if find(app, "pass").enabled else tap(app, "place castle")
    assert app.session.state != drawn
    press(app, "undo")
    assert app.session.state == drawn
    press(app, "undo")
    assert app.session.state == drawn
    assert app.toast_text is not None and "re-roll" in app.toast_text
    # the journal kept both the decision and its undo
    kinds = [e.kind for e in app.journal.entries(app.session.id)][-3:]
    assert kinds == ["action", "action", "undo"]


def test_language_switch_at_any_moment(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    game_at(app, "market")
    assert find(app, "pass").label == "Pass: done trading"
    press(app, "language")
    assert language() == "zh"
    assert find(app, "pass").label != "Pass: done trading"
    press(app, "language")
    assert language() == "ja"
    press(app, "language")
    assert language() == "en"
    assert config_mod.load(tmp_path / "config.toml").language == "en"


def test_redraw_only_when_something_changed(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    game_at(app, "draft")
    assert app.render() is False  # nothing changed since the last frame
    app.tick(1.0)
    assert app.render() is False
    assert not app.animating
    tap(app, "pass")
    assert app.dirty is False  # the tap redrew once (tap renders)


def test_resume_after_a_restart(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap(app, "new")
    tap(app, "players 3")
    tap(app, "start")
    handed_out(app)  # each seat's starting pieces
    for _ in range(5):
        b = next(b for b in app.screen.buttons if b.key.startswith("privilege ")
                 or b.key.startswith("craftsman ") or b.key.startswith("resource "))
        tap(app, b.key)
        press(app, "confirm")
    state = app.session.state
    app.journal.close()
    pygame.display.quit()
    again = make_app(tmp_path)
    assert isinstance(again.screen, HomeScreen)
    tap(again, "resume")
    assert isinstance(again.screen, PillarsScreen)
    assert again.session.state == state


def test_setup_seats_colours_start_player_and_names(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap(app, "new")
    assert isinstance(app.screen, SetupScreen)
    tap(app, "players 3")
    tap(app, "colour 0")  # red -> green (the free colour)
    tap(app, "move 2")  # seat 3 moves up
    tap(app, "start 1")
    tap(app, "name 0")
    assert isinstance(app.screen, NameScreen)
    for ch in "ANN":
        tap(app, f"key {ch}")
    app.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="·李"))  # an input method
    app.render()
    tap(app, "done")
    assert isinstance(app.screen, SetupScreen)
    tap(app, "start")
    setup = app.session.state.setup
    assert [p.name for p in setup.players] == ["Ann·李", "Yellow", "Blue"]
    assert [p.colour for p in setup.players] == ["green", "yellow", "blue"]
    assert setup.start_player == 1
    assert app.session.state.seats[1].gold == 20  # the start player has 20 gold


def test_settings_change_and_persist(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap(app, "settings")
    tap(app, "virtual True")
    tap(app, "language ja")
    tap(app, "sound False")
    cfg = config_mod.load(tmp_path / "config.toml")
    assert cfg.virtual_deck is True and cfg.language == "ja" and cfg.sound is False
    press(app, "back")
    assert isinstance(app.screen, HomeScreen)


@pytest.mark.parametrize(("size", "lang"), [((720, 1280), "en"), ((800, 480), "zh"),
                                             ((720, 1280), "ja")])
def test_a_journal_deep_in_long_folders_is_named_without_overflow(
        tmp_path: Path, size: tuple[int, int], lang: str) -> None:
    """The settings say where the journal is: a path too long for its two lines keeps its
    root's first folder, the file and the folders above it that fit, the rest "…"."""
    from companion.kiosk import ui

    deep = tmp_path.joinpath(*(f"a-rather-long-folder-name-{k}" for k in range(6)))
    deep.mkdir(parents=True)
    app = make_app(deep, size=size, language=lang)
    ui.OVERFLOWS.clear()
    ui.DRAWN = []
    try:
        tap(app, "settings")
        app.render(force=True)
        drawn = [str(t) for t in ui.DRAWN]
    finally:
        ui.DRAWN = None
    assert not ui.OVERFLOWS, ui.OVERFLOWS
    line = next(t for t in drawn if "journal.sqlite3" in t)
    assert "…" in line and "a-rather-long-folder-name-0" not in line, line
    wide = pygame.Rect(0, 0, 4000, 400)  # room for it all: the whole path
    assert str(deep / "journal.sqlite3") in journal_line(app.surface, wide, app.metrics,
                                                         deep / "journal.sqlite3")
    some = pygame.Rect(0, 0, app.metrics.px(500), app.metrics.px(60))  # the file and a folder
    assert "a-rather-long-folder-name-5/journal.sqlite3" in journal_line(
        app.surface, some, app.metrics, deep / "journal.sqlite3")


@pytest.mark.parametrize(("text", "message"), [
    ("[kiosk]\nwidth = 'wide'\n", "kiosk.width must be int, not str"),
    ("[kiosk]\nlanguage = 'fr'\n", "kiosk.language must be one of en, zh, ja"),
    ("[kiosk]\ncolour = 1\n", "unknown setting kiosk.colour"),
    ("[kiosk\n", "not valid TOML"),
    ("[kiosk]\nheight = 99\n", "between 240 and 7680"),
])
def test_a_bad_config_is_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        config_mod.load(path)


def test_config_round_trips(tmp_path: Path) -> None:
    cfg = Config(language="zh", fullscreen=True, width=720, height=1280, virtual_deck=True,
                 sound=False, journal='/data/j "1".sqlite3')
    config_mod.save(cfg, tmp_path / "c.toml")
    assert config_mod.load(tmp_path / "c.toml") == cfg


def test_the_error_screen_instead_of_a_traceback(tmp_path: Path) -> None:
    pygame.init()
    app = App(Config(sound=False), size=(800, 480), journal=None,
              config_path=tmp_path / "c.toml", config_error="kiosk.width must be int")
    app.render(force=True)
    assert isinstance(app.screen, ErrorScreen)
    tap(app, "quit")
    assert app.running is False


def test_start_shows_a_damaged_config_on_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    """start() with a malformed config opens the error screen and runs; no traceback."""
    from companion.kiosk import app as app_mod

    seen: dict[str, object] = {}

    def fake_run(self: App) -> None:
        self.render(force=True)
        seen["screen"] = self.screen
        seen["text"] = getattr(self.screen, "message", "")

    monkeypatch.setattr(app_mod.App, "run", fake_run)
    path = tmp_path / "config.toml"
    path.write_text("[kiosk]\nsound = 'loud'\n")
    assert run_kiosk(path, size=(800, 480)) == 0
    assert isinstance(seen["screen"], ErrorScreen)
    assert "kiosk.sound must be bool" in str(seen["text"])


def test_a_journal_from_the_future_is_shown_not_raised(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.kiosk import app as app_mod

    journal = tmp_path / "j.sqlite3"
    import sqlite3

    from companion.journal import Journal
    from companion.journal.schema import APPLICATION_ID

    Journal.open(journal).close()
    con = sqlite3.connect(journal)
    con.execute("PRAGMA user_version = 999")  # written by a newer companion
    con.commit()
    con.close()
    assert int(sqlite3.connect(journal).execute("PRAGMA application_id").fetchone()[0]) == (
        APPLICATION_ID)
    before = journal.read_bytes()
    seen: dict[str, object] = {}

    def fake_run(self: App) -> None:
        self.render(force=True)
        seen["screen"] = self.screen

    monkeypatch.setattr(app_mod.App, "run", fake_run)
    cfg = tmp_path / "config.toml"
    config_mod.save(Config(journal=str(journal), sound=False), cfg)
    assert run_kiosk(cfg, size=(800, 480)) == 0
    screen = seen["screen"]
    assert isinstance(screen, ErrorScreen)
    assert "journal" in screen.message.lower() and "newer" in screen.message.lower()
    assert journal.read_bytes() == before  # untouched


def post_card(app: App, game: str, card: str) -> None:
    from companion.kiosk.inputs import INPUT_EVENT, Card

    app.handle_event(pygame.event.Event(INPUT_EVENT, input=Card(game, card)))
    app.render()


def test_a_card_read_by_the_camera_is_checked_against_the_rules(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap(app, "new")
    tap(app, "players 2")
    tap(app, "start")
    handed_out(app)  # each seat's starting pieces
    assert app.session.state.step == "privilege"
    post_card(app, "pillars", "madonna")
    assert app.screen.preview is not None
    press(app, "confirm")
    assert app.session.state.kingsbridge == ("madonna",)
    before = app.session.state
    post_card(app, "pillars", "madonna")  # the same card again
    assert app.session.state == before
    assert "madonna" in app.session.state.kingsbridge
    assert app.toast_text is not None and "already been revealed" in app.toast_text
    post_card(app, "pillars", "mason3")  # not a privilege card
    assert "not" in (app.toast_text or "") and app.session.state == before
    post_card(app, "builders", "abbaye")
    assert "Builders" in (app.toast_text or "")
    post_card(app, "pillars", "tom")
    press(app, "confirm")
    assert app.session.state.step == "craftsman"
    post_card(app, "pillars", "mason2")  # a craftsman of round 2 in round 1
    assert "round 2" in (app.toast_text or "")


def test_devices_read_the_state_and_hear_refusals(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    game_at(app, "draft")

    class Fake:
        def __init__(self) -> None:
            self.updates = 0
            self.events: list[tuple[str, str]] = []
            self.closed = False

        def update(self, view: Any, now: float) -> list[Any]:
            self.updates += 1
            self.view = view
            return []

        def notify(self, event: str, detail: str = "") -> None:
            self.events.append((event, detail))

        def close(self) -> None:
            self.closed = True

    fake = Fake()
    app.add_device(fake)
    app.update_devices()
    app.refuse("Red cannot take the quarry: it needs 8 workers, Red has 7")
    assert fake.updates == 1
    assert fake.view.active == app.session.state.setup.players[app.session.state.turn].colour
    assert fake.events == [("refused", "Red cannot take the quarry: it needs 8 workers, "
                                       "Red has 7")]
    app.close_devices()
    assert fake.closed and app.devices == []


def test_saving_settings_keeps_the_other_tables(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# the table's Pi\n[panel]\ndraw = 5  # the big button\n\n[kiosk]\n"
                    "language = \"zh\"\n\n[camera]\nsource = \"picamera2\"\n")
    config_mod.save(config_mod.load(path).with_(language="ja"), path)
    text = path.read_text()
    assert "# the table's Pi\n[panel]\ndraw = 5  # the big button\n" in text
    assert "[camera]\nsource = \"picamera2\"\n" in text
    assert text.count("[kiosk]") == 1
    assert config_mod.load(path).language == "ja"
    import tomllib

    assert tomllib.loads(text)["panel"] == {"draw": 5}


def test_start_attaches_the_panel_lights_off_the_pi(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Off a Pi the panel is replaced by lights drawn on screen, with one notice."""
    from companion.kiosk import app as app_mod

    seen: dict[str, object] = {}

    def fake_run(self: App) -> None:
        self.render(force=True)
        seen["devices"] = [type(d).__name__ for d in self.devices]
        seen["screen"] = type(self.screen).__name__

    monkeypatch.setattr(app_mod.App, "run", fake_run)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    cfg = tmp_path / "config.toml"
    config_mod.save(Config(journal=str(tmp_path / "j.sqlite3"), sound=False), cfg)
    assert run_kiosk(cfg, size=(800, 480)) == 0
    assert seen["screen"] == "HomeScreen"
    assert "ScreenLeds" in seen["devices"]  # type: ignore[operator]


def test_the_table_check_opens_from_the_help_with_a_camera(tmp_path: Path) -> None:
    from companion.kiosk.screens.table_check import TableCheckScreen

    app = make_app(tmp_path)
    game_at(app, "draft")
    press(app, "help")
    assert "table check" not in keys(app)  # no camera: only Close

    class Camera:  # a device that can check the table is what the help looks for
        online = False

        def update(self, view: Any, now: float) -> list[Any]:
            return []

        def check_table(self, spec: Any, state: Any) -> Any: ...

        def notify(self, event: str, detail: str = "") -> None: ...

        def close(self) -> None: ...

    app.add_device(Camera())
    app.render(force=True)
    tap(app, "table check")
    assert isinstance(app.screen, TableCheckScreen)
    press(app, "back")
    assert isinstance(app.screen, PillarsScreen)


def test_notices_wait_their_turn_and_refusals_do_not(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.toast("the journal was moved aside")
    app.toast("no button panel")
    app.toast("no button panel")  # the same notice twice is shown once
    assert app.toast_text == "the journal was moved aside"
    wait(app, 4.5)
    assert app.toast_text == "no button panel"
    app.refuse("Red cannot take the quarry")
    assert app.toast_text == "Red cannot take the quarry"
    wait(app, 4.5)
    assert app.toast_text is None


def test_the_start_players_redraw_is_offered_as_his_and_recorded_as_his(tmp_path: Path) -> None:
    """The re-draw belongs to the start player: the button names him and the builder's owner,
    a tap previews it, CONFIRM sends the builder back into the bag, and the engine attributes
    it to the start player."""
    app = make_app(tmp_path)
    game_at(app, "draw")
    assert app.session is not None
    game = app.session.game
    for _ in range(40):  # draw until someone else's builder waits and the re-draw is open
        state = app.session.state
        if (state.step == "place" and game.start_player_actions(state)
                and state.turn != state.start):
            break
        if state.step == "draw":
            press(app, "draw")
            wait(app, 1.0)
        else:
            press(app, "pass")
            if app.screen.preview is not None:
                press(app, "confirm")
    state = app.session.state
    assert state.step == "place" and game.start_player_actions(state)
    assert state.turn != state.start
    start = state.setup.players[state.start].name
    owner = state.setup.players[state.turn].name
    b = find(app, "redraw")
    assert b.label == f"{start}, the start player: send {owner}'s builder back"
    assert game.actor(state, game.parse_action("redraw")) == state.start != state.turn
    tap(app, "redraw")
    press(app, "confirm")
    assert app.journal is not None
    assert app.journal.record(app.session.id).actions[-1] == "redraw"
    assert app.session.state.step == "draw"
    app.render(force=True)
    assert "redraw" not in keys(app)


def test_the_name_keyboard_has_digits_cancel_clear_and_recent_names(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap(app, "new")
    tap(app, "name 0")
    assert isinstance(app.screen, NameScreen)
    for k in ("key 1", "key 0", "cancel", "clear", "erase", "done"):
        assert k in keys(app), k
    tap(app, "key A")
    tap(app, "key 2")
    assert app.screen.text == "A2"
    tap(app, "cancel")  # the name stays as it was
    assert isinstance(app.screen, SetupScreen) and app.screen.seats[0][0] == ""
    tap(app, "name 0")
    tap(app, "key B")
    tap(app, "clear")
    assert app.screen.text == ""
    tap(app, "key Z")
    tap(app, "key O")
    tap(app, "done")
    assert app.screen.names()[0] == "Zo"
    tap(app, "players 2")
    tap(app, "start")
    # the next new game seats the last table again, and offers its names in one tap
    press(app, "back")
    tap(app, "new")
    setup = app.screen
    assert isinstance(setup, SetupScreen)
    assert setup.count == 2 and setup.names()[0] == "Zo"
    tap(app, "name 1")
    assert "recent Zo" not in keys(app)  # already seated
    assert app.screen.setup.recent[0] == "Zo"


def test_the_solo_builders_variant_is_offered_labelled_unofficial(tmp_path: Path) -> None:
    from companion.builders.kiosk import BuildersScreen

    app = make_app(tmp_path)
    tap(app, "new")
    assert "players 1" not in keys(app)  # Pillars has no solo
    tap(app, "game builders")
    tap(app, "players 1")
    assert find(app, "players 1").sub == "solo"
    ui_texts: list[str] = []
    from companion.kiosk import ui

    ui.DRAWN = ui_texts
    try:
        app.render(force=True)
    finally:
        ui.DRAWN = None
    assert "Solo against the Automa: an unofficial variant" in ui_texts
    tap(app, "start")
    assert isinstance(app.screen, BuildersScreen)
    assert app.session is not None and len(app.session.state.setup.players) == 1
