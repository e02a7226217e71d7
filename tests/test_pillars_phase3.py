"""Pillars phase III: the 14 steps, each rule with its numbers."""

from __future__ import annotations

import pytest

from companion.engine import IllegalAction
from tests.pillars_helpers import GAME, legal, outcomes, phase3, play, seat, seat_unchecked

# Phase III without builders anywhere: after the event, wool mill, production, then the roll.


def test_positive_and_negative_events() -> None:
    s = phase3(2)
    assert len(outcomes(s)) == 10
    k = play(s, "event koenig")
    # King +5 gold, then the wool mill pays 12 gold (12 workers there): 20+5+12 -> capped at 30
    assert [x.gold for x in k.seats] == [30, 30]
    assert k.step == "roll"
    c = play(s, "event konflikt")
    assert [x.vp for x in c.seats] == [0, 0]
    w = play(seat(s, 0, gold=3, wool=0), "event william")
    assert w.seats[0].gold == 0 and w.seats[0].vp == 2  # 1 gold short: no VP lost (P5)
    w = play(seat(s, 0, gold=0, wool=0), "event william")
    assert w.seats[0].vp == 0  # 4 short: 2 VP
    r = play(s, "event richardevent")
    assert [x.res[3] for x in r.seats] == [1, 1]
    p = play(seat(s, 0, wool=3, gold=10), "event philip")
    assert p.seats[0].gold == 10 + 3 + 3  # Philip (+3, at most 5) then the wool mill (+3)
    p = play(seat(s, 0, wool=12, gold=0), "event philip")
    assert p.seats[0].gold == 5 + 12


def test_cold_winter_and_volunteers_change_each_card_by_one() -> None:
    s = phase3(2)
    s = seat(s, 0, cards=("stone4", "sand2"), wool=0)
    cold = play(s, "event kaltewinter")
    assert cold.seats[0].res[:3] == (3, 0, 1)
    warm = play(s, "event freiwilligen")
    assert warm.seats[0].res[:3] == (5, 0, 3)
    assert set(warm.res_hidden) >= {"stone4", "sand2"}  # cards back for the next round
    assert warm.seats[0].cards == ()


def test_town_wall_hits_the_next_round() -> None:
    s = play(phase3(2), "event stadtmauer")
    assert all(x.walled_next for x in s.seats)
    assert not any(x.walled for x in s.seats)


def test_archbishop_chooses_protection_or_a_market_cube() -> None:
    s = phase3(2, {"archbishop": 0})
    s = play(s, "event konflikt")
    assert s.step == "archbishop" and s.turn == 0
    assert legal(s) == [
        "archbishop protect",
        "archbishop stone",
        "archbishop wood",
        "archbishop sand",
    ]
    protected = play(s, "archbishop protect")
    assert [x.vp for x in protected.seats] == [2, 0]
    cube = play(s, "archbishop wood")
    assert [x.vp for x in cube.seats] == [0, 0]
    assert cube.seats[0].res[1] == 1 and cube.market == (4, 3, 4)
    empty = GAME.position(s, market=(4, 0, 4))
    assert "archbishop wood" not in legal(empty)
    with pytest.raises(IllegalAction, match="the market has no wood left"):
        play(empty, "archbishop wood")


def test_thomas_protects_once_after_the_reveal() -> None:
    s = seat(phase3(2), 1, privileges=("thomas",))
    s = play(s, "event konflikt")
    assert s.step == "thomas" and s.turn == 1
    used = play(s, "play thomas")
    assert [x.vp for x in used.seats] == [0, 2]
    assert used.seats[1].spent == ("thomas",)
    kept = play(s, "keep thomas")
    assert [x.vp for x in kept.seats] == [0, 0]
    assert kept.seats[1].privileges == ("thomas",)
    # a positive event does not ask
    assert play(seat(phase3(2), 1, privileges=("thomas",)), "event koenig").step == "roll"


