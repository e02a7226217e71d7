"""Pillars: set-up, the round start reveals, and phase I (the draft)."""

from __future__ import annotations

import pytest

from companion.engine import CHANCE, IllegalAction, MalformedAction
from companion.pillars.data import CRAFTSMEN, RESOURCE_CARDS
from tests.pillars_helpers import GAME, at_draft, legal, new, outcomes, play, seat, seat_unchecked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_by_player_count(players: int) -> None:
    s = new(players)
    assert [x.gold for x in s.seats] == [20, 21, 22, 23][:players]
    assert all(x.vp == 2 for x in s.seats)
    assert all(x.workers == 12 for x in s.seats)
    assert s.seats[0].craftsmen == ("mortar0r", "woodworker0r", "stonecutter0r")
    assert s.market == (4, 4, 4)
    assert s.court_metal == 1
    assert s.supply == (19, 19, 19, 12)
    assert s.castle_gray == 4
    assert s.bag == (3,) * players
    assert s.cost == 7
    assert s.round == 1
    assert GAME.current_player(s) == CHANCE
    assert GAME.invariants(s) == []


def test_starting_gold_follows_the_start_player() -> None:
    s = new(4, start=2)
    assert [x.gold for x in s.seats] == [22, 23, 20, 21]
    s = new(3, start=1)
    assert [x.gold for x in s.seats] == [22, 20, 21]


def test_privilege_reveals_are_chance_over_the_fourteen() -> None:
    s = new()
    out = outcomes(s)
    assert len(out) == 14
    assert "privilege vollendung" not in out
    assert all(p == pytest.approx(1 / 14) for p in out.values())
    s = play(s, "privilege madonna")
    assert len(outcomes(s)) == 13
    with pytest.raises(IllegalAction, match="privilege madonna cannot happen now"):
        play(s, "privilege madonna")
    s = play(s, "privilege tom")
    assert s.kingsbridge == ("madonna", "tom")
    assert s.step == "craftsman"


def test_craftsmen_two_to_shiring_two_to_the_pool() -> None:
    s = play(new(), "privilege madonna", "privilege tom")
    assert set(outcomes(s)) == {
        "craftsman mason1",
        "craftsman toolmaker1",
        "craftsman mortar1",
        "craftsman woodworker1",
    }
    with pytest.raises(IllegalAction):
        play(s, "craftsman potter2")  # a round-2 card cannot come out in round 1
    s = play(s, "craftsman mason1", "craftsman toolmaker1")
    assert s.shiring == ("mason1", "toolmaker1")
    assert set(s.pool) == {"mortar1", "woodworker1"}
    assert s.step == "resource"
    assert len(outcomes(s)) == 9


def test_seven_of_nine_resource_cards_then_the_draft() -> None:
    s = at_draft()
    assert s.step == "draft"
    assert s.turn == 0
    assert len([c for c in s.pool if c in RESOURCE_CARDS]) == 7
    assert len([c for c in s.pool if c in CRAFTSMEN]) == 2
    assert set(s.res_hidden) == {"wood3", "stone2"}


def test_taking_a_resource_card_needs_the_workers() -> None:
    s = seat(at_draft(), 0, gray=0, cards=("wood3",))  # 6 of 12 workers are placed
    assert "take stone4" not in legal(s)
    with pytest.raises(IllegalAction) as err:
        play(s, "take stone4")
    assert str(err.value) == "Red cannot take the large quarry: it needs 10 workers, Red has 6"
    assert err.value.rule == "phase1.workers"
    assert err.value.fields == {"player": 0, "card": "stone4", "need": 10, "have": 6}
    s2 = play(s, "take sand3")
    assert s2.seats[0].cards == ("wood3", "sand3")
    assert "sand3" not in s2.pool
    assert s2.turn == 1


def test_a_craftsman_costs_gold() -> None:
    s = seat(at_draft(), 0, gold=3)
    assert "take mortar1" not in legal(s)  # costs 4
    with pytest.raises(IllegalAction, match="costs 4 gold, Red has 3"):
        play(s, "take mortar1")
    s = play(s, "take woodworker1")
    assert s.seats[0].gold == 0
    assert s.seats[0].craftsmen[-1] == "woodworker1"


