"""Hand-outs: every change the rules make by themselves is a line the table hands out.

For Pillars, each action of seeded games is applied by the engine; the hand-out steps of what
the rules did by themselves must add up, per player and resource, to the state's change less
the acting player's own changes (the instruction's), so a change without a line fails; the
event card is drawn on its step; an undo gives back what was handed out."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import CHANCE, get_game
from companion.engine.simulate import sample
from companion.kiosk.handout import CARD, TABLE, HandLine, HandOut, HandOutPlan, HandOutQueue
from companion.pillars import data as D
from companion.pillars.kiosk.handouts import PillarsHandOuts
from companion.pillars.kiosk.sentences import ledger_role
from tests.kiosk_helpers import enter, make_app, position, press

PILLARS = get_game("pillars")


def holdings(state: object) -> dict[tuple[int, str], int]:
    out: dict[tuple[int, str], int] = {}
    for seat, s in enumerate(state.seats):  # type: ignore[attr-defined]
        out[(seat, "vp")] = s.vp
        out[(seat, "gold")] = s.gold
        for r, name in enumerate(D.RESOURCES):
            out[(seat, name)] = s.res[r]
    return out


def own_changes(before: object, action: object, after: object) -> dict[tuple[int, str], int]:
    """The acting player's own changes (said by the action's words, not handed out)."""
    out: dict[tuple[int, str], int] = {}
    old = len(PILLARS.ledger(before))
    for e in PILLARS.ledger(after)[old:]:
        if ledger_role(before, action, e) != "rules":  # type: ignore[arg-type]
            out[(e.player, e.what)] = out.get((e.player, e.what), 0) + e.amount
    return out


@pytest.mark.parametrize(("seed", "players"), [(3, 3), (8, 4), (12, 2)])
def test_every_automatic_change_of_phase_three_has_a_hand_out_line(seed: int,
                                                                   players: int) -> None:
    rng = random.Random(seed)
    plan = PillarsHandOuts(PILLARS)
    state = PILLARS.initial_state(PILLARS.setup(players))
    checked = events = 0
    while not PILLARS.is_over(state):
        if PILLARS.current_player(state) == CHANCE:
            action = sample(PILLARS.chance_outcomes(state), rng)
        else:
            action = rng.choice(PILLARS.legal_actions(state))
        after = PILLARS.apply(state, action)
        steps = plan.steps(state, action, after)
        handed: dict[tuple[int, str], int] = {}
        for step in steps:
            for key, n in step.totals().items():
                handed[key] = handed.get(key, 0) + n
        a, b = holdings(state), holdings(after)
        own = own_changes(state, action, after)
        for key in a:
            want = b[key] - a[key] - own.get(key, 0)
            assert handed.get(key, 0) == want, (state.round, state.step, str(action), key,
                                                [s.title for s in steps])
        if state.step == "event" or any(s.key == "event" for s in steps):
            events += 1
            assert any(s.card == after.event for s in steps if s.key == "event")
        checked += bool(steps)
        state = after
    assert checked >= 20 and events >= 6


def test_a_phase_three_step_hands_out_the_privileges_and_craftsmen_taken() -> None:
    rng = random.Random(5)
    plan = PillarsHandOuts(PILLARS)
    state = PILLARS.initial_state(PILLARS.setup(4))
    seen = set()
    while not PILLARS.is_over(state):
        if PILLARS.current_player(state) == CHANCE:
            action = sample(PILLARS.chance_outcomes(state), rng)
        else:
            action = rng.choice(PILLARS.legal_actions(state))
        after = PILLARS.apply(state, action)
        cards = {ln.card for s in plan.steps(state, action, after) for ln in s.lines
                 if ln.resource == CARD}
        for seat, (x, y) in enumerate(zip(state.seats, after.seats, strict=True)):
            for c in (*y.privileges, *y.craftsmen):
                if c not in (*x.privileges, *x.craftsmen) and action.verb != "take":
                    assert c in cards, (seat, c, str(action))
                    seen.add(c)
        state = after
    assert seen


def test_an_undo_drops_the_steps_not_handed_out_and_keeps_what_is_to_be_put_back() -> None:
    q = HandOutQueue()
    step = HandOut("The wool mill", (HandLine(0, "gold", 3, "the wool mill, 3 workers"),))
    back = HandOut("Undone: put these back", (HandLine(0, "gold", -3, "taken back"),))
    q.add(6, [step])
    q.add(7, [step, step])
    q.give_back(12, back)
    assert [p.id for p in q.pending] == ["back#12", "step#0", "step#0", "step#1"]
    q.undo(7)  # action 7's steps were not handed out: they go; the give-back stays first
    assert [(p.index, p.id, p.back) for p in q.pending] == [(-1, "back#12", 12), (6, "step#0", 0)]
    assert q.hand_outs_left() == 1
    q.add(7, [step])  # another action 7: numbered afresh
    assert q.pending[-1].id == "step#0"


def test_the_default_plan_steps_by_cause_in_order() -> None:
    plan = HandOutPlan(PILLARS)
    setup, actions, action = position(
        "pillars", lambda s, a, n: s.step == "roll", seed=3)
    state = PILLARS.initial_state(setup)
    for a in actions:
        state = PILLARS.apply_text(state, a)
    after = PILLARS.apply(state, action)
    steps = plan.steps(state, action, after)
    assert [s.key for s in steps] == list(dict.fromkeys(
        e.cause for e in PILLARS.ledger(after)[len(PILLARS.ledger(state)):]))
    assert all(ln.seat != TABLE for s in steps for ln in s.lines)


def test_the_event_is_handed_out_on_the_table_screen_with_its_card(tmp_path: Path) -> None:
    setup, actions, _a = position("pillars", lambda s, a, n: s.step == "event", seed=4)
    app = make_app(tmp_path)
    enter(app, setup, actions)
    screen = app.screen
    from tests.kiosk_helpers import tap

    outcome = sample(PILLARS.chance_outcomes(app.session.state), random.Random(1))
    tap(app, str(outcome))
    press(app, "confirm")  # the reveal's preview
    step = screen.handouts.current
    assert step is not None and step.key == "event" and step.card == str(outcome.args[0])
    entries = app.journal.record(app.session.id).actions
    while screen.handouts.current is not None:
        press(app, "confirm")
    assert app.journal.record(app.session.id).actions == entries  # a hand-out commits nothing


def test_an_events_name_is_a_label_not_part_of_a_sentence() -> None:
    from companion.engine.ledger import Entry
    from companion.pillars.kiosk.sentences import cause_text

    entry = Entry(2, 0, "wood", 1, "production", (("event", "kaltewinter"),))
    text = cause_text(entry)
    assert "with A" not in text and text == "resource cards (event: A cold winter)"


def test_remigius_selected_says_the_builder_is_free(tmp_path: Path) -> None:
    from companion.kiosk import ui
    from tests.kiosk_helpers import tap

    setup, actions, _a = position(
        "pillars", lambda s, a, n: s.step == "place" and any(
            x.verb == "remigius" for x in PILLARS.legal_actions(s)), seed=1, players=2)
    app = make_app(tmp_path)
    enter(app, setup, actions)
    tap(app, "remigius")
    ui.DRAWN = []
    try:
        app.render(force=True)
        drawn = list(ui.DRAWN)
    finally:
        ui.DRAWN = None
    assert not any("cost" in t for t in drawn), drawn
    assert any("free with Remigius" in t for t in drawn)


def test_a_hand_outs_lines_are_the_logs_then_by_the_rules() -> None:
    """Each hand-out line's cause is in the log's "Then, by the rules:" entry of the same
    action, on its player's line, and the log has no rules entry without a hand-out."""
    from companion.kiosk.gamelog import log_entries
    from companion.kiosk.handout import CARD as CARD_LINE

    rng = random.Random(9)
    setup = PILLARS.setup(3)
    state = PILLARS.initial_state(setup)
    plan = PillarsHandOuts(PILLARS)
    actions, states = [], [state]
    while not PILLARS.is_over(state) and len(actions) < 400:
        if PILLARS.current_player(state) == CHANCE:
            action = sample(PILLARS.chance_outcomes(state), rng)
        else:
            action = rng.choice(PILLARS.legal_actions(state))
        state = PILLARS.apply(state, action)
        actions.append(action)
        states.append(state)
    sections = log_entries(PILLARS, setup, actions, newest_first=False, states=states)
    rules = {e.index: e for s in sections for e in s.entries if e.kind == "rules" and e.changes}
    compared = 0
    for i, action in enumerate(actions):
        steps = plan.steps(states[i], action, states[i + 1])
        lines = [ln for s in steps for ln in s.lines if ln.resource != CARD_LINE]
        assert bool(lines) == (i in rules), (i, str(action))
        for ln in lines:
            name = setup.players[ln.seat].name
            said = [c for c in rules[i].changes if c.startswith(f"{name}: ")]
            assert said and ln.cause_text in said[0], (str(action), ln, said)
            compared += 1
    assert compared > 50


def test_a_hand_out_step_on_show_is_kept_whole(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand-out step stays on screen while the table moves its pieces, under lights and
    messages: drawn again, it is blitted whole (its title, lines, card and Confirm), not laid
    out again; and its Confirm still confirms."""
    setup, actions, _a = position("pillars", lambda s, a, n: s.step == "event", seed=4)
    app = make_app(tmp_path, size=(720, 1280))
    enter(app, setup, actions)
    screen = app.screen
    from tests.kiosk_helpers import tap

    tap(app, str(sample(PILLARS.chance_outcomes(app.session.state), random.Random(1))))
    press(app, "confirm")  # the reveal's preview
    step = screen.handouts.current
    assert step is not None
    from tests.test_lookahead import assert_kept_whole

    assert_kept_whole(app, monkeypatch, "hand-out")
    press(app, "confirm")
    assert screen.handouts.current is not step
