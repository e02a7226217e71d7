"""The bots and the arena: legal decisions, the heuristic's greed, seats rotated, shared wins
split, Wilson intervals, and the command ``companion arena``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.bots import HeuristicBot, RandomBot, arena, make_bot, value, wilson
from companion.bots.tournament import play, seating
from companion.cli import main
from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.sim import Features, simulator
from companion.engine.simulate import sample

Capsys = pytest.CaptureFixture[str]


@pytest.mark.parametrize("name", ["pillars", "builders"])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_bot_only_ever_chooses_a_legal_action(name: str, bot: str) -> None:
    game = get_game(name)
    setup = game.setup(3)
    sim = simulator(game).start(setup)
    state = game.initial_state(setup)
    player = make_bot(bot)
    rng = random.Random(5)
    while game.current_player(state) != TERMINAL:
        who = game.current_player(state)
        if who == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = player.choose(sim, who, rng)
            assert action in game.legal_actions(state)
        state = game.apply(state, action)  # the rules check every decision
        sim.apply(action)
    assert sim.freeze() == state


def test_the_heuristic_takes_the_action_worth_most() -> None:
    game = get_game("pillars")
    sim = simulator(game).start(game.setup(2))
    bot = HeuristicBot()
    rng = random.Random(1)
    while sim.current_player() == CHANCE:  # to the first draft decision
        sim.apply(sample(sim.chance_outcomes(), rng))
    seat = sim.current_player()
    options = sim.legal_actions()
    worth = []
    for a in options:
        after = sim.copy()
        after.apply(a)
        worth.append(bot.score(after, seat))
    chosen = bot.choose(sim, seat, random.Random(2))
    assert worth[options.index(chosen)] == max(worth)
    assert len(set(worth)) > 1, "the value function tells these options apart"


def test_value_weighs_each_measure() -> None:
    base = Features(1, 2, 3, 4, 0.5, 6)
    assert value(base) == 10 * 1 + 2 + 3 + 5 * 4 + 10 * 0.5 + 6
    assert value(base, Features(1, 0, 0, 0, 0, 0)) == 1


def test_seats_rotate_game_by_game() -> None:
    assert seating(["a", "b"], 2, 0) == ["a", "b"]
    assert seating(["a", "b"], 2, 1) == ["b", "a"]
    assert seating(["a", "b", "c"], 4, 1) == ["b", "c", "a", "b"]


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_the_same_seed_plays_the_same_game() -> None:
    game = get_game("builders")
    bots = [HeuristicBot(), RandomBot()]
    assert play(game, 2, bots, 7) == play(game, 2, bots, 7)


@pytest.mark.full  # eight whole games of each (2 s of CPU): the arena's figures, -m full
@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_the_heuristic_beats_random_play(name: str) -> None:
    result = arena(get_game(name), 2, ["heuristic", "random"], 8, seed=11)
    assert result.wins["heuristic"] >= 7
    assert sum(result.wins.values()) == pytest.approx(8)


def test_a_shared_win_is_split(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.bots import tournament as arena_module

    def everyone(game: Any, players: int, bots: Any, seed: int) -> list[str]:
        return list(game.setup(players).names)

    monkeypatch.setattr(arena_module, "play", everyone)
    result = arena_module.arena(get_game("pillars"), 3, ["random", "heuristic"], 2, 0)
    # game 0: random, heuristic, random; game 1: heuristic, random, heuristic
    assert result.wins == {"random": pytest.approx(1.0), "heuristic": pytest.approx(1.0)}


def _seated(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Make the arena's games instant (the first seat wins) and record the bots seated."""
    from companion.bots import tournament as arena_module

    seated: list[list[str]] = []

    def first_wins(game: Any, players: int, bots: Any, seed: int) -> list[str]:
        seated.append([b.name for b in bots])
        return [game.setup(players).names[0]]

    monkeypatch.setattr(arena_module, "play", first_wins)
    return seated


