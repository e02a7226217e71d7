"""The camera as a device of the kiosk, with nothing of the kiosk in it.

Its thread (``pipeline.CameraThread``) reads frames and posts a ``Card`` event for each card it
reads (``companion.events.post``: the kiosk's main loop hands it to the game screen, which asks
the engine what it stands for).  On the main thread, ``update`` turns the thread's news into
notices (several cards shown together, the camera lost or found again), and ``state`` gives
what the kiosk's status chip and live view show, as plain data.  A camera that is missing or
fails is retried by the thread with a growing pause; the kiosk carries on with touch entry.

``open_camera(config_path)`` reads ``[camera]`` from the config file; it imports OpenCV only
when a camera is configured, so the kiosk runs without the ``vision`` extra.

Notice codes (the kiosk words them):

======================  =================================================
code                    fields
======================  =================================================
``camera.several``      several cards in view at once: show one at a time
``camera.duplicate``    ``markers``: one id on two stickers in view ("#12, #40")
``camera.stray``        ``markers``: markers on no card in view; ``corners``: True
                        when they are the table's corner markers (reading mode)
``camera.hold-still``   reading mode: a card moved too fast to read
``camera.glare``        reading mode: a lamp is reflected in a sticker
``camera.offline``      ``reason``: the camera is lost; it is tried again
``camera.stale``        ``seconds``: no frame for that long (a read that hangs)
``camera.broken``       ``reason``: the camera library cannot be loaded (what and
                        the fix); not tried again
``camera.online``       the camera is back
``camera.settings``     ``error``: the ``[camera]`` settings are wrong
``camera.none``         no camera configured: cards are tapped in
``camera.no-opencv``    a camera is configured but OpenCV is not installed
======================  =================================================
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Collection
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import events
from companion.events import CameraState, Card, MarkerOutline, Notice, TableView

from .markers import CORNER_MARKERS
from .pipeline import STALE, CameraThread, CameraView, CardTracker, Pipeline, Reading, Status

if TYPE_CHECKING:
    from .detect import Marker
    from .sources import Camera, CameraConfig

LIVE_WIDTH = 320
"""The live view's picture is at most this wide (the kiosk scales it to its box)."""


class CameraDevice:
    """The camera: its thread, and what the kiosk shows of it."""

    def __init__(
        self,
        config: CameraConfig,
        *,
        open_source: Callable[[], Camera] | None = None,
        post: Callable[[Card], object] = events.post,
        start: bool = True,
    ) -> None:
        from . import sources

        self.config = config
        self.live_view = config.live_view
        self._post = post
        self.status = Status(stale_after=config.stale_seconds)
        tracker = CardTracker(config.show_frames, config.gone_frames,
                              gone_seconds=config.gone_seconds, table=config.mode == "table")
        self.thread = CameraThread(
            open_source or (lambda: sources.open_source(config)),
            partial(_pipeline, tracker),  # made in the camera's thread: OpenCV is imported there
            rate=config.rate,
            on_reading=self._reading,
            status=self.status,
            keep_frames=config.live_view,
        )
        self._version = -1
        self._notices = 0
        self._duplicates = 0
        self._strays = 0
        self._holds = 0
        self._glares = 0
        self._online: bool | None = None
        self._frames = -1
        self._refused: tuple[object, str] | None = None
        self._live: tuple[int, tuple[int, int, bytes] | None, tuple[MarkerOutline, ...]] = (
            -1, None, ())
        if start:
            self.thread.start()

    # -- the camera's thread -------------------------------------------------------------
    def _reading(self, reading: Reading) -> None:
        for card in reading.inputs():
            self._post(card)  # False when the kiosk is closing: nobody to tell

    # -- the main loop -------------------------------------------------------------------
    def view(self) -> CameraView:
        """The thread's status now (offline when frames stopped coming)."""
        return self.status.view(self.thread.clock())

    def update(self, view: TableView, now: float) -> list[Notice]:
        """Notices for the thread's news since the last call."""
        cam = self.view()
        news: list[Notice] = []
        if cam.version == 0:  # the thread has not reported yet
            return news
        if cam.notices != self._notices:
            self._notices = cam.notices
            news.append(Notice("camera.several"))
        if cam.duplicate_notices != self._duplicates:
            self._duplicates = cam.duplicate_notices
            news.append(Notice("camera.duplicate", {"markers": ids(cam.duplicates)}))
        if cam.stray_notices != self._strays:
            self._strays = cam.stray_notices
            corners = all(m in CORNER_MARKERS for m in cam.strays)
            news.append(Notice("camera.stray", {"markers": ids(cam.strays), "corners": corners}))
        if cam.hold_notices != self._holds:
            self._holds = cam.hold_notices
            news.append(Notice("camera.hold-still"))
        if cam.glare_notices != self._glares:
            self._glares = cam.glare_notices
            news.append(Notice("camera.glare"))
        if cam.online != self._online:
            if cam.broken:
                news.append(Notice("camera.broken", {"reason": cam.reason}))
            elif not cam.online and cam.reason == STALE:
                news.append(Notice("camera.stale", {"seconds": self.status.stale_after}))
            elif not cam.online:
                news.append(Notice("camera.offline", {"reason": cam.reason}))
            elif self._online is False:
                news.append(Notice("camera.online", good=True))
            self._online = cam.online
        self._version = cam.version
        return news

    def notify(self, event: str, detail: str = "") -> None:
        """``card-refused``: the kiosk refused the last card read, for ``detail``; the chip
        says so until another card is read."""
        if event == "card-refused":
            with self.status.lock:
                last = self.status.last
            self._refused = (last, detail)

    def close(self) -> None:
        """Stop the camera's thread; the screen waits CLOSE_WAIT at most (a hung driver's read
        is left to the thread, which closes the camera when it returns)."""
        self.thread.stop(CLOSE_WAIT)

    def markers(self) -> tuple[Marker, ...]:
        """The markers of the last few frames analysed, merged (for the table check: a marker
        missed in one frame is not missing)."""
        return self.view().recent

    @property
    def online(self) -> bool:
        return self.view().online

    def state(self) -> CameraState:
        """What the status chip and the live view show now."""
        cam = self.view()
        online, last, markers, frames = cam.online, cam.last, cam.markers, cam.frames
        with self.status.lock:
            frame = self.status.frame if online else None
        refused = None
        if self._refused is not None and self._refused[0] is last:
            refused = self._refused[1]
        picture: tuple[int, int, bytes] | None = None
        outlines: tuple[MarkerOutline, ...] = ()
        if self.live_view:
            if frames != self._live[0]:
                self._live = (frames, *live_picture(frame, markers))
            picture, outlines = self._live[1], self._live[2]
        card = None if last is None or last.game == "table" else last
        return CameraState(
            online=online,
            last_game=None if card is None else card.game,
            last_card=None if card is None else card.card,
            refused=refused,
            live_view=self.live_view,
            frame=picture,
            markers=outlines,
            frames=frames,
        )

    def check_table(self, spec: Any, state: Any, zones: Any = None, *,
                    asked: Collection[str] = ()) -> Any:
        """The table mode's comparison of the latest frame with the engine's ``state`` for
        the game ``spec`` (see :func:`companion.vision.table.check`); ``asked``: the cards the
        table has said are not there (reported missing, not merely unseen)."""
        from .table import check

        cam = self.view()
        return check(spec, state, cam.recent,
                     zones if zones is not None else getattr(self.config, "zones", None),
                     asked=asked, plane=cam.plane)


