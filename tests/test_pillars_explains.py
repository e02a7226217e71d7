"""The Pillars engine explains itself: documented rule tags and fields on every refusal, chance
outcomes refused with their reason, who the table looks at, the queries, the summary, and
positions built through the validated position builder."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine import CHANCE, TERMINAL, AmbiguousAction, IllegalAction, MalformedAction
from companion.engine.errors import MAX_MESSAGE, SetupError
from companion.engine.simulate import sample
from companion.pillars import Action
from companion.pillars import data as D
from companion.pillars.refusals import RULES, docs_table
from tests.pillars_helpers import GAME, ROUND1_REVEALS, at_draw, new, phase3, play, seat
from tests.sweeps import examples, sampled, sweep_params

DOCS = Path(__file__).resolve().parents[1] / "docs" / "pillars.md"


def documented() -> dict[str, tuple[str, ...]]:
    """The refusal table of docs/pillars.md: tag -> fields."""
    out = {}
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Refusals: rule tags and fields", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        m = re.match(r"\| `([a-z0-9.]+)` \| ([^|]*) \|", line)
        if m:
            out[m.group(1)] = tuple(re.findall(r"`(\w+)`", m.group(2)))
    return out


def test_the_docs_table_is_the_rules_table() -> None:
    assert docs_table() in DOCS.read_text(encoding="utf-8")
    assert documented() == {tag: r.fields for tag, r in RULES.items()}


def _candidates(state: Any, rng: random.Random, seen: list[Action]) -> list[Action]:
    """Actions to try in ``state``: some seen elsewhere, some chance outcomes of every kind,
    and some built by hand with odd arguments."""
    cards = [*D.PRIVILEGES, *D.EVENTS, *D.RESOURCE_CARDS, *D.CRAFTSMEN]
    out = rng.sample(seen, min(len(seen), 25))
    out += [Action(v, (rng.choice(cards),)) for v in ("privilege", "craftsman", "resource")]
    colours = list(D.COLOUR_CODE)
    out += [Action("event", (rng.choice(cards),)), Action("draw", (rng.choice(colours),))]
    out += [Action("roll", (rng.choice([1, 2, 6, 4, -3, 10**30]),))]
    out += [
        Action("buy", ("wood", rng.choice([0, -1, 3, 10**40]))),
        Action("sell", ("metal", rng.choice([1, 5, 40]))),
        Action("place", (rng.choice([s.id for s in D.SPACES] + ["moon"]),)),
        Action("take", (rng.choice(cards),)),
        Action("craft", (rng.choice(list(D.CRAFTSMEN)),)),
        Action("convert", ("mason2", 3, "potter3", 1)),
        Action("return", ("stone", 1, "metal", 9)),
        Action("discard", (rng.choice(list(D.CRAFTSMEN)),)),
        Action("lose", ("mason3",)),
        Action("boost", ("bellmaker6",)),
        Action("play", ("thomas",)),
        Action("keep", ("steuerfreiheit",)),
        Action("archbishop", (rng.choice(["stone", "wood", "sand", "protect"]),)),
        Action("remigius", ("court1",)),
        Action("redraw"),
        Action("pass"),
        Action("done"),
        Action("convert", ()),
        Action("fly", (1, 2)),
    ]
    return out


@pytest.mark.parametrize("games", sampled([3, 6], keep=[0]))  # six under -m full
def test_every_refusal_carries_a_documented_tag_and_its_fields(games: int) -> None:
    docs = documented()
    tags: set[str] = set()
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.initial_state(GAME.setup(2 + seed % 3, start_player=seed % 2))
        seen: list[Action] = []
        while not GAME.is_over(state):
            for a in _candidates(state, rng, seen):
                try:
                    GAME.apply(state, a)
                except IllegalAction as exc:
                    assert exc.rule in docs, f"{a}: undocumented rule {exc.rule!r} ({exc})"
                    missing = set(docs[exc.rule]) - set(exc.fields)
                    assert not missing, f"{a}: {exc.rule} lacks {missing} ({exc})"
                    assert 0 < len(str(exc)) <= MAX_MESSAGE
                    tags.add(exc.rule)
            if GAME.current_player(state) == CHANCE:
                action = sample(GAME.chance_outcomes(state), rng)
            else:
                legal = GAME.legal_actions(state)
                seen.extend(legal)
                extra = GAME.start_player_actions(state)
                action = rng.choice(legal + extra) if rng.random() < 0.1 else rng.choice(legal)
            state = GAME.apply(state, action)
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, Action("pass"))
        assert err.value.rule == "over"
        tags.add("over")
    # the random walk meets most rules; the rest are met by the scenario tests
    assert len(tags) >= 25, sorted(tags)


# -- chance outcomes refused with the reason ----------------------------------------------------


def refusal(state: Any, card: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        GAME.outcome_for_card(state, card)
    return err.value


def test_a_card_of_another_step() -> None:
    e = refusal(new(), "mason1")
    assert e.rule == "chance.step" and e.fields == {"step": "privilege", "card": "mason1"}
    assert "privilege card" in str(e)


def test_a_craftsman_of_another_round() -> None:
    s = play(new(), "privilege madonna", "privilege tom")
    e = refusal(s, "mason3")
    assert e.rule == "chance.round"
    assert e.fields == {"card": "mason3", "card_round": 3, "round": 1}
    assert str(e) == "Mason (round 3) is a craftsman of round 3; this is round 1"
    assert refusal(s, "mortar0r").fields["card_round"] == 0
    assert GAME.outcome_for_card(s, "mason1") == Action("craftsman", ("mason1",))


def test_a_last_round_privilege_early_and_a_card_already_out() -> None:
    s = new()
    e = refusal(s, "vollendung")
    assert e.rule == "chance.lastround" and e.fields == {"card": "vollendung", "round": 1}
    s = play(s, "privilege madonna")
    e = refusal(s, "madonna")
    assert e.rule == "chance.revealed" and e.fields == {"card": "madonna"}
    assert "already been revealed" in str(e)


def test_no_card_is_being_revealed() -> None:
    e = refusal(at_draw(2), "madonna")
    assert e.rule == "chance.none" and e.fields == {"card": "madonna", "step": "draw"}


def test_apply_gives_the_same_reasons() -> None:
    s = play(new(), "privilege madonna")
    with pytest.raises(IllegalAction) as err:
        GAME.apply_text(s, "privilege madonna")
    assert err.value.rule == "chance.revealed"
    assert str(err.value).startswith("privilege madonna cannot happen now: ")
    with pytest.raises(IllegalAction) as err:
        GAME.apply_text(s, "roll 4")
    assert err.value.rule == "turn" and err.value.fields == {"step": "privilege", "player": -1}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Action("privilege", ("mason1",)))
    assert err.value.rule == "chance.step"


def test_a_colour_whose_builders_are_all_drawn_and_a_face_not_on_the_die() -> None:
    s = play(at_draw(2), "draw red", "pass", "draw red", "pass", "draw red", "pass")
    with pytest.raises(IllegalAction) as err:
        GAME.apply_text(s, "draw red")
    assert err.value.rule == "chance.bag" and err.value.fields == {"colour": "red", "player": 0}
    with pytest.raises(IllegalAction) as err:
        GAME.apply_text(s, "draw green")
    assert err.value.rule == "chance.colour"
    r = play(phase3(2), "event koenig")
    assert r.step == "roll"
    for bad in (1, 6, -2, 10**50, "4", True):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(r, Action("roll", (bad,)))
        assert err.value.rule == "chance.die", bad


def test_outcome_for_card_is_not_ambiguous_in_pillars() -> None:
    s = new()
    for card in D.SHUFFLED_PRIVILEGES:
        try:
            GAME.outcome_for_card(s, card)
        except AmbiguousAction:  # pragma: no cover - one outcome per card
            raise
    assert GAME.card_of(Action("draw", ("red",))) is None
    assert GAME.card_of(Action("event", ("koenig",))) == "koenig"


# -- who the table looks at ------------------------------------------------------------------


def test_active_seat() -> None:
    s = new(3, start=1)
    assert GAME.active_seat(s) is None  # round-start reveals concern everyone
    s = play(s, *ROUND1_REVEALS)
    assert GAME.active_seat(s) == 1 == GAME.current_player(s)  # the draft, from the start
    s = at_draw(3, start=1)
    assert GAME.current_player(s) == CHANCE and GAME.active_seat(s) is None  # the bag
    s = play(s, "draw yellow")
    assert GAME.active_seat(s) == 2  # Yellow decides, not Blue the start player
    r = play(phase3(3), "event koenig")
    assert r.step == "roll" and GAME.active_seat(r) is None  # the die
    assert GAME.active_seat(phase3(3)) is None  # the event concerns everyone
    ellen = seat(new(3), 2, privileges=("ellen",))
    ellen = play(ellen, *ROUND1_REVEALS[:-1])
    ellen = play(ellen, ROUND1_REVEALS[-1])
    assert ellen.step == "peek" and GAME.active_seat(ellen) == 2


# -- the fuzz: nothing but IllegalAction / MalformedAction escapes -------------------------------

_WORDS = st.sampled_from(
    ["take", "pass", "place", "buy", "sell", "convert", "done", "return", "draw", "roll",
     "privilege", "craftsman", "redraw", "craft", "discard", "wood", "metal", "court1",
     "mason2", "madonna", "-1", "0", "99", "100", "9" * 5000, "x", "mason2x2", "²", "\x00"]
)  # fmt: skip
_ARGS = st.one_of(
    st.integers(), st.text(max_size=8), st.sampled_from(["wood", "mason2", "court1", "red"]),
    st.none(), st.floats(allow_nan=False), st.lists(st.integers(), max_size=2),
    st.booleans(),
)  # fmt: skip


@pytest.mark.parametrize("sweep", sweep_params())
def test_parse_action_raises_only_malformed(sweep: str) -> None:
    @examples(sweep, 300)
    @given(st.lists(_WORDS, max_size=5).map(" ".join) | st.text(max_size=40))
    def check(text: str) -> None:
        try:
            a = GAME.parse_action(text)
        except MalformedAction as exc:
            assert len(str(exc)) <= MAX_MESSAGE
        else:
            assert GAME.parse_action(str(a)) == a and str(GAME.parse_action(str(a))) == str(a)

    check()


_STATES = [new(2), at_draw(3), play(at_draw(2), "draw red"), phase3(4)]
_STATES.append(play(_STATES[3], "event koenig"))


@pytest.mark.parametrize("sweep", sweep_params())
def test_apply_raises_only_illegal_action(sweep: str) -> None:
    @examples(sweep, 400)
    @given(
        st.sampled_from(range(len(_STATES))),
        st.one_of(_WORDS, st.text(max_size=6), st.integers(), st.none()),
        st.lists(_ARGS, max_size=4),
    )
    def check(k: int, verb: Any, args: list[Any]) -> None:
        state = _STATES[k]
        for action in (Action(verb, tuple(args)), Action(verb, args), verb):  # type: ignore[arg-type]
            try:
                after = GAME.apply(state, action)
            except IllegalAction as exc:
                assert exc.rule in RULES and len(str(exc)) <= MAX_MESSAGE
            else:
                assert GAME.invariants(after) == []
                assert isinstance(action, Action) and GAME.parse_action(str(action)) == action

    check()


def test_one_notation_for_done() -> None:
    assert str(GAME.parse_action("convert")) == "done"
    assert GAME.parse_action("convert") == GAME.parse_action("done")
    s = play(phase3(2), "event koenig", "roll 2")
    assert s.step == "cathedral"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Action("convert", ()))  # not canonical: ``done`` is
    assert err.value.rule == "action"
    assert GAME.apply(s, Action("done")).turn == 1


def test_hand_built_counts_out_of_range_are_refused() -> None:
    s = play(phase3(2, {"market1": 0}), "event koenig", "roll 2")
    assert s.step == "market"
    for n in (0, -3, 10**30, 2.5, float("inf"), "2"):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(s, Action("buy", ("sand", n)))
        assert err.value.rule == "action"
    assert GAME.apply(s, Action("buy", ("sand", 1))).seats[0].res[2] == 1
    assert GAME.apply(s, Action("buy", ("sand", 2.0))).seats[0].res[2] == 2  # equal actions


# -- P16: owed cubes are the player's at once --------------------------------------------------


def _short_of_stone() -> Any:
    """Red's quarry yields 3 stone with 1 in the supply: 2 owed; Blue holds the rest."""
    s = GAME.position(
        phase3(2, {"market1": 0, "market2": 1}),
        seats={0: {"cards": ("stone3",), "wool": 4}, 1: {"res": (18, 0, 0, 0)}},
        kingsbridge=("madonna", "otto"),
    )
    s = play(s, "event koenig", "roll 2")
    assert s.step == "market" and s.seats[0].res[0] == 3 and s.seats[0].owed[0] == 2
    assert s.supply[0] == 0
    return s


