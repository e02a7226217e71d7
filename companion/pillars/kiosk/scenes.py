"""The Pillars screens for ``companion screenshots``: every step of the round, the help, the
tax result, a reveal's preview and the draw; the end of a round's breakdown, a preview by
cause, a card and a space read by a hold, the help with this moment's numbers, the log."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Any

from companion.kiosk.screenshots import enter_position, find_prefixes
from companion.pillars.rules import STEPS


def key(state: Any) -> str:
    """The kind of screen a state shows: its step of the round."""
    return str(state.step)


def scenes(journal: Any) -> Iterator[tuple[str, Callable[[Any], None]]]:
    """(name, set-up function) for every Pillars screen."""
    steps = [s for s, who, _h in STEPS if s != "over"] + ["over"]
    prefixes = find_prefixes("pillars", steps)
    for step in steps:
        if step not in prefixes:
            continue
        setup, actions = prefixes[step]

        enter = partial(_enter, journal=journal, setup=setup, actions=actions)

        yield f"pillars-{step}", enter
        if step == "cathedral":

            def help_open(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.help_open = True

            yield "pillars-help", help_open
        if step == "roll":

            def rolled(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.roll_die()
                app.tick(5.0)

            yield "pillars-tax-result", rolled
        if step == "resource":

            def preview(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.render(force=True)
                from companion.kiosk.ui import Button

                first = next(
                    b
                    for b in app.screen.buttons
                    if isinstance(b, Button) and b.key.startswith("resource ")
                )
                first.on_tap()

            yield "pillars-preview", preview
        yield from _explained(step, enter)
        if step == "draw":

            def drawing(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.draw_builder()
                app.tick(0.2)

            yield "pillars-drawing", drawing
    yield from _hand_outs(journal)
    yield from _visits(journal)


def _enter(app: Any, journal: Any, setup: Any, actions: list[str]) -> None:
    """A step's scene: the position, its hand-out steps (shown on opening) taken as done."""
    enter_position(app, journal, setup, actions)
    handouts = getattr(app.screen, "handouts", None)
    if handouts is not None:
        handouts.clear()


HAND_OUT_SCENES = ("event", "kingsbridge", "production", "tax", "shiring", "round")
"""The hand-out steps ``companion screenshots`` shows (a seeded game's first of each)."""


def hand_out_positions(seed: int = 3, players: int = 4) -> dict[str, tuple[Any, list[str], str]]:
    """For each kind of hand-out step: a set-up, the actions before the action whose hand-out
    has it, and that action (a seeded random game, four players)."""
    import random

    from companion.engine import CHANCE, get_game
    from companion.engine.simulate import sample

    from .handouts import PillarsHandOuts

    game = get_game("pillars")
    plan = PillarsHandOuts(game)
    rng = random.Random(seed)
    setup = game.setup(players)
    state = game.initial_state(setup)
    done: list[str] = []
    found: dict[str, tuple[Any, list[str], str]] = {}
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


def _hand_outs(journal: Any) -> Iterator[tuple[str, Callable[[Any], None]]]:
    """One scene per kind of hand-out step, as the table sees it after the action."""
    for key, (setup, actions, action) in hand_out_positions().items():

        def scene(app: Any, setup: Any = setup, actions: list[str] = actions,
                  action: str = action, key: str = key) -> None:
            _enter(app, journal, setup, actions)
            screen = app.screen
            screen.commit(screen.game.parse_action(action))
            while screen.handouts.current is not None and screen.handouts.current.key != key:
                screen.confirm_handout()

        yield f"pillars-handout-{key}", scene


def _visits(journal: Any) -> Iterator[tuple[str, Callable[[Any], None]]]:
    """The companion's market visit, told in one instruction."""
    setups = find_prefixes("pillars", ["market"])
    if "market" not in setups:
        return
    setup, actions = setups["market"]

    def visit(app: Any) -> None:
        from companion.kiosk import visit as visits
        from companion.pillars.actions import Action

        _enter(app, journal, setup, actions)
        screen = app.screen
        session = app.session
        game = screen.game
        seat = session.state.turn
        for _k in range(20):  # the others pass: the seat is alone at the market
            state = session.state
            if state.step != "market" or state.turn == seat and _k:
                break
            if state.turn != seat:
                session.play(Action("pass"))
            else:
                trades = [a for a in game.legal_actions(state) if a.verb in ("buy", "sell")]
                session.play(trades[0] if trades else Action("pass"))
        state = session.state
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
        after = state
        screen.handouts.clear()
        v = visits.Visit(session.id, len(session.playthrough.actions), seat, [state])
        for a in plan:
            after = game.apply(after, a)
            v.actions.append(a)
            v.states.append(after)
        v.done = True
        app.companion.settle(session, decision=plan[0])
        screen.visit = v

    yield "pillars-companion-visit", visit
    yield "pillars-companion-cathedral", partial(_cathedral_visit, journal=journal)


