"""The hand-out step on a table screen: the queue of steps the table still hands out, the
step on show with one CONFIRM, the steps shown again when a game is opened, and what an undo
gives back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

import pygame

from companion.kiosk.handout import HandOut, HandOutQueue, draw_handout
from companion.kiosk.i18n import _

from .panel import StepPanel

if TYPE_CHECKING:
    from .base import GameScreen


S = TypeVar("S")
A = TypeVar("A")


class HandOutView(StepPanel["GameScreen[S, A]"], Generic[S, A]):
    """The current hand-out step of the screen's queue."""

    def __init__(self, screen: GameScreen[S, A]) -> None:
        super().__init__(screen)
        self.queue = HandOutQueue()

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        s = self.screen
        step = self.queue.current
        if step is None:
            return
        draw_handout(s, surface, area, step, s.state, s.game.name, s.confirm_handout,
                     card_text=s.handout_text(step), more=len(self.queue.pending) - 1)

    def resume(self) -> None:
        """A game opened (after a restart, or resumed from home): the hand-out steps of the
        journal's last action, shown again with a note (the table may have handed them out
        before the restart); the journal, not memory, says what they are."""
        s = self.screen
        playthrough = s.session.playthrough
        actions, states = playthrough.actions, playthrough.states
        if not actions:
            return
        steps = s.plan.steps(states[-2], actions[-1], states[-1])
        note = _("Shown again on opening the game: skip what was handed out already")
        self.queue.add(len(actions) - 1, [
            HandOut(st.title, st.lines, st.card, (*st.notes, note), st.key) for st in steps
        ])

    def undo(self) -> None:
        """An undo: the undone action's steps not yet handed out go, those handed out are to
        be given back."""
        index = len(self.screen.session.playthrough.actions)
        self.queue.undo(index, _("Undone: put these back"))


__all__ = ["HandOutView"]
