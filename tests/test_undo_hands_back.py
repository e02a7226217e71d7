"""From the first minute to the last: the set-up's holdings are handed out like any change,
an undo gives back what had reached the table (a hand-out confirmed, a companion's move the
table carried out), every give-back is in the journal until the table confirms it, and what a
restart hands out depends on who dealt each card, as the journal says, never on the setting
read after the restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.engine import CHANCE, get_game
from companion.engine.ledger import totals
from companion.kiosk.handout import CARD, SETUP
from companion.kiosk.screens.end import EndScreen
from companion.pillars.kiosk.handouts import PillarsHandOuts
from tests.kiosk_helpers import confirm_handout, drawn_texts, keys, make_app, position, press, tap

PILLARS = get_game("pillars")
BUILDERS = get_game("builders")


def _restart(app: Any, tmp: Path, **kwargs: Any) -> Any:
    """The kiosk stopped (no goodbye) and started again on the same journal; the table taps
    Resume on the home screen."""
    app.companion.close()
    app.journal.close()
    again = make_app(tmp, **kwargs)
    tap(again, "resume")
    return again


def _enter(app: Any, setup: Any, actions: list[str], companions: dict[int, str] | None = None,
           virtual_deck: bool = False) -> None:
    """A game begun as the kiosk begins one (its hand-outs tracked from the set-up on), played
    to ``actions`` with everything so far handed out, on its table screen."""
    app.session = app.journal.start(setup, seed=0, companions=companions or {},
                                    handing_out=True)
    for a in actions:
        game = app.session.game
        app.session.play(a, dealt=virtual_deck if game.current_player(
            app.session.state) == CHANCE else None)
    app.session.all_handed_out()
    app.open_game()
    app.render(force=True)


def test_a_new_game_hands_out_each_seat_s_starting_pieces_first(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap(app, "new")
    tap(app, "game pillars")
    tap(app, "players 3")
    tap(app, "start")
    step = app.screen.handouts.current
    assert step is not None and step.key == "start", step
    first = app.session.playthrough.states[0]
    amounts = {k: v for k, v in step.totals().items()}
    assert amounts == totals(PILLARS.ledger(first))  # 2 VP, 20/21/22 gold, 12 workers each
    assert {(ln.seat, ln.amount) for ln in step.lines if ln.resource == CARD} == {
        (0, 3), (1, 3), (2, 3)}  # the three starting craftsmen
    texts = drawn_texts(app)
    assert any("+21 gold" in t for t in texts), texts
    app = _restart(app, tmp_path)  # not confirmed: shown again
    assert app.screen.handouts.current == step
    confirm_handout(app)
    handed = app.session.handed_out()
    assert handed is not None and handed.confirmed(SETUP, "start#0")
    app = _restart(app, tmp_path)
    assert app.screen.handouts.current is None or app.screen.handouts.current.key != "start"
    app.journal.close()


def _draft_take(seat_of: int = 1) -> tuple[Any, list[str], Any]:
    """A Pillars position where seat ``seat_of`` takes a craftsman from the pool (paying gold)."""
    return position("pillars", lambda s, a, n: PILLARS.current_player(s) == seat_of
                    and s.step == "draft" and a.verb == "take" and "craft" not in str(a)
                    and n.seats[seat_of].gold < s.seats[seat_of].gold, seed=1, players=2)


def test_undoing_a_companion_s_move_gives_it_back_and_a_restart_keeps_that(
        tmp_path: Path) -> None:
    setup, actions, action = _draft_take()
    before = PILLARS.initial_state(setup)
    for a in actions:
        before = PILLARS.apply_text(before, a)
    paid = before.seats[1].gold - PILLARS.apply(before, action).seats[1].gold
    app = make_app(tmp_path)
    _enter(app, setup, actions, companions={1: "easy"})
    app.companion.settle(app.session, decision=action)
    app.screen.companion_view.plan()
    app.render(force=True)
    assert "companion confirm" in keys(app)
    press(app, "confirm")  # the table took the card and paid, as told
    assert app.session.playthrough.actions[-1] == action
    press(app, "undo")
    back = app.screen.handouts.current
    assert back is not None and back.key == "back", back
    assert back.totals() == {(1, "gold"): paid}
    cards = [ln for ln in back.lines if ln.resource == CARD]
    assert [(ln.seat, ln.amount) for ln in cards] == [(1, -1)] and "pool" in cards[0].cause_text
    assert any("Undone" in n for n in back.notes)
    app = _restart(app, tmp_path)  # the power goes before the table put it back
    assert app.screen.handouts.current == back
    press(app, "confirm")
    assert app.screen.handouts.current is None
    assert app.session.give_backs() == []
    app.companion.settle(app.session, decision=action)
    app.screen.companion_view.plan()
    texts = drawn_texts(app)
    assert any("same move again" in t for t in texts), texts
    app = _restart(app, tmp_path)  # put back before the restart: not shown again
    assert app.screen.handouts.current is None
    app.journal.close()


def test_undoing_a_person_s_move_gives_back_only_what_was_handed_out(tmp_path: Path) -> None:
    """A person's own move: the person moved those pieces and knows it; what the rules did by
    themselves and the table handed out comes back, as one step per seat and thing."""
    plan = PillarsHandOuts(PILLARS)
    setup, actions, action = position(
        "pillars", lambda s, a, n: PILLARS.current_player(s) >= 0 and plan.steps(s, a, n)
        and any(ln.resource != CARD for st in plan.steps(s, a, n) for ln in st.lines),
        seed=2, players=2)
    app = make_app(tmp_path)
    _enter(app, setup, actions)
    app.screen.propose(action)
    if app.screen.preview is not None:
        app.screen.confirm_preview()
    given = []
    for _k in range(50):
        step = app.screen.handouts.current
        if step is None:
            break
        if "handout confirm" not in keys(app):  # (a result or an animation over it first)
            app.tick(0.5)
            press(app, "confirm")
            continue
        given.append(step)
        confirm_handout(app)
    if not app.session.can_undo():
        return  # (an action undo may not take back: nothing to check)
    press(app, "undo")
    back = app.screen.handouts.current
    want: dict[tuple[int, str], int] = {}
    for st in given:
        for key, n in st.totals().items():
            want[key] = want.get(key, 0) - n
    assert back is not None and back.totals() == {k: n for k, n in want.items() if n}
    app.journal.close()


def test_a_restart_deals_as_the_journal_says_not_as_the_setting_says_now(
        tmp_path: Path) -> None:
    """Cards the table dealt by hand are never handed out as the virtual deck's, even when
    the virtual deck is switched on before the restart, and the other way round."""
    setup, actions, _a = position("pillars", lambda s, a, n: s.round == 2 and s.step == "draft",
                                  seed=1, players=2)
    for deck in (False, True):
        app = make_app(tmp_path / str(deck), virtual_deck=deck)
        app.session = app.journal.start(setup, seed=0, handing_out=True)
        for a in actions:
            app.session.play(a, dealt=deck if PILLARS.current_player(
                app.session.state) == CHANCE else None)
        app.companion.close()
        app.journal.close()
        again = make_app(tmp_path / str(deck), virtual_deck=not deck)
        tap(again, "resume")
        dealt = [p for p in again.screen.handouts.pending if p.step.key == "dealt"]
        assert bool(dealt) == deck, (deck, [p.step.key for p in again.screen.handouts.pending])
        again.journal.close()


def test_the_last_changes_of_a_game_survive_a_restart_before_the_end_screen(
        tmp_path: Path) -> None:
    """The final action's steps (The Builders' end coins) are due when the kiosk stops before
    the table confirmed them: the home screen resumes the game, the table screen shows them,
    then the end screen; once handed out, the home screen offers a new game again."""
    setup, actions, action = position(
        "builders", lambda s, a, n: BUILDERS.is_over(n) and not BUILDERS.is_over(s) and any(
            e.cause == "end.coins" and e.amount for e in BUILDERS.ledger(n)), seed=3,
        players=2)
    app = make_app(tmp_path)
    _enter(app, setup, actions)
    app.screen.propose(action)
    if app.screen.preview is not None:
        app.screen.confirm_preview()
    assert BUILDERS.is_over(app.session.state)
    for _k in range(100):  # the celebration of a completion, if any
        if app.screen.handouts.current is not None:
            break
        app.tick(0.1)
    step = app.screen.handouts.current
    assert step is not None and step.key == "end.coins", step
    app = _restart(app, tmp_path)
    assert app.screen.handouts.current == step
    confirm_handout(app)
    for _k in range(100):
        if isinstance(app.screen, EndScreen):
            break
        app.tick(0.1)
    assert isinstance(app.screen, EndScreen)
    app.companion.close()
    app.journal.close()
    again = make_app(tmp_path)
    assert "resume" not in keys(again) and "new" in keys(again)
    again.journal.close()
