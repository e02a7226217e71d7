"""Phase III, steps 1 to 11: the event, the Archbishop, the wool mill, Kingsbridge, the
Priory, production, the tax, Shiring and the castle.  Legal actions and handlers per step; the
market (step 12) is in ``market``, the cathedral and the next round (13, 14) in ``cathedral``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import data as D
from . import market
from .actions import (
    ARCHBISHOP,
    BOOST,
    KEEP,
    LOSE,
    PLAY,
    Action,
)
from .draft import (
    PillarsDraft,
    add,
    discard,
    from_supply,
    gain_gold,
    gain_vp,
    limit,
    pay_or_lose,
    without,
)
from .refusals import refuse
from .state import PillarsState

RES_INDEX = {name: i for i, name in enumerate(D.RESOURCES)}


def start(d: PillarsDraft) -> None:
    """After the last builder: the event (already seen with Ellen), or straight on."""
    d.turn = -1
    if d.event:
        after_event_reveal(d)
    elif d.events_unseen:
        d.step = "event"
    else:
        after_event(d)


def next_in_queue(d: PillarsDraft, step: str, then: Callable[[PillarsDraft], None]) -> None:
    if d.queue:
        d.turn, d.queue = d.queue[0], d.queue[1:]
        d.step = step
    else:
        d.turn = -1
        then(d)


# -- 1. The event, 2. the Archbishop's Office -----------------------------------------------


def reveal_event_card(d: PillarsDraft, card: str) -> None:
    d.events_unseen = without(d.events_unseen, card)
    d.event = card


def reveal_event(d: PillarsDraft, a: Action) -> None:
    reveal_event_card(d, str(a.args[0]))
    after_event_reveal(d)


def after_event_reveal(d: PillarsDraft) -> None:
    arch = d.spaces[D.SPACE_INDEX["archbishop"]]
    if arch >= 0:
        d.step = "archbishop"
        d.turn = arch
    else:
        thomas(d)


def legal_archbishop(state: PillarsState) -> list[Action]:
    out = [ARCHBISHOP["protect"]]
    out += [ARCHBISHOP[r] for r, k in zip(D.RESOURCES, state.market, strict=False) if k]
    return out


def do_archbishop(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    choice = str(a.args[0])
    if choice == "protect":
        s.protected = True
    else:
        r = RES_INDEX[choice]
        if not d.market[r]:
            raise refuse(
                a,
                "archbishop.stock",
                f"the market has no {choice} left",
                player=d.turn,
                resource=choice,
            )
        d.market = add(d.market, r, -1)
        s.res = add(s.res, r, 1)
    thomas(d)


def thomas(d: PillarsDraft) -> None:
    if d.event and not D.EVENTS[d.event]:
        d.queue = tuple(
            i for i in d.order() if "thomas" in d.seats[i].privileges and not d.s(i).protected
        )
    else:
        d.queue = ()
    next_in_queue(d, "thomas", resolve_event)


def legal_thomas(state: PillarsState) -> list[Action]:
    return [PLAY["thomas"], KEEP["thomas"]]


def legal_taxfree(state: PillarsState) -> list[Action]:
    return [PLAY["steuerfreiheit"], KEEP["steuerfreiheit"]]


def play_once(d: PillarsDraft, a: Action, card: str) -> bool:
    if a.args[0] != card:
        raise refuse(
            a,
            "once.card",
            f"{d.name(d.turn)} decides: play {card} or keep {card}",
            player=d.turn,
            card=card,
        )
    if a.verb == "keep":
        return False
    s = d.s(d.turn)
    s.privileges = without(s.privileges, card)
    s.spent = (*s.spent, card)
    return True


def do_thomas(d: PillarsDraft, a: Action) -> None:
    if play_once(d, a, "thomas"):
        d.s(d.turn).protected = True
    next_in_queue(d, "thomas", resolve_event)


def resolve_event(d: PillarsDraft) -> None:
    ev = d.event
    affected = [i for i in d.order() if D.EVENTS.get(ev, True) or not d.s(i).protected]
    if ev == "koenig":
        for i in affected:
            gain_gold(d.s(i), 5)
    elif ev == "william":
        for i in affected:
            pay_or_lose(d.s(i), 4)
    elif ev == "richardevent":
        for i in affected:
            from_supply(d, d.s(i), D.METAL, 1)
    elif ev == "konflikt":
        for i in affected:
            gain_vp(d.s(i), -2)
    elif ev == "stadtmauer":
        if d.round < D.ROUNDS:
            for i in affected:
                d.s(i).walled_next = True
    elif ev == "philip":
        for i in affected:
            s = d.s(i)
            gain_gold(s, min(s.wool, 5))
    elif ev == "kaltewinter":
        for i in affected:
            d.s(i).yield_mod = -1
    elif ev == "freiwilligen":
        for i in affected:
            d.s(i).yield_mod = 1
    elif ev == "teile":
        d.queue = tuple(i for i in affected if d.s(i).craftsmen)
        next_in_queue(d, "lose", after_event)
        return
    elif ev == "erzbischof":
        d.queue = tuple(
            i
            for i in affected
            if any(D.CRAFTSMEN[c].kind not in D.NO_BOOST_KINDS for c in d.s(i).craftsmen)
        )
        next_in_queue(d, "boost", after_event)
        return
    after_event(d)


def legal_lose(state: PillarsState) -> list[Action]:
    return [LOSE[c] for c in state.seats[state.turn].craftsmen]


def do_lose(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    card = str(a.args[0])
    if card not in s.craftsmen:
        raise refuse(
            a,
            "event.lose",
            f"{d.name(d.turn)} gives up one own craftsman: {', '.join(s.craftsmen)}",
            player=d.turn,
            card=card,
        )
    s.craftsmen = without(s.craftsmen, card)
    d.removed = (*d.removed, card)
    next_in_queue(d, "lose", after_event)


def legal_boost(state: PillarsState) -> list[Action]:
    return [
        BOOST[c]
        for c in state.seats[state.turn].craftsmen
        if D.CRAFTSMEN[c].kind not in D.NO_BOOST_KINDS
    ]


def do_boost(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    card = str(a.args[0])
    if card not in s.craftsmen or D.CRAFTSMEN[card].kind in D.NO_BOOST_KINDS:
        raise refuse(
            a,
            "event.boost",
            f"{d.name(d.turn)} picks one own craftsman, not a Bellmaker or Organ Builder, "
            "for +1 capacity this round",
            player=d.turn,
            card=card,
        )
    s.boost = card
    next_in_queue(d, "boost", after_event)


# -- 3. to 8. Wool mill, Kingsbridge, Priory, production --------------------------------------


def production(s: Any, r: int) -> int:
    """The cubes of resource ``r`` a seat's cards and privileges yield this round."""
    n = sum(
        max(0, D.RESOURCE_CARDS[c].yield_ + s.yield_mod)
        for c in s.cards
        if D.RESOURCE_CARDS[c].resource == r
    )
    return int(n + sum(1 for p in s.privileges if D.PRODUCTION_BONUS.get(p) == r))