def test_the_arena_seats_the_bot_a_game_plays_at_each_strength(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.engine.registry import spec

    seated = _seated(monkeypatch)
    declared = spec("builders").strengths
    # The Builders declares another normal at four players and another strong at two
    four = arena(get_game("builders"), 4, ["normal", "easy", "strong"], 1, 0)
    normal4 = declared["normal/4"]
    assert seated[-1] == [normal4, "heuristic", declared["strong"], normal4]
    assert four.plays == {"normal": declared["normal/4"], "easy": "heuristic",
                          "strong": declared["strong"]}
    two = arena(get_game("builders"), 2, ["strong", "normal"], 2, 0)
    strong2 = declared["strong/2"]
    assert seated[-2:] == [[strong2, "search@500"], ["search@500", strong2]]
    assert two.wins == {"strong": 1.0, "normal": 1.0}
    data = two.to_json()["bots"]
    assert data["strong"]["bot"] == declared["strong/2"] != declared["strong"]
    # a bot's own name plays as it is, and is not repeated in the result
    arena(get_game("builders"), 3, ["strong", "search@4000nao+plan"], 1, 0)
    assert seated[-1] == [declared["strong"], "search@4000nao+plan", declared["strong"]]
    mixed = arena(get_game("pillars"), 2, ["easy", "heuristic"], 1, 0).to_json()["bots"]
    assert mixed["easy"]["bot"] == "heuristic" and "bot" not in mixed["heuristic"]


def test_arena_command_takes_strengths(monkeypatch: pytest.MonkeyPatch, capsys: Capsys) -> None:
    from companion.engine.registry import spec

    seated = _seated(monkeypatch)
    strong = spec("pillars").strengths["strong"]
    assert main(["arena", "pillars", "--bots", "strong,normal", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert f"  strong ({strong}): 1 wins, 50.0%" in out
    assert "  normal (search@500): 1 wins" in out
    assert seated == [[strong, "search@500"], ["search@500", strong]]
    assert main(["arena", "pillars", "--games", "1", "--json"]) == 0  # the default: easy,random
    data = json.loads(capsys.readouterr().out)
    assert data["bots"]["easy"]["bot"] == "heuristic" and set(data["bots"]) == {"easy", "random"}


def test_arena_help_leads_with_the_strengths(capsys: Capsys) -> None:
    from companion.engine.registry import spec

    with pytest.raises(SystemExit) as done:
        main(["arena", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.index("easy, normal, strong") < text.index("search@")
    assert "companion arena pillars --bots strong,normal" in text
    # what each strength plays, read from the games' specs, at the sizes they declare
    strong = spec("pillars").strengths["strong"]
    assert f"pillars: easy heuristic; normal search@500; strong {strong}" in text
    builders = " ".join(text[text.index("  builders:"):].split())
    assert f"normal search@500 (4 players: {spec('builders').strengths['normal/4']})" in builders
    assert "search@4000nao+plan" in text  # the research grammar, after
    assert max(len(line) for line in text.splitlines()) <= 100


def test_arena_command_json(capsys: Capsys) -> None:
    code = main(
        [
            "arena",
            "pillars",
            "--players",
            "2",
            "--bots",
            "random,heuristic",
            "--games",
            "2",
            "--seed",
            "4",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "pillars" and data["players"] == 2 and data["games"] == 2
    assert set(data["bots"]) == {"random", "heuristic"}
    for r in data["bots"].values():
        assert set(r) == {"wins", "win_rate", "ci95"}
        assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
    assert sum(r["wins"] for r in data["bots"].values()) == pytest.approx(2)


def test_arena_command_refuses_unknown_bots_and_counts(capsys: Capsys) -> None:
    assert main(["arena", "pillars", "--bots", "random,clever"]) == 2
    err = capsys.readouterr().err
    assert "unknown strength 'clever': the strengths are easy, normal, strong" in err
    assert main(["arena", "pillars", "--bots", "strong,Hard"]) == 2
    assert "companion arena: unknown strength 'Hard'" in capsys.readouterr().err
    assert main(["arena", "pillars", "--players", "5"]) == 2
    assert "5" in capsys.readouterr().err
    assert main(["arena", "builders", "--games", "0"]) == 2
    capsys.readouterr()
    assert main(["arena", "builders", "--games", "1", "--bots", "random"]) == 0
    assert "random: 1 wins" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_heuristic_bots_alone_finish_their_games(name: str) -> None:
    # Greed that takes coins for ever never ends a game of The Builders; the AP left in the
    # turn count in the value so that spending them on coins is no better than building.
    result = arena(get_game(name), 3, ["heuristic"], 3, seed=2)
    assert result.wins == {"heuristic": pytest.approx(3)}


def test_ending_a_turn_is_no_gift_to_the_next_player() -> None:
    # Counting the next player's fresh AP made ending a turn look bad: the heuristic then
    # bought actions and took coins for ever instead (builders, 3 players, seed 97).
    result = arena(get_game("builders"), 3, ["heuristic", "random", "random"], 1, seed=97)
    assert sum(result.wins.values()) == pytest.approx(1)
