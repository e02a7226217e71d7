"""The unofficial solo variant (ruling B9): one player against the Automa."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.builders import BuildersGame, BuildersState, Site
from companion.builders.actions import Reveal
from companion.builders.cards import BUILDING
from companion.engine.core import CHANCE
from companion.engine.errors import SetupError
from companion.engine.record import Record, replay
from companion.engine.simulate import random_game

G = BuildersGame()
ROW_B = ("tonnelle", "abbaye", "lavoir", "cathedrale")
ROW_W = ("manoeuvre-0120", "maitre-3200", "apprenti-1010", "maitre-0023")


def solo(**changes: object) -> BuildersState:
    """Ann alone, dealt apprenti-1001; the Automa holds apprenti-0110."""
    state = G.initial_state(G.setup(["Ann"]))
    moves = [f"reveal building {b}" for b in ROW_B] + ["next building chateau-fort"]
    moves += ["deal apprentice apprenti-1001", "deal apprentice apprenti-0110"]
    moves += [f"reveal worker {w}" for w in ROW_W]
    for m in moves:
        state = G.apply_text(state, m)
    return replace(state, **changes)  # type: ignore[arg-type]


def test_solo_setup_has_rows_of_four_and_deals_the_automa_an_apprentice() -> None:
    state = G.initial_state(G.setup(["Ann"]))
    assert state.solo
    assert state.pending.count("reveal building") == 4
    assert state.pending.count("deal apprentice") == 2
    state = solo()
    assert G.current_player(state) == 0
    assert state.building_row == ROW_B and state.worker_row == ROW_W
    assert state.players[0].idle == ("apprenti-1001",) and state.players[0].coins == 10
    assert state.automa_workers == ("apprenti-0110",)
    assert len(state.worker_deck) == 36 + 4 - 4
    assert G.scores(state) == {"Ann": 1, "Automa": 0}
    assert G.invariants(state) == []


def test_the_player_cannot_be_called_automa() -> None:
    with pytest.raises(SetupError, match="Automa is the name of the solo opponent"):
        G.setup(["automa"])


def test_the_automa_takes_the_dearest_worker_rightmost_on_a_tie() -> None:
    state = G.apply_text(solo(), "end turn")
    assert state.automa_workers == ("apprenti-0110", "maitre-0023")
    assert state.worker_row == ("manoeuvre-0120", "maitre-3200", "apprenti-1010")
    assert G.current_player(state) == CHANCE
    assert all(isinstance(a, Reveal) for a, _ in G.chance_outcomes(state))
    state = G.apply_text(state, "reveal worker compagnon-1111")
    assert G.current_player(state) == 0 and state.ap == 3 and state.turn == 2
    assert state.players[0].coins == 10  # nothing changed for Ann


def test_with_three_workers_the_automa_completes_the_best_building() -> None:
    state = G.apply_text(solo(), "end turn")
    state = G.apply_text(state, "reveal worker compagnon-1111")
    state = G.apply_text(state, "end turn")  # takes maitre-3200, then completes the Cathedral
    assert state.automa_workers == ()
    assert state.automa_finished == ("cathedrale",)
    assert state.set_aside == ("apprenti-0110", "maitre-0023", "maitre-3200")
    assert state.building_row == ("tonnelle", "abbaye", "lavoir", "chateau-fort")
    assert state.pending == ("reveal worker", "next building")
    state = G.apply_text(state, "reveal worker maitre-2300")
    state = G.apply_text(state, "next building eglise")
    assert G.scores(state) == {"Ann": 1, "Automa": 8}
    assert G.invariants(state) == []


def ann_alone(**table: object) -> BuildersState:
    """A validated solo position: Ann holds apprenti-1001, the worker row is ROW_W."""
    keywords: dict[str, object] = {
        "players": [{"idle": ["apprenti-1001"]}],
        "worker_row": ROW_W,
        "automa_workers": ("apprenti-0110",),
    }
    return G.position(G.setup(["Ann"]), **{**keywords, **table})  # type: ignore[arg-type]


def test_the_automa_prefers_the_rightmost_building_on_a_tie() -> None:
    state = ann_alone(
        building_row=("abbaye", "tonnelle", "eglise"),
        automa_workers=("apprenti-0110", "manoeuvre-2100"),
    )
    state = G.apply_text(state, "end turn")
    assert state.automa_finished == ("eglise",)  # Abbey and Church both give 5 VP


def test_the_automa_reaching_17_ends_the_game_at_once() -> None:
    state = ann_alone(
        automa_finished=("cathedrale", "chateau-fort"),  # 15 VP
        automa_workers=("apprenti-0110", "manoeuvre-2100"),
        building_row=("tonnelle", "abbaye", "eglise"),
    )
    state = G.apply_text(state, "end turn")
    assert state.end == "Automa reached 20 VP"
    assert G.is_over(state) and state.pending == ()
    assert G.winners(state) == ["Automa"]
    assert G.invariants(state) == []


def test_the_player_reaching_17_gives_the_automa_one_more_turn() -> None:
    done = ("aqueduc", "eglise", "taverne", "pont-en-pierre")  # 6 + 5 + 4 + 1 = 16 VP
    state = ann_alone(
        players=[
            {
                "idle": ["apprenti-1001", "manoeuvre-0210"],
                "sites": {"cabane-perchee": []},  # 1 VP, needs 2 wood and 1 knowledge
                "finished": done,
            }
        ],
        building_row=ROW_B,
        building_next="chateau-fort",
    )
    assert state.players[0].vp == 16
    state = G.apply_text(state, "send manoeuvre-0210 to cabane-perchee")
    assert state.players[0].vp == 17 and state.end is None
    state = G.apply_text(state, "end turn")
    assert state.end == "Ann reached 17 VP"
    assert G.is_over(state)
    assert state.automa_workers == ("apprenti-0110", "maitre-0023")  # its last turn
    assert G.winners(state) == ["Ann"]
    assert G.invariants(state) == []


def test_solo_winner_compares_points_with_the_automa_vp() -> None:
    state = replace(solo(), over=True, end="test", automa_finished=("cathedrale", "chateau-fort"))
    ann = replace(state.players[0], vp=14, coins=10)
    assert G.winners(replace(state, players=(ann,))) == ["Automa"]  # 15 against 15: VP decide
    ann = replace(state.players[0], vp=15, coins=3)
    assert G.winners(replace(state, players=(ann,))) == ["Ann"]  # equal VP: Ann has coins
    ann = replace(state.players[0], vp=15, coins=0)
    assert G.winners(replace(state, players=(ann,))) == ["Ann", "Automa"]


def test_solo_stops_when_nobody_can_progress() -> None:
    state = solo(
        building_deck=(),
        building_next=None,
        building_row=(),
        worker_deck=(),
        worker_row=(),
    )
    state = replace(state, players=(replace(state.players[0], sites=(Site("eglise"),)),))
    state = G.apply_text(state, "end turn")
    assert state.end == "no player can finish a site any more"
    assert G.is_over(state)


@pytest.mark.parametrize("seed", range(5))
def test_random_solo_games_end_and_replay(seed: int) -> None:
    setup = G.setup(["Ann"], options={"show_next_worker": bool(seed % 2)})
    state, actions = random_game(G, setup, random.Random(seed))
    assert G.is_over(state)
    assert G.invariants(state) == []
    assert replay(G, Record(setup, tuple(map(str, actions)))) == state
    assert sum(BUILDING[c].vp for c in state.automa_finished) == G.scores(state)["Automa"]
    summary = G.summary(state).to_json()
    assert summary["variant"].startswith("solo")
    assert summary["automa"]["vp"] == G.scores(state)["Automa"]
