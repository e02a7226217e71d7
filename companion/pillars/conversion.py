"""The best conversion at the cathedral: the uses of a player's craftsmen that give the most VP.

Ties go to more gold left, then more resources kept (at most 5 can be kept).  The search is
exact: metal is shared by the Bellmaker, Glassblower and Organ Builder, and wood by the Master
Woodworker (1 wood for 4 gold), so those few uses are enumerated; for each choice the stone, wood
and sand users are independent, and each is a small bounded knapsack solved once per resource for
every amount.  The Goldsmith then takes as many uses as the gold allows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from . import data as D

_SINGLE = {  # kinds that turn one resource type into VP: (resource, cubes per use, VP per use)
    "stonecutter": (D.STONE, 2, 1),
    "mason": (D.STONE, 1, 1),
    "sculptor": (D.STONE, 1, 2),
    "woodworker": (D.WOOD, 2, 1),
    "carpenter": (D.WOOD, 1, 1),
    "mortar": (D.SAND, 3, 1),
    "mortar!": (D.SAND, 2, 1),
    "potter": (D.SAND, 1, 1),
}
_METAL_USERS = ("bellmaker", "glassblower", "organbuilder")
MAX_KEPT = 5
GOLD_LIMIT = D.GOLD_LIMIT


@dataclass(frozen=True)
class Conversion:
    """Uses per craftsman id, the VP gained, the gold and resources left, and what is kept."""

    uses: dict[str, int] = field(default_factory=dict)
    vp: int = 0
    gold: int = 0
    left: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def kept(self) -> int:
        return min(MAX_KEPT, sum(self.left))

    @property
    def key(self) -> tuple[int, int, int]:
        """What is maximised, in order: VP, then gold left, then resources kept."""
        return (self.vp, self.gold, self.kept)


def _knapsack(
    items: list[tuple[str, int, int, int]], amount: int
) -> list[tuple[int, int, dict[str, int]]]:
    """For every budget 0..amount: (VP, cubes used, uses), most VP then fewest cubes."""
    best: list[tuple[int, int, dict[str, int]]] = [(0, 0, {}) for _ in range(amount + 1)]
    for card, need, vp, cap in items:
        nxt = list(best)
        for x in range(amount + 1):
            for k in range(1, cap + 1):
                if k * need > x:
                    break
                pv, pu, puses = best[x - k * need]
                cand = (pv + k * vp, pu + k * need)
                if cand[0] > nxt[x][0] or (cand[0] == nxt[x][0] and cand[1] < nxt[x][1]):
                    nxt[x] = (cand[0], cand[1], {**puses, card: k})
        best = nxt
    return best


def best_conversion(
    craftsmen: list[tuple[D.Craftsman, int]],
    res: tuple[int, int, int, int],
    gold: int,
    has_mortar: bool,
) -> Conversion:
    """The best conversion for craftsmen with their remaining uses this round.

    ``craftsmen`` pairs each card with how many more times it may work (auto kinds excluded);
    ``res`` is stone, wood, sand, metal held; a Mason scores only with ``has_mortar``.
    """
    single: list[list[tuple[str, int, int, int]]] = [[], [], []]
    metal_users: list[tuple[D.Craftsman, int]] = []
    woodworker4: list[tuple[str, int]] = []  # the Master Woodworker: 1 wood -> 4 gold
    goldsmiths: list[tuple[str, int]] = []
    for card, left in craftsmen:
        if left <= 0:
            continue
        kind = card.kind
        if kind in _SINGLE:
            if kind == "mason" and not has_mortar:
                continue
            r, need, vp = _SINGLE[kind]
            single[r].append((card.id, need, vp, left))
        elif kind in _METAL_USERS:
            metal_users.append((card, left))
        elif kind == "woodworker!":
            woodworker4.append((card.id, left))
        elif kind == "goldsmith":
            goldsmiths.append((card.id, left))
    tables = [_knapsack(single[r], res[r]) for r in range(3)]
    smith_cap = sum(k for _, k in goldsmiths)

    best: Conversion | None = None
    metal_ranges = [range(min(left, res[D.METAL]) + 1) for _, left in metal_users]
    ww_ranges = [range(left + 1) for _, left in woodworker4]
    for metal_uses in product(*metal_ranges):
        used = [0, 0, 0, 0]
        vp = 0
        for (card, _), k in zip(metal_users, metal_uses, strict=True):
            inputs = card.spec.inputs
            for r in range(4):
                used[r] += inputs[r] * k
            vp += card.spec.vp * k
        if used[D.METAL] > res[D.METAL] or used[D.WOOD] > res[D.WOOD] or used[D.SAND] > res[D.SAND]:
            continue
        for ww_uses in product(*ww_ranges):
            wood_for_gold = sum(ww_uses)
            if used[D.WOOD] + wood_for_gold > res[D.WOOD]:
                continue
            avail = [res[r] - used[r] - (wood_for_gold if r == D.WOOD else 0) for r in range(3)]
            total_vp = vp
            rest_cubes = [0, 0, 0, res[D.METAL] - used[D.METAL]]
            uses: dict[str, int] = {}
            for r in range(3):
                rvp, rused, ruses = tables[r][avail[r]]
                total_vp += rvp
                rest_cubes[r] = avail[r] - rused
                uses.update(ruses)
            earned = 4 * wood_for_gold
            smith = min(smith_cap, (gold + earned) // 3)
            total_vp += smith
            final_gold = min(GOLD_LIMIT, gold + earned - 3 * smith)
            for (card, _), k in zip(metal_users, metal_uses, strict=True):
                if k:
                    uses[card.id] = k
            for (cid, _), k in zip(woodworker4, ww_uses, strict=True):
                if k:
                    uses[cid] = k
            rest = smith
            for cid, cap in goldsmiths:
                k = min(cap, rest)
                if k:
                    uses[cid] = k
                rest -= k
            cand = Conversion(uses, total_vp, final_gold, tuple(rest_cubes))  # type: ignore[arg-type]
            if best is None or cand.key > best.key:
                best = cand
    return best if best is not None else Conversion({}, 0, gold, res)
