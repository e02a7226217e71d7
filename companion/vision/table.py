"""Table mode: an overhead camera, four corner markers, and every difference between the cards
on the table and what the engine holds.

The corner markers (ids 246-249, ``companion markers --game table``) go on the corners of the
board or of the play area: top-left, top-right, bottom-right, bottom-left as the camera sees
them.  Their centres are the table's coordinates (0, 0), (1, 0), (1, 1) and (0, 1); a
homography (four corners) or the plane's affine map (any three) maps every other marker's
centre into them, and a layout of rectangular zones in
those coordinates says where each card lies (zones may reach outside the corners: a player's
area beside the board).  ``differences`` then lists every card whose place on the table
differs from the engine's state, as plain data the kiosk words.

Each game gives its zones in its registry record (``GameSpec.table_zones``, ids stable;
``[camera.zones]`` moves their rectangles) and where its state has each card
(``GameSpec.table_cards``).

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

from companion.engine.registry import GameSpec, Rect, TableZone

from .detect import Marker
from .markers import CORNER_BASE, CORNER_MM, REGISTRY, TABLE_CARD_MM

Zone = TableZone
CORNER_UV: dict[int, tuple[float, float]] = {
    CORNER_BASE: (0.0, 0.0),
    CORNER_BASE + 1: (1.0, 0.0),
    CORNER_BASE + 2: (1.0, 1.0),
    CORNER_BASE + 3: (0.0, 1.0),
}


def homography(markers: Iterable[Marker]) -> npt.NDArray[np.float64] | None:
    """The 3x3 map from image pixels to table coordinates, from the centres of the corner
    markers in view: all four give the perspective map (None unless they make a convex
    quadrilateral in their order); any three give the plane's affine map (exact for a camera
    looking straight down, close for one tilted by a few degrees), so a card or a hand over
    one corner does not stop the check (None unless the three turn the table's way round).
    None with fewer than three."""
    import cv2

    found = {m.id: m.centre for m in markers if m.id in CORNER_UV}
    if len(found) == 3:
        ids = sorted(found)
        src = np.array([found[i] for i in ids], np.float32)
        dst = np.array([CORNER_UV[i] for i in ids], np.float32)
        if _turn(src) * _turn(dst) <= 0 or abs(_turn(src)) < 1.0:
            return None  # mirrored or in a line: not the table seen
        a = np.asarray(cv2.getAffineTransform(src, dst), dtype=np.float64)
        return np.vstack([a, [0.0, 0.0, 1.0]])
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


def _turn(p: npt.NDArray[np.float32]) -> float:
    """Twice the signed area of a triangle (which way round its points go)."""
    (ax, ay), (bx, by), (cx, cy) = p.tolist()
    return float((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def to_table(h: npt.NDArray[np.float64], point: tuple[float, float]) -> tuple[float, float]:
    """A pixel position in table coordinates."""
    x, y, w = h @ np.array([point[0], point[1], 1.0])
    return float(x / w), float(y / w)


def layout(spec: GameSpec, players: int,
           overrides: Mapping[str, Rect] | None = None) -> tuple[Zone, ...]:
    """The zones of the game ``spec`` for a number of players, with rectangles from
    ``overrides`` where it names a zone; KeyError for a game with no table mode."""
    if spec.table_zones is None:
        raise KeyError(f"{spec.title} has no table mode")
    zones = list(spec.table_zones(players))
    if overrides:
        zones = [Zone(z.id, overrides.get(z.id, z.rect), z.kinds, z.seat, z.area, z.role)
                 for z in zones]
    return tuple(zones)


@dataclass(frozen=True, slots=True)
class TableView:
    """What the camera sees of the table: the cards in each zone (two copies of a card count
    twice), or why it cannot tell (fewer than three corner markers in view); ``rejected``
    lists the markers whose size is off what the corners predict for a card sticker (a
    marker-shaped icon on the board, or a sticker of another size): they count nowhere."""

    seen: dict[str, list[str]]
    corners: int  # corner markers in view, out of 4
    rejected: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return self.corners >= 3


SIZE_TOLERANCE = 1.35
"""A card sticker may look this many times larger or smaller than the corners predict
(perspective, a card lying on another) before it is taken for something else."""


def read_table(markers: Sequence[Marker], game_name: str, zones: Sequence[Zone], *,
               card_mm: float = TABLE_CARD_MM, corner_mm: float = CORNER_MM) -> TableView:
    """The cards of ``game_name`` in each zone, from one frame's markers; cards outside every
    zone (the rows on offer, the decks) are left out.  A marker whose side, in table
    coordinates, is not within ``SIZE_TOLERANCE`` of what the corner markers predict for a
    ``card_mm`` sticker (the corners being ``corner_mm``) is rejected."""
    corners = sum(1 for m in {m.id for m in markers} if m in CORNER_UV)
    h = homography(markers)
    seen: dict[str, list[str]] = {z.id: [] for z in zones}
    if h is None:
        return TableView(seen, corners)
    sides = [_side_uv(h, m) for m in markers if m.id in CORNER_UV]
    want = float(np.median(sides)) * card_mm / corner_mm if sides else 0.0
    rejected = []
    for m in markers:
        e = REGISTRY.get(m.id)
        if e is None or e.game != game_name:
            continue
        side = _side_uv(h, m)
        if want > 0 and not want / SIZE_TOLERANCE <= side <= want * SIZE_TOLERANCE:
            rejected.append(m.id)
            continue
        uv = to_table(h, m.centre)
        for z in zones:
            if z.contains(uv):
                seen[z.id].append(e.card)
                break
    return TableView(seen, corners, tuple(sorted(rejected)))


def _side_uv(h: npt.NDArray[np.float64], m: Marker) -> float:
    """A marker's mean side in table coordinates."""
    pts = np.array([to_table(h, c) for c in m.corners])
    return float(np.mean(np.linalg.norm(pts - np.roll(pts, 1, axis=0), axis=1)))


def expected(spec: GameSpec, state: Any) -> dict[str, list[str]]:
    """Where the engine has each card the table mode checks, by zone."""
    if spec.table_cards is None:
        raise KeyError(f"{spec.title} has no table mode")
    return spec.table_cards(state)


_KINDS = {(e.game, e.card): e.kind for e in REGISTRY.values()}


def _kind(game_name: str, card: str) -> str:
    return _KINDS.get((game_name, card), "")


@dataclass(frozen=True, slots=True)
class Difference:
    """One card whose place differs: ``unseen`` in ``zone`` (the engine has it there, the
    camera does not see it: covered by another card, a hand, or really gone -- the camera
    cannot tell), ``missing`` from ``zone`` (the same, once the table has said it is not
    there), ``extra`` in ``zone`` (the table has it, the engine not), or ``moved`` (in
    ``zone`` on the table, in ``engine_zone`` for the engine)."""

    kind: str
    card: str
    zone: Zone
    engine_zone: Zone | None = None


def differences(
    spec: GameSpec,
    state: Any,
    seen: Mapping[str, Collection[str]],
    zones: Sequence[Zone] | None = None,
    asked: Collection[str] = (),
) -> list[Difference]:
    """Every difference between the cards the table shows in each zone and the engine's
    ``state``; empty when they agree.

    ``seen`` maps zone ids to the cards in them; a list counts copies (two identical Builders
    Craftsmen), a set does not (then copies are compared as present or absent).  Zones of the
    layout missing from ``seen`` count as empty; cards of kinds a zone does not check are
    ignored there.
    """
    game = spec.name
    zones = zones or layout(spec, len(state.setup.players))
    by_id = {z.id: z for z in zones}
    want = expected(spec, state)
    missing: dict[str, list[str]] = {}  # card -> zones where the engine has it, not the table
    extra: dict[str, list[str]] = {}  # card -> zones where the table has it, not the engine
    for z in zones:
        shown = [c for c in seen.get(z.id, ()) if _kind(game, c) in z.kinds]
        wanted = [c for c in want.get(z.id, []) if _kind(game, c) in z.kinds]
        if isinstance(seen.get(z.id), (set, frozenset)):
            have, need = Counter(set(shown)), Counter(set(wanted))
        else:
            have, need = Counter(shown), Counter(wanted)
        for card, n in (need - have).items():
            missing.setdefault(card, []).extend([z.id] * n)
        for card, n in (have - need).items():
            extra.setdefault(card, []).extend([z.id] * n)
    out: list[Difference] = []
    for card in sorted(set(missing) | set(extra), key=lambda c: (_kind(game, c), c)):
        gone, there = list(missing.get(card, [])), list(extra.get(card, []))
        while gone and there:  # the same card in another zone: it was moved
            out.append(Difference("moved", card, by_id[there.pop(0)], by_id[gone.pop(0)]))
        kind = "missing" if card in asked else "unseen"
        out.extend(Difference(kind, card, by_id[where]) for where in gone)
        out.extend(Difference("extra", card, by_id[where]) for where in there)
    return out


@dataclass(frozen=True, slots=True)
class TableCheck:
    """The table mode's verdict on one frame: how many corner markers are in view, and (with
    three or four) every difference from the engine: ``differences`` the cards seen in the
    wrong place (and those the table has said are missing), ``unseen`` the cards the engine
    has that the camera does not see (covered or gone: ask the table), ``rejected`` the
    markers of a size no card sticker has there."""

    corners: int
    differences: tuple[Difference, ...] = ()
    unseen: tuple[Difference, ...] = ()
    rejected: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return self.corners >= 3


def check(spec: GameSpec, state: Any, markers: Sequence[Marker],
          overrides: Mapping[str, Rect] | None = None, asked: Collection[str] = ()
          ) -> TableCheck:
    """Compare one frame's markers with the engine's ``state`` of the game ``spec``; ``asked``
    names the cards the table has said are not on the table."""
    zones = layout(spec, len(state.setup.players), overrides)
    view = read_table(markers, spec.name, zones)
    if not view.ok:
        return TableCheck(view.corners)
    diffs = differences(spec, state, view.seen, zones, asked)
    return TableCheck(view.corners, tuple(d for d in diffs if d.kind != "unseen"),
                      tuple(d for d in diffs if d.kind == "unseen"), view.rejected)