def after_event(d: PillarsDraft) -> None:
    """Steps 3 to 8: wool mill, Kingsbridge, Priory, production; then the tax roll."""
    order = d.order()
    # 3. Wool mill: 1 gold per worker there; the workers go home.
    for i in order:
        s = d.s(i)
        gain_gold(s, s.wool)
        s.wool = 0
    # 4. Kingsbridge: each builder takes the card on its space; the others are discarded.
    for slot, card in zip(D.AREA_SPACES["kingsbridge"], d.kingsbridge, strict=False):
        owner = d.spaces[slot]
        if owner < 0:
            d.priv_out = (*d.priv_out, card)
        else:
            take_privilege(d, owner, card)
    d.kingsbridge = ()
    # 5. Priory: 2 VP and 1 VP, +1 per builder with Prior Philip.
    for slot, vp in zip(D.AREA_SPACES["priory"], D.PRIORY_VP, strict=True):
        owner = d.spaces[slot]
        if owner >= 0:
            s = d.s(owner)
            gain_vp(s, vp + ("priorphilip" in s.privileges))
    # 6-8. Forest, quarry, gravel pit: cards yield from the general supply; what it lacks is
    # the player's at once, owed (ruling P16).
    for r in (D.WOOD, D.STONE, D.SAND):
        for i in order:
            s = d.s(i)
            n = production(s, r)
            if n:
                from_supply(d, s, r, n, owe=True)
    for i in order:
        s = d.s(i)
        d.res_hidden = d.res_hidden + s.cards
        s.cards = ()
    d.step = "roll"
    d.turn = -1


