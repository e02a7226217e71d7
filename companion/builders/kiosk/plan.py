"""The companion's turn as one instruction: its decisions one after another, each thought out on
the state the one before leaves, until its turn ends or the table must tap a card in, with the
cards a virtual deck deals between them.  The table moves the pieces for all of it and confirms
once; the steps are then committed one by one, as if confirmed one by one.

Same position, same plan: each decision is seeded as the companion seeds a decision it is asked
for on the table (``decision_seed`` of the game and the number of actions before it), so a plan
decides what the companion would decide step by step; a card the virtual deck deals inside a
plan is drawn from a generator seeded the same way (a plan thought out again, after a restart,
deals the same card: a card once shown is never drawn again).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.builders import BuildersGame
from companion.builders.actions import Action, TakeCoins
from companion.builders.state import BuildersState
from companion.engine import CHANCE
from companion.engine.simulate import sample
from companion.kiosk.i18n import _
from companion.kiosk.seats import Worker, decide, decision_seed

from .sentences import coins_text, instruction, who


def deal_seed(game_id: int, index: int) -> str:
    """The seed of a card the virtual deck deals inside a plan, at ``index`` of game
    ``game_id``."""
    return f"deal {game_id}/{index}"


@dataclass(frozen=True)
class PlanStep:
    """One step of a plan: the state before it, the action, and whether the deck dealt it (a
    chance outcome) rather than the companion deciding it."""

    before: BuildersState
    action: Action
    dealt: bool


@dataclass
class TurnPlan:
    """The companion's turn from ``start`` (the ``index``-th action of game ``game_id``): the
    steps decided so far, the state they lead to, and whether it is complete (the turn is
    over, the table must reveal a card, or a later decision failed: the steps so far stand)."""

    game_id: int
    index: int
    start: BuildersState
    seat: int
    virtual_deck: bool
    steps: list[PlanStep] = field(default_factory=list)
    state: BuildersState | None = None
    complete: bool = False
    worker: Worker | None = None
    failed: str | None = None

    @property
    def at(self) -> BuildersState:
        """The state the steps so far lead to (the start before any)."""
        return self.start if self.state is None else self.state

    @property
    def actions(self) -> list[Action]:
        return [s.action for s in self.steps]

    @property
    def decisions(self) -> int:
        """How many of the steps are the companion's own (not dealt cards)."""
        return sum(1 for s in self.steps if not s.dealt)

    def add(self, game: BuildersGame, action: Action) -> None:
        """Add the companion's decision ``action`` (taken in ``self.state``), then the cards a
        virtual deck deals after it; complete the plan when the turn is over or the table must
        tap a card in.  Raises the rules' refusal if ``action`` is not legal there."""
        before = self.at
        after = game.apply(before, action)
        self.steps.append(PlanStep(before, action, dealt=False))
        while game.current_player(after) == CHANCE and self.virtual_deck:
            rng = random.Random(deal_seed(self.game_id, self.index + len(self.steps)))
            outcome = sample(game.chance_outcomes(after), rng)
            self.steps.append(PlanStep(after, outcome, dealt=True))
            after = game.apply(after, outcome)
        self.state = after
        # the turn is over when another seat (or the table) is to act, or, in the solo game,
        # when the Automa played and a new turn is the same player's
        self.complete = (game.is_over(after) or game.current_player(after) != self.seat
                         or after.turn != self.start.turn)

    def think_all(self, game: BuildersGame, strength: str) -> None:
        """Think out the rest of the plan here and now (the screenshots' scenes, tests)."""
        while not self.complete:
            text = decide(game.name, self.at, self.seat, strength, self.next_seed())
            self.add(game, game.parse_action(text))

    def next_seed(self) -> str:
        """The seed of the next decision (as the companion would seed it on the table)."""
        return decision_seed(self.game_id, self.index + len(self.steps))

    def think(self, game: BuildersGame, strength: str, mode: str) -> None:
        """Start working out the next decision off the main loop."""
        args = (game.name, self.at, self.seat, strength, self.next_seed())
        self.worker = Worker(decide, args, mode)

    def collect(self, game: BuildersGame) -> bool:
        """Take the next decision once it is thought out; True when the plan changed.  A
        decision that failed or that the rules refuse completes the plan with the steps so
        far (the companion is asked again on the table, where the failure is shown)."""
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
        self.failed = str(value)
        self.complete = True
        return True

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None


@dataclass(frozen=True)
class PlanLine:
    """One line of the instruction: its text, and whether it is a card the deck dealt (shown
    as a hand-out: the table takes that card from the deck)."""

    text: str
    dealt: bool = False


def plan_lines(game: BuildersGame, steps: list[PlanStep]) -> list[PlanLine]:
    """The instruction's lines for ``steps``: one per step, what the table does and what it
    yields; coins taken in a row are one line (their sum and AP), a step repeated the same
    (an extra action bought twice) one line saying how many times."""
    lines: list[PlanLine] = []
    k = 0
    while k < len(steps):
        step = steps[k]
        run = k + 1
        if isinstance(step.action, TakeCoins):
            while run < len(steps) and isinstance(steps[run].action, TakeCoins):
                run += 1
        if run > k + 1:
            seat = step.before.turn_player
            last = steps[run - 1]
            coins = (game.apply(last.before, last.action).players[seat].coins
                     - step.before.players[seat].coins)
            ap = sum(s.action.ap for s in steps[k:run] if isinstance(s.action, TakeCoins))
            lines.append(PlanLine(coins_line(step.before, coins, ap, run - k)))
            k = run
            continue
        text = instruction(step.before, step.action)
        while run < len(steps) and instruction(steps[run].before, steps[run].action) == text:
            run += 1
        if run > k + 1:
            text = _("{text} ({n} times)", text=text, n=run - k)
        lines.append(PlanLine(text, dealt=step.dealt))
        k = run
    return lines


def coins_line(state: BuildersState, coins: int, ap: int, times: int) -> str:
    """Coins taken ``times`` times in a row: the sum and the AP."""
    return _("{name} takes {coins} from the bank: {ap} AP in {n} actions",
             name=who(state, state.turn_player), coins=coins_text(coins), ap=ap, n=times)


__all__ = ["PlanLine", "PlanStep", "TurnPlan", "deal_seed", "plan_lines"]
