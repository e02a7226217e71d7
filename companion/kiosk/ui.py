"""Drawing helpers and the one widget, a button.

Text is always drawn into a box: it is wrapped and shrunk until it fits, down to a minimum size.
Text that still does not fit is clipped and recorded in OVERFLOWS, which the screenshot tests
check stays empty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

from . import theme
from .fonts import font
from .linebreak import wrap
from .theme import Colour

OVERFLOWS: list[str] = []
"""Text that did not fit its box at the smallest allowed size (for tests)."""

MISSING_GLYPHS: list[str] = []
"""Characters drawn that the font has no glyph for (tofu boxes), when CHECK_GLYPHS is on."""

CHECK_GLYPHS = False

DRAWN: list[str] | None = None
"""When a list, every text drawn is appended to it (tests read what a screen shows)."""


def draw_text(
    surface: pygame.Surface,
    text: str,
    rect: pygame.Rect,
    size: int,
    colour: Colour = theme.TEXT,
    *,
    bold: bool = False,
    align: str = "center",
    valign: str = "center",
    min_size: int | None = None,
    lines: int = 3,
) -> pygame.Rect:
    """Draw ``text`` inside ``rect``: wrapped to at most ``lines`` lines, shrunk down to
    ``min_size`` (default 60% of ``size``) until it fits.  Returns the area used."""
    if not text:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    if DRAWN is not None:
        DRAWN.append(text)
    smallest = min_size if min_size is not None else max(8, int(size * 0.6))
    s = size
    while True:
        f = font(s, bold)
        # A word wider than the box is broken only at the smallest size: shrink first.
        rows = wrap(text, f, rect.width, force=s <= smallest)
        height = len(rows) * f.get_linesize()
        widest = max(f.size(r)[0] for r in rows)
        if (len(rows) <= lines and height <= rect.height and widest <= rect.width) or s <= smallest:
            break
        s = max(smallest, int(s * 0.9))
    if len(rows) > lines or height > rect.height or widest > rect.width:
        OVERFLOWS.append(f"{text!r} in {rect.width}x{rect.height} at {s}px")
        rows = rows[: max(1, rect.height // f.get_linesize())]
    if CHECK_GLYPHS:
        metrics: list[Any] = list(f.metrics(text))  # None for a glyph the font lacks
        for ch, met in zip(text, metrics, strict=False):
            if met is None and not ch.isspace():
                MISSING_GLYPHS.append(f"{ch!r} (U+{ord(ch):04X}) in {text!r}")
    line_h = f.get_linesize()
    total = len(rows) * line_h
    if valign == "top":
        y = rect.y
    elif valign == "bottom":
        y = rect.bottom - total
    else:
        y = rect.y + (rect.height - total) // 2
    used = pygame.Rect(rect.x, y, 0, total)
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip))
    for row in rows:
        img = f.render(row, True, colour)
        if align == "left":
            x = rect.x
        elif align == "right":
            x = rect.right - img.get_width()
        else:
            x = rect.x + (rect.width - img.get_width()) // 2
        surface.blit(img, (x, y))
        used.width = max(used.width, img.get_width())
        y += line_h
    surface.set_clip(clip)
    return used


def panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    colour: Colour = theme.PANEL,
    radius: int = 8,
    border: Colour | None = None,
    width: int = 2,
) -> None:
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width, border_radius=radius)


@dataclass
class Button:
    """A touch target.  ``key`` names it for tests and the input layer (often the action's
    notation); ``why`` gives the reason a disabled button refuses, shown when it is tapped."""

    rect: pygame.Rect
    label: str
    on_tap: Callable[[], None]
    key: str = ""
    enabled: bool = True
    why: Callable[[], str] | None = None
    fill: Colour = theme.PANEL_HI
    text_colour: Colour = theme.TEXT
    size: int = 20
    sub: str = ""
    selected: bool = False
    extra: dict[str, object] = field(default_factory=dict)

    def draw(self, surface: pygame.Surface) -> None:
        fill = self.fill if self.enabled else theme.PANEL
        colour = self.text_colour if self.enabled else theme.DISABLED
        radius = max(4, min(self.rect.height // 6, self.size // 2))
        panel(
            surface,
            self.rect,
            fill,
            radius=radius,
            border=theme.ACCENT if self.selected else None,
            width=3,
        )
        inner = self.rect.inflate(-max(6, self.rect.height // 6), -4)
        if self.sub:
            top = pygame.Rect(inner.x, inner.y, inner.width, inner.height * 6 // 10)
            bottom = pygame.Rect(inner.x, top.bottom, inner.width, inner.height - top.height)
            draw_text(surface, self.label, top, self.size, colour, lines=2)
            draw_text(
                surface,
                self.sub,
                bottom,
                max(8, self.size * 3 // 4),
                theme.MUTED if self.enabled else theme.DISABLED,
                lines=2,
            )
        else:
            draw_text(surface, self.label, inner, self.size, colour)


def grid(
    area: pygame.Rect, count: int, cols: int, gap: int, row_h: int | None = None
) -> list[pygame.Rect]:
    """``count`` cells filling ``area`` in ``cols`` columns (rows as tall as fits, or row_h)."""
    if count <= 0:
        return []
    rows = (count + cols - 1) // cols
    w = (area.width - gap * (cols - 1)) // cols
    h = row_h if row_h is not None else (area.height - gap * (rows - 1)) // rows
    return [
        pygame.Rect(area.x + (i % cols) * (w + gap), area.y + (i // cols) * (h + gap), w, h)
        for i in range(count)
    ]


def split_h(area: pygame.Rect, *parts: float, gap: int = 0) -> list[pygame.Rect]:
    """Columns of ``area`` in proportion to ``parts``."""
    total = sum(parts)
    free = area.width - gap * (len(parts) - 1)
    out: list[pygame.Rect] = []
    x = area.x
    for i, p in enumerate(parts):
        w = free - sum(r.width for r in out) if i == len(parts) - 1 else int(free * p / total)
        out.append(pygame.Rect(x, area.y, w, area.height))
        x += w + gap
    return out


def split_v(area: pygame.Rect, *parts: float, gap: int = 0) -> list[pygame.Rect]:
    """Rows of ``area`` in proportion to ``parts``."""
    total = sum(parts)
    free = area.height - gap * (len(parts) - 1)
    out: list[pygame.Rect] = []
    y = area.y
    for i, p in enumerate(parts):
        h = free - sum(r.height for r in out) if i == len(parts) - 1 else int(free * p / total)
        out.append(pygame.Rect(area.x, y, area.width, h))
        y += h + gap
    return out
