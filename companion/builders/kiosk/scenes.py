"""The Builders screens for ``companion screenshots``: a reveal, turns, a crowded tableau (every
idle worker in view), the last round, the end, a worker picked, a completion, the help, a card
read by a hold, the log, and the companion's whole turn as one instruction."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from companion.builders.actions import Recruit
from companion.builders.cards import BUILDING
from companion.engine import get_game
from companion.kiosk.i18n import _
from companion.kiosk.screenshots import enter_position, find_prefixes
from companion.kiosk.words import card_name

from .plan import TurnPlan
from .screen import BuildersScreen, screen_key

if TYPE_CHECKING:
    from companion.builders.state import BuildersState
    from companion.engine import Setup
    from companion.journal import Journal
    from companion.kiosk.app import App

KEYS = ["reveal", "turn", "turn-sites", "turn-crowded", "last-round", "over"]


def _screen(app: App) -> BuildersScreen:
    """The Builders screen the scene shows."""
    assert isinstance(app.screen, BuildersScreen), type(app.screen)
    return app.screen


def key(state: BuildersState) -> str:
    """The kind of screen a state shows."""
    return screen_key(state)


def scenes(journal: Journal) -> Iterator[tuple[str, Callable[[App], None]]]:
    """Screens of The Builders for ``companion screenshots``."""
    prefixes = find_prefixes("builders", KEYS, players=3)
    for key in KEYS:
        if key not in prefixes:
            continue
        setup, actions = prefixes[key]
        enter = partial(
            enter_position, journal=journal, setup=setup, actions=actions, virtual_deck=False
        )
        yield f"builders-{key}", enter
        if key == "turn-sites":
            yield from _turn_scenes(enter)
        if key == "turn":
            yield "builders-companion-turn", partial(
                _companion_turn, journal=journal, setup=setup, actions=tuple(actions))
            yield "builders-handout-deal", partial(_dealt, journal=journal, setup=setup,
                                                   actions=actions)
    ending = _ending_with_coins()
    if ending is not None:
        setup, actions = ending
        yield "builders-handout-end", partial(
            _handed_out, journal=journal, setup=setup, actions=actions[:-1], last=actions[-1])
    solo = find_prefixes("builders", ["turn"], players=1)
    if "turn" in solo:
        setup, actions = solo["turn"]
        yield "builders-handout-automa", partial(_handed_out, journal=journal, setup=setup,
                                                 actions=actions, last="end turn")


_ENDING: list[tuple[Setup, list[str]] | None] = []


def _ending_with_coins(seeds: int = 30) -> tuple[Setup, list[str]] | None:
    """A seeded random 3-player game whose last action ends it with someone holding 10 coins
    or more (the final count hands out VP): its set-up and actions (found once)."""
    if _ENDING:
        return _ENDING[0]
    import random

    from companion.engine import CHANCE, TERMINAL
    from companion.engine.simulate import sample

    game = get_game("builders")
    found = None
    for seed in range(seeds):
        rng = random.Random(1000 + seed)
        setup = game.setup(3, start_player=seed % 3)
        state = game.initial_state(setup)
        actions: list[str] = []
        while game.current_player(state) != TERMINAL:
            who = game.current_player(state)
            action = (sample(game.chance_outcomes(state), rng) if who == CHANCE
                      else rng.choice(game.legal_actions(state)))
            state = game.apply(state, action)
            actions.append(str(action))
        if any(p.coins >= 10 for p in state.players):
            found = (setup, actions)
            break
    _ENDING.append(found)
    return found


def _dealt(app: App, journal: Journal, setup: Setup, actions: list[str]) -> None:
    """A person recruits with the virtual deck on: the deck's card, handed out."""
    enter_position(app, journal=journal, setup=setup, actions=actions, virtual_deck=True)
    row = _screen(app).state.worker_row
    _screen(app).propose(Recruit(row[0]))
    _screen(app).confirm_preview()


def _handed_out(app: App, journal: Journal, setup: Setup, actions: list[str],
                last: str) -> None:
    """``last`` taken (its preview confirmed): what the rules did by themselves, handed out."""
    enter_position(app, journal=journal, setup=setup, actions=actions, virtual_deck=False)
    _screen(app).propose(get_game("builders").parse_action(last))
    if _screen(app).preview is not None:
        _screen(app).confirm_preview()
    _screen(app).celebration.now = None


def _turn_scenes(enter: Callable[[App], None]) -> Iterator[tuple[str, Callable[[App], None]]]:
    def selected(app: App) -> None:
        enter(app)
        me = _screen(app).state.players[_screen(app).state.turn_player]
        _screen(app).mine.s.selected = me.idle[0]

    yield "builders-send", selected

    def celebrate(app: App) -> None:
        enter(app)
        card = BUILDING["abbaye"]
        line = _("{name} completes {card}: +{coins} coins, +{vp} VP", name="Ann",
                 card=card_name("builders", card.id), coins=card.coins, vp=card.vp)
        _screen(app).celebration.start([line])

    yield "builders-complete", celebrate

    def helped(app: App) -> None:
        enter(app)
        _screen(app).help_open = True

    yield "builders-help", helped

    def hold_card(app: App) -> None:
        enter(app)
        _screen(app).explain(_screen(app).state.building_row[0])

    yield "builders-hold-card", hold_card

    def log(app: App) -> None:
        enter(app)
        app.go("log", previous=app.screen)

    yield "builders-log", log


_PLANS: dict[tuple[str, ...], TurnPlan] = {}


def _planned(setup: Setup, actions: tuple[str, ...], game_id: int) -> TurnPlan:
    """The companion's whole first turn from the position ``actions`` leads to, with the
    virtual deck (thought out once)."""
    if actions in _PLANS:
        return _PLANS[actions]
    game = get_game("builders")
    state = game.initial_state(setup)
    for a in actions:
        state = game.apply_text(state, a)
    seat = game.current_player(state)
    plan = TurnPlan(game_id, len(actions), state, seat, virtual_deck=True)
    plan.think_all(game, "easy")
    _PLANS[actions] = plan
    return plan


def _companion_turn(app: App, journal: Journal, setup: Setup, actions: tuple[str, ...]) -> None:
    """The companion's seat plays a whole turn: one instruction, the deck's cards in it."""
    state = get_game("builders").initial_state(setup)
    for a in actions:
        state = get_game("builders").apply_text(state, a)
    seat = get_game("builders").current_player(state)
    app.session = journal.start(setup, seed=0, companions={seat: "easy"})
    for a in actions:
        app.session.play(a)
    app.config = app.config.with_(virtual_deck=True)
    app.companion.close()
    app.open_game()
    plan = _planned(setup, actions, 0)
    app.companion.settle(app.session, decision=plan.actions[0])
    panel = _screen(app).companion_turn
    panel.plan = TurnPlan(app.session.id, plan.index, _screen(app).state, plan.seat, True,
                          list(plan.steps), plan.state, complete=True)
