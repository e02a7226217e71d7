"""Markers in a grey frame: OpenCV's ArUco detector with the registry's dictionary.

``detect(grey) -> [Marker]`` is a pure function of the frame; ``cards(markers)`` adds what each
marker is stuck on.  The detector's parameters (``parameters``) are tuned on the generated
test set so that no marker is ever read as another, with OpenCV 5 and 4 alike (see
docs/camera.md).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from .markers import DICTIONARY, MARKER_BITS, MARKER_CELLS, REGISTRY, MarkerEntry

Grey = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker found in a frame: its id and four corners in pixels, clockwise from the
    marker's own top-left corner.  ``str`` gives ``#12 (640.0, 360.0)`` (id and centre)."""

    id: int
    corners: tuple[tuple[float, float], tuple[float, float], tuple[float, float],
                   tuple[float, float]]

    @property
    def centre(self) -> tuple[float, float]:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return sum(xs) / 4, sum(ys) / 4

    @property
    def side(self) -> float:
        """The mean length of the four sides, in pixels."""
        c = self.corners
        return sum(
            float(np.hypot(c[i][0] - c[i - 1][0], c[i][1] - c[i - 1][1])) for i in range(4)
        ) / 4

    def __str__(self) -> str:
        x, y = self.centre
        return f"#{self.id} ({x:.1f}, {y:.1f})"


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))


CORRECTED_BITS = 2
"""Flipped bits the detector corrects, on every OpenCV version.  Any two stickers differ in at
least 12 bits (in any rotation), so a marker can turn into another only if 10 bits are misread
the same way; and the nearest markers of the other common 6x6 dictionaries (ArUco 6X6_1000
#331 is 3 bits from sticker #114; AprilTag 36h11 #22 and 36h10 #34, #2130 are 4 bits from
stickers) are refused, not read as cards (tests/test_vision_detect.py)."""


def correction_rate(dictionary: cv2.aruco.Dictionary, bits: int = CORRECTED_BITS) -> float:
    """The ``errorCorrectionRate`` that makes the detector correct exactly ``bits`` flipped
    bits with ``dictionary``.  OpenCV corrects ``int(maxCorrectionBits * rate)`` bits, and
    ``maxCorrectionBits`` differs between versions for the same dictionary
    (``DICT_ARUCO_MIP_36h12``: 12 on OpenCV 4.11, 5 on OpenCV 5), so a fixed rate corrects a
    different number of bits on each; ValueError for more bits than the dictionary allows."""
    most = int(dictionary.maxCorrectionBits)
    if not 0 <= bits <= most:
        raise ValueError(f"cannot correct {bits} bits: the dictionary allows 0 to {most}")
    if bits == most:
        return 1.0
    return (bits + 0.5) / most  # the middle of the step: no rounding can land on bits +- 1


def corrected_bits(dictionary: cv2.aruco.Dictionary, rate: float) -> int:
    """How many bits OpenCV corrects with ``rate`` for ``dictionary`` (its own formula)."""
    return int(float(dictionary.maxCorrectionBits) * rate)


def parameters(bits: int = CORRECTED_BITS) -> cv2.aruco.DetectorParameters:
    """The detector's parameters: OpenCV's defaults (three adaptive-threshold windows, 3 to 23
    pixels) with these changes, each measured on the generated sets (``bench/bench_vision.py``,
    figures in docs/camera.md):

    * error correction of ``bits`` (``CORRECTED_BITS``, 2) flipped bits on every OpenCV
      version, the rate computed from the dictionary's ``maxCorrectionBits``
      (``correction_rate``);
    * bits sampled at 8 pixels per cell (``perspectiveRemovePixelPerCell``, default 4) from the
      middle 40 % of each cell (``perspectiveRemoveIgnoredMarginPerCell`` 0.3, default 0.13):
      a blurred, defocused or smeared cell is read from its centre, not from the edge its
      neighbour bleeds into;
    * no corner refinement (``CORNER_REFINE_NONE``; it was sub-pixel): it comes after a marker
      is identified, so it never changes what is read, and the table mode maps marker centres
      into zones centimetres wide; it was most of the detector's cost over OpenCV's defaults;
    * candidates smaller than a perimeter of 4 % of the frame's larger side left out (default
      3 %): a marker that small (under 7 px a side at 640, 13 px at 1280) is never read, and the
      busy board's small squares are most of the detector's work;
    * a stricter check against reading texture as a marker: at most 15 % of the black border's
      cells wrong (default 35 %).  ``minOtsuStdDev`` is OpenCV's 5 again (it was 12)."""
    p = cv2.aruco.DetectorParameters()
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    p.perspectiveRemovePixelPerCell = 8
    p.perspectiveRemoveIgnoredMarginPerCell = 0.3
    p.minMarkerPerimeterRate = 0.04
    p.maxErroneousBitsInBorderRate = 0.15
    p.errorCorrectionRate = correction_rate(dictionary(), bits)
    return p


