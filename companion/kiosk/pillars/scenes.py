"""The Pillars screens for ``companion screenshots``: every step of the round, the help, the
tax result, a reveal's preview and the draw."""

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
        if step == "draw":

            def drawing(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.draw_builder()
                app.tick(0.2)

            yield "pillars-drawing", drawing
