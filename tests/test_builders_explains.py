"""The Builders' engine explains itself: documented refusal tags with their fields, chance
outcomes refused with the reason, the seat the table looks at, public queries, the summary and
validated positions."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.builders import TURN, BuildersGame, BuildersState
from companion.builders.actions import (
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
from companion.builders.cards import APPRENTICES, BUILDING, BUILDINGS, WORKER, WORKERS
from companion.builders.position import keywords
from companion.builders.queries import Completion, Cost, SiteView, WorkerView
from companion.builders.refusals import REFUSALS
from companion.engine.core import CHANCE
from companion.engine.errors import MAX_MESSAGE, IllegalAction, MalformedAction, SetupError
from companion.engine.simulate import sample
from tests.sweeps import examples, sampled, sweep_params

G = BuildersGame()
DOC = Path(__file__).resolve().parents[1] / "docs" / "builders.md"
NAMES = ["Ann", "Bob", "Cid", "Dee"]
ROW_B = ("tonnelle", "pont-couvert", "grue-1", "abbaye", "lavoir")
TOP_B = "cabane"
ROW_W = ("maitre-3200", "compagnon-1111", "compagnon-1111", "manoeuvre-0120", "apprenti-1010")
DEALT = ("apprenti-1001", "apprenti-0110", "apprenti-0011", "apprenti-1100")
CARDS = [c.id for c in BUILDINGS] + [w.id for w in WORKERS]


def documented() -> dict[str, tuple[set[str], set[str]]]:
    """The refusal table of docs/builders.md: tag -> (required fields, optional fields)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Refusals: rule tags and fields", 1)[1].split("\n## ", 1)[0]
    table: dict[str, tuple[set[str], set[str]]] = {}
    for line in section.splitlines():
        m = re.match(r"\| `([a-z.]+)` \| ([^|]*) \| (.+) \|$", line)
        if m:
            fields = re.findall(r"`([a-z_]+\??)`", m.group(2))
            assert m.group(3).strip(), f"{m.group(1)} has no sentence"
            table[m.group(1)] = (
                {f for f in fields if not f.endswith("?")},
                {f[:-1] for f in fields if f.endswith("?")},
            )
    return table


DOCUMENTED = documented()


def check_refusal(err: IllegalAction) -> str:
    """``err`` carries a documented tag and exactly its documented fields; a bounded message."""
    assert err.rule in DOCUMENTED, f"undocumented rule tag {err.rule!r}: {err}"
    required, optional = DOCUMENTED[err.rule]
    assert required <= set(err.fields), (err.rule, err.fields)
    assert set(err.fields) <= required | optional, (err.rule, err.fields)
    if "player" in err.fields:
        assert isinstance(err.fields["player"], int)
    assert 0 < len(str(err)) <= MAX_MESSAGE
    return err.rule


def test_the_documented_table_is_the_engines() -> None:
    engine = {r.tag: (set(r.required), set(r.optional)) for r in REFUSALS.values()}
    assert engine == DOCUMENTED


def test_the_turn_table_names_documented_rules() -> None:
    assert {tag for move in TURN for tag in move.rules} <= set(REFUSALS)


def probes(state: BuildersState, rng: random.Random) -> list[Any]:
    """Actions to try at ``state``: random decisions and outcomes of every kind, and actions
    built by hand with bad values."""
    b = rng.choice([c.id for c in BUILDINGS])
    w = rng.choice([c.id for c in WORKERS])
    me = state.players[state.turn_player]
    mine = [s.card for s in me.sites] or [b]
    return [
        Start(b),
        Start(rng.choice(state.building_row or (b,))),
        Recruit(w),
        Recruit(rng.choice(state.worker_row or (w,))),
        Send(w, rng.choice(mine)),
        Send(rng.choice(me.idle or (w,)), rng.choice(mine)),
        Send(rng.choice(me.idle or (w,)), b),
        Send(rng.choice(("grue-1", "four-a-tuiles-2")), rng.choice(mine)),
        TakeCoins(rng.randint(1, 3)),
        BuyAction(),
        EndTurn(),
        Reveal("building", b),
        Reveal("worker", w),
        ShowNext("building", b),
        ShowNext("worker", w),
        DealApprentice(rng.choice(APPRENTICES)),
        DealApprentice(w),
        Reveal("building", w),
        TakeCoins(rng.choice((0, -1, 4, 10**30))),
        TakeCoins("2"),  # type: ignore[arg-type]
        Start(rng.choice(("nonsense", w, "", "x" * 500))),
        Recruit(b),
        Send(b, w),
        Reveal("hand", b),  # type: ignore[arg-type]
        object(),
        None,
    ]


