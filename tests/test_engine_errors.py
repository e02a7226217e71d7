"""Refusals carry a rule tag and named fields, and stay bounded whatever the input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import (
    AmbiguousAction,
    IllegalAction,
    MalformedAction,
    RecordError,
    RulesError,
    SetupError,
    UndoBlocked,
    get_game,
)
from companion.engine.errors import MAX_MESSAGE, MAX_TEXT, bounded
from companion.engine.registry import names


def test_every_refusal_has_a_rule_and_fields() -> None:
    err = IllegalAction("buy stone 3", "Red has 2 gold, not 12", "market.gold", player=0,
                        gold=2, cost=12)
    assert (err.rule, err.fields) == ("market.gold", {"player": 0, "gold": 2, "cost": 12})
    assert str(err) == "Red has 2 gold, not 12" and err.action == "buy stone 3"
    assert MalformedAction("x", "no such verb").rule == "notation"
    assert UndoBlocked("nothing to undo").rule == "undo.barrier"
    assert SetupError("no").rule == "setup"
    assert RecordError("bad", 3, "x").fields == {"position": 3}
    amb = AmbiguousAction("compagnon-1111", ["a", "b"])
    assert amb.rule == "ambiguous" and amb.fields == {"text": "compagnon-1111", "count": 2}
    assert all(isinstance(e, RulesError) for e in (err, amb))


def test_fields_are_plain_values() -> None:
    err = IllegalAction("a", "b", "r", flag=True, cards=["x", "y"], name="z" * 500, n=3)
    assert err.fields["flag"] == 1 and err.fields["cards"] == ("x", "y")
    assert len(str(err.fields["name"])) <= MAX_TEXT and err.fields["n"] == 3


def test_bounded_cuts_and_escapes() -> None:
    assert bounded("a" * 1000) == "a" * (MAX_MESSAGE - 1) + "…"
    assert bounded("Red\x00\u202eder") == "Red\\x00\\u202eder"
    assert bounded("红色 ok") == "红色 ok"


@pytest.mark.parametrize("name", names())
@settings(max_examples=60, deadline=None)
@given(text=st.text(min_size=0, max_size=5000))
def test_refusals_of_any_text_are_bounded(name: str, text: str) -> None:
    game = get_game(name)
    state = game.initial_state(game.setup(2))
    try:
        game.apply(state, game.parse_action(text))
    except RulesError as exc:
        assert len(str(exc)) <= MAX_MESSAGE + 2 * MAX_TEXT
        assert str(exc).isprintable()
        assert isinstance(exc.rule, str) and exc.rule


def test_outcome_for_card_is_ambiguous_where_two_outcomes_show_one_card() -> None:
    """The core's rule for a camera reading: one matching outcome, or AmbiguousAction."""
    from tests.toygame import Move, SticksGame

    class TwoWays(SticksGame):
        def card_of(self, outcome: Move) -> str | None:
            return "card" if outcome.verb == "reveal" else None  # both outcomes look alike

    game = TwoWays()
    state = game.initial_state(game.setup(2))
    with pytest.raises(AmbiguousAction) as err:
        game.outcome_for_card(state, "card")
    assert err.value.fields["count"] == 2
    with pytest.raises(IllegalAction) as refused:
        game.outcome_for_card(state, "nothing")
    assert refused.value.rule == "chance.card"
    assert SticksGame().outcome_for_card(state, "double") == Move("reveal", "double")
