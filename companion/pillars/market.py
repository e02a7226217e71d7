"""Phase III, step 12: the market, space 1 to 4 in turn, round and round, until all pass."""

from __future__ import annotations

from typing import Any

from . import cathedral
from . import data as D
from .actions import BUY, PASS, SELL, Action
from .draft import PillarsDraft, add, gain_gold, kinds, spend
from .refusals import refuse
from .state import PillarsState

RES_INDEX = {name: i for i, name in enumerate(D.RESOURCES)}


def next_market(d: PillarsDraft, first: bool = False) -> None:
    if d.market_live:
        later = [m for m in d.market_live if m > d.market_slot]
        k = d.market_live[0] if first or not later else later[0]
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
