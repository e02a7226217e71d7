"""Phase III, step 12: the market, space 1 to 4 in turn, round and round, until all pass."""

from __future__ import annotations

from . import cathedral
from . import data as D
from .actions import BUY, PASS, SELL, Action
from .draft import PillarsDraft, SeatDraft, Table, add, gain_gold, note, spend, without
from .refusals import refuse
from .state import PillarsState, Seat

RES_INDEX = {name: i for i, name in enumerate(D.RESOURCES)}
_WOODWORKERS = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.WOODWORKER_KINDS)
_STONECUTTERS = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.STONECUTTER_KINDS)
_MOST = len(SELL[0]) - 1
"""The most cubes one ``sell`` names."""
_PRICE = D.MARKET_PRICE
_BUYS = [[BUY[r][1 : k + 1] for k in range(_MOST + 1)] for r in range(3)]
_SELLS = [[SELL[r][1 : k + 1] for k in range(_MOST + 1)] for r in range(4)]
"""``_BUYS[r][k]``: buying 1 to ``k`` cubes of resource ``r`` (``_SELLS`` likewise)."""
_ONE = [[tuple(n if q == r else 0 for q in range(4)) for n in range(_MOST + 1)] for r in range(4)]
"""``_ONE[r][n]``: ``n`` cubes of resource ``r`` alone, as ``spend`` takes them."""


def next_market(d: PillarsDraft, first: bool = False) -> None:
    """The next market space still trading, in slot order (``first``: the first of them), or
    the cathedral once all have passed."""
    live = d.market_live
    if live:
        k = live[0]
        if not first:
            for m in live:
                if m > d.market_slot:
                    k = m
                    break
        d.market_slot = k
        d.step = "market"
        d.turn = d.spaces[k]
    else:
        d.market_slot = -1
        cathedral.start_cathedral(d)


def buyable(s: Seat | SeatDraft) -> int:
    """A bit per resource the seat may buy at all this round: stone and sand, wood only with a
    Woodworker (P13), none it has sold this round."""
    ok = 0b111 & ~s.sold
    if _WOODWORKERS.isdisjoint(s.craftsmen):
        ok &= ~(1 << D.WOOD)
    return ok


def sellable(s: Seat | SeatDraft) -> int:
    """A bit per resource the seat may sell at all this round: wood, sand and metal, stone
    only with a Stonecutter (P13), none it has bought this round."""
    ok = 0b1111 & ~s.bought
    if _STONECUTTERS.isdisjoint(s.craftsmen):
        ok &= ~(1 << D.STONE)
    return ok


def can_buy(s: Seat | SeatDraft, r: int) -> bool:
    """Whether a seat may buy resource ``r`` at all this round (:func:`buyable`)."""
    return bool(buyable(s) >> r & 1)


def can_sell(s: Seat | SeatDraft, r: int) -> bool:
    """Whether a seat may sell resource ``r`` at all this round (:func:`sellable`)."""
    return bool(sellable(s) >> r & 1)


def legal_market(t: Table) -> list[Action]:
    """Pass; buy 1 up to what the market has and the gold pays of each resource the seat may
    buy; sell 1 up to all it holds of each it may sell (in the notation's range)."""
    s = t.seats[t.turn]
    gold = s.gold
    market = t.market
    res = s.res
    buy = buyable(s)
    sell = sellable(s)
    out = [PASS]
    if buy & 1:
        out += _BUYS[0][min(market[0], gold // _PRICE[0])]
    if buy & 2:
        out += _BUYS[1][min(market[1], gold // _PRICE[1])]
    if buy & 4:
        out += _BUYS[2][min(market[2], gold // _PRICE[2])]
    if sell & 1:
        out += _SELLS[0][min(res[0], _MOST)]
    if sell & 2:
        out += _SELLS[1][min(res[1], _MOST)]
    if sell & 4:
        out += _SELLS[2][min(res[2], _MOST)]
    if sell & 8:
        out += _SELLS[3][min(res[3], _MOST)]
    return out


def check_market(state: PillarsState, a: Action) -> None:
    if a == PASS:
        return
    i = state.turn
    who = state.setup.players[i].name
    s = state.seats[i]
    name, n = str(a.args[0]), int(a.args[1])
    r = RES_INDEX[name]
    buying = a.verb == "buy"
    if (s.sold if buying else s.bought) >> r & 1:
        did, other = ("sold", "buy") if buying else ("bought", "sell")
        raise refuse(
            a,
            "market.both",
            f"{who} {did} {name} this round and cannot {other} it too",
            player=i,
            resource=name,
        )
    if buying and not can_buy(s, r):
        raise refuse(
            a, "market.woodworker", f"{who} has no Woodworker and cannot buy wood", player=i
        )
    if not buying and not can_sell(s, r):
        raise refuse(
            a, "market.stonecutter", f"{who} has no Stonecutter and cannot sell stone", player=i
        )
    have = state.market[r] if buying else s.res[r]
    if n > have:
        rule, holder = ("market.stock", "the market") if buying else ("market.cubes", who)
        raise refuse(
            a,
            rule,
            f"{holder} has {have} {name}, not {n}",
            player=i,
            resource=name,
            have=have,
            need=n,
        )
    cost = n * D.MARKET_PRICE[r]
    if buying and cost > s.gold:
        raise refuse(
            a,
            "market.gold",
            f"{n} {name} cost {cost} gold; {who} has {s.gold}",
            player=i,
            cost=cost,
            gold=s.gold,
        )


def do_market(d: PillarsDraft, a: Action) -> None:
    if a.verb == "pass":
        d.market_live = without(d.market_live, d.market_slot)
        next_market(d)
        return
    s = d.s(d.turn)
    name = str(a.args[0])
    n = int(a.args[1])
    r = RES_INDEX[name]
    gold = n * _PRICE[r]
    if a.verb == "buy":
        s.gold -= gold
        d.market = add(d.market, r, -n)
        s.res = add(s.res, r, n)
        s.bought |= 1 << r
        if s.notes is not None:
            note(s, "gold", -gold, "market.buy", resource=name, count=n)
            note(s, name, n, "market.buy", resource=name, count=n)
    else:
        spend(d, s, _ONE[r][n], "market.sell", resource=name, count=n)  # to the supply
        gain_gold(s, gold, "market.sell", resource=name, count=n)
        s.sold |= 1 << r
    next_market(d)