def fixed_rate_parameters() -> cv2.aruco.DetectorParameters:
    """The parameters before issue 25, kept for the benchmark's before-and-after: a fixed
    ``errorCorrectionRate`` (0.6 with OpenCV 5: 3 bits; 0.35 with OpenCV 4: 1 bit on OpenCV
    4.7, but 4 bits on 4.11, whose dictionary says 12 correctable bits)."""
    p = parameters()
    p.errorCorrectionRate = 0.6 if hasattr(p, "validBitIdThreshold") else 0.35
    return p


def legacy_parameters() -> cv2.aruco.DetectorParameters:
    """The parameters before issue 16 (bits at 4 pixels per cell from the middle 74 % of each
    cell, candidates from a perimeter of 2 %, sub-pixel corners, ``minOtsuStdDev`` 12), kept
    for the benchmark's before-and-after."""
    p = parameters()
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    p.perspectiveRemovePixelPerCell = 4
    p.perspectiveRemoveIgnoredMarginPerCell = 0.13
    p.minMarkerPerimeterRate = 0.02
    p.minOtsuStdDev = 12.0
    return p


SEARCH_WIDTH = 1200
"""Frames at least this wide are searched at half size first (``Detector.detect``)."""
MIN_SIDE_PX = 16.0
"""The smallest marker the half-size search looks for, in full-size pixels (table mode: a
25 mm sticker is 41 px and more on the 1920x1080 stream)."""
READING_MIN_SIDE_PX = 24.0
"""The same in reading mode: a 13 mm sticker held 20-40 cm from the camera is 32-64 px on the
1280x720 stream; the busy board behind it has many smaller squares, most of the search's
work (``bench/bench_vision.py``)."""
HALF_BOX_PX = 256
"""A box of a frame ``SEARCH_WIDTH`` wide or more is searched at half size too when it is at
least this many pixels on its shorter side (a card held close to the camera)."""
CROP_MAX_SIDE = 48.0
"""A candidate the half-size search could not read, at most this wide there (96 px in the
frame), is read again from the full frame around it."""


def _copy(p: cv2.aruco.DetectorParameters) -> cv2.aruco.DetectorParameters:
    out = cv2.aruco.DetectorParameters()
    for name in dir(p):
        if name.startswith("_"):
            continue
        value = getattr(p, name)
        if isinstance(value, (int, float, bool)):
            setattr(out, name, value)
    return out


def _side(quad: npt.NDArray[np.float32]) -> float:
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


Box = tuple[int, int, int, int]
"""A box of a frame: x0, y0, x1, y1 in pixels (x1 and y1 just past it)."""


