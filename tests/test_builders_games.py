"""Whole games of The Builders: a golden seeded game, a scripted game, notation and replay."""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

import pytest

from companion.builders import TURN, BuildersGame, BuildersState, PlayerState, Site
from companion.builders.actions import (
    Action,
    BuyAction,
    DealApprentice,
    EndTurn,
    Recruit,
    Reveal,
    Send,
    ShowNext,
    Start,
    TakeCoins,
)
from companion.builders.cards import ORDER
from companion.engine import get_game
from companion.engine.core import CHANCE, TERMINAL, Setup
from companion.engine.errors import IllegalAction, MalformedAction, UndoBlocked
from companion.engine.playthrough import Playthrough
from companion.engine.record import Record, replay
from companion.engine.simulate import random_game, sample
from tests.sweeps import covered

G = BuildersGame()


def play(state: BuildersState, *moves: str) -> BuildersState:
    for m in moves:
        state = G.apply_text(state, m)
    return state


# -- notation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("start abbaye", Start("abbaye")),
        ("start grue-1", Start("grue-1")),
        ("recruit compagnon-1111", Recruit("compagnon-1111")),
        ("send maitre-3200 to abbaye", Send("maitre-3200", "abbaye")),
        ("send grue-2 to cathedrale", Send("grue-2", "cathedrale")),
        ("coins 1ap", TakeCoins(1)),
        ("coins 3ap", TakeCoins(3)),
        ("buy action", BuyAction()),
        ("end turn", EndTurn()),
        ("reveal building chateau-fort", Reveal("building", "chateau-fort")),
        ("reveal worker manoeuvre-0012", Reveal("worker", "manoeuvre-0012")),
        ("next building four-a-tuiles-2", ShowNext("building", "four-a-tuiles-2")),
        ("next worker apprenti-0101", ShowNext("worker", "apprenti-0101")),
        ("deal apprentice apprenti-1100", DealApprentice("apprenti-1100")),
    ],
)
def test_every_form_round_trips(text: str, action: object) -> None:
    assert G.parse_action(text) == action
    assert str(action) == text
    assert G.parse_action(str(action)) == action
    assert repr(action) == f"{type(action).__name__}({text!r})"
    hash(action)


def test_parsing_is_lenient_about_case_and_spacing_only() -> None:
    assert G.parse_action("  Send  MAITRE-3200 to  Abbaye ") == Send("maitre-3200", "abbaye")
    assert G.parse_action("COINS 2AP") == TakeCoins(2)
    with pytest.raises(MalformedAction, match="coins 2ap"):
        G.parse_action("coins 2")  # one notation per action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "it is empty"),
        ("dance", "unknown form"),
        ("start", "unknown form"),
        ("start abbey", "'abbey' is not a building or machine id; did you mean abbaye?"),
        ("start maitre-3200", "'maitre-3200' is not a building or machine id"),
        ("recruit abbaye", "'abbaye' is not a worker id"),
        ("send maitre-3200 abbaye", "unknown form"),
        ("send abbaye to abbaye", "'abbaye' is not a worker or machine id"),
        ("coins 4ap", "taking coins spends 1, 2 or 3 AP"),
        ("coins lots", "taking coins spends 1, 2 or 3 AP"),
        ("reveal worker abbaye", "'abbaye' is not a worker id"),
        ("next tile abbaye", "unknown form"),
        ("deal apprentice maitre-3200", "'maitre-3200' is not an Apprentice id"),
    ],
)
def test_malformed_notation(text: str, reason: str) -> None:
    with pytest.raises(MalformedAction) as info:
        G.parse_action(text)
    assert reason in info.value.reason
    assert info.value.text == text


def test_the_turn_table_lists_every_decision_form() -> None:
    assert [m.form.split()[0] for m in TURN] == ["start", "recruit", "send", "coins", "buy", "end"]
    assert all(m.cost and m.effect and m.rule for m in TURN)


def test_the_registry_finds_the_game() -> None:
    game = get_game("builders")
    assert isinstance(game, BuildersGame)
    assert game.title == "The Builders: Middle Ages"
    assert set(game.options) == {"coins", "show_next_worker"}
    assert game.options["coins"].default == "separate"
    assert game.options["show_next_worker"].default is False


# -- random games ------------------------------------------------------------------------

