"""Pieces shared by the game screens: opening the right screen, the preview of an action's
effects, and the virtual deck."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engine import CHANCE, RulesError
from companion.engine.simulate import sample


def open_game(app: Any) -> None:
    """Show the session's game (or its end screen when it is over): ``App.open_game``."""
    app.open_game()


@dataclass
class Preview:
    """An action not yet taken, the state the rules computed for it (committed as it is on
    Confirm: the rules apply it once), its title and what would change."""

    action: Any
    after: Any
    title: str
    lines: list[tuple[str, str]]
    """(a player's colour or "", text)"""


def virtual_draw(app: Any, is_card_reveal: Any) -> int:
    """With the virtual deck on, let the companion reveal the cards the table would turn over
    (never the bag or the die: those have their own buttons).  Returns how many it drew."""
    if not app.config.virtual_deck or app.session is None:
        return 0
    game = app.session.game
    drawn = 0
    while True:
        state = app.session.state
        if game.current_player(state) != CHANCE or not is_card_reveal(state):
            return drawn
        outcome = sample(game.chance_outcomes(state), app.rng)
        try:
            app.session.play(outcome)
        except RulesError as exc:  # pragma: no cover - a sampled outcome is always legal
            app.refuse(app.refusal(exc))
            return drawn
        drawn += 1


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)