def test_hard_times_each_player_loses_a_craftsman_of_his_choice() -> None:
    s = play(phase3(2, {"archbishop": 1}), "event teile", "archbishop protect")
    assert s.step == "lose" and s.turn == 0
    assert legal(s) == ["lose mortar0r", "lose woodworker0r", "lose stonecutter0r"]
    s = play(s, "lose stonecutter0r")
    assert s.seats[0].craftsmen == ("mortar0r", "woodworker0r")
    assert "stonecutter0r" in s.removed
    assert len(s.seats[1].craftsmen) == 3  # protected
    assert s.step == "roll"


def test_the_archbishop_event_boosts_one_craftsman() -> None:
    s = seat_unchecked(phase3(2), 0, craftsmen=("mortar0r", "bellmaker6", "sculptor3"))
    s = play(s, "event erzbischof")
    assert s.step == "boost" and s.turn == 0
    assert "boost bellmaker6" not in legal(s)
    with pytest.raises(IllegalAction, match="not a Bellmaker or Organ Builder"):
        play(s, "boost bellmaker6")
    s = play(s, "boost sculptor3")
    assert s.seats[0].boost == "sculptor3" and s.turn == 1


def test_kingsbridge_priory_and_privileges() -> None:
    s = GAME.position(
        phase3(3, {"kingsbridge1": 0, "priory1": 1, "priory2": 1}), kingsbridge=("madonna", "otto")
    )
    s = seat(s, 1, privileges=("priorphilip",))
    s = play(s, "event koenig")
    assert s.seats[0].vp == 2 + 3  # the Weeping Madonna
    assert "madonna" in s.priv_out and "otto" in s.priv_out  # space 2 was empty
    assert s.seats[1].vp == 2 + (2 + 1) + (1 + 1)  # Priory 2 + 1, Prior Philip +1 each


def test_otto_brings_the_black_worker() -> None:
    s = phase3(2, {"kingsbridge2": 1})
    s = GAME.position(s, kingsbridge=("madonna", "otto"))  # the unseen cards follow
    s = play(s, "event koenig")
    assert s.seats[1].workers == 13 and s.seats[1].privileges == ("otto",)
    assert GAME.invariants(s) == []


def test_production_privileges_and_supply_debts() -> None:
    s = GAME.position(
        phase3(2),
        kingsbridge=("madonna", "otto"),
        seats={
            0: {"privileges": ("tom", "aliena"), "cards": ("stone3",), "wool": 4},
            1: {"res": (17, 0, 0, 0)},  # the supply keeps 2 stone
        },
    )
    assert s.supply[0] == 2
    s = play(s, "event koenig")
    # quarry 3 + Tom 1 = 4 stone, 2 in the supply: all 4 are Red's, 2 of them owed (P16)
    assert s.seats[0].res[:2] == (4, 1)
    assert s.seats[0].owed == (2, 0, 0, 0)
    assert s.supply[0] == 0
    assert GAME.owed(s, 0) == {"stone": 2}


def test_tax_roll_exemption_metal_and_unpayable_tax() -> None:
    s = phase3(3, {"court1": 2})
    s = seat(s, 0, gold=0, wool=3)
    s = seat(s, 1, gold=0, wool=0)
    s = play(s, "event koenig")  # Red 0+5+3 = 8 gold, Blue 5 gold
    assert outcomes(s) == pytest.approx(
        {"roll 2": 1 / 6, "roll 3": 2 / 6, "roll 4": 2 / 6, "roll 5": 1 / 6}
    )
    s2 = play(s, "roll 5")
    assert s2.seats[0].gold == 3
    assert s2.seats[1].gold == 0 and s2.seats[1].vp == 2  # paid 5 of 5
    assert s2.seats[2].res[3] == 1 and s2.court_metal == 0  # exempt, and the metal
    s3 = play(seat(s, 1, gold=2), "roll 5")
    assert s3.seats[1].gold == 0 and s3.seats[1].vp == 1  # 3 short: 1 VP (rounded down)


