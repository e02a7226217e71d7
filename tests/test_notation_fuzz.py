"""Any text given as an action either parses to an action whose notation round-trips or is
refused with MalformedAction; never another exception."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from companion.engine import MalformedAction, get_game
from companion.pillars.actions import parse_action
from tests.sweeps import examples, sweep_params

WORDS = ["take", "place", "buy", "sell", "convert", "return", "draw", "roll", "pass", "done",
         "stone", "wood", "sand", "metal", "mason2x2", "court1", "red", "2", "0", "-1", "x",
         "archbishop", "protect", "play", "thomas", "craft", "mason2", "stone4", "privilege",
         "madonna", "event", "teile", "lose", "boost", "remigius", "redraw", "keep"]


@pytest.mark.parametrize("sweep", sweep_params())
def test_word_salad_parses_or_is_malformed(sweep: str) -> None:
    @examples(sweep, 400)
    @given(st.lists(st.sampled_from(WORDS), min_size=0, max_size=5))
    def check(words: list[str]) -> None:
        text = " ".join(words)
        try:
            action = parse_action(text)
        except MalformedAction as exc:
            assert exc.text == text and exc.reason
        else:
            assert parse_action(str(action)) == action

    check()


@pytest.mark.parametrize("sweep", sweep_params())
@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_any_text_parses_or_is_malformed(name: str, sweep: str) -> None:
    game = get_game(name)

    @examples(sweep, 200)
    @given(text=st.text(max_size=30))
    @example(text="buy wood ²")  # a Unicode digit that int() refuses
    @example(text="roll ٣")
    @example(text="coins ²ap")
    def check(text: str) -> None:
        try:
            action = game.parse_action(text)
        except MalformedAction:
            return
        assert game.parse_action(str(action)) == action

    check()