CLOSE_WAIT = 0.1
"""Seconds ``close`` waits for the camera's thread to end."""


def _pipeline(tracker: CardTracker) -> Pipeline:
    """The pipeline with its ArUco detector (this imports OpenCV)."""
    from .detect import Detector

    return Pipeline(Detector(), tracker)


def ids(markers: tuple[int, ...]) -> str:
    """Marker ids as the stickers print them: ``#12, #40``."""
    return ", ".join(f"#{m}" for m in markers)


def live_picture(
    frame: Any, markers: tuple[Marker, ...]
) -> tuple[tuple[int, int, bytes] | None, tuple[MarkerOutline, ...]]:
    """A grey frame scaled to at most :data:`LIVE_WIDTH` pixels wide, as ``(width, height,
    grey bytes)``, and its markers' outlines at that scale: on a card, a table corner, or
    unknown."""
    if frame is None or getattr(frame, "ndim", 0) != 2 or 0 in frame.shape:
        return None, ()
    import cv2
    import numpy as np

    from .markers import REGISTRY

    h, w = frame.shape[:2]
    scale = min(1.0, LIVE_WIDTH / w)
    tw, th = max(1, round(w * scale)), max(1, round(h * scale))
    small = frame if scale == 1.0 else cv2.resize(frame, (tw, th), interpolation=cv2.INTER_AREA)
    outlines = []
    for mk in markers:
        e = REGISTRY.get(mk.id)
        what = "unknown" if e is None else "corner" if e.game == "table" else "card"
        outlines.append(
            MarkerOutline(tuple((float(x) * scale, float(y) * scale) for x, y in mk.corners), what)
        )
    return (tw, th, np.ascontiguousarray(small, dtype=np.uint8).tobytes()), tuple(outlines)


def open_camera(config_path: Path) -> tuple[CameraDevice | None, list[Notice]]:
    """The camera the config's ``[camera]`` table names, its thread started, and the notices
    for the table; no device (and one notice) when no camera is configured, the settings are
    wrong or OpenCV is missing.  A configured camera that is absent still gives a device: it
    shows offline and keeps trying."""
    from .sources import CameraConfigError, load_config

    try:
        config = load_config(config_path)
    except CameraConfigError as exc:
        return None, [Notice("camera.settings", {"error": str(exc)})]
    if config.source == "none":
        return None, [Notice("camera.none", good=True)]
    # Found, not imported: importing OpenCV takes up to a second on a Pi, which the camera's
    # thread spends, not the kiosk's start.
    if importlib.util.find_spec("cv2") is None:
        return None, [Notice("camera.no-opencv")]
    return CameraDevice(config), []
