"""Bounded caches of what the kiosk draws again and again: laid-out, rendered and placed
texts.

A screen is drawn whole at every change (``Screen.render``), and most of what it draws is what
it drew the frame before: the same labels, names and counts in the same boxes.  Wrapping a text
and shrinking it to fit its box, and rendering its glyphs, cost most of a frame on a Pi
(``docs/notes/pi-lab.md``); these caches keep the results, keyed by everything that affects them:

* ``LAYOUTS``: where ``ui.draw_text`` breaks a text into lines and at which size it fits (by
  text, language, font file, size, smallest size, bold, box width and height, lines);
* ``MEASURES``: the answers of ``ui.fits`` and ``ui.text_height`` (by the same);
* ``IMAGES``: the rendered lines of a laid-out text (by font file, size, bold, lines and
  colour), bounded by their pixels' bytes;
* ``PLACED``: a text as drawn in its box (by all of ``ui.draw_text``'s arguments, the box's
  place included, and the language, font file, clip and surface size): the images and where
  they go, bounded by the bytes of its images.

A key holds every input of its value, so a change of language (another font file, other line
breaks), of rotation (other boxes, another smallest size) or of theme (other colours) can never
return a stale value: it misses, and the old entries age out.  The least recently used entry
goes first when a cache is over its limit; ``clear`` empties them all (``fonts.clear_cache``
calls it when pygame's fonts end); ``stats`` says how full each is.  What they hold at most,
measured: ``bench/bench_kiosk.py cache`` (``docs/notes/pi-lab.md``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import pygame

V = TypeVar("V")


class LRU(Generic[V]):
    """A map that forgets its least recently used entries when the summed ``weigh`` of its
    values exceeds ``limit`` (by default each value weighs 1: a count of entries)."""

    def __init__(self, name: str, limit: int, weigh: Callable[[V], int] | None = None) -> None:
        if limit < 1:
            raise ValueError(f"cache {name!r}: the limit must be at least 1, not {limit}")
        self.name, self.limit = name, limit
        self._weigh = weigh
        self._data: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self.weight = 0
        self.hits = self.misses = 0
        CACHES.append(self)

    def get(self, key: Hashable) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        found = self._data.get(key)
        if found is None:
            self.misses += 1
            return None
        self._data.move_to_end(key)
        self.hits += 1
        return found[0]

    def put(self, key: Hashable, value: V) -> V:
        """Keep ``value`` for ``key`` and return it; forget the least recently used entries
        while over the limit (a value heavier than the whole limit is returned, not kept)."""
        w = self._weigh(value) if self._weigh is not None else 1
        if w > self.limit:
            return value
        old = self._data.pop(key, None)
        if old is not None:
            self.weight -= old[1]
        self._data[key] = (value, w)
        self.weight += w
        while self.weight > self.limit:
            _key, (_value, dropped) = self._data.popitem(last=False)
            self.weight -= dropped
        return value

    def clear(self) -> None:
        self._data.clear()
        self.weight = 0

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return (f"<LRU {self.name}: {len(self)} entries, weight {self.weight} of {self.limit}, "
                f"{self.hits} hits, {self.misses} misses>")


CACHES: list[LRU[Any]] = []


def surface_bytes(surfaces: tuple[pygame.Surface, ...] | pygame.Surface) -> int:
    """The bytes of the pixels of ``surfaces`` (one, or a tuple), plus a little for each
    object."""
    if isinstance(surfaces, pygame.Surface):
        surfaces = (surfaces,)
    return sum(s.get_width() * s.get_height() * s.get_bytesize() + 200 for s in surfaces)


@dataclass(frozen=True, slots=True)
class Layout:
    """A text laid out in a box: drawn at ``size`` in ``rows``; its ink reaches ``top`` above
    the first row's baseline and ``bottom`` below the last one's (negative); ``wrapped`` are the
    rows before a cut (for ``linebreak.RECORD``); ``overflow``: it did not fit whole; in the
    font of ``path`` (bold or not)."""

    size: int
    rows: tuple[str, ...]
    top: int
    bottom: int
    line_h: int
    ascent: int
    overflow: bool
    wrapped: tuple[str, ...]
    path: str
    """The font file ("" for pygame's default font)."""
    bold: bool

    @property
    def total(self) -> int:
        """From the first row's ink to the last's, in pixels."""
        return (len(self.rows) - 1) * self.line_h + self.top - self.bottom


@dataclass(frozen=True, slots=True)
class Placed:
    """A text as ``ui.draw_text`` drew it in its box: the rows' images and where each went
    (``blits``), the clip it drew under, the area it used (x, y, width, height), what it
    recorded in ``ui.OVERFLOWS`` and the area its lines cover."""

    blits: tuple[tuple[pygame.Surface, tuple[int, int]], ...]
    clip: pygame.Rect
    used: tuple[int, int, int, int]
    overflows: tuple[str, ...]
    area: tuple[int, int, int, int]
    """The area its lines cover, inside its box (``ui.AREAS``; a ``ui.Drawn``'s ``rect``)."""


LAYOUT_ENTRIES = 4096
"""At most this many layouts, and as many answers of ``fits`` and the heights: about 1.3 KB a
layout and 0.6 KB an answer (keys included; ``bench/bench_kiosk.py cache``), 8 MB at worst."""

IMAGE_BYTES = 16 * 1024 * 1024
"""The rendered texts kept: at most 16 MB of pixels (a busy 720x1280 screen's texts take about
1 MB: the screens of a game stay, not every screen of the kiosk in three languages)."""

PLACED_BYTES = 16 * 1024 * 1024
"""The placed texts kept: at most 16 MB of their images (mostly the same images as
``IMAGES``', so the two together hold at most 32 MB and usually not much more than 16)."""

LAYOUTS: LRU[Layout] = LRU("layouts", LAYOUT_ENTRIES)
IMAGES: LRU[tuple[pygame.Surface, ...]] = LRU("text images", IMAGE_BYTES, surface_bytes)
PLACED: LRU[Placed] = LRU(
    "placed texts", PLACED_BYTES, lambda p: surface_bytes(tuple(img for img, _at in p.blits))
)
"""The texts drawn, by text, box (its place too), size, smallest size, colour, bold,
alignment, lines, language, font file, clip and surface size: a text drawn again in the same
place is blitted at once (weighed by its images, which it shares with ``IMAGES``)."""
MEASURES: LRU[int] = LRU("measures", LAYOUT_ENTRIES)
"""The answers of ``ui.fits`` and ``ui.text_height``."""

def clear() -> None:
    """Forget everything kept (the language, the fonts or the display changed; tests)."""
    for cache in CACHES:
        cache.clear()


def stats() -> list[str]:
    """One line a cache: entries, weight against the limit, hits and misses."""
    return [repr(cache) for cache in CACHES]


__all__ = [
    "IMAGES", "LAYOUTS", "LRU", "Layout", "MEASURES", "PLACED", "Placed", "clear", "stats",
]
