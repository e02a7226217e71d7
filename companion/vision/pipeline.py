"""From frames to card readings: the change check, one synchronous step, and the thread.

``tracker.CardTracker`` is the whole decision, with no clock and no thread (see its module).
``Pipeline.step(grey, now)`` runs change check -> detect (where the view changed) -> registry
-> tracker on one frame; tests call it directly.  ``CameraThread`` calls it at the configured
rate on frames from a source, and reopens a source that is missing or fails, with a growing
pause between tries (it gives up only on a camera library that cannot be loaded, which no
retry mends).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .markers import REGISTRY, MarkerEntry
from .tracker import NOTHING, CardTracker, Place, Reading

if TYPE_CHECKING:
    from .detect import Box, Detector, Grey, Marker
    from .sources import Camera
    from .table import Plane, TablePlane

__all__ = ["CardTracker", "Reading"]  # the tracker's, used from here by the device and tests


TALL = 3
"""The change check's cells are this many times as tall as wide (one row of each is read)."""
LIGHT_SLACK = 0.02
"""What one gain a row leaves of the light's change (pixels clipped at white, the flicker's
slope across a cell), as a share of a cell's brightness: allowed on top of ``threshold``."""


class ChangeCheck:
    """Whether a frame differs from the one last analysed, whatever the light does.

    Both frames are shrunk to cells (``small``: the row across the middle of each cell,
    averaged: sensor noise cancels) and compared cell by cell.  When no cell moved by more than
    ``threshold`` grey levels and ``LIGHT_SLACK`` of its brightness the view is still;
    otherwise the light's own change is taken out first: each row of cells is scaled by the
    median ratio of its cells to the reference's, and compared again.  Mains
    lighting flickers against a short exposure, and a rolling shutter turns the flicker into
    bands that roll down the frame, so the gain is taken per row; the median, so that a card
    coming in does not move it.  A card, a hand or a finger moves some cell by more than that;
    a still table under flickering light does not.  ``region`` is the box (x0, y0, x1, y1, in
    frame pixels) of the cells that changed."""

    def __init__(self, cell: int = 20, threshold: float = 10.0, *, across: int = 64) -> None:
        if cell < 4:
            raise ValueError("cell must be 4 pixels or more")
        self.cell = cell
        self.least_cell = cell
        self.across = across
        self.threshold = threshold
        self.reference: Any = None
        self.region: tuple[int, int, int, int] | None = None
        self._tolerance: Any = None

    def small(self, grey: Grey) -> Any:
        """The frame as cells: ``across`` cells across (``cell`` pixels at least: 20 at
        1280x720, 30 at 1920x1080), ``TALL`` times as tall, each the mean of the row of its
        pixels across its middle: one row in 60 or 90 of the frame is read, where a card
        (taller than that) cannot come in unseen; a row's pixels are lit alike by a flicker
        rolling down the frame."""
        import cv2

        h, w = grey.shape[:2]
        self.cell = c = max(self.least_cell, w // self.across)
        tall = TALL * c
        size = (max(1, w // c), max(1, h // tall))
        if h < tall or w < c:
            return cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        rows = grey[tall // 2:size[1] * tall:tall, :size[0] * c]
        return cv2.resize(rows, size, interpolation=cv2.INTER_AREA)

    def changed(self, small: Any) -> bool:
        import cv2
        import numpy as np

        ref = self.reference
        if ref is None or ref.shape != small.shape:
            self.region = None
            return True
        if self._tolerance is None or self._tolerance[0] is not ref:
            before = ref.astype(np.float32)
            allowed = self.threshold + LIGHT_SLACK * before
            lo = np.clip(np.ceil(before - allowed), 0, 255).astype(np.uint8)
            hi = np.clip(np.floor(before + allowed), 0, 255).astype(np.uint8)
            self._tolerance = (ref, before, lo, hi)
        _ref, before, lo, hi = self._tolerance
        if cv2.countNonZero(cv2.inRange(small, lo, hi)) == small.size:
            self.region = None  # the light did not change more than it may
            return False
        now = small.astype(np.float32)
        ratio = (now + 1.0) / (before + 1.0)
        mid = ratio.shape[1] // 2
        gain = np.partition(ratio, mid, axis=1)[:, mid:mid + 1]  # each row's median
        light = before * gain
        moved = np.abs(now - light) > self.threshold + LIGHT_SLACK * light
        if not moved.any():
            self.region = None
            return False
        rows = np.flatnonzero(moved.any(axis=1))
        cols = np.flatnonzero(moved.any(axis=0))
        c = self.cell
        self.region = (int(cols[0]) * c, int(rows[0]) * TALL * c, (int(cols[-1]) + 1) * c,
                       (int(rows[-1]) + 1) * TALL * c)
        return True


@dataclass(frozen=True, slots=True)
class Step:
    """One frame through the pipeline: the markers in view (those found where the frame was
    analysed, and the ones of earlier analyses where nothing changed), whether the frame was
    analysed (in full or where it changed), and the tracker's reading."""

    markers: tuple[Marker, ...]
    reading: Reading
    analysed: bool = True


SETTLE_FRAMES = 4  # frames analysed after a change, before still frames are skipped
LOOK_FRAMES = 30  # frames a marker found once may be looked for again, to confirm it
REFRESH_SECONDS = 15.0  # a band of a still view is analysed again this often ...
REFRESH_BANDS = 4  # ... one of this many in turn: the whole view every minute
WHOLE_SHARE = 0.4  # a change over more of the frame than this: the whole frame is analysed
SHARP_FRAMES = 4  # while the view moves, a blurred frame is analysed only if it is the
#                   sharpest of this many last frames
BLURRED_PX = 4.0  # edges wider than this (detect.edge_width): a card moving too fast to read
HOLD_FRAMES = 8  # blurred moving frames in a row, no card read: "hold the card still"
GLARE_FRAMES = 3  # frames in a row with such a candidate and no card read: "tilt the card"


def _bounds(m: Marker) -> tuple[float, float, float, float]:
    xs = [p[0] for p in m.corners]
    ys = [p[1] for p in m.corners]
    return min(xs), min(ys), max(xs), max(ys)


def _meets(m: Marker, box: Box) -> bool:
    """Whether the marker's outline reaches into ``box``."""
    x0, y0, x1, y1 = _bounds(m)
    return x1 >= box[0] and x0 <= box[2] and y1 >= box[1] and y0 <= box[3]


def _within(m: Marker, box: Box) -> bool:
    """Whether the marker lies wholly inside ``box`` (it can be found there)."""
    x0, y0, x1, y1 = _bounds(m)
    return x0 >= box[0] and y0 >= box[1] and x1 <= box[2] and y1 <= box[3]


def _union(a: Box | None, b: Box | None) -> Box | None:
    if a is None or b is None:
        return a or b
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _place(m: Marker) -> Place:
    x, y = m.centre
    (ax, ay), _b, (cx, cy), _d = m.corners
    return x, y, 0.7071 * ((cx - ax) ** 2 + (cy - ay) ** 2) ** 0.5  # the diagonal / sqrt 2


class Pipeline:
    """grey frame -> (changed? where?) -> markers -> (a printed sticker?) -> card readings.
    Synchronous: ``step`` is all there is.

    With ``skip_still`` (the camera thread's default) a frame like the last one analysed is
    not analysed again, and a frame that changed is analysed only where it changed (the box of
    the cells that changed, widened by a marker's side; the whole frame when the change covers
    more than ``WHOLE_SHARE`` of it): a card laid among twenty costs the analysis of the
    corner it is laid in.  The markers in view are those found there and, elsewhere, the ones
    of earlier analyses; a card the tracker counts as shown is kept when an analysis of an
    unchanged view misses it.  After a change the next ``SETTLE_FRAMES`` frames are analysed
    there too, and a marker found once is looked for again (up to ``LOOK_FRAMES`` frames)
    until it is found twice in a row or given up.  A still view is looked at again one band
    in ``REFRESH_BANDS`` every ``REFRESH_SECONDS``.

    While the view moves, in reading mode (the tracker is not the table's), each frame's
    sharpness is measured (``detect.edge_width`` around what changed).  A blurred frame in
    which no marker is read, but a marker-shaped shape is found where the last one was read
    (the card smeared, not gone), does not undo the read of a sharper frame just before it
    (for up to ``SHARP_FRAMES`` frames): a card waved in front of the camera is read from its
    sharpest moments.  When an analysis takes longer than a frame (a Pi on a busy board, so
    frames are left out anyway; or ``sharpest=True``), a blurred frame is analysed only when it
    is the sharpest of the last ``SHARP_FRAMES``, so the time goes to the frames that can be
    read.  ``HOLD_FRAMES`` blurred frames in a row with no card read give
    ``Reading.hold_still``; a reflection on a sticker where the view last changed
    (``detect.glare``) in ``GLARE_FRAMES`` frames in a row, no card read, gives
    ``Reading.glare``.

    In reading mode the detector looks for markers ``detect.READING_MIN_SIDE_PX`` wide or
    more.  A marker counts only if it looks like a printed sticker (``identity``): a white margin
    around it (``detect.quiet_zone``), or its id was in view at the analysis before (a finger
    that slides over the margin of a card already seen does not lose it).  A marker-shaped
    icon printed on a board has no white margin and is never reported."""

    def __init__(self, detector: Detector | None = None,
                 tracker: CardTracker | None = None, *, skip_still: bool = True,
                 identity: bool = True, sharpest: bool | None = None) -> None:
        if detector is None:
            from .detect import Detector

            detector = Detector()
        self.detector = detector
        self.tracker = tracker or CardTracker()
        if not self.tracker.table and hasattr(detector, "min_side"):
            from .detect import READING_MIN_SIDE_PX

            detector.min_side = READING_MIN_SIDE_PX  # cards held up: no tiny markers
        self.skip_still = skip_still
        self.identity = identity
        self.sharpest = sharpest
        self.change = ChangeCheck()
        self._now: float | None = None
        self._period = 0.0  # seconds between frames (a running mean)
        self._took = 0.0  # seconds an analysis takes (a running mean)
        self._markers: tuple[Marker, ...] = ()
        self._ids: tuple[int, ...] = ()
        self._cards_in_view = False  # a marker of the registry in view (not one on no card)
        self._places: dict[int, Place] = {}
        self._focus: Box | None = None  # where the view changed since it was last still
        self._refreshed: float | None = None  # when the view was last analysed
        self._band = -1
        self._episode = False  # the view has changed since it was last still
        self._doubtful = False  # a card found once waits to be found again
        self._whole = False  # the change had no box (the first frame): analyse it whole
        self._settle = 0
        self._look = 0  # frames left to confirm a marker found once
        self._held = 0  # blurred frames the last read has been kept through
        self._widths: deque[float] = deque(maxlen=SHARP_FRAMES)
        self._counted: frozenset[int] = frozenset()
        self._region: tuple[int, int, int, int] | None = None  # where the view last changed
        self.reset()

    def step(self, grey: Grey, now: float | None = None) -> Step:
        """One frame, taken at ``now`` seconds (any clock; None: frames only).  ValueError for a
        frame that is not a grey image; OpenCV's own errors pass through."""
        check_frame(grey)
        if now is not None and self._now is not None and now > self._now:
            self._period = 0.8 * self._period + 0.2 * (now - self._now) if self._period else (
                now - self._now)
        self._now = now
        analyse, moving, small, refresh = self._looks(grey, now)
        if not analyse and not moving:
            return self._still(now)
        blurred = False
        reading_mode = not self.tracker.table
        measure = moving and reading_mode and self.change.region is not None
        width: float | None = None
        if measure and self._choose_sharpest():
            width = self._width(grey)
            blurred = width > BLURRED_PX
            if blurred and self._widths and width > min(self._widths) and not self._doubtful:
                analyse = False  # a sharper frame came a moment ago: wait for a sharper one
                #                  (unless a card found once waits for a second look)
        elif not moving:
            self._widths.clear()
        if moving:
            self._region = self.change.region
        found: frozenset[int] = frozenset()
        if analyse:
            found, width, blurred = self._analyse(grey, small, refresh, moving, measure, width)
        if width is not None:
            self._widths.append(width)
        reading = self.tracker.step(self._ids, now, found=found, places=self._places)
        if analyse:
            self._confirm()
        hold, glare = self._advice(grey, reading, moving, blurred, analyse, reading_mode)
        if hold or glare:
            reading = replace(reading, hold_still=hold, glare=glare)
        return Step(self._markers, reading, analyse)

    def _still(self, now: float | None) -> Step:
        """A frame like the last one analysed: its markers stand (and the advice waits)."""
        self._widths.clear()
        reading = self.tracker.step(self._ids, now, found=(), places=self._places)
        self._blurred, self._said_hold = 0, False
        if self._cards_in_view or reading.card is not None:
            self._glared, self._said_glare = 0, False
        return Step(self._markers, reading, False)

    def _looks(self, grey: Grey, now: float | None) -> tuple[bool, bool, Any, Box | None]:
        """Whether to analyse this frame, whether the view moved, the frame's cells for the
        change check, and the band to look at again (a still view, now and then)."""
        if not self.skip_still:
            return True, False, None, None
        small = self.change.small(grey)
        moving = self.change.changed(small)
        if moving:
            self._settle = SETTLE_FRAMES
            self._look = LOOK_FRAMES
            self._focus = _union(self._focus, self.change.region) if self._episode else (
                self.change.region)
            self._episode = True
            self._whole = self._whole or self.change.region is None
        if self._settle > 0:
            return True, moving, small, None
        if now is not None and self._refreshed is not None and (
                now - self._refreshed >= REFRESH_SECONDS):
            self._refreshed = now
            self._band = (self._band + 1) % REFRESH_BANDS
            h, w = grey.shape[:2]
            pad = round(0.75 * max((p[2] for p in self._places.values()), default=32.0))
            #     (a marker whose middle is in the band lies wholly in it and its pad)
            y0 = h * self._band // REFRESH_BANDS
            y1 = h * (self._band + 1) // REFRESH_BANDS
            return True, False, small, (0, max(0, y0 - pad), w, min(h, y1 + pad))
        return False, moving, small, None

    def _analyse(self, grey: Grey, small: Any, refresh: Box | None, moving: bool, measure: bool,
                 width: float | None) -> tuple[frozenset[int], float | None, bool]:
        """Analyse the frame (where it changed, a band of it, or whole): the ids found, and
        the frame's sharpness when it had to be measured."""
        box = refresh or self._where(grey)
        started = time.perf_counter()
        found = self._vet(grey, self._detect(grey, box))
        took = time.perf_counter() - started
        self._took = 0.8 * self._took + 0.2 * took if self._took else took
        blurred = width is not None and width > BLURRED_PX
        if measure and width is None and not found:  # sharpness matters only unread
            width = self._width(grey)
            blurred = width > BLURRED_PX
        if (blurred and not found and self._held < SHARP_FRAMES and self._markers
                and self._smeared_there()):
            self._held += 1  # a smeared card where it was read: keep the read (the marker-
            found = self._markers  # shaped smear there counts for it, as a frame showing it)
        else:
            self._held = 0
            self._markers = self._merge(found, box, self.change.region if moving else None)
        self._settle = max(0, self._settle - 1)
        if small is not None:
            self.change.reference = small
        if refresh is None and self._now is not None:
            self._refreshed = self._now
        self._view_changed()
        return frozenset(m.id for m in found), width, blurred

    def _view_changed(self) -> None:
        """Note what the markers in view now give the next steps."""
        self._ids = tuple(m.id for m in self._markers)
        self._counted = frozenset(self._ids)
        self._cards_in_view = any(REGISTRY.get(m) is not None for m in self._ids)
        self._places = {m.id: _place(m) for m in self._markers}

    def _detect(self, grey: Grey, box: Box | None) -> list[Marker]:
        """The detector's markers in ``box`` (None: the whole frame); the markers in view
        were checked when they were first found."""
        return self.detector.detect(grey, box, known=self._markers)

    def _where(self, grey: Grey) -> Box | None:
        """The part of the frame to analyse: where the view changed (and where a marker found
        once lies), widened by a marker's side; None for the whole frame."""
        if not self.skip_still or self._whole or self._focus is None:
            return None
        h, w = grey.shape[:2]
        pad = self._margin()
        x0, y0, x1, y1 = self._focus
        box = (max(0, int(x0 - pad)), max(0, int(y0 - pad)), min(w, int(x1 + pad)),
               min(h, int(y1 + pad)))
        if (box[2] - box[0]) * (box[3] - box[1]) > WHOLE_SHARE * w * h:
            return None
        return box

    def _margin(self) -> float:
        """How far beyond a change to look: the side of the largest marker in view (a marker
        reaching into the change lies wholly in the box), and a change cell or two."""
        largest = max((p[2] for p in self._places.values()), default=0.0)
        return max(2.0 * self.change.cell, largest + self.change.cell)

    def _merge(self, found: Iterable[Marker], box: Box | None, changed: Box | None
               ) -> tuple[Marker, ...]:
        """The markers in view after an analysis of ``box`` (None: the whole frame): those
        found, and those of the view before that were not found again but are still there --
        outside the box, or (cards the tracker counts as shown) where the view did not change
        (``changed``: the box of the cells that changed; the whole frame when a frame is
        analysed without the change check)."""
        found = tuple(found)
        ids = {m.id for m in found}
        kept = []
        for m in self._markers:
            if m.id in ids:
                continue  # found again, maybe elsewhere
            if not self.skip_still or (changed is not None and _meets(m, changed)):
                continue  # the view changed there: only what is found counts
            looked = box is None or _within(m, box)
            if looked and m.id not in self.tracker.shown:
                continue  # looked for again, not found, never confirmed: not a card
            kept.append(m)
        return tuple(sorted((*found, *kept), key=lambda m: (m.id, m.centre)))

    def _confirm(self) -> None:
        """Look again where a marker was found once (until it is found twice in a row, or for
        ``LOOK_FRAMES``): a card's arrival is not left to one analysis."""
        if not self.skip_still:
            return
        doubtful = self.tracker.unconfirmed()
        self._doubtful = bool(doubtful)
        if doubtful and self._look > 0:
            self._look -= 1
            self._settle = max(self._settle, 1)
            for m in self._markers:
                if m.id in doubtful:
                    x0, y0, x1, y1 = _bounds(m)
                    self._focus = _union(self._focus, (int(x0), int(y0), int(x1) + 1,
                                                       int(y1) + 1))
            return
        if doubtful:  # given up: what was found once and never again is not in view
            self._markers = tuple(m for m in self._markers if m.id not in doubtful)
            self._view_changed()
        if self._settle == 0:
            self._focus, self._episode, self._whole = None, False, False

    def _smeared_there(self) -> bool:
        """Whether the detector found an unreadable marker-shaped candidate near where the last
        markers were read (the card smeared, not gone)."""
        for quad in getattr(self.detector, "rejected", ()):
            cx = sum(float(p[0]) for p in quad) / 4
            cy = sum(float(p[1]) for p in quad) / 4
            for m in self._markers:
                x, y = m.centre
                if abs(cx - x) + abs(cy - y) < 1.5 * m.side:
                    return True
        return False

    def _choose_sharpest(self) -> bool:
        """Whether blurred frames are analysed only when sharpest of the last few: when asked
        (``sharpest``), or, by default, when an analysis takes longer than the camera takes
        to give a frame (a Pi on a busy board: frames must be left out, so leave out the
        blurred ones)."""
        if self.sharpest is not None:
            return self.sharpest
        return bool(self._period) and self._took > 0.8 * self._period

    def _width(self, grey: Grey) -> float:
        """How wide the edges are where the view changed (``detect.edge_width``)."""
        from .detect import edge_width

        assert self.change.region is not None
        x0, y0, x1, y1 = self.change.region
        return edge_width(grey[y0:y1, x0:x1])

    def _vet(self, grey: Grey, markers: Iterable[Marker]) -> tuple[Marker, ...]:
        """The markers that look like printed stickers (see the class docstring)."""
        markers = tuple(markers)
        if not self.identity:
            return markers
        from .detect import QUIET_SHARE, quiet_zone

        margin = getattr(self.detector, "margin", quiet_zone)
        return tuple(m for m in markers
                     if m.id in self._counted or margin(grey, m) >= QUIET_SHARE)

    def _advice(self, grey: Grey, reading: Reading, moving: bool, blurred: bool,
                analysed: bool, reading_mode: bool) -> tuple[bool, bool]:
        """Whether to ask now to hold the card still, or to tilt it (each said once until a
        card is read, or the view has settled)."""
        if not reading_mode:
            return False, False
        if reading.card is not None or self._cards_in_view:
            self._blurred = self._glared = 0
            self._said_hold = self._said_glare = False
            return False, False
        if not moving and not analysed:
            self._blurred = 0
            self._said_hold = False
        self._blurred = self._blurred + 1 if blurred else 0
        hold = self._blurred >= HOLD_FRAMES and not self._said_hold
        if hold:
            self._said_hold = True
        if analysed or moving:
            self._glared = self._glared + 1 if self._glinting(grey) else 0
        glare = self._glared >= GLARE_FRAMES and not self._said_glare
        if glare:
            self._said_glare = True
        if analysed and not moving and self._glared == 0:
            self._said_glare = False
        return hold, glare

    def _glinting(self, grey: Grey) -> bool:
        """A reflection on a sticker where the view last changed (``detect.glare``)."""
        from .detect import glare

        if self._region is None:
            return False
        x0, y0, x1, y1 = self._region
        return glare(grey[y0:y1, x0:x1])

    def reset(self) -> None:
        """Forget the view (a new source): the next frames are analysed in full."""
        self.tracker.reset()
        self.change.reference = None
        self._markers = ()
        self._ids = ()
        self._cards_in_view = False
        self._places = {}
        self._settle = 0
        self._look = 0
        self._doubtful = False
        self._focus = None
        self._episode = False
        self._whole = False
        self._refreshed = None
        self._band = -1
        self._widths.clear()
        self._held = 0
        self._blurred = self._glared = 0
        self._said_hold = self._said_glare = False
        self._counted = frozenset()
        self._region = None


MAX_SIDE = 8192


def check_frame(frame: Any) -> None:
    """ValueError unless ``frame`` is a grey image: a 2-D uint8 numpy array, not empty, at most
    ``MAX_SIDE`` pixels a side."""
    import numpy as np

    if not isinstance(frame, np.ndarray):
        raise ValueError(f"bad frame: a {type(frame).__name__}, not an image array")
    shape = frame.shape
    if len(shape) != 2 or frame.dtype.char != "B":
        raise ValueError(f"bad frame: {frame.dtype} of shape {shape}, not grey 8-bit")
    h, w = shape
    if not (8 <= h <= MAX_SIDE and 8 <= w <= MAX_SIDE):
        raise ValueError(f"bad frame: {w}x{h} pixels")


# -- the thread --------------------------------------------------------------------------------


class TableWatch:
    """The markers of the last ``frames`` frames analysed, merged: a marker counts as on the
    table if any of those frames found it (as many times as the frame that found it most), so
    one frame that misses one of two dozen small markers does not make a card "missing".  A
    card taken away changes the view, and the frames analysed after the change soon replace
    the ones that still had it."""

    def __init__(self, frames: int = 5) -> None:
        if frames < 1:
            raise ValueError("frames must be 1 or more")
        self._frames: deque[tuple[Marker, ...]] = deque(maxlen=frames)
        self._plane: TablePlane | None = None

    def add(self, markers: Iterable[Marker]) -> None:
        self._frames.append(tuple(markers))

    def clear(self) -> None:
        """Forget the frames, and the table's map (a new source may be another camera)."""
        self._frames.clear()
        self._plane = None

    def plane(self, markers: tuple[Marker, ...]) -> Plane:
        """The table's map for ``markers`` (``table.TablePlane``: the corners in view, or the
        last map while the camera has not moved)."""
        if self._plane is None:
            from .table import TablePlane

            self._plane = TablePlane()
        return self._plane.update(markers)

    def markers(self) -> tuple[Marker, ...]:
        """Each marker id from the latest frame that found it most often."""
        best: dict[int, tuple[Marker, ...]] = {}
        for frame in self._frames:  # oldest first: a later frame with as many wins
            by_id: dict[int, list[Marker]] = {}
            for m in frame:
                by_id.setdefault(m.id, []).append(m)
            for mid, ms in by_id.items():
                if len(ms) >= len(best.get(mid, ())):
                    best[mid] = tuple(ms)
        return tuple(m for mid in sorted(best) for m in best[mid])


@dataclass
class Status:
    """What the camera thread shares with the kiosk, behind ``lock``: plain data, no drawing.

    Whether a camera is delivering frames (and why not; ``broken`` when the camera library
    itself cannot be loaded, which no retry mends), the last card read, the counts of notices
    due (several cards at once, one id on two stickers, a marker on no card) with what they
    were about, the latest markers and frame, the markers of the last few frames analysed
    merged (``recent``, for the table check) with the table's map for them in table mode
    (``plane``: ``table.TablePlane``) and when the last frame arrived.  ``version``
    grows when anything the kiosk shows changes, ``frames`` with every frame looked at, so the
    kiosk can tell cheaply whether to redraw.  ``view(now)`` gives a consistent snapshot in
    which a camera whose last frame is older than ``stale_after`` seconds is offline (a read
    that never returns) and shows no last card."""

    online: bool = False
    reason: str = ""
    broken: bool = False
    last: MarkerEntry | None = None
    last_again: bool = False
    notices: int = 0
    several: tuple[MarkerEntry, ...] = ()
    duplicate_notices: int = 0
    duplicates: tuple[int, ...] = ()
    stray_notices: int = 0
    strays: tuple[int, ...] = ()
    hold_notices: int = 0
    glare_notices: int = 0
    markers: tuple[Marker, ...] = ()
    recent: tuple[Marker, ...] = ()
    plane: Plane | None = None
    frame: Grey | None = None
    frames: int = 0
    analysed: int = 0
    frame_at: float | None = None
    version: int = 0
    stale_after: float = 3.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def view(self, now: float) -> CameraView:
        """A snapshot at ``now`` (the thread's clock)."""
        with self.lock:
            online, reason, last = self.online, self.reason, self.last
            if online and self.frame_at is not None and now - self.frame_at > self.stale_after:
                online = False
                reason = STALE
            return CameraView(
                online=online, reason=reason, broken=self.broken,
                last=last if online else None, last_again=self.last_again,
                notices=self.notices, several=self.several,
                duplicate_notices=self.duplicate_notices, duplicates=self.duplicates,
                stray_notices=self.stray_notices, strays=self.strays,
                hold_notices=self.hold_notices, glare_notices=self.glare_notices,
                markers=self.markers if online else (),
                recent=self.recent if online else (),
                plane=self.plane if online else None,
                frames=self.frames, version=self.version,
            )


STALE = "stale"
"""``CameraView.reason`` of a camera whose frames stopped coming (a read that never returns)."""


@dataclass(frozen=True, slots=True)
class CameraView:
    """A snapshot of ``Status`` for the kiosk (see ``Status.view``)."""

    online: bool
    reason: str
    broken: bool
    last: MarkerEntry | None
    last_again: bool
    notices: int
    several: tuple[MarkerEntry, ...]
    duplicate_notices: int
    duplicates: tuple[int, ...]
    stray_notices: int
    strays: tuple[int, ...]
    hold_notices: int
    glare_notices: int
    markers: tuple[Marker, ...]
    recent: tuple[Marker, ...]
    plane: Plane | None
    frames: int
    version: int


def _tell(st: Status, reading: Reading) -> None:
    """Note a reading's news in the status (held under its lock)."""
    if reading.card is not None:
        st.last, st.last_again = reading.card, reading.again
        st.version += 1
    if reading.several:
        st.notices += 1
        st.several = reading.several
        st.version += 1
    if reading.duplicates:
        st.duplicate_notices += 1
        st.duplicates = reading.duplicates
        st.version += 1
    if reading.strays:
        st.stray_notices += 1
        st.strays = reading.strays
        st.version += 1
    if reading.hold_still or reading.glare:
        st.hold_notices += reading.hold_still
        st.glare_notices += reading.glare
        st.version += 1


BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0
FAILURES_BEFORE_OFFLINE = 3  # frames in a row a source may fail to give before it is reopened
RECENT_FRAMES = 2  # analysed frames merged for the table check (a lying card an analysis
#                    misses is kept by the pipeline itself)
PACE_SLACK = 0.15  # a pause shorter than this share of a frame is not taken: a camera's read
#                    waits for the next frame anyway (each pause wakes the thread once more)


class CameraThread:
    """Runs the pipeline on a source at up to ``rate`` frames a second, in its own thread.  Each
    reading goes to ``on_reading`` (the device posts a Card from there); the camera's state goes
    to ``status``.  ``cycle`` is one pass of the loop and returns how long to wait before the
    next, so tests step it without a thread and without sleeping.

    Nothing a source does stops the thread: a read that raises, a frame that is None, empty,
    of the wrong type or that makes OpenCV raise counts as a dropped frame (three in a row: the
    source is closed and reopened after a growing pause); a camera library that cannot be
    loaded (``CameraLibraryError``) is reported once and not retried; a read that never returns
    shows as offline through ``Status.view``."""

    def __init__(
        self,
        open_source: Callable[[], Camera],
        pipeline: Pipeline | Callable[[], Pipeline],
        *,
        rate: float = 30.0,
        on_reading: Callable[[Reading], None] = lambda r: None,
        status: Status | None = None,
        keep_frames: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.open_source = open_source
        # A pipeline or what makes it: made by the thread at its first pass, so the detector's
        # OpenCV is imported there, never on the kiosk's main loop.
        self._make_pipeline = None if isinstance(pipeline, Pipeline) else pipeline
        self._pipeline = pipeline if isinstance(pipeline, Pipeline) else None
        self.period = 1.0 / rate
        self.on_reading = on_reading
        self.status = status or Status()
        self.keep_frames = keep_frames
        self.clock = clock
        self.source: Camera | None = None
        self.backoff = BACKOFF_FIRST
        self.failures = 0
        self.watch = TableWatch(RECENT_FRAMES)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def pipeline(self) -> Pipeline:
        """The pipeline, made on first use (in the camera's thread)."""
        if self._pipeline is None:
            assert self._make_pipeline is not None
            self._pipeline = self._make_pipeline()
        return self._pipeline

    def _set(self, **changes: object) -> None:
        with self.status.lock:
            for k, v in changes.items():
                setattr(self.status, k, v)
            self.status.version += 1

    def _offline(self, reason: str, broken: bool = False) -> float:
        if self.source is not None:
            with contextlib.suppress(Exception):  # a failing camera may fail to close too
                self.source.close()
            self.source = None
        if self._pipeline is not None:
            self._pipeline.reset()
        self.watch.clear()
        self._set(online=False, reason=reason, broken=broken, markers=(), recent=(), plane=None,
                  frame=None)
        if broken:
            return BACKOFF_MAX
        wait = self.backoff
        self.backoff = min(self.backoff * 2, BACKOFF_MAX)
        return wait

    def cycle(self) -> float:
        """Open the source if needed, read and process one frame; the seconds to wait."""
        start = self.clock()
        if self.status.broken:
            return BACKOFF_MAX  # said once; a broken install is not mended by trying again
        source = self.source
        if source is None:
            wait = self._open()
            if wait is not None or self.source is None:
                return BACKOFF_MAX if wait is None else wait
            source, start = self.source, self.clock()
        try:
            frame = source.read()
            problem = "no frame from the camera"
            step = None if frame is None else self.pipeline.step(frame, start)
        except Exception as exc:  # noqa: BLE001 - an unplugged camera or a bad frame: anything
            step, problem = None, str(exc) or type(exc).__name__
        if step is None:
            self.failures += 1
            if self.failures >= FAILURES_BEFORE_OFFLINE:
                return self._offline(problem)
            return self.period
        self.failures = 0
        self.backoff = BACKOFF_FIRST  # only a camera that gives frames starts the pauses afresh
        reading = step.reading
        recent: tuple[Marker, ...] | None = None
        plane: Plane | None = None
        if step.analysed:
            self.watch.add(step.markers)
            recent = self.watch.markers()
            if self.pipeline.tracker.table:
                plane = self.watch.plane(recent)
        with self.status.lock:
            st = self.status
            st.frames += 1
            st.analysed += step.analysed
            st.frame_at = self.clock()
            st.markers = step.markers
            if recent is not None:
                st.recent, st.plane = recent, plane
            if self.keep_frames:
                st.frame = frame
            if reading is not NOTHING:  # a still view has nothing to tell
                _tell(st, reading)
            if not st.online:  # frames again after a read that hung
                st.online, st.reason = True, ""
                st.version += 1
        if reading is not NOTHING and reading:
            self.on_reading(reading)
        wait = self.period - (self.clock() - start)
        return wait if wait > PACE_SLACK * self.period else 0.0  # a camera's read waits itself

    def _open(self) -> float | None:
        """Make the pipeline and open the source: None, or the seconds to wait after a
        failure (said in the status)."""
        from .sources import CameraLibraryError

        try:
            pipeline = self.pipeline  # OpenCV, imported here in the camera's thread
        except ImportError as exc:
            return self._offline(f"OpenCV cannot be loaded: {exc}", broken=True)
        try:
            self.source = self.open_source()
        except CameraLibraryError as exc:
            return self._offline(str(exc), broken=True)
        except Exception as exc:  # noqa: BLE001 - any failure means "offline, retry"
            return self._offline(str(exc) or type(exc).__name__)
        del pipeline
        self.failures = 0
        # Not online yet: that is said after a good frame (a reopened camera that gives only
        # bad frames must not flap online and offline), and the open may have taken seconds
        # (autofocus): the time of the last frame is the time it came.
        return None

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                wait = self.cycle()
            except Exception as exc:  # noqa: BLE001 - the thread outlives any fault
                wait = self._offline(f"camera thread: {exc or type(exc).__name__}")
            if wait > 0:
                self._stop.wait(wait)
        if self.source is not None:
            with contextlib.suppress(Exception):  # closing a camera that is gone
                self.source.close()
            self.source = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the loop and close the source, waiting at most ``timeout`` seconds for the
        frame being read (a hung driver is left to the thread, a daemon, which closes the
        source when the read returns)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
