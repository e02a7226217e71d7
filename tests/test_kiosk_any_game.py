"""Defaults that work for any game, through the kiosk: the generic screen rolls a die the game
declares (``Game.die_of``) on ROLL and says so when there is none, its buttons speak the
game's own words, set-up offers no card dealing for a game without cards, and a game that
states no periods gets a period per turn (the log's headings, the end screen's chart).

Dice Race (tests/thirdgame) is the game from outside; Sticks (tests/toygame.py) the game that
declares nothing more than the contract asks.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine import CHANCE, Playthrough, get_game, registry
from companion.engine.summary import Period
from companion.kiosk import i18n
from tests.kiosk_helpers import drawn_texts, keys, make_app, press, tap
from tests.toygame import SPEC as STICKS
from tests.toygame import SticksGame

RACE = "dicerace"


def start(tmp_path: Path, game: str, language: str = "en", **kw: Any) -> Any:
    app = make_app(tmp_path, language=language, **kw)
    tap(app, "new")
    tap(app, f"game {game}")
    tap(app, "start")
    return app


def actions(app: Any) -> tuple[str, ...]:
    return app.journal.record(app.session.id).actions


def test_roll_rolls_the_die_dice_race_declares_and_says_why_when_none(tmp_path: Path) -> None:
    app = start(tmp_path, RACE)
    assert app.session.game.current_player(app.session.state) == CHANCE  # the wind card
    press(app, "roll")
    assert actions(app) == () and app.toast_text == "Nothing to roll now"
    press(app, "draw")  # the wind card, drawn for the table
    assert len(actions(app)) == 1 and actions(app)[0].startswith("wind ")
    drawn = drawn_texts(app)
    assert "Roll for the table" in drawn and "The table rolls the die" in drawn
    assert {f"roll {n}" for n in range(1, 7)} <= set(keys(app))  # a die the table rolled
    press(app, "roll")
    assert len(actions(app)) == 2 and actions(app)[1].startswith("roll ")
    assert app.session.state.die == int(actions(app)[1].split()[1])
    press(app, "roll")  # a decision now: nothing to roll, and nothing played
    assert len(actions(app)) == 2 and app.toast_text == "Nothing to roll now"


def test_a_die_the_table_rolled_is_tapped_previewed_and_confirmed(tmp_path: Path) -> None:
    app = start(tmp_path, RACE)
    app.play(get_game(RACE).parse_action("wind calm"))
    app.render(force=True)
    tap(app, "roll 5")
    assert app.screen.preview is not None and "confirm" in keys(app)
    tap(app, "confirm")
    assert actions(app) == ("wind calm", "roll 5") and app.session.state.die == 5


@pytest.mark.parametrize(("language", "move", "hold"), [
    ("en", "Red moves to space 4", "Red holds"),
    ("zh", "红方移到第4格", "红方原地不动"),
    ("ja", "赤が4マス目へ進む", "赤はとどまる"),
])
def test_the_buttons_speak_the_games_own_words(tmp_path: Path, language: str, move: str,
                                                hold: str) -> None:
    app = start(tmp_path, RACE, language)
    try:
        app.play(get_game(RACE).parse_action("wind tailwind"))
        app.play(get_game(RACE).parse_action("roll 3"))
        drawn = drawn_texts(app)
        assert move in drawn and hold in drawn, drawn
        assert "move" not in drawn and "hold" not in drawn  # not the notation
        assert {"move", "hold"} <= set(keys(app))  # the buttons still take those actions
        tap(app, "move")
        assert app.session.state.pawns == (4, 0)
    finally:
        i18n.set_language("en")


@pytest.fixture
def games() -> Iterator[None]:
    """Sticks, and Sticks without a card catalogue (a game with no cards), for one test."""
    rules = type("BareSticks", (SticksGame,), {"name": "bare", "title": "Bare Sticks"})
    bare = dataclasses.replace(STICKS, name="bare", title="Bare Sticks", rules=rules, cards=())
    registry.register(STICKS)
    registry.register(bare)
    yield
    registry.unregister("bare")
    registry.unregister(STICKS.name)


def test_set_up_offers_card_dealing_only_to_a_game_with_cards(tmp_path: Path,
                                                              games: None) -> None:
    app = make_app(tmp_path)
    tap(app, "new")
    for name, cards in (("sticks", True), ("bare", False), (RACE, True), ("pillars", True)):
        tap(app, f"game {name}")
        shown = drawn_texts(app)
        assert ("virtual True" in keys(app)) is cards, name
        assert ("Virtual deck" in shown) is cards and ("Cards" in shown) is cards, name
    tap(app, "game bare")
    tap(app, "start")
    assert app.session.game.name == "bare"


def test_a_game_without_periods_of_its_own_gets_a_turn_per_seat() -> None:
    """Sticks says nothing of its periods: a turn begins each time another seat decides (the
    reveal before it stays in the turn it comes in: it concerns the whole table)."""
    game = get_game("dicerace")  # a game with periods of its own keeps them
    pt = Playthrough(game, game.setup(2))
    assert pt.period == game.period_of(pt.state)
    sticks = STICKS.game()
    pt = Playthrough(sticks, sticks.setup(2))
    assert pt.period == Period(0, "turn", None)  # a reveal first: the set-up
    seats = []
    for text in ("reveal plain", "take 1", "reveal plain", "take 2", "reveal double"):
        pt.play(text)
        seats.append((pt.period.number, pt.period.seat))
    assert seats == [(1, 0), (1, 0), (2, 1), (2, 1), (3, 0)]
    pt.play("take 1")
    assert not pt.can_undo() or pt.undo() == sticks.parse_action("take 1")
    pt.play("take 1")
    pt.play("reveal plain")
    assert (pt.period.number, pt.period.seat) == (4, 1)
    assert sticks.periods(pt.states) == [Period(0, "turn", None), *(
        Period(n, "turn", s) for n, s in [(1, 0), (1, 0), (2, 1), (2, 1), (3, 0), (3, 0),
                                          (4, 1)])]
    assert sticks.periods(pt.states, 5) == [Period(3, "turn", 0)] * 2 + [Period(4, "turn", 1)]


def test_its_log_has_a_heading_per_turn_and_its_chart_a_point_per_turn(
    tmp_path: Path, games: None,
) -> None:
    from companion.kiosk.gamelog import log_text
    from companion.kiosk.screens.end import EndScreen

    app = make_app(tmp_path)
    tap(app, "new")
    tap(app, "game sticks")
    tap(app, "players 2")
    tap(app, "start")
    rng = random.Random(4)
    for _ in range(80):
        if isinstance(app.screen, EndScreen):
            break
        if "virtual" in keys(app):
            press(app, "draw")
        else:
            tap(app, rng.choice([k for k in keys(app) if k.startswith("take ")]))
    end = app.screen
    assert isinstance(end, EndScreen)
    record = app.journal.record(end.info.id)
    turns = sum(1 for a in record.actions if a.startswith("take "))
    assert turns >= 3
    text = log_text(get_game("sticks"), record)
    assert "Turn 1: Red" in text and "Turn 2: Blue" in text and f"Turn {turns}:" in text
    assert "Set-up" in text  # the first reveal, before anyone decides
    periods = end.info.periods
    assert [p for p, _s in periods] == list(range(0, turns + 1))  # a point per turn
    assert periods[-1][1] == end.info.scores  # the last point: the final scores
