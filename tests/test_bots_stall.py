"""No all-bot game goes on for ever: the bots break the rule-legal endless loop of The Builders
(everyone takes coins, turn after turn) by playing only progress after ``STALL_ROUNDS``
rounds, and seeded games of every fast bot mix end at every size."""

from __future__ import annotations

import random

import pytest

from companion.bots import GreedyBot, HeuristicBot, RandomBot, make_bot, tournament
from companion.bots import bots as bots_module
from companion.bots.bots import STALL_ROUNDS, options
from companion.builders.actions import BUY_ACTION, END_TURN, TAKE_COINS, Send, Start
from companion.builders.sim import BuildersSim
from companion.engine import CHANCE, get_game
from companion.engine.sim import simulator
from companion.engine.simulate import sample
from tests.sweeps import covered

BUILDERS = get_game("builders")


def test_four_heuristics_that_took_coins_for_ever_now_end_their_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Builders, four heuristics, seed 1000: the heuristics took 3-AP coins turn after turn
    # (2 000 coins each after 1 400 turns) with buildings in the row and workers idle.
    monkeypatch.setattr(tournament, "MAX_ACTIONS", 3000)
    bots = [HeuristicBot() for _ in range(4)]
    winners = tournament.play(BUILDERS, 4, list(bots), 1000)
    assert winners
    # ... and without the guard it is the endless loop (so this test can fail)
    monkeypatch.setattr(bots_module, "STALL_ROUNDS", 10**9)
    with pytest.raises(RuntimeError, match="no end after 3000 actions"):
        tournament.play(BUILDERS, 4, list(bots), 1000)


def _builders_at_round(rounds: int) -> BuildersSim:
    sim = simulator(BUILDERS).start(BUILDERS.setup(2))
    rng = random.Random(3)
    while sim.current_player() == CHANCE:
        sim.apply(sample(sim.chance_outcomes(), rng))
    assert isinstance(sim, BuildersSim)
    sim.turn = rounds * 2
    return sim


def test_the_guard_keeps_only_progress_once_the_game_has_gone_on() -> None:
    early = _builders_at_round(STALL_ROUNDS - 1)
    assert TAKE_COINS[0] in options(early) and END_TURN in options(early)
    assert options(early) == early.legal_actions()
    late = _builders_at_round(STALL_ROUNDS)
    kept = options(late)
    assert kept and all(late.is_progress(a) for a in kept)
    assert any(isinstance(a, Start) for a in kept)
    assert TAKE_COINS[0] not in kept and END_TURN not in kept


def test_with_no_progress_left_the_guard_keeps_every_other_action() -> None:
    late = _builders_at_round(STALL_ROUNDS + 5)
    late.building_row.clear()
    late.worker_row.clear()
    assert not any(late.is_progress(a) for a in late.legal_actions())
    assert options(late) == [
        a for a in late.legal_actions() if not late.is_detour(a) and not late.is_pass(a)
    ]
    assert options(late) == list(TAKE_COINS)  # the AP go on coins, for the wages to come
    late.ap = 0  # nothing left but the turn's end
    assert options(late) == [END_TURN]


class Passer:
    """A seat that ends its turn whenever it may, else takes the first option."""

    name = "passer"

    def choose(self, state: BuildersSim, seat: int, rng: random.Random) -> object:
        kept = options(state)
        return END_TURN if END_TURN in kept else kept[0]


def test_seats_that_would_end_their_turns_for_ever_now_end_their_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Builders, two searches (seed 1013 of a screen): every building started, every worker
    # recruited, no coins for a wage; both ended their turns for ever (taking coins would
    # have let the guard make them send workers).  Seats that end their turn whenever they
    # may play the same loop once their coins are spent on wages
    monkeypatch.setattr(tournament, "MAX_ACTIONS", 4000)
    assert tournament.play(BUILDERS, 2, [Passer(), Passer()], 7)  # type: ignore[list-item]
    # ... and with ending the turn kept (as before) it is the endless loop
    monkeypatch.setattr(BuildersSim, "is_pass", lambda self, action: False)
    with pytest.raises(RuntimeError, match="no end after 4000 actions"):
        tournament.play(BUILDERS, 2, [Passer(), Passer()], 7)  # type: ignore[list-item]


def test_progress_is_what_uses_something_up() -> None:
    sim = _builders_at_round(1)
    assert sim.is_progress(Start("cabane")) and sim.is_progress(Send("apprenti-1100", "cabane"))
    assert not sim.is_progress(TAKE_COINS[2]) and not sim.is_progress(END_TURN)


MIXES = [
    ["random"],
    ["heuristic"],
    ["greedy"],
    ["greedy", "heuristic", "random"],
]


@pytest.mark.parametrize(("players", "name"), covered(
    [(players, name) for players in (2, 3, 4) for name in ("builders", "pillars")]))  # -m full
def test_seeded_all_bot_games_end(name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # a game of bots ends well inside the arena's limit (bench_bots.py --stalls plays 1 000
    # of these a size; here a handful, seeded)
    monkeypatch.setattr(tournament, "MAX_ACTIONS", 4000)
    game = get_game(name)
    for k, mix in enumerate(MIXES):
        table = [make_bot(mix[s % len(mix)]) for s in range(players)]
        assert tournament.play(game, players, table, 500 + 10 * players + k)


def test_every_bot_takes_its_choice_from_the_guarded_options() -> None:
    late = _builders_at_round(STALL_ROUNDS + 1)
    seat = late.current_player()
    for bot in (RandomBot(), HeuristicBot(), GreedyBot(), make_bot("search@30")):
        action = bot.choose(late, seat, random.Random(1))
        assert late.is_progress(action), bot.name


def test_a_greedy_seat_that_bought_ap_with_its_wages_now_ends_its_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Builders, greedy against random, seed 6: past the guard's round, with nothing it could
    # pay a wage for, greedy bought an AP with every 5 coins (ending a turn looks like a gift
    # to the next player) and never had a master's wage: 431 rounds and counting
    monkeypatch.setattr(tournament, "MAX_ACTIONS", 3000)
    assert tournament.play(BUILDERS, 2, [GreedyBot(), RandomBot()], 6)


def test_with_no_progress_left_the_guard_drops_buying_ap() -> None:
    late = _builders_at_round(STALL_ROUNDS + 5)
    late.building_row.clear()
    late.worker_row.clear()
    late.players[late.current_player()].coins = 12
    kept = options(late)
    assert BUY_ACTION in late.legal_actions() and BUY_ACTION not in kept
    assert TAKE_COINS[0] in kept and END_TURN not in kept
