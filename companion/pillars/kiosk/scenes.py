"""The Pillars screens for ``companion screenshots``: every step of the round, the help, the
tax result, a reveal's preview and the draw; the end of a round's breakdown, a preview by
cause, a card and a space read by a hold, the help with this moment's numbers, the log."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import TYPE_CHECKING, Protocol

from companion.kiosk.api import (
    Visit,
    Visiting,
    enter_position,
    find_prefixes,
    first_game_scenes,
    seeded_move,
)
from companion.pillars.actions import Action
from companion.pillars.rules import STEPS
from companion.pillars.state import PillarsState

from .screen import PillarsScreen

if TYPE_CHECKING:
    from companion.engine import Setup
    from companion.journal import Journal
    from companion.kiosk.api import Stage
    from companion.pillars.rules import PillarsGame

Scene = Callable[["Stage"], None]
"""Sets the kiosk up to show one screen."""


class SceneAt(Protocol):
    """A scene at a step's position: ``enter`` enters the position first."""

    def __call__(self, app: Stage, enter: Scene) -> None: ...


def _screen(app: Stage) -> PillarsScreen:
    """The Pillars screen the scene shows."""
    assert isinstance(app.screen, PillarsScreen), type(app.screen)
    return app.screen


def key(state: PillarsState) -> str:
    """The kind of screen a state shows: its step of the round."""
    return str(state.step)


def scenes(journal: Journal) -> Iterator[tuple[str, Scene]]:
    """(name, set-up function) for every Pillars screen."""
    steps = [s for s, who, _h in STEPS if s != "over"] + ["over"]
    prefixes = find_prefixes("pillars", steps)
    for step in steps:
        if step not in prefixes:
            continue
        setup, actions = prefixes[step]
        enter: Scene = partial(_enter, journal=journal, setup=setup, actions=actions)
        yield f"pillars-{step}", enter
        for name, scene in _AT_STEP.get(step, ()):
            yield name, partial(scene, enter=enter)
    yield from _hand_outs(journal)
    yield from _visits(journal)
    yield from first_game_scenes("pillars", journal, *prefixes["draft"], _companion_purchase())


@cache
def _companion_purchase(seed: int = 1) -> tuple[Setup, list[str], int, str]:
    """A seeded game's first craftsman bought in the draft (a card and gold: what an undone
    move of the companion gives back), after the first round."""
    from companion.engine import get_game

    game = get_game("pillars")

    def pick(state: object, who: int, legal: list[object]) -> object | None:
        assert isinstance(state, PillarsState)
        if state.round < 2 or state.step != "draft":
            return None
        return next((a for a in legal if len(game.apply(state, a).seats[who].craftsmen)
                     > len(state.seats[who].craftsmen)), None)

    return seeded_move("pillars", 3, seed, pick)


def _help_open(app: Stage, enter: Scene) -> None:
    enter(app)
    _screen(app).help_open = True


def _rolled(app: Stage, enter: Scene) -> None:
    enter(app)
    _screen(app).roll_die()
    app.tick(5.0)


def _preview(app: Stage, enter: Scene) -> None:
    enter(app)
    app.render(force=True)
    from companion.kiosk.api import Button

    first = next(
        b
        for b in _screen(app).buttons
        if isinstance(b, Button) and b.key.startswith("resource ")
    )
    first.on_tap()


def _drawing(app: Stage, enter: Scene) -> None:
    enter(app)
    _screen(app).draw_builder()
    app.tick(0.2)


def _enter(app: Stage, journal: Journal, setup: Setup, actions: list[str]) -> None:
    """A step's scene: the position, its hand-out steps (shown on opening) taken as done."""
    enter_position(app, journal, setup, actions)
    if isinstance(app.screen, PillarsScreen):  # not the end screen
        app.screen.handouts.clear()


HAND_OUT_SCENES = ("event", "kingsbridge", "production", "tax", "shiring", "round")
"""The hand-out steps ``companion screenshots`` shows (a seeded game's first of each)."""


