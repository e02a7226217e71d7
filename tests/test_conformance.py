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


@pytest.mark.parametrize("name", [s.name for s in specs()])
def test_what_the_game_declares_for_the_companion(name: str) -> None:
    """Its strengths name a strength (and a table size it allows) and a bot the arena knows;
    its signals are those its simulation path measures, and the rules behind the same
    interface measure them the same (``GameSpec.signals``, or the summary's)."""
    import random

    from companion.bots import STRENGTHS, make_bot
    from companion.engine import CHANCE, TERMINAL, registry
    from companion.engine.signals import declared_signals
    from companion.engine.sim import RulesSim, simulator
    from companion.engine.simulate import sample

    spec = registry.spec(name)
    for key, bot in spec.strengths.items():
        strength, _, players = key.partition("/")
        assert strength in STRENGTHS, f"{name}: {key!r} names no strength"
        assert not players or spec.min_players <= int(players) <= spec.max_players, key
        make_bot(bot)
    game = get_game(name)
    declared = declared_signals(game)
    rng = random.Random(3)
    sim = simulator(game).start(game.setup(spec.max_players))
    for k in range(300):
        who = sim.current_player()
        if who == TERMINAL:
            break
        if k % 20 == 0:
            rows = sim.signals()
            assert declared.names == sim.SIGNALS
            assert len(rows) == sim.seat_count()
            assert all(len(row) == len(declared.names) for row in rows)
            assert RulesSim(game, sim.freeze()).signals() == rows
        sim.apply(sample(sim.chance_outcomes(), rng) if who == CHANCE
                  else rng.choice(sim.legal_actions()))
