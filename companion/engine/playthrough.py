"""One game at the table: the states so far, the actions that made them, and undo.

Undo rule: an action can be taken back only if it was a decision.  A chance outcome (a builder
drawn from the bag, a die roll, a card revealed) is an information barrier: once the table has
seen it, undo stops there, so undo can never become a re-roll or a peek.  Undo steps back one
decision at a time until it reaches the last barrier.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from . import contract
from .core import CHANCE, Game, Setup, Step
from .errors import IllegalAction, UndoBlocked
from .record import Record
from .summary import Period

S = TypeVar("S")
A = TypeVar("A")


class Playthrough(Generic[S, A]):
    """A mutable log around immutable states: play, undo, record."""

    def __init__(self, game: Game[S, A], setup: Setup, seed: int | None = None) -> None:
        self.game = game
        self.setup = setup
        self.seed = seed
        self._states: list[S] = [contract.state(game, "initial_state()",
                                                game.initial_state(setup))]
        self._actions: list[A] = []
        self._barrier: list[bool] = []
        self._periods: list[Period] = []  # of the states, from the first: counted when asked

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def period(self) -> Period:
        """The period of the current state (``Game.period_after``: the game's own, or its
        turns counted from the first state), checked to be a ``Period``."""
        if self.game.own_periods():
            return contract.period(self.game, self.game.period_of(self._states[-1]))
        while len(self._periods) < len(self._states):
            last = self._periods[-1] if self._periods else None
            found = self.game.period_after(last, self._states[len(self._periods)])
            self._periods.append(contract.period(self.game, found))
        return self._periods[len(self._states) - 1]

    @property
    def actions(self) -> tuple[A, ...]:
        return tuple(self._actions)

    @property
    def states(self) -> tuple[S, ...]:
        """The state before each action and the one after the last (one more than
        ``actions``), so a log of the game needs no replay."""
        return tuple(self._states)

    def play(self, action: A | str) -> S:
        """Apply a decision or a chance outcome (an action or its notation); the new state.

        Raises MalformedAction or IllegalAction and changes nothing on refusal."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        return self.commit(self.game.step(self._states[-1], action))

    def commit(self, step: Step[S, A]) -> S:
        """Take a :class:`~companion.engine.core.Step` made on the current state (a preview
        the table confirmed) as it is, the rules not applied again; the new state.  Raises
        IllegalAction for a step made on another state, and changes nothing then."""
        self.check_step(step)
        barrier = contract.player(self.game, step.before,
                                  self.game.current_player(step.before)) == CHANCE
        self._states.append(step.after)
        self._actions.append(step.action)
        self._barrier.append(barrier)
        return step.after

    def check_step(self, step: Step[S, A]) -> None:
        """Raise IllegalAction unless ``step`` was made on the current state (a preview made
        before the table moved on is stale)."""
        if step.before is not self._states[-1]:
            raise IllegalAction(
                step.action,
                f"{self.game.format_action(step.action)} was previewed on an earlier state of "
                "the game; preview it again",
                "stale",
            )

    def can_undo(self) -> bool:
        return bool(self._actions) and not self._barrier[-1]

    def undo(self) -> A:
        """Take back the last decision and return it; raises UndoBlocked at a barrier."""
        if not self._actions:
            raise UndoBlocked("nothing to undo: the game has just begun")
        if self._barrier[-1]:
            raise UndoBlocked(
                f"cannot undo {self.game.format_action(self._actions[-1])}: it revealed "
                "information (a draw, a roll or a card), and undo never becomes a re-roll"
            )
        self._states.pop()
        del self._periods[len(self._states):]
        self._barrier.pop()
        return self._actions.pop()

    def record(self, **meta: Any) -> Record:
        return Record(
            self.setup,
            tuple(self.game.format_action(a) for a in self._actions),
            self.seed,
            dict(meta),
        )

    @classmethod
    def from_record(cls, game: Game[S, A], record: Record) -> Playthrough[S, A]:
        """Replay ``record`` into a playthrough; raises RecordError at a bad action."""
        from .errors import RecordError, RulesError

        try:
            pt = cls(game, record.setup, record.seed)
        except RulesError as exc:
            raise RecordError(f"bad set-up: {exc}") from None
        for i, text in enumerate(record.actions, 1):
            try:
                pt.play(text)
            except RulesError as exc:
                raise RecordError(str(exc), i, text) from None
        return pt
