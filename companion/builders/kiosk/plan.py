"""The companion's turn as one instruction: its decisions one after another, each thought out on
the state the one before leaves, until its turn ends or the table must tap a card in, with the
cards a virtual deck deals between them.  The table moves the pieces for all of it and confirms
once; the steps are then committed one by one, as if confirmed one by one.

The planning is the kiosk's, for every game (:mod:`companion.kiosk.visit`: same position, same
plan; a card dealt inside a plan is seeded too); what is The Builders' own is the hook
(:func:`visiting`: a visit is a whole turn, the virtual deck deals the cards that refill a row
mid-turn) and the words (:func:`plan_lines`).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.builders import BuildersGame
from companion.builders.actions import Action, TakeCoins
from companion.builders.state import BuildersState
from companion.kiosk.api import Visit, Visiting, VisitStep, _

from .sentences import coins_text, instruction, who

PlanStep = VisitStep[BuildersState, Action]
"""One step of a plan (the companion's decision, or a card the deck dealt)."""


def same_turn(before: BuildersState, after: BuildersState) -> bool:
    """Whether the seat deciding in ``before`` still decides, in the same turn, in ``after``
    (not when another seat or the table is to act, nor, in the solo game, when the Automa
    played and a new turn is the same player's)."""
    return (not after.over and not after.pending and after.turn_player == before.turn_player
            and after.turn == before.turn)


def _deals(state: BuildersState) -> bool:
    return True


def visiting(virtual_deck: bool) -> Visiting[BuildersState]:
    """The Builders' hook of the kiosk's visits: a visit is the companion's whole turn; with
    the virtual deck, the cards that refill a row inside it are dealt in the plan, without it
    the plan stops where the table must tap a card in."""
    return Visiting(same_turn, _deals) if virtual_deck else Visiting(same_turn)


class TurnPlan(Visit[BuildersState, Action]):
    """The companion's turn from ``start`` (the ``index``-th action of game ``game_id``): a
    visit with The Builders' hook; ``complete`` once the turn is planned to its end (or to a
    card the table reveals, or a decision that failed: the steps so far stand)."""

    def __init__(self, game_id: int, index: int, start: BuildersState, seat: int,
                 virtual_deck: bool, steps: list[PlanStep] | None = None,
                 state: BuildersState | None = None, complete: bool = False) -> None:
        super().__init__(game_id, index, start, seat, visiting(virtual_deck), steps or [],
                         state, complete)

    @property
    def complete(self) -> bool:
        return self.done


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


__all__ = ["PlanLine", "PlanStep", "TurnPlan", "plan_lines", "same_turn", "visiting"]
