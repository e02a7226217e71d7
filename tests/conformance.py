"""The conformance check, written once for any game of the engine (see tests/test_conformance.py).

A random playthrough where, at every state: a non-final state has legal actions (or chance
outcomes summing to 1); every legal action and outcome applies without raising and its notation
round-trips; actions that are not legal raise IllegalAction and change nothing; the
conservation invariants hold; replaying the record reproduces every state.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from companion.engine import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalAction,
    Playthrough,
    Record,
    UndoBlocked,
    replay,
)
from companion.engine.simulate import sample


def check_playthrough(game: Game[Any, Any], players: int, seed: int) -> Record:
    """Play one random game with every check on; return its record."""
    rng = random.Random(seed)
    setup = game.setup(players, start_player=seed % players)
    pt: Playthrough[Any, Any] = Playthrough(game, setup, seed)
    seen: set[Any] = set()  # actions seen anywhere in the game: candidates for illegal ones
    states = [pt.state]
    while True:
        state = pt.state
        problems = game.invariants(state)
        assert not problems, f"after {len(pt.actions)} actions: {problems}"
        who = game.current_player(state)
        if who == TERMINAL:
            assert game.is_over(state)
            assert game.legal_actions(state) == []
            assert set(game.winners(state)) <= set(game.scores(state))
            assert game.winners(state)
            break
        if who == CHANCE:
            outcomes = game.chance_outcomes(state)
            assert outcomes, "a chance node without outcomes"
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert game.legal_actions(state) == []
            options = [o for o, p in outcomes if p > 0]
            chosen = sample(outcomes, rng)
        else:
            assert 0 <= who < players
            options = game.legal_actions(state)
            assert options, f"no legal action at a non-final state after {len(pt.actions)}"
            chosen = rng.choice(options)
        assert len(set(options)) == len(options), "an action is listed twice"
        snapshot = copy.deepcopy(state) if rng.random() < 0.05 else None
        for action in options:
            text = game.format_action(action)
            assert game.parse_action(text) == action, text
            game.apply(state, action)  # never raises
        for action in list(seen - set(options))[:20]:
            try:
                game.apply(state, action)
            except IllegalAction as exc:
                assert str(exc), "an empty refusal"
            else:
                raise AssertionError(f"{action} was applied but is not legal")
        if snapshot is not None:
            assert state == snapshot, "apply changed the state it was given"
        seen.update(options)
        pt.play(chosen)
        states.append(pt.state)
    record = pt.record()
    again = Record.loads(record.dumps())
    assert again == record
    assert replay(game, again) == pt.state
    replayed = Playthrough.from_record(game, again)
    assert replayed.state == pt.state
    # Undo walks back over decisions and stops at the last barrier.
    undone = 0
    while pt.can_undo():
        pt.undo()
        undone += 1
        assert pt.state == states[-1 - undone]
    if pt.actions:
        try:
            pt.undo()
        except UndoBlocked:
            pass
        else:
            raise AssertionError("undo went past an information barrier")
    return record
