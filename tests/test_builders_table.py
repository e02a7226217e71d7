"""The Builders table screen as a table with a physical board uses it: every idle worker in view
when there is room, the rows in view during the companion's turn, the companion's whole turn as
one instruction with one confirmation (the cards the virtual deck deals in it shown as
hand-outs), and the panels' own sizes (no class over ~400 lines, no method over ~60)."""

from __future__ import annotations

import ast
import time
from pathlib import Path
from typing import Any

import pytest

from companion.builders.actions import Recruit, Start
from companion.builders.kiosk import BuildersScreen
from companion.builders.kiosk.plan import TurnPlan, plan_lines
from companion.engine import CHANCE, get_game
from companion.kiosk import ui
from companion.kiosk.seats import Companion
from tests.kiosk_helpers import drawn_texts, keys, make_app, position, press, shows

SIZES = [(800, 480), (720, 1280)]
GAME = get_game("builders")


def enter(app: Any, setup: Any, actions: list[str], companions: dict[int, str] | None = None,
          virtual_deck: bool = False) -> None:
    assert app.journal is not None
    app.session = app.journal.start(setup, seed=0, companions=companions or {})
    for a in actions:
        app.session.play(a)
    app.config = app.config.with_(virtual_deck=virtual_deck)
    app.companion.close()
    app.open_game()
    app.render(force=True)


@pytest.mark.parametrize("size", SIZES)
def test_every_idle_worker_is_in_view_when_there_is_room(tmp_path: Path,
                                                         size: tuple[int, int]) -> None:
    """Four different idle workers and one site in landscape (two columns: two rows of
    workers), six and two sites in portrait: all of them are buttons, no pager."""
    landscape = size[0] > size[1]
    want, sites = (4, 1) if landscape else (6, 2)

    def crowded(state: Any, action: Any, after: Any) -> bool:
        if GAME.current_player(state) == CHANCE or state.over:
            return False
        me = state.players[state.turn_player]
        return len(set(me.idle)) == want and len(me.sites) == sites

    setup, actions, _action = position("builders", crowded, players=2, seeds=200)
    app = make_app(tmp_path, size=size)
    enter(app, setup, actions)
    assert isinstance(app.screen, BuildersScreen)
    me = app.session.state.players[app.session.state.turn_player]
    shown = keys(app)
    assert "more workers" not in shown
    assert {f"select {w}" for w in me.idle} <= set(shown)
    for b in app.screen.buttons:  # and they are real touch targets
        if b.key.startswith("select "):
            assert b.rect.height >= app.metrics.touch


def companion_position(virtual_deck: bool) -> tuple[Any, list[str], int]:
    """A 2-player game at the start of a turn of seat 1 (3 AP), the rows full."""

    def start_of_turn(state: Any, action: Any, after: Any) -> bool:
        return (GAME.current_player(state) == 1 and state.ap == 3 and not state.pending
                and state.turn > 2 and len(state.building_row) == 5)

    setup, actions, _a = position("builders", start_of_turn, players=2, seed=11)
    return setup, actions, 1


def planned(app: Any, strength: str = "easy") -> TurnPlan:
    """Let the companion think out its whole turn (real time passes, the kiosk's clock is
    stepped as the main loop steps it); the plan."""
    deadline = time.monotonic() + 120
    screen = app.screen
    while True:
        app.tick(1 / 30)
        plan = screen.companion_turn.plan
        decision = app.companion.decision
        assert decision is None or decision.error is None, decision.error
        if plan is not None and plan.complete:
            app.render()
            return plan
        assert time.monotonic() < deadline, "the companion did not plan its turn in time"
        time.sleep(0.002)


