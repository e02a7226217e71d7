"""Colours and sizes of the kiosk, scaled to the window so one layout serves 800x480,
720x1280 and any laptop window.

Sizes have physical floors on the two official displays: a touch target is at least 9 mm on
its short side and text has a cap height of at least 2.5 mm (``Metrics.touch`` and
``Metrics.min_text``, from ``DISPLAYS``).  Colours meet WCAG AA for text (4.5:1, see
``contrast``): ``TEXT``, ``MUTED``, ``ACCENT``, ``GOOD_TEXT``, ``BAD_TEXT`` and ``PLAYER_INK``
on ``BG``, ``PANEL`` and ``PANEL_HI``; ``PLAYER_TEXT`` on ``PLAYER``; ``TOAST_TEXT`` on the
toasts.  ``DISABLED`` is only for inactive controls, which WCAG exempts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Colour = tuple[int, int, int]

BG: Colour = (26, 24, 30)
PANEL: Colour = (46, 42, 54)
PANEL_HI: Colour = (64, 58, 74)
TEXT: Colour = (242, 236, 224)
MUTED: Colour = (186, 178, 168)
DISABLED: Colour = (96, 90, 86)
ACCENT: Colour = (224, 180, 74)
GOOD: Colour = (92, 176, 96)
BAD: Colour = (206, 72, 60)
OUTLINE: Colour = (12, 10, 14)
GOOD_TEXT: Colour = (120, 196, 124)
"""GOOD as the colour of text on the dark panels."""
BAD_TEXT: Colour = (250, 140, 128)
"""BAD as the colour of text on the dark panels."""
TOAST_GOOD: Colour = (44, 117, 54)
TOAST_BAD: Colour = (176, 48, 42)
TOAST_TEXT: Colour = TEXT

PLAYER: dict[str, Colour] = {
    "red": (196, 52, 46),
    "blue": (46, 99, 194),
    "yellow": (226, 186, 40),
    "green": (58, 156, 72),
}
PLAYER_TEXT: dict[str, Colour] = {
    "red": TEXT,
    "blue": TEXT,
    "yellow": (30, 26, 20),
    "green": (20, 24, 18),
}
"""Text on a player's colour (a chip, a button filled with it)."""
PLAYER_INK: dict[str, Colour] = {
    "red": (255, 138, 128),
    "blue": (130, 170, 255),
    "yellow": (226, 186, 40),
    "green": (110, 200, 118),
}
"""A player's colour as text on the dark panels: the same hue, light enough to read."""
RESOURCE: dict[str, Colour] = {
    "stone": (168, 168, 176),
    "wood": (128, 80, 40),
    "sand": (236, 216, 158),
    "metal": (70, 120, 206),
    "gold": (224, 180, 74),
    "knowledge": (120, 90, 200),
    "tile": (232, 128, 64),
}
"""Each resource's colour; its shape is in ``icons.SHAPES``.  Wood (dark brown) and tile
(light orange), stone (light grey) and metal (blue) stay apart to the common colour-vision
deficiencies and in greyscale."""



DISPLAYS: dict[tuple[int, int], tuple[float, float]] = {
    (800, 480): (154.08, 85.92),  # the official 7" display: its active area, in mm
    (720, 1280): (88.0, 155.0),  # Touch Display 2 (7"), in portrait: its active area, in mm
}
"""The active area in mm of the official displays, by their size in pixels."""

TARGET_MM = 9.0
"""The smallest touch target, on its short side."""
CAP_MM = 2.5
"""The smallest cap height of text."""
CONTRAST = 4.5
"""The lowest contrast of text against its background (WCAG 2, AA)."""


def mm_per_px(size: tuple[int, int]) -> tuple[float, float]:
    """Millimetres per pixel (across, down) on the display of ``size``: an official display
    (turned either way), else a 7" display with the same short side."""
    w, h = size
    if (w, h) in DISPLAYS:
        mw, mh = DISPLAYS[(w, h)]
        return (mw / w, mh / h)
    if (h, w) in DISPLAYS:
        mw, mh = DISPLAYS[(h, w)]
        return (mh / w, mw / h)
    pitch = 86.0 / max(1, min(w, h))
    return (pitch, pitch)


def luminance(colour: Colour) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def cap_height(size: int, bold: bool = False) -> int:
    """The height in pixels of a capital H in the kiosk font at ``size`` (pygame must be
    initialised)."""
    from .fonts import font

    metrics = font(size, bold).metrics("H")[0]
    return int(metrics[3]) if metrics is not None else round(size * 0.733)


def cap_size(cap_px: float) -> int:
    """The smallest font size whose capitals are ``cap_px`` pixels tall."""
    size = max(1, math.floor(cap_px))
    while cap_height(size) < cap_px:
        size += 1
    return size


@dataclass(frozen=True)
class Metrics:
    """Sizes for a window: ``u`` is one unit, 1 px at 480 px on the short side."""

    width: int
    height: int

    @property
    def u(self) -> float:
        return min(self.width, self.height) / 480

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    def px(self, units: float) -> int:
        return max(1, round(units * self.u))

    @property
    def mm(self) -> tuple[float, float]:
        """Millimetres per pixel, across and down."""
        return mm_per_px((self.width, self.height))

    @property
    def touch(self) -> int:
        """The smallest touch target: 9 mm on the display (51 px at 800x480, 75 at
        720x1280)."""
        return max(self.px(48), math.ceil(TARGET_MM / min(self.mm) - 1e-9))

    @property
    def min_text(self) -> int:
        """The smallest text size: capitals 2.5 mm tall on the display."""
        return _min_text(self.mm[1])

    @property
    def gap(self) -> int:
        return self.px(6)

    @property
    def text(self) -> int:
        return self.px(20)

    @property
    def small(self) -> int:
        return max(self.px(16), self.min_text)

    @property
    def large(self) -> int:
        return self.px(28)

    @property
    def huge(self) -> int:
        return self.px(48)


_min_texts: dict[float, int] = {}


def _min_text(mm_down: float) -> int:
    size = _min_texts.get(mm_down)
    if size is None:
        size = _min_texts[mm_down] = cap_size(CAP_MM / mm_down - 1e-9)
    return size