class Detector:
    """An ArUco detector for the registry's dictionary.  Not shared between threads: each
    pipeline makes its own.

    A frame ``SEARCH_WIDTH`` pixels wide or more (the 1280x720 and 1920x1080 streams) is first
    searched at half size, which costs a quarter of the pixels: a marker read there keeps its
    corners (doubled, then refined on the full frame in a few pixels around each corner), and a
    small candidate that could not be read there is read again from the full frame around it
    only.  The half-size search looks for markers ``min_side`` pixels wide or more (in the
    frame's pixels; the pipeline sets ``READING_MIN_SIDE_PX`` in reading mode).  ``detect``
    may be given a ``box`` of the frame (where the view changed): only that part is searched,
    at full size, for markers of the same sizes.

    Every marker read must also be a better fit for its id than for any marker of the other
    common dictionaries near it (``foreign_evidence``); one that is not is left out and listed
    in ``foreign`` (with the foreign marker it looks like).  ``rejected`` holds the last
    frame's candidates that were not read (full-frame pixels)."""

    def __init__(self, params: cv2.aruco.DetectorParameters | None = None, *,
                 downscale: bool = True, min_side: float = MIN_SIDE_PX,
                 foreign_check: bool = True) -> None:
        self.params = params or parameters()
        self.min_side = min_side
        self.aruco = cv2.aruco.ArucoDetector(dictionary(), self.params)
        self.downscale = downscale
        self.foreign_check = foreign_check
        crop = _copy(self.params)
        crop.minMarkerPerimeterRate = 0.1
        self.crop = cv2.aruco.ArucoDetector(dictionary(), crop)
        self._low: tuple[tuple[int, float], cv2.aruco.ArucoDetector] | None = None
        self._boxes: dict[tuple[int, float], cv2.aruco.ArucoDetector] = {}
        self.rejected: list[npt.NDArray[np.float32]] = []
        self.foreign: list[tuple[Marker, tuple[str, int]]] = []
        self._straight: dict[Marker, Grey] = {}
        if foreign_check:  # made once, now (the camera's thread starting), not at a card
            near_foreign()
            _blurred_cells()

    def _search(self, longest: int) -> cv2.aruco.ArucoDetector:
        key = (longest, self.min_side)
        if self._low is None or self._low[0] != key:
            low = _copy(self.params)
            low.minMarkerPerimeterRate = max(self.params.minMarkerPerimeterRate,
                                             4 * self.min_side / longest)
            self._low = (key, cv2.aruco.ArucoDetector(dictionary(), low))
        return self._low[1]

    def _in_box(self, longest: int) -> cv2.aruco.ArucoDetector:
        """A detector for a part of a frame whose longer side is at most ``longest``: the same
        smallest marker as the whole frame's search (``min_side``)."""
        size = 64 * -(-longest // 64)  # a few sizes, each made once
        key = (size, self.min_side)
        if key not in self._boxes:
            p = _copy(self.params)
            p.minMarkerPerimeterRate = min(1.0, 4 * self.min_side / size)
            self._boxes[key] = cv2.aruco.ArucoDetector(dictionary(), p)
        return self._boxes[key]

    def detect(self, grey: Grey, box: Box | None = None, *,
               known: Iterable[Marker] = ()) -> list[Marker]:
        """The markers in a grey frame (or in ``box`` of it), by id then position (a marker of
        the dictionary that is on no card is included: the caller decides).  A marker found
        where one of ``known`` (the markers in view before, already checked) lies is not
        checked against the foreign markers again."""
        self.foreign = []
        self._straight = {}
        if box is not None:
            found = self._detect_box(grey, box)
        elif not self.downscale or grey.shape[1] < SEARCH_WIDTH:
            corners, ids, rejected = self.aruco.detectMarkers(grey)
            self.rejected = [np.asarray(q, np.float32).reshape(4, 2) for q in rejected]
            found = to_markers(corners, ids)
        else:
            found = self._detect_half(grey)
        if not self.foreign_check:
            return found
        places = {(k.id, round(k.centre[0] / 4), round(k.centre[1] / 4)) for k in known}
        return [m for m in found if (m.id, round(m.centre[0] / 4), round(m.centre[1] / 4))
                in places or self._vet_foreign(grey, m)]

    def _detect_box(self, grey: Grey, box: Box) -> list[Marker]:
        h, w = grey.shape[:2]
        x0, y0 = max(0, box[0]), max(0, box[1])
        x1, y1 = min(w, box[2]), min(h, box[3])
        if x1 - x0 < 8 or y1 - y0 < 8:
            self.rejected = []
            return []
        part = np.ascontiguousarray(grey[y0:y1, x0:x1])
        if self.downscale and w >= SEARCH_WIDTH and min(x1 - x0, y1 - y0) >= 4 * self.min_side:
            found = self._detect_half(part)  # a large part of a large frame: at half size
            self.rejected = [q + (x0, y0) for q in self.rejected]
            return to_markers([np.asarray(m.corners, np.float32).reshape(1, 4, 2) + (x0, y0)
                               for m in found],
                              np.array([m.id for m in found]).reshape(-1, 1) if found else None)
        corners, ids, rejected = self._in_box(max(x1 - x0, y1 - y0)).detectMarkers(part)
        self.rejected = [np.asarray(q, np.float32).reshape(4, 2) + (x0, y0) for q in rejected]
        shifted = [np.asarray(q, np.float32).reshape(1, 4, 2) + (x0, y0) for q in corners]
        return to_markers(shifted, ids)

    def _detect_half(self, grey: Grey) -> list[Marker]:
        h, w = grey.shape[:2]
        small = cv2.resize(grey, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        corners, ids, rejected = self._search(max(w, h)).detectMarkers(small)
        quads: list[npt.NDArray[np.float32]] = []
        found: list[int] = []
        if ids is not None:
            for quad, mid in zip(corners, np.asarray(ids).reshape(-1).tolist(), strict=True):
                quads.append(np.asarray(quad, np.float32).reshape(4, 2) * 2 + 0.5)
                found.append(int(mid))
        if quads:
            pts = np.concatenate(quads).reshape(-1, 1, 2)
            cv2.cornerSubPix(grey, pts, (3, 3), (-1, -1), _SUBPIX)
            quads = list(pts.reshape(-1, 4, 2))
        self.rejected = []
        for quad in rejected:
            self._read_around(grey, np.asarray(quad, np.float32).reshape(4, 2), quads, found)
        return to_markers([q.reshape(1, 4, 2) for q in quads],
                          np.array(found).reshape(-1, 1) if found else None)

    def _read_around(self, grey: Grey, q: npt.NDArray[np.float32],
                     quads: list[npt.NDArray[np.float32]], found: list[int]) -> None:
        """Read a candidate of the half-size search again from the full frame around it."""
        h, w = grey.shape[:2]
        sides = np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)
        full = q * 2 + 0.5
        if _side(q) > CROP_MAX_SIDE or sides.min() < 0.3 * sides.max():
            self.rejected.append(full)
            return
        margin = 0.3 * _side(full) + 4
        x0, y0 = np.maximum(full.min(axis=0) - margin, 0).astype(int)
        x1, y1 = (np.minimum(full.max(axis=0) + margin, (w - 1, h - 1)) + 1).astype(int)
        c2, i2, _r2 = self.crop.detectMarkers(np.ascontiguousarray(grey[y0:y1, x0:x1]))
        ids2 = [] if i2 is None else [int(v) for v in np.asarray(i2).reshape(-1)]
        if not ids2:
            self.rejected.append(full)
            return
        for q2, mid in zip(c2, ids2, strict=True):
            q2 = np.asarray(q2, np.float32).reshape(4, 2) + (x0, y0)
            centre = q2.mean(axis=0)
            if any(m == mid and float(np.linalg.norm(o.mean(axis=0) - centre)) < 0.5 *
                   _side(o) for m, o in zip(found, quads, strict=True)):
                continue
            quads.append(q2)
            found.append(int(mid))

    def _vet_foreign(self, grey: Grey, m: Marker) -> bool:
        """Whether ``m`` reads as its id better than as any near marker of the other
        dictionaries (``foreign_evidence``); one that does not is listed in ``foreign``."""
        img = _straighten(grey, m.corners, MARKER_CELLS)
        self._straight[m] = img
        margin, like = foreign_evidence(img, m.id)
        if margin < FOREIGN_MARGIN and like is not None:
            self.foreign.append((m, like))
            return False
        return True

    def margin(self, grey: Grey, marker: Marker) -> float:
        """``quiet_zone`` of a marker of the last frame detected (its straightened picture is
        kept from the foreign check)."""
        img = self._straight.get(marker)
        if img is None:
            return quiet_zone(grey, marker)
        return _quiet(img, MARKER_CELLS)


_SUBPIX = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 0.05)


