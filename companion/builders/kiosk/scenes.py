"""The Builders screens for ``companion screenshots``: a reveal, turns, a crowded tableau (every
idle worker in view), the last round, the end, a worker picked, a completion, the help, a card
read by a hold, the log, and the companion's whole turn as one instruction."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import TYPE_CHECKING

from companion.builders.actions import Recruit, Send, Start
from companion.builders.cards import BUILDING
from companion.builders.state import BuildersState
from companion.engine import get_game
from companion.kiosk.api import (
    _,
    card_name,
    find_prefixes,
    first_game_scenes,
    seeded_move,
)
from companion.kiosk.api import (
    enter_position as enter_game,
)

from .plan import TurnPlan
from .screen import BuildersScreen, screen_key

if TYPE_CHECKING:
    from companion.engine import Setup
    from companion.journal import Journal
    from companion.kiosk.api import Stage

KEYS = ["reveal", "turn", "turn-sites", "turn-crowded", "last-round", "over"]


def _screen(app: Stage) -> BuildersScreen:
    """The Builders screen the scene shows."""
    assert isinstance(app.screen, BuildersScreen), type(app.screen)
    return app.screen


def enter_position(app: Stage, journal: Journal, setup: Setup, actions: list[str],
                   virtual_deck: bool | None = None) -> None:
    """The position on its screen, what opening it shows again (the cards dealt before it,
    no confirmation stored) taken as handed out: the scene shows the screen itself."""
    enter_game(app, journal, setup, actions, virtual_deck)
    if isinstance(app.screen, BuildersScreen):
        app.screen.handouts.clear()


def key(state: BuildersState) -> str:
    """The kind of screen a state shows."""
    return screen_key(state)


def scenes(journal: Journal) -> Iterator[tuple[str, Callable[[Stage], None]]]:
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
        if key == "over":
            yield "builders-over-companion", partial(
                _over_with_companion, journal=journal, setup=setup, actions=actions)
        if key == "turn-sites":
            yield from _turn_scenes(enter)
        if key == "turn":
            yield "builders-companion-turn", partial(
                _companion_turn, journal=journal, setup=setup, actions=tuple(actions))
            yield "builders-handout-deal", partial(_dealt, journal=journal, setup=setup,
                                                   actions=actions)
    yield from _richest_scenes(journal)
    ending = _ending_with_coins()
    if ending is not None:
        setup, actions = ending
        yield "builders-handout-end", partial(
            _handed_out, journal=journal, setup=setup, actions=actions[:-1], last=actions[-1])
    yield from first_game_scenes("builders", journal, *prefixes["turn"], _companion_send())
    solo = find_prefixes("builders", ["turn"], players=1)
    if "turn" in solo:
        setup, actions = solo["turn"]
        yield "builders-handout-automa", partial(_handed_out, journal=journal, setup=setup,
                                                 actions=actions, last="end turn")


@cache
def _companion_send(seed: int = 2) -> tuple[Setup, list[str], int, str]:
    """A seeded game's first worker sent to a site for a wage (a card moved and coins paid:
    what an undone move of the companion gives back)."""
    game = get_game("builders")

    def pick(state: object, who: int, legal: list[object]) -> object | None:
        assert isinstance(state, BuildersState)
        if state.turn < 3:
            return None
        return next((a for a in legal if isinstance(a, Send) and game.apply(state, a)
                     .players[who].coins < state.players[who].coins), None)

    return seeded_move("builders", 3, seed, pick)


LONG_WORDS = ("cabane-perchee", "maison-urbaine", "tour-de-guet")
"""Buildings whose names are one long word (Treehouse, ツリーハウス; Townhouse; Watchtower):
a narrow card must not break them inside."""


def _row_length(state: BuildersState) -> int:
    """How long the names of the building row are (machines have the longest: Survey Tools
    (large), 測量器具（大）, 丸のこ（大）; and the one-word names): the market that tests the
    narrow cards most."""
    return sum(BUILDING[c].is_machine * 100 + (c in LONG_WORDS) * 100
               + len(card_name("builders", c)) for c in state.building_row)


def _machines_and_sites(state: BuildersState) -> int:
    """How full the player's own panel is: machines among the idle workers, open sites."""
    me = state.players[state.turn_player]
    machines = sum(1 for c in me.idle if c in BUILDING)
    return machines * 100 + len(me.sites) * 10 + len(set(me.idle))


_SCORES: dict[str, Callable[[BuildersState], int]] = {
    "builders-rows-long": _row_length, "builders-turn-machines": _machines_and_sites}
"""The richest screens' scenes, each with what makes a turn rich for it."""


def _richest_scenes(journal: Journal) -> Iterator[tuple[str, Callable[[Stage], None]]]:
    """The Builders' fullest screens found in seeded random games: the rows with the longest
    card names (and a card taken from them: the refill handed out by the virtual deck), a
    turn with machines and sites, another player's tableau.  The games are played when one of
    these screens is first entered, not to list them."""
    on_screen = partial(enter_position, virtual_deck=False)
    for name, scored, enter in (
            ("builders-rows-long", "builders-rows-long", on_screen),
            ("builders-handout-refill", "builders-rows-long", _refilled),
            ("builders-turn-machines", "builders-turn-machines", on_screen),
            ("builders-tableau", "builders-turn-machines", _tableau)):
        yield name, partial(_at_richest, journal, scored, enter)


