"""The hand-out step on a table screen: the queue of steps the table still hands out, the
step on show with one CONFIRM, the steps shown again when a game is opened, and what an undo
gives back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

import pygame

from companion.engine import RulesError
from companion.journal import GiveBack, JournalError
from companion.kiosk.faults import journal_message
from companion.kiosk.handout import SETUP, HandOut, HandOutQueue, draw_handout
from companion.kiosk.i18n import _

from .panel import StepPanel

if TYPE_CHECKING:
    from companion.engine import Game, Playthrough

    from .base import GameScreen


S = TypeVar("S")
A = TypeVar("A")


class HandOutView(StepPanel["GameScreen[S, A]"], Generic[S, A]):
    """The current hand-out step of the screen's queue."""

    def __init__(self, screen: GameScreen[S, A]) -> None:
        super().__init__(screen)
        self.queue = HandOutQueue()
        self.resumed = False  # the steps not yet confirmed are shown again once, on opening
        self.page = (-1, 0)  # (the step on show's id, its page): a long step is paged

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        s = self.screen
        step = self.queue.current
        if step is None:
            return
        def face(surf: pygame.Surface, rect: pygame.Rect, card: str, text: str) -> None:
            s.plan.draw_face(s, surf, rect, card, text)

        draw_handout(s, surface, area, step, s.state, s.game.name, s.confirm_handout,
                     card_text=s.handout_text(step), more=len(self.queue.pending) - 1,
                     face=face, companions=s.session.companions, page=self.page_of(),
                     turn_page=self.turn_page, board=s.plan.board(s.state))

    def page_of(self) -> int:
        """The page of the step on show (0 for a step just come)."""
        shown = id(self.queue.pending[0]) if self.queue.pending else -1
        return self.page[1] if self.page[0] == shown else 0

    def turn_page(self) -> None:
        """The next page of the step on show."""
        shown = id(self.queue.pending[0]) if self.queue.pending else -1
        self.page = (shown, self.page_of() + 1)

    def resume(self) -> None:
        """A game opened (after a restart, or resumed from home): what the journal says is
        still due, the first one on show: what its undos gave back and the table has not
        put back yet, then the hand-out steps not yet confirmed (the set-up's holdings
        included), each action's as it was dealt (by the virtual deck or by the table).  A
        game the kiosk did not begin, which stored no confirmation, shows its last action's
        steps again with a note (the table may have handed them out before the restart).
        Once a screen: its later showings (back from the log) keep the queue as it is."""
        if self.resumed:
            return
        self.resumed = True
        s = self.screen
        playthrough = s.session.playthrough
        actions, states = playthrough.actions, playthrough.states
        for back in s.session.give_backs():
            self.add_give_back(back)
        handed = s.session.handed_out()
        dealt = self.dealt()
        if handed is not None:
            if handed.through <= SETUP:
                self.queue.add(SETUP, s.plan.start_steps(states[0]), skip=handed.confirmed)
            for index, step in s.plan.replay(states, actions, handed.through, dealt):
                self.queue.add(index, [step], skip=handed.confirmed)
            return
        if not actions:
            return
        note = _("Shown again on opening the game: skip what was handed out already")
        for index, st in s.plan.replay(states, actions, _last_turn(s, states), dealt):
            self.queue.add(index, [HandOut(st.title, st.lines, st.card, (*st.notes, note),
                                           st.key)])

    def begin(self) -> None:
        """A new game, not yet in the journal (a screen made ahead for Start): the set-up's
        steps, as :meth:`resume` will find them once it is (nothing handed out yet)."""
        self.resumed = True
        states = self.screen.session.playthrough.states
        self.queue.add(SETUP, self.screen.plan.start_steps(states[0]))

    def dealt(self) -> list[bool]:
        """Who dealt each action, as the journal says (True: the virtual deck); an action of
        an older journal, which did not say, as the settings say now."""
        s = self.screen
        deck = bool(s.app.config.virtual_deck)
        return [deck if d is None else d for d in s.session.dealt()]

    def add_give_back(self, back: GiveBack) -> None:
        """Show first what an undo took back that had reached the table (the journal's
        ``back``), rebuilt from the actions in force before the undo."""
        s = self.screen
        game = s.game
        playthrough = s.session.playthrough
        try:
            actions = [game.parse_action(a) for a in back.actions]
            before = _state_before(game, playthrough, actions)
            after = game.apply(before, actions[-1])
        except RulesError:
            return  # (a journal the rules no longer read: nothing to rebuild it from)
        step = s.plan.give_back(before, actions[-1], after, back.steps, back.instructed)
        if step is not None:
            self.queue.give_back(back.seq, step)

    def confirm(self) -> bool:
        """The table handed out (or put back) the step on show: the journal stores it
        (committed before the next step is shown), then the queue moves on.  False, with the
        step still on show and the reason on screen, when the journal cannot write."""
        if not self.queue.pending:
            return False
        first = self.queue.pending[0]
        s = self.screen
        try:
            if first.back:
                s.session.confirm_give_back(first.back)
            else:
                done = self.queue.hand_outs_left() == 1 and not s.held_hand_outs()
                s.session.confirm_hand_out(first.index, first.id or "step", done=done)
        except JournalError as exc:  # not saved: the step stays, the message says what to do
            s.app.refuse(journal_message(exc))
            return False
        self.queue.confirm()
        return True

    def undo(self) -> None:
        """An undo: the undone action's steps not yet handed out go; what of it had reached
        the table (as the journal stored it with the undo) is to be put back, first."""
        s = self.screen
        index = len(s.session.playthrough.actions)
        self.queue.undo(index)
        backs = s.session.give_backs()
        if backs and backs[-1].index == index:
            self.add_give_back(backs[-1])


def _state_before(game: Game[S, A], playthrough: Playthrough[S, A], actions: Sequence[A]) -> S:
    """The state before the last of ``actions`` (those in force before an undo), from the
    playthrough's states where they agree, replayed by the rules past that."""
    shared = 0
    mine = playthrough.actions
    while shared < min(len(mine), len(actions) - 1) and mine[shared] == actions[shared]:
        shared += 1
    state = playthrough.states[shared]
    for action in actions[shared:-1]:
        state = game.apply(state, action)
    return state


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
