"""Phase III, step 13: the cathedral (craftsmen used, keep at most 5 resources), and step 14:
the next start player and the next round."""

from __future__ import annotations

from itertools import product
from typing import Any

from . import data as D
from .actions import CRAFT, DONE, Action, return_action
from .draft import (
    PillarsDraft,
    SeatDraft,
    capacity,
    gain_gold,
    gain_vp,
    kinds,
    spend,
    used,
)
from .refusals import refuse
from .state import PillarsState

RES_INDEX = {name: i for i, name in enumerate(D.RESOURCES)}


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
    start_round(d)


def start_round(d: PillarsDraft) -> None:
    d.step = "privilege"
    d.turn = -1
    d.kingsbridge = ()
    d.shiring = ()
    d.pool = ()
    d.round_craftsmen = tuple(c.id for c in D.ROUND_CRAFTSMEN[d.round - 1])