def _cathedral_visit(app: Any, journal: Any) -> None:
    """The companion's seat at the cathedral: every use of its craftsmen in one instruction
    (the longest sentences the table reads: each use with what goes back to the supply and
    the VP it makes), from the seeded game whose cathedral visit has the most uses."""
    from companion.kiosk import visit as visits
    from companion.pillars.actions import Action

    setup, actions, plan = _longest_cathedral()
    _enter(app, journal, setup, list(actions))
    session = app.session
    state = session.state
    session.companions[state.turn] = "normal"
    v = visits.Visit(session.id, len(session.playthrough.actions), state.turn, [state])
    for a in plan:
        v.actions.append(a)
        v.states.append(session.game.apply(v.states[-1], a))
    v.done = True
    app.companion.settle(session, decision=plan[0] if plan else Action("done"))
    app.screen.visit = v


@cache
def _longest_cathedral(seeds: int = 12) -> tuple[Any, tuple[str, ...], tuple[Any, ...]]:
    """The set-up, actions and cathedral visit (its crafts, then done) of seeded random
    games whose visit uses the craftsmen most often."""
    import random

    from companion.engine import CHANCE, get_game
    from companion.engine.simulate import sample

    game = get_game("pillars")
    best: tuple[int, Any, tuple[str, ...], tuple[Any, ...]] = (-1, None, (), ())
    for seed in range(seeds):
        rng = random.Random(500 + seed)
        setup = game.setup(4)
        state = game.initial_state(setup)
        done: list[str] = []
        while not game.is_over(state):
            if state.step == "cathedral" and game.current_player(state) != CHANCE:
                plan: list[Any] = []
                after = state
                while after.step == "cathedral" and after.turn == state.turn:
                    crafts = [a for a in game.legal_actions(after) if a.verb == "craft"]
                    if not crafts:
                        break
                    plan.append(crafts[len(plan) % len(crafts)])
                    after = game.apply(after, plan[-1])
                if len(plan) > best[0]:
                    ends = [a for a in game.legal_actions(after) if a.verb in ("done", "pass")]
                    best = (len(plan), setup, tuple(done), (*plan, *ends[:1]))
            action = (sample(game.chance_outcomes(state), rng)
                      if game.current_player(state) == CHANCE
                      else rng.choice(game.legal_actions(state)))
            state = game.apply(state, action)
            done.append(str(action))
    return best[1], best[2], best[3]


def _explained(
    step: str, enter: Callable[[Any], None]
) -> Iterator[tuple[str, Callable[[Any], None]]]:
    """The screens that explain points and pieces, at the positions of ``step``."""
    if step == "cathedral":

        def round_end(app: Any) -> None:
            enter(app)
            session = app.session
            start = session.state.round
            while session.state.round == start:  # the round played out, first choices
                session.play(session.game.legal_actions(session.state)[0])
            app.open_game()
            app.screen.show_round_end(start)

        yield "pillars-round-end", round_end
    if step == "place":

        def preview_causes(app: Any) -> None:  # the event, the wool mill, the Priory...
            enter(app)
            session = app.session
            game = session.game
            for _k in range(200):  # first choices until one changes several players
                state = session.state
                choices = [a for a, p in game.chance_outcomes(state) if p > 0] or list(
                    game.legal_actions(state)
                )
                for action in choices:
                    new = game.ledger(game.apply(state, action))[len(game.ledger(state)):]
                    if len({e.player for e in new}) >= 3:
                        app.open_game()
                        app.screen.propose(action)
                        return
                session.play(choices[0])

        yield "pillars-preview-causes", preview_causes
    if step == "place":

        def hold_space(app: Any) -> None:
            enter(app)
            app.screen.explain_space("kingsbridge1")

        def help_place(app: Any) -> None:
            enter(app)
            app.screen.help_open = True

        yield "pillars-hold-space", hold_space
        yield "pillars-help-place", help_place
    if step == "draft":

        def hold_card(app: Any) -> None:
            enter(app)
            app.screen.explain_card(app.session.state.pool[0])

        yield "pillars-hold-card", hold_card
    if step == "market":

        def log(app: Any) -> None:
            enter(app)
            app.go("log", previous=app.screen)

        yield "pillars-log", log
