"""Every refusal of the Pillars engine in the table's language, from its rule tag and named
fields (``companion.pillars.refusals.RULES``, ``docs/pillars.md``), never its English
message."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.kiosk.api import _, colour_word, player_name
from companion.pillars.state import PillarsState

from .names import pillars_card_name, resource_name, space_name
from .sentences import step_title


class _Fields:
    """The refusal's fields, each read the way a sentence needs it (names, not ids)."""

    def __init__(self, fields: Mapping[str, object], state: PillarsState | None, card: str) -> None:
        self.f = fields
        self.state = state
        self.card = card

    def num(self, key: str) -> str:
        value = self.f.get(key, "")
        return str(value)

    def who(self, key: str = "player") -> str:
        seat = self.f.get(key, -1)
        setup = self.state.setup if self.state is not None else None
        if setup is not None and isinstance(seat, int) and 0 <= seat < len(setup.players):
            return player_name(setup, seat)
        return _("the player")

    def space(self) -> str:
        try:
            return space_name(str(self.f.get("space", "")))
        except KeyError:
            return _("that space")

    def res(self) -> str:
        try:
            return resource_name(str(self.f.get("resource", "")))
        except KeyError:
            return _("that resource")

    def named(self, key: str = "card") -> str:
        if key == "card":
            return self.card
        try:
            return pillars_card_name(str(self.f.get(key, "")))
        except KeyError:
            return _("that card")

    def step(self) -> str:
        try:
            return step_title(str(self.f.get("step", "")))
        except KeyError:
            return _("this step")


def _turn(x: _Fields) -> str:
    if x.f.get("player", -1) == -1:
        return _("That is not part of this step ({step}): the table draws or reveals now",
                 step=x.step())
    return _("That is not part of this step ({step}): it is {name}'s turn", step=x.step(),
             name=x.who())


