"""The companion at the table, through the kiosk's input layer: a complete game of each game
with one companion seat, checked by replaying the journal; consecutive decisions; undo past a
companion decision; a restart in the middle; the hint.

The companion thinks in a real worker process, so these tests wait for it in real time (the
kiosk's clock is stepped meanwhile, as the main loop would).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.builders.kiosk import BuildersScreen
from companion.engine import CHANCE, get_game, replay
from companion.engine.simulate import sample
from companion.kiosk import ui
from companion.kiosk.screens.end import EndScreen
from companion.kiosk.seats import Companion, decide, decision_seed, instruction
from companion.pillars.kiosk import PillarsScreen
from tests import test_kiosk_builders_game as builders_game
from tests import test_kiosk_pillars_game as pillars_game
from tests.kiosk_helpers import (
    drawn_texts,
    handed_out,
    keys,
    make_app,
    press,
    read_pages,
    shows,
    tap,
    wait,
)

STRENGTH = "easy"


def last_action(app: Any) -> str:
    record = app.journal.record(app.session.id)
    return record.actions[-1] if record.actions else ""


def think(app: Any, seconds: float = 120.0) -> Any:
    """Let the companion think (real time passes; the kiosk's clock is stepped as the main
    loop steps it); its decision, once the screen shows it (a visit: all its decisions)."""
    deadline = time.monotonic() + seconds
    while True:
        app.tick(1 / 30)
        decision = app.companion.decision
        assert decision is None or decision.error is None, decision.error
        actions = app.screen.visit_ready()
        if actions:
            app.render()  # as the main loop draws after the pass that brought the decision
            return actions
        assert time.monotonic() < deadline, "the companion did not decide in time"
        time.sleep(0.002)


def companion_turn(app: Any, rng: random.Random, check_seed: bool) -> str:
    """The companion decides (a whole visit at a time); the screen says what to do (one
    instruction, in its panel); the table confirms once with CONFIRM or a tap on the panel.
    The actions are the journal's last."""
    seat = Companion.seat_to_decide(app.session)
    assert seat is not None
    before = app.session.state
    index = len(app.session.playthrough.actions)
    actions = think(app)
    states = app.screen.visit.states
    # the instruction read page by page (a long one is paged, never cut), nothing taken
    drawn = read_pages(app, "companion more", lambda: press(app, "confirm"))
    assert len(app.session.playthrough.actions) == index
    name = before.setup.players[seat].name
    assert f"{name}, the companion:" in drawn
    assert shows(drawn, app.screen.visit_instruction(before, actions, states))
    if len(actions) == 1:
        assert shows(drawn, instruction(app.session.game.name, before, actions[0]))
    assert "companion confirm" in keys(app)
    if rng.random() < 0.5:
        press(app, "confirm")
    else:
        tap(app, "companion done")
    texts = [app.session.game.format_action(a) for a in actions]
    record = app.journal.record(app.session.id).actions
    assert list(record[index:index + len(texts)]) == texts, (texts, record[index:])
    if check_seed:  # same position, same seed: the same decision, thought out again
        again = decide(app.session.game.name, before, seat, STRENGTH,
                       decision_seed(app.session.id, index))
        assert again == texts[0]
    return " ".join(texts)


def start(
    app: Any, game: str, players: int, companion_seat: int, strength: str = STRENGTH
) -> None:
    """A new game with the companion at ``companion_seat``, people elsewhere."""
    tap(app, "new")
    tap(app, f"game {game}")
    tap(app, f"players {players}")
    for k in range(players):
        want = strength if k == companion_seat else ""
        for _ in range(4):
            if app.screen.strengths[k] == want:
                break
            tap(app, f"who {k}")
    assert app.screen.companions() == {companion_seat: strength}
    tap(app, "start")
    handed_out(app)  # each seat's starting pieces


