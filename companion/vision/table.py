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
    quadrilateral in their order); any three, with the shapes of the markers in view (each is
    a square on the table: ``rectifier``), give the perspective map too, so a card or a hand
    over one corner does not stop the check even under a tilted camera (the plane's affine map
    of the three when the markers' shapes do not tell; None unless the three turn the table's
    way round).  None with fewer than three."""
    import cv2

    markers = list(markers)
    found = {m.id: m.centre for m in markers if m.id in CORNER_UV}
    if len(found) == 3:
        ids = sorted(found)
        src = np.array([found[i] for i in ids], np.float32)
        dst = np.array([CORNER_UV[i] for i in ids], np.float32)
        if _turn(src) * _turn(dst) <= 0 or abs(_turn(src)) < 1.0:
            return None  # mirrored or in a line: not the table seen
        flat = rectifier(markers)
        if flat is not None:
            src = cv2.perspectiveTransform(src.reshape(-1, 1, 2).astype(np.float64),
                                           flat).reshape(-1, 2).astype(np.float32)
        a = np.vstack([np.asarray(cv2.getAffineTransform(src, dst), dtype=np.float64),
                       [0.0, 0.0, 1.0]])
        return a if flat is None else a @ flat
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


RECTIFY_MARKERS = 6
"""``rectifier`` needs at least this many markers (corners and cards) in view."""


def rectifier(markers: Sequence[Marker]) -> npt.NDArray[np.float64] | None:
    """A map from image pixels that takes the camera's tilt out of the table's plane: after it
    the plane is seen as from straight above up to an affine map (which three corners then
    fix), from the markers in view.  They all lie on the table, and markers printed alike are
    squares of one size there: the map that gives the card stickers one area, the corner
    markers one area, and every marker the shape of a parallelogram is found by least
    squares (two numbers: where the camera's tilt puts the horizon).  A marker that does not
    fit (a card held up over the table) is left out and the map found again once.  None with
    fewer than ``RECTIFY_MARKERS`` markers, or when no such map fits them."""
    quads = [np.asarray(m.corners, np.float64) for m in markers]
    if len(quads) < RECTIFY_MARKERS:
        return None
    pts = np.concatenate(quads)
    centre = pts.mean(axis=0)
    scale = max(1.0, float(np.abs(pts - centre).max()))
    norm = np.array([[1 / scale, 0, -centre[0] / scale], [0, 1 / scale, -centre[1] / scale],
                     [0, 0, 1]])
    q = np.stack([(quad - centre) / scale for quad in quads])  # (n, 4, 2)
    corner = np.array([m.id in CORNER_UV for m in markers])
    use = np.ones(len(quads), bool)
    tilt = np.zeros(2)
    for _round in range(2):
        fitted = _fit_horizon(q[use], corner[use], tilt)
        if fitted is None:
            return None
        tilt = fitted
        errors = np.abs(_horizon_residuals(q, corner, tilt)).reshape(len(quads), -1).max(axis=1)
        keep = errors <= max(0.02, 4 * float(np.median(errors)))
        if keep.all() or keep.sum() < RECTIFY_MARKERS:
            break
        use = keep
    flat = np.array([[1.0, 0, 0], [0, 1.0, 0], [tilt[0], tilt[1], 1.0]])
    return np.asarray(flat @ norm, np.float64)


def _horizon_residuals(q: npt.NDArray[np.float64], corner: npt.NDArray[np.bool_],
                       tilt: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """How far the markers ``q`` (normalised pixels), seen through the horizon ``tilt``, are
    from squares of one size per kind: each one's log area from its kind's mean, and how far
    its diagonals are from halving each other (a share of its side)."""
    w = 1.0 + q[..., 0] * tilt[0] + q[..., 1] * tilt[1]
    p = q / w[..., None]
    x, y = p[..., 0], p[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    log_area = np.log(np.maximum(area, 1e-12))
    for kind in (corner, ~corner):
        if kind.any():
            log_area[kind] -= log_area[kind].mean()
    skew = (p[:, 0] + p[:, 2] - p[:, 1] - p[:, 3]) / np.sqrt(np.maximum(area, 1e-12))[:, None]
    return np.concatenate([log_area[:, None], skew], axis=1).reshape(-1)


def _fit_horizon(q: npt.NDArray[np.float64], corner: npt.NDArray[np.bool_],
                 start: npt.NDArray[np.float64]) -> npt.NDArray[np.float64] | None:
    """The horizon that makes ``_horizon_residuals`` least (Gauss-Newton, a few steps)."""
    tilt = start.copy()
    for _step in range(12):
        w = 1.0 + q[..., 0] * tilt[0] + q[..., 1] * tilt[1]
        if (w <= 0.05).any():
            return None  # the horizon crosses a marker: no camera sees that
        r = _horizon_residuals(q, corner, tilt)
        jac = np.empty((r.size, 2))
        for k in range(2):
            d = np.zeros(2)
            d[k] = 1e-5
            jac[:, k] = (_horizon_residuals(q, corner, tilt + d) - r) / 1e-5
        delta, *_rest = np.linalg.lstsq(jac, -r, rcond=None)
        tilt = tilt + delta
        if float(np.abs(delta).max()) < 1e-7:
            break
    if not np.isfinite(tilt).all() or (1.0 + q[..., 0] * tilt[0] + q[..., 1] * tilt[1]
                                       <= 0.05).any():
        return None
    return tilt


def _turn(p: npt.NDArray[np.float32]) -> float:
    """Twice the signed area of a triangle (which way round its points go)."""
    (ax, ay), (bx, by), (cx, cy) = p.tolist()
    return float((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def to_table(h: npt.NDArray[np.float64], point: tuple[float, float]) -> tuple[float, float]:
    """A pixel position in table coordinates."""
    x, y, w = h @ np.array([point[0], point[1], 1.0])
    return float(x / w), float(y / w)


@dataclass(frozen=True, slots=True)
class Plane:
    """How a frame's pixels map to the table: ``h`` (None when they cannot be mapped), the
    corner markers in view, whether the map is kept from an earlier frame (``kept``: fewer
    than three corners in view, the camera has not moved) or could not be kept because the
    markers in view moved (``moved``: the camera was moved or knocked)."""

    h: npt.NDArray[np.float64] | None
    corners: int
    kept: bool = False
    moved: bool = False


KEEP_SHIFT = 0.25
"""A marker in view moved by more than this share of its side since the table was last mapped:
moved (the corners in view must all stay, and most of the cards)."""
KEEP_MARKERS = 2
"""Markers of the last mapped frame that must still be in view to tell the camera has not
moved."""


class TablePlane:
    """The table's map over frames: the one the corners in view give (three or four), or, with
    fewer in view (a hand, a cup, a card over two corners), the last one while the camera has
    not moved -- the markers of that frame still in view are where they were (every corner
    marker and most cards: a card moved by a player does not move the camera).  When that
    cannot be told, or the markers moved, the table cannot be mapped (``Plane.moved``)."""

    def __init__(self) -> None:
        self._h: npt.NDArray[np.float64] | None = None
        self._where: dict[int, tuple[float, float, float]] = {}

    def update(self, markers: Sequence[Marker]) -> Plane:
        """The map for the markers of a frame (see the class docstring)."""
        corners = len({m.id for m in markers} & set(CORNER_UV))
        h = homography(markers)
        if h is not None:
            self._h = h
            self._where = {m.id: (*m.centre, m.side) for m in markers}
            return Plane(h, corners)
        if self._h is None:
            return Plane(None, corners)
        if self._still(markers):
            return Plane(self._h, corners, kept=True)
        return Plane(None, corners, moved=True)

    def _still(self, markers: Sequence[Marker]) -> bool:
        shifts: list[float] = []
        for m in markers:
            was = self._where.get(m.id)
            if was is None:
                continue
            x, y = m.centre
            shift = float(np.hypot(x - was[0], y - was[1])) / max(was[2], 1.0)
            if m.id in CORNER_UV and shift > KEEP_SHIFT:
                return False
            shifts.append(shift)
        return len(shifts) >= KEEP_MARKERS and float(np.median(shifts)) <= KEEP_SHIFT


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
    twice), or why it cannot tell (fewer than three corner markers in view, and no map kept
    from an earlier frame: ``moved`` when the camera moved since); ``rejected`` lists the
    markers whose size is off what the corners predict for a card sticker (a marker-shaped
    icon on the board, or a sticker of another size): they count nowhere."""

    seen: dict[str, list[str]]
    corners: int  # corner markers in view, out of 4
    rejected: tuple[int, ...] = ()
    kept: bool = False  # mapped with an earlier frame's map (fewer than three corners)
    moved: bool = False  # fewer than three corners, and the camera moved: not mapped

    @property
    def ok(self) -> bool:
        return self.corners >= 3 or self.kept


SIZE_TOLERANCE = 1.35
"""A card sticker may look this many times larger or smaller than the corners predict
(perspective, a card lying on another) before it is taken for something else."""


def read_table(markers: Sequence[Marker], game_name: str, zones: Sequence[Zone], *,
               card_mm: float = TABLE_CARD_MM, corner_mm: float = CORNER_MM,
               plane: Plane | None = None) -> TableView:
    """The cards of ``game_name`` in each zone, from one frame's markers (mapped by ``plane``
    when given: ``TablePlane.update`` of those markers; else by ``homography``); cards outside
    every zone (the rows on offer, the decks) are left out.  A marker whose side, in table
    coordinates, is not within ``SIZE_TOLERANCE`` of what the corner markers predict for a
    ``card_mm`` sticker (the corners being ``corner_mm``) is rejected."""
    if plane is None:
        plane = Plane(homography(markers), sum(1 for m in {m.id for m in markers}
                                               if m in CORNER_UV))
    h = plane.h
    seen: dict[str, list[str]] = {z.id: [] for z in zones}
    if h is None:
        return TableView(seen, plane.corners, moved=plane.moved)
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
    return TableView(seen, plane.corners, tuple(sorted(rejected)), kept=plane.kept)


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
    three or four, or the map kept from an earlier frame: ``kept``) every difference from the
    engine: ``differences`` the cards seen in the wrong place (and those the table has said
    are missing), ``unseen`` the cards the engine has that the camera does not see (covered
    or gone: ask the table), ``rejected`` the markers of a size no card sticker has there;
    ``moved`` when fewer than three corners are in view and the camera has moved since the
    table was last mapped (show the corners again)."""

    corners: int
    differences: tuple[Difference, ...] = ()
    unseen: tuple[Difference, ...] = ()
    rejected: tuple[int, ...] = ()
    kept: bool = False
    moved: bool = False

    @property
    def ok(self) -> bool:
        return self.corners >= 3 or self.kept


def check(spec: GameSpec, state: Any, markers: Sequence[Marker],
          overrides: Mapping[str, Rect] | None = None, asked: Collection[str] = (),
          plane: Plane | None = None) -> TableCheck:
    """Compare one frame's markers with the engine's ``state`` of the game ``spec``; ``asked``
    names the cards the table has said are not on the table; ``plane`` maps the markers
    (``TablePlane.update``; None: their corners alone)."""
    zones = layout(spec, len(state.setup.players), overrides)
    view = read_table(markers, spec.name, zones, plane=plane)
    if not view.ok:
        return TableCheck(view.corners, moved=view.moved)
    diffs = differences(spec, state, view.seen, zones, asked)
    return TableCheck(view.corners, tuple(d for d in diffs if d.kind != "unseen"),
                      tuple(d for d in diffs if d.kind == "unseen"), view.rejected,
                      kept=view.kept)
