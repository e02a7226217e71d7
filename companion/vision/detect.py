"""Markers in a grey frame: OpenCV's ArUco detector with the registry's dictionary.

``detect(grey) -> [Marker]`` is a pure function of the frame; ``cards(markers)`` adds what each
marker is stuck on.  The detector's parameters (``parameters``) are tuned on the generated
test set so that no marker is ever read as another, with OpenCV 5 and 4 alike (see
docs/camera.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from .markers import DICTIONARY, REGISTRY, MarkerEntry

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


def parameters() -> cv2.aruco.DetectorParameters:
    """The detector's parameters: OpenCV's defaults (three adaptive-threshold windows, 3 to 23
    pixels) with these changes, each measured on the generated sets (``bench/bench_vision.py``,
    figures in docs/camera.md):

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
      cells wrong (default 35 %).  ``minOtsuStdDev`` is OpenCV's 5 again (it was 12): the same
      reads and no ghost on the sets and on 6,000 faint bordered random patterns, with OpenCV
      5.0 and 4.11 alike, and on a busy board a fifth less work.

    Error correction: 3 bits (``errorCorrectionRate`` 0.6 of the dictionary's 5) with OpenCV 5,
    which also checks each bit's confidence (``validBitIdThreshold``); 1 bit (0.35) with OpenCV
    4, which does not and otherwise read a few textures as markers on the generated set."""
    p = cv2.aruco.DetectorParameters()
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    p.perspectiveRemovePixelPerCell = 8
    p.perspectiveRemoveIgnoredMarginPerCell = 0.3
    p.minMarkerPerimeterRate = 0.04
    p.maxErroneousBitsInBorderRate = 0.15
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


class Detector:
    """An ArUco detector for the registry's dictionary.  Not shared between threads: each
    pipeline makes its own."""

    def __init__(self, params: cv2.aruco.DetectorParameters | None = None) -> None:
        self.aruco = cv2.aruco.ArucoDetector(dictionary(), params or parameters())

    def detect(self, grey: Grey) -> list[Marker]:
        """The markers in a grey frame, by id then position (a marker of the dictionary that is
        on no card is included: the caller decides)."""
        corners, ids, _rejected = self.aruco.detectMarkers(grey)
        return to_markers(corners, ids)


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
