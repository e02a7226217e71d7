"""Help that explains (issue 13): a finger held on a card or a space reads what it does,
costs and gives now, and never also takes the tap's action; the help panel says what the
step does and what each choice costs and gives with this moment's numbers; every card has
its text in every language.  Through the input layer, at both sizes, with the overflow check."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.builders.cards import BUILDING, WORKER
from companion.builders.kiosk import cardhelp as builders_help
from companion.engine import CHANCE, get_game
from companion.kiosk import i18n, ui
from companion.kiosk.i18n import _
from companion.pillars import data as D
from companion.pillars.kiosk import cardhelp as pillars_help
from companion.pillars.kiosk import names as PN
from companion.pillars.kiosk.names import space_name
from tests.kiosk_helpers import enter, find, hold, keys, make_app, position, press, shows, tap
from tests.sweeps import covered, ids

PILLARS = get_game("pillars")
BUILDERS = get_game("builders")
LANGUAGES = ("en", "zh", "ja")
SIZES = ((800, 480), (720, 1280))
GRID = [(size, lang) for size in SIZES for lang in LANGUAGES]
"""Every size in every language: each size and each language met by default, all under
``-m full`` (``tests/sweeps.py``)."""


@pytest.fixture
def drawn() -> Iterator[list[str]]:
    ui.DRAWN = []
    ui.OVERFLOWS.clear()
    try:
        yield ui.DRAWN
    finally:
        ui.DRAWN = None
        i18n.set_language("en")


def record(app: Any) -> tuple[str, ...]:
    return tuple(app.journal.record(app.session.id).actions)


def pillars_at(app: Any, step: str, rnd: int = 2) -> None:
    setup, actions, _a = position(
        "pillars", lambda s, a, n: s.step == step and s.round >= rnd, seed=5
    )
    enter(app, setup, actions)


@pytest.mark.parametrize(("touch", "size", "language"), covered(
    [(touch, size, lang) for touch in (False, True) for size in SIZES for lang in LANGUAGES]),
    ids=ids)  # each touch, size and language by default, every combination under -m full
def test_holding_a_space_reads_it_and_never_places_there(
    tmp_path: Path, drawn: list[str], language: str, size: tuple[int, int], touch: bool
) -> None:
    app = make_app(tmp_path, size=size, language=language)
    pillars_at(app, "place")
    state = app.session.state
    key = next(k for k in keys(app) if k.startswith("place kingsbridge") and find(app, k).enabled)
    space = key.split()[1]
    before = record(app)
    hold(app, key, touch=touch)
    assert record(app) == before and app.screen.preview is None  # the tap was not taken
    assert app.screen.reader.held is not None
    title, text = app.screen.reader.held
    assert title == space_name(space) and title in drawn and text in drawn
    card = PILLARS.space_gives(state, space)["card"]
    assert pillars_help.card_help(card)[1] in text  # the privilege lying there, explained
    assert str(PILLARS.cost_marker(state)) in text  # what placing there costs now
    assert not ui.OVERFLOWS, ui.OVERFLOWS
    assert keys(app) == ["close card"]  # nothing else to tap while it is read
    tap(app, "close card", touch=touch)
    assert app.screen.reader.held is None
    tap(app, key, touch=touch)  # a tap still places (after a preview, if any)
    if app.screen.preview is not None:
        press(app, "confirm")
    assert record(app)[-1] == key


def test_back_closes_what_a_hold_shows(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    pillars_at(app, "draft")
    key = next(k for k in keys(app) if k.startswith("take "))
    hold(app, key)
    assert app.screen.reader.held is not None
    press(app, "back")
    assert app.screen.reader.held is None and record(app)[-1] != key


@pytest.mark.parametrize("language", LANGUAGES)
def test_holding_a_card_in_the_draft_reads_it_and_never_takes_it(
    tmp_path: Path, drawn: list[str], language: str
) -> None:
    app = make_app(tmp_path, language=language)
    pillars_at(app, "draft")
    state = app.session.state
    before = record(app)
    for card in state.pool:
        key = f"take {card}"
        hold(app, key)
        assert record(app) == before
        title, text = app.screen.reader.held
        if card in D.CRAFTSMEN:
            c = D.CRAFTSMEN[card]
            assert str(c.cost) in text and (c.spec.auto or str(c.capacity) in text)
        else:
            rc = D.RESOURCE_CARDS[card]
            assert str(rc.workers) in text and str(rc.yield_) in text
        tap(app, "close card")
    assert not ui.OVERFLOWS, ui.OVERFLOWS


def test_holding_a_card_being_revealed_does_not_reveal_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    pillars_at(app, "event")
    assert PILLARS.current_player(app.session.state) == CHANCE
    key = next(k for k in keys(app) if k.startswith("event "))
    before = record(app)
    hold(app, key)
    assert record(app) == before and app.screen.preview is None
    title, text = app.screen.reader.held
    assert text == pillars_help.card_help(key.split()[1])[1]


@pytest.mark.parametrize(("size", "language"), covered(GRID), ids=ids)
def test_the_pillars_help_says_what_the_step_costs_now(
    tmp_path: Path, drawn: list[str], language: str, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path, size=size, language=language)
    pillars_at(app, "place")
    state = app.session.state
    press(app, "help")
    text = pillars_help.step_text(PILLARS, state)
    assert shows(drawn, text)
    assert PN.step_help("place") in text  # what the step does
    seat = state.turn
    for n in (PILLARS.cost_marker(state), state.seats[seat].gold):  # this moment's numbers
        assert re.search(rf"(?<!\d){n}(?!\d)", text), (n, text)
    assert not ui.OVERFLOWS, ui.OVERFLOWS


@pytest.mark.parametrize(
    "step", ["draft", "market", "cathedral", "draw", "return", "archbishop", "boost", "roll"]
)
def test_each_step_help_has_this_moments_numbers(tmp_path: Path, step: str) -> None:
    app = make_app(tmp_path)
    pillars_at(app, step, rnd=1)
    state = app.session.state
    now = pillars_help.step_now(PILLARS, state)
    assert now
    if step == "draft":
        s = state.seats[state.turn]
        assert f"{s.gold}" in now and all(
            str(D.CRAFTSMEN[c].cost) in now for c in state.pool if c in D.CRAFTSMEN
        )
    elif step == "market":
        for price in PILLARS.market_prices().values():
            assert _("{n} gold", n=price) in now or str(price) in now
    elif step == "draw":
        assert str(sum(state.bag)) in now and str(PILLARS.cost_marker(state)) in now
    elif step == "return":
        assert str(PILLARS.excess(state, state.turn)) in now
    elif step == "archbishop":
        assert all(str(n) in now for n in state.market)
    elif step == "boost":
        from companion.kiosk.words import card_name

        assert all(card_name("pillars", c) in now for c in state.seats[state.turn].craftsmen)


# -- The Builders -----------------------------------------------------------------------------


def builders_turn(app: Any) -> None:
    setup, actions, _a = position(
        "builders",
        lambda s, a, n: s.turn >= 20 and BUILDERS.current_player(s) >= 0
        and s.players[s.turn_player].sites and s.players[s.turn_player].idle and s.ap == 3,
        players=3,
    )
    enter(app, setup, actions)


@pytest.mark.parametrize(("size", "language"), covered(GRID), ids=ids)
def test_holding_a_builders_card_reads_it_and_spends_nothing(
    tmp_path: Path, drawn: list[str], language: str, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path, size=size, language=language)
    builders_turn(app)
    state = app.session.state
    before = record(app)
    start = next(k for k in keys(app) if k.startswith("start "))
    card = start.split()[1]
    hold(app, start)
    title, text = app.screen.reader.held
    c = BUILDING[card]
    assert str(c.vp) in text and (c.is_machine or str(c.coins) in text)
    tap(app, "close card")
    worker = next(k for k in keys(app) if k.startswith("select "))
    hold(app, worker)
    title, text = app.screen.reader.held
    assert str(WORKER[worker.split()[1]].wage) in text
    tap(app, "close card")
    assert app.screen.selected is None  # the hold did not pick the worker
    site = next(k for k in keys(app) if k.startswith("site "))
    hold(app, site)
    title, text = app.screen.reader.held
    assert title in drawn and text in drawn
    tap(app, "close card")
    assert record(app) == before and app.session.state == state
    assert not ui.OVERFLOWS, ui.OVERFLOWS


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_builders_help_says_what_each_choice_costs_now(
    tmp_path: Path, drawn: list[str], language: str
) -> None:
    app = make_app(tmp_path, language=language)
    builders_turn(app)
    state = app.session.state
    press(app, "help")
    now = _("Now: {text}", text=builders_help.turn_now(BUILDERS, state))
    assert shows(drawn, now)
    me = state.players[state.turn_player]
    assert str(me.coins) in now and str(state.ap) in now
    for k in (1, 2, 3):
        gain = BUILDERS.coins_for(state, k)
        if gain is not None:
            assert f"+{gain}" in now
    for s in me.sites:
        assert builders_help.card_help(s.card)[0] in now  # each site and its next send
    assert not ui.OVERFLOWS, ui.OVERFLOWS


# -- every card, every language ------------------------------------------------------------------

PILLARS_CARDS = (*D.PRIVILEGE_NAMES, *D.EVENT_NAMES, *D.CRAFTSMEN, *D.RESOURCE_CARDS)
LATIN_WORD = re.compile(r"[A-Za-z]{4,}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_and_space_has_its_text_in_every_language(language: str) -> None:
    i18n.set_language(language)
    try:
        texts = [pillars_help.card_help(c) for c in PILLARS_CARDS]
        texts += [builders_help.card_help(c) for c in (*BUILDING, *WORKER)]
        state = PILLARS.initial_state(PILLARS.setup(3))
        texts += [pillars_help.space_help(PILLARS, state, s) for s in D.SPACE_INDEX]
        for title, text in texts:
            assert title and len(text) > (30 if language == "en" else 12), (title, text)
            if language != "en":  # no English left in a translated text (names kept as the
                # Chinese rules keep them: Kingsbridge, Shiring)
                rest = text.replace("Kingsbridge", "").replace("Shiring", "")
                assert not LATIN_WORD.search(rest), (title, text)
    finally:
        i18n.set_language("en")
    with pytest.raises(KeyError):
        pillars_help.card_help("nonsense")
    with pytest.raises(KeyError):
        builders_help.card_help("nonsense")


def test_a_slow_press_where_nothing_can_be_read_is_still_a_tap(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    pillars_at(app, "draft")
    before = record(app)
    assert not app.screen.can_hold(find(app, "pass").rect.center)
    hold(app, "pass", seconds=1.2)  # a slow finger on Pass: it passes
    if app.screen.preview is not None:
        press(app, "confirm")
    assert record(app) == (*before, "pass")
    assert app.screen.reader.held is None


def test_keep_tap_gives_the_press_its_tap_back() -> None:
    from companion.kiosk.gestures import HOLD_SECONDS, Gestures
    from companion.kiosk.inputs import Hold, Pointer, Tap

    g = Gestures()
    g.feed(Pointer("down", (10, 10)), 0.0)
    assert g.tick(HOLD_SECONDS) == [Hold((10, 10))]
    g.keep_tap()
    assert g.feed(Tap((10, 10)), 1.0) == [Tap((10, 10))]
    g.feed(Pointer("down", (10, 10)), 2.0)  # the next press starts afresh
    assert g.tick(2.0 + HOLD_SECONDS) == [Hold((10, 10))]
    assert g.feed(Tap((10, 10)), 3.0) == []
