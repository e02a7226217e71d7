"""Errors by kind: everything the rules refuse is a RulesError.

Every refusal carries three things:

- ``rule``: a stable tag naming the rule broken (``"phase2.cost"``, ``"chance.revealed"``), the
  same in every language and every release; each game documents its tags in its ``docs`` page;
- ``fields``: the numbers and names the rule speaks of, as named values (``player`` a seat,
  ``cost``, ``gold``, ``card`` a card id...), so a screen can word the refusal in any language;
- ``str(error)``: an English sentence for logs and the command line, bounded in length whatever
  the input (:data:`MAX_MESSAGE`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_MESSAGE = 300
"""The longest message a refusal carries, in characters (longer text is cut with an ellipsis)."""

MAX_TEXT = 80
"""The longest piece of user input (a notation, a card id) quoted in a message."""

FieldValue = int | str | tuple[int, ...] | tuple[str, ...]


def bounded(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to at most ``limit`` characters, control characters shown as escapes."""
    if not text.isprintable():
        text = "".join(
            c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
            for c in text
        )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clean_fields(fields: Mapping[str, Any]) -> dict[str, FieldValue]:
    out: dict[str, FieldValue] = {}
    for key, value in fields.items():
        if isinstance(value, bool):
            out[key] = int(value)
        elif isinstance(value, int):
            out[key] = value
        elif isinstance(value, (tuple, list)):
            items = [v if isinstance(v, int) else bounded(str(v), MAX_TEXT) for v in value[:40]]
            out[key] = tuple(items)  # type: ignore[assignment]
        else:
            out[key] = bounded(str(value), MAX_TEXT)
    return out


class RulesError(Exception):
    """Base class of every refusal raised by a rules engine.

    ``rule`` is the stable tag of the rule, ``fields`` its named numbers (see the module)."""

    rule: str = "rules"

    def __init__(self, message: str, rule: str | None = None, **fields: Any) -> None:
        self.message = bounded(message)
        if rule is not None:
            self.rule = rule
        self.fields: dict[str, FieldValue] = _clean_fields(fields)
        super().__init__(self.message)


class IllegalAction(RulesError, ValueError):
    """A well-formed action that the rules do not allow in this state.

    ``action`` is the action's notation, ``reason`` the English sentence, ``rule`` the tag of the
    rule broken and ``fields`` its numbers."""

    rule = "illegal"

    def __init__(self, action: object, reason: str, rule: str | None = None, **fields: Any):
        self.action = bounded(str(action), MAX_TEXT)
        self.reason = bounded(reason)
        super().__init__(self.reason, rule, **fields)


class MalformedAction(RulesError, ValueError):
    """Text that is not the notation of any action of the game."""

    rule = "notation"

    def __init__(self, text: str, reason: str, rule: str | None = None, **fields: Any) -> None:
        self.text = bounded(str(text), MAX_TEXT)
        self.reason = bounded(reason)
        super().__init__(f"{self.text!r} is not an action: {self.reason}", rule, **fields)


class AmbiguousAction(RulesError, ValueError):
    """An input (for example a camera reading) that matches several legal actions."""

    rule = "ambiguous"

    def __init__(self, text: str, candidates: list[str]) -> None:
        self.text = bounded(str(text), MAX_TEXT)
        self.candidates = [bounded(c, MAX_TEXT) for c in candidates[:20]]
        super().__init__(
            f"{self.text!r} matches {len(candidates)} actions: {', '.join(self.candidates)}",
            None,
            text=self.text,
            count=len(candidates),
        )


class UndoBlocked(RulesError):
    """Undo would take back a draw, a roll or a reveal (an information barrier)."""

    rule = "undo.barrier"


class SetupError(RulesError, ValueError):
    """A game set-up that the rules do not allow (player count, names, colours, options)."""

    rule = "setup"


class RecordError(RulesError, ValueError):
    """A game record that cannot be read or replayed.

    ``position`` is the 1-based index of the offending action, or None for the header.
    """

    rule = "record"

    def __init__(self, reason: str, position: int | None = None, action: str | None = None):
        self.position = position
        self.action = None if action is None else bounded(action, MAX_TEXT)
        self.reason = bounded(reason)
        where = "" if position is None else f"action {position} ({self.action!r}): "
        fields: dict[str, Any] = {} if position is None else {"position": position}
        super().__init__(where + self.reason, None, **fields)


class ContractError(TypeError):
    """A game's method returned what the game contract does not allow (``engine.contract``):
    not a refusal of the rules but a fault of the game's code.  ``game`` is the
    game's name, ``method`` the method that broke it; the message says what it returned."""

    def __init__(self, game: str, method: str, problem: str) -> None:
        self.game = game
        self.method = method
        self.problem = bounded(problem)
        super().__init__(
            f"the game {game!r} broke the companion's game contract: its {method} "
            f"{self.problem}"
        )


def not_a_state(value: object, like: object = None) -> str | None:
    """What is wrong with ``value`` as a state a game's method returned (None: nothing): not
    None, and of the kind of ``like`` (the state it was given) when given."""
    if value is None or (like is not None and not isinstance(value, type(like))):
        expected = "a state" if like is None else f"a state ({type(like).__name__})"
        return f"returned {kind_of(value)}, not {expected}"
    return None


def kind_of(value: object) -> str:
    """``value``'s kind in words: ``None``, ``a tuple``, ``a dict``."""
    if value is None:
        return "None"
    name = type(value).__name__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"