def take_privilege(d: PillarsDraft, i: int, card: str) -> None:
    s = d.s(i)
    kind = D.PRIVILEGES[card]
    if kind != D.IMMEDIATE:
        s.privileges = (*s.privileges, card)
        if card == "otto":
            s.workers += 1  # the black worker (ruling P8)
        return
    d.priv_out = (*d.priv_out, card)
    if card == "madonna":
        gain_vp(s, 3)
    elif card == "wollmesse":
        gain_gold(s, 8)
    elif card == "toledo":
        from_supply(d, s, D.METAL, 2)
    elif card == "vollendung":
        from_supply(d, s, D.STONE, 1)
        from_supply(d, s, D.WOOD, 1)
    elif card == "feierlichkeiten":
        from_supply(d, s, D.METAL, 1)


# -- 9. King's Court ----------------------------------------------------------------------------


def tax_exempt(spaces: tuple[int, ...]) -> set[int]:
    """Seats with a builder at the King's Court."""
    return {spaces[k] for k in D.AREA_SPACES["court"]} - {-1}


def reveal_roll(d: PillarsDraft, a: Action) -> None:
    d.tax = int(a.args[0])
    court = D.AREA_SPACES["court"]
    first = d.spaces[court[0]]
    if first >= 0 and d.court_metal:
        d.court_metal = 0
        s = d.s(first)
        s.res = add(s.res, D.METAL, 1)
    exempt = tax_exempt(d.spaces)
    d.queue = tuple(
        i for i in d.order() if i not in exempt and "steuerfreiheit" in d.seats[i].privileges
    )
    next_in_queue(d, "taxfree", pay_tax)


def do_taxfree(d: PillarsDraft, a: Action) -> None:
    if play_once(d, a, "steuerfreiheit"):
        d.s(d.turn).taxfree = True
    next_in_queue(d, "taxfree", pay_tax)


def tax_due(seat: Any, exempt: bool, roll: int) -> int:
    """What a seat pays at the King's Court for a roll (Francis: 2, ruling P9)."""
    if exempt or seat.taxfree:
        return 0
    return 2 if "francis" in seat.privileges else roll


def pay_tax(d: PillarsDraft) -> None:
    """Everyone without a builder at the King's Court pays the roll (Francis: 2)."""
    exempt = tax_exempt(d.spaces)
    for i in d.order():
        s = d.s(i)
        due = tax_due(s, i in exempt, d.tax)
        if due:
            pay_or_lose(s, due)
    shiring(d)


# -- 10. Shiring, 11. Shiring Castle ------------------------------------------------------------


def shiring(d: PillarsDraft) -> None:
    over = []
    for slot, card in zip(D.AREA_SPACES["shiring"], d.shiring, strict=False):
        owner = d.spaces[slot]
        if owner < 0:
            d.removed = (*d.removed, card)
        else:
            s = d.s(owner)
            s.craftsmen = (*s.craftsmen, card)
            if len(s.craftsmen) > limit(s) and owner not in over:
                over.append(owner)
    d.shiring = ()
    d.queue = tuple(i for i in d.order() if i in over)
    next_in_queue(d, "shiring-discard", castle)


def do_shiring_discard(d: PillarsDraft, a: Action) -> None:
    discard(d, a, "shiring.limit")
    s = d.s(d.turn)
    if len(s.craftsmen) > limit(s):
        return  # two Shiring craftsmen over the limit: discard again
    next_in_queue(d, "shiring-discard", castle)


def castle(d: PillarsDraft) -> None:
    owner = d.spaces[D.SPACE_INDEX["castle"]]
    if owner >= 0:
        take = min(2, d.castle_gray)
        d.castle_gray -= take
        d.s(owner).gray_next += take
    d.market_live = tuple(k for k in D.AREA_SPACES["market"] if d.spaces[k] >= 0)
    market.next_market(d, first=True)
