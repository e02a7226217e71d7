"""``companion simulate`` on the simulation path: the same games as the rules play, and
``--verify`` comparing every state with the rules engine."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion import cli
from companion.engine import get_game
from companion.engine.simulate import random_game
from tests.test_sim_engine import _Lying

Capsys = pytest.CaptureFixture[str]


def simulate(capsys: Capsys, game: str, *extra: str) -> tuple[int, dict[str, Any], str]:
    code = cli.main(
        ["simulate", game, "--players", "3", "--seed", "4", "--games", "3", "--json", *extra]
    )
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else {}), err


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_simulate_plays_the_games_the_rules_play(capsys: Capsys, name: str) -> None:
    code, data, err = simulate(capsys, name)
    assert code == 0, err
    game = get_game(name)
    setup = game.setup(3)
    for entry in data["games"]:
        state, actions = random_game(game, setup, random.Random(entry["seed"]))
        assert entry["scores"] == game.scores(state)
        assert entry["winners"] == game.winners(state)
        assert entry["actions"] == len(actions)
    assert data["timing"]["games_per_second"] > 0


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_verify_gives_the_same_results(capsys: Capsys, name: str) -> None:
    plain = simulate(capsys, name)[1]
    code, verified, err = simulate(capsys, name, "--verify")
    assert code == 0, err
    assert verified["games"] == plain["games"]


def test_verify_fails_on_a_simulation_path_that_disagrees(
    capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = cli.simulator
    monkeypatch.setattr(cli, "simulator", lambda game: _Lying(real(game), 30, "seats"))
    code, _, err = simulate(capsys, "pillars", "--verify")
    assert code == 1
    assert "seed 4" in err and "after 30 actions: the states differ" in err and "seats" in err
