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
    Table,
    capacity,
    gain_gold,
    gain_vp,
    note,
    spend,
    used,
)
from .refusals import refuse
from .state import PillarsState

RES_INDEX = {name: i for i, name in enumerate(D.RESOURCES)}
_USE = {
    c: (m.spec.auto, m.capacity, m.spec.needs_mortar, m.spec.inputs) for c, m in D.CRAFTSMEN.items()
}
"""Per craftsman what :func:`legal_cathedral` asks: works by itself, capacity, needs a Mortar Mixer,
inputs (stone, wood, sand, metal, gold)."""
_MAKES = {c: (m.spec.inputs, m.spec.gold, m.spec.vp) for c, m in D.CRAFTSMEN.items()}
"""Per craftsman what one use takes (stone, wood, sand, metal, gold) and gives (gold, VP)."""
_AUTO = frozenset(c for c, m in D.CRAFTSMEN.items() if m.spec.auto)
_MORTAR = frozenset(c for c, m in D.CRAFTSMEN.items() if m.kind in D.MORTAR_KINDS)


def start_cathedral(d: PillarsDraft) -> None:
    d.market_live = ()
    d.queue = d.order()
    next_cathedral(d)


def next_cathedral(d: PillarsDraft) -> None:
    if not d.queue:
        end_round(d)
        return
    d.turn, d.queue = d.queue[0], d.queue[1:]
    d.step = "cathedral"
    # Tool Maker and Architect work by themselves, first: the Tool Maker needs metal at
    # the end of the round, and that metal may still be spent afterwards.
    for c in d.seats[d.turn].craftsmen:
        if c not in _AUTO:
            continue
        s = d.s(d.turn)
        spec = D.CRAFTSMEN[c].spec
        if not spec.needs_metal or s.res[D.METAL]:
            times = capacity(s, c)
            gain_gold(s, spec.gold * times, "cathedral", card=c)
            gain_vp(s, spec.vp * times, "cathedral", card=c)
            s.uses = (*s.uses, (c, times))


def hand_uses(s: Any) -> tuple[tuple[str, int], ...]:
    """The seat's craftsmen used by hand (not the Tool Maker or Architect), each with the uses
    it has left this round: capacity, +1 when boosted, minus the uses made."""
    made = dict(s.uses) if s.uses else {}
    boost = s.boost
    return tuple(
        (c, _USE[c][1] + (boost == c) - made.get(c, 0)) for c in s.craftsmen if c not in _AUTO
    )


def mortar(s: Any) -> bool:
    """Whether the seat has a Mortar Mixer (for the craftsmen that need one, P13)."""
    return not _MORTAR.isdisjoint(s.craftsmen)


def legal_cathedral(t: Table) -> list[Action]:
    """A ``craft`` of each of the craftsmen of the seat to act that can work once more now,
    by hand, in its order: not the Tool Maker or Architect, below capacity (+1 boosted), a
    Mortar Mixer where needed, the inputs held (:func:`why_not_use` says why another cannot);
    then ``done``."""
    s = t.seats[t.turn]
    has_mortar = mortar(s)
    uses = dict(s.uses)
    boost = s.boost
    res = s.res
    gold = s.gold
    out = []
    for c in s.craftsmen:
        auto, cap, needs_mortar, need = _USE[c]
        if (
            auto
            or (needs_mortar and not has_mortar)
            or uses.get(c, 0) >= cap + (boost == c)
            or need[0] > res[0]
            or need[1] > res[1]
            or need[2] > res[2]
            or need[3] > res[3]
            or need[4] > gold
        ):
            continue
        out.append(CRAFT[c])
    out.append(DONE)
    return out


def why_not_use(s: Any, c: str) -> tuple[str, str, dict[str, int | str]]:
    """Why the seat's craftsman ``c`` cannot work once more now (:func:`legal_cathedral`
    leaves it out): (rule, reason, fields)."""
    spec = D.CRAFTSMEN[c].spec
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
    if spec.needs_mortar and not mortar(s):
        return (
            "cathedral.mortar",
            f"{c} scores only for a player with a Mortar Mixer",
            {"card": c},
        )
    need = spec.inputs
    for r in range(4):
        if need[r] > s.res[r]:
            return (
                "cathedral.resource",
                f"{c} needs {need[r]} {D.RESOURCES[r]}, there is {s.res[r]}",
                {"card": c, "resource": D.RESOURCES[r], "need": need[r], "have": s.res[r]},
            )
    return (
        "cathedral.gold",
        f"{c} needs {need[4]} gold, there is {s.gold}",
        {"card": c, "need": need[4], "have": s.gold},
    )


def check_use(t: Table, c: str, a: Action) -> None:
    """Refuse a use of craftsman ``c`` that the seat to act cannot make now."""
    s = t.seats[t.turn]
    name = t.setup.players[t.turn].name
    if c not in s.craftsmen:
        raise refuse(
            a, "cathedral.craftsman", f"{name} has no craftsman {c}", player=t.turn, card=c
        )
    if CRAFT[c] not in legal_cathedral(t):
        rule, reason, fields = why_not_use(s, c)
        raise refuse(a, rule, f"{name} cannot use {c}: {reason}", player=t.turn, **fields)