SETUPS = [
    G.setup(["Ann", "Bob"]),
    G.setup(["Ann", "Bob", "Cid"], start_player=1, options={"coins": "cumulative"}),
    G.setup(["Ann", "Bob", "Cid", "Dee"], start_player=3, options={"show_next_worker": True}),
]


@pytest.mark.parametrize(("seed", "setup"), covered(
    [(seed, setup) for seed in range(6) for setup in SETUPS]),
    ids=lambda v: ("2p", "3p-cumulative", "4p-next-worker")[SETUPS.index(v)]
    if isinstance(v, Setup) else None)  # each seed and set-up by default, all under -m full
def test_random_games_keep_the_contract(setup: Setup, seed: int) -> None:
    rng = random.Random(seed)
    assert G.setup_of(G.initial_state(setup)) is setup
    state = G.initial_state(setup)
    actions: list[Action] = []
    while not G.is_over(state):
        who = G.current_player(state)
        if who == CHANCE:
            outcomes = G.chance_outcomes(state)
            assert sum(p for _, p in outcomes) == pytest.approx(1)
            assert G.legal_actions(state) == []
            for outcome, _ in outcomes:
                assert G.parse_action(str(outcome)) == outcome
            action = sample(outcomes, rng)
        else:
            legal = G.legal_actions(state)
            assert legal and len(set(legal)) == len(legal)
            for a in legal:
                assert G.parse_action(str(a)) == a
            action = rng.choice(legal)
            if seed == 0 and len(actions) % 7 == 0:
                for a in legal:  # every legal action is accepted
                    G.apply(state, a)
        state = G.apply(state, action)
        actions.append(action)
        assert G.invariants(state) == []
    assert G.current_player(state) == TERMINAL
    assert G.winners(state)
    record = Record(setup, tuple(str(a) for a in actions), seed)
    again = replay(G, Record.loads(record.dumps()))
    assert again == state
    assert Playthrough.from_record(G, record).state == state
    summary = G.summary(state).to_json()
    assert summary["over"] is True and summary["winners"] == G.winners(state)


def test_illegal_moves_in_random_states_change_nothing() -> None:
    rng = random.Random(5)
    setup = SETUPS[2]
    state = G.initial_state(setup)
    probes = [
        G.parse_action(t)
        for t in (
            "send maitre-3200 to abbaye",
            "reveal building abbaye",
            "coins 3ap",
            "start cathedrale",
            "buy action",
            "end turn",
            "recruit compagnon-1111",
            "next worker maitre-0023",
        )
    ]
    checked = 0
    while not G.is_over(state):
        legal = set(G.legal_actions(state)) | {o for o, _ in G.chance_outcomes(state)}
        for probe in probes:
            if probe not in legal:
                before = replace(state)
                with pytest.raises(IllegalAction):
                    G.apply(state, probe)
                assert state == before
                checked += 1
        if G.current_player(state) == CHANCE:
            state = G.apply(state, sample(G.chance_outcomes(state), rng))
        else:
            state = G.apply(state, rng.choice(G.legal_actions(state)))
    assert checked > 1000


def test_undo_stops_at_a_reveal() -> None:
    pt = Playthrough(G, G.setup(["Ann", "Bob"]))
    rng = random.Random(3)
    while pt.game.current_player(pt.state) == CHANCE:
        pt.play(sample(G.chance_outcomes(pt.state), rng))
    before = pt.state
    pt.play("coins 1ap")
    pt.undo()
    assert pt.state == before
    pt.play("start " + pt.state.building_row[0])
    pt.play(sample(G.chance_outcomes(pt.state), rng))
    with pytest.raises(UndoBlocked):
        pt.undo()


# -- the golden game ---------------------------------------------------------------------


def test_golden_seeded_three_player_game() -> None:
    setup = G.setup(["Ann", "Bob", "Cid"])
    state, actions = random_game(G, setup, random.Random(7))
    texts = [str(a) for a in actions]
    assert len(actions) == 497
    assert G.scores(state) == {"Ann": 18, "Bob": 5, "Cid": 5}
    assert G.winners(state) == ["Ann"]
    assert state.end == "Ann reached 18 VP"
    assert state.turn == 153
    assert texts[:3] == [
        "reveal building porcherie",
        "reveal building hutte-de-paille",
        "reveal building abbaye",
    ]
    digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()
    assert digest == GOLDEN_DIGEST
    assert replay(G, Record(setup, tuple(texts))) == state