def test_owed_cubes_are_handed_over_when_the_supply_has_them() -> None:
    s = _short_of_stone()
    assert GAME.invariants(s) == []
    s = play(s, "pass")  # Red passes; Blue sells stone (needs a Stonecutter: he has one)
    s = play(s, "sell stone 1")
    assert s.seats[0].owed == (1, 0, 0, 0) and s.supply[0] == 0  # handed on at once
    s = play(s, "sell stone 2")
    assert s.seats[0].owed == (0, 0, 0, 0) and s.supply[0] == 1
    assert GAME.invariants(s) == []


def test_owed_cubes_count_at_the_market_and_the_cathedral() -> None:
    s = _short_of_stone()
    s = play(s, "sell stone 3")  # all three, two of them still owed: the debt is cancelled
    assert s.seats[0].res[0] == 0 and s.seats[0].owed == (0, 0, 0, 0)
    assert s.supply[0] == 1 and GAME.invariants(s) == []
    c = _short_of_stone()
    c = play(c, "pass", "pass")
    assert c.step == "cathedral" and c.turn == 0
    c = play(c, "craft stonecutter0r")  # 2 stone, owed ones first
    assert c.seats[0].res[0] == 1 and c.seats[0].owed == (0, 0, 0, 0) and c.supply[0] == 0
    assert GAME.invariants(c) == []


