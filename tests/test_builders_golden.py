"""Golden playthroughs of The Builders: pinned records and their outcomes.

The records and scores were produced by the engine before its split into modules (commit
7026c9d), so they also pin that the split changed no rule."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.builders import BuildersGame
from companion.engine import Record, replay
from companion.engine.simulate import random_game

G = BuildersGame()
GOLDEN = Path(__file__).parent / "golden"
GAMES = [
    ("builders-4p-seed2026", {"Red": 0, "Blue": 0, "Yellow": 0, "Green": 2}, ["Green"]),
    ("builders-solo-seed5", {"Red": 0, "Automa": 21}, ["Automa"]),
]


@pytest.mark.parametrize(("name", "scores", "winners"), GAMES)
def test_golden_record_replays_to_the_pinned_summary(
    name: str, scores: dict[str, int], winners: list[str]
) -> None:
    record = Record.load(GOLDEN / f"{name}.json")
    state = replay(G, record)
    expected = json.loads((GOLDEN / f"{name}.summary.json").read_text(encoding="utf-8"))
    assert json.loads(json.dumps(G.summary(state).to_json())) == expected
    assert (expected["scores"], expected["winners"]) == (scores, winners)
    assert G.invariants(state) == []


@pytest.mark.parametrize(("name", "scores", "winners"), GAMES)
def test_the_same_seed_gives_the_same_game(
    name: str, scores: dict[str, int], winners: list[str]
) -> None:
    record = Record.load(GOLDEN / f"{name}.json")
    assert record.seed is not None
    state, actions = random_game(G, record.setup, random.Random(record.seed))
    assert tuple(str(a) for a in actions) == record.actions
    assert G.scores(state) == scores and G.winners(state) == winners
