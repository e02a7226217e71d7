"""A Builders turn that ends by itself (ruling: nothing but ``end turn`` is possible, in
practice no AP left and too few coins for an extra action): the notice that says so, naming
the player and why, and whose turn it is now."""

from __future__ import annotations

from companion.builders import BuildersGame
from companion.builders.actions import END_TURN, Action
from companion.builders.state import BuildersState
from companion.engine import CHANCE
from companion.kiosk.api import _, n_, sentences
from companion.kiosk.api import clean_player_name as player_name


def turn_ended_by_itself(game: BuildersGame, before: BuildersState, after: BuildersState,
                         action: Action) -> str:
    """The notice for a turn that ``action`` (taken in ``before``) ended without ``end
    turn``; empty when the turn goes on, was ended by the player, or ``action`` was a card
    the table revealed."""
    if action == END_TURN or game.current_player(before) == CHANCE:
        return ""
    if after.turn == before.turn and not after.over:
        return ""
    seat = before.turn_player
    name = player_name(before.setup, seat)
    coins = after.players[seat].coins
    price = game.action_price
    if coins < price:
        why = n_(
            "{name}'s turn ended by itself: no action points left, and {n} coin is fewer "
            "than the {price} an extra action costs.",
            "{name}'s turn ended by itself: no action points left, and {n} coins are fewer "
            "than the {price} an extra action costs.",
            coins,
            name=name,
            price=price,
        )
    else:
        why = _("{name}'s turn ended by itself: nothing else could be done.", name=name)
    if after.over or after.turn_player == seat:  # solo: the Automa played in between
        return why
    nxt = player_name(after.setup, after.turn_player)
    return sentences(why, _("Now it is {name}'s turn.", name=nxt))


__all__ = ["turn_ended_by_itself"]