@pytest.mark.parametrize("size", SIZES)
def test_the_companion_s_turn_leaves_the_rows_in_view(tmp_path: Path,
                                                      size: tuple[int, int]) -> None:
    setup, actions, seat = companion_position(virtual_deck=True)
    app = make_app(tmp_path, size=size)
    app.companion.mode = "thread"
    enter(app, setup, actions, companions={seat: "easy"}, virtual_deck=True)
    assert Companion.seat_to_decide(app.session) == seat
    app.render(force=True)
    state = app.session.state
    rows = {str(Start(c)) for c in state.building_row} | {str(Recruit(c)) for c in
                                                          state.worker_row}
    assert rows <= set(keys(app))  # while it thinks...
    planned(app)
    assert rows <= set(keys(app))  # ...and while the table follows its instruction
    panel = next(b for b in app.screen.buttons if b.key.startswith("companion "))
    for b in app.screen.buttons:
        if b.key in rows:
            assert not b.rect.colliderect(panel.rect)


def test_a_companion_s_turn_is_one_instruction_with_one_confirmation(tmp_path: Path) -> None:
    """Its decisions one after another, each with what the table does and what it yields,
    confirmed once; the journal then holds every step, in order, the cards the deck dealt
    included, and the companion's decisions are those it would make one by one."""
    from companion.kiosk.seats import decide, decision_seed

    setup, actions, seat = companion_position(virtual_deck=True)
    app = make_app(tmp_path, size=(720, 1280))
    app.companion.mode = "thread"
    enter(app, setup, actions, companions={seat: "easy"}, virtual_deck=True)
    before = len(app.session.playthrough.actions)
    plan = planned(app)
    assert plan.decisions >= 2  # a whole turn, not one action
    texts = drawn_texts(app)
    while "companion more" in keys(app):  # a long turn on a small screen: page by page
        press(app, "confirm")
        assert len(app.session.playthrough.actions) == before  # nothing taken yet
        texts += drawn_texts(app)
    lines = plan_lines(GAME, plan.steps)
    for k, line in enumerate(lines, 1):
        assert shows(texts, f"{k}. {line.text}")
    assert "companion confirm" in keys(app)
    press(app, "confirm")  # once
    record = app.journal.record(app.session.id)
    assert list(record.actions[before:before + len(plan.steps)]) == [str(a) for a in plan.actions]
    for k, step in enumerate(plan.steps):
        if not step.dealt:  # what the companion would have decided at that point alone
            assert decide("builders", step.before, seat, "easy",
                          decision_seed(app.session.id, before + k)) == str(step.action)
    assert Companion.seat_to_decide(app.session) != seat or app.session.state.turn != (
        plan.start.turn)


def test_a_card_dealt_during_the_companion_s_turn_is_shown_as_a_hand_out(
    tmp_path: Path,
) -> None:
    """With the virtual deck, a card taken from a row is replaced by the deck inside the
    companion's turn: its instruction says which card to deal where, marked as a hand-out."""
    setup, actions, seat = companion_position(virtual_deck=True)
    state = GAME.initial_state(setup)
    for a in actions:
        state = GAME.apply_text(state, a)
    plan = TurnPlan(1, len(actions), state, seat, virtual_deck=True)
    recruit = Recruit(state.worker_row[0])
    plan.add(GAME, recruit)
    dealt = [s for s in plan.steps if s.dealt]
    assert dealt, "taking a card from a full row deals the next one"
    lines = plan_lines(GAME, plan.steps)
    assert [line.dealt for line in lines] == [False] + [True] * len(dealt)
    card = GAME.card_of(dealt[0].action)
    from companion.kiosk.words import card_name

    assert card_name("builders", card or "") in lines[1].text


def test_without_the_virtual_deck_a_plan_stops_where_the_table_deals() -> None:
    setup, actions, seat = companion_position(virtual_deck=False)
    state = GAME.initial_state(setup)
    for a in actions:
        state = GAME.apply_text(state, a)
    plan = TurnPlan(1, len(actions), state, seat, virtual_deck=False)
    plan.add(GAME, Recruit(state.worker_row[0]))
    assert plan.complete and GAME.current_player(plan.at) == CHANCE
    assert [s.dealt for s in plan.steps] == [False]


PANELS = Path(__file__).resolve().parents[1] / "companion" / "builders" / "kiosk"


