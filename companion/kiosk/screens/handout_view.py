"""The hand-out step on a table screen: the queue of steps the table still hands out, the
step on show with one CONFIRM, the steps shown again when a game is opened, and what an undo
gives back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

import pygame

from companion.journal import JournalError
from companion.kiosk.faults import journal_message
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
        self.resumed = False  # the steps not yet confirmed are shown again once, on opening

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        s = self.screen
        step = self.queue.current
        if step is None:
            return
        def face(surf: pygame.Surface, rect: pygame.Rect, card: str, text: str) -> None:
            s.plan.draw_face(s, surf, rect, card, text)

        draw_handout(s, surface, area, step, s.state, s.game.name, s.confirm_handout,
                     card_text=s.handout_text(step), more=len(self.queue.pending) - 1,
                     face=face, companions=s.session.companions)

    def resume(self) -> None:
        """A game opened (after a restart, or resumed from home): the hand-out steps not yet
        confirmed, from the journal (it stores each confirmation), the first one on show.
        A game of an older journal, which stored none, shows its last action's steps again
        with a note (the table may have handed them out before the restart).  Once a screen:
        its later showings (back from the log) keep the queue as it is."""
        if self.resumed:
            return
        self.resumed = True
        s = self.screen
        playthrough = s.session.playthrough
        actions, states = playthrough.actions, playthrough.states
        if not actions:
            return
        handed = s.session.handed_out()
        deck = bool(s.app.config.virtual_deck)
        if handed is not None:
            for index, step in s.plan.replay(states, actions, handed.through, deck):
                self.queue.add(index, [step], skip=handed.confirmed)
            return
        note = _("Shown again on opening the game: skip what was handed out already")
        for index, st in s.plan.replay(states, actions, _last_turn(s, states), deck):
            self.queue.add(index, [HandOut(st.title, st.lines, st.card, (*st.notes, note),
                                           st.key)])

    def confirm(self) -> bool:
        """The table handed out the step on show: the journal stores it (committed before the
        next step is shown), then the queue moves on.  False, with the step still on show and
        the reason on screen, when the journal cannot write."""
        if not self.queue.pending:
            return False
        first = self.queue.pending[0]
        s = self.screen
        try:
            s.session.confirm_hand_out(first.index if first.index >= 0 else None,
                                       first.id or "step", done=len(self.queue.pending) == 1)
        except JournalError as exc:  # not saved: the step stays, the message says what to do
            s.app.refuse(journal_message(exc))
            return False
        self.queue.confirm()
        return True

    def undo(self) -> None:
        """An undo: the undone action's steps not yet handed out go, those handed out are to
        be given back."""
        index = len(self.screen.session.playthrough.actions)
        self.queue.undo(index, _("Undone: put these back"))


def _last_turn(screen: GameScreen[S, A], states: Sequence[S]) -> int:
    """The index of the last action, or of the first of the cards dealt (the chance
    outcomes) in a row at the end: what a game without stored confirmations shows again."""
    from companion.engine import CHANCE

    game = screen.game
    at = len(states) - 2
    while at > 0 and game.current_player(states[at - 1]) == CHANCE and \
            game.current_player(states[at]) == CHANCE:
        at -= 1
    return at


__all__ = ["HandOutView"]
