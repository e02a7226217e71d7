"""The rules of Dice Race, written only against ``companion.engine``'s public names.

Two pawns race along a track (15, 20 or 30 spaces, a table option).  Each turn has three steps:

1. a wind card is revealed (a chance node the camera can read: ``tailwind`` +1,
   ``headwind`` -1, ``calm`` 0; the deck is reshuffled every turn, so each is 1 in 3);
2. the die is rolled (a chance node: 1 to 6);
3. the player whose turn it is decides: ``move`` (the die plus the wind, at least 1 space) or
   ``hold`` (stay put).  A pawn must land on the finish exactly; a move past it bounces back
   by the spaces too many.  Landing on the finish wins.

Out of turn, once a game, the other player may ``block`` after the roll and before the move:
the die counts as 1 (``Game.out_of_turn``; ``Game.actor`` says whose it is).  There is no
money and no ledger: the score is how far a pawn has come.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from companion.engine import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalAction,
    MalformedAction,
    Option,
    Period,
    Setup,
    Summary,
)

WIND = {"tailwind": 1, "headwind": -1, "calm": 0}
"""Each wind card and what it adds to the die."""

FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True, slots=True)
class Move:
    """One action: ``verb`` (``wind``, ``roll``, ``move``, ``hold``, ``block``) and its
    argument (the card, the die's face; empty for the decisions).  ``str`` is the notation."""

    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb


MOVE = Move("move")
HOLD = Move("hold")
BLOCK = Move("block")


@dataclass(frozen=True, slots=True)
class RaceState:
    """The table: the pawns' spaces by seat, whose turn, the turn's number (from 1), the wind
    and the die of this turn (None until revealed, rolled), the seats that have used their
    block, whether the die was blocked this turn, and the winner's seat once over."""

    setup: Setup
    track: int
    pawns: tuple[int, ...]
    turn: int
    number: int = 1
    wind: str | None = None
    die: int | None = None
    blocked: tuple[bool, ...] = (False, False)
    block_now: bool = False
    winner: int | None = None


class DiceRace(Game[RaceState, Move]):
    """Dice Race: see the module's docstring."""

    name: ClassVar[str] = "dicerace"
    title: ClassVar[str] = "Dice Race"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[dict[str, Option]] = {
        "track": Option(20, (15, 20, 30), "spaces from the start to the finish", "Track (spaces)",
                        ("15", "20", "30")),
    }

    def initial_state(self, setup: Setup) -> RaceState:
        self.validate_setup(setup)
        n = len(setup.players)
        return RaceState(setup, self.option(setup, "track"), (0,) * n, setup.start_player,
                         blocked=(False,) * n)

    def setup_of(self, state: RaceState) -> Setup:
        return state.setup

    # -- whose turn ------------------------------------------------------------------------
    def current_player(self, state: RaceState) -> int:
        if state.winner is not None:
            return TERMINAL
        if state.wind is None or state.die is None:
            return CHANCE
        return state.turn

    def active_seat(self, state: RaceState) -> int | None:
        """The seat whose turn it is, also while its wind and die come."""
        return None if state.winner is not None else state.turn

    def period_of(self, state: RaceState) -> Period:
        """Turns, each one player's."""
        phase = "wind" if state.wind is None else "roll" if state.die is None else "move"
        if state.winner is not None:
            phase = "over"
        return Period(state.number, "turn", seat=state.turn, phase=phase)

    def out_of_turn(self, state: RaceState) -> dict[int, list[Move]]:
        """The other player's block, once a game, between the roll and the move."""
        if self.current_player(state) < 0 or state.block_now or state.die == 1:
            return {}
        other = 1 - state.turn
        return {} if state.blocked[other] else {other: [BLOCK]}

    # -- the moves -------------------------------------------------------------------------
    def legal_actions(self, state: RaceState) -> list[Move]:
        if self.current_player(state) < 0:
            return []
        return [MOVE, HOLD]

    def chance_outcomes(self, state: RaceState) -> list[tuple[Move, float]]:
        if self.current_player(state) != CHANCE:
            return []
        if state.wind is None:
            return [(Move("wind", card), 1 / len(WIND)) for card in WIND]
        return [(Move("roll", str(face)), 1 / len(FACES)) for face in FACES]

    def card_of(self, outcome: Move) -> str | None:
        return outcome.arg if outcome.verb == "wind" else None

    def die_of(self, outcome: Move) -> int | None:
        """The die's face: the table's ROLL button rolls it."""
        return int(outcome.arg) if outcome.verb == "roll" else None

    def distance(self, state: RaceState) -> int:
        """How far ``move`` takes the pawn this turn: the die (1 when blocked) and the wind,
        at least 1."""
        die = 1 if state.block_now else (state.die or 0)
        return max(1, die + WIND.get(state.wind or "calm", 0))

    def apply(self, state: RaceState, action: Move) -> RaceState:
        """The next state; IllegalAction (with its rule tag) and the state unchanged when the
        rules do not allow ``action`` now."""
        if not isinstance(action, Move):
            raise IllegalAction(action, f"{action!r} is not a move of Dice Race", "notation")
        who = self.current_player(state)
        if who == TERMINAL:
            raise IllegalAction(action, "the race is over", "over")
        if who == CHANCE:
            self.check_chance(state, action)
            if action.verb == "wind":
                return replace(state, wind=action.arg)
            return replace(state, die=int(action.arg))
        if action == BLOCK:
            seats = [s for s, acts in self.out_of_turn(state).items() if BLOCK in acts]
            if not seats:
                raise IllegalAction(action, "no block is open now: each player blocks once, "
                                    "after the other's roll", "block")
            blocked = tuple(b or k == seats[0] for k, b in enumerate(state.blocked))
            return replace(state, blocked=blocked, block_now=True)
        if action not in (MOVE, HOLD):
            raise IllegalAction(action, f"{action} is not allowed now: move or hold", "turn")
        pawns = list(state.pawns)
        if action == MOVE:
            to = pawns[state.turn] + self.distance(state)
            pawns[state.turn] = to if to <= state.track else 2 * state.track - to
        if pawns[state.turn] == state.track:
            return replace(state, pawns=tuple(pawns), winner=state.turn)
        return replace(state, pawns=tuple(pawns), turn=1 - state.turn, number=state.number + 1,
                       wind=None, die=None, block_now=False)

    def parse_action(self, text: str) -> Move:
        verb, _, arg = text.strip().partition(" ")
        if verb in ("move", "hold", "block") and not arg:
            return Move(verb)
        if verb == "wind" and arg in WIND:
            return Move(verb, arg)
        if verb == "roll" and arg in {str(f) for f in FACES}:
            return Move(verb, arg)
        raise MalformedAction(
            text, "write move, hold, block, wind tailwind|headwind|calm, or roll 1 to 6"
        )

    # -- results ---------------------------------------------------------------------------
    def scores(self, state: RaceState) -> dict[str, int]:
        """How far each pawn has come."""
        return {p.name: s for p, s in zip(state.setup.players, state.pawns, strict=True)}

    def winners(self, state: RaceState) -> list[str]:
        return [] if state.winner is None else [state.setup.players[state.winner].name]

    def invariants(self, state: RaceState) -> list[str]:
        wrong = [f"pawn {k} at {s}" for k, s in enumerate(state.pawns)
                 if not 0 <= s <= state.track]
        if state.winner is not None and state.pawns[state.winner] != state.track:
            wrong.append("the winner is not on the finish")
        return wrong

    def summary(self, state: RaceState) -> Summary:
        return self.summary_with(
            state,
            {"track": state.track, "turn": state.number, "wind": state.wind, "die": state.die},
            [{"space": s, "blocked": b} for s, b in zip(state.pawns, state.blocked, strict=True)],
        )


__all__ = ["BLOCK", "HOLD", "MOVE", "WIND", "DiceRace", "Move", "RaceState"]
