"""Every point explained on screen (issue 13): previews list each change with its cause, a
Pillars round ends with each player's breakdown by source before the next round, the end
screen breaks the whole game down by source, and a Builders turn that ends by itself says who
and why.  All through the input layer, in every language, at both sizes, with the overflow
check."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.builders.actions import END_TURN, TakeCoins
from companion.engine import CHANCE, get_game
from companion.kiosk import i18n, ui
from companion.kiosk.breakdown import amount_text, game_table, period_table
from companion.kiosk.i18n import _
from companion.kiosk.screens.end import EndScreen
from companion.kiosk.words import words_for
from companion.pillars import data as D
from companion.pillars.actions import Action
from companion.pillars.kiosk import PillarsScreen
from tests.kiosk_helpers import enter, find, keys, make_app, position, press, tap
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
    """Every text drawn while the test runs; the overflow list starts empty."""
    ui.DRAWN = []
    ui.OVERFLOWS.clear()
    try:
        yield ui.DRAWN
    finally:
        ui.DRAWN = None
        i18n.set_language("en")


def record(app: Any) -> tuple[str, ...]:
    return tuple(app.journal.record(app.session.id).actions)


# -- previews by cause -----------------------------------------------------------------------


def conflict_and_priory(state: Any, action: Any, after: Any) -> bool:
    """The event is about to be revealed, Conflict can be it, and a player in the Priory
    (nobody in the Archbishop's Office, so the round runs on to the Priory)."""
    if state.step != "event" or PILLARS.current_player(state) != CHANCE:
        return False
    if not any(str(a) == "event konflikt" for a, _p in PILLARS.chance_outcomes(state)):
        return False
    arch = D.AREA_SPACES["archbishop"][0]
    return state.spaces[arch] < 0 and any(state.spaces[k] >= 0 for k in D.AREA_SPACES["priory"])


@pytest.mark.parametrize(("size", "language"), covered(GRID), ids=ids)
def test_a_priory_plus_and_a_conflict_minus_are_two_changes_not_a_net_zero(
    tmp_path: Path, drawn: list[str], language: str, size: tuple[int, int]
) -> None:
    setup, actions, _a = position("pillars", conflict_and_priory)
    app = make_app(tmp_path, size=size, language=language)
    enter(app, setup, actions)
    state = app.session.state
    tap(app, "event konflikt")  # the card the table revealed, tapped in from the picker
    preview = app.screen.preview
    assert preview is not None and str(preview.action) == "event konflikt"
    words = words_for("pillars")
    priory = [state.spaces[k] for k in D.AREA_SPACES["priory"] if state.spaces[k] >= 0]
    after = PILLARS.apply(state, Action("event", ("konflikt",)))
    for seat in priory:
        line = next(text for colour, text in preview.lines
                    if colour == state.setup.players[seat].colour)
        gained = [e for e in PILLARS.ledger(after)[len(PILLARS.ledger(state)):]
                  if e.player == seat and e.what == "vp"]
        causes = {e.cause for e in gained}
        assert {"event", "priory"} <= causes, gained
        for e in gained:  # each change with its own cause, never summed away
            assert amount_text("vp", e.amount) in line, (line, e)
            assert words.cause_text(e) in line, (line, e)
        assert line in drawn
    assert record(app) == tuple(actions)  # a preview takes nothing yet
    press(app, "confirm")
    assert record(app)[-1] == "event konflikt"
    assert not ui.OVERFLOWS, ui.OVERFLOWS


# -- the end of a Pillars round --------------------------------------------------------------


def finish_round(app: Any) -> None:
    """Play the cathedral and the return steps of the round by the screen's buttons (the best
    conversion, the first cubes given back), confirming each preview, until the round ends."""
    start = app.session.state.round
    for _step in range(40):
        state = app.session.state
        if state.round != start:
            return
        screen = app.screen
        assert isinstance(screen, PillarsScreen)
        if screen.preview is not None or screen.handouts.current is not None:
            press(app, "confirm")
        elif state.step == "cathedral":
            tap(app, "confirm")
        elif state.step == "return":
            for _k in range(PILLARS.excess(state, state.turn)):
                tap(app, next(k for k in keys(app) if k.startswith("more ")
                              and find(app, k).enabled))
            tap(app, "confirm")
        else:
            raise AssertionError(f"unexpected step {state.step}")
    raise AssertionError("the round did not end")


@pytest.mark.parametrize(("size", "language"), covered(GRID), ids=ids)
def test_a_round_ends_with_each_players_points_and_gold_by_source(
    tmp_path: Path, drawn: list[str], language: str, size: tuple[int, int]
) -> None:
    setup, actions, _a = position(
        "pillars", lambda s, a, n: s.round == 2 and s.step == "cathedral", seed=7
    )
    app = make_app(tmp_path, size=size, language=language)
    enter(app, setup, actions)
    drawn.clear()
    finish_round(app)
    screen = app.screen
    assert isinstance(screen, PillarsScreen)
    while screen.handouts.current is not None:  # the round's end handed out first
        press(app, "confirm")
    table = screen.result_table
    assert table is not None and screen.result is not None
    assert table.title == _("Round {n}: points and gold", n=2) and table.title in drawn
    state = app.session.state
    assert state.round == 3
    ledger = PILLARS.ledger(state)
    for section, what in zip(table.sections, ("vp", "gold"), strict=True):
        rows = {r.label: r for r in section.rows}
        now = rows[_("Now")]
        this_round = rows[_("This round")]
        for seat, s in enumerate(state.seats):
            assert now.values[seat] == (s.vp if what == "vp" else s.gold)
            assert this_round.values[seat] == sum(
                e.amount for e in ledger if e.period == 2 and e.player == seat and e.what == what
            )
            # the sources add up to the round's total
            assert sum(r.values[seat] or 0 for r in section.rows if not r.total) == \
                this_round.values[seat]
        for r in section.rows:  # each source drawn (cut with an ellipsis where narrow)
            assert any(t == r.label or (t.endswith("…") and r.label.startswith(t[:-1]))
                       for t in drawn), r.label
    assert _("Priory") in {r.label for r in table.sections[0].rows} or not any(
        e.cause == "priory" and e.period == 2 for e in ledger
    )
    before = record(app)
    press(app, "confirm")  # the table dismisses it; nothing is played by it
    assert screen.result is None and screen.result_table is None
    assert record(app) == before
    assert not ui.OVERFLOWS, ui.OVERFLOWS


def test_the_round_breakdown_waits_before_what_the_virtual_deck_dealt(
    tmp_path: Path, drawn: list[str]
) -> None:
    setup, actions, _a = position(
        "pillars", lambda s, a, n: s.round == 1 and s.step == "cathedral", seed=7
    )
    app = make_app(tmp_path, virtual_deck=True)
    enter(app, setup, actions)
    finish_round(app)
    screen = app.screen
    assert screen.handouts.current is not None
    assert screen.handouts.current.key == "round"  # the round's end handed out first
    while screen.handouts.current is not None:
        press(app, "confirm")
    assert screen.result_table is not None  # then the round's breakdown
    press(app, "confirm")
    assert screen.result is None and screen.result_table is None
    step = screen.handouts.current
    assert step is not None and step.title == _("Dealt for round {n}", n=2)  # then the cards


def test_undo_closes_a_round_breakdown(tmp_path: Path) -> None:
    setup, actions, _a = position(
        "pillars", lambda s, a, n: s.round == 1 and s.step == "cathedral", seed=7
    )
    app = make_app(tmp_path)
    enter(app, setup, actions)
    finish_round(app)
    while app.screen.handouts.current is not None:
        press(app, "confirm")
    assert app.screen.result_table is not None
    press(app, "undo")
    assert app.screen.result is None and app.screen.result_table is None
    assert app.session.state.round == 1


# -- the end screen ----------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "language", "game_name"), covered(
    [(size, lang, name) for size, lang in GRID for name in ("pillars", "builders")]), ids=ids)