def test_five_craftsmen_limit_with_discard_even_of_the_new_one() -> None:
    s = seat_unchecked(
        at_draft(), 0, craftsmen=("mortar0r", "woodworker0r", "stonecutter0r", "mason2", "potter2")
    )
    s = play(s, "take woodworker1")
    assert s.step == "draft-discard"
    assert s.turn == 0
    assert "discard woodworker1" in legal(s)
    with pytest.raises(IllegalAction, match="may keep 5"):
        play(s, "discard mason3")
    s = play(s, "discard woodworker1")  # buying to deny is allowed
    assert "woodworker1" in s.removed
    assert len(s.seats[0].craftsmen) == 5
    assert s.step == "draft" and s.turn == 1


def test_jack_allows_a_sixth_craftsman() -> None:
    s = seat_unchecked(
        at_draft(),
        0,
        privileges=("jack",),
        craftsmen=("mortar0r", "woodworker0r", "stonecutter0r", "mason2", "potter2"),
    )
    s = play(s, "take woodworker1")
    assert s.step == "draft" and len(s.seats[0].craftsmen) == 6


def test_passing_is_final_and_leftover_workers_go_to_the_wool_mill() -> None:
    s = at_draft(3)
    s = play(s, "take sand4", "pass", "take sand2")  # Red 7 workers, Blue passes, Yellow 2
    assert s.turn == 0
    s = play(s, "take sand3")  # Red now 11 of 12 workers placed
    assert s.turn == 2  # Blue has passed and is skipped
    s = play(s, "pass", "pass")
    assert s.step == "draw"
    assert [x.wool for x in s.seats] == [1, 12, 10]
    assert "mortar1" in s.removed and "woodworker1" in s.removed  # untaken craftsmen leave
    assert s.pool == ()


def test_the_draft_ends_when_the_pool_is_empty() -> None:
    s = at_draft(2)
    s = play(s, "take sand4", "take wood4")
    # only sand2 left in the pool: the position builder puts the other resource cards back
    # in the deck and the two craftsmen out of the game
    s = GAME.position(s, pool=("sand2",))
    removed = s.removed
    s = play(s, "take sand2")
    assert s.step == "draw"
    assert [x.wool for x in s.seats] == [12 - 7 - 2, 12 - 9]
    assert s.removed == removed  # the pool was empty: nothing more leaves the game


def test_gray_workers_count_as_workers() -> None:
    s = seat(at_draft(), 0, gray=1, cards=("wood3",))  # 12 own + 1 gray, 6 placed
    with pytest.raises(IllegalAction, match="it needs 8 workers, Red has 7"):
        play(s, "take stone3")
    s = play(s, "take sand3")
    assert s.seats[0].cards == ("wood3", "sand3")


def test_ellen_reveals_the_event_at_the_start_of_the_round() -> None:
    s = seat(new(), 1, privileges=("ellen",))
    s = play(
        s,
        "privilege madonna",
        "privilege tom",
        "craftsman mason1",
        "craftsman toolmaker1",
        *[
            f"resource {c}"
            for c in ("stone4", "stone3", "wood4", "wood2", "sand4", "sand3", "sand2")
        ],
    )
    assert s.step == "peek"
    assert len(outcomes(s)) == 10
    s = play(s, "event koenig")
    assert s.event == "koenig" and s.step == "draft"


def test_malformed_notation() -> None:
    s = at_draft()
    for text, why in [
        ("", "empty"),
        ("fly", "unknown verb"),
        ("take", "one argument"),
        ("take castle", "unknown card"),
        ("buy metal 1", "cannot buy"),
        ("buy wood zero", "not a count"),
        ("roll 6", "2, 3, 4 or 5"),
        ("convert mason2", "craftsman x count"),
        ("return stone 1 stone 2", "named twice"),
        ("pass now", "takes no argument"),
    ]:
        with pytest.raises(MalformedAction, match=why):
            GAME.apply_text(s, text)


def test_notation_round_trips() -> None:
    for text in [
        "take stone4",
        "place court1",
        "remigius market2",
        "buy wood 2",
        "sell metal 1",
        "convert mason2x2 potter3x1",
        "return stone 2 sand 1",
        "archbishop protect",
        "play thomas",
        "keep steuerfreiheit",
        "roll 4",
        "draw yellow",
        "event teile",
        "boost sculptor3",
        "lose mason1",
        "craft goldsmith5",
        "done",
        "redraw",
        "pass",
    ]:
        assert str(GAME.parse_action(text)) == text
    assert str(GAME.parse_action("  CONVERT potter3x1 mason2x2 ")) == "convert mason2x2 potter3x1"
