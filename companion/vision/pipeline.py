"""From frames to card readings: the pure tracker, one synchronous step, and the thread.

``CardTracker`` is the whole decision, with no clock and no thread: it is fed the marker ids of
each frame (and the frame's time) and says when a card counts as shown (seen in ``show_frames``
frames in a row), when it counts as gone (missing ``gone_frames`` frames in a row and
``gone_seconds``), and what to report:

* exactly one new card shown, and nothing else on its way in: that card, once;
* several new cards at once (two cards shown together): no card, one "several" notice, and the
  cards wait; when all but one have gone again, the one left is reported;
* a card still in view after it was reported is not reported again until it has gone; the
  last card reported, shown again, is reported with ``again`` (the kiosk stays silent if the
  engine refuses it);
* one id on two stickers, a marker on no card, the table's corners in reading mode: said once.

``Pipeline.step(grey, now)`` runs change check -> detect -> registry -> tracker on one frame;
tests call it directly.  ``CameraThread`` calls it at the configured rate on frames from a
source, and reopens a source that is missing or fails, with a growing pause between tries (it
gives up only on a camera library that cannot be loaded, which no retry mends).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.events import Card

from .markers import REGISTRY, MarkerEntry

if TYPE_CHECKING:
    from .detect import Detector, Grey, Marker
    from .sources import Camera


@dataclass(frozen=True, slots=True)
class Reading:
    """What one frame changed: the card to hand to the engine (at most one; ``again`` when it is
    the card reported last, read again after it left the view: the kiosk says nothing if the
    engine refuses it), the cards that appeared together (a notice is due), the cards that went
    out of view, marker ids seen twice at once (``duplicates``: two stickers with one id, a
    notice; the card waits until one of them is gone, as with two cards), and markers that
    are on no card or are the table's corners in reading mode (``strays``: said once while
    they stay in view)."""

    card: MarkerEntry | None = None
    several: tuple[MarkerEntry, ...] = ()
    gone: tuple[MarkerEntry, ...] = ()
    again: bool = False
    duplicates: tuple[int, ...] = ()
    strays: tuple[int, ...] = ()

    def inputs(self) -> list[Card]:
        """The events for this reading: ``[Card(game, card, again)]`` or nothing."""
        return [] if self.card is None else [Card(self.card.game, self.card.card, self.again)]

    def __bool__(self) -> bool:
        return (self.card is not None or bool(self.several) or bool(self.gone)
                or bool(self.duplicates) or bool(self.strays))


class CardTracker:
    """Debounce and ambiguity of card readings, frame by frame (see the module docstring).

    A card counts as shown after ``show_frames`` frames in a row, and as gone once it has been
    missing for ``gone_frames`` frames in a row *and* ``gone_seconds`` (when the frames carry a
    time): a card lying near the edge of the view, found in one frame and missed in the next,
    is not gone and read again every few seconds.  Markers on no card, and the table's corner
    markers unless ``table`` (the overhead camera expects them), are reported once as
    ``strays`` while they stay in view, never as cards."""

    def __init__(self, show_frames: int = 3, gone_frames: int = 2, *,
                 gone_seconds: float = 0.0, table: bool = False) -> None:
        if show_frames < 1 or gone_frames < 1:
            raise ValueError("show_frames and gone_frames must be 1 or more")
        if not 0.0 <= gone_seconds <= 600.0:
            raise ValueError("gone_seconds must be between 0 and 600")
        self.show_frames = show_frames
        self.gone_frames = gone_frames
        self.gone_seconds = gone_seconds
        self.table = table
        self._run: dict[int, int] = {}  # frames in a row each marker has been seen
        self._missing: dict[int, tuple[int, float | None]] = {}  # frames missed, since when
        self.shown: set[int] = set()  # markers that count as shown
        self._handled: set[int] = set()  # shown markers already reported (or reported as one)
        self._noticed: frozenset[int] = frozenset()  # the last "several" set reported
        self._doubled: frozenset[int] = frozenset()  # the last duplicates reported
        self._strays: dict[int, tuple[int, float | None]] = {}  # strays said, and when missed
        self.last: int | None = None  # the marker of the card reported last

    def _is_card(self, m: int) -> bool:
        e = REGISTRY.get(m)
        return e is not None and e.game != "table"

    def _gone(self, missed: tuple[int, float | None], now: float | None) -> bool:
        frames, since = missed
        if frames < self.gone_frames:
            return False
        return now is None or since is None or now - since >= self.gone_seconds

    def step(self, seen: Iterable[int], now: float | None = None) -> Reading:
        """Feed the marker ids of one frame (an id twice when two stickers carry it), and the
        frame's time in seconds (any clock) for ``gone_seconds``."""
        counts = Counter(seen)
        ids = {m for m in counts if self._is_card(m)}
        for m in ids:
            self._run[m] = self._run.get(m, 0) + 1
            self._missing.pop(m, None)
        for m in [m for m in self._run if m not in ids]:
            del self._run[m]
        gone: list[MarkerEntry] = []
        for m in sorted(self.shown - ids):
            frames, since = self._missing.get(m, (0, now))
            self._missing[m] = (frames + 1, since)
            if self._gone(self._missing[m], now):
                self.shown.discard(m)
                self._handled.discard(m)
                del self._missing[m]
                gone.append(REGISTRY[m])
        doubled = frozenset(m for m, n in counts.items() if n > 1)
        for m in doubled & ids:  # two stickers: shown only after frames with one of them
            self._run[m] = 0
            if m not in self._handled:
                self.shown.discard(m)
        for m, run in self._run.items():
            if run >= self.show_frames:
                self.shown.add(m)
        new = self.shown - self._handled
        pending = [m for m in self._run if m not in self.shown]
        card: MarkerEntry | None = None
        again = False
        several: tuple[MarkerEntry, ...] = ()
        if len(new) == 1 and not pending:
            (m,) = new
            self._handled.add(m)
            self._noticed = frozenset()
            card = REGISTRY[m]
            again = m == self.last
            self.last = m
        elif len(new) > 1 and frozenset(new) != self._noticed:
            self._noticed = frozenset(new)
            several = tuple(REGISTRY[m] for m in sorted(new))
        if len(new) <= 1:
            self._noticed = frozenset()
        duplicates = tuple(sorted(doubled - self._doubled))
        self._doubled = doubled
        return Reading(card, several, tuple(gone), again, duplicates, self._stray(counts, now))

    def _stray(self, counts: Counter[int], now: float | None) -> tuple[int, ...]:
        """Markers on no card (and corners in reading mode) newly in view; one that has been out
        of view as long as a card takes to be gone may be said again."""
        strays = {m for m in counts if m not in REGISTRY
                  or (REGISTRY[m].game == "table" and not self.table)}
        for m in [m for m in self._strays if m not in strays]:
            frames, since = self._strays[m]
            self._strays[m] = (frames + 1, now if since is None else since)
            if self._gone(self._strays[m], now):
                del self._strays[m]
        new = tuple(sorted(m for m in strays if m not in self._strays))
        for m in strays:
            self._strays[m] = (0, None)
        return new

    def reset(self) -> None:
        """Forget what is in view (the camera came back after a break); the last card read is
        kept, so reading it again stays silent."""
        self._run.clear()
        self._missing.clear()
        self.shown.clear()
        self._handled.clear()
        self._noticed = frozenset()
        self._doubled = frozenset()
        self._strays.clear()


