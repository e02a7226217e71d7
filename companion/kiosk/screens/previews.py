"""An action proposed, previewed and confirmed: a tap, a card the camera read, a button of an
action the engine may refuse (with its reason)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion.engine import CHANCE, RulesError
from companion.kiosk.i18n import _
from companion.kiosk.inputs import Card
from companion.kiosk.words import game_title, words_for

from .core import A, S, TableScreen

if TYPE_CHECKING:
    from companion.kiosk.context import Kiosk
from .game import Preview


class Previews(TableScreen[S, A]):
    """The part of a table screen that takes an action: ``propose`` applies it once, shows
    what it changes when the game ``wants_preview`` (Confirm commits that same result) or
    commits it; a card the camera read is proposed the same way; an action button is enabled
    when the engine allows it and gives the engine's reason when it does not."""

    def card_seen(self, seen: Card) -> None:
        """A card read by the camera: the outcome of the reveal the table is waiting for (the
        engine decides), previewed like a tapped one."""
        if self.preview is not None:
            return  # one reveal at a time: the table confirms what it showed first
        outcome = self.read_card(seen)
        if outcome is not None:
            self.propose(outcome)

    def read_card(self, seen: Card) -> A | None:
        """The chance outcome a card read by the camera stands for (the engine decides), or
        None when it is refused: the reason in the table's language, on the toast and the
        camera's chip."""
        if foreign_card(self.app, self.game.name, seen):
            return None
        try:
            return self.game.outcome_for_card(self.state, seen.card)
        except RulesError as exc:
            reason = words_for(self.game.name).refusal(exc, self.state)
            self.app.refuse(reason)
            self.app.notify("card-refused", reason)
            return None

    def card_refusal(self, card: str) -> str:
        """Why ``card`` cannot be the one revealed now, in the table's language (a picker's
        card that is out); empty when it can."""
        try:
            self.game.outcome_for_card(self.state, card)
        except RulesError as exc:
            return words_for(self.game.name).refusal(exc, self.state)
        return ""

    def propose(self, action: A) -> None:
        """Take ``action``: the rules apply it once; when ``wants_preview`` says so, the table
        sees what it changes first (Confirm commits that same result), else it is committed."""
        state = self.state
        try:
            step = self.game.step(state, action)  # committed as it is: the rules applied once
        except RulesError as exc:
            self.app.refuse(self.app.refusal(exc))
            return
        after = step.after
        if self.wants_preview(state, action, after):
            self.preview = Preview.of(step, self.preview_title(state, action),
                                      self.preview_lines(state, after))
            return
        self.commit(action, step)

    def wants_preview(self, state: S, action: A, after: S) -> bool:
        """Whether ``action`` is shown before it is committed (by default: a reveal)."""

        return bool(self.game.current_player(state) == CHANCE)

    def preview_title(self, state: S, action: A) -> str:
        return words_for(self.game.name).action_text(state, action)

    def preview_lines(self, state: S, after: S) -> list[tuple[str, str]]:
        from companion.kiosk.breakdown import change_lines

        return change_lines(self.game, state, after)

    def confirm_preview(self) -> None:
        """Confirm: the previewed action is committed with the state the preview computed."""
        p = self.preview
        self.preview = None
        if p is not None:
            self.commit(p.action, p.step)

    def cancel_preview(self) -> None:
        self.preview = None

    def reason(self, action: A) -> str:
        """Why the engine refuses ``action`` now (shown when a disabled button is tapped)."""
        try:
            self.game.apply(self.state, action)
        except RulesError as exc:
            return words_for(self.game.name).refusal(exc, self.state)
        return ""

    def action_button(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        label: str,
        action: A,
        legal: set[str],
        *,
        key: str = "",
        **options: Any,
    ) -> None:
        """A button that takes ``action``: enabled when the engine allows it, and when it
        does not, a tap shows the engine's reason."""
        self.button(
            surface,
            rect,
            label,
            partial(self.act, action),
            key=key or str(action),
            enabled=str(action) in legal,
            why=partial(self.reason, action),
            **options,
        )


def foreign_card(app: Kiosk, game: str, seen: Card) -> bool:
    """True (and refused with the reason) when the camera read a card of another game than
    ``game``."""
    if seen.game == game:
        return False
    app.refuse(_("That card belongs to {game}, not to this game", game=game_title(seen.game)))
    return True
