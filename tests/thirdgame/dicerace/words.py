"""What the kiosk says about Dice Race, in the table's language (its catalogue: ``locale/``,
domain ``dicerace``)."""

from __future__ import annotations

from companion.kiosk.api import GameWords, _

from .rules import BLOCK, MOVE, Move, RaceState


class DiceRaceWords(GameWords[RaceState, Move]):
    """The sentences of the log and the refusals; the rest is the default words'."""

    def action_text(self, state: RaceState, action: Move) -> str:
        name = self.player_name(state, state.turn)
        if action.verb == "wind":
            return _("The wind card for {name}: {card}", name=name,
                     card=self.card_name(action.arg))
        if action.verb == "roll":
            return _("{name} rolls {n}", name=name, n=int(action.arg))
        if action == BLOCK:
            return _("{name} blocks the die", name=self.player_name(state, 1 - state.turn))
        if action == MOVE:
            after = self.game.apply(state, action)
            return _("{name} moves to space {n}", name=name, n=after.pawns[state.turn])
        return _("{name} holds", name=name)

    def instruction(self, state: RaceState, action: Move) -> str:
        if action == MOVE:
            after = self.game.apply(state, action)
            return _("put the pawn on space {n}", n=after.pawns[state.turn])
        return self.action_text(state, action)

    def card_name(self, card_id: str) -> str:
        """A wind card's name in the table's language; KeyError for another card."""
        names = {"tailwind": _("Tailwind"), "headwind": _("Headwind"), "calm": _("Calm")}
        return names[card_id]

    def worded(self, rule: str, fields: dict[str, object], card: str,
               state: RaceState) -> str | None:
        if rule == "block":
            return _("Each player blocks once a game, after the other's roll")
        return None


__all__ = ["DiceRaceWords"]