def test_francis_pays_two_and_the_exemption_card_after_the_roll() -> None:
    s = seat(phase3(2), 0, privileges=("francis",))
    s = seat(s, 1, privileges=("steuerfreiheit",))
    s = play(s, "event koenig")  # both at 30 gold
    assert s.step == "roll"
    s = play(s, "roll 5")
    assert s.step == "taxfree" and s.turn == 1
    played = play(s, "play steuerfreiheit")
    assert [x.gold for x in played.seats] == [28, 30]
    kept = play(s, "keep steuerfreiheit")
    assert [x.gold for x in kept.seats] == [28, 25]


def test_shiring_takes_the_craftsman_free_and_the_limit_applies() -> None:
    s = GAME.position(phase3(2, {"shiring1": 0}), shiring=("mason1", "toolmaker1"))
    five = ("mortar0r", "woodworker0r", "stonecutter0r", "mason2", "potter2")
    s = seat_unchecked(s, 0, craftsmen=five)
    s = play(s, "event koenig", "roll 2")
    assert s.step == "shiring-discard" and s.turn == 0
    s = play(s, "discard potter2")
    assert "toolmaker1" in s.removed and "potter2" in s.removed
    assert "mason1" in s.seats[0].craftsmen
    assert s.step == "cathedral"


def test_shiring_castle_lends_two_gray_workers_for_the_next_round() -> None:
    s = play(phase3(2, {"castle": 1}), "event koenig", "roll 2")
    assert s.seats[1].gray_next == 2 and s.castle_gray == 2
    while s.step == "cathedral":
        s = play(s, "done")
    assert s.round == 2
    assert s.seats[1].gray == 2 and s.seats[1].gray_next == 0


def test_market_rulebook_example_and_slot_order() -> None:
    s = phase3(2, {"market1": 0, "market3": 1})
    s = play(s, "event koenig", "roll 2")
    s = seat(s, 0, res=(1, 0, 0, 1), gold=20)
    assert s.supply == (18, 19, 19, 11)  # derived by the position builder
    assert s.step == "market" and s.turn == 0
    s = play(s, "buy wood 2")
    assert s.turn == 1  # market 3 next
    s = play(s, "pass")
    s = play(s, "sell stone 1", "sell metal 1", "buy wood 2", "buy sand 3")
    assert s.seats[0].res == (0, 4, 3, 0)
    assert s.seats[0].gold == 20 - 6 + 4 + 5 - 6 - 6
    assert s.market == (4, 0, 1)
    assert s.supply[0] == 19  # sold stone goes to the general supply
    with pytest.raises(IllegalAction, match="bought wood this round and cannot sell it too"):
        play(s, "sell wood 1")
    with pytest.raises(IllegalAction, match="the market has 0 wood, not 1"):
        play(s, "buy wood 1")
    s = play(s, "pass")
    assert s.step == "cathedral"


def test_market_requirements_and_gold() -> None:
    s = phase3(2, {"market1": 0})
    s = play(s, "event koenig", "roll 2")
    s = seat(s, 0, craftsmen=("mortar0r",), res=(2, 0, 0, 0), gold=7)
    with pytest.raises(IllegalAction, match="Red has no Woodworker and cannot buy wood"):
        play(s, "buy wood 1")
    with pytest.raises(IllegalAction, match="Red has no Stonecutter and cannot sell stone"):
        play(s, "sell stone 1")
    with pytest.raises(IllegalAction, match="2 stone cost 8 gold; Red has 7"):
        play(s, "buy stone 2")
    assert "buy stone 2" not in legal(s) and "buy stone 1" in legal(s)
    assert not any(a.startswith("buy wood") or a.startswith("sell stone") for a in legal(s))


def test_cathedral_uses_and_capacity() -> None:
    s = phase3(2)
    s = play(s, "event koenig", "roll 2")
    assert s.step == "cathedral" and s.turn == 0
    s = seat(s, 0, res=(5, 0, 7, 0), gold=10)
    s = play(s, "craft stonecutter0r", "craft stonecutter0r")  # 4 stone -> 2 VP
    assert s.seats[0].res[0] == 1 and s.seats[0].vp == 2 + 2
    with pytest.raises(IllegalAction, match="needs 2 stone, there is 1"):
        play(s, "craft stonecutter0r")
    s = play(s, "convert mortar0rx2")  # 6 sand -> 2 VP, and done
    assert s.seats[0].vp == 6
    assert s.seats[0].res == (1, 0, 1, 0)
    assert s.turn == 1