def _at_richest(journal: Journal, scored: str, enter: Callable[..., None], app: Stage) -> None:
    """``enter`` at the richest turn for ``_SCORES[scored]``."""
    position = _richest()[scored]
    if position is None:
        raise RuntimeError(f"no seeded Builders game reaches a turn for {scored}")
    setup, actions = position
    enter(app, journal=journal, setup=setup, actions=actions)


@cache
def _richest(seeds: int = 24, players: int = 3) -> dict[str, tuple[Setup, list[str]] | None]:
    """For each of ``_SCORES``: the set-up and actions of the person's turn (not the last
    round) with the highest score among seeded random games (played once per process, for
    every score at once)."""
    import random

    from companion.engine import CHANCE, TERMINAL
    from companion.engine.simulate import sample

    game = get_game("builders")
    best: dict[str, tuple[int, Setup, list[str]]] = {}
    for seed in range(seeds):
        rng = random.Random(2000 + seed)
        setup = game.setup(players, start_player=seed % players)
        state = game.initial_state(setup)
        actions: list[str] = []
        while game.current_player(state) != TERMINAL:
            who = game.current_player(state)
            if (who != CHANCE and not state.end and state.ap == 3 and state.turn <= 36
                    and len(state.building_row) == len(state.worker_row) == 5):
                for name, score in _SCORES.items():
                    points = score(state)
                    if name not in best or points > best[name][0]:
                        best[name] = (points, setup, list(actions))
            action = (sample(game.chance_outcomes(state), rng) if who == CHANCE
                      else rng.choice(game.legal_actions(state)))
            state = game.apply(state, action)
            actions.append(str(action))
    return {name: (best[name][1], best[name][2]) if name in best else None
            for name in _SCORES}


def _refilled(app: Stage, journal: Journal, setup: Setup, actions: list[str]) -> None:
    """A person takes the longest-named building with the virtual deck on: the card the deck
    deals into the row, handed out."""
    enter_position(app, journal=journal, setup=setup, actions=actions, virtual_deck=True)
    row = _screen(app).state.building_row
    longest = max(row, key=lambda c: len(card_name("builders", c)))
    _screen(app).propose(Start(longest))
    _screen(app).confirm_preview()


def _tableau(app: Stage, journal: Journal, setup: Setup, actions: list[str]) -> None:
    """The tableau of the player with the most built: what another player holds."""
    enter_position(app, journal=journal, setup=setup, actions=actions, virtual_deck=False)
    state = _screen(app).state
    seat = max(range(len(state.players)),
               key=lambda k: len(state.players[k].finished) * 10 + len(state.players[k].sites))
    _screen(app).show_tableau(seat)


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


def _over_with_companion(app: Stage, journal: Journal, setup: Setup, actions: list[str]) -> None:
    """The end screen of a game the companion played a seat of (marked in every row)."""
    from companion.kiosk.api import EndScreen

    app.session = journal.start(setup, seed=0, companions={1: "easy"})
    for a in actions:
        app.session.play(a)
    app.show(EndScreen(app, app.session.id))


def _dealt(app: Stage, journal: Journal, setup: Setup, actions: list[str]) -> None:
    """A person recruits with the virtual deck on: the deck's card, handed out."""
    enter_position(app, journal=journal, setup=setup, actions=actions, virtual_deck=True)
    row = _screen(app).state.worker_row
    _screen(app).propose(Recruit(row[0]))
    _screen(app).confirm_preview()


def _handed_out(app: Stage, journal: Journal, setup: Setup, actions: list[str],
                last: str) -> None:
    """``last`` taken (its preview confirmed): what the rules did by themselves, handed out."""
    enter_position(app, journal=journal, setup=setup, actions=actions, virtual_deck=False)
    _screen(app).propose(get_game("builders").parse_action(last))
    if _screen(app).preview is not None:
        _screen(app).confirm_preview()
    _screen(app).celebration.now = None


def _turn_scenes(enter: Callable[[Stage], None]) -> Iterator[tuple[str, Callable[[Stage], None]]]:
    def selected(app: Stage) -> None:
        enter(app)
        me = _screen(app).state.players[_screen(app).state.turn_player]
        _screen(app).mine.s.selected = me.idle[0]

    yield "builders-send", selected

    def celebrate(app: Stage) -> None:
        enter(app)
        card = BUILDING["abbaye"]
        line = _("{name} completes {card}: +{coins} coins, +{vp} VP", name="Ann",
                 card=card_name("builders", card.id), coins=card.coins, vp=card.vp)
        _screen(app).celebration.start([line])

    yield "builders-complete", celebrate

    def helped(app: Stage) -> None:
        enter(app)
        _screen(app).help_open = True

    yield "builders-help", helped

    def hold_card(app: Stage) -> None:
        enter(app)
        _screen(app).explain(_screen(app).state.building_row[0])

    yield "builders-hold-card", hold_card

    def log(app: Stage) -> None:
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


def _companion_turn(app: Stage, journal: Journal, setup: Setup, actions: tuple[str, ...]) -> None:
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
    _screen(app).handouts.clear()  # the cards dealt before, shown again on opening: laid out
    plan = _planned(setup, actions, 0)
    app.companion.settle(app.session, decision=plan.actions[0])
    panel = _screen(app).companion_turn
    panel.plan = TurnPlan(app.session.id, plan.index, _screen(app).state, plan.seat, True,
                          list(plan.steps), plan.state, complete=True)
