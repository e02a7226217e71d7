"""Golden playthroughs of The Pillars of the Earth: pinned records and their outcomes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.engine import Record, replay
from companion.engine.simulate import random_game
from tests.pillars_helpers import GAME, ROUND1_REVEALS, play

GOLDEN = Path(__file__).parent / "golden"


def test_golden_record_replays_to_the_pinned_summary() -> None:
    record = Record.load(GOLDEN / "pillars-4p-seed2026.json")
    state = replay(GAME, record)
    expected = json.loads((GOLDEN / "pillars-4p-seed2026.summary.json").read_text())
    assert GAME.summary(state).to_json() == expected
    assert expected["scores"] == {"Red": 12, "Blue": 11, "Yellow": 11, "Green": 18}
    assert expected["winners"] == ["Green"]


def test_the_same_seed_gives_the_same_game() -> None:
    record = Record.load(GOLDEN / "pillars-4p-seed2026.json")
    state, actions = random_game(GAME, record.setup, random.Random(2026))
    assert tuple(str(a) for a in actions) == record.actions
    assert GAME.scores(state) == {"Red": 12, "Blue": 11, "Yellow": 11, "Green": 18}


def test_a_record_from_before_the_redraw_fix_still_replays() -> None:
    """Seed 2026 as the engine played it while ``redraw`` was (wrongly) offered to the drawn
    builder's owner: five re-draws, each now the start player's; the game is unchanged."""
    record = Record.load(GOLDEN / "pillars-4p-seed2026-v1.json")
    assert record.actions.count("redraw") == 5
    state = replay(GAME, record)
    assert GAME.scores(state) == {"Red": 13, "Blue": 8, "Yellow": 15, "Green": 15}
    assert GAME.winners(state) == ["Green"]  # Yellow and Green tie on VP; Green has more gold


def test_a_scripted_round_two_players() -> None:
    """Round 1 played by hand, with every number checked against the rulebook."""
    s = play(GAME.initial_state(GAME.setup(["Ann", "Bob"])), *ROUND1_REVEALS)
    # Phase I: Ann takes the large quarry (10 workers), Bob the large gravel pit (7)
    # and the Master Woodworker (3 gold); Ann passes, Bob takes the forest card wood2 (3).
    s = play(s, "take stone4", "take sand4", "pass", "take woodworker1", "take wood2", "pass")
    assert s.step == "draw"
    assert [x.wool for x in s.seats] == [2, 2]
    assert [x.gold for x in s.seats] == [20, 18]
    # Phase II: costs 7, 6, 5, 4, 3, 2; two passes placed free at the end.
    s = play(s, "draw red", "place court1")  # Ann pays 7
    s = play(s, "draw blue", "place market1")  # Bob pays 6
    s = play(s, "draw blue", "pass")  # cost 5: Bob passes
    s = play(s, "draw red", "place kingsbridge1")  # Ann pays 4 for Madonna
    s = play(s, "draw red", "place cathedral")  # Ann pays 3
    s = play(s, "draw blue", "place priory1")  # Bob pays 2
    assert s.step == "parked" and s.turn == 1
    s = play(s, "place shiring2")  # free: the Tool Maker
    assert [x.gold for x in s.seats] == [20 - 7 - 4 - 3, 18 - 6 - 2]
    # Phase III.
    s = play(s, "event koenig")  # +5 each; wool mill +2 each
    assert [x.gold for x in s.seats] == [6 + 5 + 2, 10 + 5 + 2]
    assert s.seats[0].vp == 2 + 3  # the Weeping Madonna
    assert s.seats[1].vp == 2 + 2  # Priory space 1
    assert s.seats[0].res == (4, 0, 0, 0) and s.seats[1].res == (0, 2, 4, 0)
    s = play(s, "roll 4")  # Bob pays 4; Ann is at court and takes the metal
    assert s.seats[0].res[3] == 1 and [x.gold for x in s.seats] == [13, 13]
    assert "toolmaker1" in s.seats[1].craftsmen and "mason1" in s.removed
    assert s.step == "market" and s.turn == 1
    s = play(s, "sell sand 1", "buy wood 1", "pass")  # Bob: +2 gold, -3 gold
    assert s.seats[1].res == (0, 3, 3, 0) and s.seats[1].gold == 12
    # Cathedral: Ann (start player) first.
    s = play(s, "craft stonecutter0r", "craft stonecutter0r", "done")
    assert s.seats[0].vp == 5 + 2 and s.seats[0].res == (0, 0, 0, 1)
    # Bob's Tool Maker has no metal: nothing.  With 3 wood the most VP is the Woodworker
    # once (2 wood, 1 VP) and the Master Woodworker once (1 wood, 4 gold); 3 sand -> 1 VP.
    best = "convert mortar0bx1 woodworker0bx1 woodworker1x1"
    assert GAME.best_convert_action(s) == GAME.parse_action(best)
    s = play(s, best)
    assert s.seats[1].gold == 12 + 4 and s.seats[1].vp == 4 + 2
    assert s.round == 2 and s.start == 0  # Ann's builder on the cathedral
    assert GAME.invariants(s) == []
