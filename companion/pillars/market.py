"""Phase III, step 12: the market, space 1 to 4 in turn, round and round, until all pass."""

from __future__ import annotations

from typing import Any

from . import cathedral
from . import data as D
from .actions import BUY, PASS, SELL, Action
from .draft import PillarsDraft, Table, add, gain_cubes, gain_gold, pay_gold, spend
from .refusals import refuse
from .state import PillarsState

RES_INDEX = {name: i for i, name in enumerate(D.RESOURCES)}
_WOODWORKERS = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.WOODWORKER_KINDS)
_STONECUTTERS = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.STONECUTTER_KINDS)
_MOST = len(SELL[0]) - 1
"""The most cubes one ``sell`` names."""
_PRICE = D.MARKET_PRICE


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


def can_buy(s: Any, r: int) -> bool:
    """Whether a seat may buy resource ``r`` at all this round (P13, not after selling it)."""
    if s.sold >> r & 1:
        return False
    return r != D.WOOD or not _WOODWORKERS.isdisjoint(s.craftsmen)


def can_sell(s: Any, r: int) -> bool:
    """Whether a seat may sell resource ``r`` at all this round (P13, not after buying it)."""
    if s.bought >> r & 1:
        return False
    return r != D.STONE or not _STONECUTTERS.isdisjoint(s.craftsmen)


def legal_market(t: Table) -> list[Action]:
    """Pass; buy 1 up to what the market has and the gold pays of each resource the seat may
    buy; sell 1 up to all it holds of each it may sell (in the notation's range)."""
    s = t.seats[t.turn]
    gold = s.gold
    market = t.market
    out = [PASS]
    for r in (D.STONE, D.WOOD, D.SAND):
        if can_buy(s, r):
            most = gold // _PRICE[r]
            out += BUY[r][1 : (market[r] if market[r] < most else most) + 1]
    res = s.res
    for r in (D.STONE, D.WOOD, D.SAND, D.METAL):
        if can_sell(s, r):
            out += SELL[r][1 : (res[r] if res[r] < _MOST else _MOST) + 1]
    return out


def check_market(state: PillarsState, a: Action) -> None:
    if a == PASS:
        return
    i = state.turn
    who = state.setup.players[i].name
    s = state.seats[i]
    name, n = str(a.args[0]), int(a.args[1])
    r = RES_INDEX[name]
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
        if n > state.market[r]:
            raise refuse(
                a,
                "market.stock",
                f"the market has {state.market[r]} {name}, not {n}",
                player=i,
                resource=name,
                have=state.market[r],
                need=n,
            )
        cost = n * D.MARKET_PRICE[r]
        if cost > s.gold:
            raise refuse(
                a,
                "market.gold",
                f"{n} {name} cost {cost} gold; {who} has {s.gold}",
                player=i,
                cost=cost,
                gold=s.gold,
            )
        return
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


def do_market(d: PillarsDraft, a: Action) -> None:
    if a.verb == "pass":
        slot = d.market_slot
        d.market_live = tuple(m for m in d.market_live if m != slot)
        next_market(d)
        return
    s = d.s(d.turn)
    name = str(a.args[0])
    n = int(a.args[1])
    r = RES_INDEX[name]
    price = D.MARKET_PRICE[r]
    if a.verb == "buy":
        pay_gold(s, n * price, "market.buy", resource=name, count=n)
        d.market = add(d.market, r, -n)
        gain_cubes(s, r, n, "market.buy", resource=name, count=n)
        s.bought |= 1 << r
    else:
        cubes = [0, 0, 0, 0]
        cubes[r] = n
        spend(d, s, cubes, "market.sell", resource=name, count=n)  # to the supply
        gain_gold(s, n * price, "market.sell", resource=name, count=n)
        s.sold |= 1 << r
    next_market(d)
