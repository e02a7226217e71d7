"""The companion knows a game from outside the project through the game itself: Dice Race
(``tests/thirdgame``) declares nothing for the bots, so the companion measures it by its
summary (each seat's score, money and rank: ``companion.engine.signals``) and plays each
strength's default bot; a game that declares its signals and strengths is judged by them.

Dice Race's easy companion beats the random bot in about 0.82 of games (``bench/bench_bots.py
--game dicerace --pairs heuristic/random``: 0.821 [0.809, 0.833] in 4000 games; before the
summary's signals every feature was 0 and it played at random, 0.495).  Solved exactly on its
own rules (:func:`race_values`), 0.8246 is the most any way of playing wins against random on
its default track (0.7878 on 15 spaces, 0.8803 on 30), and nothing beats easy: its one choice
(move or hold) is won by going as far as the finish lets it, which easy does, so its normal
can only hold even with its easy (0.50).  The toy game Sticks (``tests/toygame.py``, a race to
take the last stick) has room for thought: there normal beats easy.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from companion.bots import STRENGTHS, GreedyBot, HeuristicBot, arena, decide, make_bot
from companion.bots.evaluation import evaluations, model_for
from companion.engine import get_game, registry
from companion.engine.signals import SUMMARY_MODEL, SUMMARY_SIGNALS, Model, Signals
from companion.engine.sim import RulesSim, simulator

NAME = "dicerace"


def test_dice_race_is_measured_by_its_summary() -> None:
    game = get_game(NAME)
    assert registry.spec(NAME).signals is None and not registry.spec(NAME).strengths
    sim = simulator(game).start(game.setup(2))
    assert isinstance(sim, RulesSim) and sim.SIGNALS == SUMMARY_SIGNALS
    state = replace(sim.freeze(), pawns=(7, 3))
    sim = RulesSim(game, state)
    assert sim.signals() == [[7.0, 0.0, 1.0], [3.0, 0.0, 2.0]]  # score, no money, rank
    assert (sim.features(0).score, sim.features(1).money) == (7.0, 0.0)
    assert model_for(sim) is SUMMARY_MODEL
    assert [s.bot_for(NAME, 2) for s in STRENGTHS.values()] == [s.bot for s in STRENGTHS.values()]


@pytest.mark.full  # a strength measured in whole games, as the two games': under -m full
def test_dice_race_s_easy_companion_beats_the_random_bot() -> None:
    """300 seeded games (half a second): easy wins 244 (0.813); the bench's 4000 measure 0.821
    [0.809, 0.833], and the race solved exactly 0.8246 (below)."""
    easy = STRENGTHS["easy"].bot_for(NAME, 2)
    result = arena(get_game(NAME), 2, [easy, "random"], 300, seed=1).to_json()
    assert result["bots"][easy]["win_rate"] >= 0.78


# -- Dice Race solved on its own rules ------------------------------------------------------

Policy = Callable[[list[float]], list[float]]
"""A seat's way of choosing: from how easy rates each legal action, the chance of each."""


def easy(rated: list[float]) -> list[float]:
    top = max(rated)
    best = [1.0 if r > top - 1e-9 else 0.0 for r in rated]
    return [b / sum(best) for b in best]  # ties drawn at random


def uniform(rated: list[float]) -> list[float]:
    return [1.0 / len(rated)] * len(rated)


Decision = tuple[float, int, list[tuple[int, float]]]
WON, LOST = -1, -2
"""Where a decision leads when it ends the race: seat 0 won, seat 1 won."""


@functools.cache
def race(track: int) -> tuple[dict[tuple[int, int, int], int], list[list[Decision]]]:
    """Dice Race on ``track`` spaces as its own rules play it: every position (the pawns, the
    seat to play) by its index, and for each, per wind and roll, their probability, the seat
    and per legal action where the rules lead (a position's index, :data:`WON` or
    :data:`LOST`) and how easy rates it (the heuristic's score of the seat after it).  The
    bots never block (an out-of-turn action), so neither seat blocks here."""
    game = get_game(NAME)
    start = game.initial_state(game.setup(2, options={"track": track}))
    heuristic = HeuristicBot()
    keys = [(a, b, t) for a in range(track) for b in range(track) for t in (0, 1)]
    index = {k: i for i, k in enumerate(keys)}
    moves = []
    for a, b, t in keys:
        state = replace(start, pawns=(a, b), turn=t)
        rows = []
        for wind, p in game.chance_outcomes(state):
            blown = game.apply(state, wind)
            for roll, q in game.chance_outcomes(blown):
                decision = game.apply(blown, roll)
                options = []
                for action in game.legal_actions(decision):
                    after = game.apply(decision, action)
                    rated = heuristic.score(RulesSim(game, after), t)
                    if after.winner is not None:
                        to = WON if after.winner == 0 else LOST
                    else:
                        to = index[(*after.pawns, after.turn)]
                    options.append((to, rated))
                rows.append((p * q, t, options))
        moves.append(rows)
    return index, moves


def race_values(track: int, first: Policy, second: Policy) -> Any:
    """Seat 0's chance of winning from every position of Dice Race on ``track`` spaces
    (:func:`race`), ``first`` playing seat 0 and ``second`` seat 1: exact (a linear system:
    each position's chance is its decisions' chances weighted by the policies)."""
    import numpy as np

    _index, moves = race(track)
    n = len(moves)
    step = np.zeros((n, n))
    won = np.zeros(n)
    for i, rows in enumerate(moves):
        for p, seat, options in rows:
            chances = (first if seat == 0 else second)([r for _, r in options])
            for (to, _), c in zip(options, chances, strict=True):
                if to >= 0:
                    step[i, to] += p * c
                elif to == WON:
                    won[i] += p * c
    return np.linalg.solve(np.eye(n) - step, won)


