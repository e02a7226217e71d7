"""Generated camera frames with the truth recorded: for tests, the benchmark and the
synthetic camera.

A frame is a textured table with card-like white rectangles on it, each carrying a marker
drawn by ``cv2.aruco.generateImageMarker``; each card is tilted (0-60 degrees out of the
table's plane), turned and placed through a pinhole projection, then the whole frame gets
uneven light, blur, sensor noise and JPEG compression.  Everything comes from a seeded
``numpy`` generator, so a seed always gives the same frames.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from .markers import DICTIONARY, MARKER_BITS, MARKER_CELLS

Grey = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float32]

FOCAL = 1000.0  # pixels, for a 1280x720 frame: about 65 degrees across


@dataclass(frozen=True, slots=True)
class Conditions:
    """The ranges each frame's conditions are drawn from."""

    size: tuple[int, int] = (1280, 720)
    cards: tuple[int, int] = (2, 5)  # cards per frame, inclusive
    marker_px: tuple[float, float] = (24.0, 90.0)  # marker side when seen face on
    max_tilt: float = 60.0  # degrees out of the table's plane
    blur: tuple[float, float] = (0.0, 2.0)  # Gaussian sigma, pixels
    noise: tuple[float, float] = (1.0, 9.0)  # sensor noise sigma, grey levels
    light: tuple[float, float] = (0.3, 1.0)  # darkest and brightest parts of the frame
    jpeg: tuple[int, int] = (30, 92)  # JPEG quality
    background: str = "wood"  # wood, plain (a matte mat) or busy (a printed game board)
    defocus: tuple[float, float] = (0.0, 0.0)  # radius of the out-of-focus disc, pixels
    motion: tuple[float, float] = (0.0, 0.0)  # length of a straight motion smear, pixels
    glare: float = 0.0  # the chance that a card catches a lamp's reflection
    finger: float = 0.0  # the chance that a finger holds a card beside its marker


@dataclass(frozen=True, slots=True)
class Placed:
    """A marker in a frame: its id and its four corners (clockwise from the marker's own
    top-left, as OpenCV reports them)."""

    marker: int
    corners: tuple[tuple[float, float], ...]
    tilt: float

    @property
    def side(self) -> float:
        c = np.array(self.corners)
        return float(np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1)))

    @property
    def centre(self) -> tuple[float, float]:
        c = np.array(self.corners)
        return float(c[:, 0].mean()), float(c[:, 1].mean())


@dataclass(frozen=True, slots=True)
class Scene:
    """A frame, our markers in it (``truth``) and the other dictionaries' markers drawn in it
    (``foreign``: any id read there is a wrong one)."""

    frame: Grey
    truth: tuple[Placed, ...]
    foreign: tuple[tuple[str, int, tuple[float, float]], ...] = ()


_DICTIONARY: cv2.aruco.Dictionary | None = None


def marker_image(marker: int, side: int) -> Grey:
    """The marker drawn by OpenCV at ``side`` pixels, its border included."""
    global _DICTIONARY
    if _DICTIONARY is None:
        _DICTIONARY = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    return np.asarray(cv2.aruco.generateImageMarker(_DICTIONARY, marker, side, borderBits=1),
                      dtype=np.uint8)


