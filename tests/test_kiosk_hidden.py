"""Hidden information stays hidden and fixed (issue 14's first part): a card the companion
draws for the table is committed before it is shown, and Ellen's early look at the coming event
is for her owner alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.kiosk import ui
from companion.kiosk.app import App
from companion.kiosk.words import card_name
from companion.pillars import data as D
from tests.kiosk_helpers import find, handed_out, keys, make_app, press, tap
from tests.test_kiosk_shell import game_at


@pytest.fixture
def drawn() -> Iterator[list[str]]:
    """Every text the screens draw while the test runs."""
    ui.DRAWN = []
    try:
        yield ui.DRAWN
    finally:
        ui.DRAWN = None


def events_shown(texts: list[str]) -> set[str]:
    names = {card_name("pillars", e): e for e in D.EVENTS}
    return {e for t in texts for name, e in names.items() if name in t}


def record(app: App) -> tuple[str, ...]:
    assert app.session is not None and app.journal is not None
    return app.journal.record(app.session.id).actions


def test_a_card_drawn_for_the_table_is_committed_before_it_is_shown(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    game_at(app, "privilege")
    before = record(app)
    tap(app, "virtual draw")
    after = record(app)
    assert len(after) == len(before) + 1 and after[-1].startswith("privilege ")
    assert app.screen.result is not None  # what was drawn, shown after the commit
    assert "cancel" not in keys(app)
    press(app, "back")  # closing the message takes nothing back
    assert record(app) == after
    # a restart resumes with the same card: nothing can draw it again
    assert app.journal is not None and app.session is not None
    again = app.journal.resume(app.session.id)
    assert again.state == app.session.state


def test_the_virtual_deck_tells_the_table_what_it_dealt(tmp_path: Path) -> None:
    app = make_app(tmp_path, virtual_deck=True)
    game_at(app, "privilege", settle=False)  # the virtual deck deals the round's cards
    state = app.session.state if app.session else None
    assert state is not None and state.step not in ("privilege", "craftsman", "resource")
    step = app.screen.handouts.current  # one step to lay the cards out, one CONFIRM
    assert step is not None and step.title == f"Dealt for round {state.round}"
    dealt = [line.card for line in step.lines]
    assert sorted(dealt) == sorted((*state.kingsbridge, *state.shiring, *state.pool))
    assert all(card_name("pillars", c) for c in dealt)
    assert "handout confirm" in keys(app) or "handout more" in keys(app)


def test_ellens_look_with_the_physical_deck_is_entered_by_her_owner_alone(
    tmp_path: Path, drawn: list[str]
) -> None:
    app = make_app(tmp_path)
    game_at(app, "peek")
    assert app.session is not None
    state = app.session.state
    owner = state.setup.players[app.session.game.active_seat(state)].name
    assert find(app, "private").label == f"{owner} only: tap to enter the event you looked at"
    assert not any(k.startswith("event ") for k in keys(app))  # no picker for the table
    tap(app, "private")
    event = next(k for k in keys(app) if k.startswith("event "))
    tap(app, event)
    press(app, "confirm")
    assert record(app)[-1] == event
    assert app.toast_text == (
        f"{owner} has seen the coming event; it stays secret until phase III")
    drawn.clear()
    app.render(force=True)
    assert not events_shown(drawn), "the event shows after the owner's look"
    assert "private" not in keys(app)


def test_ellens_look_with_the_virtual_deck_hides_until_her_owner_taps(
    tmp_path: Path, drawn: list[str]
) -> None:
    from companion.kiosk.screenshots import find_prefixes

    setup, actions = find_prefixes("pillars", ["peek"])["peek"]
    while actions and actions[-1].split()[0] in ("privilege", "craftsman", "resource"):
        actions.pop()  # back to the start of the round, before its cards are dealt
    app = make_app(tmp_path, virtual_deck=True)
    assert app.journal is not None
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    app.open_game()
    app.render(force=True)
    handed_out(app)
    screen: Any = app.screen
    look = screen.ellen.look
    if look is None:
        pytest.fail("the seeded position should give Ellen a look")
    seat, event = look.seat, look.event
    owner = app.session.state.setup.players[seat].name
    assert record(app)[-1] == f"event {event}" or f"event {event}" in record(app)
    press(app, "confirm")  # the dealt cards, read by the table
    drawn.clear()
    app.render(force=True)
    assert not events_shown(drawn)
    assert find(app, "look").label == f"{owner} only: tap to look"
    tap(app, "look")
    assert events_shown(drawn) == {event}
    tap(app, "hide")
    drawn.clear()
    app.render(force=True)
    assert not events_shown(drawn)
    assert "look" not in keys(app)


def test_a_look_shown_to_the_camera_is_recorded_without_showing_it(
    tmp_path: Path, drawn: list[str]
) -> None:
    from companion.events import Card

    app = make_app(tmp_path)
    game_at(app, "peek")
    assert app.session is not None
    event = next(str(a.args[0]) for a, p in
                 app.session.game.chance_outcomes(app.session.state) if p > 0)
    drawn.clear()
    app.screen.handle(Card("pillars", event))
    app.render(force=True)
    assert record(app)[-1] == f"event {event}"
    assert not events_shown(drawn)


def test_the_tax_exemption_decision_shows_the_die_and_what_each_would_pay(
    tmp_path: Path, drawn: list[str]
) -> None:
    app = make_app(tmp_path)
    game_at(app, "taxfree")
    assert app.session is not None
    state = app.session.state
    due = app.session.game.tax_due(state)
    drawn.clear()
    app.render(force=True)
    name = state.setup.players[state.turn].name
    assert f"{name}: the die shows {state.tax}. Play the tax exemption this round?" in drawn
    line = next(t for t in drawn if " pays " in t)
    for k, p in enumerate(state.setup.players):
        assert f"{p.name} pays {due[k]}" in line


def test_the_cathedral_space_says_it_makes_the_next_start_player(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    game_at(app, "place")
    b = next(b for b in app.screen.buttons if b.key.endswith(" cathedral"))
    assert b.sub == "next start player"


@pytest.mark.parametrize("game_name", ["pillars", "builders"])
def test_the_end_screen_goes_back_to_the_last_decision(tmp_path: Path, game_name: str) -> None:
    from companion.kiosk.screens.end import EndScreen
    from companion.kiosk.screenshots import find_prefixes

    players = 4 if game_name == "pillars" else 3
    setup, actions = find_prefixes(game_name, ["over"], players=players)["over"]
    app = make_app(tmp_path)
    assert app.journal is not None
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    app.open_game()
    app.render(force=True)
    handed_out(app)
    assert isinstance(app.screen, EndScreen)
    if not app.session.can_undo():
        pytest.fail("the seeded game should end on a decision")
    tap(app, "last decision")
    assert not app.session.game.is_over(app.session.state)
    assert not isinstance(app.screen, EndScreen)
    assert app.journal.get(app.session.id).status == "playing"
    assert app.journal.record(app.session.id).actions == tuple(actions[:-1])


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_tap_on_a_players_panel_shows_their_whole_tableau(
    tmp_path: Path, size: tuple[int, int], drawn: list[str]
) -> None:
    app = make_app(tmp_path, size=size)
    game_at(app, "market")
    assert app.session is not None
    state = app.session.state
    seat = next(k for k, s in enumerate(state.seats) if s.privileges) if any(
        s.privileges for s in state.seats) else 0
    tap(app, f"tableau {seat}")
    drawn.clear()
    app.render(force=True)
    s = state.seats[seat]
    assert state.setup.players[seat].name in drawn
    text = " ".join(drawn)
    for c in s.privileges:
        assert card_name("pillars", c) in text
    for c in s.craftsmen:
        assert card_name("pillars", c) in text
    assert f"{s.vp} VP, {s.gold} gold" in text
    tap(app, "close tableau")
    assert app.screen.tableau is None


def test_a_builders_players_tableau(tmp_path: Path, drawn: list[str]) -> None:
    from companion.builders.kiosk import BuildersScreen
    from companion.kiosk.screenshots import find_prefixes

    setup, actions = find_prefixes("builders", ["turn-sites"], players=3)["turn-sites"]
    app = make_app(tmp_path)
    assert app.journal is not None
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    app.open_game()
    app.render(force=True)
    handed_out(app)
    assert isinstance(app.screen, BuildersScreen)
    seat = app.session.state.turn_player
    tap(app, f"tableau {seat}")
    drawn.clear()
    app.render(force=True)
    text = " ".join(drawn)
    p = app.session.state.players[seat]
    for site in p.sites:
        assert card_name("builders", site.card) in text
    for w in p.idle:
        assert card_name("builders", w) in text
    press(app, "back")
    assert app.screen.tableau is None


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_message_never_covers_whose_turn_it_is(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, size=size)
    game_at(app, "market")
    app.refuse("Red cannot buy 9 stone: the market has 4")
    toast = app._toast_rect()
    assert toast.top >= app.screen.bar_bottom()  # the bar (round, step, whose turn) stays
    for b in app.screen.buttons:
        if b.key in ("pass", "confirm"):
            assert not toast.colliderect(b.rect)


def test_picker_cards_keep_their_place_and_show_yields(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    game_at(app, "resource")
    assert app.session is not None
    first = {b.key: b.rect.copy() for b in app.screen.buttons if b.key.startswith("resource ")}
    assert len(first) == 9  # the nine resource cards
    b = find(app, "resource stone3")
    assert b.sub == "8 workers → 3 stone"
    tap(app, "resource stone3")
    press(app, "confirm")
    assert app.session.state.step == "resource"
    out = find(app, "out stone3")
    assert not out.enabled and out.rect == first["resource stone3"]
    for key, rect in first.items():
        if key != "resource stone3":
            assert find(app, key).rect == rect, key  # every other card stayed where it was
    tap(app, "out stone3")
    assert "has already been revealed" in (app.toast_text or "")  # the engine's reason
