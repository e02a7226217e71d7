"""What the five lights show in each situation, stepped through time without sleeping."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from companion.engine import get_game
from companion.events import TableView
from companion.kiosk.devices import table_view
from companion.kiosk.screenshots import find_prefixes
from companion.panel.lamps import (
    CHASE_SECONDS,
    CHASE_STEP,
    END_SECONDS,
    FLASH_STEP,
    REFUSAL_SECONDS,
    REFUSAL_STEP,
    Lamps,
)


@dataclass
class Session:
    """What the lights read of the kiosk's session."""

    game: Any
    state: Any
    id: int = 1


@cache
def at(game_name: str, step: str) -> Any:
    """The first state of ``step`` in a seeded game (4 players for Pillars, 3 for Builders)."""
    game = get_game(game_name)
    players = 4 if game_name == "pillars" else 3
    setup, actions = find_prefixes(game_name, [step], players=players)[step]
    state = game.initial_state(setup)
    for a in actions:
        state = game.apply(state, game.parse_action(a))
    return state


def session(game_name: str, step: str, id: int = 1) -> Session:
    return Session(get_game(game_name), at(game_name, step), id)


def lit(lamps: dict[str, bool]) -> set[str]:
    return {name for name, on in lamps.items() if on}


def colour_of(state: Any, seat: int) -> str:
    return str(state.setup.players[seat].colour)


def test_no_game_no_light() -> None:
    assert lit(Lamps().frame(TableView(), 0.0)) == set()


def test_phase_one_lights_the_current_player() -> None:
    s = session("pillars", "draft")
    assert lit(Lamps().frame(table_view(s), 0.0)) == {colour_of(s.state, s.state.turn)}


def test_the_drawn_builders_colour_lights_while_its_owner_decides() -> None:
    s = session("pillars", "place")
    assert s.state.drawn >= 0
    assert table_view(s).active == colour_of(s.state, s.state.drawn)
    assert lit(Lamps().frame(table_view(s), 0.0)) == {colour_of(s.state, s.state.drawn)}


@pytest.mark.parametrize("step", ["draw", "roll", "resource"])
def test_nothing_lights_while_the_table_draws_rolls_or_reveals(step: str) -> None:
    assert lit(Lamps().frame(table_view(session("pillars", step)), 0.0)) == set()


def test_a_phase_three_decision_lights_its_player() -> None:
    s = session("pillars", "market")
    assert lit(Lamps().frame(table_view(s), 0.0)) == {colour_of(s.state, s.state.turn)}


@pytest.mark.parametrize("key", ["turn", "turn-sites", "reveal"])
def test_the_builders_active_player_lights_all_turn_long(key: str) -> None:
    s = session("builders", key)
    assert lit(Lamps().frame(table_view(s), 0.0)) == {colour_of(s.state, s.state.turn_player)}


def test_a_refusal_flashes_the_status_light_three_times() -> None:
    s = session("pillars", "draft")
    player = colour_of(s.state, s.state.turn)
    lamps = Lamps()
    lamps.frame(table_view(s), 5.0)
    lamps.notify("refused", "Red cannot take Large quarry")
    seen = []
    t = 10.0
    while t < 10.0 + REFUSAL_SECONDS + 0.5:
        frame = lamps.frame(table_view(s), t)
        assert frame[player]  # the player's light stays on throughout
        seen.append(frame["status"])
        t = round(t + REFUSAL_STEP / 3, 6)
    # on, off three times (three samples per step), then off for good
    flashes = [seen[k] for k in range(0, 6 * 3, 3)]
    assert flashes == [True, False] * 3
    assert not any(seen[6 * 3:])


def test_the_end_of_a_game_chases_flashes_then_shows_the_winners() -> None:
    s = session("pillars", "over", id=7)
    winners = table_view(s).winners
    assert winners and winners <= {"red", "blue", "yellow", "green"}
    lamps = Lamps()
    v = table_view(s)
    assert lit(lamps.frame(v, 100.0)) == {"red"}  # the pattern starts when the end is seen
    chase = [lit(lamps.frame(v, 100.0 + k * CHASE_STEP + 0.01)) for k in range(8)]
    assert chase == [{"red"}, {"blue"}, {"yellow"}, {"green"}] * 2
    flash = [
        lit(lamps.frame(v, 100.0 + CHASE_SECONDS + k * FLASH_STEP + 0.01)) for k in range(6)
    ]
    all5 = {"red", "blue", "yellow", "green", "status"}
    assert flash == [all5, set()] * 3
    assert lit(lamps.frame(table_view(s), 100.0 + END_SECONDS + 0.01)) == winners
    # the same finished game shown again later: no new pattern
    assert lit(lamps.frame(table_view(s), 500.0)) == winners


def test_game_over_notice_starts_the_pattern_too() -> None:
    lamps = Lamps()
    lamps.notify("game-over")
    assert lit(lamps.frame(TableView(), 3.0)) == {"red"}
    assert lit(lamps.frame(TableView(), 3.0 + CHASE_STEP + 0.01)) == {"blue"}
    assert lit(lamps.frame(TableView(), 3.0 + END_SECONDS + 0.01)) == set()


def test_a_new_game_stops_the_pattern() -> None:
    lamps = Lamps()
    lamps.frame(table_view(session("pillars", "over")), 0.0)
    s = session("pillars", "draft", id=2)
    assert lit(lamps.frame(table_view(s), 0.5)) == {colour_of(s.state, s.state.turn)}


def test_a_refusal_during_the_end_pattern_does_not_spoil_it() -> None:
    s = session("pillars", "over")
    lamps = Lamps()
    lamps.frame(table_view(s), 0.0)
    lamps.notify("refused")
    assert lit(lamps.frame(table_view(s), 0.01)) == {"red"}
