"""Random playthroughs: chance sampled from a seeded RNG, decisions chosen at random.

The rules never draw random numbers; this module is the app-side sampler used by
``companion simulate``, the benchmarks and the conformance tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from .core import CHANCE, TERMINAL, Game, Setup

A = TypeVar("A")


def sample(outcomes: Sequence[tuple[A, float]], rng: random.Random) -> A:
    """One outcome drawn with its probability (the last one absorbs rounding)."""
    x = rng.random()
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if x < acc:
            return outcome
    return outcomes[-1][0]


def random_game(
    game: Game[Any, Any], setup: Setup, rng: random.Random, max_actions: int = 100_000
) -> tuple[Any, list[Any]]:
    """Play one game to the end at random; the final state and every action applied."""
    state = game.initial_state(setup)
    actions: list[Any] = []
    current = game.current_player
    for _ in range(max_actions):
        who = current(state)
        if who == TERMINAL:
            return state, actions
        if who == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        actions.append(action)
    raise RuntimeError(f"{game.name}: no end after {max_actions} actions")
