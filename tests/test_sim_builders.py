"""The Builders' simulation path against the rules, on random games step by step
(companion.engine.sim.verified_game).  Both run the same rules (``turn.play`` on a
``Draft``); what this checks is what differs between them: the in-place play (unchecked,
keeping no history, its lists and seats edited and copied in place) and the freeze/thaw round
trip give the states of the rules' checked, immutable path, and the fused random playout
draws exactly the games of ``random_game``.  The slow run plays thousands of games."""

from __future__ import annotations

import random

import pytest

from companion.engine import get_game
from companion.engine.ledger import mismatches
from companion.engine.sim import simulator, verified_game
from companion.engine.simulate import random_game
from tests.sweeps import covered

GAME = get_game("builders")
PATH = simulator(GAME)


def _both_ways(players: int, seed: int) -> None:
    setup = GAME.setup(players, start_player=seed % players)
    state, actions = verified_game(GAME, setup, random.Random(seed), sim=PATH)
    fast = PATH.start(setup)
    assert fast.random_playout(random.Random(seed)) == actions
    assert fast.freeze() == state
    assert GAME.summary(fast.freeze()).to_json() == GAME.summary(state).to_json()
    # the fast path keeps no history, but its frozen ledger still adds up to the holdings
    frozen = fast.freeze()
    assert not mismatches(GAME.ledger(frozen), GAME.holdings(frozen))


def _both_ways_with(options: dict[str, object], players: int, seed: int) -> None:
    setup = GAME.setup(players, start_player=seed % players, options=options)
    state, actions = verified_game(GAME, setup, random.Random(seed), sim=PATH)
    fast = PATH.start(setup)
    assert fast.random_playout(random.Random(seed)) == actions
    assert fast.freeze() == state


@pytest.mark.parametrize(("seed", "players"), covered(
    [(seed, players) for seed in range(6) for players in (1, 2, 3, 4)]))  # all: -m full
def test_random_games_match_the_rules_at_every_step(players: int, seed: int) -> None:
    _both_ways(players, seed)


@pytest.mark.parametrize(
    "options",
    [{"coins": "cumulative"}, {"show_next_worker": True}],
    ids=["cumulative-coins", "show-next-worker"],
)
@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_options_match_the_rules(options: dict[str, object], players: int) -> None:
    for seed in range(2):
        _both_ways_with(options, players, seed)


def test_the_fused_playout_is_random_game() -> None:
    setup = GAME.setup(4)
    for seed in range(100, 110):
        state, actions = random_game(GAME, setup, random.Random(seed))
        fast = PATH.start(setup)
        assert fast.random_playout(random.Random(seed)) == actions
        assert fast.freeze() == state


def test_a_mid_game_state_thaws_and_plays_on_like_the_rules() -> None:
    setup = GAME.setup(3)
    state, actions = random_game(GAME, setup, random.Random(21))
    mid = GAME.initial_state(setup)
    for a in actions[: len(actions) // 2]:
        mid = GAME.apply(mid, a)
    sim = PATH.thaw(mid)
    assert sim.freeze() == mid
    assert sim.legal_actions() == GAME.legal_actions(mid)
    assert sim.chance_outcomes() == GAME.chance_outcomes(mid)
    for a in actions[len(actions) // 2 :]:
        sim.apply(a)
    assert sim.freeze() == state


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_thousands_of_games_match_the_rules(players: int) -> None:
    for seed in range(1000):
        _both_ways(players, 10_000 + seed)
        _both_ways_with({"coins": "cumulative", "show_next_worker": True}, players, seed)