def test_no_class_over_400_lines_and_no_method_over_60() -> None:
    for path in sorted(PANELS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                n = (node.end_lineno or 0) - node.lineno + 1
                assert n <= 400, f"{path.name}: class {node.name} is {n} lines"
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = (node.end_lineno or 0) - node.lineno + 1
                assert n <= 60, f"{path.name}: {node.name} is {n} lines"


# -- hand-outs: the rules' own changes and the deck's cards ----------------------------------


def test_a_card_the_deck_deals_after_a_person_s_move_is_a_hand_out(tmp_path: Path) -> None:
    """With the virtual deck, a card taken from a row is replaced by the deck: the table is
    shown which card to put where, with one CONFIRM, the rows in view."""
    setup, actions, seat = companion_position(virtual_deck=True)
    app = make_app(tmp_path, size=(800, 480))
    enter(app, setup, actions, virtual_deck=True)  # no companion: a person decides
    state = app.session.state
    card = state.worker_row[0]
    press_key(app, str(Recruit(card)))
    press(app, "confirm")  # the preview: the next card is revealed
    step = app.screen.handouts.current
    assert step is not None and step.key == "deal"
    dealt = app.journal.record(app.session.id).actions[-1]
    assert dealt.startswith(("reveal worker ", "next worker "))
    assert [ln.card for ln in step.lines] == [dealt.split()[-1]]
    texts = drawn_texts(app)
    from companion.kiosk.words import card_name

    name = card_name("builders", dealt.split()[-1])
    assert any(t.startswith(name) and ("row" in t or "deck" in t) for t in texts), texts
    assert "handout confirm" in keys(app)
    assert {str(Start(c)) for c in app.session.state.building_row} <= set(keys(app))
    press(app, "confirm")  # one CONFIRM
    assert app.screen.handouts.current is None and "end turn" in keys(app)


def press_key(app: Any, key: str) -> None:
    from tests.kiosk_helpers import tap

    tap(app, key)


def test_the_end_of_the_game_is_handed_out_before_the_end_screen(tmp_path: Path) -> None:
    """The final count (1 VP per 10 coins) is a hand-out step; the end screen after it."""
    from companion.builders.actions import END_TURN
    from companion.kiosk.screens.end import EndScreen

    def ends(state: Any, action: Any, after: Any) -> bool:
        return after.over and not state.over and action == END_TURN and any(
            p.coins >= 10 for p in state.players)

    setup, actions, action = position("builders", ends, players=2, seeds=40)
    app = make_app(tmp_path)
    enter(app, setup, actions)
    press_key(app, "end turn")
    press(app, "confirm")  # the preview: the game ends
    for _ in range(100):  # a completion celebrated first, if any
        if app.screen.handouts.current is not None or isinstance(app.screen, EndScreen):
            break
        app.tick(0.1)
    step = app.screen.handouts.current
    assert isinstance(app.screen, BuildersScreen) and step is not None
    assert step.key == "end.coins"
    assert all(ln.resource == "vp" for ln in step.lines)
    state = app.session.state
    for ln in step.lines:
        assert ln.amount == state.players[ln.seat].coins // 10
    press(app, "confirm")
    app.tick(0.1)
    assert isinstance(app.screen, EndScreen)


def test_the_automa_s_turn_is_handed_out(tmp_path: Path) -> None:
    """Solo: what the Automa takes and completes at the end of the player's turn."""
    from companion.builders.actions import END_TURN

    def automa_moves(state: Any, action: Any, after: Any) -> bool:
        return action == END_TURN and not after.over and len(after.automa_workers) != len(
            state.automa_workers)

    setup, actions, action = position("builders", automa_moves, players=1, seeds=40)
    app = make_app(tmp_path)
    enter(app, setup, actions)
    press_key(app, "end turn")
    step = app.screen.handouts.current
    assert step is not None and step.key == "automa"
    assert step.title == "The Automa's turn"
    assert any(ln.cause_text.endswith("taken by the Automa") for ln in step.lines)
    texts = drawn_texts(app)
    assert "The Automa's turn" in texts
    press(app, "confirm")
    assert app.screen.handouts.current is None


# -- small slips: words kept whole, numbers with their units, the short words explained -------


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_a_card_s_name_fits_its_card_without_a_break_inside_a_word(
    tmp_path: Path, size: tuple[int, int], lang: str
) -> None:
    """Every building's and worker's name, as a row's card draws it at the display's smallest
    text: each line fits the card, broken only at a space, before a parenthesis or at a
    hyphen the name allows."""
    from companion.builders.cards import BUILDING, WORKER
    from companion.builders.kiosk.panels.rows import card_lines
    from companion.kiosk import i18n
    from companion.kiosk.fonts import font
    from companion.kiosk.words import card_name, short_card_name

    app = make_app(tmp_path, size=size, language=lang)
    try:
        m = app.metrics
        body_w = size[0] - 2 * m.gap
        rows_w = body_w if m.portrait else (body_w - m.gap) * 13 // 20
        width = (rows_w - 4 * m.px(2)) // 5 - 2
        floor = ui.min_text(app.surface)
        f = font(max(m.px(14), floor))
        names = [card_name("builders", c) for c in BUILDING]
        names += [short_card_name("builders", c) for c in WORKER]
        for name in names:
            text = card_lines(name, width, m.px(14), floor)
            lines = text.split("\n")
            words = [w for line in lines for w in line.split(" ")]  # the text wraps at spaces
            assert all(f.size(w)[0] <= width for w in words), (name, lines, width)
            assert "".join(line.rstrip("-") for line in lines).replace(" ", "") == name.replace(
                " ", ""), (name, lines)
            for a in lines[:-1]:  # a line ends where a reader expects it to
                nxt = lines[lines.index(a) + 1]
                assert a.endswith("-") or nxt.startswith(("（", "(")) or lang == "en", (name,
                                                                                     lines)
    finally:
        i18n.set_language("en")


def test_the_help_spells_out_the_workers_short_words(tmp_path: Path) -> None:
    """``S1 W2`` on an idle worker: the help says what S, W, K and T stand for."""
    setup, actions, _seat = companion_position(virtual_deck=False)
    app = make_app(tmp_path)
    enter(app, setup, actions)
    press(app, "help")
    texts = drawn_texts(app)
    legend = next((t for t in texts if t.startswith("On the workers:")), None)
    assert legend is not None, texts
    for short, word in (("S", "stone"), ("W", "wood"), ("K", "knowledge"), ("T", "tile")):
        assert f"{short} = {word}" in legend


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_a_card_s_foot_never_parts_a_number_from_its_unit(tmp_path: Path, lang: str) -> None:
    from companion.kiosk import i18n

    setup, actions, _seat = companion_position(virtual_deck=False)
    app = make_app(tmp_path, size=(720, 1280), language=lang)
    try:
        enter(app, setup, actions)
        ui.DRAWN = []
        app.render(force=True)
        feet = [d for d in ui.DRAWN or [] if ("金币" in d or "コイン" in d) and "\n" in d]
        for foot in feet:
            first, second = foot.split("\n")
            assert first.endswith(("金币", "コイン")) and second[:1].isdigit(), foot
    finally:
        ui.DRAWN = None
        i18n.set_language("en")


def test_one_coin_is_said_in_the_singular(tmp_path: Path) -> None:
    """``Red: 1 coin``, ``+1 coin``: counts through the plural forms, not ``1 coins``."""
    def one_coin(state: Any, action: Any, after: Any) -> bool:
        return (GAME.current_player(state) != CHANCE and not state.over
                and state.players[state.turn_player].coins == 1 and state.ap == 3)

    setup, actions, _action = position("builders", one_coin, players=2, seeds=100)
    app = make_app(tmp_path)
    enter(app, setup, actions)
    texts = drawn_texts(app)
    assert not [t for t in texts if "1 coins" in t], texts
    name = app.session.state.setup.players[app.session.state.turn_player].name
    assert f"{name}: 1 coin, {app.session.state.players[app.session.state.turn_player].vp} VP" \
        in texts
    assert "+1 coin" in texts  # the 1-AP coin button