def start_value(track: int, values: Any) -> float:
    """Seat 0's chance of winning a race, each seat starting half of them."""
    index, _moves = race(track)
    return float(values[index[0, 0, 0]] + values[index[0, 0, 1]]) / 2


def better_choices(track: int, values: Any, first: Policy) -> int:
    """How many of seat 0's decisions have an action worth more to it than what ``first``
    plays there, given ``values`` (``first``'s against some seat 1): none, and ``first`` is
    the best answer to that seat 1 (no way of playing seat 0 wins more against it)."""
    _index, moves = race(track)
    better = 0
    for rows in moves:
        for _p, seat, options in rows:
            if seat != 0:
                continue
            worth = [1.0 if to == WON else 0.0 if to == LOST else values[to] for to, _ in options]
            chances = first([r for _, r in options])
            if max(worth) > sum(w * c for w, c in zip(worth, chances, strict=True)) + 1e-9:
                better += 1
    return better


@pytest.mark.full  # the exact solution of the whole track (2 s of CPU): under -m full
def test_dice_race_solved_easy_wins_all_that_can_be_won_and_nothing_beats_it() -> None:
    track = 20  # the table's default
    against_random = race_values(track, easy, uniform)
    assert start_value(track, against_random) == pytest.approx(0.8246, abs=1e-4)
    assert better_choices(track, against_random, easy) == 0  # the most anyone wins vs random
    against_easy = race_values(track, easy, easy)
    assert start_value(track, against_easy) == pytest.approx(0.5)
    assert better_choices(track, against_easy, easy) == 0  # nothing beats easy: nor normal
    # before the summary's signals easy rated every choice the same and played as random
    # does: against what easy is now it wins 0.18, and at 7040 of its 7200 decisions one
    # action was worth more than its coin toss
    assert start_value(track, race_values(track, uniform, easy)) == pytest.approx(0.1754, abs=1e-4)
    assert better_choices(track, race_values(track, uniform, easy), uniform) == 7040


# -- Sticks: room for thought ---------------------------------------------------------------


def test_sticks_plays_each_strengths_default_bot(toy: registry.GameSpec) -> None:
    normal, weak = (STRENGTHS[s].bot_for(toy.name, 2) for s in ("normal", "easy"))
    assert (normal, weak) == ("search@500", "heuristic")  # Sticks declares no strengths


@pytest.mark.full  # seeded games of a search bot (2.5 s of CPU for thirty): under -m full
@pytest.mark.parametrize("games", [30, 60])
def test_in_sticks_normal_beats_easy(toy: registry.GameSpec, games: int) -> None:
    """Thirty seeded games: normal wins 19; sixty: 38; over 400 (seeds 1 to 400) it won
    0.590 [0.541, 0.637] of them, and easy 0.667 [0.620, 0.712] against random."""
    game = get_game(toy.name)
    normal, weak = (STRENGTHS[s].bot_for(toy.name, 2) for s in ("normal", "easy"))
    result = arena(game, 2, [normal, weak], games, seed=1).to_json()
    assert result["bots"][normal]["wins"] > games // 2


# -- a game that declares its signals and strengths -----------------------------------------


def _left(state: Any) -> list[list[float]]:
    """Sticks' own signal: for the seat that just took, whether it left the next player a
    pile of a multiple of four (the classic Nim answer, the double card aside)."""
    players = len(state.setup.players)
    mover = (state.turn - 1) % players
    won = 1.0 if state.sticks % 4 == 0 else 0.0
    return [[won if seat == mover else 0.0] for seat in range(players)]


def test_a_game_judged_by_the_signals_and_the_bots_it_declares(
    toy: registry.GameSpec,
) -> None:
    model = Model("sticks", ("left",), (1.0,), 0.5)
    declared = Signals(("left",), _left, (model,), evaluations={"nim": (replace(model, scale=2),)})
    registry.register(replace(toy, signals=lambda: declared,
                              strengths={"easy": "greedy", "normal/3": "search@50+nim"}))
    game = get_game(toy.name)
    sim = simulator(game).start(game.setup(2, options={"sticks": 10}))
    assert isinstance(sim, RulesSim) and sim.SIGNALS == ("left",)
    assert model_for(sim) is model and "nim" in evaluations()
    assert model_for(sim, evaluations()["nim"]) == replace(model, scale=2)
    state = replace(sim.freeze(), sticks=8, turn=1, card="plain")
    assert RulesSim(game, state).signals() == [[1.0], [0.0]]
    assert STRENGTHS["easy"].bot_for(toy.name, 2) == "greedy"
    assert STRENGTHS["normal"].bot_for(toy.name, 3) == "search@50+nim"
    assert STRENGTHS["normal"].bot_for(toy.name, 2) == "search@500"
    # easy is one ply of the declared judge: it leaves a multiple of four where it can
    at_ten = replace(state, sticks=10, turn=0)
    assert decide(game, at_ten, 0, "easy") == game.parse_action("take 2")
    assert isinstance(make_bot("greedy"), GreedyBot)
    registry.unregister(toy.name)
    assert "nim" not in evaluations()  # the game's evaluation goes with it
    registry.register(toy)