class ChangeCheck:
    """Whether a frame differs from the one last analysed in full: both shrunk to cells of
    ``cell`` pixels (an average, so sensor noise cancels) and compared cell by cell.  A card
    coming in, a hand or a change of light moves some cell by more than ``threshold`` grey
    levels; a still table does not.  Costs about 1 % of a full analysis."""

    def __init__(self, cell: int = 10, threshold: float = 10.0) -> None:
        self.cell = cell
        self.threshold = threshold
        self.reference: Any = None

    def small(self, grey: Grey) -> Any:
        import cv2

        h, w = grey.shape[:2]
        size = (max(1, w // self.cell), max(1, h // self.cell))
        return cv2.resize(grey, size, interpolation=cv2.INTER_AREA)

    def changed(self, small: Any) -> bool:
        import cv2

        ref = self.reference
        if ref is None or ref.shape != small.shape:
            return True
        return float(cv2.absdiff(ref, small).max()) > self.threshold


@dataclass(frozen=True, slots=True)
class Step:
    """One frame through the pipeline: every marker found (in the last frame analysed, when
    this one was not), whether it was analysed in full, and the tracker's reading."""

    markers: tuple[Marker, ...]
    reading: Reading
    analysed: bool = True


SETTLE_FRAMES = 4  # frames analysed in full after a change, before still frames are skipped
REFRESH_SECONDS = 5.0  # a still view is analysed in full again this often


class Pipeline:
    """grey frame -> (changed?) -> markers -> card readings.  Synchronous: ``step`` is all
    there is.  With ``skip_still`` (the camera thread's default) a frame like the last one
    analysed is not analysed again: its markers are the last ones found, until the view
    changes, ``SETTLE_FRAMES`` after a change, or every ``REFRESH_SECONDS``."""

    def __init__(self, detector: Detector | None = None,
                 tracker: CardTracker | None = None, *, skip_still: bool = True) -> None:
        if detector is None:
            from .detect import Detector

            detector = Detector()
        self.detector = detector
        self.tracker = tracker or CardTracker()
        self.skip_still = skip_still
        self.change = ChangeCheck()
        self._markers: tuple[Marker, ...] = ()
        self._settle = 0
        self._analysed_at: float | None = None

    def step(self, grey: Grey, now: float | None = None) -> Step:
        """One frame, taken at ``now`` seconds (any clock; None: frames only).  ValueError for a
        frame that is not a grey image; OpenCV's own errors pass through."""
        check_frame(grey)
        analyse = True
        small = None
        if self.skip_still:
            small = self.change.small(grey)
            stale = (now is not None and self._analysed_at is not None
                     and now - self._analysed_at >= REFRESH_SECONDS)
            if self.change.changed(small):
                self._settle = SETTLE_FRAMES
            analyse = self._settle > 0 or stale
        if analyse:
            self._markers = tuple(self.detector.detect(grey))
            self._settle = max(0, self._settle - 1)
            self._analysed_at = now
            if small is not None:
                self.change.reference = small
        return Step(self._markers, self.tracker.step((m.id for m in self._markers), now),
                    analyse)

    def reset(self) -> None:
        """Forget the view (a new source): the next frames are analysed in full."""
        self.tracker.reset()
        self.change.reference = None
        self._markers = ()
        self._settle = 0
        self._analysed_at = None


MAX_SIDE = 8192


def check_frame(frame: Any) -> None:
    """ValueError unless ``frame`` is a grey image: a 2-D uint8 numpy array, not empty, at most
    ``MAX_SIDE`` pixels a side."""
    import numpy as np

    if not isinstance(frame, np.ndarray):
        raise ValueError(f"bad frame: a {type(frame).__name__}, not an image array")
    if frame.ndim != 2 or frame.dtype != np.uint8:
        raise ValueError(f"bad frame: {frame.dtype} of shape {frame.shape}, not grey 8-bit")
    h, w = frame.shape
    if h < 8 or w < 8 or h > MAX_SIDE or w > MAX_SIDE:
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

    def add(self, markers: Iterable[Marker]) -> None:
        self._frames.append(tuple(markers))

    def clear(self) -> None:
        self._frames.clear()

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
    merged (``recent``, for the table check) and when the last frame arrived.  ``version``
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
    markers: tuple[Marker, ...] = ()
    recent: tuple[Marker, ...] = ()
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
                markers=self.markers if online else (),
                recent=self.recent if online else (),
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
    markers: tuple[Marker, ...]
    recent: tuple[Marker, ...]
    frames: int
    version: int


BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0
FAILURES_BEFORE_OFFLINE = 3  # frames in a row a source may fail to give before it is reopened
RECENT_FRAMES = 5  # analysed frames merged for the table check


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
        self._set(online=False, reason=reason, broken=broken, markers=(), recent=(), frame=None)
        if broken:
            return BACKOFF_MAX
        wait = self.backoff
        self.backoff = min(self.backoff * 2, BACKOFF_MAX)
        return wait

    def cycle(self) -> float:
        """Open the source if needed, read and process one frame; the seconds to wait."""
        from .sources import CameraLibraryError

        start = self.clock()
        if self.status.broken:
            return BACKOFF_MAX  # said once; a broken install is not mended by trying again
        if self.source is None:
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
            # Not online yet: that is said after a good frame (a reopened camera that gives
            # only bad frames must not flap online and offline), and the open may have taken
            # seconds (autofocus): the time of the last frame is the time it came.
            start = self.clock()
        try:
            frame = self.source.read()
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
        if step.analysed:
            self.watch.add(step.markers)
        with self.status.lock:
            st = self.status
            st.frames += 1
            st.analysed += step.analysed
            st.frame_at = self.clock()
            st.markers = step.markers
            if step.analysed:
                st.recent = self.watch.markers()
            if self.keep_frames:
                st.frame = frame
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
            if not st.online:  # frames again after a read that hung
                st.online, st.reason = True, ""
                st.version += 1
        if reading:
            self.on_reading(reading)
        return max(0.0, self.period - (self.clock() - start))

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
