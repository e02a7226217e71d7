"""Pillars actions in words: what was done (:func:`action_text`) and what the table does with
the pieces (:func:`instruction`), in the current language, from the rules state before the
action.  Names of cards, spaces and resources come from the catalogues, never ids."""

from __future__ import annotations

from companion.engine import CHANCE
from companion.engine.ledger import Entry
from companion.kiosk.i18n import _
from companion.kiosk.words import player_name
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


def action_text(state: PillarsState, action: Action) -> str:
    """What ``action`` did (or does) in ``state``, naming the player: ``Red took the quarry
    with 8 workers``.  ``state`` is the state before the action."""
    verb = action.verb
    arg = str(action.args[0]) if action.args else ""
    seat = _actor(state, action)
    name = _who(state, seat)
    if verb == "privilege":
        return _("The table revealed {card} for Kingsbridge", card=_card(arg))
    if verb == "craftsman":
        return _("The table revealed {card} for Shiring", card=_card(arg))
    if verb == "resource":
        return _("The table revealed {card}", card=_card(arg))
    if verb == "event":
        if state.step == "peek":
            holder = next(
                (i for i, s in enumerate(state.seats) if "ellen" in s.privileges), -1
            )
            return _("{name} looked at the coming event in secret", name=_who(state, holder))
        return _("The event of this round: {card}", card=_card(arg))
    if verb == "draw":
        return _("{name}'s master builder was drawn", name=_who(state, _drawn_colour(state, arg)))
    if verb == "roll":
        return _("The tax die shows {n}", n=arg)
    if verb == "take":
        rc = D.RESOURCE_CARDS.get(arg)
        if rc is not None:
            return _("{name} took {card} with {n} workers", name=name, card=_card(arg),
                     n=rc.workers)
        return _("{name} took {card} for {n} gold", name=name, card=_card(arg),
                 n=D.CRAFTSMEN[arg].cost)
    if verb == "pass":
        if state.step == "draft":
            return _("{name} passed: no more cards this round", name=name)
        if state.step == "market":
            return _("{name} is done at the market", name=name)
        return _("{name} passed: the master builder waits beside the board", name=name)
    if verb == "discard":
        return _("{name} discarded {card}", name=name, card=_card(arg))
    if verb == "place":
        cost = _place_cost(state)
        if cost:
            return _("{name} paid {n} gold for a master builder on {space}", name=name,
                     space=space_name(arg), n=cost)
        return _("{name} placed a master builder for free on {space}", name=name,
                 space=space_name(arg))
    if verb == "remigius":
        return _("{name} used Remigius to place a master builder on {space}",
                 name=name, space=space_name(arg))
    if verb == "redraw":
        owner = _who(state, state.drawn)
        return _("{name}, the start player, sent {owner}'s master builder back into the bag",
                 name=name, owner=owner)
    if verb == "archbishop":
        if arg == "protect":
            return _("{name} chose protection from the event", name=name)
        return _("{name} took 1 {res} from the market at {area}", name=name,
                 res=resource_name(arg), area=area_name("archbishop"))
    if verb == "play":
        if arg == "thomas":
            return _("{name} played Thomas: protected from the event", name=name)
        return _("{name} played the tax exemption: no tax this round", name=name)
    if verb == "keep":
        return _("{name} kept {card} for later", name=name, card=_card(arg))
    if verb == "lose":
        return _("{name} gave up {card}", name=name, card=_card(arg))
    if verb == "boost":
        return _("{name}'s {card} works once more this round", name=name, card=_card(arg))
    if verb == "buy":
        n = int(action.args[1])
        return _("{name} bought {n} {res} for {gold} gold", name=name, n=n,
                 res=resource_name(arg), gold=n * D.MARKET_PRICE[D.RESOURCES.index(arg)])
    if verb == "sell":
        n = int(action.args[1])
        return _("{name} sold {n} {res} for {gold} gold", name=name, n=n,
                 res=resource_name(arg), gold=n * D.MARKET_PRICE[D.RESOURCES.index(arg)])
    if verb == "craft":
        return _("{name} used {card} once for the cathedral", name=name, card=_card(arg))
    if verb == "convert":
        return _("{name} worked for the cathedral: {uses}", name=name,
                 uses=uses_text(action.args))
    if verb == "done":
        return _("{name} finished at the cathedral", name=name)
    if verb == "return":
        return _("{name} gave back {cubes}", name=name, cubes=cubes_text(action.args))
    return _("{name}: {action}", name=name, action=str(action))


