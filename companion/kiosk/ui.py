"""Drawing helpers and the one widget, a button.

Text is always drawn into a box: it is wrapped and shrunk until it fits, down to a minimum size,
and never below the display's smallest readable size (``theme.Metrics.min_text``).  Text that
still does not fit is clipped and recorded in OVERFLOWS, which the screenshot tests check stays
empty; so is a shape (a chip, an icon) drawn with ``shape_inside`` partly outside its box or the
screen.  With DRAWN a list, every text drawn is recorded with its box, size and colours, for the
measurements of ``companion.kiosk.measure``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.events import Role

from . import i18n, linebreak, theme
from .fonts import font, font_name
from .linebreak import wrap
from .textcache import IMAGES, LAYOUTS, LRU, MEASURES, PLACED, Layout, Placed
from .theme import Colour

ELLIPSIS = "…"

OVERFLOWS: list[str] = []
"""Text that did not fit its box at the smallest allowed size (for tests)."""

MISSING_GLYPHS: list[str] = []
"""Characters drawn that the font has no glyph for (tofu boxes), when CHECK_GLYPHS is on."""

CHECK_GLYPHS = False

DRAWN: list[str] | None = None
"""When a list, every text drawn is appended to it as a ``Drawn`` (tests read what a screen
shows)."""

AREAS: list[pygame.Rect] | None = None
"""When a list, the area every text drawn covers is appended to it (a ``Drawn``'s ``rect``):
what the app's message keeps off (``App.render``).  Unlike DRAWN it keeps the texts' places
cached (``textcache.PLACED``): a frame with a message on screen costs what one without does."""


class Drawn(str):
    """A text as drawn: the string itself, with where (``rect``, the area its lines cover), at
    which ``size`` and cap height (``cap``, in pixels), in which ``colour``, on which
    ``background`` (the colour most of its area had before it was drawn), whether it was
    ``inactive`` (drawn in ``theme.DISABLED``, the colour of controls that are off), and what
    of it did not fit and is ``hidden`` behind "…" ("" when it is whole)."""

    rect: pygame.Rect
    size: int
    cap: int
    colour: Colour
    background: Colour
    inactive: bool
    hidden: str

    @classmethod
    def of(
        cls,
        text: str,
        rect: pygame.Rect,
        size: int,
        cap: int,
        colour: Colour,
        background: Colour,
        hidden: str = "",
    ) -> Drawn:
        d = cls(text)
        d.rect, d.size, d.cap, d.hidden = rect, size, cap, hidden
        d.colour, d.background = tuple(colour[:3]), background  # type: ignore[assignment]
        d.inactive = d.colour == theme.DISABLED
        return d


def background(surface: pygame.Surface, rect: pygame.Rect) -> Colour:
    """The colour most of ``rect`` has on ``surface`` (a grid of samples; the surface's edge
    clips the rect)."""
    area = rect.clip(surface.get_rect())
    if area.width <= 0 or area.height <= 0:
        return theme.BG
    steps = 7
    xs = [area.x + (area.width - 1) * i // (steps - 1) for i in range(steps)]
    ys = [area.y + (area.height - 1) * j // (steps - 1) for j in range(steps)]
    # The pixels as the surface stores them, their alpha left out (a palette's pixels are its
    # indexes, whole): a count of ints, not of 49 Color objects (this runs for every text a
    # measured drawing records).
    r, g, b, _a = surface.get_masks()
    rgb, at = r | g | b or -1, surface.get_at_mapped
    counts: dict[int, int] = {}
    surface.lock()  # once, not once a pixel
    try:
        for x in xs:
            for y in ys:
                key = at((x, y)) & rgb
                counts[key] = counts.get(key, 0) + 1
    finally:
        surface.unlock()
    c = surface.unmap_rgb(max(counts, key=counts.__getitem__))
    return (c.r, c.g, c.b)


def shape_inside(surface: pygame.Surface, shape: pygame.Rect, box: pygame.Rect, what: str) -> bool:
    """Check that a shape about to be drawn lies inside ``box`` and the screen; if not, record
    it in OVERFLOWS (as drawn text that does not fit is).  True when it fits."""
    screen = surface.get_rect()
    scrolled = surface.get_clip() != screen  # a scrolled view clips what leaves it, by design
    on_screen = scrolled or screen.contains(shape)
    if box.contains(shape) and on_screen:
        return True
    where = "the screen" if not on_screen else f"its box {tuple(box)}"
    OVERFLOWS.append(f"{what} at {tuple(shape)} is cut off by {where}")
    return False


_INK_TOP = "Hbdfhkl|()[]国あ"
_INK_BOTTOM = "gjpqy|()[]国"
_inks: dict[int, tuple[pygame.font.Font, int, int, dict[str, tuple[int, int]]]] = {}
"""By id(font) (the font kept alive with it): its ascenders and descenders, and each
character's ink (bottom, top) measured so far."""

_NO_INK = (1 << 20, -(1 << 20))  # a character without a glyph reaches neither way


def ink(f: pygame.font.Font, rows: list[str]) -> tuple[int, int]:
    """How far the glyphs of ``rows`` reach above the baseline and below it (negative): at
    least as far as the font's ascenders and descenders, so rows of the same font share a
    baseline, and farther for a taller glyph (an accented capital)."""
    known = _inks.get(id(f))
    if known is None:
        tops = [m[3] for m in f.metrics(_INK_TOP) if m is not None]
        bottoms = [m[2] for m in f.metrics(_INK_BOTTOM) if m is not None]
        known = _inks[id(f)] = (
            f,
            max(tops, default=f.get_ascent()),
            min(bottoms, default=f.get_descent()),
            {},
        )
    _f, top, bottom, chars = known
    used = set("".join(rows))
    if not used:
        return top, bottom
    new = [ch for ch in used if ch not in chars]
    if new:  # each character measured once a font: a frame's new texts measure few
        for ch, m in zip(new, f.metrics("".join(new)), strict=True):
            chars[ch] = (m[2], m[3]) if m is not None else _NO_INK
    return (max(top, max(chars[ch][1] for ch in used)),
            min(bottom, min(chars[ch][0] for ch in used)))


def fits(
    surface: pygame.Surface,
    text: str,
    rect: pygame.Rect,
    size: int,
    *,
    bold: bool = False,
    lines: int = 3,
    min_size: int | None = None,
) -> bool:
    """Whether ``draw_text`` with these arguments would draw ``text`` whole (at its smallest
    allowed size, at worst) without breaking a word or phrase: for a layout to choose a
    shorter wording first.  Cached (``textcache.MEASURES``)."""
    smallest = max(min_text(surface), min_size if min_size is not None else int(size * 0.6))
    lang = i18n.language()
    key = ("fits", text, lang, font_name(lang, bold), smallest, bold, lines, rect.width,
           rect.height)
    found = MEASURES.get(key)
    if found is None:
        f = font(smallest, bold)
        rows = wrap(text, f, rect.width, force=False)
        top, bottom = ink(f, rows)
        height = max(0, len(rows) - 1) * f.get_linesize() + top - bottom
        widest = max((f.size(r)[0] for r in rows), default=0)
        found = MEASURES.put(
            key, len(rows) <= lines and height <= rect.height and widest <= rect.width
        )
    return bool(found)


def fitting(
    surface: pygame.Surface,
    rect: pygame.Rect,
    size: int,
    *texts: str,
    bold: bool = False,
    lines: int = 1,
) -> str:
    """The first of ``texts`` (longest wording first) that ``draw_text`` would draw whole in
    ``rect`` (:func:`fits`); the last one if none does."""
    for text in texts[:-1]:
        if fits(surface, text, rect, size, bold=bold, lines=lines):
            return text
    return texts[-1]


def cut_rows(rows: list[str], keep: int, f: pygame.font.Font, width: int) -> list[str]:
    """The first ``keep`` of ``rows``; when some are left out, the last one kept ends with "…"
    (never with a list's separator), within ``width`` pixels in ``f``: a text cut short says
    so."""
    kept = rows[:keep]
    if len(kept) < len(rows) and kept:
        last = kept[-1].rstrip(SEPARATORS)
        while last and f.size(last + ELLIPSIS)[0] > width:
            last = last[:-1].rstrip(SEPARATORS)
        kept[-1] = last + ELLIPSIS
    return kept


def hidden_part(lay: Layout) -> str:
    """What of a laid-out text is not shown: the rows after those drawn, and the end of the
    last row drawn that "…" stands for ("" for a text drawn whole)."""
    if not lay.overflow:
        return ""
    shown = "".join(lay.rows)
    if shown.endswith(ELLIPSIS):
        shown = shown[: -len(ELLIPSIS)]
    whole = "".join(lay.wrapped)
    return whole[len(shown):] if whole.startswith(shown) else whole


SEPARATORS = " ,、，;；·・:："
"""What a list's items are joined with (stripped before the ellipsis of a cut text)."""


def text_height(surface: pygame.Surface, size: int, *, bold: bool = False, lines: int = 1) -> int:
    """The height ``lines`` lines of text at ``size`` (or the display's smallest size, if
    larger) need: from the first line's ascenders to the last one's descenders, and 2 px for
    a taller glyph."""
    s = max(size, min_text(surface))
    key = ("height", font_name(None, bold), s, bold, lines)
    found = MEASURES.get(key)
    if found is None:
        f = font(s, bold)
        top, bottom = ink(f, [])
        found = MEASURES.put(key, (lines - 1) * f.get_linesize() + top - bottom + 2)
    return found


def fitted_height(
    surface: pygame.Surface, text: str, width: int, height: int, size: int, *, lines: int = 2,
    bold: bool = False,
) -> int:
    """``height``, or more when ``text`` needs it to fit ``width`` on ``lines`` lines at its
    smallest size (for a header that grows rather than clips)."""
    for n in range(1, lines + 1):
        h = max(height, text_height(surface, int(size * 0.6), bold=bold, lines=n))
        if fits(surface, text, pygame.Rect(0, 0, width, h), size, bold=bold, lines=lines):
            return h
    return max(height, text_height(surface, int(size * 0.6), bold=bold, lines=lines))


_min_texts: dict[tuple[tuple[int, int], tuple[int, int] | None], int] = {}


def min_text(surface: pygame.Surface) -> int:
    """The smallest readable text size on ``surface``: the display's (see theme.Metrics), also
    on an off-screen surface drawn to be shown on it (a row of a scrolled list)."""
    size = surface.get_size()
    display = pygame.display.get_surface() if pygame.display.get_init() else None
    shown = display.get_size() if display is not None and surface is not display else None
    found = _min_texts.get((size, shown))
    if found is None:
        if shown is not None and size not in (shown, shown[::-1]):
            size = shown
        if len(_min_texts) > 256:  # surfaces of many sizes (rows of scrolled lists)
            _min_texts.clear()
        found = _min_texts[(surface.get_size(), shown)] = theme.Metrics(*size).min_text
    return found


def layout(
    text: str, width: int, height: int, size: int, smallest: int, bold: bool, lines: int
) -> Layout:
    """How ``draw_text`` lays ``text`` out in a box of ``width`` x ``height``: from ``size``
    down to ``smallest`` until it fits on ``lines`` lines; cached (``textcache.LAYOUTS``)."""
    lang = i18n.language()
    path = font_name(lang, bold)
    key = (text, lang, path, size, smallest, bold, lines, width, height)
    found = LAYOUTS.get(key)
    if found is None:
        return LAYOUTS.put(key, _layout(text, width, height, size, smallest, bold, lines, path))
    if linebreak.RECORD is not None:  # the lines drawn, as a wrap would have recorded them
        linebreak.RECORD.append((text, lang, width, list(found.wrapped)))
    return found


def _layout(
    text: str, width: int, height: int, size: int, smallest: int, bold: bool, lines: int,
    path: str,
) -> Layout:
    s = max(size, smallest)
    while True:
        f = font(s, bold)
        # A word wider than the box is broken only at the smallest size: shrink first.
        rows = wrap(text, f, width, force=s <= smallest)
        widest = max(f.size(r)[0] for r in rows)
        top, bottom = ink(f, rows)
        total = max(0, len(rows) - 1) * f.get_linesize() + top - bottom
        fit = len(rows) <= lines and total <= height and widest <= width
        if fit or s <= smallest:
            break
        s = max(smallest, int(s * 0.9))
    wrapped = tuple(rows)
    if not fit:
        keep = min(lines, max(1, 1 + (height - (top - bottom)) // f.get_linesize()))
        rows = cut_rows(rows, keep, f, width)
    return Layout(s, tuple(rows), top, bottom, f.get_linesize(), f.get_ascent(), not fit,
                  wrapped, path, bold)


def rendered(lay: Layout, colour: Colour) -> tuple[pygame.Surface, ...]:
    """The rows of ``lay`` rendered in ``colour`` (antialiased, on no background); cached
    (``textcache.IMAGES``)."""
    hashable = colour if type(colour) is tuple else tuple(colour)  # a pygame.Color is not
    key = (lay.path, lay.size, lay.bold, lay.rows, hashable)
    found = IMAGES.get(key)
    if found is None:
        f = font(lay.size, lay.bold)
        found = IMAGES.put(key, tuple(f.render(row, True, colour) for row in lay.rows))
    return found


def check_glyphs(text: str, f: pygame.font.Font) -> None:
    """Record in MISSING_GLYPHS each character of ``text`` that ``f`` has no glyph for."""
    metrics: list[Any] = list(f.metrics(text))  # None for a glyph the font lacks
    for ch, met in zip(text, metrics, strict=False):
        if met is None and not ch.isspace():
            MISSING_GLYPHS.append(f"{ch!r} (U+{ord(ch):04X}) in {text!r}")


def _x(align: str, rect: pygame.Rect, width: int) -> int:
    if align == "left":
        return int(rect.x)
    if align == "right":
        return int(rect.right - width)
    return int(rect.x + (rect.width - width) // 2)


def context(surface: pygame.Surface) -> tuple[object, ...]:
    """What every drawing on ``surface`` is drawn from besides its own inputs: the language,
    its fonts, the size, the smallest text, the glyph check (part of each key that keeps a
    drawing: ``retained``, a log's rows, a message's card)."""
    lang = i18n.language()
    return (lang, font_name(lang, False), font_name(lang, True), surface.get_size(),
            min_text(surface), CHECK_GLYPHS)


def recording() -> bool:
    """Whether a recorder that notes each text where it is drawn is on (``DRAWN``,
    ``linebreak.RECORD``, ``CHECK_GLYPHS``: tests and measurements).  Then a text is placed
    afresh, and a drawing kept off screen (:func:`drawn_once`) is drawn where it shows."""
    return DRAWN is not None or linebreak.RECORD is not None or CHECK_GLYPHS


Drawing = tuple[pygame.Surface, tuple[str, ...]]
"""A surface drawn off screen, and what drawing it added to ``OVERFLOWS``."""


def drawn_once(cache: LRU[Drawing], key: Hashable, draw: Callable[[], pygame.Surface]
               ) -> pygame.Surface:
    """The surface ``draw`` makes (a log's row, a message's card), kept in ``cache`` by
    ``key`` (all it is drawn from) with what drawing it added to ``OVERFLOWS``, which is added
    again whenever it is reused: the same pixels and records as drawing it afresh."""
    kept = cache.get(key)
    if kept is None:
        before = len(OVERFLOWS)
        kept = cache.put(key, (draw(), tuple(OVERFLOWS[before:])))
    else:
        OVERFLOWS.extend(kept[1])
    return kept[0]


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
    ``min_size`` (default 60% of ``size``) until it fits.  Returns the area used.  A text drawn
    before in the same place is blitted as it was placed (``textcache.PLACED``); else it is
    laid out and rendered from the caches (:func:`layout`, :func:`rendered`)."""
    if not text:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    smallest = max(min_text(surface), min_size if min_size is not None else int(size * 0.6))
    clip = surface.get_clip()
    key = None if recording() else (
        text, tuple(rect), size, smallest, colour if type(colour) is tuple else tuple(colour),
        bold, align, valign, lines, i18n.language(), font_name(None, bold), tuple(clip),
        surface.get_size(),
    )  # (what a drawing records, when recorded, is recorded by placing the text anew)
    placed = PLACED.get(key) if key is not None else None
    if placed is None:
        placed = _place(surface, text, rect, size, smallest, colour, bold, align, valign, lines)
        if key is not None:
            PLACED.put(key, placed)
    OVERFLOWS.extend(placed.overflows)
    if AREAS is not None:
        AREAS.append(pygame.Rect(placed.area))
    surface.set_clip(placed.clip)
    surface.blits(placed.blits, doreturn=False)
    surface.set_clip(clip)
    return pygame.Rect(placed.used)


def _place(
    surface: pygame.Surface, text: str, rect: pygame.Rect, size: int, smallest: int,
    colour: Colour, bold: bool, align: str, valign: str, lines: int,
) -> Placed:
    """Where ``draw_text`` blits the rows of ``text`` in ``rect``, and what it records."""
    lay = layout(text, rect.width, rect.height, size, smallest, bold, lines)
    overflows = [f"{text!r} in {rect.width}x{rect.height} at {lay.size}px"] if lay.overflow else []
    if CHECK_GLYPHS:
        check_glyphs(text, font(lay.size, bold))
    images = rendered(lay, colour)
    total = lay.total  # from the first row's ink to the last's
    if valign == "top":
        y = rect.y
    elif valign == "bottom":
        y = rect.bottom - total
    else:
        y = rect.y + (rect.height - total) // 2
    widest = max(img.get_width() for img in images)
    area = pygame.Rect(_x(align, rect, widest), y, widest, total).clip(rect)
    if DRAWN is not None:
        cap = theme.cap_height(lay.size, bold)
        DRAWN.append(Drawn.of(text, area, lay.size, cap, colour, background(surface, area),
                              hidden_part(lay)))
    screen, clip = surface.get_rect(), surface.get_clip()
    if clip == screen and not screen.contains(  # (a scrolled view clips itself)
        rect.clip(pygame.Rect(rect.x, y, rect.width, total))
    ):
        overflows.append(f"{text!r} in {tuple(rect)} is cut off by the screen")
    top = y - (lay.ascent - lay.top)  # the images start above the ink, at the font's ascent
    blits = tuple((img, (_x(align, rect, img.get_width()), top + k * lay.line_h))
                  for k, img in enumerate(images))
    return Placed(blits, rect.clip(clip), (rect.x, y, widest, total), tuple(overflows),
                  (area.x, area.y, area.width, area.height))


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
    short: str = ""
    """A shorter label, drawn instead when the label does not fit (a card without its
    details)."""
    short_sub: str = ""
    """A shorter sub-line, drawn instead when the sub-line does not fit."""
    roles: tuple[Role, ...] = ()
    """The table's buttons that press it too (CONFIRM on the step's main button, BACK on a
    Close): a press is a tap on the topmost enabled button of the last frame that carries
    its role (``screens.base.Screen.handle``)."""

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
        inner = button_inner(self.rect)
        if self.sub:
            # The sub-line gets 40%, or the height it needs when that is more and the label
            # keeps a line.
            sub_size = max(8, self.size * 3 // 4)
            sub = self.sub
            one_line = pygame.Rect(0, 0, inner.width, text_height(surface, sub_size))
            if self.short_sub and not fits(surface, sub, one_line, sub_size, lines=1):
                sub = self.short_sub  # one line of the shorter beats two of the longer
            needed = fitted_height(surface, sub, inner.width, 0, sub_size)
            sub_h = max(
                inner.height * 4 // 10,
                min(needed, inner.height - text_height(surface, self.size)),
            )
            top = pygame.Rect(inner.x, inner.y, inner.width, inner.height - sub_h)
            bottom = pygame.Rect(inner.x, top.bottom, inner.width, sub_h)
            if not fits(surface, sub, bottom, sub_size, lines=2):
                joined = f"{self.label} · {sub}"
                if self.extra.get("sub_optional"):
                    sub = ""  # a note the button can do without (it is printed on the board)
                elif fits(surface, joined, inner, sub_size, lines=3):
                    # Too tight to stack: the label and the sub-line run on as one text.
                    draw_text(surface, joined, inner, sub_size, colour, lines=3)
                    return
            if not sub:
                draw_text(surface, self._label(surface, inner, 3), inner, self.size, colour)
                return
            draw_text(surface, self._label(surface, top, 2), top, self.size, colour, lines=2)
            muted = theme.MUTED if theme.contrast(theme.MUTED, fill) >= theme.CONTRAST else colour
            draw_text(
                surface, sub, bottom, sub_size, muted if self.enabled else theme.DISABLED, lines=2
            )
        else:
            draw_text(surface, self._label(surface, inner, 3), inner, self.size, colour)

    def _label(self, surface: pygame.Surface, rect: pygame.Rect, lines: int) -> str:
        if self.short and not fits(surface, self.label, rect, self.size, lines=lines):
            return self.short
        return self.label


def title_bar_height(m: theme.Metrics) -> int:
    """The height of a screen's title bar (``Screen.title_bar``)."""
    return m.touch + m.gap * 2


def button_inner(rect: pygame.Rect) -> pygame.Rect:
    """Where a button of ``rect`` draws its label (and sub-line)."""
    return rect.inflate(-max(6, rect.height // 6), 0)


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


def paginate(heights: list[int], room: int, gap: int) -> list[list[int]]:
    """The indices of rows of ``heights`` page by page, each page as many as fit in ``room``
    (at least one)."""
    pages: list[list[int]] = [[]]
    used = 0
    for k, h in enumerate(heights):
        if pages[-1] and used + gap + h > room:
            pages.append([])
            used = 0
        used += (gap if pages[-1] else 0) + h
        pages[-1].append(k)
    return pages
