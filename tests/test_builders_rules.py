"""The Builders' rules: unit tests on hand-built states and scenarios from a known deal."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from companion.builders import BuildersGame, BuildersState, Site, can_progress
from companion.builders.actions import Reveal, Send, ShowNext, TakeCoins
from companion.builders.position import keywords
from companion.engine.core import CHANCE, TERMINAL
from companion.engine.errors import IllegalAction, SetupError

G = BuildersGame()
NAMES = ["Ann", "Bob", "Cid", "Dee"]
ROW_B = ("tonnelle", "pont-couvert", "grue-1", "abbaye", "lavoir")
TOP_B = "cabane"
APPRENTICES = ("apprenti-1001", "apprenti-0110", "apprenti-0011", "apprenti-1100")
ROW_W = ("maitre-3200", "compagnon-1111", "compagnon-1111", "manoeuvre-0120", "apprenti-1010")


def deal(
    players: int = 3, start: int = 0, options: dict[str, object] | None = None
) -> BuildersState:
    """A game set up with known cards: the rows above, Ann dealt apprenti-1001 and so on."""
    state = G.initial_state(G.setup(NAMES[:players], start, options or {}))
    moves = [f"reveal building {b}" for b in ROW_B] + [f"next building {TOP_B}"]
    moves += [f"deal apprentice {a}" for a in APPRENTICES[:players]]
    moves += [f"reveal worker {w}" for w in ROW_W]
    for m in moves:
        state = G.apply_text(state, m)
    return state


def play(state: BuildersState, *moves: str) -> BuildersState:
    for m in moves:
        state = G.apply_text(state, m)
    return state


def rebuild(
    state: BuildersState, seat: int, change: Callable[[dict[str, Any]], None]
) -> BuildersState:
    """``state`` with seat ``seat``'s cards changed by ``change`` (on the keywords of
    ``G.position``), rebuilt and validated: the cards it names leave the rows and decks."""
    table = keywords(state)
    p = table["players"][seat]
    before = [*p["idle"], *p["finished"], *p["sites"]]
    change(p)
    added = [*p["idle"], *p["finished"], *p["sites"]]
    for card in before:
        if card in added:
            added.remove(card)
    for card in added:  # taken from its deck if it is there, else from a deck top or a row
        if card in state.building_deck or card in state.worker_deck:
            continue
        for key in ("building_next", "worker_next"):
            if table[key] == card:
                table[key] = None
                break
        else:
            for key in ("building_row", "worker_row"):
                if card in table[key]:
                    row = list(table[key])
                    row.remove(card)
                    table[key] = tuple(row)
                    break
    return G.position(state.setup, **table)


def raw_edit(state: BuildersState, seat: int, **changes: object) -> BuildersState:
    """An unchecked edit, for tables the rules cannot reach (the B6 tests' emptied decks)."""
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)  # type: ignore[arg-type]
    return replace(state, players=tuple(players))


def edit(state: BuildersState, seat: int, **changes: object) -> BuildersState:
    """``state`` with seat ``seat``'s ``coins``, ``idle``, ``sites`` or ``finished`` set."""

    def change(p: dict[str, Any]) -> None:
        for key, value in changes.items():
            if key == "sites":
                value = {s.card: list(s.workers) for s in value}  # type: ignore[attr-defined]
            elif key in ("idle", "finished"):
                value = list(value)  # type: ignore[call-overload]
            p[key] = value

    return rebuild(state, seat, change)


def give(state: BuildersState, seat: int, *workers: str) -> BuildersState:
    return rebuild(state, seat, lambda p: p["idle"].extend(workers))


def open_site(state: BuildersState, seat: int, card: str) -> BuildersState:
    return rebuild(state, seat, lambda p: p["sites"].update({card: []}))


def finish(state: BuildersState, seat: int, *cards: str) -> BuildersState:
    return rebuild(state, seat, lambda p: p["finished"].extend(cards))


def with_(state: BuildersState, **table: Any) -> BuildersState:
    """``state`` with other values for keywords of ``G.position`` (``ap``...), validated."""
    return G.position(state.setup, **{**keywords(state), **table})


