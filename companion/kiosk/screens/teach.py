"""Teach mode: a table that learns as it plays.

The first time each kind of step appears in a game (the game's ``GameScreen.teach_kind``: a
Pillars step, a Builders turn), the screen opens its help by itself: what happens and why, the
rule with this moment's numbers, under the title "New: ...".  One tap closes it (the help's
Close, or CONFIRM); "?" opens the same help again at any time.

It is on as the settings say (``teach``): ``first`` (the default) during the table's first
game of each title, as the journal knows them; ``on`` always; ``off`` never.  A kind is new
when no state before the one on the table had it (the journal's playthrough: a restart on a
step that was new still teaches it, an undo back into an old one does not).  Only a step a
person (or the table, for a draw or a reveal) takes is taught, never the companion's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from companion.journal import JournalError

if TYPE_CHECKING:
    from .base import GameScreen


S = TypeVar("S")
A = TypeVar("A")


class Teacher(Generic[S, A]):
    """The kinds of step a game screen has taught, and whether it teaches at all; the help's
    page."""

    def __init__(self, screen: GameScreen[S, A]) -> None:
        self.screen = screen
        self.teaching = ""  # the kind whose help is open because it is new
        self.taught: set[str] = set()  # kinds opened (or found old) on this screen
        self.seen: set[str] = set()  # kinds of the states before ``upto``
        self.upto = 0
        self.on_for: tuple[int, bool] = (-1, False)  # (game id, teaching it)
        self.page = 0  # the help's page on show (a long help is paged)

    def next_page(self) -> None:
        self.page += 1

    def enabled(self) -> bool:
        """Whether this game teaches (the settings' ``teach``; ``first``: the journal has no
        earlier game of this title)."""
        s = self.screen
        mode = s.app.config.teach
        if mode != "first":
            return mode == "on"
        session = s.session
        if self.on_for[0] != session.id:
            journal = s.app.journal
            try:
                first = journal.first_of(session.game.name) if journal is not None else None
            except JournalError:
                first = None
            self.on_for = (session.id, first is None or first >= session.id)
        return self.on_for[1]

    def update(self) -> bool:
        """Open the help on a new kind of step (True: the screen is to be drawn again)."""
        s = self.screen
        if not s.help_open:
            self.teaching = ""
        if s.help_open or not self.enabled():
            return False
        kind = s.teach_kind(s.state)
        if not kind or kind in self.taught or not self._ready():
            return False
        self.taught.add(kind)
        if kind in self._seen_before():
            return False
        self.teaching = kind
        s.help_open = True
        return True

    def closed(self) -> None:
        """The help was closed (or opened): the kind it taught is done; its first page next."""
        self.teaching = ""
        self.page = 0

    def _ready(self) -> bool:
        """Nothing else is due first (a hand-out, a preview, the companion's move)."""
        from companion.engine import CHANCE
        from companion.kiosk.seats import Companion

        s = self.screen
        if s.handouts.current is not None or s.preview is not None or s.animating():
            return False
        state = s.state
        return bool(s.game.current_player(state) == CHANCE
                    or Companion.person_decides(s.session, state))

    def _seen_before(self) -> set[str]:
        """The kinds of the states before the one on the table (kept up as the game goes)."""
        s = self.screen
        states = s.session.playthrough.states
        last = len(states) - 1
        if last < self.upto:  # an undo: looked at again from the start
            self.seen, self.upto = set(), 0
        from companion.engine import CHANCE
        from companion.kiosk.seats import Companion

        for state in states[self.upto:last]:  # the steps the people (or the table) took
            if (s.game.current_player(state) == CHANCE
                    or Companion.person_decides(s.session, state)):
                self.seen.add(s.teach_kind(state))
        self.upto = last
        return self.seen


__all__ = ["Teacher"]