def play_pillars(app: Any, rng: random.Random, limit: int = 20000) -> list[str]:
    """A game of Pillars: the people's decisions at random through the buttons, the table's
    draws, rolls and reveals through the kiosk, the companion's decisions as it says."""
    game = get_game("pillars")
    done: list[str] = []
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, EndScreen):
            return done
        assert isinstance(screen, PillarsScreen), type(screen)
        if screen.anim is not None:
            wait(app, 1.5)
            continue
        if screen.result is not None or screen.preview is not None or (
                screen.handouts.current is not None):
            press(app, "confirm")
            continue
        state = app.session.state
        if game.current_player(state) == CHANCE:
            if state.step == "draw":
                press(app, "draw")
            elif state.step == "roll":
                press(app, "roll")
            else:
                outcome = sample(game.chance_outcomes(state), rng)
                if state.step == "peek":
                    tap(app, "private")
                tap(app, str(outcome))
                press(app, "confirm")
                assert last_action(app) == str(outcome)
            continue
        if Companion.seat_to_decide(app.session) is not None:
            done.append(companion_turn(app, rng, check_seed=len(done) % 15 == 0))
            continue
        if state.step == "cathedral":
            expected = pillars_game.drive_cathedral(app, rng)
        else:
            options = [a for a in game.legal_actions(state) if a.verb != "craft"]
            action = rng.choice(options)
            pillars_game.perform(app, action, rng)
            expected = str(action)
        if app.screen.preview is not None:
            press(app, "confirm")
        assert last_action(app) == expected, (expected, last_action(app), keys(app))
    raise AssertionError("the game did not end")


def play_builders(app: Any, rng: random.Random, limit: int = 20000) -> list[list[str]]:
    """A game of The Builders; the companion's decisions grouped by turn."""
    game = get_game("builders")
    turns: list[list[str]] = []
    last_turn = -1
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, EndScreen):
            return turns
        assert isinstance(screen, BuildersScreen), type(screen)
        if screen.celebrate is not None:
            wait(app, 2.0)
            continue
        if screen.preview is not None or screen.handouts.current is not None:
            press(app, "confirm")
            continue
        state = app.session.state
        if game.current_player(state) == CHANCE:
            outcome = sample(game.chance_outcomes(state), rng)
            builders_game.tap_paged(app, str(outcome), "more cards")
            press(app, "confirm")
            assert last_action(app) == str(outcome)
            continue
        if Companion.seat_to_decide(app.session) is not None:
            if state.turn != last_turn:
                turns.append([])
                last_turn = state.turn
            turns[-1].extend(builders_companion_turn(app, check_seed=len(turns) % 5 == 1))
            continue
        action = rng.choice(game.legal_actions(state))
        builders_game.perform(app, action)
        assert last_action(app) == str(action), (str(action), last_action(app), app.toast_text)
    raise AssertionError("the game did not end")


def planned(app: Any, seconds: float = 120.0) -> Any:
    """Let the companion think out its whole Builders turn (real time passes, the kiosk's
    clock is stepped meanwhile); the plan, once the screen shows it complete."""
    deadline = time.monotonic() + seconds
    while True:
        app.tick(1 / 30)
        decision = app.companion.decision
        assert decision is None or decision.error is None, decision.error
        plan = app.screen.companion_turn.plan
        if plan is not None and plan.complete:
            app.render()
            return plan
        assert time.monotonic() < deadline, "the companion did not plan its turn in time"
        time.sleep(0.002)


