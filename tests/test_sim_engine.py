"""The simulation path's shared part (companion.engine.sim): finding a game's path, the
fallback over the immutable rules, and the cross-check that catches a wrong fast state."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.builders.sim import BuildersSim
from companion.engine import get_game
from companion.engine.sim import Mismatch, RulesSim, playout, simulator, verified_game
from companion.engine.simulate import random_game
from companion.pillars.sim import PillarsSim
from tests.toygame import SticksGame


def test_each_game_finds_its_own_simulation_path() -> None:
    pillars, builders = get_game("pillars"), get_game("builders")
    assert isinstance(simulator(pillars).start(pillars.setup(3)), PillarsSim)
    assert isinstance(simulator(builders).start(builders.setup(3)), BuildersSim)


def test_a_game_without_a_declared_simulator_plays_on_the_rules() -> None:
    game = SticksGame()
    setup = game.setup(2, options={"sticks": 10})
    sim = simulator(game).start(setup)
    assert isinstance(sim, RulesSim)
    actions = sim.random_playout(random.Random(4))
    state, expected = random_game(game, setup, random.Random(4))
    assert actions == expected and sim.freeze() == state
    # and the cross-check passes on it trivially
    assert verified_game(game, setup, random.Random(4))[1] == expected


def test_the_simulation_path_is_the_one_the_spec_declares() -> None:
    """Found through the registry record's ``simulator``, not by a module's name."""
    from dataclasses import replace

    from companion.engine import registry
    from companion.engine.sim import RulesSimulator
    from tests.toygame import SPEC

    declared = RulesSimulator(SticksGame())
    registry.register(replace(SPEC, simulator=lambda: declared))
    try:
        assert simulator(SticksGame()) is declared
    finally:
        registry.unregister(SPEC.name)
    assert simulator(SticksGame()) is not declared  # not registered: the rules


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_the_generic_playout_and_the_fused_one_play_the_same_game(name: str) -> None:
    game = get_game(name)
    setup = game.setup(4, start_player=1)
    path = simulator(game)
    slow, fast = path.start(setup), path.start(setup)
    assert playout(slow, random.Random(9)) == fast.random_playout(random.Random(9))
    assert slow.freeze() == fast.freeze()


class _Lying:
    """A simulation path whose states lose one VP of seat 0 after ``after`` actions."""

    def __init__(self, real: Any, after: int, field: str) -> None:
        self.real = real
        self.after = after
        self.field = field

    def start(self, setup: Any) -> Any:
        return _LyingState(self.real.start(setup), self.after, self.field)

    def thaw(self, state: Any) -> Any:
        return _LyingState(self.real.thaw(state), self.after, self.field)


class _LyingState:
    def __init__(self, inner: Any, after: int, field: str) -> None:
        self.inner = inner
        self.after = after
        self.field = field
        self.count = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def apply(self, action: Any) -> None:
        self.inner.apply(action)
        self.count += 1
        if self.count == self.after:
            seat = (self.inner.players if self.field == "players" else self.inner.seats)[0]
            seat.vp += 1


@pytest.mark.parametrize(("name", "field"), [("pillars", "seats"), ("builders", "players")])
def test_the_cross_check_names_the_first_difference(name: str, field: str) -> None:
    game = get_game(name)
    setup = game.setup(2)
    with pytest.raises(Mismatch, match="after 40 actions: the states differ"):
        verified_game(game, setup, random.Random(1), sim=_Lying(simulator(game), 40, field))


def _slots(value: object) -> list[str]:
    """The slots of ``value``'s class and of the classes it derives from."""
    return [n for cls in type(value).__mro__ for n in getattr(cls, "__slots__", ())]


def _plain(value: object) -> object:
    """``value`` compared by what it holds: a record with slots as its slots' values."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    slots = _slots(value)
    if slots:
        return (type(value).__name__, [_plain(getattr(value, n, None)) for n in slots])
    return value


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_a_copy_is_independent(name: str) -> None:
    game = get_game(name)
    path = simulator(game)
    sim = path.start(game.setup(3))
    rng = random.Random(3)
    for _ in range(150):  # into the game, then branch
        who = sim.current_player()
        options = [o for o, _ in sim.chance_outcomes()] if who == -1 else sim.legal_actions()
        sim.apply(rng.choice(options))
    before = sim.freeze()
    twin = sim.copy()
    # every field copied (a copy written field by field must not forget a new one), the
    # lists and dicts as copies of their own
    slots = _slots(sim)
    assert slots
    for field in slots:
        assert hasattr(twin, field) == hasattr(sim, field), field
        mine, theirs = getattr(sim, field, None), getattr(twin, field, None)
        assert _plain(theirs) == _plain(mine), field
        assert not isinstance(mine, (list, dict)) or theirs is not mine, field
    twin.random_playout(random.Random(5))
    assert sim.freeze() == before
    assert twin.freeze() != before
    # a copy made from the frozen state plays the same way as the copy
    again = path.thaw(before)
    assert again.random_playout(random.Random(5)) and again.freeze() == twin.freeze()
