"""Phase III, steps 1 to 11: the event, the Archbishop, the wool mill, Kingsbridge, the
Priory, production, the tax, Shiring and the castle.  Legal actions, checks and handlers per
step (see ``phase1``); the market (step 12) is in ``market``, the cathedral and the next round
(13, 14) in ``cathedral``."""

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
    Table,
    add,
    check_discard,
    discard,
    from_supply,
    gain_cubes,
    gain_gold,
    gain_vp,
    limit,
    note,
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


def legal_archbishop(t: Table) -> list[Action]:
    out = [ARCHBISHOP["protect"]]
    out += [ARCHBISHOP[r] for r, k in zip(D.RESOURCES, t.market, strict=False) if k]
    return out


def check_archbishop(state: PillarsState, a: Action) -> None:
    choice = str(a.args[0])
    if choice != "protect" and not state.market[RES_INDEX[choice]]:
        raise refuse(
            a,
            "archbishop.stock",
            f"the market has no {choice} left",
            player=state.turn,
            resource=choice,
        )


def do_archbishop(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    choice = str(a.args[0])
    if choice == "protect":
        s.protected = True
    else:
        r = RES_INDEX[choice]
        d.market = add(d.market, r, -1)
        gain_cubes(s, r, 1, "archbishop", space="archbishop")
    thomas(d)


def thomas(d: PillarsDraft) -> None:
    if d.event and not D.EVENTS[d.event]:
        d.queue = tuple(
            i for i in d.order() if "thomas" in d.seats[i].privileges and not d.seats[i].protected
        )
    else:
        d.queue = ()
    next_in_queue(d, "thomas", resolve_event)


def legal_thomas(t: Table) -> list[Action]:
    return [PLAY["thomas"], KEEP["thomas"]]


def legal_taxfree(t: Table) -> list[Action]:
    return [PLAY["steuerfreiheit"], KEEP["steuerfreiheit"]]


def check_once(state: PillarsState, a: Action, card: str) -> None:
    """Refuse playing or keeping another card than the once-per-game ``card`` asked about."""
    if a.args[0] != card:
        raise refuse(
            a,
            "once.card",
            f"{state.setup.players[state.turn].name} decides: play {card} or keep {card}",
            player=state.turn,
            card=card,
        )


def check_thomas(state: PillarsState, a: Action) -> None:
    check_once(state, a, "thomas")


def check_taxfree(state: PillarsState, a: Action) -> None:
    check_once(state, a, "steuerfreiheit")


def play_once(d: PillarsDraft, a: Action, card: str) -> bool:
    """Whether the once-per-game ``card`` is played (and so spent), rather than kept."""
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
    good = D.EVENTS.get(ev, True)
    affected = [i for i in d.order() if good or not d.seats[i].protected]
    if ev == "koenig":
        for i in affected:
            gain_gold(d.s(i), 5, "event", card=ev)
    elif ev == "william":
        for i in affected:
            pay_or_lose(d.s(i), 4, "event", card=ev)
    elif ev == "richardevent":
        for i in affected:
            from_supply(d, d.s(i), D.METAL, 1, "event", card=ev)
    elif ev == "konflikt":
        for i in affected:
            gain_vp(d.s(i), -2, "event", card=ev)
    elif ev == "stadtmauer":
        if d.round < D.ROUNDS:
            for i in affected:
                d.s(i).walled_next = True
    elif ev == "philip":
        for i in affected:
            s = d.s(i)
            gain_gold(s, min(s.wool, 5), "event", card=ev)
    elif ev == "kaltewinter":
        for i in affected:
            d.s(i).yield_mod = -1
    elif ev == "freiwilligen":
        for i in affected:
            d.s(i).yield_mod = 1
    elif ev == "teile":
        d.queue = tuple(i for i in affected if d.seats[i].craftsmen)
        next_in_queue(d, "lose", after_event)
        return
    elif ev == "erzbischof":
        d.queue = tuple(
            i
            for i in affected
            if any(D.CRAFTSMEN[c].kind not in D.NO_BOOST_KINDS for c in d.seats[i].craftsmen)
        )
        next_in_queue(d, "boost", after_event)
        return
    after_event(d)


def legal_lose(t: Table) -> list[Action]:
    return [LOSE[c] for c in t.seats[t.turn].craftsmen]


def check_lose(state: PillarsState, a: Action) -> None:
    s = state.seats[state.turn]
    card = str(a.args[0])
    if card not in s.craftsmen:
        raise refuse(
            a,
            "event.lose",
            f"{state.setup.players[state.turn].name} gives up one own craftsman: "
            f"{', '.join(s.craftsmen)}",
            player=state.turn,
            card=card,
        )


def do_lose(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    card = str(a.args[0])
    s.craftsmen = without(s.craftsmen, card)
    d.removed = (*d.removed, card)
    next_in_queue(d, "lose", after_event)


def legal_boost(t: Table) -> list[Action]:
    return [
        BOOST[c] for c in t.seats[t.turn].craftsmen if D.CRAFTSMEN[c].kind not in D.NO_BOOST_KINDS
    ]


def check_boost(state: PillarsState, a: Action) -> None:
    card = str(a.args[0])
    if card not in state.seats[state.turn].craftsmen or D.CRAFTSMEN[card].kind in D.NO_BOOST_KINDS:
        raise refuse(
            a,
            "event.boost",
            f"{state.setup.players[state.turn].name} picks one own craftsman, not a Bellmaker "
            "or Organ Builder, for +1 capacity this round",
            player=state.turn,
            card=card,
        )


def do_boost(d: PillarsDraft, a: Action) -> None:
    d.s(d.turn).boost = str(a.args[0])
    next_in_queue(d, "boost", after_event)


# -- 3. to 8. Wool mill, Kingsbridge, Priory, production --------------------------------------


_CARD_YIELD = {c: (k.resource, k.yield_) for c, k in D.RESOURCE_CARDS.items()}


def card_yields(s: Any) -> list[int]:
    """The cubes of each resource (stone, wood, sand, metal) a seat's resource cards yield
    this round, with this round's event (privileges not counted)."""
    y = [0, 0, 0, 0]
    mod = s.yield_mod
    for c in s.cards:
        r, n = _CARD_YIELD[c]
        if n + mod > 0:
            y[r] += n + mod
    return y


def production(s: Any, r: int, bonus: bool = True) -> int:
    """The cubes of resource ``r`` a seat's cards (and with ``bonus`` its privileges) yield
    this round."""
    n = card_yields(s)[r]
    if bonus:
        n += sum(1 for p in s.privileges if D.PRODUCTION_BONUS.get(p) == r)
    return n


def after_event(d: PillarsDraft) -> None:
    """Steps 3 to 8: wool mill, Kingsbridge, Priory, production; then the tax roll."""
    seats = [d.s(i) for i in d.order()]  # in turn order
    # 3. Wool mill: 1 gold per worker there; the workers go home.
    for s in seats:
        if s.wool:
            gain_gold(s, s.wool, "wool", workers=s.wool)
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
            space = D.SPACES[slot].id
            gain_vp(s, vp, "priory", space=space)
            if "priorphilip" in s.privileges:
                gain_vp(s, 1, "privilege", card="priorphilip", space=space)
    # 6-8. Forest, quarry, gravel pit: cards yield from the general supply; what it lacks is
    # the player's at once, owed (ruling P16).
    yields = [card_yields(s) for s in seats]
    for r in (D.WOOD, D.STONE, D.SAND):
        for s, y in zip(seats, yields, strict=True):
            if y[r]:
                if s.yield_mod:
                    from_supply(d, s, r, y[r], "production", owe=True, event=d.event)
                else:
                    from_supply(d, s, r, y[r], "production", owe=True)
            for p in s.privileges:
                if D.PRODUCTION_BONUS.get(p) == r:
                    from_supply(d, s, r, 1, "privilege", owe=True, card=p)
    for s in seats:
        if s.cards:
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
            note(s, "workers", 1, "privilege", card=card)
        return
    d.priv_out = (*d.priv_out, card)
    if card == "madonna":
        gain_vp(s, 3, "privilege", card=card)
    elif card == "wollmesse":
        gain_gold(s, 8, "privilege", card=card)
    elif card == "toledo":
        from_supply(d, s, D.METAL, 2, "privilege", card=card)
    elif card == "vollendung":
        from_supply(d, s, D.STONE, 1, "privilege", card=card)
        from_supply(d, s, D.WOOD, 1, "privilege", card=card)
    elif card == "feierlichkeiten":
        from_supply(d, s, D.METAL, 1, "privilege", card=card)


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
        gain_cubes(d.s(first), D.METAL, 1, "court", space=D.SPACES[court[0]].id)
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
        due = tax_due(d.seats[i], i in exempt, d.tax)
        if due:
            pay_or_lose(d.s(i), due, "tax", roll=d.tax, due=due)
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


def check_shiring_discard(state: PillarsState, a: Action) -> None:
    check_discard(state, a, "shiring.limit")


def do_shiring_discard(d: PillarsDraft, a: Action) -> None:
    discard(d, a)
    s = d.s(d.turn)
    if len(s.craftsmen) > limit(s):
        return  # two Shiring craftsmen over the limit: discard again
    next_in_queue(d, "shiring-discard", castle)


def castle(d: PillarsDraft) -> None:
    owner = d.spaces[D.SPACE_INDEX["castle"]]
    if owner >= 0:
        take = min(2, d.castle_gray)
        d.castle_gray -= take
        s = d.s(owner)
        s.gray_next += take
        note(s, "workers", take, "castle", space="castle")
    d.market_live = tuple(k for k in D.AREA_SPACES["market"] if d.spaces[k] >= 0)
    market.next_market(d, first=True)
