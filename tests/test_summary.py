"""The typed summary and period of the engine (``companion/engine/summary.py``): what the end
screen, the log and the command line read instead of a game's state."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import CHANCE, Game, GameSpec, Period, PlayerResult, Summary, get_game
from companion.engine.registry import specs
from companion.engine.simulate import random_game, sample
from companion.engine.summary import ranks


def finished(name: str, players: int, seed: int) -> tuple[Game[Any, Any], Any]:
    game = get_game(name)
    state, _actions = random_game(game, game.setup(players), random.Random(seed))
    return game, state


@pytest.mark.parametrize("spec", specs(), ids=lambda s: s.name)
def test_every_game_summarises_a_finished_game(spec: GameSpec) -> None:
    name = spec.name
    game, state = finished(name, max(2, spec.min_players), 3)
    summary = game.summary(state)
    assert isinstance(summary, Summary) and summary.over and summary.game == name
    assert list(summary.winners) == game.winners(state)
    assert {p.name: p.score for p in summary.players} == game.scores(state)
    assert all((p.rank == 1) == p.winner for p in summary.players)
    assert summary.ranked()[0].winner
    assert summary.to_json()["winners"] == list(summary.winners)


def test_a_game_with_money_and_a_ledger_says_so() -> None:
    game, state = finished("pillars", 3, 5)
    summary = game.summary(state)
    assert summary.has_money and summary.has_sources
    for p, seat in zip(summary.players, state.seats, strict=True):
        assert p.money == seat.gold
        assert sum(p.sources.values()) == p.score  # every VP has its cause
    game, state = finished("builders", 2, 5)
    assert all(p.money is not None for p in game.summary(state).players)


def test_ranks_share_a_place_on_a_tie() -> None:
    assert ranks([(3,), (5,), (3,), (1,)]) == [2, 1, 2, 4]
    assert ranks([(True, 10, 2), (False, 10, 3), (False, 9, 9)]) == [1, 2, 3]


def test_a_period_is_a_round_a_turn_or_a_phase() -> None:
    assert Period(3).kind == "round" and Period(7, "turn", seat=1).seat == 1
    with pytest.raises(ValueError, match="round, turn, phase"):
        Period(1, "hour")


def test_the_json_of_a_summary_is_the_one_every_version_wrote() -> None:
    s = Summary("g", True, (PlayerResult(0, "Ann", "red", 4, True, details={"vp": 4}),),
                {"Ann": 4}, ("Ann",), {"round": 6})
    assert s.to_json() == {"game": "g", "round": 6, "over": True, "scores": {"Ann": 4},
                           "winners": ["Ann"],
                           "players": [{"name": "Ann", "colour": "red", "vp": 4}]}
    with pytest.raises(KeyError, match="the players are Ann"):
        s.player("Bob")


@pytest.mark.parametrize("spec", specs(), ids=lambda s: s.name)
def test_the_period_is_stated_once_by_period_of(spec: GameSpec) -> None:
    """One period per state, typed: ``Game.period_of`` (no ``period`` int beside it that a
    game could make disagree, as Builders' set-up once did: turn 1 for the journal, 0 for the
    log); its number is what the ledger's entries of that state carry."""
    game = spec.game()
    assert not hasattr(game, "period")
    for seed in range(3):
        state = game.initial_state(game.setup(max(2, spec.min_players)))
        rng = random.Random(seed)
        while not game.is_over(state):
            who = game.current_player(state)
            action = (sample(game.chance_outcomes(state), rng) if who == CHANCE
                      else rng.choice(game.legal_actions(state)))
            after = game.apply(state, action)
            numbers = {game.period_of(state).number, game.period_of(after).number}
            new = game.ledger(after)[len(game.ledger(state)):]
            assert {e.period for e in new} <= numbers, (spec.name, str(action))
            state = after
