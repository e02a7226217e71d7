"""Pillars actions in words: what was done (:func:`action_text`) and what the table does with
the pieces (:func:`instruction`), in the current language, from the rules state before the
action.  Names of cards, spaces and resources come from the catalogues, never ids."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.engine import CHANCE
from companion.engine.ledger import Entry
from companion.kiosk.api import _, player_name
from companion.pillars import PillarsGame
from companion.pillars import data as D
from companion.pillars.actions import Action
from companion.pillars.state import PillarsState

from .names import area_name, pillars_card_name, resource_name, space_name


def step_title(step: str) -> str:
    """A short title for each step of the round."""
    return {
        "privilege": _("Reveal privilege cards"),
        "craftsman": _("Reveal craftsmen for Shiring"),
        "resource": _("Reveal resource cards"),
        "peek": _("Ellen sees the coming event"),
        "draft": _("Phase I: take a card or pass"),
        "draft-discard": _("Too many craftsmen: discard one"),
        "draw": _("Phase II: draw a master builder"),
        "place": _("Phase II: place or pass"),
        "parked": _("Phase II: place a passed builder"),
        "event": _("Phase III: the event"),
        "archbishop": _("Archbishop's Office"),
        "thomas": _("Thomas: protection?"),
        "lose": _("Give up a craftsman"),
        "boost": _("A craftsman works once more"),
        "roll": _("King's Court: roll the tax die"),
        "taxfree": _("Tax exemption?"),
        "shiring-discard": _("Too many craftsmen: discard one"),
        "market": _("The market"),
        "cathedral": _("The cathedral"),
        "return": _("Keep at most 5 resources"),
        "over": _("Game over"),
    }[step]


def _actor(state: PillarsState, action: Action) -> int:
    """The seat taking ``action``: the start player for a re-draw, -1 for the table."""
    if action.verb == "redraw" and state.step == "place":
        return state.start
    if state.step in ("privilege", "craftsman", "resource", "event", "peek", "draw", "roll"):
        return CHANCE
    return state.turn


def _who(state: PillarsState, seat: int) -> str:
    return player_name(state.setup, seat) if 0 <= seat < len(state.setup.players) else ""


def _card(card: str) -> str:
    try:
        return pillars_card_name(card)
    except KeyError:  # an action built by hand: never show what is not a card's name
        return _("that card")


def cubes_text(args: tuple[str | int, ...]) -> str:
    """``wood 2 sand 1`` as ``2 wood, 1 sand`` in the current language."""
    parts = [
        _("{n} {res}", n=int(n), res=resource_name(str(r)))
        for r, n in zip(args[::2], args[1::2], strict=False)
    ]
    return _(", ").join(parts)


def uses_text(args: tuple[str | int, ...]) -> str:
    """``mason2 2 potter3 1`` as ``Mason (round 2) ×2, Potter (round 3) ×1``."""
    parts = [
        _("{card} ×{n}", card=_card(str(c)), n=int(n))
        for c, n in zip(args[::2], args[1::2], strict=False)
    ]
    return _(", ").join(parts)


def _drawn_colour(state: PillarsState, colour: str) -> int:
    return next((i for i, p in enumerate(state.setup.players) if p.colour == colour), -1)


def _place_cost(state: PillarsState) -> int:
    return 0 if state.step == "parked" else max(D.FIRST_COST - state.decided, 0)


@dataclass(frozen=True)
class _Move:
    """An action as the sentences see it: the state before it, the action, its first argument
    and the name of the seat taking it (empty for the table)."""

    state: PillarsState
    action: Action
    arg: str
    name: str

    @classmethod
    def of(cls, state: PillarsState, action: Action) -> _Move:
        arg = str(action.args[0]) if action.args else ""
        return cls(state, action, arg, _who(state, _actor(state, action)))

    @property
    def card(self) -> str:
        return _card(self.arg)

    @property
    def space(self) -> str:
        return space_name(self.arg)

    @property
    def res(self) -> str:
        return resource_name(self.arg)

    @property
    def n(self) -> int:
        """How many cubes a buy or sell moves."""
        return int(self.action.args[1])

    @property
    def gold(self) -> int:
        """What a buy or sell of ``n`` cubes costs or yields."""
        return self.n * D.MARKET_PRICE[D.RESOURCES.index(self.arg)]

    @property
    def drawn(self) -> str:
        """Whose master builder a draw draws (the argument is its colour)."""
        return _who(self.state, _drawn_colour(self.state, self.arg))

    @property
    def ellen(self) -> str:
        """Who holds Ellen (the seat that looks at the coming event)."""
        seats = self.state.seats
        return _who(self.state, next((i for i, s in enumerate(seats) if "ellen" in s.privileges),
                                     -1))

    @property
    def owner(self) -> str:
        """Whose master builder was drawn (the one a re-draw sends back)."""
        return _who(self.state, self.state.drawn)


Sentence = Callable[[_Move], str]
"""The words of one kind of action (its verb)."""


def _kind(w: _Move) -> str:
    """The kind of action whose words ``_WORDS`` holds: its verb, or for a verb said
    differently by the moment, the verb and the case (``take.craftsman``, ``pass.market``)."""
    verb, step = w.action.verb, w.state.step
    if verb == "event" and step == "peek":
        return "event.peek"
    if verb == "take":
        return "take.resource" if w.arg in D.RESOURCE_CARDS else "take.craftsman"
    if verb == "pass":
        return "pass." + (step if step in ("draft", "market") else "place")
    if verb == "place":
        return "place.paid" if _place_cost(w.state) else "place.free"
    if verb == "archbishop" and w.arg == "protect":
        return "archbishop.protect"
    if verb == "play" and w.arg == "thomas":
        return "play.thomas"
    return verb


def _out_of_the_game(w: _Move) -> str:
    return _("put {card} out of the game", card=w.card)


_WORDS: dict[str, tuple[Sentence, Sentence]] = {
    "privilege": (lambda w: _("The table revealed {card} for Kingsbridge", card=w.card),
                  lambda w: _("put {card} on Kingsbridge", card=w.card)),
    "craftsman": (lambda w: _("The table revealed {card} for Shiring", card=w.card),
                  lambda w: _("put {card} on Shiring", card=w.card)),
    "resource": (lambda w: _("The table revealed {card}", card=w.card),
                 lambda w: _("put {card} in the pool", card=w.card)),
    "event.peek": (lambda w: _("{name} looked at the coming event in secret", name=w.ellen),
                   lambda w: _("put the top event card aside face down")),
    "event": (lambda w: _("The event of this round: {card}", card=w.card),
              lambda w: _("turn up the event card {card}", card=w.card)),
    "draw": (lambda w: _("{name}'s master builder was drawn", name=w.drawn),
             lambda w: _("draw {name}'s master builder from the bag", name=w.drawn)),
    "roll": (lambda w: _("The tax die shows {n}", n=w.arg),
             lambda w: _("roll the tax die: {n}", n=w.arg)),
    "take.resource": (lambda w: _("{name} took {card} with {n} workers", name=w.name,
                                  card=w.card, n=D.RESOURCE_CARDS[w.arg].workers),
                      lambda w: _("take {card}, put {n} of {name}'s workers on it",
                                  card=w.card, n=D.RESOURCE_CARDS[w.arg].workers,
                                  name=w.name)),
    "take.craftsman": (lambda w: _("{name} took {card} for {n} gold", name=w.name,
                                   card=w.card, n=D.CRAFTSMEN[w.arg].cost),
                       lambda w: _("take {card}, {name} pays {n} gold", card=w.card,
                                   name=w.name, n=D.CRAFTSMEN[w.arg].cost)),
    "pass.draft": (lambda w: _("{name} passed: no more cards this round", name=w.name),
                   lambda w: _("{name} takes no more cards this round", name=w.name)),
    "pass.market": (lambda w: _("{name} is done at the market", name=w.name),
                    lambda w: _("{name} trades no more", name=w.name)),
    "pass.place": (lambda w: _("{name} passed: the master builder waits beside the board",
                               name=w.name),
                   lambda w: _("put {name}'s master builder beside the board", name=w.name)),
    "discard": (lambda w: _("{name} discarded {card}", name=w.name, card=w.card),
                _out_of_the_game),
    "place.paid": (lambda w: _("{name} paid {n} gold for a master builder on {space}",
                               name=w.name, space=w.space, n=_place_cost(w.state)),
                   lambda w: _("put {name}'s master builder on {space}, {name} pays {n} gold",
                               name=w.name, space=w.space, n=_place_cost(w.state))),
    "place.free": (lambda w: _("{name} placed a master builder for free on {space}",
                               name=w.name, space=w.space),
                   lambda w: _("put {name}'s master builder on {space}", name=w.name,
                               space=w.space)),
    "remigius": (lambda w: _("{name} used Remigius to place a master builder on {space}",
                             name=w.name, space=w.space),
                 lambda w: _("put {name}'s master builder on {space}, discard Remigius",
                             name=w.name, space=w.space)),
    "redraw": (lambda w: _("{name}, the start player, sent {owner}'s master builder back into "
                           "the bag", name=w.name, owner=w.owner),
               lambda w: _("put {owner}'s master builder back into the bag and draw again",
                           owner=w.owner)),
    "archbishop.protect": (lambda w: _("{name} chose protection from the event", name=w.name),
                           lambda w: _("{name} takes the protection from the event",
                                       name=w.name)),
    "archbishop": (lambda w: _("{name} took 1 {res} from the market at {area}", name=w.name,
                               res=w.res, area=area_name("archbishop")),
                   lambda w: _("move 1 {res} from the market to {name}", res=w.res,
                               name=w.name)),
    "play.thomas": (lambda w: _("{name} played Thomas: protected from the event", name=w.name),
                    lambda w: _("discard {card}", card=w.card)),
    "play": (lambda w: _("{name} played the tax exemption: no tax this round", name=w.name),
             lambda w: _("discard {card}", card=w.card)),
    "keep": (lambda w: _("{name} kept {card} for later", name=w.name, card=w.card),
             lambda w: _("{name} keeps {card}", name=w.name, card=w.card)),
    "lose": (lambda w: _("{name} gave up {card}", name=w.name, card=w.card), _out_of_the_game),
    "boost": (lambda w: _("{name}'s {card} works once more this round", name=w.name,
                          card=w.card),
              lambda w: _("mark {card}: it works once more this round", card=w.card)),
    "buy": (lambda w: _("{name} bought {n} {res} for {gold} gold", name=w.name, n=w.n,
                        res=w.res, gold=w.gold),
            lambda w: _("buy {n} {res}: {name} pays {gold} gold", n=w.n, res=w.res,
                        name=w.name, gold=w.gold)),
    "sell": (lambda w: _("{name} sold {n} {res} for {gold} gold", name=w.name, n=w.n,
                         res=w.res, gold=w.gold),
             lambda w: _("sell {n} {res}: {name} gets {gold} gold", n=w.n, res=w.res,
                         name=w.name, gold=w.gold)),
    "craft": (lambda w: _("{name} used {card} once for the cathedral", name=w.name,
                          card=w.card),
              lambda w: _("{name} uses {card}: {moves}", name=w.name, card=w.card,
                          moves=moves_text(w.state, [w.action]))),
    "convert": (lambda w: _("{name} worked for the cathedral: {uses}", name=w.name,
                            uses=uses_text(w.action.args)),
                lambda w: _("{name} uses {uses}: {moves}", name=w.name,
                            uses=uses_text(w.action.args),
                            moves=moves_text(w.state, [w.action]))),
    "done": (lambda w: _("{name} finished at the cathedral", name=w.name),
             lambda w: _("{name} is done at the cathedral", name=w.name)),
    "return": (lambda w: _("{name} gave back {cubes}", name=w.name,
                           cubes=cubes_text(w.action.args)),
               lambda w: _("put {cubes} back into the supply", cubes=cubes_text(w.action.args))),
}
"""The words of each kind of action (:func:`_kind`): what it did (the log) and what the table
does with the pieces for it (an instruction)."""


def action_text(state: PillarsState, action: Action) -> str:
    """What ``action`` did (or does) in ``state``, naming the player: ``Red took the quarry
    with 8 workers``.  ``state`` is the state before the action."""
    w = _Move.of(state, action)
    words = _WORDS.get(_kind(w))
    return words[0](w) if words is not None else _("{name}: {action}", name=w.name,
                                                      action=str(action))


def instruction(state: PillarsState, action: Action) -> str:
    """What the table does with the pieces for ``action`` in ``state`` (imperative): ``take
    the quarry, put 8 of Green's workers on it``."""
    w = _Move.of(state, action)
    words = _WORDS.get(_kind(w))
    return words[1](w) if words is not None else str(action)


