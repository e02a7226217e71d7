"""A companion's visit: the decisions one seat makes one after another in one place (a
Pillars market visit, the craftsmen's uses at the cathedral), worked out in full before the
table is told, so the table carries them out from one instruction and confirms once.

The companion's first decision comes from :class:`companion.kiosk.seats.Companion`; each
next one is thought out here, off the main loop, on the state the previous one leads to, with
the seed it would have had if the table had confirmed one at a time (``decision_seed`` of its
index), so the visit is the same decisions a step-by-step table would have got.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Game, RulesError

from .seats import Worker, decide, decision_seed

SameVisit = Callable[[Any, Any], bool]
"""Whether the seat deciding in the first state still decides, in the same visit, in the
second (the game's words: same seat, same step)."""

MOST = 40
"""The most decisions one visit holds (a safety limit: a visit always ends)."""


@dataclass
class Visit:
    """The decisions of one visit so far: ``states[k]`` is the state before ``actions[k]``,
    and ``states[-1]`` the state after the last; ``done`` once the visit has ended."""

    game_id: int
    index: int
    seat: int
    states: list[Any]
    actions: list[Any] = field(default_factory=list)
    worker: Worker | None = None
    done: bool = False
    error: str | None = None

    def about(self, game_id: int, index: int, state: Any) -> bool:
        """Whether the visit starts at the position on the table."""
        return (self.game_id, self.index) == (game_id, index) and (
            self.states[0] is state or self.states[0] == state)

    def afters(self) -> list[Any]:
        """The state after each action (what the commit of each passes on)."""
        return self.states[1:]


def start(game: Game[Any, Any], game_id: int, index: int, state: Any, seat: int,
          first: Any, same: SameVisit) -> Visit:
    """The visit that begins with the companion's decision ``first`` in ``state``."""
    after = game.apply(state, first)
    visit = Visit(game_id, index, seat, [state, after], [first])
    visit.done = not same(state, after)
    return visit


def step(visit: Visit, game: Game[Any, Any], strength: str, mode: str,
         same: SameVisit) -> bool:
    """Move the visit on: start thinking about the next decision, or collect it.  True when
    the visit changed (a decision came, or it ended)."""
    if visit.done:
        return False
    if visit.worker is None:
        index = visit.index + len(visit.actions)
        args = (game.name, visit.states[-1], visit.seat, strength,
                decision_seed(visit.game_id, index))
        visit.worker = Worker(decide, args, mode)
        return False
    outcome = visit.worker.poll()
    if outcome is None:
        return False
    visit.worker = None
    kind, value = outcome
    try:
        if kind != "ok":
            raise ValueError(str(value))
        action = game.parse_action(value)
        after = game.apply(visit.states[-1], action)  # the rules check the companion
    except (RulesError, ValueError) as exc:
        visit.error = str(exc)
        visit.done = True  # the visit so far is told; the rest is decided afresh
        return True
    visit.actions.append(action)
    before = visit.states[-1]
    visit.states.append(after)
    visit.done = not same(before, after) or len(visit.actions) >= MOST
    return True


def cancel(visit: Visit | None) -> None:
    if visit is not None and visit.worker is not None:
        visit.worker.cancel()
        visit.worker = None


__all__ = ["MOST", "SameVisit", "Visit", "cancel", "start", "step"]