def refusal(state: BuildersState, move: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        G.apply_text(state, move)
    return info.value


# -- set-up ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_is_a_sequence_of_chance_steps(n: int) -> None:
    state = G.initial_state(G.setup(NAMES[:n]))
    assert G.current_player(state) == CHANCE
    assert G.legal_actions(state) == []
    outcomes = G.chance_outcomes(state)
    assert len(outcomes) == 42 and {p for _, p in outcomes} == {1 / 42}
    assert outcomes[0] == (Reveal("building", "tonnelle"), 1 / 42)
    state = play(state, *(f"reveal building {b}" for b in ROW_B))
    outcomes = G.chance_outcomes(state)
    assert len(outcomes) == 37 and all(isinstance(a, ShowNext) for a, _ in outcomes)
    state = play(state, f"next building {TOP_B}")
    for k, a in enumerate(APPRENTICES[:n]):
        assert [p for _, p in G.chance_outcomes(state)] == [1 / (6 - k)] * (6 - k)
        state = play(state, f"deal apprentice {a}")
    hidden = 36 + 6 - n
    weights = dict(G.chance_outcomes(state))
    assert len(weights) == hidden - 1  # the two all-round Craftsmen are one outcome
    assert weights[Reveal("worker", "compagnon-1111")] == pytest.approx(2 / hidden)
    assert weights[Reveal("worker", "maitre-3200")] == pytest.approx(1 / hidden)
    state = play(state, *(f"reveal worker {w}" for w in ROW_W))
    assert G.current_player(state) == 0
    assert state.ap == 3
    assert state.building_row == ROW_B and state.building_next == TOP_B
    assert len(state.building_deck) == 42 - 6
    assert state.worker_row == ROW_W and state.worker_next is None
    assert len(state.worker_deck) == hidden - 5
    for seat, p in enumerate(state.players):
        assert p.coins == 10 and p.idle == (APPRENTICES[seat],) and p.vp == 0
    assert G.invariants(state) == []


def test_apprentices_are_dealt_from_the_first_player_clockwise() -> None:
    state = G.initial_state(G.setup(NAMES[:3], start_player=2))
    state = play(state, *(f"reveal building {b}" for b in ROW_B), f"next building {TOP_B}")
    state = play(state, *(f"deal apprentice {a}" for a in APPRENTICES[:3]))
    assert [p.idle for p in state.players] == [
        (APPRENTICES[1],),
        (APPRENTICES[2],),
        (APPRENTICES[0],),
    ]


def test_leftover_apprentices_are_shuffled_into_the_worker_deck() -> None:
    state = deal(2)
    leftovers = {"apprenti-0011", "apprenti-1100", "apprenti-1010"}
    hidden = set(state.worker_deck) | set(state.worker_row)
    assert leftovers <= hidden
    assert state.apprentices == ()


def test_setup_refuses_five_players_and_unknown_options() -> None:
    with pytest.raises(SetupError, match="1 to 4 players, not 5"):
        G.setup(["A", "B", "C", "D", "E"])
    with pytest.raises(SetupError, match="'coins' cannot be 'double'"):
        G.setup(2, options={"coins": "double"})
    with pytest.raises(SetupError, match="unknown option 'loans'"):
        G.setup(2, options={"loans": True})


def test_option_show_next_worker_makes_the_worker_deck_top_public() -> None:
    state = G.initial_state(G.setup(NAMES[:2], options={"show_next_worker": True}))
    assert state.pending[-1] == "next worker"
    state = deal(2, options={"show_next_worker": True})  # the deal stops before the top
    assert G.current_player(state) == CHANCE
    state = play(state, "next worker master-0023".replace("master", "maitre"))
    assert state.worker_next == "maitre-0023"
    state = play(state, "recruit maitre-3200")
    assert state.worker_row[-1] == "maitre-0023" and state.worker_next is None
    assert G.current_player(state) == CHANCE
    assert all(isinstance(a, ShowNext) for a, _ in G.chance_outcomes(state))
    state = play(state, "next worker manoeuvre-2100")
    assert state.worker_next == "manoeuvre-2100"
    assert G.invariants(state) == []


# -- starting and recruiting -------------------------------------------------------------


def test_start_construction_takes_a_row_card_and_the_visible_top_slides_in() -> None:
    state = play(deal(), "start abbaye")
    ann = state.players[0]
    assert ann.sites == (Site("abbaye"),)
    assert state.ap == 2
    assert state.building_row == ("tonnelle", "pont-couvert", "grue-1", "lavoir", TOP_B)
    assert state.building_next is None
    assert G.current_player(state) == CHANCE
    outcomes = G.chance_outcomes(state)
    assert len(outcomes) == 36
    assert all(isinstance(a, ShowNext) and a.deck == "building" for a, _ in outcomes)
    state = play(state, "next building cathedrale")
    assert state.building_next == "cathedrale"
    assert G.current_player(state) == 0


def test_recruit_takes_a_row_worker_and_a_hidden_card_is_revealed() -> None:
    state = play(deal(), "recruit compagnon-1111")
    assert state.players[0].idle == ("apprenti-1001", "compagnon-1111")
    assert state.worker_row.count("compagnon-1111") == 1
    assert G.current_player(state) == CHANCE
    assert all(isinstance(a, Reveal) and a.deck == "worker" for a, _ in G.chance_outcomes(state))
    state = play(state, "reveal worker maitre-0023")
    assert state.worker_row[-1] == "maitre-0023"
    assert G.invariants(state) == []


def test_sites_and_workers_have_no_limit() -> None:
    state = deal()
    state = with_(state, ap=12)
    for card in ("tonnelle", "pont-couvert", "grue-1", "abbaye", "lavoir", TOP_B):
        state = play(state, f"start {card}", "next building " + state.building_deck[0])
    assert len(state.players[0].sites) == 6
    assert state.ap == 6


# -- sending workers ---------------------------------------------------------------------


def busy_ann() -> BuildersState:
    """Ann with three Masters, 40 coins and two sites (the Abbey and the Cathedral)."""
    state = deal()
    state = give(state, 0, "maitre-2300", "maitre-0320", "maitre-0032")
    state = open_site(state, 0, "abbaye")
    state = open_site(state, 0, "cathedrale")
    return edit(state, 0, coins=40)


def test_sending_to_one_site_costs_1_then_2_then_3_ap() -> None:
    state = play(busy_ann(), "buy action", "buy action", "buy action")
    assert state.ap == 6 and state.players[0].coins == 25
    state = play(state, "send maitre-2300 to abbaye")
    assert state.ap == 5
    state = play(state, "send maitre-0320 to abbaye")
    assert state.ap == 3
    state = play(state, "send maitre-0032 to abbaye")
    assert state.ap == 0
    assert state.players[0].coins == 25 - 15
    site = state.players[0].sites[0]
    assert site.workers == ("maitre-2300", "maitre-0320", "maitre-0032")
    assert site.supplied == (2, 6, 5, 2)  # Abbey needs 4/3/2/1: stone still short
    assert G.invariants(state) == []


def test_the_fourth_worker_to_a_site_costs_4_ap_and_other_sites_still_cost_1() -> None:
    state = give(busy_ann(), 0, "maitre-3002", "manoeuvre-1200")
    state = with_(state, ap=7)
    state = play(state, "send maitre-2300 to abbaye", "send maitre-0320 to abbaye")
    state = play(state, "send maitre-0032 to abbaye")
    assert state.ap == 1
    err = refusal(state, "send maitre-3002 to abbaye")
    assert (
        str(err) == "Sending the fourth worker to Abbey this turn costs 4 AP; Ann has 1 "
        "(an extra action costs 5 coins)"
    )
    assert err.rule == "send.ap"
    state = play(state, "send manoeuvre-1200 to cathedrale")
    assert state.ap == 0


def test_workers_sent_in_earlier_turns_do_not_raise_the_cost() -> None:
    state = play(busy_ann(), "send maitre-2300 to abbaye", "send maitre-0320 to abbaye")
    assert state.ap == 0 and G.current_player(state) == 0  # 30 coins: the turn goes on
    state = play(state, "end turn", "end turn", "end turn")
    assert G.current_player(state) == 0 and state.ap == 3
    state = play(state, "send maitre-0032 to abbaye")
    assert state.ap == 2


def test_refusal_third_worker_names_the_numbers() -> None:
    state = play(busy_ann(), "buy action")
    state = play(state, "send maitre-2300 to abbaye", "send maitre-0320 to abbaye")
    assert state.ap == 1
    err = refusal(state, "send maitre-0032 to abbaye")
    assert err.reason.startswith(
        "Sending the third worker to Abbey this turn costs 3 AP; Ann has 1"
    )


def test_the_wage_is_paid_on_every_dispatch_and_must_be_payable() -> None:
    state = edit(busy_ann(), 0, coins=7)
    state = play(state, "send maitre-2300 to abbaye")
    assert state.players[0].coins == 2
    err = refusal(state, "send maitre-0320 to cathedrale")
    assert err.reason == "Sending Master (3 wood, 2 knowledge) costs a wage of 5 coins; Ann has 2"
    assert err.rule == "send.wage"
    state = play(state, "send apprenti-1001 to cathedrale")
    assert state.players[0].coins == 0


def test_a_worker_can_go_only_to_own_open_sites() -> None:
    state = open_site(busy_ann(), 1, "tonnelle")
    err = refusal(state, "send maitre-2300 to tonnelle")
    assert err.reason == "Bower is not an open site of Ann (open sites: abbaye, cathedrale)"
    err = refusal(state, "send apprenti-0110 to abbaye")
    assert "Ann has no idle Apprentice (1 wood, 1 knowledge)" in err.reason
    err = refusal(state, "send grue-1 to abbaye")
    assert err.reason == "Crane (small) is not a finished machine of Ann"


def test_completion_returns_workers_and_pays_coins_and_vp() -> None:
    state = open_site(deal(), 0, "maison-urbaine")  # needs 2 stone, 2 knowledge, 1 tile
    state = give(state, 0, "manoeuvre-1020")
    state = play(state, "send manoeuvre-1020 to maison-urbaine")
    assert state.players[0].coins == 7
    state = play(state, "send apprenti-1001 to maison-urbaine")
    ann = state.players[0]
    assert ann.sites == ()
    assert ann.finished == ("maison-urbaine",)
    assert ann.vp == 2
    assert ann.coins == 10 - 3 - 2 + 10
    assert ann.idle == ("manoeuvre-1020", "apprenti-1001")
    assert state.ap == 0  # 1 + 2 AP for two workers on one site
    assert G.scores(state)["Ann"] == 2 + 1  # 15 coins are worth a point
    assert G.invariants(state) == []


def test_a_freed_worker_can_be_sent_again_at_1_ap_and_a_new_wage() -> None:
    state = open_site(deal(), 0, "tonnelle")
    state = open_site(state, 0, "hutte-de-paille")
    state = play(state, "send apprenti-1001 to tonnelle")  # Bower done: 8 coins
    assert state.players[0].coins == 10 - 2 + 8
    state = play(state, "send apprenti-1001 to hutte-de-paille")
    assert state.ap == 1
    assert state.players[0].coins == 16 - 2


def test_surplus_resources_are_lost() -> None:
    state = open_site(deal(), 0, "tonnelle")  # needs 1 stone, 1 tile
    state = give(state, 0, "maitre-3002")
    state = play(state, "send maitre-3002 to tonnelle")
    assert state.players[0].finished == ("tonnelle",)
    assert state.players[0].coins == 10 - 5 + 8


def test_a_finished_machine_joins_the_workers_and_works_for_nothing() -> None:
    state = open_site(deal(), 0, "four-a-tuiles-1")  # needs 1 wood, 1 knowledge; gives tile 2
    state = give(state, 0, "manoeuvre-0120")
    state = play(state, "send manoeuvre-0120 to four-a-tuiles-1")
    ann = state.players[0]
    assert ann.finished == ("four-a-tuiles-1",)
    assert ann.vp == 1
    assert ann.coins == 7  # a machine pays no coins
    assert ann.idle == ("apprenti-1001", "manoeuvre-0120", "four-a-tuiles-1")
    state = open_site(state, 0, "lavoir")  # needs 1 wood, 2 tile
    state = edit(state, 0, coins=0)
    state = play(state, "send four-a-tuiles-1 to lavoir")
    ann = state.players[0]
    assert ann.coins == 0
    assert ann.sites == (Site("lavoir", ("four-a-tuiles-1",), (0, 0, 0, 2)),)
    assert Send("four-a-tuiles-1", "lavoir") not in G.legal_actions(state)
    assert G.invariants(state) == []


def test_a_machine_is_idle_again_after_its_site_is_finished() -> None:
    state = finish(deal(), 0, "grue-2")  # supplies 3 stone
    state = open_site(state, 0, "pont-en-pierre")  # needs 2 stone, 1 knowledge
    state = give(state, 0, "manoeuvre-0021")
    state = play(state, "send grue-2 to pont-en-pierre", "send manoeuvre-0021 to pont-en-pierre")
    ann = state.players[0]
    assert ann.finished == ("grue-2", "pont-en-pierre")
    assert "grue-2" in ann.idle and ann.vp == 3
    assert G.invariants(state) == []


# -- coins and extra actions -------------------------------------------------------------


def test_take_coins_separately_1_3_6() -> None:
    state = play(deal(), "coins 1ap", "coins 1ap")
    assert state.players[0].coins == 12 and state.ap == 1
    state = play(deal(), "coins 2ap")
    assert state.players[0].coins == 13
    state = play(deal(), "coins 3ap")
    assert state.players[0].coins == 16 and G.current_player(state) == 0  # 16 coins: may buy
    state = play(deal(), "buy action", "coins 3ap", "coins 1ap")
    assert state.players[0].coins == 10 - 5 + 6 + 1


def test_take_coins_cumulative_option() -> None:
    state = deal(options={"coins": "cumulative"})
    state = play(state, "coins 1ap")
    assert state.players[0].coins == 11
    state = play(state, "coins 1ap")
    assert state.players[0].coins == 13
    assert TakeCoins(1) in G.legal_actions(state)
    state = play(state, "buy action", "coins 1ap")
    assert state.players[0].coins == 13 - 5 + 3
    assert not any(isinstance(a, TakeCoins) for a in G.legal_actions(play(state, "buy action")))
    err = refusal(play(state, "buy action"), "coins 1ap")
    assert err.rule == "coins.ap"
    assert "has spent 3 AP on coins this turn" in err.reason
    state = play(deal(options={"coins": "cumulative"}), "coins 1ap", "coins 2ap")
    assert state.players[0].coins == 16


def test_take_coins_needs_the_ap() -> None:
    state = play(deal(), "coins 2ap")
    err = refusal(state, "coins 2ap")
    assert err.reason == "Taking 3 coins costs 2 AP; Ann has 1 (an extra action costs 5 coins)"


def test_buy_action_at_any_time_while_coins_last() -> None:
    state = play(deal(), "buy action", "buy action")
    assert state.ap == 5 and state.players[0].coins == 0
    err = refusal(state, "buy action")
    assert err.reason == "An extra action costs 5 coins; Ann has 0"
    assert err.rule == "buy.coins"


# -- turns -------------------------------------------------------------------------------


def test_end_turn_loses_the_ap_left_and_passes_clockwise() -> None:
    state = play(deal(start=1), "coins 1ap", "end turn")
    assert G.current_player(state) == 2
    assert state.ap == 3 and state.coin_ap == 0 and state.turn == 2
    state = play(state, "end turn")
    assert G.current_player(state) == 0


def test_the_turn_ends_by_itself_only_when_nothing_is_left_to_do() -> None:
    state = play(deal(), "coins 1ap", "buy action")  # 6 coins, 3 AP
    assert G.current_player(state) == 0
    state = play(state, "buy action")  # 1 coin, 4 AP
    state = play(state, "recruit maitre-3200", "reveal worker maitre-0023")
    state = play(state, "start tonnelle", "next building cathedrale")
    state = play(state, "coins 2ap")  # 0 AP, 4 coins: nothing but "end turn" was left
    assert G.current_player(state) == 1 and state.ap == 3
    kept = play(deal(), "coins 3ap")  # 0 AP but 16 coins: an action can still be bought
    assert G.current_player(kept) == 0
    assert [str(a) for a in G.legal_actions(kept)] == ["buy action", "end turn"]


def test_the_sent_counter_resets_each_turn() -> None:
    state = play(busy_ann(), "send maitre-2300 to abbaye", "end turn")
    assert state.sent == ()


# -- end of the game ---------------------------------------------------------------------


def seventeen(state: BuildersState, seat: int) -> BuildersState:
    """``seat`` owns the Cathedral, the Castle and the large Crane: 17 VP."""
    return finish(state, seat, "cathedrale", "chateau-fort", "grue-2")


def test_end_triggered_by_the_first_player_lets_the_others_play() -> None:
    state = seventeen(deal(), 0)
    assert state.players[0].vp == 17  # machines count
    state = play(state, "end turn")
    assert state.end == "Ann reached 17 VP"
    assert G.current_player(state) == 1
    state = play(state, "end turn")
    assert G.current_player(state) == 2
    state = play(state, "end turn")
    assert G.current_player(state) == TERMINAL
    assert G.winners(state) == ["Ann"]
    assert G.legal_actions(state) == [] and G.chance_outcomes(state) == []
    err = refusal(state, "end turn")
    assert err.reason == "The game is over (Ann reached 17 VP); no more actions are possible"


def test_end_triggered_by_the_last_player_ends_the_game_at_once() -> None:
    state = seventeen(deal(), 2)
    state = play(state, "end turn", "end turn")
    assert state.end is None
    state = play(state, "end turn")
    assert state.end == "Cid reached 17 VP"
    assert G.is_over(state)
    assert state.turn == 3


def test_the_last_player_is_the_one_before_the_first_player() -> None:
    state = seventeen(deal(start=2), 1)
    state = play(state, "end turn", "end turn")  # Cid, then Ann
    assert G.current_player(state) == 1
    state = play(state, "end turn")  # Bob triggers and sits just before Cid
    assert G.is_over(state)


def test_seventeen_vp_is_checked_at_the_end_of_the_turn() -> None:
    state = finish(deal(), 0, "cathedrale", "chateau-fort", "pont-couvert")  # 16 VP
    state = open_site(state, 0, "tonnelle")
    state = play(state, "send apprenti-1001 to tonnelle")  # 0 VP: still 16
    assert state.end is None
    state = finish(deal(), 0, "cathedrale", "chateau-fort")  # 15 VP
    state = open_site(state, 0, "pont-en-pierre")  # 1 VP, needs 2 stone, 1 knowledge
    state = open_site(state, 0, "cabane-perchee")  # 1 VP, needs 2 wood, 1 knowledge
    state = give(state, 0, "manoeuvre-2010", "manoeuvre-0210")
    state = play(state, "send manoeuvre-2010 to pont-en-pierre")
    state = play(state, "send manoeuvre-0210 to cabane-perchee")
    assert state.players[0].vp == 17
    assert state.end is None and G.current_player(state) == 0  # 1 AP left: still acting
    state = play(state, "end turn")
    assert state.end == "Ann reached 17 VP"
    assert G.current_player(state) == 1


def test_final_score_adds_a_point_per_full_ten_coins() -> None:
    state = seventeen(deal(), 0)
    state = edit(state, 0, coins=19)
    state = edit(state, 1, coins=20)
    state = edit(state, 2, coins=9)
    assert G.scores(state) == {"Ann": 18, "Bob": 2, "Cid": 0}


def over(*players: tuple[int, int]) -> BuildersState:
    """A finished 3-player table where each player has (VP, coins); cards are not checked."""
    state = deal()
    for seat, (vp, coins) in enumerate(players):
        state = raw_edit(state, seat, vp=vp, coins=coins)
    return replace(state, over=True, end="test")


def test_tie_break_most_points_wins() -> None:
    assert G.winners(over((17, 5), (16, 21), (15, 30))) == ["Bob"]


def test_tie_break_equal_points_go_to_the_most_vp_from_cards() -> None:
    state = over((17, 15), (16, 25), (10, 0))
    assert G.scores(state) == {"Ann": 18, "Bob": 18, "Cid": 10}
    assert G.winners(state) == ["Ann"]


def test_tie_break_then_the_most_coins() -> None:
    state = over((17, 14), (17, 18), (3, 0))
    assert G.scores(state)["Ann"] == G.scores(state)["Bob"] == 18
    assert G.winners(state) == ["Bob"]


def test_tie_break_then_a_shared_win() -> None:
    assert G.winners(over((17, 14), (17, 14), (17, 3))) == ["Ann", "Bob"]
    assert G.winners(deal()) == []  # not over yet


# -- empty decks and the end by lack of progress (B6) ------------------------------------


def test_empty_building_deck_leaves_the_row_short() -> None:
    state = replace(deal(), building_deck=())  # only the visible top is left
    state = play(state, "start abbaye")
    assert state.building_row[-1] == TOP_B and state.building_next is None
    assert G.current_player(state) == 0  # no card to reveal
    state = play(state, "start tonnelle")
    assert len(state.building_row) == 4 and G.current_player(state) == 0


def test_empty_worker_deck_leaves_the_row_short() -> None:
    state = replace(deal(), worker_deck=())
    state = play(state, "recruit maitre-3200")
    assert len(state.worker_row) == 4 and G.current_player(state) == 0


def stuck_table() -> BuildersState:
    """Decks and rows empty; each player has a Church site (4 tile) and only tile-less help."""
    state = replace(
        deal(),
        building_deck=(),
        building_next=None,
        building_row=(),
        worker_deck=(),
        worker_row=(),
    )
    for seat in range(3):
        state = raw_edit(state, seat, sites=(Site("eglise", (), (0, 0, 0, 0)),), idle=())
    return state


def test_can_progress_is_optimistic_about_rows_and_decks() -> None:
    state = stuck_table()
    assert not can_progress(state)
    assert can_progress(replace(state, worker_deck=("maitre-3002", "maitre-2003", "maitre-0023")))
    assert can_progress(replace(state, worker_row=("maitre-3002", "maitre-2003", "manoeuvre-0120")))
    assert not can_progress(replace(state, worker_row=("maitre-3002",)))
    # a small building in the row is startable with an idle worker
    helped = raw_edit(replace(state, building_row=("tonnelle",)), 1, idle=("apprenti-1001",))
    assert can_progress(helped)
    # workers already on the site count
    nearly = raw_edit(state, 2, sites=(Site("tonnelle", ("apprenti-1100",), (1, 1, 0, 0)),))
    assert not can_progress(nearly)
    assert can_progress(raw_edit(nearly, 2, idle=("apprenti-0011",)))


def test_no_progress_ends_the_game_after_the_round() -> None:
    state = play(stuck_table(), "end turn")
    assert state.end == "no player can finish a site any more"
    assert G.current_player(state) == 1
    state = play(state, "end turn", "end turn")
    assert G.is_over(state)
    assert G.winners(state) == ["Ann", "Bob", "Cid"]


def test_progress_still_possible_keeps_the_game_going() -> None:
    state = replace(stuck_table(), worker_row=("maitre-0023", "maitre-2003", "maitre-3002"))
    state = play(state, "end turn", "end turn", "end turn", "end turn")
    assert state.end is None and not G.is_over(state)


# -- refusals and chance -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason", "rule"),
    [
        (
            "start cathedrale",
            "Ann cannot start Cathedral: it is not in the building row "
            "(tonnelle, pont-couvert, grue-1, abbaye, lavoir)",
            "row.card",
        ),
        (
            "recruit maitre-0023",
            "Ann cannot recruit Master (2 knowledge, 3 tile): it is not in the worker row "
            "(maitre-3200, compagnon-1111, compagnon-1111, manoeuvre-0120, apprenti-1010)",
            "row.card",
        ),
        (
            "reveal building cathedrale",
            "No card is being revealed now: it is Ann's turn to act",
            "chance.none",
        ),
    ],
)
def test_refusals_name_the_player_the_rule_and_the_numbers(
    move: str, reason: str, rule: str
) -> None:
    err = refusal(deal(), move)
    assert (err.reason, err.rule, err.action) == (reason, rule, move)