def _rules() -> PillarsGame:
    global _GAME
    if _GAME is None:
        _GAME = PillarsGame()
    return _GAME


_GAME: PillarsGame | None = None


def moves_text(state: PillarsState, actions: list[Action]) -> str:
    """What the acting player moves for ``actions`` (taken one after another from
    ``state``), from the ledger: ``2 stone back to the supply, +1 VP``."""
    game = _rules()
    seat = state.turn
    after = state
    for a in actions:
        after = game.apply(after, a)
    totals: dict[str, int] = {}
    for e in game.ledger(after)[len(game.ledger(state)):]:
        if e.player == seat:
            totals[e.what] = totals.get(e.what, 0) + e.amount
    parts = []
    for what in ("gold", *D.RESOURCES):  # what goes back first, then what comes
        n = totals.get(what, 0)
        if n < 0:
            parts.append(_("{things} back to the supply", things=_amount(what, -n)))
    for what in ("gold", *D.RESOURCES):
        n = totals.get(what, 0)
        if n > 0:
            parts.append(_("{things} from the supply", things=_amount(what, n)))
    if totals.get("vp"):
        parts.append(_("{n} VP", n=f"{totals['vp']:+d}"))
    return _(", ").join(parts) or _("nothing moves")


def _amount(what: str, n: int) -> str:
    if what == "gold":
        return _("{n} gold", n=n)
    return _("{n} {res}", n=n, res=resource_name(what))