def test_the_end_screen_breaks_the_points_down_by_source(
    tmp_path: Path, drawn: list[str], game_name: str, language: str, size: tuple[int, int]
) -> None:
    setup, actions, last = position(game_name, lambda s, a, n: n.over, players=3)
    app = make_app(tmp_path, size=size, language=language)
    enter(app, setup, [*actions, str(last)])
    assert isinstance(app.screen, EndScreen)
    state = app.session.state
    game = app.session.game
    table = app.screen.table
    assert table == game_table(game, state)
    rows = {r.label: r for r in table.sections[0].rows}
    scores = game.scores(state)
    names = [p.name for p in setup.players]
    for seat, name in enumerate(names):
        assert rows[_("Total")].values[seat] == scores[name]
        assert sum(r.values[seat] or 0 for r in table.sections[0].rows if not r.total) == \
            scores[name]
    for label in words_for(game_name).sources():  # the sources always listed, 0 or not
        assert label in rows and label in drawn
    if game_name == "builders":
        vp = {k: BUILDERS.vp_breakdown(state, k) for k in range(len(names))}
        for seat in range(len(names)):
            assert rows[_("Buildings")].values[seat] == vp[seat]["buildings"]
            assert rows[_("Machines")].values[seat] == vp[seat]["machines"]
            assert rows[_("Coins converted")].values[seat] == vp[seat]["coins"]
    drawn.clear()
    tap(app, "chart")  # the scores' chart is one tap away, and back
    assert app.screen.show_chart and words_for(game_name).chart_title() in drawn
    tap(app, "chart")
    assert not app.screen.show_chart
    assert not ui.OVERFLOWS, ui.OVERFLOWS


