"""The Builders screens for ``companion screenshots``: a reveal, turns, the last round, the
end, a worker picked, a completion, the help, a card read by a hold and the log."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from companion.builders.cards import BUILDING
from companion.kiosk.i18n import _
from companion.kiosk.screenshots import enter_position, find_prefixes
from companion.kiosk.words import card_name

from .screen import screen_key


def key(state: Any) -> str:
    """The kind of screen a state shows."""
    return screen_key(state)


def scenes(journal: Any) -> Iterator[tuple[str, Callable[[Any], None]]]:
    """Screens of The Builders for ``companion screenshots``."""
    keys = ["reveal", "turn", "turn-sites", "last-round", "over"]
    prefixes = find_prefixes("builders", keys, players=3)
    for key in keys:
        if key not in prefixes:
            continue
        setup, actions = prefixes[key]

        enter = partial(
            enter_position, journal=journal, setup=setup, actions=actions, virtual_deck=False
        )

        yield f"builders-{key}", enter
        if key == "turn-sites":

            def selected(app: Any, enter: Any = enter) -> None:
                enter(app)
                me = app.session.state.players[app.session.state.turn_player]
                app.screen.selected = me.idle[0]

            yield "builders-send", selected

            def celebrate(app: Any, enter: Any = enter) -> None:
                enter(app)
                card = BUILDING["abbaye"]
                line = _(
                    "{name} completes {card}: +{coins} coins, +{vp} VP",
                    name="Ann",
                    card=card_name("builders", card.id),
                    coins=card.coins,
                    vp=card.vp,
                )
                app.screen.celebrate = (1.0, [line])

            yield "builders-complete", celebrate

            def helped(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.help_open = True

            yield "builders-help", helped

            def hold_card(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.explain(app.session.state.building_row[0])

            yield "builders-hold-card", hold_card

            def log(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.go("log", previous=app.screen)

            yield "builders-log", log
