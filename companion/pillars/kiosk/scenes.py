"""The Pillars screens for ``companion screenshots``: every step of the round, the help, the
tax result, a reveal's preview and the draw; the end of a round's breakdown, a preview by
cause, a card and a space read by a hold, the help with this moment's numbers, the log."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
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

        enter = partial(enter_position, journal=journal, setup=setup, actions=actions)

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
