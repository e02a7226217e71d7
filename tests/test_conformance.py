"""The conformance kit (``companion.testing``) run on every game of the engine, at every table
size its spec allows: the project's two games and its third game from outside
(tests/thirdgame), and the kit's own checks on games that break a promise."""

from __future__ import annotations

import pytest

from companion.engine.registry import specs
from companion.testing import (
    PROMISES,
    ConformanceError,
    cases,
    check_declarations,
    check_playthrough,
    check_spec,
    conformance_tests,
)
from tests.sweeps import sampled

CASES = [(s.name, players, seed) for s in specs() for players, seed in cases(s)]
"""Every registered game (the installed ones: the two of the project and the third game of
tests/thirdgame) at each number of players its spec allows, from 2 (a solo game, where a
game has one, is its own test's).  The toy game of tests/toygame.py runs it in
test_architecture."""


def _sample() -> list[int]:
    """The default run's sample, as indexes of CASES: on first seeds, in order, each case that
    meets a game or a table size not met yet (every game, and every table size, once: the
    Pillars at each size, the others at two; every case under ``-m full``)."""
    games: set[str] = set()
    sizes: set[int] = set()
    keep = []
    for k, (name, players, _seed) in enumerate(CASES):
        first = (name, players) not in {c[:2] for c in CASES[:k]}
        if first and (name not in games or players not in sizes):
            keep.append(k)
            games.add(name)
            sizes.add(players)
    return keep


@pytest.mark.parametrize(("name", "players", "seed"), sampled(CASES, keep=_sample()))
def test_random_playthrough(name: str, players: int, seed: int) -> None:
    from companion.engine import get_game

    record = check_playthrough(get_game(name), players, seed)
    assert record.actions


def test_the_cases_follow_each_spec() -> None:
    """A two-player game is checked with two players only, a 2-4 one with 2, 3 and 4."""
    by_game: dict[str, list[int]] = {}
    for name, players, _seed in CASES:
        if players not in by_game.setdefault(name, []):
            by_game[name].append(players)
    for s in specs():
        assert by_game[s.name] == list(range(max(2, s.min_players), s.max_players + 1))
    assert len(by_game) == len(specs()) >= 3


@pytest.mark.parametrize("name", [s.name for s in specs()])
def test_what_the_game_declares_for_the_companion(name: str) -> None:
    """Its spec is sound; its strengths name a strength (and a table size it allows) and a
    bot the arena knows; its signals are those its simulation path measures, and the rules
    behind the same interface measure them the same (``GameSpec.signals``, or the
    summary's)."""
    from companion.engine import registry

    spec = registry.spec(name)
    assert check_spec(spec) == []  # every game here is registered, and the kiosk imports
    check_declarations(spec)


test_dice_race_as_its_authors_run_it = conformance_tests("dicerace", seeds=1)
"""The pytest helper an outside game's own tests use, on the project's outside-style game."""


def test_every_promise_has_words() -> None:
    assert all(PROMISES.values()) and len(PROMISES) >= 10
    exc = ConformanceError("dice", "apply", "it broke", "2 players, seed 1, after 3 actions")
    assert str(exc) == ("the game 'dice' breaks the promise 'apply' (every legal action and "
                        "outcome applies, and leaves the state it was given as it was) (2 "
                        "players, seed 1, after 3 actions): it broke")
