"""A toy third game that exists only in the tests: Sticks.

A pile of sticks (10, 15 or 20, a table option); in turn each player takes 1, 2 or 3.  Before
every turn a card is revealed from a small deck (a chance node, like a real reveal): a "double"
card makes that turn take twice as many.  Whoever takes the last stick wins.  It is registered
with :func:`register_toy` and forgotten with :func:`unregister_toy`; nothing outside ``tests/``
knows it, which is what ``tests/test_architecture.py`` checks.

Tally Sticks (:func:`register_tally`) is the same game with a ledger and words of its own: each
player keeps the sticks they take, and the double card's second half is taken by the rules (a
ledger entry its words call ``rules``), which the kiosk's generic screen hands out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from companion.engine import (
    CHANCE,
    TERMINAL,
    CardInfo,
    Game,
    GameSpec,
    IllegalAction,
    MalformedAction,
    Option,
    Setup,
    Summary,
    registry,
)
from companion.engine.ledger import Entry

DECK = ("plain", "double")


@dataclass(frozen=True, slots=True)
class Move:
    verb: str  # "take" or "reveal"
    arg: str

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}"


@dataclass(frozen=True, slots=True)
class SticksState:
    setup: Setup
    sticks: int
    turn: int
    card: str | None  # the card revealed for this turn; None: a reveal is due
    winner: int | None = None
    entries: tuple[Entry, ...] = ()  # Tally Sticks' ledger (Sticks keeps none)


class SticksGame(Game[SticksState, Move]):
    name: ClassVar[str] = "sticks"
    title: ClassVar[str] = "Sticks"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    options: ClassVar[dict[str, Option]] = {
        "sticks": Option(15, (10, 15, 20), "sticks in the pile", "Sticks", ("10", "15", "20"))
    }

    def initial_state(self, setup: Setup) -> SticksState:
        self.validate_setup(setup)
        return SticksState(setup, self.option(setup, "sticks"), setup.start_player, None)

    def current_player(self, state: SticksState) -> int:
        if state.winner is not None:
            return TERMINAL
        return CHANCE if state.card is None else state.turn

    def legal_actions(self, state: SticksState) -> list[Move]:
        if self.current_player(state) < 0:
            return []
        most = min(3, state.sticks if state.card == "plain" else state.sticks // 2)
        return [Move("take", str(n)) for n in range(1, max(1, most) + 1)]

    def chance_outcomes(self, state: SticksState) -> list[tuple[Move, float]]:
        if self.current_player(state) != CHANCE:
            return []
        cards = DECK if state.sticks >= 2 else ("plain",)
        return [(Move("reveal", c), 1 / len(cards)) for c in cards]

    def card_of(self, outcome: Move) -> str | None:
        return outcome.arg if outcome.verb == "reveal" else None

    def apply(self, state: SticksState, action: Move) -> SticksState:
        if not isinstance(action, Move):
            raise IllegalAction(action, "not a move of Sticks", "notation")
        if self.current_player(state) == TERMINAL:
            raise IllegalAction(action, "the game is over", "over")
        if self.current_player(state) == CHANCE:
            self.check_chance(state, action)
            return replace(state, card=action.arg)
        if action not in self.legal_actions(state):
            raise IllegalAction(action, f"{action} is not allowed now", "take", sticks=state.sticks)
        n = int(action.arg) * (2 if state.card == "double" else 1)
        left = max(0, state.sticks - n)
        players = len(state.setup.players)
        if left == 0:
            return replace(state, sticks=0, winner=state.turn, card="plain")
        return replace(state, sticks=left, turn=(state.turn + 1) % players, card=None)

    def scores(self, state: SticksState) -> dict[str, int]:
        return {p.name: int(i == state.winner) for i, p in enumerate(state.setup.players)}

    def winners(self, state: SticksState) -> list[str]:
        return [] if state.winner is None else [state.setup.players[state.winner].name]

    def setup_of(self, state: SticksState) -> Setup:
        return state.setup

    def parse_action(self, text: str) -> Move:
        verb, _, arg = text.strip().partition(" ")
        if verb == "take" and arg in ("1", "2", "3"):
            return Move(verb, arg)
        if verb == "reveal" and arg in DECK:
            return Move(verb, arg)
        raise MalformedAction(text, "write 'take N' (1 to 3) or 'reveal plain|double'")

    def summary(self, state: SticksState) -> Summary:
        return self.summary_with(state, {"sticks": state.sticks})


SPEC = GameSpec(
    name="sticks",
    title="Sticks",
    rules=SticksGame,
    bgg_id=None,
    min_players=2,
    max_players=3,
    options=SticksGame.options,
    cards=tuple(CardInfo(c, "card", c.capitalize()) for c in DECK),
    rank=50,
)


class TallySticks(SticksGame):
    """Sticks with a ledger: ``take`` entries for the sticks a player takes, ``double`` for
    the second half the double card makes them take (the rules' own change)."""

    name: ClassVar[str] = "tally"
    title: ClassVar[str] = "Tally Sticks"

    def apply(self, state: SticksState, action: Move) -> SticksState:
        after = super().apply(state, action)
        if self.current_player(state) != state.turn:
            return after
        taken = state.sticks - after.sticks
        mine = min(taken, int(action.arg))
        added = [Entry(1, state.turn, "sticks", mine, "take")]
        if taken > mine:
            added.append(Entry(1, state.turn, "sticks", taken - mine, "double"))
        return replace(after, entries=state.entries + tuple(added))

    def ledger(self, state: SticksState) -> tuple[Entry, ...]:
        return state.entries


def _tally_words() -> type:
    from companion.kiosk.words import GameWords

    class TallyWords(GameWords):
        def cause_text(self, entry: Entry) -> str:
            return "the double card" if entry.cause == "double" else "taken"

        def ledger_role(self, state: object, action: object, entry: Entry) -> str:
            return "rules" if entry.cause == "double" else "said"

    return TallyWords


TALLY_SPEC = replace(SPEC, name="tally", title="Tally Sticks", rules=TallySticks,
                     words=_tally_words, rank=51)


def register_tally() -> GameSpec:
    return registry.register(TALLY_SPEC)


def unregister_tally() -> None:
    registry.unregister(TALLY_SPEC.name)


def register_toy() -> GameSpec:
    return registry.register(SPEC)


def unregister_toy() -> None:
    registry.unregister(SPEC.name)
