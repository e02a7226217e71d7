"""Hand-outs across a restart: each confirmation is in the journal (committed before the next
step is shown), so a restart resumes at the first hand-out step not confirmed: one confirmed
is not shown again, one not confirmed is.  A journal of the version before (no
confirmations) opens, migrates, and shows the last action's steps again, as before."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.builders.actions import Recruit
from companion.engine import CHANCE, get_game
from companion.journal import HandedOut, Journal, JournalError, schema_version
from companion.journal import schema as journal_schema
from companion.pillars.kiosk.handouts import PillarsHandOuts
from tests.kiosk_helpers import (
    confirm_handout,
    drawn_texts,
    enter,
    make_app,
    position,
    press,
    wait,
)
from tests.test_journal import make_v1_journal

PILLARS = get_game("pillars")


def _two_step_position() -> tuple[Any, list[str], Any]:
    """A Pillars position whose next action (a reveal or roll) makes two hand-out steps or
    more."""
    plan = PillarsHandOuts(PILLARS)
    return position("pillars", lambda s, a, n: PILLARS.current_player(s) == CHANCE
                    and len(plan.steps(s, a, n)) >= 2, seed=3, players=3)


def _restart(app: Any, tmp: Path, **kwargs: Any) -> Any:
    """The kiosk closed and started again on the same journal, the game resumed."""
    game_id = app.session.id
    app.journal.close()
    again = make_app(tmp, **kwargs)
    again.session = again.journal.resume(game_id)
    again.open_game()
    again.render(force=True)
    return again


def _take(app: Any, action: Any) -> None:
    """``action`` taken on the screen (its preview confirmed), its animation over."""
    app.screen.propose(action)
    if app.screen.preview is not None:
        app.screen.confirm_preview()
    wait(app, 4.0)


def _keys(app: Any) -> list[str]:
    return [p.id for p in app.screen.handouts.pending]


def test_a_confirmed_hand_out_is_not_shown_again_after_a_restart(tmp_path: Path) -> None:
    setup, actions, action = _two_step_position()
    app = make_app(tmp_path)
    enter(app, setup, actions)
    _take(app, action)
    first = _keys(app)
    assert len(first) >= 2, first
    titles = [p.step.title for p in app.screen.handouts.pending]
    confirm_handout(app)  # the first step handed out, then the power goes
    handed = app.session.handed_out()
    assert handed is not None and handed.confirmed(len(actions), first[0])
    app = _restart(app, tmp_path)
    assert _keys(app) == first[1:]  # resumes exactly at the first one not confirmed
    assert [p.step.title for p in app.screen.handouts.pending] == titles[1:]
    while app.screen.handouts.current is not None:
        press(app, "confirm")
    app = _restart(app, tmp_path)
    assert app.screen.handouts.current is None  # every one confirmed: nothing again
    app.journal.close()


def test_an_unconfirmed_hand_out_is_shown_again_after_a_restart(tmp_path: Path) -> None:
    setup, actions, action = _two_step_position()
    app = make_app(tmp_path)
    enter(app, setup, actions)
    tap_first = app.session.handed_out()
    _take(app, action)
    pending = _keys(app)
    app = _restart(app, tmp_path)
    # nothing of this action confirmed: all of its steps, the first on show
    assert _keys(app)[-len(pending):] == pending
    assert tap_first is None or tap_first.through <= len(actions)
    app.journal.close()


def test_the_builders_deal_is_resumed_until_confirmed(tmp_path: Path) -> None:
    """With the virtual deck, the cards it dealt after a recruit are one step; a restart
    before it is confirmed shows it again, one after does not."""
    game = get_game("builders")
    setup, actions, _a = position(
        "builders", lambda s, a, n: game.current_player(s) != CHANCE and any(
            isinstance(x, Recruit) for x in game.legal_actions(s)), seed=2, players=2)
    app = make_app(tmp_path, virtual_deck=True)
    enter(app, setup, actions)
    row = app.screen.state.worker_row
    app.screen.propose(Recruit(row[0]))
    app.screen.confirm_preview()
    step = app.screen.handouts.current
    assert step is not None and step.key == "deal"
    app = _restart(app, tmp_path, virtual_deck=True)
    again = app.screen.handouts.current
    assert again is not None and again.key == "deal" and again.lines == step.lines
    confirm_handout(app)
    assert app.screen.handouts.current is None
    app = _restart(app, tmp_path, virtual_deck=True)
    assert app.screen.handouts.current is None
    app.journal.close()


def test_an_undo_forgets_the_confirmations_of_the_action_it_takes_back(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    game = get_game("pillars")
    setup, actions, action = position("pillars", lambda s, a, n: game.current_player(s) >= 0,
                                      seed=1, players=2)
    jg = journal.start(setup)
    for a in actions:
        jg.play(a)
    jg.play(action)
    assert jg.can_undo()
    n = len(jg.playthrough.actions)
    jg.confirm_hand_out(n - 1, "place#0", done=False)
    assert jg.handed_out() == HandedOut(n - 1, frozenset({(n - 1, "place#0")}))
    jg.undo()
    assert jg.handed_out() == HandedOut(n - 1, frozenset())
    jg.confirm_hand_out(None, "place#back", done=True)
    assert jg.handed_out() == HandedOut(n - 1, frozenset())
    journal.close()


def test_a_confirmation_of_no_such_action_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    jg = journal.start(get_game("pillars").setup(2))
    with pytest.raises(JournalError, match="no action 0 to confirm"):
        jg.confirm_hand_out(0, "event#0", done=False)
    with pytest.raises(JournalError, match="without its step's id"):
        jg.confirm_hand_out(None, "", done=True)
    assert jg.handed_out() is None
    journal.close()


def _make_v2_journal(path: Path) -> list[str]:
    """A journal exactly as version 2 wrote it (no hand-outs stored): version 1's, with
    version 2's migration."""
    effective = make_v1_journal(path)
    conn = sqlite3.connect(str(path), isolation_level=None)
    v2 = next(m for m in journal_schema.MIGRATIONS if m.version == 2)
    for statement in v2.statements:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 2")
    conn.close()
    return effective