def hand_out_positions(seed: int = 3, players: int = 4) -> dict[str, tuple[Setup, list[str], str]]:
    """For each kind of hand-out step: a set-up, the actions before the action whose hand-out
    has it, and that action (a seeded random game, four players)."""
    import random

    from companion.engine import CHANCE
    from companion.engine.simulate import sample
    from companion.pillars import PillarsGame

    from .handouts import PillarsHandOuts

    game = PillarsGame()
    plan = PillarsHandOuts(game)
    rng = random.Random(seed)
    setup = game.setup(players)
    state = game.initial_state(setup)
    done: list[str] = []
    found: dict[str, tuple[Setup, list[str], str]] = {}
    while not game.is_over(state) and len(found) < len(HAND_OUT_SCENES):
        if game.current_player(state) == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = rng.choice(game.legal_actions(state))
        after = game.apply(state, action)
        for step in plan.steps(state, action, after):
            if step.key in HAND_OUT_SCENES and step.key not in found and state.round >= 2:
                found[step.key] = (setup, list(done), str(action))
        done.append(str(action))
        state = after
    return found


def _hand_outs(journal: Journal) -> Iterator[tuple[str, Scene]]:
    """One scene per kind of hand-out step, as the table sees it after the action."""
    for key, (setup, actions, action) in hand_out_positions().items():
        yield f"pillars-handout-{key}", partial(_hand_out, journal=journal, setup=setup,
                                                actions=actions, action=action, key=key)


def _hand_out(app: Stage, journal: Journal, setup: Setup, actions: list[str], action: str,
              key: str) -> None:
    _enter(app, journal, setup, actions)
    screen = _screen(app)
    screen.commit(screen.game.parse_action(action))
    while screen.handouts.current is not None and screen.handouts.current.key != key:
        screen.confirm_handout()


def _visits(journal: Journal) -> Iterator[tuple[str, Scene]]:
    """The companion's market visit, told in one instruction."""
    setups = find_prefixes("pillars", ["market"])
    if "market" in setups:
        setup, actions = setups["market"]
        yield "pillars-companion-visit", partial(_visit, journal=journal, setup=setup,
                                                 actions=actions)
    yield "pillars-companion-cathedral", partial(_cathedral_visit, journal=journal)


def _cathedral_visit(app: Stage, journal: Journal) -> None:
    """The companion's seat at the cathedral: every use of its craftsmen in one instruction
    (the longest sentences the table reads: each use with what goes back to the supply and
    the VP it makes), from the seeded game whose cathedral visit has the most uses."""

    setup, actions, plan = _longest_cathedral()
    _enter(app, journal, setup, list(actions))
    screen = _screen(app)
    session = screen.session
    state = screen.state
    session.companions[state.turn] = "normal"
    screen.handouts.clear()
    v: Visit[PillarsState, Action] = Visit(
        session.id, len(session.playthrough.actions), state, state.turn,
        Visiting(screen.same_visit))
    for a in plan:
        v.add(screen.game, a)
    v.done = True
    app.companion.settle(session, decision=plan[0] if plan else Action("done"))
    screen.visit = v


@cache
def _longest_cathedral(seeds: int = 12) -> tuple[Setup, tuple[str, ...], tuple[Action, ...]]:
    """The set-up, actions and cathedral visit (its crafts, then done) of the seeded random
    game whose visit uses the craftsmen most often."""
    import random

    from companion.engine import CHANCE, get_game
    from companion.engine.simulate import sample
    from companion.pillars.rules import PillarsGame

    game = get_game("pillars")
    assert isinstance(game, PillarsGame)
    best: tuple[int, Setup | None, tuple[str, ...], tuple[Action, ...]] = (-1, None, (), ())
    for seed in range(seeds):
        rng = random.Random(500 + seed)
        setup = game.setup(4)
        state = game.initial_state(setup)
        done: list[str] = []
        while not game.is_over(state):
            if state.step == "cathedral" and game.current_player(state) != CHANCE:
                plan, after = _crafts(game, state)
                if len(plan) > best[0]:
                    ends = [a for a in game.legal_actions(after) if a.verb in ("done", "pass")]
                    best = (len(plan), setup, tuple(done), (*plan, *ends[:1]))
            action = (sample(game.chance_outcomes(state), rng)
                      if game.current_player(state) == CHANCE
                      else rng.choice(game.legal_actions(state)))
            state = game.apply(state, action)
            done.append(str(action))
    assert best[1] is not None, "no seeded game reaches the cathedral"
    return best[1], best[2], best[3]