# -- the position builder -------------------------------------------------------------------


def test_position_refuses_impossible_positions() -> None:
    setup = GAME.setup(2)
    with pytest.raises(SetupError, match="craftsman cards"):
        GAME.position(setup, seats={0: {"craftsmen": ("mason2", "mason2")}})
    with pytest.raises(SetupError, match="unknown state fields: colour"):
        GAME.position(setup, colour="red")
    with pytest.raises(SetupError, match="unknown space"):
        GAME.position(setup, spaces={"moon": 0})
    with pytest.raises(SetupError, match="stone"):
        GAME.position(setup, seats={0: {"res": (30, 0, 0, 0)}})
    with pytest.raises(SetupError, match="master builders"):
        GAME.position(setup, spaces={"court1": 0, "court2": 0, "court3": 0, "court4": 0})
    with pytest.raises(SetupError, match="turn must be a seat"):
        GAME.position(setup, step="market", turn=5)
    with pytest.raises(SetupError, match="malformed position"):
        GAME.position(setup, spaces={"court1": 0}, aside=(1,))


def test_position_derives_the_bookkeeping() -> None:
    s = GAME.position(
        GAME.setup(3),
        round=3,
        step="event",
        spaces={"archbishop": 1, "court1": 0},
        aside=(2, 2, 3),
        seats={2: {"res": (2, 0, 0, 1), "privileges": ("otto",)}},
        events_done=("koenig", "william"),
    )
    assert s.bag == (0, 0, 0) and s.seats[2].workers == 13
    assert s.supply == (23 - 4 - 2, 19, 19, 13 - 1 - 1)
    assert "koenig" not in s.events_unseen and "otto" not in s.priv_unseen
    assert "mason1" in s.removed and "mason3" in s.removed and "mason4" not in s.removed
    assert GAME.invariants(s) == []
    assert GAME.current_player(s) == CHANCE
    assert GAME.current_player(play(s, "event konflikt")) != TERMINAL