GAMES = [
    (2, {}, 0),
    (3, {"coins": "cumulative"}, 1),
    (4, {"show_next_worker": True}, 2),
    (1, {}, 0),
    (2, {"coins": "cumulative", "show_next_worker": True}, 1),
]


@pytest.mark.parametrize("rounds", sampled([1, 2], keep=[0]))  # each game twice: -m full
def test_every_refusal_is_documented_with_its_fields(rounds: int) -> None:
    """Random games; at every step many legal, illegal and hand-built actions and shown
    cards.  Every refusal is documented; every documented tag turns up."""
    seen: set[str] = set()
    for seed, (n, options, start) in enumerate(GAMES * rounds):
        rng = random.Random(seed)
        state = G.initial_state(G.setup(NAMES[:n], start, options))
        steps = 0
        while True:
            legal = G.legal_actions(state)
            for action in probes(state, rng):
                try:
                    G.apply(state, action)
                except IllegalAction as err:
                    seen.add(check_refusal(err))
                    assert action not in legal
            for card in (rng.choice(CARDS), "nonsense"):
                try:
                    outcome = G.outcome_for_card(state, card)
                except IllegalAction as err:
                    seen.add(check_refusal(err))
                    assert card not in {G.card_of(o) for o, _ in G.chance_outcomes(state)}
                else:
                    assert (outcome, True) in {(o, p > 0) for o, p in G.chance_outcomes(state)}
            if G.is_over(state) or steps > 700:
                break
            if G.current_player(state) == CHANCE:
                action = sample(G.chance_outcomes(state), rng)
            else:
                action = rng.choice(legal)
            state = G.apply(state, action)
            steps += 1
    assert seen == set(REFUSALS), f"never seen: {set(REFUSALS) - seen}"


# -- chance outcomes refused with the reason ----------------------------------------------


def dealt(players: int = 3, start: int = 0) -> BuildersState:
    state = G.initial_state(G.setup(NAMES[:players], start))
    moves = [f"reveal building {b}" for b in ROW_B] + [f"next building {TOP_B}"]
    moves += [f"deal apprentice {a}" for a in DEALT[:players]]
    moves += [f"reveal worker {w}" for w in ROW_W]
    for m in moves:
        state = G.apply_text(state, m)
    return state