def _crafts(game: PillarsGame, state: PillarsState) -> tuple[list[Action], PillarsState]:
    """Every use of the craftsmen the seat at the cathedral can make, in turn; the state
    after them."""
    plan: list[Action] = []
    after = state
    while after.step == "cathedral" and after.turn == state.turn:
        crafts = [a for a in game.legal_actions(after) if a.verb == "craft"]
        if not crafts:
            break
        plan.append(crafts[len(plan) % len(crafts)])
        after = game.apply(after, plan[-1])
    return plan, after


def _visit(app: Stage, journal: Journal, setup: Setup, actions: list[str]) -> None:
    """A companion's seat alone at the market, its visit of up to three trades planned."""

    _enter(app, journal, setup, actions)
    screen = _screen(app)
    session = screen.session
    game = screen.game
    seat = screen.state.turn
    for _k in range(20):  # the others pass: the seat is alone at the market
        state = screen.state
        if state.step != "market" or state.turn == seat and _k:
            break
        if state.turn != seat:
            session.play(Action("pass"))
        else:
            trades = [a for a in game.legal_actions(state) if a.verb in ("buy", "sell")]
            session.play(trades[0] if trades else Action("pass"))
    state = screen.state
    seat = state.turn
    session.companions[seat] = "normal"
    plan: list[Action] = []
    after = state
    for _k in range(3):  # up to three trades, then done
        trades = [a for a in game.legal_actions(after) if a.verb in ("buy", "sell")]
        if not trades or after.step != "market" or after.turn != seat:
            break
        plan.append(trades[(_k * 7) % len(trades)])
        after = game.apply(after, plan[-1])
    if after.step == "market" and after.turn == seat:
        plan.append(Action("pass"))
    screen.handouts.clear()
    v: Visit[PillarsState, Action] = Visit(
        session.id, len(session.playthrough.actions), state, seat,
        Visiting(screen.same_visit))
    for a in plan:
        v.add(game, a)
    v.done = True
    app.companion.settle(session, decision=plan[0])
    screen.visit = v


def _round_end(app: Stage, enter: Scene) -> None:
    """The end of a round's breakdown (the round played out, first choices)."""
    enter(app)
    session = _screen(app).session
    start = session.state.round
    while session.state.round == start:
        session.play(session.game.legal_actions(session.state)[0])
    app.open_game()
    _screen(app).show_round_end(start)


def _preview_causes(app: Stage, enter: Scene) -> None:
    """A preview that changes several players (the event, the wool mill, the Priory...)."""
    enter(app)
    screen = _screen(app)
    session = screen.session
    game = screen.game
    for _k in range(200):  # first choices until one changes several players
        state = screen.state
        choices = [a for a, p in game.chance_outcomes(state) if p > 0] or list(
            game.legal_actions(state)
        )
        for action in choices:
            new = game.ledger(game.apply(state, action))[len(game.ledger(state)):]
            if len({e.player for e in new}) >= 3:
                app.open_game()
                _screen(app).propose(action)
                return
        session.play(choices[0])


def _hold_space(app: Stage, enter: Scene) -> None:
    enter(app)
    _screen(app).explain_space("kingsbridge1")


def _hold_card(app: Stage, enter: Scene) -> None:
    enter(app)
    screen = _screen(app)
    screen.explain_card(screen.state.pool[0])


def _log(app: Stage, enter: Scene) -> None:
    enter(app)
    app.go("log", previous=app.screen)


_AT_STEP: dict[str, list[tuple[str, SceneAt]]] = {
    "cathedral": [("pillars-help", _help_open), ("pillars-round-end", _round_end)],
    "roll": [("pillars-tax-result", _rolled)],
    "resource": [("pillars-preview", _preview)],
    "place": [("pillars-preview-causes", _preview_causes), ("pillars-hold-space", _hold_space),
              ("pillars-help-place", _help_open)],
    "draft": [("pillars-hold-card", _hold_card)],
    "market": [("pillars-log", _log)],
    "draw": [("pillars-drawing", _drawing)],
}
"""The other scenes at the position of a step (each entered there first): the help, the tax
result, a reveal's preview, the draw; the screens that explain points and pieces (the end of a
round, a preview by cause, a space or card held, the log)."""