# -- a Builders turn that ends by itself -----------------------------------------------------------


def ends_by_itself(state: Any, action: Any, after: Any) -> bool:
    return (
        isinstance(action, TakeCoins)
        and BUILDERS.current_player(state) >= 0
        and after.turn != state.turn
        and not after.over
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_builders_turn_that_ends_by_itself_says_who_and_why(
    tmp_path: Path, drawn: list[str], language: str
) -> None:
    setup, actions, action = position("builders", ends_by_itself, players=3)
    app = make_app(tmp_path, language=language)
    enter(app, setup, actions)
    before = app.session.state
    words = words_for("builders")
    name = words.player_name(before, before.turn_player)
    tap(app, str(action))  # the last AP spent on coins
    after = app.session.state
    assert after.turn == before.turn + 1
    notice = app.toast_text
    assert notice is not None and name in notice, notice
    coins = after.players[before.turn_player].coins
    assert str(coins) in notice and str(BUILDERS.action_price) in notice
    assert words.player_name(after, after.turn_player) in notice
    assert notice in drawn


def test_ending_the_turn_by_hand_says_nothing_more(tmp_path: Path) -> None:
    setup, actions, _a = position(
        "builders", lambda s, a, n: a == END_TURN and not n.over and not n.pending,
        players=3,
    )
    app = make_app(tmp_path)
    enter(app, setup, actions)
    tap(app, "end turn")
    if app.screen.preview is not None:
        press(app, "confirm")
    assert app.toast_text is None or "ended by itself" not in app.toast_text


def test_period_table_of_a_round_counts_only_that_round() -> None:
    setup, actions, _a = position("pillars", lambda s, a, n: s.round == 3, seed=9)
    state = PILLARS.initial_state(setup)
    for a in actions:
        state = PILLARS.apply_text(state, a)
    table = period_table(PILLARS, state, 1, "Round 1")
    vp = {r.label: r for r in table.sections[0].rows}
    round1 = [e for e in PILLARS.ledger(state) if e.period == 1 and e.what == "vp"]
    for seat in range(len(setup.players)):
        assert vp[_("This round")].values[seat] == sum(e.amount for e in round1
                                                      if e.player == seat)


def test_a_round_breakdown_on_show_is_kept_whole(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's breakdown stays on screen until Continue, under lights and messages: drawn
    again, it is blitted whole, not laid out again."""
    from tests.test_lookahead import assert_kept_whole

    setup, actions, _a = position(
        "pillars", lambda s, a, n: s.round == 2 and s.step == "cathedral", seed=7
    )
    app = make_app(tmp_path, size=(800, 480))
    enter(app, setup, actions)
    finish_round(app)
    screen = app.screen
    while screen.handouts.current is not None:
        press(app, "confirm")
    assert screen.result_table is not None
    assert_kept_whole(app, monkeypatch, "breakdown")


def test_a_section_taller_than_its_area_keeps_its_totals_and_sums_the_rest(
        drawn: list[str]) -> None:
    """More sources than lines (a round of many gold moves on the small screen): the totals
    are drawn, the largest sources too, the smallest summed in one "Other" row, and nothing
    is left below the area."""
    import pygame

    from companion.kiosk import theme
    from companion.kiosk.breakdown import Row, Section, draw_section

    sources = [Row(f"source {k}", (k, None if k % 2 else -k)) for k in range(1, 13)]
    this_round = (sum(r.values[0] or 0 for r in sources), sum(r.values[1] or 0 for r in sources))
    totals = [Row("This round", this_round, True), Row("Now", (40, 7), True, False)]
    section = Section("Gold", (*sources, *totals))
    surface = pygame.Surface((800, 480))
    m = theme.Metrics(800, 480)
    area = pygame.Rect(406, 124, 379, 278)
    draw_section(surface, m, area, section, (("red", "Red"), ("blue", "Blue")))
    assert ui.OVERFLOWS == []
    assert "This round" in drawn and "Now" in drawn and "Other" in drawn
    assert "source 12" in drawn and "source 1" not in drawn  # the largest kept, the least summed
    # the rows drawn still add up to the round's total
    from companion.kiosk.breakdown import _fitting

    room = len([t for t in drawn if t.startswith("source ") or t == "Other"])
    shown = _fitting(section.rows, room + len(totals))
    for k in range(2):
        assert sum(r.values[k] or 0 for r in shown if not r.total) == this_round[k]