def to_markers(corners: Iterable[object], ids: object) -> list[Marker]:
    """Markers from ``detectMarkers``' outputs (a list of 1x4x2 arrays and an Nx1 array)."""
    if ids is None:
        return []
    out = []
    for quad, mid in zip(corners, np.asarray(ids).reshape(-1).tolist(), strict=True):
        q = np.asarray(quad, dtype=np.float64).reshape(4, 2).tolist()
        out.append(Marker(int(mid), (
            (q[0][0], q[0][1]), (q[1][0], q[1][1]), (q[2][0], q[2][1]), (q[3][0], q[3][1]),
        )))
    out.sort(key=lambda m: (m.id, m.centre))
    return out


_DEFAULT: Detector | None = None


def detect(grey: Grey) -> list[Marker]:
    """The markers in a grey frame, with the default detector (for one thread: the command line
    and tests)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Detector()
    return _DEFAULT.detect(grey)


def cards(markers: Iterable[Marker]) -> list[tuple[Marker, MarkerEntry]]:
    """The markers that are on a card of the registry, with their entries."""
    return [(m, REGISTRY[m.id]) for m in markers if m.id in REGISTRY]


def as_grey(image: npt.ArrayLike) -> Grey:
    """A grey frame from an 8-bit image of any of OpenCV's layouts (grey, BGR, BGRA)."""
    image = np.asarray(image, dtype=np.uint8)
    if image.ndim == 2:
        return np.ascontiguousarray(image)
    if image.ndim == 3 and image.shape[2] == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY), dtype=np.uint8)
    raise ValueError(f"not an image: an array of shape {image.shape}")