# -- queries --------------------------------------------------------------------------------


def test_queries() -> None:
    s = seat(play(new(2), *ROUND1_REVEALS), 0, cards=("wood3",), gray=1)
    assert GAME.workers(s, 0) == 13 and GAME.free_workers(s, 0) == 7
    assert GAME.market_prices() == {"stone": 4, "wood": 3, "sand": 2, "metal": 5}
    assert GAME.reveal_slot(new(2)) == ("kingsbridge", 1, 2)
    assert GAME.reveal_slot(play(new(2), *ROUND1_REVEALS[:6])) == ("resource", 3, 7)
    p = phase3(3, {"court1": 1, "priory1": 0, "kingsbridge2": 2})
    p = seat(p, 0, privileges=("francis",), cards=("stone4",), wool=2)
    p = seat(p, 2, privileges=("steuerfreiheit", "richard"))
    assert GAME.tax_exempt(p) == [1]
    assert GAME.tax_due(p, 5) == {0: 2, 1: 0, 2: 5}
    assert GAME.production(p, 0) == {"stone": 4, "wood": 0, "sand": 0}
    assert GAME.production(p, 2)["sand"] == 1
    assert GAME.space_gives(p, "priory1") == {"vp": 2}
    assert GAME.space_gives(p, "court1") == {"metal": 1}
    assert GAME.space_gives(p, "kingsbridge2") == {"card": "tom"}
    assert GAME.can_trade(p, 0)["stone"] == {"buy": True, "sell": True}
    assert GAME.can_trade(p, 0)["metal"] == {"buy": False, "sell": True}
    d = play(at_draw(2), "draw blue")
    assert GAME.placement_cost(d, 1, "court1") == 7 and GAME.placement_cost(d, 0, "court1") is None
    assert GAME.cost_marker(d) == 7
    c = play(phase3(2), "event erzbischof", "boost woodworker0r", "boost stonecutter0b", "roll 2")
    assert c.step == "cathedral" and c.turn == 0
    assert GAME.uses_left(c, 0, "woodworker0r") == 5 and GAME.uses_left(c, 0, "mason4") == 0
    assert GAME.excess(c, 0) == 0
    assert GAME.cathedral_uses(c, 0) == {"mortar0r": 3, "woodworker0r": 5, "stonecutter0r": 4}


def test_summary_is_complete() -> None:
    s = play(at_draw(2), "draw blue")
    info = GAME.summary(s).to_json()
    for key in (
        "market",
        "supply",
        "court_metal",
        "cost_marker",
        "spaces",
        "die",
        "drawn",
        "round",
        "step",
        "active",
        "to_act",
        "castle_gray",
        "kingsbridge",
        "shiring",
    ):
        assert key in info  # fmt: skip
    assert info["drawn"] == "Blue" and info["cost_marker"] == 7 and info["active"] == "Blue"
    assert info["players"][1]["builders"] == {"bag": 2, "aside": 0, "placed": [], "parked": 0}
    assert set(info["players"][0]) >= {"owed", "free_workers", "uses", "privileges", "gold"}