def use(d: PillarsDraft, s: SeatDraft, c: str) -> None:
    """One use of craftsman ``c``: its inputs paid, its gold and VP gained."""
    need, gold, vp = _MAKES[c]
    if need[0] or need[1] or need[2] or need[3]:
        spend(d, s, need, "cathedral", card=c)
    if need[4]:
        s.gold -= need[4]
        if s.notes is not None:
            note(s, "gold", -need[4], "cathedral", card=c)
    if gold:
        gain_gold(s, gold, "cathedral", card=c)
    if vp:
        gain_vp(s, vp, "cathedral", card=c)
    uses = dict(s.uses)
    uses[c] = uses.get(c, 0) + 1
    s.uses = tuple(uses.items())


def check_cathedral(state: PillarsState, a: Action) -> None:
    """A ``craft`` the seat cannot make now, or a ``convert`` one of whose uses it cannot
    make when its turn comes (the uses walked in order on a scratch draft)."""
    if a.verb == "craft":
        check_use(state, str(a.args[0]), a)
    elif a.verb == "convert":
        d = PillarsDraft(state)
        s = d.s(d.turn)
        for c, times in convert_order(s, a):
            for _ in range(times):
                check_use(d, c, a)
                use(d, s, c)


def do_cathedral(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    if a.verb == "craft":
        use(d, s, str(a.args[0]))
        return
    if a.verb == "convert":
        for c, times in convert_order(s, a):
            for _ in range(times):
                use(d, s, c)
    finish_conversion(d, s)


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


_WAYS: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
""":func:`ways_to_keep_5`'s answers by hand (forgotten past :data:`_WAYS_MOST`)."""
_WAYS_MOST = 10_000
_RETURN: dict[tuple[int, ...], Action] = {}


def ways_to_keep_5(res: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to give back the cubes of ``res`` above 5 (remembered: few hands recur)."""
    ways = _WAYS.get(res)
    if ways is None:
        if len(_WAYS) >= _WAYS_MOST:
            _WAYS.clear()
        ways = _WAYS[res] = return_ways(res, sum(res) - 5)
    return ways


def _return_action(way: tuple[int, ...]) -> Action:
    """The ``return`` of the cubes ``way`` (made once per way)."""
    a = _RETURN.get(way)
    if a is None:
        a = _RETURN[way] = return_action({D.RESOURCES[r]: k for r, k in enumerate(way)})
    return a


def finish_conversion(d: PillarsDraft, s: SeatDraft) -> None:
    """The seat to act has finished at the cathedral: it gives back what it holds above 5
    cubes (it chooses how where there are several ways), and the next player's turn."""
    if sum(s.res) > 5:
        ways = ways_to_keep_5(s.res)
        if len(ways) > 1:
            d.step = "return"
            return
        spend(d, s, ways[0], "return")
    next_cathedral(d)


def legal_return(t: Table) -> list[Action]:
    return [_return_action(w) for w in ways_to_keep_5(t.seats[t.turn].res)]


def check_return(state: PillarsState, a: Action) -> None:
    s = state.seats[state.turn]
    excess = sum(s.res) - 5
    cubes = _cubes(a)
    if sum(cubes) != excess or any(k > h for k, h in zip(cubes, s.res, strict=True)):
        held = ", ".join(f"{k} {n}" for k, n in zip(s.res, D.RESOURCES, strict=True) if k)
        raise refuse(
            a,
            "return.count",
            f"{state.setup.players[state.turn].name} may keep at most 5 resources and holds "
            f"{held}: give back exactly {excess}",
            player=state.turn,
            need=excess,
            have=sum(s.res),
        )


def _cubes(a: Action) -> list[int]:
    """The cubes a ``return`` gives back, by resource."""
    cubes = [0, 0, 0, 0]
    for name, k in zip(a.args[::2], a.args[1::2], strict=True):
        cubes[RES_INDEX[str(name)]] = int(k)
    return cubes


def do_return(d: PillarsDraft, a: Action) -> None:
    spend(d, d.s(d.turn), _cubes(a), "return")
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
    for i in range(d.n):
        if d.seats[i].gray:  # the gray workers go back to the castle (noted in this round)
            s = d.s(i)
            note(s, "workers", -s.gray, "castle.return")
    d.next_round()
    n = d.n
    # Master builders back into the bag, those set aside too.
    d.bag = (D.BUILDERS_EACH,) * n
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
    d.round_craftsmen = D.ROUND_IDS[d.round - 1]


def winning_seats(t: Table) -> list[int]:
    """The seats with the most VP, then the most gold; still tied: a shared win (ruling
    P14)."""
    keys = [(s.vp, s.gold) for s in t.seats]
    best = max(keys)
    return [i for i, k in enumerate(keys) if k == best]