def instruction(state: PillarsState, action: Action) -> str:
    """What the table does with the pieces for ``action`` in ``state`` (imperative): ``take
    the quarry, put 8 of Green's workers on it``."""
    verb = action.verb
    arg = str(action.args[0]) if action.args else ""
    seat = _actor(state, action)
    name = _who(state, seat)
    if verb == "privilege":
        return _("put {card} on Kingsbridge", card=_card(arg))
    if verb == "craftsman":
        return _("put {card} on Shiring", card=_card(arg))
    if verb == "resource":
        return _("put {card} in the pool", card=_card(arg))
    if verb == "event":
        if state.step == "peek":
            return _("put the top event card aside face down")
        return _("turn up the event card {card}", card=_card(arg))
    if verb == "draw":
        who = _who(state, _drawn_colour(state, arg))
        return _("draw {name}'s master builder from the bag", name=who)
    if verb == "roll":
        return _("roll the tax die: {n}", n=arg)
    if verb == "take":
        rc = D.RESOURCE_CARDS.get(arg)
        if rc is not None:
            return _("take {card}, put {n} of {name}'s workers on it", card=_card(arg),
                     n=rc.workers, name=name)
        return _("take {card}, {name} pays {n} gold", card=_card(arg), name=name,
                 n=D.CRAFTSMEN[arg].cost)
    if verb == "pass":
        if state.step == "draft":
            return _("{name} takes no more cards this round", name=name)
        if state.step == "market":
            return _("{name} trades no more", name=name)
        return _("put {name}'s master builder beside the board", name=name)
    if verb in ("discard", "lose"):
        return _("put {card} out of the game", card=_card(arg))
    if verb == "place":
        cost = _place_cost(state)
        if cost:
            return _("put {name}'s master builder on {space}, {name} pays {n} gold", name=name,
                     space=space_name(arg), n=cost)
        return _("put {name}'s master builder on {space}", name=name, space=space_name(arg))
    if verb == "remigius":
        return _("put {name}'s master builder on {space}, discard Remigius", name=name,
                 space=space_name(arg))
    if verb == "redraw":
        return _("put {owner}'s master builder back into the bag and draw again",
                 owner=_who(state, state.drawn))
    if verb == "archbishop":
        if arg == "protect":
            return _("{name} takes the protection from the event", name=name)
        return _("move 1 {res} from the market to {name}", res=resource_name(arg), name=name)
    if verb == "play":
        return _("discard {card}", card=_card(arg))
    if verb == "keep":
        return _("{name} keeps {card}", name=name, card=_card(arg))
    if verb == "boost":
        return _("mark {card}: it works once more this round", card=_card(arg))
    if verb == "buy":
        n = int(action.args[1])
        return _("buy {n} {res}: {name} pays {gold} gold", n=n, res=resource_name(arg),
                 name=name, gold=n * D.MARKET_PRICE[D.RESOURCES.index(arg)])
    if verb == "sell":
        n = int(action.args[1])
        return _("sell {n} {res}: {name} gets {gold} gold", n=n, res=resource_name(arg),
                 name=name, gold=n * D.MARKET_PRICE[D.RESOURCES.index(arg)])
    if verb == "craft":
        return _("{name} uses {card}: {moves}", name=name, card=_card(arg),
                 moves=moves_text(state, [action]))
    if verb == "convert":
        return _("{name} uses {uses}: {moves}", name=name, uses=uses_text(action.args),
                 moves=moves_text(state, [action]))
    if verb == "done":
        return _("{name} is done at the cathedral", name=name)
    if verb == "return":
        return _("put {cubes} back into the supply", cubes=cubes_text(action.args))
    return str(action)


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
    the market's buys and sells, each kind once with its total; the craftsmen's uses, each
    with how many times and what the table moves; how the visit ends."""
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
    for (verb, arg), n in counts.items():
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