def visit_instruction(states: list[PillarsState], actions: list[Action]) -> str:
    """One instruction for a whole visit of one seat (``states[k]`` before ``actions[k]``):
    the market's sales, then its purchases, each kind once with its total (read in order,
    the sales pay for the purchases: every step is affordable when it is read); the
    craftsmen's uses, each with how many times and what the table moves; how the visit
    ends."""
    if len(actions) == 1:
        return instruction(states[0], actions[0])
    state = states[0]
    name = _who(state, state.turn)
    counts: dict[tuple[str, str], int] = {}
    firsts: dict[tuple[str, str], int] = {}
    end = ""
    for k, a in enumerate(actions):
        if a.verb in ("buy", "sell", "craft"):
            key = (a.verb, str(a.args[0]))
            firsts.setdefault(key, k)
            counts[key] = counts.get(key, 0) + (int(a.args[1]) if a.verb != "craft" else 1)
        elif a.verb in ("pass", "done"):
            end = _("then {name} is done", name=name)
        else:
            end = instruction(states[k], a)
    parts = []
    order = {"sell": 0, "buy": 1, "craft": 2}
    for (verb, arg), n in sorted(counts.items(), key=lambda kn: order[kn[0][0]]):
        if verb == "craft":
            uses = [a for a in actions if a.verb == "craft" and str(a.args[0]) == arg]
            start = states[firsts[(verb, arg)]]
            if n == 1:
                parts.append(_("uses {card}: {moves}", card=_card(arg),
                               moves=moves_text(start, uses)))
            else:
                parts.append(_("uses {card} {n} times: {moves}", card=_card(arg), n=n,
                               moves=moves_text(start, uses)))
            continue
        gold = n * D.MARKET_PRICE[D.RESOURCES.index(arg)]
        if verb == "buy":
            parts.append(_("buys {n} {res} for {gold} gold", n=n, res=resource_name(arg),
                           gold=gold))
        else:
            parts.append(_("sells {n} {res} for {gold} gold", n=n, res=resource_name(arg),
                           gold=gold))
    where = state.step
    if where == "market":
        head = _("{name} at the market: {moves}", name=name, moves=_("; ").join(parts))
    else:
        head = _("{name} at the cathedral: {moves}", name=name, moves=_("; ").join(parts))
    return _("{first} {then}", first=head + _("; "), then=end) if end else head


