"""From frames to card readings: the pure tracker, one synchronous step, and the thread.

``CardTracker`` is the whole decision, with no clock and no thread: it is fed the marker ids of
each frame and says when a card counts as shown (seen in ``show_frames`` frames in a row), when
it counts as gone (missing ``gone_frames`` frames in a row), and what to report:

* exactly one new card shown, and nothing else on its way in: that card, once;
* several new cards at once (two cards shown together): no card, one "several" notice, and the
  cards wait; when all but one have gone again, the one left is reported;
* a card still in view after it was reported is not reported again until it has gone.

``Pipeline.step(grey)`` runs detect -> registry -> tracker on one frame; tests call it directly.
``CameraThread`` calls it at the configured rate on frames from a source, and reopens a source
that is missing or fails, with a growing pause between tries (it never gives up).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.events import Card

from .markers import REGISTRY, MarkerEntry

if TYPE_CHECKING:
    from .detect import Detector, Grey, Marker
    from .sources import Camera


@dataclass(frozen=True, slots=True)
class Reading:
    """What one frame changed: the card to hand to the engine (at most one), the cards that
    appeared together (a notice is due), and the cards that went out of view."""

    card: MarkerEntry | None = None
    several: tuple[MarkerEntry, ...] = ()
    gone: tuple[MarkerEntry, ...] = ()

    def inputs(self) -> list[Card]:
        """The events for this reading: ``[Card(game, card)]`` or nothing."""
        return [] if self.card is None else [Card(self.card.game, self.card.card)]

    def __bool__(self) -> bool:
        return self.card is not None or bool(self.several) or bool(self.gone)


class CardTracker:
    """Debounce and ambiguity of card readings, frame by frame (see the module docstring).
    Markers that are on no card (or are the table's corner markers) are ignored."""

    def __init__(self, show_frames: int = 3, gone_frames: int = 5) -> None:
        if show_frames < 1 or gone_frames < 1:
            raise ValueError("show_frames and gone_frames must be 1 or more")
        self.show_frames = show_frames
        self.gone_frames = gone_frames
        self._run: dict[int, int] = {}  # frames in a row each marker has been seen
        self._missing: dict[int, int] = {}  # frames in a row a shown marker has been missed
        self.shown: set[int] = set()  # markers that count as shown
        self._handled: set[int] = set()  # shown markers already reported (or reported as one)
        self._noticed: frozenset[int] = frozenset()  # the last "several" set reported

    def step(self, seen: Iterable[int]) -> Reading:
        """Feed the marker ids of one frame."""
        ids = {m for m in seen if m in REGISTRY and REGISTRY[m].game != "table"}
        for m in ids:
            self._run[m] = self._run.get(m, 0) + 1
            self._missing.pop(m, None)
        for m in [m for m in self._run if m not in ids]:
            del self._run[m]
        gone: list[MarkerEntry] = []
        for m in sorted(self.shown - ids):
            self._missing[m] = self._missing.get(m, 0) + 1
            if self._missing[m] >= self.gone_frames:
                self.shown.discard(m)
                self._handled.discard(m)
                del self._missing[m]
                gone.append(REGISTRY[m])
        for m, run in self._run.items():
            if run >= self.show_frames:
                self.shown.add(m)
        new = self.shown - self._handled
        pending = [m for m in self._run if m not in self.shown]
        card: MarkerEntry | None = None
        several: tuple[MarkerEntry, ...] = ()
        if len(new) == 1 and not pending:
            (m,) = new
            self._handled.add(m)
            self._noticed = frozenset()
            card = REGISTRY[m]
        elif len(new) > 1 and frozenset(new) != self._noticed:
            self._noticed = frozenset(new)
            several = tuple(REGISTRY[m] for m in sorted(new))
        if len(new) <= 1:
            self._noticed = frozenset()
        return Reading(card, several, tuple(gone))

    def reset(self) -> None:
        """Forget everything (the camera came back after a break)."""
        self._run.clear()
        self._missing.clear()
        self.shown.clear()
        self._handled.clear()
        self._noticed = frozenset()


@dataclass(frozen=True, slots=True)
class Step:
    """One frame through the pipeline: every marker found, and the tracker's reading."""

    markers: tuple[Marker, ...]
    reading: Reading


class Pipeline:
    """grey frame -> markers -> card readings.  Synchronous: ``step`` is all there is."""

    def __init__(self, detector: Detector | None = None,
                 tracker: CardTracker | None = None) -> None:
        if detector is None:
            from .detect import Detector

            detector = Detector()
        self.detector = detector
        self.tracker = tracker or CardTracker()

    def step(self, grey: Grey) -> Step:
        markers = self.detector.detect(grey)
        return Step(tuple(markers), self.tracker.step(m.id for m in markers))


# -- the thread --------------------------------------------------------------------------------


@dataclass
class Status:
    """What the camera thread shares with the kiosk, behind ``lock``: whether a camera is
    delivering frames (and why not), the last card read, how many "several cards" notices are
    due, and the latest markers and frame for the table check and the live view.  ``version``
    grows when anything the status chip shows changes, ``frames`` with every frame analysed,
    so the kiosk can tell cheaply whether to redraw."""

    online: bool = False
    reason: str = ""
    last: MarkerEntry | None = None
    notices: int = 0
    markers: tuple[Marker, ...] = ()
    frame: Grey | None = None
    frames: int = 0
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0
FAILURES_BEFORE_OFFLINE = 3  # frames in a row a source may fail to give before it is reopened


class CameraThread:
    """Runs the pipeline on a source at ``rate`` frames a second, in its own thread.  Each
    reading goes to ``on_reading`` (the device posts a Card from there); the camera's state goes
    to ``status``.  ``cycle`` is one pass of the loop and returns how long to wait before the
    next, so tests step it without a thread and without sleeping."""

    def __init__(
        self,
        open_source: Callable[[], Camera],
        pipeline: Pipeline,
        *,
        rate: float = 10.0,
        on_reading: Callable[[Reading], None] = lambda r: None,
        status: Status | None = None,
        keep_frames: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.open_source = open_source
        self.pipeline = pipeline
        self.period = 1.0 / rate
        self.on_reading = on_reading
        self.status = status or Status()
        self.keep_frames = keep_frames
        self.clock = clock
        self.source: Camera | None = None
        self.backoff = BACKOFF_FIRST
        self.failures = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _set(self, **changes: object) -> None:
        with self.status.lock:
            for k, v in changes.items():
                setattr(self.status, k, v)
            self.status.version += 1

    def _offline(self, reason: str) -> float:
        if self.source is not None:
            with contextlib.suppress(Exception):  # a failing camera may fail to close too
                self.source.close()
            self.source = None
        self.pipeline.tracker.reset()
        self._set(online=False, reason=reason, markers=(), frame=None)
        wait = self.backoff
        self.backoff = min(self.backoff * 2, BACKOFF_MAX)
        return wait

    def cycle(self) -> float:
        """Open the source if needed, read and process one frame; the seconds to wait."""
        start = self.clock()
        if self.source is None:
            try:
                self.source = self.open_source()
            except Exception as exc:  # noqa: BLE001 - any failure means "offline, retry"
                return self._offline(str(exc) or type(exc).__name__)
            self.failures = 0
            self._set(online=True, reason="")
        try:
            frame = self.source.read()
            problem = "no frame from the camera"
        except Exception as exc:  # noqa: BLE001 - an unplugged camera raises anything
            frame, problem = None, str(exc) or type(exc).__name__
        if frame is None:
            self.failures += 1
            if self.failures >= FAILURES_BEFORE_OFFLINE:
                return self._offline(problem)
            return self.period
        self.failures = 0
        self.backoff = BACKOFF_FIRST  # only a camera that gives frames starts the pauses afresh
        step = self.pipeline.step(frame)
        reading = step.reading
        with self.status.lock:
            self.status.frames += 1
            self.status.markers = step.markers
            if self.keep_frames:
                self.status.frame = frame
            if reading.card is not None:
                self.status.last = reading.card
                self.status.version += 1
            if reading.several:
                self.status.notices += 1
                self.status.version += 1
        if reading:
            self.on_reading(reading)
        return max(0.0, self.period - (self.clock() - start))

    def run(self) -> None:
        while not self._stop.is_set():
            wait = self.cycle()
            if wait > 0:
                self._stop.wait(wait)
        if self.source is not None:
            try:
                self.source.close()
            finally:
                self.source = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the loop and close the source (waits for the frame being read)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