def refused(state: BuildersState, card: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        G.outcome_for_card(state, card)
    check_refusal(info.value)
    assert str(G.refuse_card(state, card)) == str(info.value)
    return info.value


def test_outcome_for_card_names_the_outcome_or_why_not() -> None:
    state = G.apply_text(dealt(), "start abbaye")  # the top slides in; a new top is shown
    assert G.waiting_for(state) == "next building"
    assert G.outcome_for_card(state, "cathedrale") == ShowNext("building", "cathedrale")
    err = refused(state, "tonnelle")
    assert (err.rule, err.fields) == (
        "chance.revealed",
        {"card": "tonnelle", "place": "row", "possible": 36},
    )
    assert str(err) == "Bower cannot come up now: it is in a row; 36 other cards can"
    err = refused(state, "abbaye")
    assert err.fields["place"] == "player" and err.fields["owner"] == 0
    assert "with Ann" in str(err)
    err = refused(state, "maitre-0023")
    assert (err.rule, err.fields["deck"]) == ("chance.deck", "building")
    assert refused(state, "nonsense").rule == "chance.unknown"
    err = refused(dealt(), "cathedrale")
    assert (err.rule, err.fields) == ("chance.none", {"player": 0, "card": "cathedrale"})
    # apply says the same about an outcome written by hand
    with pytest.raises(IllegalAction) as info:
        G.apply_text(state, "next building tonnelle")
    assert info.value.rule == "chance.revealed"
    with pytest.raises(IllegalAction) as info:
        G.apply_text(state, "reveal building cathedrale")
    assert (info.value.rule, info.value.fields) == (
        "chance.step",
        {"card": "cathedrale", "step": "next building"},
    )
    with pytest.raises(IllegalAction) as info:
        G.apply_text(state, "end turn")
    assert (info.value.rule, info.value.fields) == ("chance.waiting", {"step": "next building"})


def test_the_apprentice_deal_refuses_other_workers_and_dealt_apprentices() -> None:
    state = G.initial_state(G.setup(NAMES[:2], 1))
    for m in [f"reveal building {b}" for b in ROW_B] + [f"next building {TOP_B}"]:
        state = G.apply_text(state, m)
    err = refused(state, "maitre-3200")
    assert (err.rule, err.fields) == ("chance.apprentice", {"card": "maitre-3200", "player": 1})
    assert str(err) == "Only an Apprentice is dealt to Bob now, not Master (3 stone, 2 wood)"
    assert refused(state, "abbaye").rule == "chance.deck"
    state = G.apply(state, G.outcome_for_card(state, "apprenti-1100"))
    err = refused(state, "apprenti-1100")
    assert err.fields == {"card": "apprenti-1100", "place": "player", "owner": 1, "possible": 5}


def test_the_two_all_round_craftsmen_are_one_outcome() -> None:
    state = G.apply_text(dealt(), "recruit maitre-3200")  # a hidden worker is revealed
    hidden = dict(G.chance_outcomes(state))
    assert WORKER["compagnon-1111"].count == 2
    assert "compagnon-1111" not in state.worker_deck  # both are in the row
    state = G.position(
        G.setup(NAMES[:2]),
        worker_row=("maitre-3200",),
        pending=("reveal worker",),
        players=[{"idle": ["apprenti-1001", "maitre-2300"]}],
    )
    hidden = dict(G.chance_outcomes(state))
    outcome = G.outcome_for_card(state, "compagnon-1111")
    assert outcome == Reveal("worker", "compagnon-1111")
    assert hidden[outcome] == pytest.approx(2 / len(state.worker_deck))


def test_the_game_over_refuses_every_card() -> None:
    state = G.position(G.setup(NAMES[:2]), end="test")
    state = BuildersState(**{**{f: getattr(state, f) for f in state.__slots__}, "over": True})
    err = refused(state, "abbaye")
    assert err.rule == "over"


# -- the seat the table looks at -------------------------------------------------------------


def test_active_seat_follows_the_player_concerned() -> None:
    state = G.initial_state(G.setup(NAMES[:3], 2))
    assert G.active_seat(state) == 2  # the set-up deals the rows: the first player
    assert G.summary(state).to_json()["phase"] == "setup"
    for m in [f"reveal building {b}" for b in ROW_B] + [f"next building {TOP_B}"]:
        state = G.apply_text(state, m)
    seats = []
    for a in DEALT[:3]:
        seats.append(G.active_seat(state))
        state = G.apply_text(state, f"deal apprentice {a}")
    assert seats == [2, 0, 1]  # each player in turn from the first player
    assert G.active_seat(state) == 2
    for w in ROW_W:
        state = G.apply_text(state, f"reveal worker {w}")
    assert G.active_seat(state) == 2 == G.current_player(state)
    assert G.summary(state).to_json()["phase"] == "play"
    state = G.apply_text(state, "start abbaye")
    assert G.current_player(state) == CHANCE and G.active_seat(state) == 2  # Cid's refill
    state = G.apply_text(state, "next building cathedrale")
    state = G.apply_text(state, "end turn")
    assert G.active_seat(state) == 0
    state = G.apply_text(state, "buy action")
    state = G.apply_text(state, "recruit maitre-3200")
    assert G.active_seat(state) == 0  # the worker row is refilled after Ann's recruit


def test_active_seat_in_the_solo_game() -> None:
    state = G.initial_state(G.setup(["Ann"]))
    for b in ROW_B[:4]:
        state = G.apply_text(state, f"reveal building {b}")
    state = G.apply_text(state, f"next building {TOP_B}")
    assert G.active_seat(state) == 0
    state = G.apply_text(state, "deal apprentice apprenti-1100")
    assert G.active_seat(state) is None  # the Automa's Apprentice
    state = G.apply_text(state, "deal apprentice apprenti-0011")
    for w in ROW_W[:4]:
        state = G.apply_text(state, f"reveal worker {w}")
    state = G.apply_text(state, "end turn")  # the Automa recruits: its refill is Ann's to see
    assert G.current_player(state) == CHANCE and G.active_seat(state) == 0


# -- queries ---------------------------------------------------------------------------------


def busy() -> BuildersState:
    return G.position(
        G.setup(NAMES[:2], options={"coins": "cumulative"}),
        players=[
            {
                "coins": 12,
                "idle": ["maitre-2300", "apprenti-1001"],
                "sites": {"abbaye": ["maitre-0320"], "tonnelle": []},
                "finished": ["grue-1", "cabane"],
            },
            {"coins": 3},
        ],
        building_row=("lavoir", "chapelle"),
        worker_row=("compagnon-1111",),
        sent={"abbaye": 1},
        ap=2,
        coin_ap=1,
    )


def edit_finished(state: BuildersState, cards: tuple[str, ...]) -> BuildersState:
    table = keywords(state)
    table["players"][0]["finished"] += list(cards)
    return G.position(state.setup, **table)


def test_the_queries_a_screen_needs() -> None:
    state = busy()
    assert G.ap_left(state) == 2 and G.round_of(state) == 1
    assert G.send_cost(state, "abbaye") == 2 and G.send_cost(state, "tonnelle") == 1
    assert G.sent_this_turn(state) == {"abbaye": 1}
    assert G.wage("maitre-2300") == 5 and G.wage("grue-1") == 0
    with pytest.raises(IllegalAction):
        G.wage("abbaye")
    assert [G.coins_for(state, k) for k in (1, 2, 3, 0)] == [2, 5, None, None]  # 1 AP spent
    assert G.cost(state, Send("maitre-2300", "abbaye")) == Cost(2, 5)
    assert G.cost(state, Start("lavoir")) == Cost(1, 0)
    assert G.cost(state, BuyAction()) == Cost(0, 5)
    preview = G.send_preview(state, "maitre-2300", "abbaye")
    assert (preview.ap, preview.wage, preview.supplied, preview.finishes) == (
        2,
        5,
        (2, 6, 2, 0),
        False,
    )
    finish = G.send_preview(state, "apprenti-1001", "tonnelle")
    assert (finish.finishes, finish.coins, finish.vp) == (True, 8, 0)
    assert G.sites(state) == [
        SiteView("abbaye", ("maitre-0320",), (0, 3, 2, 0), (4, 3, 2, 1), (4, 0, 0, 1), 2),
        SiteView("tonnelle", (), (0, 0, 0, 0), (1, 0, 0, 1), (1, 0, 0, 1), 1),
    ]
    assert G.idle_workers(state)[-1] == WorkerView("grue-1", 1, 0, (2, 0, 0, 0), True)
    assert G.machines(state, 0) == {"grue-1": None}
    assert G.vp_breakdown(state, 0) == {"buildings": 0, "machines": 1, "coins": 1, "total": 2}
    assert G.cards_in_view(state, 0) == {
        "sites": ["abbaye", "tonnelle", "maitre-0320"],
        "workers": ["maitre-2300", "apprenti-1001"],
    }
    refusal = G.refusal(state, Send("maitre-2300", "chapelle"))
    assert refusal is not None and refusal.rule == "send.site"
    assert G.allowed(state, Send("maitre-2300", "abbaye"))
    after = G.apply(state, Send("apprenti-1001", "tonnelle"))
    assert G.completions(state, after) == [Completion(0, "tonnelle", 8, 0)]
    assert G.end_reason(state) is None and G.turns_left(state) is None
    assert G.end_at_turn_end(state) is None
    rich = edit_finished(state, ("cathedrale", "chateau-fort", "grue-2"))
    assert G.end_at_turn_end(rich) == "Ann reached 18 VP"
    assert G.apply(rich, EndTurn()).end == "Ann reached 18 VP"
    assert (G.end_vp, G.action_price, G.start_ap) == (17, 5, 3)


def test_turns_left_in_the_last_round() -> None:
    state = G.position(G.setup(NAMES[:4], 1), turn_player=3, end="Dee reached 17 VP", turn=7)
    assert G.turns_left(state) == 2  # Dee, Ann, then the round ends before Bob
    assert G.end_reason(state) == "Dee reached 17 VP"


# -- summary ---------------------------------------------------------------------------------


def test_the_summary_is_complete() -> None:
    state = G.apply(busy(), Send("maitre-2300", "abbaye"))
    summary = G.summary(state).to_json()
    assert set(summary) == {
        "game", "over", "scores", "winners", "turn", "round", "phase", "turn_player", "to_act",
        "active_seat", "waiting_for", "pending", "ap", "sent", "coin_ap", "end", "turns_left",
        "building_row", "building_next", "building_deck", "worker_row", "worker_next",
        "worker_deck", "apprentices", "options", "players",
    }  # fmt: skip
    assert summary["sent"] == {"abbaye": 2} and summary["phase"] == "play"
    ann = summary["players"][0]
    assert set(ann) == {
        "seat", "name", "colour", "coins", "vp", "points", "vp_breakdown", "idle", "workers",
        "sites", "finished", "machines",
    }  # fmt: skip
    assert ann["sites"][0]["missing"] == [2, 0, 0, 1]
    assert ann["machines"] == {"grue-1": None}
    solo = G.summary(G.position(G.setup(["Ann"]), automa_workers=("maitre-3200",))).to_json()
    assert solo["automa"]["workers"] == ["maitre-3200"]


# -- positions -------------------------------------------------------------------------------


def test_a_position_equals_the_played_state() -> None:
    played = dealt(3)
    built = G.position(
        G.setup(NAMES[:3]),
        players=[{"idle": [a]} for a in DEALT[:3]],
        building_row=ROW_B,
        building_next=TOP_B,
        worker_row=ROW_W,
    )
    assert built == played
    played = G.apply_text(played, "start abbaye")
    assert played == G.position(
        G.setup(NAMES[:3]),
        players=[{"idle": [DEALT[0]], "sites": {"abbaye": []}}]
        + [{"idle": [a]} for a in DEALT[1:3]],
        building_row=("tonnelle", "pont-couvert", "grue-1", "lavoir", TOP_B),
        worker_row=ROW_W,
        ap=2,
        pending=("next building",),
    )


@pytest.mark.parametrize(
    ("table", "rule", "words"),
    [
        ({"building_row": ("abbaye",), "players": [{"finished": ["abbaye"]}]}, "position.cards",
         "abbaye is in 2 places"),
        ({"players": [{"sites": {"tonnelle": ["apprenti-1001"]}}]}, "position.site",
         "would be complete"),
        ({"building_row": ROW_B + ("cabane",)}, "position.row", "at most 5"),
        ({"worker_row": ("abbaye",)}, "position.row", "cannot lie in the worker row"),
        ({"players": [{"idle": ["nonsense"]}]}, "position.cards", "not a card"),
        ({"players": [{"coins": -1}]}, "position.player", "coins"),
        ({"turn_player": 5}, "position.turn", "not a seat"),
        ({"sent": {"abbaye": 1}}, "position.turn", "not a site of seat 0"),
        ({"pending": ("deal apprentice",)}, "position.pending", "not a refill step"),
        ({"automa_workers": ("maitre-3200",)}, "position.automa", "solo"),
        ({"players": [{"sites": {"abbaye": ["grue-1"]}, "idle": ["grue-1"],
                       "finished": ["grue-1"]}]}, "position.cards", "grue-1 works 2 times"),
        ({"players": [{"idle": ["compagnon-1111"]}], "worker_row": ROW_W}, "position.cards",
         "compagnon-1111 is in 3 places"),
    ],
)  # fmt: skip
def test_impossible_positions_are_refused(table: dict[str, Any], rule: str, words: str) -> None:
    with pytest.raises(SetupError) as info:
        G.position(G.setup(NAMES[:2]), **table)
    assert info.value.rule == rule and words in str(info.value), str(info.value)


# -- hand-built actions ----------------------------------------------------------------------

SOME = st.one_of(
    st.sampled_from(CARDS),
    st.text(max_size=12),
    st.integers(),
    st.none(),
    st.sampled_from(["building", "worker", "hand"]),
    st.lists(st.integers(), max_size=2),
)
ACTIONS = st.one_of(
    st.builds(Start, SOME),
    st.builds(Recruit, SOME),
    st.builds(Send, SOME, SOME),
    st.builds(TakeCoins, st.one_of(st.integers(), SOME)),
    st.builds(Reveal, SOME, SOME),
    st.builds(ShowNext, SOME, SOME),
    st.builds(DealApprentice, SOME),
    st.just(BuyAction()),
    st.just(EndTurn()),
    SOME,
)


def positions() -> list[BuildersState]:
    start = G.initial_state(G.setup(NAMES[:2]))
    turn = dealt(2)
    refill = G.apply_text(turn, "recruit maitre-3200")
    return [start, turn, refill, busy(), G.apply_text(turn, "coins 3ap")]


POSITIONS = positions()


@pytest.mark.parametrize("sweep", sweep_params())
def test_hand_built_actions_are_applied_or_refused(sweep: str) -> None:
    @examples(sweep, 400)
    @given(action=ACTIONS, which=st.integers(0, len(POSITIONS) - 1))
    def check(action: Any, which: int) -> None:
        state = POSITIONS[which]
        try:
            after = G.apply(state, action)
        except IllegalAction as err:
            check_refusal(err)
            return
        assert G.invariants(after) == []
        assert action in G.legal_actions(state) or G.current_player(state) == CHANCE

    check()


@pytest.mark.parametrize("sweep", sweep_params())
def test_any_text_is_parsed_and_applied_or_refused(sweep: str) -> None:
    @examples(sweep, 300)
    @given(text=st.text(max_size=40), which=st.integers(0, len(POSITIONS) - 1))
    def check(text: str, which: int) -> None:
        try:
            G.apply_text(POSITIONS[which], text)
        except MalformedAction:
            pass
        except IllegalAction as err:
            check_refusal(err)

    check()


@pytest.mark.parametrize("sweep", sweep_params())
def test_any_card_shown_is_an_outcome_or_refused(sweep: str) -> None:
    @examples(sweep, 200)
    @given(
        card=st.one_of(st.sampled_from(CARDS), st.text(max_size=20), st.integers()),
        which=st.integers(0, len(POSITIONS) - 1),
    )
    def check(card: Any, which: int) -> None:
        state = POSITIONS[which]
        try:
            outcome = G.outcome_for_card(state, card)
        except IllegalAction as err:
            check_refusal(err)
        else:
            assert G.card_of(outcome) == card
            assert G.invariants(G.apply(state, outcome)) == []

    check()


@pytest.mark.parametrize("text", [None, 3, b"end turn", ["end", "turn"]])
def test_parse_action_refuses_what_is_not_text(text: Any) -> None:
    with pytest.raises(MalformedAction, match="written as text"):
        G.parse_action(text)


def test_every_action_has_one_notation() -> None:
    """No two actions share a notation, and no notation reads as two actions."""
    state = dealt(2)
    actions: set[Any] = set()
    for c in BUILDING:
        actions |= {Start(c), Reveal("building", c), ShowNext("building", c)}
    for w in WORKER:
        actions |= {Recruit(w), Reveal("worker", w), ShowNext("worker", w)}
    actions |= {Send(w, s) for w in ("maitre-3200", "grue-1") for s in BUILDING}
    actions |= {TakeCoins(k) for k in (1, 2, 3)} | {BuyAction(), EndTurn()}
    texts = {str(a) for a in actions}
    assert len(texts) == len(actions)
    for a in actions:
        assert G.parse_action(str(a)) == a
    assert state is not None


@pytest.mark.parametrize(("n", "options"), sampled(
    [(2, {}), (4, {"show_next_worker": True}), (1, {})], keep=[1]))  # 2 and solo: -m full
def test_every_played_position_rebuilds_exactly(n: int, options: dict[str, Any]) -> None:
    """position(setup, **keywords(state)) == state for every state of random games."""
    for seed in range(2):
        rng = random.Random(seed)
        state = G.initial_state(G.setup(NAMES[:n], seed % n, options))
        while not G.is_over(state):
            json.dumps(G.summary(state).to_json())  # JSON-ready at every step
            if not state.apprentices and "deal apprentice" not in state.pending:
                assert G.position(state.setup, **keywords(state)) == state
            if G.current_player(state) == CHANCE:
                state = G.apply(state, sample(G.chance_outcomes(state), rng))
            else:
                state = G.apply(state, rng.choice(G.legal_actions(state)))
    with pytest.raises(SetupError):
        keywords(state)