def _short(card: str) -> str:
    """A card's name without its bracketed details (``Conflict``, ``Prior Philip``)."""
    name = _card(card)
    for bracket in (" (", "（", "("):
        if bracket in name:
            return name.split(bracket)[0].strip()
    return name


def cause_text(entry: Entry) -> str:
    """Why a Pillars ledger entry happened (its cause tag and detail, ``docs/pillars.md``), in
    the current language: ``the Priory, space 1``, ``tax: the die shows 4``."""
    cause = entry.cause
    card = str(entry.get("card", ""))
    space = str(entry.get("space", ""))
    if cause == "start":
        return _("the start of the game")
    if cause == "craftsman":
        return _("bought {card}", card=_card(card))
    if cause == "builder":
        return _("master builder on {space}", space=_space(space))
    if cause == "event":
        if entry.get("short"):
            return _("event: {card}; {n} gold short, 1 VP per 2", card=_short(card),
                     n=entry.get("short"))
        return _("event: {card}", card=_short(card))
    if cause == "archbishop":
        return area_name("archbishop")
    if cause == "wool":
        return _("the wool mill, {n} workers", n=entry.get("workers", 0))
    if cause == "privilege":
        if space:
            return _("{card} at {space}", card=_short(card), space=_space(space))
        return _short(card)
    if cause == "priory":
        return _space(space)
    if cause == "production":
        event = str(entry.get("event", ""))
        if event:
            # the event's name as a label, never inside a sentence ("with A cold winter")
            return _("resource cards (event: {card})", card=_short(event))
        return _("resource cards")
    if cause == "court":
        return area_name("court")
    if cause == "tax":
        if entry.get("short"):
            return _("tax: the die shows {roll}, {n} gold short", roll=entry.get("roll"),
                     n=entry.get("short"))
        return _("tax: the die shows {roll}", roll=entry.get("roll"))
    if cause == "castle":
        return _("gray workers from {area}", area=area_name("castle"))
    if cause == "castle.return":
        return _("gray workers back to {area}", area=area_name("castle"))
    if cause == "market.buy":
        return _("bought at the market")
    if cause == "market.sell":
        return _("sold at the market")
    if cause == "cathedral":
        return _("{card} at the cathedral", card=_card(card))
    if cause == "return":
        return _("given back: at most 5 resources")
    if cause == "position":
        return _("the position set up by hand")
    return cause