def test_refusals_for_ap_at_zero() -> None:
    state = play(deal(), "coins 3ap")
    err = refusal(state, "start abbaye")
    assert err.reason == "Starting Abbey costs 1 AP; Ann has 0 (an extra action costs 5 coins)"
    state = edit(with_(state, ap=0), 0, coins=4)
    err = refusal(state, "recruit maitre-3200")
    assert err.reason == "Recruiting Master (3 stone, 2 wood) costs 1 AP; Ann has 0"


def test_chance_refusals() -> None:
    state = play(deal(), "start abbaye")
    err = refusal(state, "end turn")
    assert err.reason == (
        "Waiting for a card to be revealed (next building <card>), not for end turn"
    )
    err = refusal(state, "next building tonnelle")
    assert err.reason == "Bower cannot come up now: it is in a row; 36 other cards can"
    err = refusal(state, "reveal building cathedrale")
    assert err.reason == (
        "Cathedral can come up, but the table is waiting for next building <card>: "
        "write next building cathedrale"
    )
    assert err.rule == "chance.step"
    assert err.fields == {"card": "cathedrale", "step": "next building"}
    start = G.initial_state(G.setup(NAMES[:2]))
    start = play(start, *(f"reveal building {b}" for b in ROW_B), f"next building {TOP_B}")
    err = refusal(start, "reveal worker maitre-3200")
    assert err.reason == "Only an Apprentice is dealt to Ann now, not Master (3 stone, 2 wood)"
    assert (err.rule, err.fields) == ("chance.apprentice", {"card": "maitre-3200", "player": 0})
    start = play(start, "deal apprentice apprenti-1001")
    err = refusal(start, "deal apprentice apprenti-1001")
    assert (
        err.reason == "Apprentice (1 stone, 1 tile) cannot come up now: it is with Ann; "
        "5 other cards can"
    )