def builders_companion_turn(app: Any, check_seed: bool) -> list[str]:
    """The companion thinks out its turn; the screen lists every step (what the table does,
    what it yields), page by page on a small screen; one CONFIRM (or a tap on the panel)
    commits them all, in order.  The companion's decisions, in the journal's notation."""
    from companion.builders.kiosk.plan import plan_lines

    seat = Companion.seat_to_decide(app.session)
    assert seat is not None
    index = len(app.session.playthrough.actions)
    plan = planned(app)
    # the instruction read page by page (a long one is paged, never cut), nothing taken
    drawn = read_pages(app, "companion more", lambda: press(app, "confirm"))
    assert len(app.session.playthrough.actions) == index
    name = plan.start.setup.players[seat].name
    assert f"{name}, the companion:" in drawn
    lines = plan_lines(app.session.game, plan.steps)
    assert all(shows(drawn, line.text) for line in lines), (lines, drawn)
    assert "companion confirm" in keys(app)
    if plan.decisions % 2:
        press(app, "confirm")
    else:
        tap(app, "companion done")
    record = app.journal.record(app.session.id)
    assert list(record.actions[index:]) == [str(a) for a in plan.actions]
    if check_seed:  # same position, same seed: the same decisions, thought out again
        for k, step in enumerate(plan.steps):
            if not step.dealt:
                assert decide("builders", step.before, seat, STRENGTH,
                              decision_seed(app.session.id, index + k)) == str(step.action)
    return [str(s.action) for s in plan.steps if not s.dealt]


def check_journal(app: Any, game_id: int, game_name: str, seat: int) -> Any:
    """The journal's record replays, on the engine alone, to what the end screen shows, and
    keeps the companion's seat."""
    end = app.screen
    assert isinstance(end, EndScreen)
    record = app.journal.record(game_id)
    assert record.companions == {seat: STRENGTH}
    engine = get_game(game_name)
    state = replay(engine, record)
    assert engine.is_over(state)
    assert end.summary.scores == engine.scores(state)
    assert list(end.summary.winners) == engine.winners(state)
    assert app.journal.get(game_id).companions == {seat: STRENGTH}
    return record


@pytest.mark.full  # a minute of waiting for the companion (the default run's companion tests
# play its decisions, visits, undo and hint; the whole games are CI's -m full)
def test_a_game_of_pillars_with_a_companion_seat(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=21)
    start(app, "pillars", 3, companion_seat=1)
    game_id = app.session.id
    done = play_pillars(app, random.Random(21))
    record = check_journal(app, game_id, "pillars", 1)
    assert len(done) >= 20
    assert len(record.actions) > 250


@pytest.mark.full  # 15 s of the default run: a whole game, the companion's turns one by one
def test_a_game_of_the_builders_with_a_companion_seat(tmp_path: Path) -> None:
    app = make_app(tmp_path, size=(720, 1280), seed=5)
    start(app, "builders", 2, companion_seat=0)
    game_id = app.session.id
    turns = play_builders(app, random.Random(5))
    check_journal(app, game_id, "builders", 0)
    assert len(turns) >= 8
    assert max(len(t) for t in turns) >= 3  # a whole turn of decisions, one after another


def to_companion(app: Any, rng: random.Random) -> None:
    """Play (the people at random, the table's reveals) until the companion's seat decides."""
    game = get_game("builders")
    for _ in range(500):
        if Companion.seat_to_decide(app.session) is not None:
            return
        if app.screen.preview is not None or app.screen.handouts.current is not None:
            press(app, "confirm")
            continue
        state = app.session.state
        if game.current_player(state) == CHANCE:
            outcome = sample(game.chance_outcomes(state), rng)
            builders_game.tap_paged(app, str(outcome), "more cards")
            press(app, "confirm")
        else:
            builders_game.perform(app, rng.choice(game.legal_actions(state)))
    raise AssertionError("the companion never decided")


def confirm_plan(app: Any) -> Any:
    """The companion's turn thought out, its steps read page by page and confirmed once."""
    plan = planned(app)
    while "companion more" in keys(app):
        press(app, "confirm")
    press(app, "confirm")
    return plan


