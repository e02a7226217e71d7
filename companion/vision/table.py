"""Table mode: an overhead camera, four corner markers, and every difference between the cards
on the table and what the engine holds.

The corner markers (ids 246-249, ``companion markers --game table``) go on the corners of the
board or of the play area: top-left, top-right, bottom-right, bottom-left as the camera sees
them.  Their centres are the table's coordinates (0, 0), (1, 0), (1, 1) and (0, 1); a
homography maps every other marker's centre into them, and a layout of rectangular zones in
those coordinates says where each card lies (zones may reach outside the corners: a player's
area beside the board).  ``differences`` then lists, in plain words, every card whose place on
the table differs from the engine's state.

Zones (ids are stable; ``[camera.zones]`` moves their rectangles):

* Pillars: ``kingsbridge`` (privilege cards), ``shiring`` (craftsmen), ``craftsmen/<seat>``;
* Builders: ``sites/<seat>`` (buildings under construction with the workers on them) and
  ``workers/<seat>`` (idle workers).

Each zone checks only the kinds of card it is about: a player's privilege cards lying in their
craftsmen area are not a difference.  Finished Builders machines are turned over, so their
marker is out of sight: they are not expected anywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from companion.kiosk.i18n import _, area_name, card_name

from .detect import Marker
from .markers import CORNER_BASE, REGISTRY

Rect = tuple[float, float, float, float]
CORNER_UV: dict[int, tuple[float, float]] = {
    CORNER_BASE: (0.0, 0.0),
    CORNER_BASE + 1: (1.0, 0.0),
    CORNER_BASE + 2: (1.0, 1.0),
    CORNER_BASE + 3: (0.0, 1.0),
}


@dataclass(frozen=True, slots=True)
class Zone:
    """A rectangle (u0, v0, u1, v1) of the table, the kinds of card it checks, and the seat it
    belongs to (None for a shared zone)."""

    id: str
    rect: Rect
    kinds: frozenset[str]
    seat: int | None = None

    def contains(self, uv: tuple[float, float]) -> bool:
        u, v = uv
        u0, v0, u1, v1 = self.rect
        return u0 <= u < u1 and v0 <= v < v1


def homography(markers: Iterable[Marker]) -> npt.NDArray[np.float64] | None:
    """The 3x3 map from image pixels to table coordinates, from the centres of the four corner
    markers; None unless all four are in view and make a convex quadrilateral in their order."""
    import cv2

    found = {m.id: m.centre for m in markers if m.id in CORNER_UV}
    if len(found) < 4:
        return None
    src = np.array([found[i] for i in sorted(CORNER_UV)], np.float32)
    edges = np.roll(src, -1, axis=0) - src
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(
        edges, -1, axis=0)[:, 0]
    if not (np.all(turns > 0) or np.all(turns < 0)):
        return None  # not a convex quadrilateral in clockwise order: not a table seen
    dst = np.array([CORNER_UV[i] for i in sorted(CORNER_UV)], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)


def to_table(h: npt.NDArray[np.float64], point: tuple[float, float]) -> tuple[float, float]:
    """A pixel position in table coordinates."""
    x, y, w = h @ np.array([point[0], point[1], 1.0])
    return float(x / w), float(y / w)


def layout(game_name: str, players: int,
           overrides: Mapping[str, Rect] | None = None) -> tuple[Zone, ...]:
    """The zones for a game and number of players, with rectangles from ``overrides`` where it
    names a zone.  The defaults assume the corner markers on the corners of the Pillars board
    (players' areas below and above it), or of the play area for The Builders (the card rows
    across the middle, players' areas in the halves or quarters around them)."""
    zones: list[Zone] = []
    if game_name == "pillars":
        zones.append(Zone("kingsbridge", (0.04, 0.04, 0.34, 0.30), frozenset({"privilege"})))
        zones.append(Zone("shiring", (0.66, 0.04, 0.96, 0.30), frozenset({"craftsman"})))
        spots = [(0.0, 1.04), (0.5, 1.04), (0.5, -0.56), (0.0, -0.56)]
        for seat in range(players):
            u, v = spots[seat % 4]
            zones.append(Zone(f"craftsmen/{seat}", (u, v, u + 0.5, v + 0.52),
                              frozenset({"craftsman"}), seat))
    elif game_name == "builders":
        work = frozenset({"worker", "machine"})
        sites = frozenset({"building", "machine", "worker"})
        if players <= 2:
            quads = [(0.0, 1.0, True), (0.0, 1.0, False)]
        else:
            quads = [(0.0, 0.5, True), (0.5, 1.0, True), (0.5, 1.0, False), (0.0, 0.5, False)]
        for seat in range(players):
            u0, u1, bottom = quads[seat % len(quads)]
            if bottom:  # sites nearer the middle, idle workers nearer the player
                zones.append(Zone(f"sites/{seat}", (u0, 0.62, u1, 0.81), sites, seat))
                zones.append(Zone(f"workers/{seat}", (u0, 0.81, u1, 1.0), work, seat))
            else:
                zones.append(Zone(f"sites/{seat}", (u0, 0.19, u1, 0.38), sites, seat))
                zones.append(Zone(f"workers/{seat}", (u0, 0.0, u1, 0.19), work, seat))
    else:
        raise KeyError(f"unknown game {game_name!r}")
    if overrides:
        zones = [Zone(z.id, overrides.get(z.id, z.rect), z.kinds, z.seat) for z in zones]
    return tuple(zones)


@dataclass(frozen=True, slots=True)
class TableView:
    """What the camera sees of the table: the cards in each zone (two copies of a card count
    twice), or why it cannot tell (the corner markers not all in view)."""

    seen: dict[str, list[str]]
    corners: int  # corner markers in view, out of 4

    @property
    def ok(self) -> bool:
        return self.corners == 4


def read_table(markers: Sequence[Marker], game_name: str, zones: Sequence[Zone]) -> TableView:
    """The cards of ``game_name`` in each zone, from one frame's markers; cards outside every
    zone (the rows on offer, the decks) are left out."""
    corners = sum(1 for m in {m.id for m in markers} if m in CORNER_UV)
    h = homography(markers)
    seen: dict[str, list[str]] = {z.id: [] for z in zones}
    if h is None:
        return TableView(seen, corners)
    for m in markers:
        e = REGISTRY.get(m.id)
        if e is None or e.game != game_name:
            continue
        uv = to_table(h, m.centre)
        for z in zones:
            if z.contains(uv):
                seen[z.id].append(e.card)
                break
    return TableView(seen, corners)


def expected(game_name: str, state: Any) -> dict[str, list[str]]:
    """Where the engine has each card the table mode checks, by zone."""
    out: dict[str, list[str]] = {}
    if game_name == "pillars":
        out["kingsbridge"] = [c for c in state.kingsbridge if c]
        out["shiring"] = [c for c in state.shiring if c]
        for seat, s in enumerate(state.seats):
            out[f"craftsmen/{seat}"] = list(s.craftsmen)
    elif game_name == "builders":
        for seat, p in enumerate(state.players):
            hidden = set(p.finished)  # finished machines are turned over
            out[f"sites/{seat}"] = [site.card for site in p.sites] + [
                w for site in p.sites for w in site.workers if w not in hidden
            ]
            out[f"workers/{seat}"] = [w for w in p.idle if w not in hidden]
    else:
        raise KeyError(f"unknown game {game_name!r}")
    return out


_KINDS = {(e.game, e.card): e.kind for e in REGISTRY.values()}


def _kind(game_name: str, card: str) -> str:
    return _KINDS.get((game_name, card), "")


def zone_name(zone: str, state: Any) -> str:
    """A zone in plain words: ``Kingsbridge``, ``Ann's craftsmen``..."""
    if zone in ("kingsbridge", "shiring"):
        return area_name(zone)
    kind, _sep, seat = zone.partition("/")
    name = state.setup.players[int(seat)].name
    if kind == "craftsmen":
        return _("{name}'s craftsmen", name=name)
    if kind == "sites":
        return _("{name}'s building sites", name=name)
    return _("{name}'s idle workers", name=name)


def differences(
    game_name: str,
    state: Any,
    seen: Mapping[str, Collection[str]],
    zones: Sequence[Zone] | None = None,
) -> list[str]:
    """Every difference between the cards the table shows in each zone and the engine's
    ``state``, in plain words (the current language); empty when they agree.

    ``seen`` maps zone ids to the cards in them; a list counts copies (two identical Builders
    Craftsmen), a set does not (then copies are compared as present or absent).  Zones of the
    layout missing from ``seen`` count as empty; cards of kinds a zone does not check are
    ignored there.
    """
    zones = zones or layout(game_name, len(state.setup.players))
    want = expected(game_name, state)
    missing: dict[str, list[str]] = {}  # card -> zones where the engine has it, not the table
    extra: dict[str, list[str]] = {}  # card -> zones where the table has it, not the engine
    for z in zones:
        shown = [c for c in seen.get(z.id, ()) if _kind(game_name, c) in z.kinds]
        wanted = [c for c in want.get(z.id, []) if _kind(game_name, c) in z.kinds]
        if isinstance(seen.get(z.id), (set, frozenset)):
            have, need = Counter(set(shown)), Counter(set(wanted))
        else:
            have, need = Counter(shown), Counter(wanted)
        for card, n in (need - have).items():
            missing.setdefault(card, []).extend([z.id] * n)
        for card, n in (have - need).items():
            extra.setdefault(card, []).extend([z.id] * n)
    out: list[str] = []
    for card in sorted(set(missing) | set(extra), key=lambda c: (_kind(game_name, c), c)):
        name = card_name(game_name, card)
        gone, there = list(missing.get(card, [])), list(extra.get(card, []))
        while gone and there:  # the same card in another zone: it was moved
            out.append(_("{card} is in {there} on the table, in {here} for the engine",
                         card=name, there=zone_name(there.pop(0), state),
                         here=zone_name(gone.pop(0), state)))
        for where in gone:
            out.append(_("{card} is missing from {zone}", card=name,
                         zone=zone_name(where, state)))
        for where in there:
            out.append(_("{card} is in {zone} on the table, but not for the engine",
                         card=name, zone=zone_name(where, state)))
    return out