def test_mason_needs_a_mortar_mixer() -> None:
    s = play(phase3(2), "event koenig", "roll 2")
    s = seat_unchecked(s, 0, craftsmen=("woodworker0r", "mason2"), res=(2, 0, 0, 0))
    assert "craft mason2" not in legal(s)
    with pytest.raises(IllegalAction, match="scores only for a player with a Mortar Mixer"):
        play(s, "craft mason2")


def test_tool_maker_and_architect_work_by_themselves() -> None:
    s = phase3(2)
    s = seat_unchecked(s, 1, craftsmen=("toolmaker1", "architect2", "bellmaker6"), res=(0, 0, 0, 1))
    s = play(s, "event koenig", "roll 2")  # Blue at 30 gold - 2 tax = 28
    s = play(s, "done")  # Red
    assert s.turn == 1
    assert s.seats[1].gold == 30  # Tool Maker +2 with metal
    assert s.seats[1].vp == 3  # Architect +1
    s = play(s, "craft bellmaker6")  # the Tool Maker's metal may still be spent
    assert s.seats[1].vp == 7


def test_keep_at_most_five_resources() -> None:
    s = play(phase3(2), "event koenig", "roll 2")
    s = seat(s, 0, res=(3, 3, 0, 1))
    assert s.supply == (16, 16, 19, 11)
    s = play(s, "done")
    assert s.step == "return"
    assert "return stone 2" in legal(s) and "return stone 1 metal 1" in legal(s)
    assert "return metal 1" not in legal(s)
    with pytest.raises(IllegalAction, match="give back exactly 2"):
        play(s, "return stone 1")
    s = play(s, "return stone 1 wood 1")
    assert s.seats[0].res == (2, 2, 0, 1)
    assert GAME.invariants(s) == []
    one_way = seat(play(phase3(2), "event koenig", "roll 2"), 0, res=(7, 0, 0, 0), craftsmen=())
    assert one_way.supply == (12, 19, 19, 12)
    after = play(one_way, "done")
    assert after.seats[0].res == (5, 0, 0, 0) and after.turn == 1  # only one way: automatic


def test_next_start_player_is_the_cathedral_builder_or_clockwise() -> None:
    s = play(phase3(3, {"cathedral": 2}), "event koenig", "roll 2", "done", "done", "done")
    assert s.round == 2 and s.start == 2
    s = play(phase3(3), "event koenig", "roll 2", "done", "done", "done")
    assert s.start == 1


def test_end_of_round_resets_the_board() -> None:
    s = phase3(2, {"market1": 0, "court1": 1})
    s = play(s, "event koenig", "roll 2", "buy stone 3", "pass", "done", "done")
    assert s.round == 2 and s.step == "privilege"
    assert s.market == (4, 4, 4) and s.court_metal == 1
    assert s.spaces == (-1,) * 17 and s.bag == (3, 3) and s.cost == 7
    assert len(s.res_hidden) == 9 and s.event == "" and "koenig" in s.events_done
    assert {str(a) for a, _ in GAME.chance_outcomes(s)} == {f"privilege {c}" for c in s.priv_unseen}


def test_winner_most_vp_then_most_gold_then_shared() -> None:
    s = GAME.position(phase3(3), over=True)
    s = seat(seat(seat(s, 0, vp=20, gold=5), 1, vp=20, gold=7), 2, vp=19, gold=30)
    assert GAME.winners(s) == ["Blue"]
    s = seat(s, 0, gold=7)
    assert GAME.winners(s) == ["Red", "Blue"]
    assert GAME.scores(s) == {"Red": 20, "Blue": 20, "Yellow": 19}
    assert GAME.is_over(s) and GAME.legal_actions(s) == []