# -- the identity check: what a printed sticker looks like ---------------------------------------

QUIET_SHARE = 0.6
"""A printed sticker's white margin: at least this share of the ring one cell wide around the
marker is white (``quiet_zone``; a finger or the frame's edge may take the rest)."""
MARGIN_LEVEL = 0.8
"""A margin cell is white when it is at least this far from the marker's black to its white."""
_P = 10  # pixels per cell of the straightened marker


def _straighten(grey: Grey, corners: npt.ArrayLike, cells: int) -> Grey:
    """The marker with a ring of one cell around it, straightened to ``cells + 2`` cells of
    ``_P`` pixels; what lies outside the frame is black (it cannot prove a white margin)."""
    src = np.asarray(corners, np.float32).reshape(4, 2)
    n = (cells + 2) * _P
    dst = np.array([[_P, _P], [n - _P, _P], [n - _P, n - _P], [_P, n - _P]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    return np.asarray(cv2.warpPerspective(grey, m, (n, n), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_CONSTANT, borderValue=0),
                      dtype=np.uint8)


def _cell_means(img: Grey, cells: int) -> npt.NDArray[np.float64]:
    """The mean of the middle half of each cell, (cells+2) x (cells+2)."""
    n = cells + 2
    lo, hi = _P // 4, _P - _P // 4
    blocks = img.reshape(n, _P, n, _P)[:, lo:hi, :, lo:hi].astype(np.float64)
    return np.asarray(blocks.mean(axis=(1, 3)))


def _ring(img: Grey, cells: int) -> npt.NDArray[np.float64]:
    """The mean of the outer 40 % of each cell of the ring around the marker (a cell away from
    its border: what blur from the border does not reach), clockwise."""
    n = cells + 2
    k = max(1, (2 * _P) // 5)
    f = img.astype(np.float64)
    top = f[:k, :].reshape(k, n, _P).mean(axis=(0, 2))
    bottom = f[-k:, :].reshape(k, n, _P).mean(axis=(0, 2))
    left = f[:, :k].reshape(n, _P, k).mean(axis=(1, 2))
    right = f[:, -k:].reshape(n, _P, k).mean(axis=(1, 2))
    return np.concatenate([top, right[1:-1], bottom, left[1:-1]])


def quiet_zone(grey: Grey, marker: Marker, cells: int = 8) -> float:
    """The share of the ring one cell wide around ``marker`` that is white: its outer part at
    least ``MARGIN_LEVEL`` of the way from the marker's black border to its white cells (the
    lower quartile of them: a glint may brighten some).  0.0 for a marker with no contrast, or
    when the ring is not one even tone (its middle half spans more than half that contrast).

    A printed sticker has a white margin at least a cell wide (``companion markers`` prints
    1.25 cells), of the same paper as the marker's white cells; a marker-shaped icon printed on
    a board has the board's painted panel around it."""
    return _quiet(_straighten(grey, marker.corners, cells), cells)


def _quiet(img: Grey, cells: int) -> float:
    """``quiet_zone`` of a straightened marker."""
    means = _cell_means(img, cells)
    n = cells + 2
    border = np.concatenate([means[1, 1:n - 1], means[n - 2, 1:n - 1], means[2:n - 2, 1],
                             means[2:n - 2, n - 2]])
    inner = means[2:n - 2, 2:n - 2].ravel()
    black = _quantile(border, 0.5)
    light = inner[inner > (black + float(inner.max())) / 2]  # the white cells; a glint brightens
    white = _quantile(light, 0.25) if light.size else black  # some: not those
    if white - black < 10:
        return 0.0
    ring = np.sort(_ring(img, cells))
    q1, q3 = _quantile(ring, 0.25), _quantile(ring, 0.75)
    if q3 - q1 > 0.5 * (white - black):
        return 0.0  # not one even margin: board art around an icon
    return float(np.mean(ring > black + MARGIN_LEVEL * (white - black)))


def _quantile(values: npt.NDArray[np.float64], q: float) -> float:
    """``np.percentile(values, 100 * q)`` (linear), without its cost on a few values."""
    v = np.sort(values)
    at = q * (v.size - 1)
    lo = int(at)
    hi = min(lo + 1, v.size - 1)
    return float(v[lo] + (v[hi] - v[lo]) * (at - lo))


FOREIGN_FAMILIES = ("DICT_6X6_1000", "DICT_APRILTAG_36h10", "DICT_APRILTAG_36h11")
"""The other common dictionaries of 6x6 data cells (OpenCV's names): markers someone may have
on the table (another game's, a robot kit's).  ``DICT_6X6_1000`` holds 6X6_50 to 6X6_250."""
FOREIGN_BITS = 6
"""Their markers within this many bits of one of ours (in any rotation) are checked against."""
FOREIGN_MARGIN = 1.25
"""A marker read must be more than this many bits nearer its id than any near foreign marker
(``foreign_evidence``: each cell where the two differ counts by how far it leans between them,
+1 as ours has it, -1 as theirs, 0 half way): the audit's AprilTag 36h11 #22 read as #149
scores -2.5 to -3.8, a pattern half way between a foreign marker and ours -0.8 to +0.8, our
stickers above 1.25 in 99.3 % of the hardest generated set (25 px on a busy board) and 99.5 %
and more in every other; a printed sticker with a flipped bit or two is read when the flips
leave it two bits or more nearer its id than any foreign marker."""


@functools.cache
def near_foreign() -> dict[int, tuple[npt.NDArray[np.float32], tuple[tuple[str, int], ...]]]:
    """For each of our ids, the near markers of ``FOREIGN_FAMILIES`` (within ``FOREIGN_BITS``):
    their 6x6 cells turned as our marker is (1 white), and what they are."""
    from .markers import DICTIONARY_SIZE

    ours = np.array([_code(m) for m in range(DICTIONARY_SIZE)], np.float32)
    blocks: list[npt.NDArray[np.float32]] = []
    names: list[tuple[str, int]] = []
    for family in FOREIGN_FAMILIES:
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, family))
        n = d.bytesList.shape[0]
        bits = np.array([_bits(d, i) for i in range(n)], np.float32)
        for k in range(4):
            blocks.append(np.rot90(bits, k, axes=(1, 2)).reshape(n, -1))
            names.extend((family, i) for i in range(n))
    theirs = np.concatenate(blocks)
    dist = theirs @ (1 - ours).T + (1 - theirs) @ ours.T  # (theirs, ours) flipped bits
    out: dict[int, tuple[npt.NDArray[np.float32], tuple[tuple[str, int], ...]]] = {}
    for m in range(DICTIONARY_SIZE):
        near = np.flatnonzero(dist[:, m] <= FOREIGN_BITS)
        if near.size:
            out[m] = (theirs[near], tuple(names[k] for k in near))
    return out


def _bits(d: cv2.aruco.Dictionary, marker: int) -> npt.NDArray[np.float32]:
    """A marker's data cells as its dictionary has them (1 white), unturned."""
    size = int(d.markerSize)
    bits = cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[marker:marker + 1], size)
    return (np.asarray(bits).reshape(size, size) > 0).astype(np.float32)


