"""The hint helps, not only ranks: each choice says what it leads to (the holdings it changes
now; in The Pillars of the Earth what the craftsmen make of them at the cathedral), and at the
market it proposes the whole visit (the sales and purchases, then done), which a tap plays."""

from __future__ import annotations

from pathlib import Path

from companion.engine import get_game
from companion.kiosk.screens.companion_panel import hinted_visit
from companion.pillars.kiosk.leads import at_the_cathedral
from tests.kiosk_helpers import drawn_texts, enter, make_app, position, tap

PILLARS = get_game("pillars")


def test_a_resource_for_a_craftsman_says_the_vp_it_makes_at_the_cathedral() -> None:
    """Taking the forest in the draft: 3 wood at the production, which a Woodworker (2 wood a
    VP) turns into VP at the cathedral."""
    setup, actions, action = position(
        "pillars", lambda s, a, n: s.step == "draft" and a.verb == "take"
        and str(a.args[0]).startswith("wood"), seed=1, players=2)
    before = PILLARS.initial_state(setup)
    for a in actions:
        before = PILLARS.apply_text(before, a)
    seat = before.turn
    text = at_the_cathedral(before, seat, PILLARS.apply(before, action))
    assert "Woodworker" in text and "VP more at the cathedral" in text, text


def test_a_market_hint_proposes_the_whole_visit_and_says_what_it_leads_to(
        tmp_path: Path) -> None:
    setup, actions, action = position(
        "pillars", lambda s, a, n: s.step == "market" and a.verb in ("buy", "sell")
        and n.step == "market" and n.turn == s.turn, seed=2, players=2)
    app = make_app(tmp_path)
    app.config = app.config.with_(hint=True)
    enter(app, setup, actions)
    screen = app.screen
    visit = hinted_visit(screen, screen.state, action)
    assert len(visit.actions) >= 2 and visit.actions[0] == action
    state = screen.state
    for a in visit.actions[:-1]:
        state = PILLARS.apply(state, a)
    after = PILLARS.apply(state, visit.actions[-1])
    assert not (PILLARS.current_player(after) == screen.state.turn
                and screen.same_visit(state, after))  # the whole visit, to its end
    assert "at the market" in visit.text and visit.why
    app.companion.settle(app.session, hint=[(action, 0.4, 100, 0.01)])
    screen.hint_open = True
    texts = drawn_texts(app)
    assert any(visit.text in t for t in texts), texts
    assert any(t.startswith("→ ") for t in texts), texts
    n = len(app.session.playthrough.actions)
    tap(app, "hint 1")  # the whole visit played, trade after trade
    played = app.session.playthrough.actions[n:]
    assert list(played) == visit.actions[:len(played)] and len(played) >= 2
    app.companion.close()
    app.journal.close()
