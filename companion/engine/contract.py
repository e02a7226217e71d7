"""What a game's methods return, checked where it enters the core.

A game from outside the project is code the companion did not write: a method that returns
the wrong kind of value (a tuple of legal actions, ``None`` from a forgotten ``return`` in
``apply``, a summary that is a plain dict) would otherwise fail later, deep in the journal or
the kiosk, as an unexpected error that looks like the companion's.  The core checks what comes
back where it takes it in (``Game.step``, ``Playthrough``, ``replay``, the journal, the
generic screen, the end screen, the command line), and raises :class:`ContractError` naming
the game, the method and what it returned: the error its authors need.

The checks are a few ``isinstance`` calls at the table's pace, never in the search's inner
loop (the bots' simulation path calls the rules millions of times and trusts them: the
conformance kit, ``companion.testing``, checks a game once for all).
"""

from __future__ import annotations

from typing import Any, TypeVar

from .core import CHANCE, TERMINAL, Game, Setup
from .errors import ContractError, bounded, kind_of, not_a_state
from .summary import Period, Summary

T = TypeVar("T")


def _broken(game: Game[Any, Any], method: str, problem: str) -> ContractError:
    return ContractError(getattr(game, "name", type(game).__name__), method, problem)


def player(game: Game[Any, Any], state: object, who: object) -> int:
    """``who``, what ``game.current_player(state)`` returned: a seat of the set-up, CHANCE or
    TERMINAL."""
    if type(who) is int and (who in (CHANCE, TERMINAL) or who >= 0):
        return who
    raise _broken(game, "current_player()", f"returned {who!r} ({kind_of(who)}), not a seat "
                  f"number, CHANCE ({CHANCE}) or TERMINAL ({TERMINAL})")


def actions(game: Game[Any, Any], value: T, method: str = "legal_actions()") -> T:
    """``value``, what ``method`` returned: a list (of actions)."""
    if not isinstance(value, list):
        raise _broken(game, method, f"returned {kind_of(value)}, not a list of actions")
    return value


def outcomes(game: Game[Any, Any], value: T) -> T:
    """``value``, what ``chance_outcomes()`` returned: a list of (outcome, probability)."""
    if not isinstance(value, list):
        raise _broken(game, "chance_outcomes()",
                      f"returned {kind_of(value)}, not a list of (outcome, probability) pairs")
    for pair in value:
        if not (isinstance(pair, tuple) and len(pair) == 2
                and isinstance(pair[1], (int, float)) and not isinstance(pair[1], bool)):
            raise _broken(game, "chance_outcomes()",
                          f"listed {bounded(repr(pair), 60)}, not an (outcome, probability) "
                          "pair")
    return value


def out_of_turn(game: Game[Any, Any], value: T) -> T:
    """``value``, what ``out_of_turn()`` returned: a dict of seat to a list of actions."""
    if not isinstance(value, dict) or not all(
            type(k) is int and isinstance(v, list) for k, v in value.items()):
        raise _broken(game, "out_of_turn()",
                      f"returned {bounded(repr(value), 60)}, not a dict of seat: list of actions")
    return value


def state(game: Game[Any, Any], method: str, value: T, like: object = None) -> T:
    """``value``, the state ``method`` returned: not None, and of the kind of ``like`` (the
    state it was given) when given."""
    problem = not_a_state(value, like)
    if problem is not None:
        raise _broken(game, method, problem)
    return value


def text(game: Game[Any, Any], method: str, value: T) -> T:
    """``value``, what ``method`` (``format_action()``) returned: a string."""
    if not isinstance(value, str):
        raise _broken(game, method, f"returned {kind_of(value)}, not a string")
    return value


def scores(game: Game[Any, Any], value: T) -> T:
    """``value``, what ``scores()`` returned: a dict of player name to int points."""
    if not isinstance(value, dict) or not all(
            isinstance(k, str) and type(v) is int for k, v in value.items()):
        raise _broken(game, "scores()", f"returned {bounded(repr(value), 60)}, not a dict of "
                      "player name: points (int)")
    return value


def winners(game: Game[Any, Any], value: T) -> T:
    """``value``, what ``winners()`` returned: a list of player names."""
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise _broken(game, "winners()",
                      f"returned {bounded(repr(value), 60)}, not a list of player names")
    return value


def summary(game: Game[Any, Any], value: Summary) -> Summary:
    """``value``, what ``summary()`` returned: a ``Summary``."""
    if not isinstance(value, Summary):
        raise _broken(game, "summary()", f"returned {kind_of(value)}, not a Summary (build it "
                      "with summary_with)")
    return value


def period(game: Game[Any, Any], value: Period) -> Period:
    """``value``, what ``period_of()`` returned: a ``Period``."""
    if not isinstance(value, Period):
        raise _broken(game, "period_of()", f"returned {kind_of(value)}, not a Period")
    return value


def setup(game: Game[Any, Any], value: Setup) -> Setup:
    """``value``, what ``setup_of()`` returned: a ``Setup``."""
    if not isinstance(value, Setup):
        raise _broken(game, "setup_of()", f"returned {kind_of(value)}, not the Setup")
    return value


# The summary of a state and its period, checked: what the end screen, the log and the
# command line show.

def checked_summary(game: Game[Any, Any], state: object) -> Summary:
    return summary(game, game.summary(state))


def checked_period(game: Game[Any, Any], state: object) -> Period:
    return period(game, game.period_of(state))


__all__ = [
    "ContractError",
    "actions",
    "checked_period",
    "checked_summary",
    "out_of_turn",
    "outcomes",
    "period",
    "player",
    "scores",
    "setup",
    "state",
    "summary",
    "text",
    "winners",
]