def table_texture(rng: np.random.Generator, size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """A wood-like table: grain along one direction, knots of low-frequency noise, mid grey."""
    w, h = size
    small = rng.normal(0, 1, (h // 16 + 2, w // 16 + 2)).astype(np.float32)
    low = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    angle = rng.uniform(0, math.pi)
    along = x * math.cos(angle) + y * math.sin(angle)
    grain = np.sin(along / rng.uniform(3, 9) + low * 2.5)
    base = rng.uniform(70, 150)
    fine = rng.normal(0, 6, (h, w)).astype(np.float32)
    return (base + 22 * grain + 14 * low + fine).astype(np.float32)


def plain_texture(rng: np.random.Generator, size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """A matte mat: one dark tone with a faint weave."""
    w, h = size
    base = rng.uniform(40, 90)
    return (base + rng.normal(0, 3, (h, w))).astype(np.float32)


def busy_texture(rng: np.random.Generator, size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """A printed game board: tiles, paths, icons, borders and lettering in every tone, with
    hard edges and squares of every size (what an overhead camera sees under the cards)."""
    w, h = size
    img = np.full((h, w), int(rng.uniform(90, 170)), np.uint8)
    for _ in range(int(w * h / 9000)):  # tiles and panels
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        tw, th = int(rng.integers(10, 120)), int(rng.integers(10, 120))
        cv2.rectangle(img, (x, y), (x + tw, y + th), float(rng.uniform(10, 245)), -1)
        if rng.random() < 0.5:
            cv2.rectangle(img, (x, y), (x + tw, y + th), float(rng.uniform(0, 80)),
                          int(rng.integers(1, 4)))
    for _ in range(int(w * h / 6000)):  # icons: discs, squares, diamonds
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        r = int(rng.integers(3, 18))
        tone = float(rng.choice([rng.uniform(0, 60), rng.uniform(190, 255)]))
        kind = rng.random()
        if kind < 0.4:
            cv2.circle(img, (x, y), r, tone, -1)
        elif kind < 0.8:
            cv2.rectangle(img, (x - r, y - r), (x + r, y + r), tone, -1)
        else:
            pts = np.array([[x, y - r], [x + r, y], [x, y + r], [x - r, y]], np.int32)
            cv2.fillPoly(img, [pts], tone)
    for _ in range(int(w * h / 15000)):  # paths and borders
        cv2.line(img, (int(rng.integers(0, w)), int(rng.integers(0, h))),
                 (int(rng.integers(0, w)), int(rng.integers(0, h))),
                 float(rng.uniform(0, 255)), int(rng.integers(1, 6)))
    for _ in range(int(w * h / 20000)):  # lettering
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        text = "".join(chr(int(c)) for c in rng.integers(65, 91, int(rng.integers(3, 9))))
        cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(0.3, 1.0)),
                    float(rng.uniform(0, 60)), int(rng.integers(1, 3)), cv2.LINE_AA)
    return img.astype(np.float32) + rng.normal(0, 3, (h, w)).astype(np.float32)


def background(rng: np.random.Generator, size: tuple[int, int], kind: str
               ) -> npt.NDArray[np.float32]:
    """The surface under the cards: ``wood``, ``plain`` or ``busy``; ValueError for another."""
    if kind == "wood":
        return table_texture(rng, size)
    if kind == "plain":
        return plain_texture(rng, size)
    if kind == "busy":
        return busy_texture(rng, size)
    raise ValueError(f"unknown background {kind!r}: wood, plain or busy")


def disc_kernel(radius: float) -> npt.NDArray[np.float32]:
    """An out-of-focus lens: a uniform disc of ``radius`` pixels."""
    r = math.ceil(radius)
    y, x = np.mgrid[-r : r + 1, -r : r + 1]
    k = (np.hypot(x, y) <= radius + 0.5).astype(np.float32)
    return np.asarray(k / k.sum(), np.float32)


def motion_kernel(length: float, angle: float) -> npt.NDArray[np.float32]:
    """A straight smear of ``length`` pixels at ``angle`` radians."""
    r = math.ceil(length / 2) + 1
    k = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    cv2.line(k, (round(r * 16 - dx * 16), round(r * 16 - dy * 16)),
             (round(r * 16 + dx * 16), round(r * 16 + dy * 16)), 1.0, 1, cv2.LINE_AA, 4)
    return np.asarray(k / max(1e-6, float(k.sum())), np.float32)


def _glare(acc: npt.NDArray[np.float32], rng: np.random.Generator, mc: Points) -> None:
    """A lamp reflected in a glossy card: a soft bright patch near the marker, saturated at its
    middle, reaching over up to a third of the marker."""
    c = mc.mean(axis=0)
    side = float(np.mean(np.linalg.norm(mc - np.roll(mc, 1, axis=0), axis=1)))
    angle = rng.uniform(0, math.tau)
    dist = side * rng.uniform(0.55, 1.1)
    gx, gy = c[0] + dist * math.cos(angle), c[1] + dist * math.sin(angle)
    sx, sy = side * rng.uniform(0.25, 0.5), side * rng.uniform(0.15, 0.35)
    h, w = acc.shape
    x0, x1 = max(0, int(gx - 3 * sx)), min(w, int(gx + 3 * sx) + 1)
    y0, y1 = max(0, int(gy - 3 * sx)), min(h, int(gy + 3 * sx) + 1)
    if x0 >= x1 or y0 >= y1:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    t = rng.uniform(0, math.pi)
    u = (xx - gx) * math.cos(t) + (yy - gy) * math.sin(t)
    v = -(xx - gx) * math.sin(t) + (yy - gy) * math.cos(t)
    blob = np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2))
    patch = acc[y0:y1, x0:x1]
    acc[y0:y1, x0:x1] = patch + (255.0 - patch) * np.clip(blob * 1.3, 0, 1)


def _finger(acc: npt.NDArray[np.float32], rng: np.random.Generator, mc: Points) -> None:
    """A finger holding the card: a rounded bar coming from outside whose tip stops in the
    sticker's white margin, a cell or more from the marker."""
    c = mc.mean(axis=0)
    side = float(np.mean(np.linalg.norm(mc - np.roll(mc, 1, axis=0), axis=1)))
    k = int(rng.integers(0, 4))  # out through one of the marker's sides
    mid = (mc[k] + mc[(k + 1) % 4]) / 2
    out = (mid - c) / max(1e-6, float(np.linalg.norm(mid - c)))
    width = side * rng.uniform(0.7, 1.0)
    tip = mid + out * (side / MARKER_CELLS * rng.uniform(1.0, 1.6) + width / 2)
    tilt = rng.uniform(-0.5, 0.5)
    d = np.array([out[0] * math.cos(tilt) - out[1] * math.sin(tilt),
                  out[0] * math.sin(tilt) + out[1] * math.cos(tilt)])
    end = tip + d * side * 4
    tone = float(rng.uniform(110, 190))
    cv2.line(acc, (round(tip[0] * 16), round(tip[1] * 16)), (round(end[0] * 16),
             round(end[1] * 16)), tone, max(2, round(width)), cv2.LINE_AA, 4)
    cv2.line(acc, (round(tip[0] * 16), round(tip[1] * 16)), (round(end[0] * 16),
             round(end[1] * 16)), tone * 0.8, max(1, round(width * 0.3)), cv2.LINE_AA, 4)


FOREIGN_FAMILIES = ("DICT_6X6_1000", "DICT_APRILTAG_36h10", "DICT_APRILTAG_36h11")
"""The other common dictionaries with 6x6 data cells (OpenCV's names): markers someone may have
on the table (another game's, a robot kit's), drawn like ours but not ours."""

Foreign = tuple[str, int]
"""A marker of another dictionary: its OpenCV dictionary name and its id there."""
Pattern = tuple[str, tuple[tuple[float, ...], ...]]
"""A marker-shaped square of one's own: a name and its 6x6 cells (1 white, 0 black, or grey
between), in a black border."""


def foreign_image(marker: Foreign | Pattern, side: int) -> Grey:
    """A marker of another dictionary drawn by OpenCV at ``side`` pixels, its border included
    (or a ``Pattern``'s cells in a border, in the tones of a print)."""
    name, what = marker
    if not isinstance(what, int):
        return np.clip(draw_cells(np.array(what, np.float32), side, 0.0, 255.0), 0, 255).astype(
            np.uint8)
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
    return np.asarray(cv2.aruco.generateImageMarker(d, what, side, borderBits=1), dtype=np.uint8)


def card_texture(
    marker: int | Foreign | Pattern, marker_px: int, rng: np.random.Generator
) -> tuple[npt.NDArray[np.float32], Points]:
    """A white card with the marker (ours, or a ``Foreign`` one) near its top-left corner, in
    a white margin 1.3 cells wide, and some printed art below; the marker's corners in the
    card's pixels."""
    quiet = max(2, round(marker_px / MARKER_CELLS * 1.3))
    cw = int(marker_px * rng.uniform(2.2, 2.8))
    ch = int(cw * rng.uniform(1.3, 1.45))
    card = np.full((ch, cw), rng.uniform(215, 245), np.float32)
    mx, my = quiet + int(rng.integers(0, quiet + 1)), quiet + int(rng.integers(0, quiet + 1))
    card[my : my + marker_px, mx : mx + marker_px] = (
        foreign_image(marker, marker_px) if isinstance(marker, tuple)
        else marker_image(marker, marker_px))
    art_top = my + marker_px + quiet
    art = card[art_top:]  # a view: the art stays below the sticker's white margin
    ah = art.shape[0]
    for _ in range(int(rng.integers(4, 10))):  # the card's art: blobs and lines of ink
        cx = int(rng.integers(0, cw))
        cy = int(rng.integers(0, max(1, ah)))
        if rng.random() < 0.5:
            cv2.circle(art, (cx, cy), int(rng.integers(3, max(4, cw // 6))),
                       float(rng.uniform(40, 200)), -1)
        else:
            cv2.line(art, (cx, cy), (int(rng.integers(0, cw)), int(rng.integers(0, max(1, ah)))),
                     float(rng.uniform(30, 180)), int(rng.integers(1, 4)))
    # the name of the card to the right of the marker
    tx = mx + marker_px + quiet
    for k in range(3):
        y = my + 6 + k * max(6, marker_px // 4)
        if tx < cw - quiet and y < my + marker_px:
            cv2.line(card, (tx, y), (cw - quiet - int(rng.integers(0, max(1, cw // 5))), y),
                     float(rng.uniform(20, 90)), max(1, marker_px // 20))
    corners = np.array(
        [[mx, my], [mx + marker_px, my], [mx + marker_px, my + marker_px], [mx, my + marker_px]],
        np.float32,
    )
    return card, corners


def _rotation(tilt: float, axis: float, spin: float) -> npt.NDArray[np.float64]:
    """Turn by ``spin`` in the plane, then tilt by ``tilt`` about an in-plane axis at
    ``axis`` (radians)."""
    def rz(a: float) -> npt.NDArray[np.float64]:
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])

    c, s = math.cos(tilt), math.sin(tilt)
    rx = np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    return rz(axis) @ rx @ rz(-axis) @ rz(spin)  # type: ignore[no-any-return]


def render_scene(
    rng: np.random.Generator, markers: Sequence[int | Foreign | Pattern],
    cond: Conditions = Conditions()
) -> Scene:
    """One frame with the given markers' cards, laid out on a grid so they never overlap; a
    ``Foreign`` marker is drawn as the other dictionary has it and listed in ``foreign``."""
    w, h = cond.size
    acc = background(rng, cond.size, cond.background)
    n = len(markers)
    cols = math.ceil(math.sqrt(n * w / h))
    rows = math.ceil(n / cols)
    cells = list(range(rows * cols))
    rng.shuffle(cells)
    truth: list[Placed] = []
    foreign: list[tuple[str, int, tuple[float, float]]] = []  # (name, id or -1, centre)
    for marker, cell in zip(markers, cells, strict=False):
        r, c = divmod(cell, cols)
        cell_w, cell_h = w / cols, h / rows
        fit = min(cell_w / 2.9, cell_h / 4.2)  # the card must fit its cell at any angle
        side = int(min(rng.uniform(*cond.marker_px), fit))
        card, mcorners = card_texture(marker, max(16, side), rng)
        ch, cw = card.shape
        tilt = math.radians(rng.uniform(0, cond.max_tilt))
        rot = _rotation(tilt, rng.uniform(0, math.tau), rng.uniform(0, math.tau))
        # card corners in 3D: centred, in the plane z = 0, then rotated and pushed to depth
        flat = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64) - (cw / 2, ch / 2)
        pts3 = np.c_[flat, np.zeros(4)] @ rot.T
        cx = (c + 0.5) * cell_w + rng.uniform(-0.1, 0.1) * cell_w
        cy = (r + 0.5) * cell_h + rng.uniform(-0.1, 0.1) * cell_h
        depth = FOCAL + pts3[:, 2]
        proj = np.c_[FOCAL * pts3[:, 0] / depth + cx, FOCAL * pts3[:, 1] / depth + cy]
        src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
        hom = cv2.getPerspectiveTransform(src, proj.astype(np.float32))
        _paste(acc, card, np.asarray(hom, np.float64))
        mc = np.asarray(cv2.perspectiveTransform(mcorners.reshape(-1, 1, 2), hom),
                        np.float32).reshape(-1, 2)
        if rng.random() < cond.glare:
            _glare(acc, rng, mc)
        if rng.random() < cond.finger:
            _finger(acc, rng, mc)
        if isinstance(marker, tuple):
            centre = mc.mean(axis=0)
            mid = marker[1] if isinstance(marker[1], int) else -1
            foreign.append((marker[0], mid, (float(centre[0]), float(centre[1]))))
            continue
        truth.append(Placed(marker, tuple((float(x), float(y)) for x, y in mc),
                            math.degrees(tilt)))
    # uneven light: a gradient across the frame and a soft shadow
    lo, hi = cond.light
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, w, dtype=np.float32)[None, :]
    ax, ay = rng.uniform(-1, 1), rng.uniform(-1, 1)
    field = ax * (x - 0.5) + ay * (y - 0.5)
    field = (field - field.min()) / max(1e-6, float(field.max() - field.min()))
    light = lo + (hi - lo) * field
    sx, sy = rng.uniform(0, w), rng.uniform(0, h)
    shadow = np.exp(-(((x * w - sx) ** 2 + (y * h - sy) ** 2) / (2 * (0.25 * w) ** 2)))
    light = light * (1 - rng.uniform(0, 0.35) * shadow)
    img = acc * light
    if cond.glare:  # a reflection saturates whatever the light is
        img = np.where(acc >= 254.0, np.float32(255.0), img)
    sigma = rng.uniform(*cond.blur)
    if sigma > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    radius = rng.uniform(*cond.defocus)
    if radius > 0.3:
        img = cv2.filter2D(img, -1, disc_kernel(radius))
    length = rng.uniform(*cond.motion)
    if length > 0.3:
        img = cv2.filter2D(img, -1, motion_kernel(length, rng.uniform(0, math.pi)))
    img = img + rng.normal(0, rng.uniform(*cond.noise), img.shape).astype(np.float32)
    frame = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(cond.jpeg[0], cond.jpeg[1] + 1))
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        frame = np.asarray(cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE), dtype=np.uint8)
    return Scene(frame, tuple(truth), tuple(foreign))


def scenes(
    seed: int, count: int, pool: Sequence[int], cond: Conditions = Conditions()
) -> Iterator[Scene]:
    """``count`` frames, each with a few distinct markers drawn from ``pool``."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        k = int(rng.integers(cond.cards[0], cond.cards[1] + 1))
        chosen = [int(m) for m in rng.choice(np.array(pool), size=min(k, len(pool)),
                                             replace=False)]
        yield render_scene(rng, chosen, cond)


def card_frame(
    marker: int | None, seed: int = 0, size: tuple[int, int] = (640, 360)
) -> Grey:
    """A calm frame with one card held face on (or the empty table for ``None``): what the
    synthetic camera and the scripted rounds show."""
    rng = np.random.default_rng(seed)
    if marker is None:
        table = table_texture(rng, size)
        return np.clip(table, 0, 255).astype(np.uint8)
    cond = Conditions(size=size, cards=(1, 1), marker_px=(60.0, 70.0), max_tilt=15.0,
                      blur=(0.0, 0.5), noise=(1.0, 2.0), light=(0.8, 1.0), jpeg=(85, 95))
    return render_scene(rng, [marker], cond).frame


def marker_cells(marker: int) -> npt.NDArray[np.uint8]:
    """The marker's 6x6 data cells (1 white), as ``generateImageMarker`` draws them."""
    img = marker_image(marker, MARKER_CELLS)
    return (img[1:-1, 1:-1] > 127).astype(np.uint8)


def draw_cells(cells: npt.ArrayLike, side: int, dark: float = 20.0, light: float = 230.0
               ) -> npt.NDArray[np.float32]:
    """A marker-shaped square ``side`` pixels wide: a black border one cell wide around
    ``cells`` (1 white), in the tones given."""
    c = np.asarray(cells, np.float32)
    n = c.shape[0] + 2
    full = np.zeros((n, n), np.float32)
    full[1:-1, 1:-1] = c
    img = cv2.resize(full, (side, side), interpolation=cv2.INTER_NEAREST)
    return (dark + (light - dark) * img).astype(np.float32)


def flipped(cells: npt.ArrayLike, bits: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """``cells`` with ``bits`` of them (chosen by ``rng``) flipped."""
    out = np.array(cells, np.uint8).copy().reshape(-1)
    for i in rng.choice(out.size, size=bits, replace=False):
        out[i] ^= 1
    return out.reshape(np.shape(cells))


@dataclass(frozen=True, slots=True)
class Icon:
    """A marker-shaped icon printed on a board: where it is, and the sticker it mimics (its
    cells that sticker's with ``flips`` bits flipped), or None for an icon's own pattern."""

    mimics: int | None
    flips: int
    centre: tuple[float, float]
    side: float


def icon_board(rng: np.random.Generator, markers: Sequence[int],
               size: tuple[int, int] = (1280, 720), icons: int = 24,
               flips: tuple[int, int] = (3, 4)) -> tuple[Grey, tuple[Icon, ...]]:
    """A printed game board seen from above with marker-shaped icons on it -- dark-framed
    squares with a pattern of light blocks inside, like the boards' resource, worker and
    building icons -- printed on the board's panels (no white margin: the panel's tone, its
    frame lines and lettering come right up to the icon, at most a hairline of light
    outline).  Half the icons have patterns of their own; half are near misses of a sticker, its
    cells with ``flips`` bits flipped (3 or 4: what the audit found on the printed boards; 0
    to 2 makes icons that decode as cards, to test the white-margin check alone)."""
    w, h = size
    acc = np.clip(busy_texture(rng, size), 0, 255).astype(np.uint8)
    placed: list[Icon] = []
    cols = math.ceil(math.sqrt(icons * w / h))
    rows = math.ceil(icons / cols)
    cells = list(range(rows * cols))
    rng.shuffle(cells)
    for cell in cells[:icons]:
        r, c = divmod(cell, cols)
        cw, ch = w / cols, h / rows
        side = int(rng.uniform(24, min(64, 0.6 * min(cw, ch))))
        cx = (c + 0.5) * cw + rng.uniform(-0.1, 0.1) * cw
        cy = (r + 0.5) * ch + rng.uniform(-0.1, 0.1) * ch
        mimics: int | None = None
        n = 0
        if rng.random() < 0.5:
            mimic = int(rng.choice(np.array(markers)))
            n = int(rng.integers(flips[0], flips[1] + 1))
            pattern = flipped(marker_cells(mimic), n, rng)
            mimics = mimic
        else:
            pattern = (rng.random((MARKER_BITS, MARKER_BITS)) < 0.45).astype(np.uint8)
        cell_px = side / MARKER_CELLS
        panel = float(rng.uniform(60, 150))  # the board's painted panel under the icon
        pad = int(side * rng.uniform(0.5, 1.2))
        x0, y0 = int(cx - side / 2), int(cy - side / 2)
        cv2.rectangle(acc, (x0 - pad, y0 - pad), (x0 + side + pad, y0 + side + pad), panel, -1)
        if rng.random() < 0.5:  # a light hairline around the icon
            t = max(1, int(cell_px * rng.uniform(0.15, 0.3)))
            cv2.rectangle(acc, (x0 - t, y0 - t), (x0 + side + t - 1, y0 + side + t - 1),
                          float(rng.uniform(200, 240)), -1)
        for _ in range(int(rng.integers(2, 5))):  # the panel's frame, lines and lettering
            k = int(rng.integers(0, 4))
            off = int(cell_px * rng.uniform(0.4, 1.2))
            tone = float(rng.uniform(0, 80))
            if k == 0:
                cv2.line(acc, (x0 - pad, y0 - off), (x0 + side + pad, y0 - off), tone, 2)
            elif k == 1:
                cv2.line(acc, (x0 + side + off, y0 - pad), (x0 + side + off, y0 + side + pad),
                         tone, 2)
            elif k == 2:
                cv2.putText(acc, "".join(chr(int(v)) for v in rng.integers(65, 91, 4)),
                            (x0 - pad, y0 + side + off + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                            tone, 1, cv2.LINE_AA)
            else:
                cv2.line(acc, (x0 - off, y0 - pad), (x0 - off, y0 + side + pad), tone, 2)
        acc[y0:y0 + side, x0:x0 + side] = draw_cells(pattern, side, float(rng.uniform(5, 45)),
                                                     float(rng.uniform(190, 245)))
        # (drawn on uint8: OpenCV 5 writes text on 8-bit images only)
        placed.append(Icon(mimics, n, (x0 + side / 2, y0 + side / 2), float(side)))
    img = acc.astype(np.float32) * np.float32(rng.uniform(0.6, 1.0))
    img = np.asarray(cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.0))), np.float32)
    noise = rng.normal(0, rng.uniform(1, 4), img.shape).astype(np.float32)
    return np.clip(img + noise, 0, 255).astype(np.uint8), tuple(placed)


@dataclass
class Score:
    """Detection on a generated set: markers found with their own id, markers missed, and
    wrong ids (an id where the truth has another marker, or where there is none)."""

    found: int = 0
    total: int = 0
    wrong: int = 0
    by_tilt: dict[int, list[int]] = field(default_factory=dict)  # 10-degree bucket: found, total
    by_side: dict[int, list[int]] = field(default_factory=dict)  # 15-pixel bucket: found, total

    @property
    def rate(self) -> float:
        return self.found / self.total if self.total else 0.0

    def add(self, truth: Sequence[Placed], found: Sequence[tuple[int, tuple[float, float]]]
            ) -> None:
        """Score one frame: ``found`` lists (id, centre) of each detection."""
        by_id = {p.marker: p for p in truth}
        hits = set()
        for marker, (x, y) in found:
            p = by_id.get(marker)
            if p is None or math.hypot(p.centre[0] - x, p.centre[1] - y) > 0.3 * p.side:
                self.wrong += 1
            else:
                hits.add(marker)
        for p in truth:
            tilt = self.by_tilt.setdefault(min(50, int(p.tilt // 10) * 10), [0, 0])
            side = self.by_side.setdefault(min(60, int(p.side // 15) * 15), [0, 0])
            for bucket in (tilt, side):
                bucket[1] += 1
                bucket[0] += p.marker in hits
        self.total += len(truth)
        self.found += len(hits)

    def report(self) -> str:
        tilts = ", ".join(f"{t}-{t + 10}°: {f}/{n}" for t, (f, n) in sorted(self.by_tilt.items()))
        sides = ", ".join(f"{s}{'+' if s == 60 else f'-{s + 15}'} px: {f}/{n}"
                          for s, (f, n) in sorted(self.by_side.items()))
        return (f"{self.found}/{self.total} markers found ({100 * self.rate:.1f} %), "
                f"{self.wrong} wrong ids; by tilt {tilts}; by apparent side {sides}")


# -- an overhead camera over a table -------------------------------------------------------------

HFOV_FOCAL = 0.5 / math.tan(math.radians(33.0))
"""The focal length as a share of the frame's width: the Camera Module 3's 66 degrees across."""


@dataclass(frozen=True, slots=True)
class TableShot:
    """A generated overhead frame of a table: ``cards`` maps each card sticker's marker to the
    table point (u, v) of its centre (the corner markers' centres are (0, 0) to (1, 1));
    ``to_image`` maps table points to pixels; ``covered`` lists the corner markers under a
    hand."""

    frame: Grey
    cards: dict[int, tuple[float, float]]
    to_image: npt.NDArray[np.float64]
    covered: tuple[int, ...] = ()


def _camera(tilt: float, turn: float, distance: float) -> npt.NDArray[np.float64]:
    """The map from table millimetres (origin at the play area's middle) to camera
    coordinates, as a 3x3 plane map: the camera ``distance`` mm from the middle, looking at
    it, tilted ``tilt`` degrees from straight down towards the side at ``turn`` degrees."""
    t, a = math.radians(tilt), math.radians(turn)
    axis = np.array([math.cos(a), math.sin(a), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rot = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)  # Rodrigues
    return np.column_stack([rot[:, 0], rot[:, 1], [0.0, 0.0, distance]])


def _paste(acc: npt.NDArray[np.float32], texture: npt.NDArray[np.float32],
           to_image: npt.NDArray[np.float64]) -> None:
    """Draw ``texture`` (its pixels mapped to the frame by ``to_image``) onto ``acc``, warping
    only the box it covers."""
    th, tw = texture.shape
    box = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32).reshape(-1, 1, 2)
    pts = cv2.perspectiveTransform(box, to_image).reshape(-1, 2)
    h, w = acc.shape
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)) - 1, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(pts.max(axis=0)) + 2, (w, h)).astype(int)
    if x0 >= x1 or y0 >= y1:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ to_image
    size = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpPerspective(texture, shift, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones_like(texture), shift, size, flags=cv2.INTER_LINEAR)
    patch = acc[y0:y1, x0:x1]
    patch[:] = patch * (1 - mask) + warped * mask


def _sticker(marker: int, mm: float, px_mm: float, card: tuple[float, float] | None
             ) -> tuple[npt.NDArray[np.float32], tuple[float, float]]:
    """A sticker's texture at ``px_mm`` pixels a millimetre: the marker in its white margin
    (1.25 cells), on a white card of ``card`` millimetres with the sticker at its top-left
    corner (or alone); and the marker's centre in the texture's pixels."""
    side = max(8, round(mm * px_mm))
    quiet = round(side / MARKER_CELLS * 1.25)
    w, h = ((round(card[0] * px_mm), round(card[1] * px_mm)) if card else
            (side + 2 * quiet, side + 2 * quiet))
    tex = np.full((h, w), 232.0, np.float32)
    tex[quiet:quiet + side, quiet:quiet + side] = marker_image(marker, side)
    if card:  # a line of print beside the sticker and art below it
        tex[quiet + side + quiet:, quiet:w - quiet] = 150.0
    return tex, (quiet + side / 2, quiet + side / 2)


def table_scene(rng: np.random.Generator, cards: dict[int, tuple[float, float]], *,
                size: tuple[int, int] = (1920, 1080), tilt: float = 0.0, turn: float = 0.0,
                area_mm: tuple[float, float] = (800.0, 480.0), card_mm: float = 25.0,
                corner_mm: float = 40.0, covered: Sequence[int] = (),
                blur: float = 0.7, noise: float = 2.0) -> TableShot:
    """An overhead camera's frame of a table: a printed board (``busy_texture``) whose play
    area of ``area_mm`` has the four corner markers (``corner_mm``) on its corners and a card
    with a ``card_mm`` sticker at each table point of ``cards`` (the sticker's centre), seen
    through a pinhole camera tilted ``tilt`` degrees towards ``turn`` and as far away as the
    play area needs to fit in the frame; the corner markers in ``covered`` lie under a hand."""
    from .markers import CORNER_MARKERS

    w, h = size
    aw, ah = area_mm
    focal = HFOV_FOCAL * w
    k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]])
    to_mm = np.array([[aw, 0, -aw / 2], [0, ah, -ah / 2], [0, 0, 1]])  # (u, v) -> mm
    outline = np.array([[-0.08, -0.12], [1.08, -0.12], [1.08, 1.12], [-0.08, 1.12]])
    distance = 300.0
    while True:  # back off until the play area and the corners fit, with a margin
        uv_to_px = k @ _camera(tilt, turn, distance) @ to_mm
        pts = cv2.perspectiveTransform(outline.reshape(-1, 1, 2), uv_to_px).reshape(-1, 2)
        if (pts.min(axis=0) >= (0.03 * w, 0.03 * h)).all() and (
                pts.max(axis=0) <= (0.97 * w, 0.97 * h)).all():
            break
        distance *= 1.03
    px_mm = 3.0  # the textures' resolution: finer than any frame pixel
    mm_to_px = uv_to_px @ np.linalg.inv(to_mm)
    board = busy_texture(rng, (round(1.2 * aw), round(1.2 * ah)))  # 2 mm a pixel
    board_to_mm = np.array([[2.0, 0, -1.2 * aw], [0, 2.0, -1.2 * ah], [0, 0, 1]])
    acc = np.zeros((h, w), np.float32)
    _paste(acc, board, mm_to_px @ board_to_mm)
    stickers: list[tuple[int, tuple[float, float], float, tuple[float, float] | None]] = [
        (m, (float(u), float(v)), corner_mm, None) for m, (u, v) in
        zip(CORNER_MARKERS, ((0, 0), (1, 0), (1, 1), (0, 1)), strict=True)]
    stickers += [(m, uv, card_mm, (2.5 * card_mm, 3.5 * card_mm)) for m, uv in cards.items()]
    for marker, (u, v), mm, card in stickers:
        tex, (cx, cy) = _sticker(marker, mm, px_mm, card)
        spin = math.radians(float(rng.uniform(-6, 6)))
        c, s = math.cos(spin), math.sin(spin)
        x, y = (u - 0.5) * aw, (v - 0.5) * ah
        place = np.array([[c / px_mm, -s / px_mm, x - (c * cx - s * cy) / px_mm],
                          [s / px_mm, c / px_mm, y - (s * cx + c * cy) / px_mm], [0, 0, 1]])
        _paste(acc, tex, mm_to_px @ place)
    for marker in covered:  # a hand over the corner: a blob of skin over the sticker
        u, v = ((0, 0), (1, 0), (1, 1), (0, 1))[CORNER_MARKERS.index(marker)]
        centre = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), uv_to_px)[0, 0]
        r = corner_mm * 1.3 * focal / distance
        cv2.ellipse(acc, (round(centre[0]), round(centre[1])), (round(r), round(1.4 * r)),
                    float(rng.uniform(0, 180)), 0, 360, float(rng.uniform(120, 170)), -1)
    if blur > 0.2:
        acc = np.asarray(cv2.GaussianBlur(acc, (0, 0), blur), np.float32)
    acc = acc + rng.normal(0, noise, acc.shape).astype(np.float32)
    frame = np.clip(acc, 0, 255).astype(np.uint8)
    return TableShot(frame, dict(cards), uv_to_px, tuple(covered))


def overlay_card(frame: npt.ArrayLike, rng: np.random.Generator,
                 marker: int | Foreign | Pattern,
                 side: float, centre: tuple[float, float], max_tilt: float = 15.0
                 ) -> tuple[npt.NDArray[np.float32], Placed]:
    """``frame`` with one more card on it (held over it or laid on it): the card of ``marker``
    with a sticker ``side`` pixels wide, its marker's centre near ``centre``, turned and
    tilted up to ``max_tilt`` degrees; and where its marker is."""
    acc = np.asarray(frame, np.float32).copy()
    card, mcorners = card_texture(marker, max(16, round(side)), rng)
    ch, cw = card.shape
    rot = _rotation(math.radians(rng.uniform(0, max_tilt)), rng.uniform(0, math.tau),
                    rng.uniform(0, math.tau))
    mid = mcorners.mean(axis=0)
    flat = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64) - mid
    pts3 = np.c_[flat, np.zeros(4)] @ rot.T
    depth = FOCAL + pts3[:, 2]
    proj = np.c_[FOCAL * pts3[:, 0] / depth + centre[0], FOCAL * pts3[:, 1] / depth + centre[1]]
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    hom = cv2.getPerspectiveTransform(src, proj.astype(np.float32))
    _paste(acc, card, hom.astype(np.float64))
    mc = np.asarray(cv2.perspectiveTransform(mcorners.reshape(-1, 1, 2), hom),
                    np.float32).reshape(-1, 2)
    mid_id = -1 if isinstance(marker, tuple) else marker
    return acc, Placed(mid_id, tuple((float(x), float(y)) for x, y in mc), 0.0)
