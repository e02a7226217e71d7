"""The one conformance test, run on every game of the engine."""

from __future__ import annotations

import pytest

from companion.engine import get_game
from companion.engine.registry import names
from tests.conformance import check_playthrough

GAMES = list(names())
"""Every registered game (the toy game of tests/toygame.py runs it in test_architecture)."""


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_playthrough(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    record = check_playthrough(game, players, seed * 7919 + players)
    assert record.actions
