"""A game from outside the project plays everywhere: Dice Race (tests/thirdgame), installed as a
distribution of its own by ``make test`` and found through its ``companion.games`` entry point.

It has no ledger and no money, a two-player range, wind cards the camera reads and an
out-of-turn block; nothing in the companion names it.  These tests take it through the engine
contract, the kiosk's generic screen (camera cards previewed and committed, the rules applied
once), the end screen, the log in every language, ``simulate``, the arena and a companion
seat.
"""

from __future__ import annotations

import json
import random
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from companion.engine import CHANCE, get_game, registry, replay
from companion.engine.registry import ENTRY_POINT_GROUP
from companion.kiosk import i18n, ui
from companion.kiosk.inputs import Card
from tests.kiosk_helpers import confirm_handout, drawn_texts, keys, make_app, press, tap

NAME = "dicerace"


def game() -> Any:
    return get_game(NAME)


def test_it_is_installed_as_a_distribution_of_its_own() -> None:
    """Found through its entry point, from its own package, outside the companion's."""
    eps = {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    assert eps[NAME].value == "dicerace.spec:SPEC"
    assert eps[NAME].dist is not None and eps[NAME].dist.name == "companion-dicerace"
    spec = registry.spec(NAME)
    assert type(spec.game()).__module__ == "dicerace.rules"
    assert spec.screen is None and spec.scenes is None  # the kiosk's generic screen
    assert spec.locale is not None and (spec.locale / "ja/LC_MESSAGES/dicerace.po").exists()
    assert NAME in registry.names() and len(registry.names()) >= 3


def to_decision(g: Any, state: Any, wind: str = "calm", roll: int = 4) -> Any:
    return g.apply(g.apply(state, g.parse_action(f"wind {wind}")), g.parse_action(f"roll {roll}"))


def test_the_contract_without_ledger_or_money_and_with_an_out_of_turn_window() -> None:
    g = game()
    setup = g.setup(2)
    state = g.initial_state(setup)
    assert g.current_player(state) == CHANCE and g.period_of(state).kind == "turn"
    assert g.outcome_for_card(state, "tailwind") == g.parse_action("wind tailwind")
    state = to_decision(g, state, "tailwind", 4)
    assert g.current_player(state) == 0 and g.period_of(state).seat == 0
    block = g.parse_action("block")
    assert g.out_of_turn(state) == {1: [block]} and g.actor(state, block) == 1
    blocked = g.apply(state, block)
    assert g.out_of_turn(blocked) == {} and g.distance(blocked) == 2  # 1 and the tailwind
    moved = g.apply(blocked, g.parse_action("move"))
    assert moved.pawns == (2, 0) and g.period_of(moved).number == 2
    assert g.out_of_turn(to_decision(g, moved)) == {0: [block]}  # Red may block Blue
    again = g.apply(to_decision(g, moved), g.parse_action("hold"))
    assert g.out_of_turn(to_decision(g, again)) == {}  # Blue blocked once: no more
    summary = g.summary(moved)
    assert not summary.has_money and not summary.has_sources and g.ledger(moved) == ()
    assert [p.score for p in summary.players] == [2, 0] and summary.winners == ()
    assert summary.to_json()["players"][0] == {"name": "Red", "colour": "red", "space": 2,
                                               "blocked": False}


@pytest.mark.parametrize("players", [1, 3, 4])
def test_the_spec_range_is_the_one_enforced(players: int) -> None:
    from companion.engine import SetupError

    with pytest.raises(SetupError, match="2 to 2 players"):
        game().setup(players)


def play_through(app: Any, rng: random.Random, limit: int = 400) -> int:
    """Play the session on the generic screen to its end: the table's draws by the DRAW
    button, each decision a tap on a random button the engine allows."""
    from companion.kiosk.screens.end import EndScreen

    taps = 0
    for _ in range(limit):
        if isinstance(app.screen, EndScreen):
            return taps
        if "virtual" in keys(app):
            press(app, "draw")
        else:
            tap(app, rng.choice([k for k in keys(app) if k in ("move", "hold")]))
            taps += 1
    raise AssertionError("the race did not end")


def test_a_race_through_the_kiosk_to_the_end_screen_and_its_log_in_every_language(
    tmp_path: Path,
) -> None:
    from companion.kiosk.gamelog import log_text
    from companion.kiosk.screens.end import EndScreen
    from companion.kiosk.screens.generic import GenericGameScreen
    from companion.kiosk.screens.log import LogScreen

    app = make_app(tmp_path)
    tap(app, "new")
    tap(app, f"game {NAME}")
    assert "players 3" not in keys(app) and "players 2" in keys(app)  # the spec's range
    tap(app, "track 15")  # its option, worded from its catalogue
    tap(app, "start")
    assert isinstance(app.screen, GenericGameScreen)
    ui.OVERFLOWS.clear()
    assert play_through(app, random.Random(3)) > 0
    end = app.screen
    assert isinstance(end, EndScreen)
    assert end.summary.winners and not end.has_sources and end.show_chart
    drawn: list[str] = []
    ui.DRAWN = drawn
    try:
        app.render(force=True)
    finally:
        ui.DRAWN = None
    winner = end.summary.winners[0]
    assert f"{winner} wins with 15 points" in drawn  # the pawn on the finish
    assert not any("coin" in t for t in drawn)  # no money to speak of
    assert "Points by source" not in drawn and "chart" not in keys(app)
    assert not ui.OVERFLOWS, ui.OVERFLOWS
    tap(app, "log")
    assert isinstance(app.screen, LogScreen) and app.screen.sections()
    record = app.journal.record(end.info.id)
    g = game()
    said = {}
    for lang in ("en", "zh", "ja"):
        i18n.set_language(lang)
        said[lang] = log_text(g, record)
    i18n.set_language("en")
    assert said["en"].startswith("Dice Race\nPlayers: Red, Blue")
    assert "Turn 1: Red" in said["en"] and "Red rolls" in said["en"]
    assert "The wind card for Red:" in said["en"] and "Game over" in said["en"]
    assert said["ja"].startswith("ダイスレース") and "手番1：赤" in said["ja"]
    assert "の出目は" in said["ja"] and "風カード" in said["ja"]
    assert said["zh"].startswith("掷骰竞速") and "第1回合" in said["zh"] and "掷出" in said["zh"]
    for text in said.values():
        assert "{" not in text and "Round 0" not in text


def count_applies(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every time the rules of Dice Race are applied, from now on."""
    calls: list[str] = []
    cls = type(game())
    original = cls.apply

    def counted(self: Any, state: Any, action: Any) -> Any:
        calls.append(str(action))
        return original(self, state, action)

    monkeypatch.setattr(cls, "apply", counted)
    return calls


def start_race(tmp_path: Path) -> Any:
    app = make_app(tmp_path)
    tap(app, "new")
    tap(app, f"game {NAME}")
    tap(app, "start")
    return app


def test_a_camera_card_is_previewed_then_committed_with_the_rules_applied_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.kiosk.screens.generic import GenericGameScreen

    app = start_race(tmp_path)
    assert isinstance(app.screen, GenericGameScreen)
    calls = count_applies(monkeypatch)
    app.dispatch(Card(NAME, "tailwind"))
    app.render()
    assert app.screen.preview is not None and "confirm" in keys(app)
    assert calls == ["wind tailwind"]  # the preview: once
    drawn: list[str] = []
    ui.DRAWN = drawn
    try:
        app.render(force=True)
    finally:
        ui.DRAWN = None
    assert "Revealed: Tailwind" in drawn
    tap(app, "confirm")
    assert calls == ["wind tailwind"]  # the commit: the journal took the preview's step
    assert app.session.state.wind == "tailwind" and app.screen.preview is None
    assert app.journal.record(app.session.id).actions == ("wind tailwind",)
    press(app, "draw")  # the die, drawn for the table: applied once, on the journal's path
    # (the buttons of the decision that follows are worded by Dice Race's words, whose
    # "moves to space n" reads the rules: not a commit)
    assert [c for c in calls if c != "move"] == [
        "wind tailwind", app.journal.record(app.session.id).actions[-1]]


def test_a_camera_card_that_cannot_be_revealed_is_refused_with_the_reason(
    tmp_path: Path,
) -> None:
    app = start_race(tmp_path)
    app.dispatch(Card(NAME, "calm"))
    app.render()
    tap(app, "confirm")
    app.dispatch(Card(NAME, "headwind"))  # the die is due, not a card
    assert app.screen.preview is None and app.toast_text
    assert "Headwind" in app.toast_text
    app.dispatch(Card("pillars", "madonna"))  # another game's card
    assert app.screen.preview is None and "belongs to" in (app.toast_text or "")
    assert app.journal.record(app.session.id).actions == ("wind calm",)


def test_a_stale_preview_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    app = start_race(tmp_path)
    step = app.preview(game().parse_action("wind calm"))
    assert step is not None
    assert app.play(game().parse_action("wind headwind"))
    assert not app.play(step)  # made on the state before: refused, nothing written
    assert app.journal.record(app.session.id).actions == ("wind headwind",)


def test_the_out_of_turn_block_is_a_button_of_the_other_player(tmp_path: Path) -> None:
    app = start_race(tmp_path)
    app.play(game().parse_action("wind calm"))
    app.play(game().parse_action("roll 6"))
    app.render(force=True)
    assert {"move", "hold", "block"} <= set(keys(app))
    tap(app, "block")
    assert app.session.state.block_now and "block" not in keys(app)
    tap(app, "move")
    assert app.session.state.pawns == (1, 0)


def test_simulate_defaults_to_the_players_of_each_spec(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from companion.cli import main

    for spec in registry.specs():
        assert main(["simulate", spec.name, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["players"] == spec.max_players
    assert main(["simulate", NAME, "--verify"]) == 0
    capsys.readouterr()
    assert main(["simulate", NAME, "--players", "3"]) == 2
    assert "2 to 2 players" in capsys.readouterr().err


def test_the_arena_plays_it(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["arena", NAME, "--games", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 2 and out["games"] == 6


def test_a_companion_seat_plays_it_on_the_generic_screen(tmp_path: Path) -> None:
    from companion.kiosk.screens.end import EndScreen
    from companion.kiosk.screens.generic import GenericGameScreen
    from companion.kiosk.seats import Companion
    from tests.test_kiosk_seats import STRENGTH, companion_turn, start

    app = make_app(tmp_path)
    app.companion.mode = "thread"
    start(app, NAME, 2, companion_seat=1)
    assert isinstance(app.screen, GenericGameScreen)
    rng = random.Random(4)
    decided = 0
    for _ in range(400):
        if isinstance(app.screen, EndScreen):
            break
        if "virtual" in keys(app):
            press(app, "draw")
        elif Companion.seat_to_decide(app.session) is not None:
            companion_turn(app, random.Random(decided), check_seed=False)
            decided += 1
        else:
            tap(app, rng.choice(["move", "hold"]))
    assert isinstance(app.screen, EndScreen) and decided >= 1
    record = app.journal.record(app.journal.games()[0].id)
    assert record.companions == {1: STRENGTH}
    assert game().is_over(replay(game(), record))


def test_its_catalogue_is_its_own_and_complete() -> None:
    """Its words are in its catalogue (found through GameSpec.locale), not the core's."""
    from companion.kiosk import catalogue

    cat = next(c for c in catalogue.catalogues() if c.domain == NAME)
    assert cat.folder == registry.spec(NAME).locale
    mine = {key for key in i18n.catalogue_messages(cat)}
    assert ("Dice Race", None) in mine and ("{name} rolls {n}", None) in mine
    core = {key for key in i18n.catalogue_messages(catalogue.catalogues()[0])}
    assert not mine & core
    i18n.set_language("ja")
    try:
        assert i18n._("Dice Race") == "ダイスレース" and i18n._("Tailwind") == "追い風"
    finally:
        i18n.set_language("en")


def test_the_generic_screen_hands_out_what_the_rules_change(tmp_path: Path) -> None:
    """A game without a screen of its own gets the games' path (``propose`` and ``commit``):
    Tally Sticks' double card makes a player take a second half by the rules, which the generic
    screen hands out (one CONFIRM, stored in the journal) before the next decision, shows again
    after a restart until confirmed, takes back with an undo, and holds the end screen for."""
    from companion.kiosk.screens.end import EndScreen
    from companion.kiosk.screens.generic import GenericGameScreen
    from tests.toygame import register_tally, unregister_tally

    register_tally()
    try:
        app = make_app(tmp_path)
        tap(app, "new")
        tap(app, "game tally")
        tap(app, "players 2")
        tap(app, "sticks 10")
        tap(app, "start")
        assert isinstance(app.screen, GenericGameScreen)
        app.dispatch(Card("tally", "double"))  # the camera: previewed, then confirmed
        app.render()
        tap(app, "confirm")
        assert "handout confirm" not in keys(app)  # a reveal changes no holdings
        tap(app, "take 2")
        assert app.session.state.sticks == 6
        assert "handout confirm" in keys(app) and "take 1" not in keys(app)
        drawn = drawn_texts(app)
        assert any("the double card" in t for t in drawn), drawn
        press(app, "undo")  # the take and its hand-out are taken back together
        assert app.session.state.sticks == 10 and "handout confirm" not in keys(app)
        tap(app, "take 2")
        assert "handout confirm" in keys(app)
        first = app.session.id
        app.journal.close()  # a restart: the journal shows the step not yet confirmed
        app = make_app(tmp_path)
        app.session = app.journal.resume(first)
        app.open_game()
        app.render(force=True)
        assert app.session.id == first and "handout confirm" in keys(app)
        confirm_handout(app)
        assert app.session.handed_out() is not None and "virtual" in keys(app)
        for _k in range(40):  # to the end: the last take's hand-out first, then the end screen
            if isinstance(app.screen, EndScreen):
                break
            if "handout confirm" in keys(app):
                confirm_handout(app)
            elif "virtual" in keys(app):
                app.dispatch(Card("tally", "double" if app.session.state.sticks >= 2
                                  else "plain"))
                app.render()
                tap(app, "confirm")
            else:
                last = app.session.state.sticks <= 2
                tap(app, "take 1")
                assert not (last and isinstance(app.screen, EndScreen)), "the end came first"
        assert isinstance(app.screen, EndScreen)
    finally:
        unregister_tally()
