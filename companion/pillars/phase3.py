"""Phase III, steps 1 to 14: the event, the Archbishop, production, the tax, Shiring, the
castle, the market, the cathedral, and the next round.  Legal actions and handlers per step."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

from . import data as D
from . import phase1
from .actions import (
    ARCHBISHOP,
    BOOST,
    BUY,
    CRAFT,
    DONE,
    KEEP,
    LOSE,
    PASS,
    PLAY,
    SELL,
    Action,
    return_action,
)
from .draft import (
    PillarsDraft,
    SeatDraft,
    add,
    capacity,
    from_supply,
    gain_gold,
    gain_vp,
    kinds,
    limit,
    pay_or_lose,
    spend,
    used,
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
    phase1.discard(d, a, "shiring.limit")
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
    next_market(d, first=True)


# -- 12. The market -----------------------------------------------------------------------------


def next_market(d: PillarsDraft, first: bool = False) -> None:
    if d.market_live:
        later = [m for m in d.market_live if m > d.market_slot]
        k = d.market_live[0] if first or not later else later[0]
        d.market_slot = k
        d.step = "market"
        d.turn = d.spaces[k]
    else:
        d.market_slot = -1
        start_cathedral(d)


def can_buy(s: Any, r: int) -> bool:
    """Whether a seat may buy resource ``r`` at all this round (P13, not after selling it)."""
    if s.sold >> r & 1:
        return False
    return r != D.WOOD or bool(kinds(s) & D.WOODWORKER_KINDS)


def can_sell(s: Any, r: int) -> bool:
    """Whether a seat may sell resource ``r`` at all this round (P13, not after buying it)."""
    if s.bought >> r & 1:
        return False
    return r != D.STONE or bool(kinds(s) & D.STONECUTTER_KINDS)


def legal_market(state: PillarsState) -> list[Action]:
    s = state.seats[state.turn]
    out = [PASS]
    for r in (D.STONE, D.WOOD, D.SAND):
        if can_buy(s, r):
            most = min(state.market[r], s.gold // D.MARKET_PRICE[r])
            out += [BUY[r][k] for k in range(1, most + 1)]
    for r in (D.STONE, D.WOOD, D.SAND, D.METAL):
        if can_sell(s, r):
            out += [SELL[r][k] for k in range(1, min(s.res[r], len(SELL[r]) - 1) + 1)]
    return out


def do_market(d: PillarsDraft, a: Action) -> None:
    i = d.turn
    who = d.name(i)
    s = d.s(i)
    if a == PASS:
        d.market_live = tuple(m for m in d.market_live if m != d.market_slot)
        next_market(d)
        return
    name, n = str(a.args[0]), int(a.args[1])
    r = RES_INDEX[name]
    price = D.MARKET_PRICE[r]
    if a.verb == "buy":
        if s.sold >> r & 1:
            raise refuse(
                a,
                "market.both",
                f"{who} sold {name} this round and cannot buy it too",
                player=i,
                resource=name,
            )
        if not can_buy(s, r):
            raise refuse(
                a, "market.woodworker", f"{who} has no Woodworker and cannot buy wood", player=i
            )
        if n > d.market[r]:
            raise refuse(
                a,
                "market.stock",
                f"the market has {d.market[r]} {name}, not {n}",
                player=i,
                resource=name,
                have=d.market[r],
                need=n,
            )
        if n * price > s.gold:
            raise refuse(
                a,
                "market.gold",
                f"{n} {name} cost {n * price} gold; {who} has {s.gold}",
                player=i,
                cost=n * price,
                gold=s.gold,
            )
        s.gold -= n * price
        d.market = add(d.market, r, -n)
        s.res = add(s.res, r, n)
        s.bought |= 1 << r
    else:
        if s.bought >> r & 1:
            raise refuse(
                a,
                "market.both",
                f"{who} bought {name} this round and cannot sell it too",
                player=i,
                resource=name,
            )
        if not can_sell(s, r):
            raise refuse(
                a,
                "market.stonecutter",
                f"{who} has no Stonecutter and cannot sell stone",
                player=i,
            )
        if n > s.res[r]:
            raise refuse(
                a,
                "market.cubes",
                f"{who} has {s.res[r]} {name}, not {n}",
                player=i,
                resource=name,
                have=s.res[r],
                need=n,
            )
        cubes = [0, 0, 0, 0]
        cubes[r] = n
        spend(d, s, tuple(cubes))  # sold cubes go to the general supply
        gain_gold(s, n * price)
        s.sold |= 1 << r
    next_market(d)


# -- 13. The cathedral --------------------------------------------------------------------------


def start_cathedral(d: PillarsDraft) -> None:
    d.market_live = ()
    d.queue = tuple(d.order())
    next_cathedral(d)


def next_cathedral(d: PillarsDraft) -> None:
    if not d.queue:
        end_round(d)
        return
    d.turn, d.queue = d.queue[0], d.queue[1:]
    d.step = "cathedral"
    s = d.s(d.turn)
    # Tool Maker and Architect work by themselves, first: the Tool Maker needs metal at
    # the end of the round, and that metal may still be spent afterwards.
    for c in s.craftsmen:
        spec = D.CRAFTSMEN[c].spec
        if spec.auto and (not spec.needs_metal or s.res[D.METAL]):
            times = capacity(s, c)
            gain_gold(s, spec.gold * times)
            gain_vp(s, spec.vp * times)
            s.uses = (*s.uses, (c, times))


def legal_cathedral(state: PillarsState) -> list[Action]:
    s = state.seats[state.turn]
    mortar = bool(kinds(s) & D.MORTAR_KINDS)
    out = [CRAFT[c] for c in s.craftsmen if why_not_use(s, c, mortar) is None]
    out.append(DONE)
    return out


def why_not_use(s: Any, c: str, mortar: bool) -> tuple[str, str, dict[str, int | str]] | None:
    """None if craftsman ``c`` can work once more now, else (rule, reason, fields)."""
    card = D.CRAFTSMEN[c]
    spec = card.spec
    if spec.auto:
        return "cathedral.auto", f"{c} works by itself", {"card": c}
    cap = capacity(s, c)
    done = used(s, c)
    if done >= cap:
        return (
            "cathedral.capacity",
            f"{c} works at most {cap} times a round and has worked {done}",
            {"card": c, "capacity": cap, "used": done},
        )
    if spec.needs_mortar and not mortar:
        return (
            "cathedral.mortar",
            f"{c} scores only for a player with a Mortar Mixer",
            {"card": c},
        )
    need = spec.inputs
    res: tuple[int, ...] = s.res
    gold: int = s.gold
    for r in range(4):
        if need[r] > res[r]:
            return (
                "cathedral.resource",
                f"{c} needs {need[r]} {D.RESOURCES[r]}, there is {res[r]}",
                {"card": c, "resource": D.RESOURCES[r], "need": need[r], "have": res[r]},
            )
    if need[4] > gold:
        return (
            "cathedral.gold",
            f"{c} needs {need[4]} gold, there is {gold}",
            {"card": c, "need": need[4], "have": gold},
        )
    return None


def use(d: PillarsDraft, s: SeatDraft, c: str, a: Action) -> None:
    if c not in s.craftsmen:
        raise refuse(
            a,
            "cathedral.craftsman",
            f"{d.name(d.turn)} has no craftsman {c}",
            player=d.turn,
            card=c,
        )
    why = why_not_use(s, c, bool(kinds(s) & D.MORTAR_KINDS))
    if why is not None:
        rule, reason, fields = why
        raise refuse(a, rule, f"{d.name(d.turn)} cannot use {c}: {reason}", player=d.turn, **fields)
    spec = D.CRAFTSMEN[c].spec
    need = spec.inputs
    spend(d, s, need[:4])
    s.gold -= need[4]
    gain_gold(s, spec.gold)
    gain_vp(s, spec.vp)
    uses = dict(s.uses)
    uses[c] = uses.get(c, 0) + 1
    s.uses = tuple(uses.items())


def do_cathedral(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    if a.verb == "craft":
        use(d, s, str(a.args[0]), a)
        return
    if a.verb == "convert":
        for c, times in convert_order(s, a):
            for _ in range(times):
                use(d, s, c, a)
    finish_conversion(d)


def convert_order(s: SeatDraft, a: Action) -> list[tuple[str, int]]:
    """The uses of a ``convert`` in an order that wastes no gold: craftsmen that take no
    gold first; then the Goldsmith spends while it can and the Master Woodworker earns
    when the gold runs short, so the limit of 30 bites as late as possible."""
    plain: list[tuple[str, int]] = []
    smiths: list[str] = []
    earners: list[str] = []
    for c, times in zip(a.args[::2], a.args[1::2], strict=True):
        kind = D.CRAFTSMEN[str(c)].kind
        if kind == "goldsmith":
            smiths += [str(c)] * int(times)
        elif kind == "woodworker!":
            earners += [str(c)] * int(times)
        else:
            plain.append((str(c), int(times)))
    gold = s.gold
    for c in smiths:
        while gold < 3 and earners:
            plain.append((earners.pop(), 1))
            gold += 4
        plain.append((c, 1))
        gold -= 3
    plain += [(c, 1) for c in earners]
    return plain


def return_ways(res: tuple[int, ...], excess: int) -> list[tuple[int, ...]]:
    """Every way to give back exactly ``excess`` cubes from ``res``."""
    return [w for w in product(*(range(min(h, excess) + 1) for h in res)) if sum(w) == excess]


def finish_conversion(d: PillarsDraft) -> None:
    s = d.s(d.turn)
    excess = sum(s.res) - 5
    if excess > 0:
        ways = return_ways(s.res, excess)
        if len(ways) > 1:
            d.step = "return"
            return
        spend(d, s, ways[0])
    next_cathedral(d)


def legal_return(state: PillarsState) -> list[Action]:
    s = state.seats[state.turn]
    return [
        return_action({D.RESOURCES[r]: k for r, k in enumerate(w)})
        for w in return_ways(s.res, sum(s.res) - 5)
    ]


def do_return(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    excess = sum(s.res) - 5
    cubes = [0, 0, 0, 0]
    for name, k in zip(a.args[::2], a.args[1::2], strict=True):
        cubes[RES_INDEX[str(name)]] = int(k)
    held = ", ".join(f"{k} {n}" for k, n in zip(s.res, D.RESOURCES, strict=True) if k)
    if sum(cubes) != excess or any(k > h for k, h in zip(cubes, s.res, strict=True)):
        raise refuse(
            a,
            "return.count",
            f"{d.name(d.turn)} may keep at most 5 resources and holds {held}: give back "
            f"exactly {excess}",
            player=d.turn,
            need=excess,
            have=sum(s.res),
        )
    spend(d, s, tuple(cubes))
    next_cathedral(d)


# -- 14. Next start player, and the next round -------------------------------------------------


def end_round(d: PillarsDraft) -> None:
    d.step = "over"
    d.turn = -1
    d.queue = ()
    owner = d.spaces[D.SPACE_INDEX["cathedral"]]
    d.start = owner if owner >= 0 else (d.start + 1) % d.n
    if d.event:
        d.events_done = (*d.events_done, d.event)
        d.event = ""
    if d.round == D.ROUNDS:
        d.over = True
        return
    d.round += 1
    n = d.n
    # Master builders back into the bag, those set aside too.
    d.bag = tuple(D.BUILDERS_EACH for _ in range(n))
    d.aside = (0,) * n
    d.spaces = (-1,) * len(D.SPACES)
    d.parked = ()
    d.decided = 0
    d.drawn = -1
    d.redraw_used = False
    d.tax = 0
    for i in range(n):
        s = d.s(i)
        d.castle_gray += s.gray
        s.gray, s.gray_next = s.gray_next, 0
        s.passed = False
        s.drawn = 0
        s.walled, s.walled_next = s.walled_next, False
        s.protected = False
        s.taxfree = False
        s.yield_mod = 0
        s.boost = ""
        s.bought = s.sold = 0
        s.uses = ()
    # Market back to 4 of each, the court's metal, from the general supply.
    market = list(d.market)
    supply = list(d.supply)
    for r in range(3):
        add_ = min(D.MARKET_STOCK - market[r], supply[r]) if market[r] < D.MARKET_STOCK else 0
        market[r] += add_
        supply[r] -= add_
    if not d.court_metal and supply[D.METAL]:
        d.court_metal = 1
        supply[D.METAL] -= 1
    d.market = tuple(market)
    d.supply = tuple(supply)
    phase1.start_round(d)