def test_a_version_2_journal_opens_and_migrates(tmp_path: Path) -> None:
    path = tmp_path / "old" / "journal.sqlite3"
    path.parent.mkdir()
    effective = _make_v2_journal(path)
    with Journal.open(path, read_only=True) as old:  # read-only: not migrated, no hand-outs
        jg = old.resume(1)
        assert jg.handed_out() is None
    with Journal.open(path) as journal:
        conn = sqlite3.connect(str(path))
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version() >= 3
        conn.close()
        jg = journal.resume(1)
        assert list(journal.record(1).actions) == effective
        assert jg.handed_out() is None  # its hand-outs were never stored
        jg.confirm_hand_out(len(effective) - 1, "event#0", done=True)
        assert jg.handed_out() == HandedOut(len(effective), frozenset())


def test_an_old_game_shows_its_last_actions_steps_again_with_a_note(tmp_path: Path) -> None:
    """No confirmation stored (a journal of the version before, or none yet): the last
    action's steps, noted as shown again."""
    setup, actions, action = _two_step_position()
    app = make_app(tmp_path)
    app.session = app.journal.start(setup, seed=0)
    for a in [*actions, str(action)]:
        app.session.play(a)
    want = PillarsHandOuts(PILLARS).steps(*app.session.playthrough.states[-2:-1],
                                          action, app.session.state)
    app = _restart(app, tmp_path)
    pending = app.screen.handouts.pending
    assert [p.step.title for p in pending] == [s.title for s in want]
    assert all(any("Shown again" in n for n in p.step.notes) for p in pending)
    app.journal.close()


def test_the_builders_hand_out_draws_the_dealt_card_as_the_rows_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card the virtual deck deals after a recruit is drawn on the hand-out with the
    rows' own card drawing (its name, what it supplies, its wage), beside its line."""
    from companion.builders.kiosk import handouts as builders_handouts
    from companion.builders.kiosk.panels.rows import row_card

    drawn_faces: list[Any] = []
    real = builders_handouts.draw_card_face
    monkeypatch.setattr(builders_handouts, "draw_card_face",
                        lambda surface, m, rect, card, *a: (drawn_faces.append(card),
                                                            real(surface, m, rect, card, *a)))
    game = get_game("builders")
    setup, actions, _a = position(
        "builders", lambda s, a, n: game.current_player(s) != CHANCE and any(
            isinstance(x, Recruit) for x in game.legal_actions(s)), seed=2, players=2)
    app = make_app(tmp_path, virtual_deck=True)
    enter(app, setup, actions)
    app.screen.propose(Recruit(app.screen.state.worker_row[0]))
    app.screen.confirm_preview()
    step = app.screen.handouts.current
    assert step is not None and step.cards
    texts = drawn_texts(app)
    assert [c.action for c in drawn_faces] == [row_card(c).action for c in step.cards]
    face = row_card(step.cards[0])
    assert texts.count(face.foot) >= 1 and any(face.name in t for t in texts)
    app.journal.close()


def test_the_deal_at_the_start_is_one_line_per_place() -> None:
    """The fourteen cards dealt at the start of a game: one line for each player's Apprentice
    and one per place on the board (the rows, the decks' tops), so the step fits a screen."""
    import random

    from companion.builders.kiosk.handouts import deal_line, deal_step
    from companion.engine.simulate import sample

    game = get_game("builders")
    state = game.initial_state(game.setup(2))
    lines, rng = [], random.Random(1)
    while game.current_player(state) == CHANCE:
        outcome = sample(game.chance_outcomes(state), rng)
        lines.append(deal_line(state, outcome))
        state = game.apply(state, outcome)
    step = deal_step(lines)
    assert len(step.cards) == len(lines) >= 12
    places = {(ln.seat, ln.cause_text) for ln in lines}
    assert len(step.lines) == len(places) <= 6
    from companion.kiosk.words import card_name

    rows = [ln for ln in step.lines if ln.amount == 5]
    assert len(rows) == 2  # the building row and the worker row
    for row in rows:
        dealt = [ln.card for ln in lines if ln.cause_text == row.cause_text]
        assert row.what == ", ".join(card_name("builders", c) for c in dealt)


def test_a_companion_seats_lines_are_marked_on_the_hand_out(tmp_path: Path) -> None:
    """The table moves the companion's pieces too: its seat is named as everywhere else,
    ``Blue (companion)``, over its lines of a hand-out step."""
    from companion.kiosk.words import seat_label

    setup, actions, action = _two_step_position()
    before = PILLARS.initial_state(setup)
    for a in actions:
        before = PILLARS.apply_text(before, a)
    steps = PillarsHandOuts(PILLARS).steps(before, action, PILLARS.apply(before, action))
    seat = next(ln.seat for st in steps for ln in st.lines if ln.seat >= 0)
    app = make_app(tmp_path)
    app.session = app.journal.start(setup, seed=0, companions={seat: "easy"})
    for a in actions:
        app.session.play(a)
    app.open_game()
    app.screen.handouts.clear()
    _take(app, action)
    while (step := app.screen.handouts.current) is not None and all(
            ln.seat != seat for ln in step.lines):
        confirm_handout(app)
    assert app.screen.handouts.current is not None
    texts = drawn_texts(app)
    marked = seat_label(setup.players[seat], True)
    assert marked in texts, (marked, texts)
    app.companion.close()
    app.journal.close()