GOLDEN_DIGEST = "4280abdfc3783bd2838d6b6cdb92f93144b99e8243f722a28c68e437512fc6c4"


# -- a scripted game ---------------------------------------------------------------------


def test_scripted_opening_of_a_two_player_game() -> None:
    setup = G.setup(["Ann", "Bob"])
    state = G.initial_state(setup)
    state = play(
        state,
        "reveal building tonnelle",
        "reveal building pont-couvert",
        "reveal building grue-1",
        "reveal building abbaye",
        "reveal building lavoir",
        "next building cabane",
        "deal apprentice apprenti-1001",
        "deal apprentice apprenti-0110",
        "reveal worker maitre-3200",
        "reveal worker compagnon-1111",
        "reveal worker compagnon-1111",
        "reveal worker manoeuvre-0120",
        "reveal worker apprenti-1010",
    )
    # Ann's first turn: start the Bower and finish it with her Apprentice, then recruit.
    state = play(state, "start tonnelle", "next building grue-2")
    state = play(state, "send apprenti-1001 to tonnelle")
    state = play(state, "recruit manoeuvre-0120", "reveal worker maitre-0023")
    assert G.current_player(state) == 0  # 0 AP but 16 coins: Ann may still buy an action
    state = play(state, "end turn")
    hidden_buildings = tuple(
        c
        for c in G.initial_state(setup).building_deck
        if c not in {"tonnelle", "pont-couvert", "grue-1", "abbaye", "lavoir", "cabane", "grue-2"}
    )
    hidden_workers = tuple(
        w
        for w in G.initial_state(setup).worker_deck
        if w not in {"maitre-3200", "compagnon-1111", "manoeuvre-0120", "maitre-0023"}
    ) + ("apprenti-1100", "apprenti-0011", "apprenti-0101")
    hidden_workers = tuple(sorted(hidden_workers, key=ORDER.__getitem__))
    expected = BuildersState(
        setup=setup,
        players=(
            PlayerState(16, ("apprenti-1001", "manoeuvre-0120"), (), ("tonnelle",), 0),
            PlayerState(10, ("apprenti-0110",), (), (), 0),
        ),
        building_deck=hidden_buildings,
        building_next="grue-2",
        building_row=("pont-couvert", "grue-1", "abbaye", "lavoir", "cabane"),
        worker_deck=hidden_workers,
        worker_next=None,
        worker_row=(
            "maitre-3200",
            "compagnon-1111",
            "compagnon-1111",
            "apprenti-1010",
            "maitre-0023",
        ),
        apprentices=(),
        pending=(),
        pending_seat=0,
        turn_player=1,
        ap=3,
        sent=(),
        coin_ap=0,
        turn=2,
        end=None,
        over=False,
        cumulative_coins=False,
        show_next_worker=False,
    )
    assert state == expected
    assert G.invariants(state) == []

    # Bob starts the small Crane and the Shack, and finishes the Shack at once.
    state = play(state, "start grue-1", "next building cathedrale")
    state = play(state, "start cabane", "next building eglise")
    assert state.building_row == ("pont-couvert", "abbaye", "lavoir", "grue-2", "cathedrale")
    state = play(state, "send apprenti-0110 to cabane")
    bob = state.players[1]
    assert bob == PlayerState(16, ("apprenti-0110",), (Site("grue-1"),), ("cabane",), 0)
    assert G.current_player(state) == 1 and state.ap == 0
    state = play(state, "end turn")

    # Ann converts AP to coins, buys an action and opens a site; then Bob works on his Crane.
    state = play(state, "coins 3ap", "buy action", "start pont-couvert", "next building ferme")
    assert state.players[0].coins == 16 + 6 - 5
    assert state.players[0].sites == (Site("pont-couvert"),)
    state = play(state, "end turn", "send apprenti-0110 to grue-1")
    assert state.players[1].sites == (Site("grue-1", ("apprenti-0110",), (0, 1, 1, 0)),)
    assert state.players[1].coins == 14
    assert G.scores(state) == {"Ann": 1, "Bob": 1}
    assert G.describe(state).splitlines()[0] == "Round 2: Bob to play with 2 AP"
