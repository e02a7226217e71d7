"""Pieces shared by the game screens: opening the right screen, the preview of an action's
effects, and the virtual deck."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from companion.engine import CHANCE, RulesError, Step
from companion.engine.simulate import sample
from companion.journal import JournalError
from companion.kiosk.faults import journal_message

if TYPE_CHECKING:
    from companion.journal import JournaledGame
    from companion.kiosk.context import Kiosk

S = TypeVar("S")
A = TypeVar("A")


def hand_outs_due(session: JournaledGame) -> bool:
    """Whether the journal says some of the game's last changes may not be handed out yet
    (steps confirmed through an earlier action than the last: a finished game then opens on
    its table screen, which shows them before the end screen)."""
    try:
        handed = session.handed_out()
    except JournalError:
        return False
    return handed is not None and handed.through < len(session.playthrough.actions)


def open_game(app: Kiosk) -> None:
    """Show the session's game (or its end screen when it is over): ``App.open_game``.  A
    table screen calls it once a finished game has nothing left to show or hand out: the
    journal notes that everything was handed out first, so a restart opens the end screen
    rather than the table (a step the table had not confirmed would open the table)."""
    session = app.session
    if session is not None and session.is_over() and hand_outs_due(session):
        try:
            session.all_handed_out()
        except JournalError as exc:  # not noted: a restart asks again; the end screen now
            app.refuse(journal_message(exc))
            app.go("end", game_id=session.id)
            return
    app.open_game()


class Preview(Generic[S, A]):
    """An action not yet taken, the state it would lead to, and what would change.

    Made from a :class:`~companion.engine.Step` (``Preview.of(app.preview(action), ...)``),
    it commits that step as it is (``app.play(preview.taken)``): the rules applied once for
    the preview, never again for the commit.  ``action`` and ``after`` are the game's own
    (typed by the screen's ``GameScreen[S, A]``)."""

    def __init__(self, step: Step[S, A], title: str, lines: list[tuple[str, str]]) -> None:
        self.step = step
        self.title = title
        self.lines = lines  # (colour or "", text)

    @classmethod
    def of(cls, step: Step[S, A], title: str, lines: list[tuple[str, str]]) -> Preview[S, A]:
        """The preview of ``step`` (``Game.step``, ``App.preview``)."""
        return cls(step, title, lines)

    @property
    def action(self) -> A:
        """The action previewed."""
        return self.step.action

    @property
    def after(self) -> S:
        """The state it leads to (computed once, by the rules, for the preview)."""
        return self.step.after

    @property
    def taken(self) -> Step[S, A]:
        """What to give ``App.play`` to commit it: the step itself, not applied again."""
        return self.step


def virtual_draw(app: Kiosk, is_card_reveal: Callable[[S], bool]) -> int:
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
            app.session.play(outcome, dealt=True)
        except RulesError as exc:  # pragma: no cover - a sampled outcome is always legal
            app.refuse(app.refusal(exc))
            return drawn
        drawn += 1


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)