def test_an_illegal_action_leaves_the_state_unchanged() -> None:
    state = busy_ann()
    before = replace(state)
    for move in ("send maitre-2300 to tonnelle", "coins 3ap", "buy action", "start cathedrale"):
        with contextlib.suppress(IllegalAction):
            G.apply_text(state, move)
    play(state, "buy action", "buy action")
    assert state == before
    busy = play(state, "send maitre-2300 to abbaye", "send maitre-0320 to abbaye")
    copy = replace(busy)
    with pytest.raises(IllegalAction):
        G.apply_text(busy, "send maitre-0032 to abbaye")
    assert busy == copy and state == before


def test_summary_and_description() -> None:
    state = play(busy_ann(), "send maitre-2300 to abbaye")
    summary = G.summary(state).to_json()
    assert summary["over"] is False and summary["winners"] == []
    assert summary["to_act"] == "Ann" and summary["ap"] == 2 and summary["round"] == 1
    ann = summary["players"][0]
    assert ann["coins"] == 35 and ann["points"] == 3
    assert ann["sites"][0] == {
        "card": "abbaye",
        "workers": ["maitre-2300"],
        "supplied": [2, 3, 0, 0],
        "needs": [4, 3, 2, 1],
        "missing": [2, 0, 2, 1],
        "next_ap": 2,
    }
    assert summary["options"] == {"coins": "separate", "show_next_worker": False}
    text = G.describe(state)
    assert text.splitlines()[0] == "Round 1: Ann to play with 2 AP"
    assert "abbaye 2/3/0/0 of 4/3/2/1" in text
