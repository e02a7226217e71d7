"""The one conformance test, run on every game of the engine, at every table size its spec
allows."""

from __future__ import annotations

import pytest

from companion.engine import get_game
from companion.engine.registry import specs
from tests.conformance import check_playthrough

CASES = [
    (s.name, players)
    for s in specs()
    for players in range(max(2, s.min_players), s.max_players + 1)
]
"""Every registered game (the installed ones: the two of the project and the third game of
tests/thirdgame) at each number of players its spec allows, from 2 (a solo game, where a
game has one, is its own test's).  The toy game of tests/toygame.py runs it in
test_architecture."""


@pytest.mark.parametrize(("name", "players"), CASES)
@pytest.mark.parametrize("seed", range(4))
def test_random_playthrough(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    record = check_playthrough(game, players, seed * 7919 + players)
    assert record.actions


def test_the_cases_follow_each_spec() -> None:
    """A two-player game is checked with two players only, a 2-4 one with 2, 3 and 4."""
    by_game: dict[str, list[int]] = {}
    for name, players in CASES:
        by_game.setdefault(name, []).append(players)
    for s in specs():
        assert by_game[s.name] == list(range(max(2, s.min_players), s.max_players + 1))
    assert len(by_game) == len(specs()) >= 3