@functools.cache
def _code(marker: int) -> npt.NDArray[np.float32]:
    """Our marker's 36 data cells (1 white), row by row."""
    return _bits(dictionary(), marker).reshape(-1)


BLURS = (0.8, 1.8, 2.8, 4.0, 5.5)
"""The blurs tried on a straightened marker (Gaussian sigma, in its pixels: ``_P`` a cell)."""


@functools.cache
def _blurred_cells() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """What a straightened marker's cell centres (``_centres``) show under each blur of
    ``BLURS``: those of a white margin and a black border with black data cells, and what
    each white data cell adds to each of them -- (blurs, 100) and (blurs, 100, 36): a code's
    picture is ``base + spread @ code``."""
    n = MARKER_CELLS + 2

    def seen(cells: npt.NDArray[np.float32], sigma: float) -> npt.NDArray[np.float64]:
        img = np.kron(cells, np.ones((_P, _P), np.float32))
        return _centres(np.asarray(cv2.GaussianBlur(img, (0, 0), sigma), np.float32))

    ring = np.ones((n, n), np.float32)
    ring[1:-1, 1:-1] = 0.0
    base = np.array([seen(ring, sigma) for sigma in BLURS])
    spread = np.empty((len(BLURS), n * n, MARKER_BITS * MARKER_BITS))
    for k in range(MARKER_BITS * MARKER_BITS):
        one = np.zeros((n, n), np.float32)
        one[2 + k // MARKER_BITS, 2 + k % MARKER_BITS] = 1.0
        for b, sigma in enumerate(BLURS):
            spread[b, :, k] = seen(one, sigma)
    return base, spread


def _centres(img: npt.NDArray[np.float32] | Grey) -> npt.NDArray[np.float64]:
    """The mean of the middle 40 % of each cell of a straightened marker, row by row."""
    n = MARKER_CELLS + 2
    lo, hi = (3 * _P) // 10, _P - (3 * _P) // 10
    return np.asarray(img.reshape(n, _P, n, _P)[:, lo:hi, :, lo:hi].mean(axis=(1, 3)),
                      np.float64).reshape(-1)


_INNER = np.pad(np.ones((MARKER_CELLS, MARKER_CELLS), bool), 1).reshape(-1)
"""The border and the data cells of a straightened marker: not the margin around them."""


def foreign_evidence(img: Grey, marker: int) -> tuple[float, tuple[str, int] | None]:
    """How much nearer a straightened marker (``_straighten``) read as ``marker`` is to it
    than to the nearest foreign marker of ``FOREIGN_FAMILIES``, in bits.  For each near
    foreign marker, both are drawn as a camera would see them -- each blur of ``BLURS``,
    scaled to the marker's black and white by the cells the two show alike, and the blur that
    fits those cells best kept -- and the cells they show differently are compared with what
    the picture has there: +1 for each cell where the picture is ours, -1 where it is theirs,
    0 half way (as a share of the two pictures' difference there, times the bits that
    differ).  The least over the near foreign markers, and that marker; (inf, None) when no
    foreign marker is near."""
    near = near_foreign().get(marker)
    if near is None:
        return float("inf"), None
    theirs_all, names = near
    seen = _centres(img)
    base, spread = _blurred_cells()
    ours = _code(marker).astype(np.float64)
    mine = base + spread @ ours  # (blurs, 100)
    worst, like = float("inf"), None
    for theirs, name in zip(theirs_all.astype(np.float64), names, strict=True):
        bits = int((theirs != ours).sum())
        lean = bits * _between(seen, mine, base + spread @ theirs)
        if lean < worst:
            worst, like = lean, name
    return worst, like


def _between(seen: npt.NDArray[np.float64], mine: npt.NDArray[np.float64],
             other: npt.NDArray[np.float64]) -> float:
    """Where ``seen`` lies between our code's picture (+1) and theirs (-1) on the cells the
    two show differently, under the blur (a row of ``mine`` and ``other``) and the tones (a
    line fitted) that fit the cells they show alike best; -1 when nothing fits."""
    alike = _INNER & (np.abs(mine - other) < 0.05)  # (blurs, 100)
    count = alike.sum(axis=1)
    x = np.where(alike, mine, 0.0)
    y = np.where(alike, seen, 0.0)
    mx = x.sum(axis=1) / np.maximum(count, 1)
    my = y.sum(axis=1) / np.maximum(count, 1)
    dx = np.where(alike, mine - mx[:, None], 0.0)
    var = (dx * dx).sum(axis=1)
    a = (dx * (seen - my[:, None])).sum(axis=1) / np.maximum(var, 1e-9)
    b = my - a * mx
    rss = (np.where(alike, seen - a[:, None] * mine - b[:, None], 0.0) ** 2).sum(axis=1)
    good = (count >= 8) & (var >= 0.01 * count) & (a > 0)
    if not good.any():
        return -1.0  # no blur explains the picture: not our marker
    k = int(np.argmin(np.where(good, rss / np.maximum(count, 1), np.inf)))
    want_ours = a[k] * mine[k] + b[k]
    want_theirs = a[k] * other[k] + b[k]
    differ = _INNER & ~alike[k]
    gap = float(((want_theirs - want_ours)[differ] ** 2).sum())
    if gap <= 0:
        return 1.0
    e_ours = float(((seen - want_ours)[differ] ** 2).sum())
    e_theirs = float(((seen - want_theirs)[differ] ** 2).sum())
    return float(np.clip((e_theirs - e_ours) / gap, -1.0, 1.0))


def saturated(grey: Grey, quad: npt.ArrayLike, level: int = 250) -> float:
    """The share of the pixels inside ``quad`` (four corners) at ``level`` or brighter: a lamp
    reflected in the sticker."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    x0, y0 = np.maximum(np.floor(q.min(axis=0)), 0).astype(int)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 1
    patch = grey[y0:y1, x0:x1]
    if patch.size == 0:
        return 0.0
    mask = np.zeros(patch.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(q - (x0, y0)).astype(np.int32), 1)
    inside = int(mask.sum())
    return float(np.count_nonzero((patch >= level) & (mask > 0))) / inside if inside else 0.0


def edge_width(grey: Grey) -> float:
    """How wide the sharpest edges of ``grey`` are, in pixels, in the blurrier of the two
    directions: the contrast (2nd to 98th percentile) over the steepest gradients (99.5th
    percentile) on a 2x2-averaged copy (sensor noise averages out).  A sharp marker's edges
    are about 2 px wide; a card smeared by motion, as wide as the smear.  0.0 for a flat
    picture."""
    h, w = grey.shape[:2]
    if h < 8 or w < 8:
        return 0.0
    small = cv2.resize(grey, (w // 2, h // 2), interpolation=cv2.INTER_AREA).astype(np.float32)
    lo, hi = np.percentile(small.ravel()[::max(1, small.size // 40000)], (2, 98))
    contrast = float(hi - lo)
    if contrast < 24:
        return 0.0
    gx = np.abs(np.diff(small, axis=1)).ravel()
    gy = np.abs(np.diff(small, axis=0)).ravel()
    k = max(1, gx.size // 40000)  # a large region: every k-th gradient tells the same
    steep = min(float(np.percentile(gx[::k], 99.5)), float(np.percentile(gy[::k], 99.5)))
    return 2 * contrast / max(steep, 1e-3)


def glare(grey: Grey, min_side: float = MIN_SIDE_PX) -> bool:
    """Whether ``grey`` (the part of a frame where a card came in) shows a lamp reflected in a
    sticker: a saturated patch (255 after the camera's gain) at least a sticker cell wide, with
    the marker's black cells beside it (a third of its surroundings dark)."""
    mask = (grey >= 250).astype(np.uint8)
    if int(mask.sum()) < (min_side / 8) ** 2:
        return False
    n, _labels, stats, _centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = grey.shape[:2]
    for x, y, bw, bh, area in stats[1:n].tolist():
        if area < (min_side / 8) ** 2 or area > h * w / 8:
            continue
        r = max(bw, bh)
        x0, y0 = max(0, x - r), max(0, y - r)
        around = grey[y0:min(h, y + bh + r), x0:min(w, x + bw + r)]
        if float(np.mean(around < 80)) >= 0.15:
            return True
    return False
