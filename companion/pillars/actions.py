"""Actions of The Pillars of the Earth and their text notation.

One small class, like a chess move: a verb and its arguments.  ``str(action)`` is the notation
and ``parse_action(text)`` reads it back; the two round-trip.

Chance outcomes (information barriers)::

    privilege madonna        a privilege card revealed onto the next Kingsbridge space
    craftsman mason2         a round craftsman revealed onto the next Shiring space
    resource wood3           a resource card revealed into the pool
    event koenig             the event card revealed (at the start of the round with Ellen)
    draw red                 a master builder of that colour drawn from the bag
    roll 4                   the tax die

Decisions::

    take stone4 | take mason2          phase I: take a card from the pool
    pass                               phase I draft, a drawn builder, or the market
    discard mason2                     over the craftsman limit: the card that leaves the game
    place court1                       a drawn (or parked) builder placed on a space
    remigius court1                    the same, free, spending Remigius
    redraw                             the start player's once-a-round re-draw
    archbishop protect | archbishop stone
    play thomas | keep thomas          once-per-game privileges (thomas, steuerfreiheit)
    lose mason2                        event: the craftsman you give up
    boost mason2                       event: the craftsman with +1 capacity this round
    buy wood 2 | sell metal 1          the market
    craft mason2                       the cathedral: one use of a craftsman
    convert mason2x2 potter3x1         the cathedral: several uses at once, then done
    done                               the cathedral: finished converting (``convert`` with
                                       no uses is read as ``done``: one notation per action)
    return wood 2 sand 1               keep at most 5 resources: the cubes given back
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.errors import MalformedAction

from .data import CRAFTSMEN, EVENTS, PRIVILEGES, RESOURCE_CARDS, RESOURCES, SPACE_INDEX, SPACES

COLOUR_WORDS = ("red", "blue", "yellow", "green")


@dataclass(frozen=True, slots=True)
class Action:
    """A move: ``verb`` and its arguments (card, space, resource ids and counts)."""

    verb: str
    args: tuple[str | int, ...] = ()

    def __str__(self) -> str:
        args = self.args if isinstance(self.args, tuple) else (self.args,)
        if self.verb == "convert" and len(args) % 2 == 0:
            pairs = zip(args[::2], args[1::2], strict=True)
            return " ".join(["convert", *(f"{c}x{n}" for c, n in pairs)])
        return " ".join([str(self.verb), *map(str, args)])

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


def _card(text: str, word: str, known: object, what: str) -> str:
    if word not in known:  # type: ignore[operator]
        raise MalformedAction(text, f"unknown {what} {word!r}")
    return word


MAX_COUNT = 99
"""The largest count the notation takes (no holding in the game comes near it)."""


def _count(text: str, word: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 2 or not 1 <= int(word) <= MAX_COUNT:
        raise MalformedAction(text, f"{word[:12]!r} is not a count from 1 to {MAX_COUNT}")
    return int(word)


_NO_ARGS = {"pass", "redraw", "done"}
_CARD_VERBS = {
    "privilege": (PRIVILEGES, "privilege card"),
    "craftsman": (CRAFTSMEN, "craftsman"),
    "resource": (RESOURCE_CARDS, "resource card"),
    "event": (EVENTS, "event card"),
    "discard": (CRAFTSMEN, "craftsman"),
    "lose": (CRAFTSMEN, "craftsman"),
    "boost": (CRAFTSMEN, "craftsman"),
    "craft": (CRAFTSMEN, "craftsman"),
    "place": (SPACE_INDEX, "space"),
    "remigius": (SPACE_INDEX, "space"),
    "draw": (COLOUR_WORDS, "colour"),
}
_ONCE_PRIVILEGES = ("thomas", "steuerfreiheit")
_TAKEABLE = {**CRAFTSMEN, **RESOURCE_CARDS}


def parse_action(text: str) -> Action:
    """Read an action's notation; raises MalformedAction naming what is wrong (and nothing
    else, whatever the input)."""
    if not isinstance(text, str):
        raise MalformedAction(repr(text), "an action's notation is text")
    words = text.strip().lower().split()
    if not words:
        raise MalformedAction(text, "it is empty")
    verb, rest = words[0], words[1:]
    if verb in _NO_ARGS:
        if rest:
            raise MalformedAction(text, f"{verb!r} takes no argument")
        return Action(verb)
    if verb in _CARD_VERBS or verb == "take":
        if len(rest) != 1:
            raise MalformedAction(text, f"{verb!r} takes one argument")
        known, what = (_TAKEABLE, "card") if verb == "take" else _CARD_VERBS[verb]
        return Action(verb, (_card(text, rest[0], known, what),))
    if verb == "roll":
        if len(rest) != 1 or rest[0] not in ("2", "3", "4", "5"):
            raise MalformedAction(text, "the tax die shows 2, 3, 4 or 5")
        return Action(verb, (int(rest[0]),))
    if verb == "archbishop":
        if len(rest) != 1 or rest[0] not in ("protect", "stone", "wood", "sand"):
            raise MalformedAction(text, "archbishop takes protect, stone, wood or sand")
        return Action(verb, (rest[0],))
    if verb in ("play", "keep"):
        if len(rest) != 1 or rest[0] not in _ONCE_PRIVILEGES:
            raise MalformedAction(text, f"{verb!r} takes {' or '.join(_ONCE_PRIVILEGES)}")
        return Action(verb, (rest[0],))
    if verb in ("buy", "sell"):
        if len(rest) != 2:
            raise MalformedAction(text, f"{verb!r} takes a resource and a count")
        kinds = RESOURCES[:3] if verb == "buy" else RESOURCES
        if rest[0] not in kinds:
            raise MalformedAction(text, f"cannot {verb} {rest[0]!r}; one of {', '.join(kinds)}")
        return Action(verb, (rest[0], _count(text, rest[1])))
    if verb == "return":
        if not rest or len(rest) % 2:
            raise MalformedAction(text, "return takes resource and count pairs")
        args: list[str | int] = []
        seen = set()
        for name, n in zip(rest[::2], rest[1::2], strict=True):
            if name not in RESOURCES:
                raise MalformedAction(text, f"unknown resource {name!r}")
            if name in seen:
                raise MalformedAction(text, f"{name} is named twice")
            seen.add(name)
            args += [name, _count(text, n)]
        return return_action({str(k): int(v) for k, v in zip(args[::2], args[1::2], strict=True)})
    if verb == "convert":
        if not rest:
            return DONE  # ``convert`` with no uses is ``done``
        uses: dict[str, int] = {}
        for item in rest:
            card, sep, n = item.partition("x")
            if not sep:
                raise MalformedAction(text, f"{item!r} is not craftsman x count, e.g. mason2x2")
            _card(text, card, CRAFTSMEN, "craftsman")
            if card in uses:
                raise MalformedAction(text, f"{card} is named twice")
            uses[card] = _count(text, n)
        return convert_action(uses)
    raise MalformedAction(text, f"unknown verb {verb!r}")


def return_action(cubes: dict[str, int]) -> Action:
    """``return`` in canonical order (stone, wood, sand, metal), zero counts left out."""
    args: list[str | int] = []
    for name in RESOURCES:
        if cubes.get(name, 0) > 0:
            args += [name, cubes[name]]
    return Action("return", tuple(args))


def convert_action(uses: dict[str, int]) -> Action:
    """``convert`` in canonical order (sorted by craftsman id), zero counts left out; ``done``
    when no use is left (one notation per action)."""
    args: list[str | int] = []
    for card in sorted(uses):
        if uses[card] > 0:
            args += [card, uses[card]]
    return Action("convert", tuple(args)) if args else DONE


def canonical(action: object) -> Action | None:
    """``action`` if it is a well-formed action in its one canonical notation, else None.

    Actions built by hand (not parsed) may carry anything: an unknown card, a negative or
    huge count, a list.  An action is accepted when its notation parses back to itself;
    the result is remembered, so the common actions cost one dictionary lookup."""
    try:
        known = _CANONICAL.get(action)
    except TypeError:  # unhashable arguments
        return None
    if known is not None:
        return known
    if not isinstance(action, Action) or not isinstance(action.verb, str):
        return None
    try:
        parsed = parse_action(str(_plain(action)))
    except (MalformedAction, ValueError, TypeError):
        return None
    if parsed != action:
        return None
    if len(_CANONICAL) < 100_000:  # only good actions are remembered, under their parsed form
        _CANONICAL[parsed] = parsed
    return parsed


def _plain(action: Action) -> Action:
    """``action`` with whole-number floats and booleans written as ints, so that actions that
    compare equal are treated alike (``buy sand 2.0`` is ``buy sand 2``)."""
    args = []
    for x in action.args:
        if isinstance(x, (bool, float)):
            try:
                if x == int(x):
                    x = int(x)
            except (OverflowError, ValueError):
                pass
        args.append(x)
    return Action(action.verb, tuple(args))


_CANONICAL: dict[object, Action] = {}

PASS = Action("pass")
DONE = Action("done")
REDRAW = Action("redraw")

# Interned decisions: legal_actions hands out these objects instead of building new ones.
PLACE = {s.id: Action("place", (s.id,)) for s in SPACES}
REMIGIUS = {s.id: Action("remigius", (s.id,)) for s in SPACES}
ARCHBISHOP = {k: Action("archbishop", (k,)) for k in ("protect", "stone", "wood", "sand")}
PLAY = {k: Action("play", (k,)) for k in _ONCE_PRIVILEGES}
KEEP = {k: Action("keep", (k,)) for k in _ONCE_PRIVILEGES}
BUY = [[Action("buy", (RESOURCES[r], k)) for k in range(MAX_COUNT + 1)] for r in range(3)]
SELL = [[Action("sell", (RESOURCES[r], k)) for k in range(MAX_COUNT + 1)] for r in range(4)]
CRAFT = {c: Action("craft", (c,)) for c in CRAFTSMEN}
TAKE = {c: Action("take", (c,)) for c in _TAKEABLE}
DISCARD = {c: Action("discard", (c,)) for c in CRAFTSMEN}
LOSE = {c: Action("lose", (c,)) for c in CRAFTSMEN}
BOOST = {c: Action("boost", (c,)) for c in CRAFTSMEN}
