"""The camera as one of the kiosk's devices.

Its thread (``pipeline.CameraThread``) reads frames and posts a ``Card`` input for each card it
reads (``inputs.post``: the main loop hands it to the game screen, which matches it against the
engine).  On the main thread, ``update`` turns the thread's news into toasts (several cards
shown together, the camera lost or found again) and ``draw`` shows a small status chip at the
bottom left of the title bar, and the live view when it is on.  A camera that is missing or
fails is retried by the thread with a growing pause; the kiosk carries on with touch entry.

``open_camera(app)`` reads ``[camera]`` from the kiosk's config file; it imports OpenCV only
when a camera is configured, so the kiosk runs without the ``vision`` extra.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from companion.kiosk import theme
from companion.kiosk.i18n import _, short_card_name
from companion.kiosk.theme import Metrics
from companion.kiosk.ui import draw_text, panel

from .pipeline import CameraThread, CardTracker, Pipeline, Reading, Status

if TYPE_CHECKING:
    from companion.kiosk.app import App
    from companion.kiosk.inputs import Input

    from .detect import Marker
    from .sources import Camera, CameraConfig


class CameraDevice:
    """The camera: its thread, and what the kiosk shows of it."""

    def __init__(
        self,
        config: CameraConfig,
        *,
        open_source: Callable[[], Camera] | None = None,
        post: Callable[[Input], None] | None = None,
        start: bool = True,
    ) -> None:
        from . import sources
        from .detect import Detector

        self.config = config
        self.live_view = config.live_view
        if post is None:
            from companion.kiosk.inputs import post as post_input

            post = post_input
        self._post = post
        self.status = Status()
        tracker = CardTracker(config.show_frames, config.gone_frames)
        self.thread = CameraThread(
            open_source or (lambda: sources.open_source(config)),
            Pipeline(Detector(), tracker),
            rate=config.rate,
            on_reading=self._reading,
            status=self.status,
            keep_frames=config.live_view,
        )
        self._version = -1
        self._notices = 0
        self._online: bool | None = None
        self._frames = -1
        self._thumb: pygame.Surface | None = None
        if start:
            self.thread.start()

    # -- the camera's thread -------------------------------------------------------------
    def _reading(self, reading: Reading) -> None:
        for card in reading.inputs():
            with contextlib.suppress(pygame.error):  # the kiosk is closing: nobody to tell
                self._post(card)

    # -- the main loop -------------------------------------------------------------------
    def update(self, app: App) -> None:
        """Toasts for the thread's news; a redraw when the chip or the live view changed."""
        with self.status.lock:
            version, notices = self.status.version, self.status.notices
            online, frames = self.status.online, self.status.frames
        if self.live_view and frames != self._frames:
            self._frames = frames
            self._thumb = None
            app.dirty = True
        if version == self._version or version == 0:  # 0: the thread has not reported yet
            return
        self._version = version
        if notices != self._notices:
            self._notices = notices
            app.toast(_("Several cards seen: show one at a time"), now=True)
        if online != self._online:
            if not online:
                app.toast(_("Camera offline: tap the cards in; it is tried again"), now=True)
            elif self._online is False:
                app.toast(_("Camera online again"), good=True, now=True)
            self._online = online
        app.dirty = True

    def notify(self, event: str, detail: str = "") -> None:
        """Nothing to signal on the camera: a refused card is shown by the kiosk."""

    def close(self) -> None:
        self.thread.stop()

    def markers(self) -> tuple[Marker, ...]:
        """The markers in the latest frame (for the table check)."""
        with self.status.lock:
            return self.status.markers

    @property
    def online(self) -> bool:
        with self.status.lock:
            return self.status.online

    # -- drawing -------------------------------------------------------------------------
    def chip_text(self) -> str:
        with self.status.lock:
            online, last = self.status.online, self.status.last
        if not online:
            return _("Camera offline")
        if last is None or last.game == "table":
            return _("Camera on")
        name = short_card_name(last.game, last.card)
        for bracket in (" (", "（", "("):  # the name without its details, as on the card
            name = name.split(bracket)[0]
        return _("Camera read {card}", card=name)

    def chip_rect(self, m: Metrics, text: str = "") -> pygame.Rect:
        """The chip's place: the bottom left of the title bar, in its lower margin, as wide as
        its text (at most 150 units)."""
        from companion.kiosk.fonts import font

        bar_h = m.touch + 2 * m.gap
        h = m.px(15)
        width = font(m.px(11)).size(text)[0] + h + m.px(8) if text else m.px(150)
        return pygame.Rect(m.px(2), bar_h - h - m.px(1), min(m.px(150), width), h)

    def draw(self, surface: pygame.Surface, metrics: Metrics) -> None:
        """The status chip and, when it is on, the live view under the title bar."""
        m = metrics
        label = self.chip_text()
        rect = self.chip_rect(m, label)
        online = self.online
        panel(surface, rect, theme.OUTLINE, radius=rect.height // 2)
        dot = rect.height // 2 - m.px(3)
        pygame.draw.circle(surface, theme.GOOD if online else theme.BAD,
                           (rect.x + rect.height // 2, rect.centery), max(2, dot))
        text = rect.inflate(-rect.height - m.px(4), 0).move(rect.height // 2, 0)
        draw_text(surface, label, text, m.px(11), theme.TEXT if online else
                  theme.MUTED, align="left", lines=1, min_size=m.px(8))
        if self.live_view:
            self._draw_live(surface, pygame.Rect(rect.x, rect.bottom + m.px(4), m.px(160),
                                                 m.px(90)))

    def _draw_live(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        with self.status.lock:
            frame, markers = self.status.frame, self.status.markers
        panel(surface, rect.inflate(4, 4), theme.OUTLINE, radius=4)
        if frame is None:
            draw_text(surface, _("No picture"), rect, rect.height // 5, theme.MUTED)
            return
        if self._thumb is None or self._thumb.get_size() != rect.size:
            self._thumb = thumbnail(frame, markers, rect.size)
        surface.blit(self._thumb, rect.topleft)


def thumbnail(frame: Any, markers: tuple[Marker, ...], size: tuple[int, int]) -> pygame.Surface:
    """A small picture of a grey frame with the markers outlined: cards in green, the table's
    corner markers in amber, markers on no card in red."""
    import cv2
    import numpy as np

    from .markers import REGISTRY

    h, w = frame.shape[:2]
    scale = min(size[0] / w, size[1] / h)
    tw, th = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(frame, (tw, th), interpolation=cv2.INTER_AREA)
    rgb = np.ascontiguousarray(cv2.cvtColor(small, cv2.COLOR_GRAY2RGB))
    for mk in markers:
        e = REGISTRY.get(mk.id)
        colour = theme.BAD if e is None else theme.ACCENT if e.game == "table" else theme.GOOD
        pts = np.array([[x * scale, y * scale] for x, y in mk.corners], np.int32)
        cv2.polylines(rgb, [pts.reshape(-1, 1, 2)], True, colour, 2)
    surf = pygame.image.frombuffer(rgb.tobytes(), (tw, th), "RGB").copy()
    if (tw, th) == size:
        return surf
    out = pygame.Surface(size)
    out.fill(theme.OUTLINE)
    out.blit(surf, ((size[0] - tw) // 2, (size[1] - th) // 2))
    return out


def open_camera(app: App, config_path: Path | None = None) -> CameraDevice | None:
    """The camera the config's ``[camera]`` table names, its thread started; None (and one
    notice) when no camera is configured, the settings are wrong or OpenCV is missing.  A
    configured camera that is absent still gives a device: it shows offline and keeps trying."""
    from .sources import CameraConfigError, load_config

    try:
        config = load_config(config_path or app.config_path)
    except CameraConfigError as exc:
        app.toast(_("Camera settings: {error}", error=str(exc)))
        return None
    if config.source == "none":
        app.toast(_("No camera configured: cards are tapped in"), good=True)
        return None
    try:
        import cv2  # noqa: F401 - only to say so now if it is missing
    except ImportError:
        app.toast(_("The camera needs OpenCV: install the vision extra"))
        return None
    return CameraDevice(config)
