"""A complete game of The Builders played through the kiosk's input layer.

The set-up cards and every refill are tapped in from the picker; each decision is chosen at
random (seeded) among the engine's legal ones and made with the kiosk's own buttons: a card in a
row, an idle worker then a site, the coin buttons, buy an action, end the turn.  The journal's
record applied to the engine alone must give the scores the end screen shows.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.builders.actions import Send
from companion.builders.kiosk import BuildersScreen
from companion.engine import CHANCE, get_game, replay
from companion.engine.simulate import sample
from companion.kiosk.screens.end import EndScreen
from tests.kiosk_helpers import handed_out, keys, make_app, press, tap, wait


def last_action(app: Any) -> str:
    record = app.journal.record(app.session.id)
    return record.actions[-1] if record.actions else ""


def tap_paged(app: Any, key: str, pager: str) -> None:
    """Tap ``key``, turning the pages of a list (sites, idle workers) until it shows."""
    for _ in range(20):
        if key in keys(app):
            tap(app, key)
            return
        tap(app, pager)
    raise AssertionError(f"{key!r} never appeared: {keys(app)}")


def confirm_if_asked(app: Any) -> None:
    """What undo cannot take back is previewed: confirm it."""
    if getattr(app.screen, "preview", None) is not None:
        press(app, "confirm")


def perform(app: Any, action: Any) -> None:
    if isinstance(action, Send):
        tap_paged(app, f"select {action.worker}", "more workers")
        tap_paged(app, str(action), "more sites")
    else:
        tap(app, str(action))
    confirm_if_asked(app)


def play_through(app: Any, rng: random.Random, limit: int = 20000) -> int:
    game = get_game("builders")
    decisions = 0
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, EndScreen):
            return decisions
        assert isinstance(screen, BuildersScreen), type(screen)
        if screen.celebrate is not None:
            wait(app, 2.0)
            continue
        if screen.handouts.current is not None:  # the rules' own changes: handed out
            press(app, "confirm")
            continue
        state = app.session.state
        if game.current_player(state) == CHANCE:
            outcome = sample(game.chance_outcomes(state), rng)
            tap_paged(app, str(outcome), "more cards")
            assert app.screen.preview is not None  # a card tapped in is confirmed first
            press(app, "confirm")
            assert last_action(app) == str(outcome)
            continue
        action = rng.choice(game.legal_actions(state))
        perform(app, action)
        assert last_action(app) == str(action), (str(action), last_action(app), app.toast_text)
        decisions += 1
    raise AssertionError("the game did not end")


@pytest.mark.full  # 3.5 s of CPU: -m full.  The default run's whole game through the kiosk,
# each move checked against the journal and the end against the engine, is the Pillars one of
# test_words_kiosk (the Builders one there too under -m full)
def test_a_complete_three_player_game_through_the_kiosk(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=8)
    tap(app, "new")
    tap(app, "game builders")
    tap(app, "players 3")
    tap(app, "start")
    handed_out(app)  # each seat's starting pieces
    assert isinstance(app.screen, BuildersScreen)
    game_id = app.session.id
    decisions = play_through(app, random.Random(8))
    end = app.screen
    assert isinstance(end, EndScreen)
    engine = get_game("builders")
    state = replay(engine, app.journal.record(game_id))
    assert engine.is_over(state)
    assert end.summary.scores == engine.scores(state)
    assert list(end.summary.winners) == engine.winners(state)
    assert decisions > 100
    assert app.journal.get(game_id).status == "finished"


def test_refill_picker_offers_only_cards_still_possible_and_undo_stops_at_it(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, seed=2)
    tap(app, "new")
    tap(app, "game builders")
    tap(app, "players 2")
    tap(app, "start")
    handed_out(app)  # each seat's starting pieces
    game = get_game("builders")
    rng = random.Random(2)
    while game.current_player(app.session.state) == CHANCE:
        offered: set[str] = set()
        for _page in range(5):  # every page of the picker
            offered |= {k for k in keys(app) if k.startswith(("reveal ", "next ", "deal "))}
            if "more cards" not in keys(app):
                break
            tap(app, "more cards")
        possible = {str(a) for a, p in game.chance_outcomes(app.session.state) if p > 0}
        assert offered == possible
        for b in app.screen.buttons:  # every card button is a real touch target
            assert b.rect.height >= app.metrics.touch * 0.9, (b.key, b.rect)
        tap_paged(app, str(sample(game.chance_outcomes(app.session.state), rng)), "more cards")
        assert app.screen.preview is not None  # a card tapped in waits for CONFIRM
        press(app, "back")  # a mistap: Cancel takes nothing
        assert app.screen.preview is None and game.current_player(app.session.state) == CHANCE
        tap_paged(app, str(sample(game.chance_outcomes(app.session.state), rng)), "more cards")
        press(app, "confirm")
    state = app.session.state
    me = state.players[state.turn_player]
    assert me.coins == 10 and len(me.idle) == 1
    tap(app, "coins 1ap")
    assert app.session.state.players[state.turn_player].coins == 11
    press(app, "undo")
    assert app.session.state == state
    press(app, "undo")  # the last reveal is a barrier
    assert app.session.state == state
    assert app.toast_text is not None


def test_coin_buttons_show_what_the_engine_gives_under_cumulative_coins(tmp_path: Path) -> None:
    """B1 cumulative: 1 AP then 1 AP gives 1 then 2 coins; the button says what the engine
    gives now (it said +1 before, copying the separate table)."""
    from companion.kiosk.screens.game import virtual_draw
    from tests.kiosk_helpers import find

    app = make_app(tmp_path, virtual_deck=True)
    game = get_game("builders")
    assert app.journal is not None
    app.session = app.journal.start(game.setup(2, options={"coins": "cumulative"}), seed=3)
    virtual_draw(app, lambda state: True)
    app.open_game()
    app.render(force=True)
    handed_out(app)  # the cards dealt at the start, shown on opening: laid out
    assert find(app, "coins 1ap").label == "+1 coin"
    tap(app, "coins 1ap")
    assert last_action(app) == "coins 1ap"
    app.render(force=True)
    assert find(app, "coins 1ap").label == "+2 coins"
    assert find(app, "coins 2ap").label == "+5 coins"  # 2 + 3: the 2nd and 3rd AP


def test_taking_a_card_from_a_row_is_confirmed_first(tmp_path: Path) -> None:
    """Taking a building reveals the next card, which undo cannot take back: a preview with
    Cancel and Confirm comes first, and Cancel changes nothing."""
    from tests.kiosk_helpers import find

    app = make_app(tmp_path, virtual_deck=True)
    game = get_game("builders")
    assert app.journal is not None
    app.session = app.journal.start(game.setup(2), seed=3)
    from companion.kiosk.screens.game import virtual_draw

    virtual_draw(app, lambda state: True)
    app.open_game()
    app.render(force=True)
    handed_out(app)  # the cards dealt at the start, shown on opening: laid out
    start = next(str(a) for a in game.legal_actions(app.session.state) if str(a).startswith(
        "start "))
    before = app.journal.record(app.session.id).actions
    tap(app, start)
    assert app.screen.preview is not None
    assert "the next card is revealed" in app.screen.preview.title
    assert find(app, "cancel") and find(app, "confirm")
    tap(app, "cancel")
    assert app.journal.record(app.session.id).actions == before
    tap(app, start)
    press(app, "confirm")
    assert app.journal.record(app.session.id).actions[len(before)] == start  # then the deal


def test_idle_workers_and_machines_say_what_they_supply(tmp_path: Path) -> None:
    from companion.builders.kiosk.screen import supply_text
    from companion.kiosk import i18n
    from companion.kiosk.screenshots import find_prefixes
    from tests.kiosk_helpers import find

    assert supply_text((3, 2, 0, 0)) == "S3 W2"
    assert supply_text((0, 0, 1, 2)) == "K1 T2"
    setup, actions = find_prefixes("builders", ["turn-sites"], players=3)["turn-sites"]
    app = make_app(tmp_path, language="zh")
    assert app.journal is not None
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    app.open_game()
    app.render(force=True)
    state = app.session.state
    w = state.players[state.turn_player].idle[0]
    from companion.builders.cards import OUTPUT

    assert find(app, f"select {w}").sub == supply_text(OUTPUT[w])
    assert supply_text((1, 1, 1, 1)) == "石1 木1 知1 瓦1"
    i18n.set_language("en")


def test_picker_cards_keep_their_place_while_a_row_fills(tmp_path: Path) -> None:
    """The cards dealt into a row stay in the picker (refused with the reason), so every
    other card keeps its place from one pick to the next."""
    app = make_app(tmp_path, seed=2)
    tap(app, "new")
    tap(app, "game builders")
    tap(app, "players 2")
    tap(app, "start")
    handed_out(app)  # each seat's starting pieces
    game = get_game("builders")
    state = app.session.state
    assert game.waiting_for(state) == "reveal building"
    before = {b.key: b.rect.copy() for b in app.screen.buttons
              if b.key.startswith(("reveal ", "out "))}
    first = next(k for k in before if k.startswith("reveal "))
    tap(app, first)
    press(app, "confirm")
    assert game.waiting_for(app.session.state) == "reveal building"
    card = first.split()[-1]
    after = {b.key: b.rect for b in app.screen.buttons if b.key.startswith(("reveal ", "out "))}
    assert after[f"out {card}"] == before[first]
    for key, rect in before.items():
        if key != first:
            assert after[key] == rect, key
    tap(app, f"out {card}")
    assert (app.toast_text or "").endswith("is already in play")  # the engine's reason
