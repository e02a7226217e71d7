"""The rules' own changes handed out on a table screen, one step at a time (``HandOutView``)."""

from __future__ import annotations

import pygame

from companion.kiosk.handout import HandOut

from .core import A, S, TableScreen


class HandOuts(TableScreen[S, A]):
    """The part of a table screen for the hand-out steps: the step on show, its
    confirmation, and the hooks a game gives them (``handout_text``, ``handouts_done``,
    ``held_hand_outs``)."""

    def confirm_handout(self) -> None:
        """The table moved the pieces of the hand-out step on screen."""
        if self.handout_view.confirm():  # stored in the journal first
            self.handouts_done()

    def handouts_done(self) -> None:  # noqa: B027 - an optional hook
        """After a hand-out step is confirmed (the game over: the end screen)."""

    def held_hand_outs(self) -> int:
        """Hand-out steps due that wait outside the queue (behind a result on show)."""
        return 0

    def handout_text(self, step: HandOut) -> str:
        """What the card of a hand-out step does (drawn on it); none by default."""
        return ""

    def handout_panel(self, surface: pygame.Surface, area: pygame.Rect) -> bool:
        """The current hand-out step over ``area``; False when none is due."""
        if self.handouts.current is None:
            return False
        self.handout_view.render(surface, area)
        return True