def _space(space: str) -> str:
    try:
        return space_name(space)
    except KeyError:
        return space


_SAID = {
    "take": ("craftsman",),
    "place": ("builder",),
    "buy": ("market.buy",),
    "sell": ("market.sell",),
    "return": ("return",),
}
"""The causes an action's sentence already tells (the gold a craftsman costs)."""

_OWN = {
    "archbishop": ("archbishop",),
    "craft": ("cathedral",),
    "convert": ("cathedral",),
}
"""Other causes of an action's own changes (the VP and cubes of a craftsman's work)."""


def ledger_role(state: PillarsState, action: Action, entry: Entry) -> str:
    """``said``, ``action`` or ``rules`` (see ``GameWords.ledger_role``) for a Pillars entry."""
    if entry.player == state.turn:
        if entry.cause in _SAID.get(action.verb, ()):
            return "said"
        if entry.cause in _OWN.get(action.verb, ()):
            return "action"
    return "rules"


def period_heading(state: PillarsState) -> str:
    """The log's heading for the round of ``state``."""
    return _("Round {n}", n=state.round)


def aftermath(before: PillarsState, action: Action, after: PillarsState) -> list[str]:
    """What the rules did after ``action`` besides the ledger's changes: the event Ellen's owner
    saw, made public when phase III begins; a third master builder set aside (the town wall);
    a new start player at the end of a round."""
    out = []
    phase2 = ("draw", "place", "parked")
    if before.event and before.step in phase2 and (
        after.step not in phase2 or after.round != before.round
    ):
        # Seen at the start of the round by Ellen's owner alone: public from phase III on.
        out.append(_("The event of this round: {card}", card=_card(before.event)))
    for seat, (was, now) in enumerate(zip(before.aside, after.aside, strict=False)):
        if now > was:
            out.append(_("{name}'s third master builder is set aside: only two this round",
                         name=_who(before, seat)))
    if after.start != before.start:
        out.append(_("{name} becomes the start player", name=_who(after, after.start)))
    return out
