"""The core of a game's table screen: the game on the table, the one way an action reaches the
journal, and the hooks a game overrides (``screens.base.GameScreen`` composes it with its
other parts: ``previews``, ``companion_seats``, ``handouts``, ``covers``).

Every part of the table screen is a class of its own module over :class:`TableScreen`, which
declares what the parts share (the game, the state, the preview waiting for Confirm, the
sections with state of their own: ``handout_view``, ``companion_view``, ``reader``,
``teacher``); ``GameScreen`` makes them and puts the parts together."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar, cast

from companion.engine import CHANCE, Game, Step
from companion.kiosk.handout import HandOutPlan, HandOutQueue

from .screen import Screen

if TYPE_CHECKING:
    from .companion_panel import CompanionPanel
    from .game import Preview
    from .handout_view import HandOutView
    from .read_view import ReadView
    from .teach import Teacher

S = TypeVar("S")
"""A game screen's state type (the game's own: ``PillarsState``)."""
A = TypeVar("A")
"""A game screen's action type (the game's own: ``pillars.actions.Action``)."""


class TableScreen(Screen, Generic[S, A]):
    """What every part of a game's table screen stands on: the game and its state, the way
    an action is committed (``commit``: through the journal, then its hand-out steps and the
    game's ``committed``), undo, the way home, and the hooks a game overrides (``teach_kind``,
    ``likely_now``, ``hand_out_plan``, ``committed``, ``act``)."""

    game: Game[S, A]
    ahead_state: S | None
    """A state drawn ahead (``ahead``), not the table's."""
    preview: Preview[S, A] | None
    """An action waiting for Confirm."""
    help_open: bool
    hint_open: bool
    """The companion's hint for the person deciding is on show."""
    tableau: int | None
    """The seat whose whole tableau is shown."""
    plan: HandOutPlan[S, A]
    handout_view: HandOutView[S, A]
    """The rules' own changes, step by step."""
    handouts: HandOutQueue
    companion_view: CompanionPanel[S, A]
    """The companion's visit, instruction, thinking, hint."""
    reader: ReadView[S, A]
    """A card or space read by a hold."""
    teacher: Teacher[S, A]
    """The help, opened on a new kind of step."""

    @property
    def state(self) -> S:
        """The state of the game on the table (the journal's playthrough's), or the one a
        frame drawn ahead shows (``ahead.drawing_ahead``)."""
        if self.ahead_state is not None:
            return self.ahead_state
        session = self.app.session
        assert session is not None, "a game screen without a game"
        return cast(S, session.state)

    def likely_now(self, legal: list[A]) -> list[A]:
        """Of ``legal``, those a first tap narrowed the next to (a worker picked: where it
        may go), drawn ahead before all (``screens.ahead``); none here."""
        return []

    def teach_kind(self, state: S) -> str:
        """The kind of step ``state`` is, for teach mode (``screens.teach``); "" for none."""
        return ""

    def home(self) -> None:
        """Back to the home screen; the game stays in the journal, to be resumed."""
        self.app.companion.close()
        self.app.session = None
        self.app.go("home")

    def undo(self) -> None:
        """Take back the last action (``HandOutView.undo``; the preview dropped)."""
        self.preview = None
        done = len(self.session.playthrough.actions)
        self.app.undo()
        if len(self.session.playthrough.actions) < done:
            self.handout_view.undo()

    def open_log(self) -> None:
        """The game so far in words (the log screen), closing back to this screen."""
        self.app.go("log", previous=self)

    def bar_bottom(self) -> int:
        """The game bar has a second row of buttons in portrait."""
        rows = 2 if self.m.portrait else 1
        return self.m.touch * rows + self.m.gap * (rows + 1)

    def can_undo(self) -> bool:
        """Whether Undo is offered (after a frame drawn ahead's action: unless a reveal)."""
        if self.ahead_state is None:
            return self.session.can_undo()
        return self.game.current_player(self.session.state) != CHANCE

    def commit(self, action: A, after: Step[S, A] | None = None, *, dealt: bool = False
               ) -> bool:
        """Commit ``action`` through the journal (``play``), then queue the hand-out steps of
        what the rules did by themselves and call ``committed``.  True if it was taken."""
        before, session = self.state, self.session
        index = len(session.playthrough.actions)
        if not self.play(action, after, dealt=dealt):
            return False
        self.hand_out(index, before, action, cast(S, session.state))
        self.committed(before, action)
        return True

    def play(self, action: A, after: Step[S, A] | None = None, *, dealt: bool = False
             ) -> bool:
        """The one place a table screen writes to the journal: a :class:`Step` the preview
        made is committed as it is (the journal refuses it if the game moved on since), anything
        else is applied by the journal.  ``dealt``: a card the companion's virtual deck dealt
        (else a chance outcome is the table's own: a tap, a card the camera read)."""
        if isinstance(after, Step):
            return self.app.play(after, dealt=dealt)
        return self.app.play(action, dealt=dealt)

    def committed(self, before: S, action: A) -> None:  # noqa: B027 - an optional hook
        """After a commit (sounds, animations, virtual cards, the end)."""

    def hand_out_plan(self) -> HandOutPlan[S, A]:
        """How this game splits the rules' own changes into steps (the default: by cause)."""
        return HandOutPlan(self.game)

    def hand_out(self, index: int, before: S, action: A, after: S) -> None:
        """Queue the hand-out steps of the action at ``index``."""
        self.handouts.add(index, self.plan.steps(before, action, after))

    def act(self, action: A) -> None:
        """Take ``action`` the way this screen takes actions (directly, or after a preview)."""
        self.app.play(action)
