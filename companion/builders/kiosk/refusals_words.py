"""Every refusal of The Builders' engine in the table's language, from its rule tag and named
fields (``companion.builders.refusals.REFUSALS``, ``docs/builders.md``), never its English
message."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.builders.constants import ACTION_PRICE
from companion.builders.state import BuildersState
from companion.kiosk.api import _, player_name

from .names import builders_card_name


class _Fields:
    """The refusal's fields, each read the way a sentence needs it (names, not ids)."""

    def __init__(self, fields: Mapping[str, object], state: BuildersState | None,
                 card: str) -> None:
        self.f = fields
        self.state = state
        self.card = card

    def num(self, key: str) -> str:
        return str(self.f.get(key, ""))

    def who(self, key: str = "player") -> str:
        seat = self.f.get(key, -1)
        setup = self.state.setup if self.state is not None else None
        if setup is not None and isinstance(seat, int) and 0 <= seat < len(setup.players):
            return player_name(setup, seat)
        if setup is not None and seat == len(setup.players):
            return _("the Automa")
        return _("the player")

    def named(self, key: str) -> str:
        try:
            return builders_card_name(str(self.f.get(key, "")))
        except KeyError:
            return _("that card")

    def hint(self) -> str:
        """The extra action's price, when the player could pay it."""
        coins = self.f.get("coins", 0)
        if isinstance(coins, int) and coins >= ACTION_PRICE:
            return _(" (an extra action costs {n} coins)", n=ACTION_PRICE)
        return ""

    def step(self) -> str:
        return step_words(str(self.f.get("step", "")))


def step_words(step: str) -> str:
    """What the table is dealing at a chance step (``reveal building``...)."""
    return {
        "reveal building": _("a building card into the building row"),
        "next building": _("the top card of the building deck"),
        "reveal worker": _("a worker card into the worker row"),
        "next worker": _("the top card of the worker deck"),
        "deal apprentice": _("an Apprentice to a player"),
    }.get(step, _("a card"))


def _deck(x: _Fields) -> str:
    what = _("a worker card") if x.f.get("deck") == "worker" else _("a building card")
    return _("The table is dealing {what}, not {card}", what=what, card=x.card)


def _revealed(x: _Fields) -> str:
    if x.f.get("place") == "player":
        return _("{card} is already with {name}", card=x.card, name=x.who("owner"))
    return _("{card} is already in play", card=x.card)


def _row(x: _Fields) -> str:
    if x.f.get("row") == "worker":
        return _("{card} is not in the worker row", card=x.card)
    return _("{card} is not in the building row", card=x.card)


WORDS: dict[str, Callable[[_Fields], str]] = {
    "over": lambda x: _("The game is over"),
    "action.unknown": lambda x: _("That is not an action of this game"),
    "action.card": lambda x: _("That card cannot be used for this action"),
    "action.ap": lambda x: _("Taking coins spends 1, 2 or 3 AP, not {ap}", ap=x.num("ap")),
    "chance.waiting": lambda x: _("The table is dealing {what} first", what=x.step()),
    "chance.none": lambda x: _("{card} was shown, but it is {name}'s turn to decide",
                               card=x.card, name=x.who()),
    "chance.unknown": lambda x: _("{card} is not a card of this game", card=x.card),
    "chance.deck": _deck,
    "chance.apprentice": lambda x: _("Only an Apprentice is dealt now, not {card}",
                                     card=x.card),
    "chance.revealed": _revealed,
    "chance.step": lambda x: _("{card} was shown, but the table is dealing another card first",
                               card=x.card),
    "row.card": _row,
    "turn.ap": lambda x: _("That costs {cost} AP; {name} has {ap}{hint}", cost=x.num("cost"),
                           name=x.who(), ap=x.num("ap"), hint=x.hint()),
    "send.ap": lambda x: _(
        "One more worker to {site} this turn costs {cost} AP; {name} has {ap}{hint}",
        site=x.named("site"), cost=x.num("cost"), name=x.who(), ap=x.num("ap"), hint=x.hint(),
    ),
    "send.worker": lambda x: _("{card} is not an idle worker of {name}", card=x.card,
                               name=x.who()),
    "send.machine": lambda x: _("{card} is not a finished machine of {name}", card=x.card,
                                name=x.who()),
    "send.site": lambda x: _("{site} is not an open site of {name}", site=x.named("site"),
                             name=x.who()),
    "send.wage": lambda x: _("Sending {card} costs a wage of {cost} coins; {name} has {coins}",
                             card=x.card, cost=x.num("cost"), name=x.who(),
                             coins=x.num("coins")),
    "coins.ap": lambda x: _(
        "{name} has spent {spent} AP on coins this turn; at most 3 AP a turn, so {ap} more "
        "is too many", name=x.who(), spent=x.num("spent"), ap=x.num("ap"),
    ),
    "buy.coins": lambda x: _("An extra action costs {cost} coins; {name} has {coins}",
                             cost=x.num("cost"), name=x.who(), coins=x.num("coins")),
}
"""Words for every rule tag of ``companion.builders.refusals.REFUSALS``."""


def worded(rule: str, fields: Mapping[str, object], card: str,
           state: BuildersState | None) -> str | None:
    """The refusal ``rule`` with ``fields`` in the current language (``card`` the name of the
    card it names, if any); None for a tag this module does not know."""
    words = WORDS.get(rule)
    return None if words is None else words(_Fields(fields, state, card))


__all__ = ["WORDS", "step_words", "worded"]