def test_undo_past_a_companion_decision_decides_the_same_again(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=2)
    start(app, "builders", 2, companion_seat=1, strength="normal")  # a search: seeds matter
    rng = random.Random(2)
    for _ in range(3):  # a few turns in, so that there is something before them
        to_companion(app, rng)
        confirm_plan(app)
    to_companion(app, rng)
    first = confirm_plan(app).actions[-1]  # the table tapped in the cards: no deal in it
    n = len(app.session.playthrough.actions)
    assert last_action(app) == str(first) and app.session.can_undo()
    press(app, "undo")  # the companion's decision is taken back...
    assert len(app.session.playthrough.actions) == n - 1
    assert think(app) == [first]  # ...and it says the same again, at once
    app.companion.forget()  # and when it thinks it out anew, in a new process
    app.companion.close()
    assert think(app) == [first]
    if app.session.can_undo():
        press(app, "undo")  # undo goes on past it, to the decision before
        assert len(app.session.playthrough.actions) == n - 2
    press(app, "undo")
    assert len(app.session.playthrough.actions) <= n - 1


def test_the_companion_resumes_after_a_restart(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=4)
    start(app, "pillars", 2, companion_seat=1, strength="normal")
    to_pillars_companion(app, random.Random(4))
    decided = think(app)
    state = app.session.state
    app.companion.close()
    app.journal.close()
    pygame.display.quit()
    again = make_app(tmp_path)
    tap(again, "resume")
    assert again.session.companions == {1: "normal"}
    assert again.session.state == state
    assert think(again) == decided
    press(again, "confirm")
    assert last_action(again) == str(decided[-1])


def to_pillars_companion(app: Any, rng: random.Random) -> None:
    """Play Pillars (the people at random, the table's draws and reveals) until the
    companion's seat decides."""
    game = get_game("pillars")
    for _ in range(500):
        if Companion.seat_to_decide(app.session) is not None:
            return
        screen = app.screen
        state = app.session.state
        if screen.anim is not None:
            wait(app, 1.5)
        elif screen.result is not None or screen.preview is not None or (
                screen.handouts.current is not None):
            press(app, "confirm")
        elif game.current_player(state) == CHANCE:
            if state.step in ("draw", "roll"):
                press(app, state.step)
            else:
                tap(app, str(sample(game.chance_outcomes(state), rng)))
        else:
            options = [a for a in game.legal_actions(state) if a.verb not in ("craft", "convert")]
            pillars_game.perform(app, rng.choice(options), rng)
    raise AssertionError("the companion never decided")


