"""Pillars phase II: drawing master builders from the bag and placing them."""

from __future__ import annotations

import pytest

from companion.engine import IllegalAction, Playthrough, UndoBlocked
from tests.pillars_helpers import GAME, at_draw, legal, outcomes, play, seat


def test_the_bag_is_chance_by_builder_count() -> None:
    s = at_draw(4)
    assert outcomes(s) == pytest.approx(
        {"draw red": 0.25, "draw blue": 0.25, "draw yellow": 0.25, "draw green": 0.25}
    )
    s = play(s, "draw red", "place court1")
    assert outcomes(s)["draw red"] == pytest.approx(2 / 11)
    assert outcomes(s)["draw blue"] == pytest.approx(3 / 11)


def test_cost_seven_down_to_one_then_free() -> None:
    s = at_draw(4)
    costs = []
    for colour in ["green"] * 3 + ["blue"] * 3 + ["yellow"]:
        s = play(s, f"draw {colour}")
        costs.append(s.cost)
        s = play(s, "pass")
    assert costs == [7, 6, 5, 4, 3, 2, 1]
    s = play(s, "draw red")
    assert s.cost == 0
    assert "pass" not in legal(s)
    with pytest.raises(IllegalAction, match="must be placed"):
        play(s, "pass")
    s = play(s, "place priory1")
    assert s.seats[0].gold == 20  # free


def test_placing_pays_the_cost_and_each_space_holds_one_builder() -> None:
    s = at_draw(4)
    s = play(s, "draw yellow", "place court1")
    assert s.seats[2].gold == 22 - 7
    s = play(s, "draw red")
    assert "place court1" not in legal(s)
    with pytest.raises(IllegalAction) as err:
        play(s, "place court1")
    assert "the King's Court, space 1 is taken by Yellow's builder" in str(err.value)
    s = play(s, "place court2")  # several builders in one area are allowed (P4)
    assert s.seats[0].gold == 20 - 6


def test_a_player_who_cannot_pay_must_pass() -> None:
    s = seat(at_draw(4), 1, gold=6)
    s = play(s, "draw blue")
    assert s.cost == 7
    assert legal(s) == ["pass"]  # the re-draw is the start player's, not Blue's
    with pytest.raises(IllegalAction, match="Blue cannot place a builder for 7 gold: Blue has 6"):
        play(s, "place castle")


def test_passed_builders_are_placed_free_in_order_when_the_bag_is_empty() -> None:
    s = at_draw(2)
    order = ["red", "blue", "red", "blue", "red", "blue"]
    s = play(s, "draw red", "pass", "draw blue", "pass")
    for colour in order[2:]:
        s = play(
            s,
            f"draw {colour}",
            "place "
            + ["court1", "court2", "court3", "court4"][len([x for x in s.spaces if x >= 0])],
        )
    assert s.step == "parked"
    assert s.parked == (0, 1)
    assert s.turn == 0
    assert "pass" not in legal(s)
    gold = s.seats[0].gold
    s = play(s, "place castle")
    assert s.seats[0].gold == gold  # free
    assert s.turn == 1
    s = play(s, "place cathedral")
    assert s.step == "event"


def test_two_players_costs_seven_to_two() -> None:
    s = at_draw(2)
    costs = []
    for colour in ["red", "blue"] * 3:
        s = play(s, f"draw {colour}")
        costs.append(s.cost)
        s = play(s, "pass")
    assert costs == [7, 6, 5, 4, 3, 2]
    assert s.step == "parked"


def test_the_start_player_may_redraw_once_a_round() -> None:
    s = at_draw(3)
    s = play(s, "draw blue")
    # Blue decides; the re-draw is offered to the start player, never among Blue's choices.
    assert GAME.current_player(s) == 1 and GAME.active_seat(s) == 1
    assert "redraw" not in legal(s)
    assert [str(a) for a in GAME.start_player_actions(s)] == ["redraw"]
    assert GAME.actor(s, GAME.parse_action("redraw")) == 0  # Red, the start player
    assert GAME.actor(s, GAME.parse_action("pass")) == 1
    assert GAME.log_line(s, GAME.parse_action("redraw")) == (
        "Red, the start player: redraw (Blue's builder back into the bag)"
    )
    assert GAME.log_line(s, GAME.parse_action("pass")) == "Blue: pass"
    s2 = play(s, "redraw")
    assert s2.step == "draw" and s2.bag == (3, 3, 3) and s2.cost == 7
    assert GAME.active_seat(s2) is None  # the bag again
    s3 = play(s2, "draw blue")
    assert GAME.start_player_actions(s3) == []
    with pytest.raises(IllegalAction, match="Red, the start player, has already re-drawn") as e:
        play(s3, "redraw")
    assert e.value.rule == "phase2.redraw" and e.value.fields == {"player": 0}


def test_the_start_players_own_builder_may_be_redrawn_too() -> None:
    s = play(at_draw(3, start=1), "draw blue")
    assert GAME.current_player(s) == 1 and "redraw" not in legal(s)
    assert [str(a) for a in GAME.start_player_actions(s)] == ["redraw"]
    assert play(s, "redraw").step == "draw"


def test_two_players_cost_marker_reads_zero_after_six_draws() -> None:
    s = at_draw(2)
    s = play(s, "draw red", "pass", "draw blue", "pass")
    for colour in ("red", "blue", "red"):
        s = play(s, f"draw {colour}", "pass")
    s = play(s, "draw blue")
    assert s.cost == 2  # the sixth builder still costs 2
    s = play(s, "pass")
    assert s.step == "parked" and s.cost == 0 and GAME.cost_marker(s) == 0
    assert GAME.summary(s).to_json()["cost_marker"] == 0
    assert GAME.placement_cost(s, s.turn, "castle") == 0


def test_remigius_places_one_builder_free_once() -> None:
    s = seat(at_draw(4), 0, privileges=("remigius",))
    s = play(s, "draw red")
    assert "remigius market1" in legal(s)
    s = play(s, "remigius market1")
    assert s.seats[0].gold == 20
    assert s.seats[0].privileges == () and s.seats[0].spent == ("remigius",)
    s = play(s, "draw red")
    assert not any(a.startswith("remigius") for a in legal(s))
    with pytest.raises(IllegalAction, match="does not hold Remigius"):
        play(s, "remigius market2")


def test_only_two_builders_sets_the_third_aside() -> None:
    s = seat(at_draw(2), 0, walled=True)
    s = play(s, "draw red", "place court1", "draw red", "place court2")
    s = play(s, "draw red")  # the third red builder is set aside, no decision
    assert s.step == "draw"
    assert s.aside == (1, 0)
    assert s.cost == 5  # the marker does not move
    s = play(s, "draw blue")
    assert s.cost == 5


def test_draws_are_barriers_for_undo() -> None:
    pt = Playthrough(GAME, GAME.setup(2))
    for text in [*(f"{a}" for a in _opening_to_draw())]:
        pt.play(text)
    pt.play("draw red")
    pt.play("place court1")
    pt.undo()
    assert pt.state.spaces.count(0) == 0
    with pytest.raises(UndoBlocked, match="re-roll"):
        pt.undo()


def _opening_to_draw() -> list[str]:
    from tests.pillars_helpers import ROUND1_REVEALS

    return [*ROUND1_REVEALS, "pass", "pass"]