WORDS: dict[str, Callable[[_Fields], str]] = {
    "over": lambda x: _("The game is over"),
    "action": lambda x: _("That is not an action of this game"),
    "turn": _turn,
    "chance.none": lambda x: _("{card} was shown, but no card is being revealed now",
                               card=x.card),
    "chance.step": lambda x: _("The table is revealing {what}, not {card}", what=x.step(),
                               card=x.card),
    "chance.round": lambda x: _("{card} is a craftsman of round {r}; this is round {n}",
                                card=x.card, r=x.num("card_round"), n=x.num("round")),
    "chance.lastround": lambda x: _("{card} comes out only in round 6; this is round {n}",
                                    card=x.card, n=x.num("round")),
    "chance.round6": lambda x: _(
        "Round 6 reveals the two last-round privilege cards, not {card}", card=x.card
    ),
    "chance.revealed": lambda x: _("{card} has already been revealed", card=x.card),
    "chance.bag": lambda x: _("Every master builder of {name} has already been drawn",
                              name=x.who()),
    "chance.colour": lambda x: _("No player at this table plays {colour}",
                                 colour=colour_word(str(x.f.get("colour", "")))),
    "chance.die": lambda x: _("The tax die shows 2, 3, 4 or 5, not {value}",
                              value=x.num("value")),
    "phase1.pool": lambda x: _("{card} is not in the pool", card=x.card),
    "phase1.workers": lambda x: _(
        "{name} cannot take {card}: it needs {need} workers, {name} has {have} free",
        name=x.who(), card=x.card, need=x.num("need"), have=x.num("have"),
    ),
    "phase1.gold": lambda x: _(
        "{name} cannot take {card}: it costs {cost} gold, {name} has {gold}",
        name=x.who(), card=x.card, cost=x.num("cost"), gold=x.num("gold"),
    ),
    "phase1.limit": lambda x: _(
        "{name} has {have} craftsmen and may keep {limit}: discard one of {name}'s own",
        name=x.who(), have=x.num("have"), limit=x.num("limit"),
    ),
    "phase2.cost": lambda x: _(
        "{name} cannot place a master builder for {cost} gold with {gold} gold: {name} must pass",
        name=x.who(), cost=x.num("cost"), gold=x.num("gold"),
    ),
    "phase2.space": lambda x: _(
        "{space} is taken by {owner}'s master builder; each space holds one",
        space=x.space(), owner=x.who("owner"),
    ),
    "phase2.pass": lambda x: _("Placement is free now, so {name}'s master builder must be placed",
                               name=x.who()),
    "phase2.remigius": lambda x: _("{name} does not hold Remigius", name=x.who()),
    "phase2.remigius.free": lambda x: _("Placement is free already: keep Remigius"),
    "phase2.redraw": lambda x: _("{name}, the start player, has already re-drawn this round",
                                 name=x.who()),
    "archbishop.stock": lambda x: _("The market has no {res} left", res=x.res()),
    "once.card": lambda x: _("{name} decides now: play {card} or keep it", name=x.who(),
                             card=x.card),
    "event.lose": lambda x: _("{name} gives up one of their own craftsmen, not {card}",
                              name=x.who(), card=x.card),
    "event.boost": lambda x: _(
        "{card} cannot work once more: choose one of {name}'s own craftsmen, not a Bellmaker "
        "or an Organ Builder", card=x.card, name=x.who(),
    ),
    "shiring.limit": lambda x: _(
        "{name} has {have} craftsmen and may keep {limit}: discard one of {name}'s own",
        name=x.who(), have=x.num("have"), limit=x.num("limit"),
    ),
    "market.both": lambda x: _(
        "{name} cannot buy and sell {res} in the same round", name=x.who(), res=x.res()
    ),
    "market.woodworker": lambda x: _("Buying wood needs a Woodworker"),
    "market.stonecutter": lambda x: _("Selling stone needs a Stonecutter"),
    "market.stock": lambda x: _("The market has {have} {res}, not {need}", have=x.num("have"),
                                res=x.res(), need=x.num("need")),
    "market.gold": lambda x: _("That costs {cost} gold; {name} has {gold}", cost=x.num("cost"),
                               name=x.who(), gold=x.num("gold")),
    "market.cubes": lambda x: _("{name} has {have} {res}, not {need}", name=x.who(),
                                have=x.num("have"), res=x.res(), need=x.num("need")),
    "cathedral.craftsman": lambda x: _("{name} has no {card}", name=x.who(), card=x.card),
    "cathedral.auto": lambda x: _("{card} works by itself", card=x.card),
    "cathedral.capacity": lambda x: _(
        "{card} has worked {used} times this round, as often as it can ({capacity})",
        card=x.card, used=x.num("used"), capacity=x.num("capacity"),
    ),
    "cathedral.mortar": lambda x: _("A Mason scores only for a player with a Mortar Mixer"),
    "cathedral.resource": lambda x: _(
        "One more use of {card} needs {need} {res}; {name} has {have}",
        card=x.card, need=x.num("need"), res=x.res(), name=x.who(), have=x.num("have"),
    ),
    "cathedral.gold": lambda x: _(
        "One more use of {card} needs {need} gold; {name} has {have}",
        card=x.card, need=x.num("need"), name=x.who(), have=x.num("have"),
    ),
    "return.count": lambda x: _(
        "{name} holds {have} resources and keeps at most 5: give back exactly {need}",
        name=x.who(), have=x.num("have"), need=x.num("need"),
    ),
}
"""Words for every rule tag of ``companion.pillars.refusals.RULES``."""


def worded(rule: str, fields: Mapping[str, object], card: str,
           state: PillarsState | None) -> str | None:
    """The refusal ``rule`` with ``fields`` in the current language (``card`` the name of the
    card it names, if any); None for a tag this module does not know."""
    words = WORDS.get(rule)
    return None if words is None else words(_Fields(fields, state, card))