def test_the_companion_takes_any_seat_but_not_all(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap(app, "new")
    tap(app, "players 2")
    tap(app, "who 0")
    tap(app, "who 1")
    assert app.screen.companions() == {0: "easy", 1: "easy"}
    tap(app, "start")
    assert app.toast_text == "The companion cannot take every seat: someone has to play"
    assert app.session is None
    for _ in range(3):  # easy, normal, strong, a person again
        tap(app, "who 1")
    assert app.screen.companions() == {0: "easy"}
    tap(app, "who 0")
    tap(app, "who 0")
    assert app.screen.companions() == {0: "strong"}
    tap(app, "move 1")  # the seat moves with its companion
    assert app.screen.companions() == {1: "strong"}
    tap(app, "start")
    assert app.session.companions == {1: "strong"}
    assert app.journal.get(app.session.id).companions == {1: "strong"}
    tap(app, "menu")
    tap(app, "new")  # the next game seats the last table again, the companion included
    assert app.screen.companions() == {1: "strong"}


def test_the_hint_shows_three_choices_for_a_person(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=6)
    start(app, "builders", 2, companion_seat=1)
    to_companion(app, random.Random(6))
    assert "hint" not in keys(app)  # off by default, and never on the companion's turn
    app.config = app.config.with_(hint=True)
    rng = random.Random(6)
    game = get_game("builders")
    while not Companion.person_decides(app.session):
        if app.screen.preview is not None:
            press(app, "confirm")
        elif Companion.seat_to_decide(app.session) is not None:
            think(app)
            press(app, "confirm")
        else:
            outcome = sample(game.chance_outcomes(app.session.state), rng)
            builders_game.tap_paged(app, str(outcome), "more cards")
    app.render(force=True)
    assert "hint" in keys(app)
    state = app.session.state
    tap(app, "hint")
    deadline = time.monotonic() + 120
    while app.companion.hint is not None and app.companion.hint.thinking:
        assert time.monotonic() < deadline
        time.sleep(0.002)
        app.tick(1 / 30)
    drawn = read_pages(app, "hint more")  # every page of its choices (each whole on one)
    hint = app.companion.hint
    assert hint is not None and hint.error is None
    game = app.session.game
    legal = game.legal_actions(state)
    assert len(hint.result) == min(3, len(legal))
    for k, (action, chance, _visits, _margin) in enumerate(hint.result, 1):
        assert action in legal
        assert 0.0 <= chance <= 1.0
        assert shows(drawn, f"{k}. " + instruction(game.name, state, action))
        percent = f"{round(chance * 100)} %"  # "≈" before it when about equal to another
        assert percent in drawn or f"≈ {percent}" in drawn
    assert app.session.state == state  # a hint changes nothing
    tap(app, "close hint")
    assert app.companion.hint is None and "close hint" not in keys(app)


@pytest.mark.parametrize("mode", ["thread", "process"])
def test_a_worker_reports_a_failure_instead_of_raising(mode: str) -> None:
    from companion.kiosk.seats import Worker

    worker = Worker(decide, ("pillars", None, 0, "easy", "x"), mode)
    deadline = time.monotonic() + 30
    while (outcome := worker.poll()) is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert outcome[0] == "error"


def test_what_the_seat_cannot_see_changes_neither_decision_nor_hint() -> None:
    """Two positions that differ only in the order of the decks (hidden from everyone) give
    the same decision and the same hint: the companion determinizes, it never peeks."""
    import dataclasses

    from companion.kiosk.seats import hint_seed, suggest

    game = get_game("builders")
    rng = random.Random(6)
    state = game.initial_state(game.setup(2))
    made = 0
    while made < 6 or game.current_player(state) < 0:
        if game.current_player(state) == CHANCE:
            state = game.apply(state, sample(game.chance_outcomes(state), rng))
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
            made += 1
    other = dataclasses.replace(
        state,
        building_deck=tuple(random.Random(1).sample(state.building_deck,
                                                    len(state.building_deck))),
        worker_deck=tuple(reversed(state.worker_deck)),
    )
    assert other != state
    seat = game.current_player(state)
    assert decide("builders", state, seat, "normal", decision_seed(9, 40)) == decide(
        "builders", other, seat, "normal", decision_seed(9, 40)
    )
    assert suggest("builders", state, seat, hint_seed(9, 40), 3) == suggest(
        "builders", other, seat, hint_seed(9, 40), 3
    )


def test_ellen_s_look_for_the_companion_is_shown_to_nobody(tmp_path: Path) -> None:
    """With the virtual deck, the event Ellen's owner looks at is dealt; when the owner is the
    companion, no one at the table is asked to look."""
    from companion.kiosk.screenshots import find_prefixes

    setup, actions = find_prefixes("pillars", ["peek"])["peek"]
    game = get_game("pillars")
    state = game.initial_state(setup)
    for a in actions:
        state = game.apply_text(state, a)
    owner = game.active_seat(state)
    assert owner is not None
    app = make_app(tmp_path)
    session = app.journal.start(setup, seed=0, companions={owner: "easy"})
    for a in actions:
        session.play(a)
    app.session = session
    app.config = app.config.with_(virtual_deck=True)
    app.companion.close()
    from companion.kiosk.screens.game import open_game

    open_game(app)
    app.render(force=True)
    screen = app.screen
    assert isinstance(screen, PillarsScreen)
    assert screen.ellen.look is None and "look" not in keys(app)
    assert app.session.state.step != "peek"
    name = setup.players[owner].name
    assert app.toast_text == f"{name} has seen the coming event; it stays secret until phase III"


def test_while_it_thinks_the_light_shows_and_undo_stops_it(tmp_path: Path) -> None:
    """The seat's light follows the companion's decision; the screen turns its indicator and
    stays responsive; undo while it thinks drops the work (its process is stopped)."""
    from companion.events import TableView

    app = make_app(tmp_path, seed=3)
    tap(app, "new")
    tap(app, "game builders")
    tap(app, "players 2")
    for _ in range(3):  # easy, normal, strong
        tap(app, "who 1")
    assert app.screen.companions() == {1: "strong"}
    tap(app, "start")
    to_companion(app, random.Random(3))

    class Lamps:
        view: TableView | None = None

        def update(self, view: TableView, now: float) -> list[Any]:
            self.view = view
            return []

        def notify(self, event: str, detail: str = "") -> None:
            pass

        def close(self) -> None:
            pass

    lamps = Lamps()
    app.add_device(lamps)
    app.tick(1 / 30)
    app.update_devices()
    assert lamps.view is not None
    assert lamps.view.active == app.session.state.setup.players[1].colour
    assert app.companion.thinking
    worker = app.companion.decision.worker
    ui.DRAWN = []
    try:
        app.render(force=True)
        drawn = list(ui.DRAWN)
    finally:
        ui.DRAWN = None
    name = app.session.state.setup.players[1].name
    assert f"{name}, the companion, is thinking…" in drawn
    assert "companion confirm" not in keys(app)
    app.time += 1 / 8
    assert app.screen.update(1 / 30)  # the indicator moves on: the screen is drawn again...
    assert not app.screen.update(0)  # ...but not in every frame (a Pi stays cool)
    before = len(app.session.playthrough.actions)
    press(app, "undo")
    assert len(app.session.playthrough.actions) == before - 1
    app.tick(1 / 30)
    assert app.companion.decision is None and not app.companion.thinking
    deadline = time.monotonic() + 10
    while worker.outcome is None and worker._process is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    if worker._process is not None:  # stopped at once, not left to think
        worker._process.join(timeout=10)
        assert worker._process.exitcode is not None
    assert worker.poll() is None  # and its answer, if any, is never reported


def test_a_game_without_its_own_screen_seats_the_companion_too(tmp_path: Path) -> None:
    """The generic table screen (a registered game with no screen of its own) shows the
    companion's turn the same way.  The toy game is registered in this process only, so the
    companion thinks in a thread here."""
    from companion.kiosk.screens.generic import GenericGameScreen
    from tests.toygame import register_toy, unregister_toy

    register_toy()
    try:
        app = make_app(tmp_path)
        app.companion.mode = "thread"
        start(app, "sticks", 2, companion_seat=1)
        assert isinstance(app.screen, GenericGameScreen)
        decided = 0
        for _ in range(100):
            if isinstance(app.screen, EndScreen):
                break
            if "virtual" in keys(app):
                press(app, "draw")
            elif Companion.seat_to_decide(app.session) is not None:
                companion_turn(app, random.Random(decided), check_seed=False)
                decided += 1
            else:
                tap(app, next(k for k in keys(app) if k.startswith("take ")))
        assert isinstance(app.screen, EndScreen) and decided >= 1
        record = app.journal.record(app.journal.games()[0].id)
        assert record.companions == {1: STRENGTH}
        assert get_game("sticks").is_over(replay(get_game("sticks"), record))
    finally:
        unregister_toy()


def test_without_worker_processes_the_companion_thinks_in_a_thread(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where no process can be started (a locked-down system), the work is done in the
    worker's thread instead, and said on standard error."""
    from companion.kiosk import seats

    def refuse() -> None:
        raise OSError("fork is not allowed here")

    monkeypatch.setattr(seats, "_context", refuse)
    game = get_game("pillars")
    state = game.initial_state(game.setup(2))
    while game.current_player(state) == CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    seat = game.current_player(state)
    worker = seats.Worker(decide, ("pillars", state, seat, "easy", "x"), "process")
    deadline = time.monotonic() + 30
    while (outcome := worker.poll()) is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert outcome == ("ok", decide("pillars", state, seat, "easy", "x"))
    assert "fork is not allowed here" in capsys.readouterr().err


def test_when_the_companion_cannot_decide_the_table_is_never_stuck(tmp_path: Path) -> None:
    """A failure is said with the reason; Try again thinks anew, and Decide for it lets a
    person make that one decision with the usual buttons; the next is the companion's."""
    app = make_app(tmp_path, seed=7)
    start(app, "builders", 2, companion_seat=1)
    to_companion(app, random.Random(7))
    app.companion.close()
    app.companion.settle(app.session, error="OSError: [Errno 12] Cannot allocate memory")
    ui.DRAWN = []
    try:
        app.render(force=True)
        drawn = list(ui.DRAWN)
    finally:
        ui.DRAWN = None
    name = app.session.state.setup.players[1].name
    assert f"{name}, the companion, could not decide" in drawn
    assert "OSError: [Errno 12] Cannot allocate memory" in drawn
    tap(app, "companion retry")
    decided = think(app)[0]  # thought out anew
    app.companion.close()
    app.companion.settle(app.session, error="RuntimeError: no answer")
    app.render(force=True)
    tap(app, "companion by hand")
    app.tick(1 / 30)
    assert app.companion.decision is None and not app.companion.thinking
    assert "end turn" in keys(app) and "companion confirm" not in keys(app)
    builders_game.perform(app, decided)  # a person takes it, with the screen's own buttons
    assert last_action(app) == str(decided)
    if Companion.seat_to_decide(app.session) is not None:  # the next one is the companion's
        app.tick(1 / 30)
        assert app.companion.decision is not None


def test_a_companion_market_visit_is_one_instruction_and_one_confirmation(
        tmp_path: Path) -> None:
    """The companion's buys and sells of one market visit are worked out in full, told in one
    instruction (each kind with its total) and committed with one CONFIRM."""
    app = make_app(tmp_path, seed=6)
    start(app, "pillars", 2, companion_seat=1)
    rng = random.Random(6)
    for _ in range(60):
        to_pillars_companion(app, rng)
        state = app.session.state
        actions = think(app)
        if state.step != "market" or len(actions) < 2:
            press(app, "confirm")
            continue
        ui.DRAWN = []
        try:
            app.render(force=True)
            drawn = " ".join(ui.DRAWN)
        finally:
            ui.DRAWN = None
        assert "at the market" in drawn
        assert all(a.verb in ("buy", "sell", "pass") for a in actions)
        n = len(app.session.playthrough.actions)
        press(app, "confirm")  # once, for the whole visit
        record = app.journal.record(app.session.id).actions
        assert list(record[n:]) [:len(actions)] == [str(a) for a in actions]
        after = app.session.state
        assert not (after.step == "market" and after.turn == state.turn)
        return
    raise AssertionError("no market visit of several decisions")


def test_the_screenshots_companion_scenes_show_what_they_are_named(tmp_path: Path) -> None:
    """``companion screenshots``' companion scenes: "instruction" pictures the companion's
    instruction to the table (not its thinking, which has a scene of its own), "failed" its
    failure, "thinking" the indicator; in every game."""
    from companion.engine.registry import specs
    from companion.kiosk.seats import screenshot_scenes

    app = make_app(tmp_path)
    assert app.journal is not None
    scenes = dict(screenshot_scenes(app.journal))
    try:
        for spec in specs():
            for what, shown in (("instruction", ", the companion:"),
                                ("failed", ", the companion, could not decide"),
                                ("thinking", ", the companion, is thinking")):
                scenes[f"companion-{spec.name}-{what}"](app)
                drawn = drawn_texts(app)
                assert any(shown in t for t in drawn), (spec.name, what, drawn[:12])
    finally:
        app.companion.close()
        app.journal.close()
