"""Errors by kind: everything the rules refuse is a RulesError.

Each message names the input, the rule and the numbers, so the kiosk can show it as it is.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every refusal raised by a rules engine."""


class IllegalAction(RulesError, ValueError):
    """A well-formed action that the rules do not allow in this state.

    ``action`` is the action's notation, ``rule`` a short tag naming the rule broken.
    """

    def __init__(self, action: object, reason: str, rule: str | None = None) -> None:
        self.action = str(action)
        self.reason = reason
        self.rule = rule
        super().__init__(reason)


class MalformedAction(RulesError, ValueError):
    """Text that is not the notation of any action of the game."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"{text!r} is not an action: {reason}")


class AmbiguousAction(RulesError, ValueError):
    """An input (for example a camera reading) that matches several legal actions."""

    def __init__(self, text: str, candidates: list[str]) -> None:
        self.text = text
        self.candidates = candidates
        super().__init__(f"{text!r} matches {len(candidates)} actions: {', '.join(candidates)}")


class UndoBlocked(RulesError):
    """Undo would take back a draw, a roll or a reveal (an information barrier)."""


class SetupError(RulesError, ValueError):
    """A game set-up that the rules do not allow (player count, names, colours, options)."""


class RecordError(RulesError, ValueError):
    """A game record that cannot be read or replayed.

    ``position`` is the 1-based index of the offending action, or None for the header.
    """

    def __init__(self, reason: str, position: int | None = None, action: str | None = None):
        self.position = position
        self.action = action
        self.reason = reason
        where = "" if position is None else f"action {position} ({action!r}): "
        super().__init__(where + reason)
