"""What a choice of the hint leads to in The Pillars of the Earth: what it changes of the seat's
holdings now, and what the seat's craftsmen make of its resources at the cathedral this round
(the best conversion, with the cubes its resource cards still yield before it), so that a
choice says why it is good: "+3 wood, -12 gold; then your Woodworker makes 3 VP more at the
cathedral"."""

from __future__ import annotations

from companion.kiosk.api import _, n_
from companion.pillars import data as D
from companion.pillars.conversion import Conversion, best_conversion
from companion.pillars.draft import capacity, kinds, used
from companion.pillars.state import PillarsState

from .names import pillars_card_name

AFTER_PRODUCTION = ("roll", "taxfree", "shiring-discard", "market", "cathedral", "return")
"""The steps of a round after the resource cards have yielded their cubes."""


def projected(state: PillarsState, seat: int) -> tuple[int, int, int, int]:
    """The seat's resources at the cathedral as far as it knows now: what it holds and, before
    the production, what its resource cards yield."""
    s = state.seats[seat]
    res = list(s.res)
    if state.step not in AFTER_PRODUCTION:
        for card in s.cards:
            c = D.RESOURCE_CARDS[card]
            res[c.resource] += max(0, c.yield_ + s.yield_mod)
    return (res[0], res[1], res[2], res[3])


def conversion(state: PillarsState, seat: int) -> Conversion:
    """The best conversion the seat can look forward to this round."""
    s = state.seats[seat]
    return best_conversion(
        [(D.CRAFTSMEN[c], capacity(s, c) - used(s, c)) for c in s.craftsmen
         if not D.CRAFTSMEN[c].spec.auto],
        projected(state, seat), s.gold, bool(kinds(s) & D.MORTAR_KINDS))


def at_the_cathedral(before: PillarsState, seat: int, after: PillarsState) -> str:
    """What the choice changes of the VP the seat's craftsmen make this round, and with which
    craftsman ("" when it changes nothing there)."""
    if before.round != after.round or after.over:
        return ""
    was, now = conversion(before, seat), conversion(after, seat)
    gained = now.vp - was.vp
    if not gained:
        return ""
    card = max(now.uses, key=lambda c: now.uses[c] - was.uses.get(c, 0), default="")
    if gained > 0 and card and now.uses[card] > was.uses.get(card, 0):
        return n_("then your {card} makes {n} VP more at the cathedral",
                  "then your {card} makes {n} VP more at the cathedral", gained,
                  card=pillars_card_name(card))
    if gained > 0:
        return n_("then {n} VP more at the cathedral", "then {n} VP more at the cathedral",
                  gained)
    return n_("then {n} VP fewer at the cathedral", "then {n} VP fewer at the cathedral",
              -gained)


def join(now: str, later: str) -> str:
    """The change now and what comes of it, as one line."""
    if now and later:
        return _("{now}; {later}", now=now, later=later)
    return now or later


__all__ = ["at_the_cathedral", "conversion", "join", "projected"]
