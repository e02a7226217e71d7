"""A companion's visit: the decisions one seat makes one after another (a Pillars market visit,
the craftsmen's uses at the cathedral, a whole Builders turn), worked out in full before the
table is told, so the table carries them out from one instruction and confirms once; the
steps are then committed one by one, as if confirmed one by one.

The companion's first decision comes from :class:`companion.kiosk.seats.Companion`; each next
one is thought out here, off the main loop, on the state the steps so far lead to.  Same
position, same visit: each decision is seeded as the companion seeds a decision it is asked for
on the table (``decision_seed`` of the game and the number of actions before it), so a visit
is the decisions a step-by-step table would have got; a card a virtual deck deals inside a
visit is drawn from a generator seeded the same way (:func:`deal_seed`: a visit thought out
again, after a restart, deals the same card; a card once shown is never drawn again).

What differs by game is a small hook, :class:`Visiting`: whether the seat still decides in the
same visit, and whether the virtual deck deals a card inside it (a Builders row refilled
mid-turn) or the visit ends where the table reveals one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from companion.engine import CHANCE, Game
from companion.engine.simulate import sample

from .seats import Worker, decide, decision_seed

S = TypeVar("S")
A = TypeVar("A")

SameVisit = Callable[[S, S], bool]
"""Whether the seat deciding in the first state still decides, in the same visit, in the
second (the game's words: same seat, same step)."""

MOST = 40
"""The most decisions one visit holds (a safety limit: a visit always ends)."""


def deal_seed(game_id: int, index: int) -> str:
    """The seed of a card the virtual deck deals inside a visit, at ``index`` of game
    ``game_id``."""
    return f"deal {game_id}/{index}"


def _never(state: object) -> bool:
    return False


@dataclass(frozen=True)
class Visiting(Generic[S]):
    """A game's word on its visits: ``same`` (:data:`SameVisit`, checked after each decision
    and the cards dealt after it), and ``deals``: whether the virtual deck deals the chance
    node ``state`` inside the visit (by default never: the visit ends where the table
    reveals)."""

    same: SameVisit[S]
    deals: Callable[[S], bool] = _never


@dataclass(frozen=True)
class VisitStep(Generic[S, A]):
    """One step of a visit: the state before it, the action, and whether the deck dealt it (a
    chance outcome) rather than the companion deciding it."""

    before: S
    action: A
    dealt: bool = False


@dataclass
class Visit(Generic[S, A]):
    """The decisions of one seat's visit from ``start`` (the ``index``-th action of journal game
    ``game_id``): the steps so far, the state they lead to, and ``done`` once the visit has
    ended (the seat no longer decides, the table must reveal a card, or a decision failed:
    ``error``, the steps so far stand and the rest is decided afresh on the table)."""

    game_id: int
    index: int
    start: S
    seat: int
    visiting: Visiting[S]
    steps: list[VisitStep[S, A]] = field(default_factory=list)
    state: S | None = None
    done: bool = False
    worker: Worker | None = None
    error: str | None = None

    @property
    def at(self) -> S:
        """The state the steps so far lead to (the start before any)."""
        return self.start if self.state is None else self.state

    @property
    def actions(self) -> list[A]:
        """Every step's action, the dealt cards included (what the table commits)."""
        return [s.action for s in self.steps]

    @property
    def states(self) -> list[S]:
        """``states[k]`` is the state before ``actions[k]``, ``states[-1]`` the state after
        the last."""
        return [s.before for s in self.steps] + [self.at]

    def afters(self) -> list[S]:
        """The state after each action (what the commit of each passes on)."""
        return self.states[1:]

    @property
    def decisions(self) -> int:
        """How many of the steps are the companion's own (not dealt cards)."""
        return sum(1 for s in self.steps if not s.dealt)

    def about(self, game_id: int, index: int, state: S) -> bool:
        """Whether the visit starts at the position on the table."""
        return (self.game_id, self.index) == (game_id, index) and (
            self.start is state or self.start == state)

    def add(self, game: Game[S, A], action: A) -> None:
        """Add the companion's decision ``action`` (taken in ``at``), then the cards the
        virtual deck deals after it; end the visit where the game says it ends.  Raises the
        rules' refusal if ``action`` is not legal there."""
        before = self.at
        after = game.apply(before, action)
        self.steps.append(VisitStep(before, action))
        while game.current_player(after) == CHANCE and self.visiting.deals(after):
            rng = random.Random(deal_seed(self.game_id, self.index + len(self.steps)))
            outcome = sample(game.chance_outcomes(after), rng)
            self.steps.append(VisitStep(after, outcome, dealt=True))
            after = game.apply(after, outcome)
        self.state = after
        self.done = (game.is_over(after) or not self.visiting.same(before, after)
                     or self.decisions >= MOST)

    def next_seed(self) -> str:
        """The seed of the next decision (as the companion would seed it on the table)."""
        return decision_seed(self.game_id, self.index + len(self.steps))

    def think(self, game: Game[S, A], strength: str, mode: str) -> None:
        """Start working out the next decision off the main loop."""
        args = (game.name, self.at, self.seat, strength, self.next_seed())
        self.worker = Worker(decide, args, mode)

    def collect(self, game: Game[S, A]) -> bool:
        """Take the next decision once it is thought out; True when the visit changed.  A
        decision that failed, or that the rules refuse, ends the visit with the steps so far
        (the companion is asked again on the table, where the failure is shown)."""
        if self.worker is None or (outcome := self.worker.poll()) is None:
            return False
        self.worker = None
        kind, value = outcome
        if kind == "ok":
            try:
                self.add(game, game.parse_action(str(value)))
                return True
            except Exception as exc:  # noqa: BLE001 - shown on the table's next decision
                value = f"{value}: {exc}"
        self.error = str(value)
        self.done = True
        return True

    def advance(self, game: Game[S, A], strength: str, mode: str) -> bool:
        """Move the visit on: start thinking about the next decision, or collect it.  True
        when the visit changed (a decision came, or it ended)."""
        if self.done:
            return False
        if self.worker is None:
            self.think(game, strength, mode)
        return self.collect(game)

    def think_all(self, game: Game[S, A], strength: str) -> None:
        """Think out the rest of the visit here and now (the screenshots' scenes, tests)."""
        while not self.done:
            text = decide(game.name, self.at, self.seat, strength, self.next_seed())
            self.add(game, game.parse_action(text))

    def cancel(self) -> None:
        """Stop thinking (the position moved on)."""
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None


def start(game: Game[S, A], game_id: int, index: int, state: S, seat: int, first: A,
          visiting: Visiting[S]) -> Visit[S, A]:
    """The visit that begins with the companion's decision ``first`` in ``state``."""
    visit: Visit[S, A] = Visit(game_id, index, state, seat, visiting)
    visit.add(game, first)
    return visit


def cancel(visit: Visit[S, A] | None) -> None:
    """Stop the visit's thinking, if there is a visit."""
    if visit is not None:
        visit.cancel()


__all__ = ["MOST", "SameVisit", "Visit", "VisitStep", "Visiting", "cancel", "deal_seed", "start"]
