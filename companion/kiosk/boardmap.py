"""A game's board drawn small, with the places a step names lit, so that a first table finds
them without reading: on every hand-out and instruction that names a place (Kingsbridge 2,
the wool mill, the building row), and large on the set-up guide.

A game describes its board as data (:class:`BoardMap`: areas in the board's own units, each
with its name, the number printed on the board, and its spaces); :func:`draw_map` draws any
such map into a rectangle, the lit areas and spaces in the accent colour.  Small, it draws
only the numbers that fit at the smallest legible size (the names are in the step's words);
large, every area's name too.  The game's places are plain ids: an area's (``kingsbridge``)
or a space's (``kingsbridge2``, which lights its area too).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import pygame

from . import theme
from .ui import draw_text, fits, min_text


@dataclass(frozen=True)
class Area:
    """A place on the board: its ``id``, its rectangle (x, y, width, height in the map's
    units), its name in the table's language, the number printed on the board beside it
    (phase III's order on the Pillars board; "" for none), and the ids of its spaces, drawn
    side by side inside it."""

    id: str
    rect: tuple[float, float, float, float]
    label: str = ""
    number: str = ""
    spaces: tuple[str, ...] = ()
    beside: bool = False
    """Not on the board but beside it (the supply, the bank): drawn with a dashed look."""


@dataclass(frozen=True)
class BoardMap:
    """A board as a picture: its size in its own units and its areas."""

    size: tuple[float, float]
    areas: tuple[Area, ...]

    def area_of(self, place: str) -> Area | None:
        """The area ``place`` names (an area's id, or one of its spaces')."""
        for area in self.areas:
            if area.id == place or place in area.spaces:
                return area
        return None


def fit(board: BoardMap, rect: pygame.Rect) -> pygame.Rect:
    """The largest rectangle of the board's shape inside ``rect``, centred."""
    w, h = board.size
    scale = min(rect.width / w, rect.height / h)
    out = pygame.Rect(0, 0, int(w * scale), int(h * scale))
    out.center = rect.center
    return out


def draw_map(surface: pygame.Surface, rect: pygame.Rect, board: BoardMap,
             lit: Collection[str], *, names: bool = False) -> pygame.Rect:
    """``board`` drawn in ``rect`` (its shape kept), the areas and spaces of ``lit`` in the
    accent colour; with ``names``, each area's name where it fits (else its number).  The
    rectangle drawn in."""
    area_rect = fit(board, rect)
    scale = area_rect.width / board.size[0]
    pygame.draw.rect(surface, theme.BG, area_rect, border_radius=6)
    lit_areas = {a.id for a in board.areas if a.id in lit or any(s in lit for s in a.spaces)}
    gap = max(1, int(scale * 0.08))
    for area in board.areas:
        x, y, w, h = area.rect
        box = pygame.Rect(area_rect.x + int(x * scale) + gap, area_rect.y + int(y * scale) + gap,
                          max(2, int(w * scale) - 2 * gap), max(2, int(h * scale) - 2 * gap))
        on = area.id in lit_areas
        fill = theme.ACCENT if on else theme.PANEL_HI
        pygame.draw.rect(surface, fill, box, border_radius=max(2, gap * 2))
        if area.beside:
            pygame.draw.rect(surface, theme.MUTED, box, width=1, border_radius=max(2, gap * 2))
        _spaces(surface, box, area, lit, on)
        _label(surface, box, area, on, names)
    return area_rect


def _spaces(surface: pygame.Surface, box: pygame.Rect, area: Area, lit: Collection[str],
            on: bool) -> None:
    """An area's spaces as small squares along its foot, a lit one filled."""
    if not area.spaces:
        return
    n = len(area.spaces)
    side = max(3, min(box.height // 3, (box.width - 4) // (n + 1)))
    total = n * side + (n - 1) * max(2, side // 3)
    x = box.centerx - total // 2
    y = box.bottom - side - max(2, side // 3)
    for space in area.spaces:
        r = pygame.Rect(x, y, side, side)
        if space in lit:
            pygame.draw.rect(surface, theme.OUTLINE, r, border_radius=2)
        else:
            pygame.draw.rect(surface, theme.OUTLINE if on else theme.MUTED, r, width=1,
                             border_radius=2)
        x += side + max(2, side // 3)


def _label(surface: pygame.Surface, box: pygame.Rect, area: Area, on: bool,
           names: bool) -> None:
    """The area's name (``names``) or its number, where it fits at a legible size."""
    colour = theme.OUTLINE if on else theme.TEXT
    smallest = min_text(surface)
    room = pygame.Rect(box.x + 2, box.y + 1, box.width - 4,
                       box.height - (box.height // 3 if area.spaces else 0) - 2)
    text = area.label if names else area.number
    if names and area.number:
        text = f"{area.number} {area.label}"
    lines = 3 if names else 1
    if not text or not fits(surface, text, room, smallest, bold=on, lines=lines):
        if not names or not area.number:
            return
        text, lines = area.number, 1  # the name does not fit: its number, if that does
        if not fits(surface, text, room, smallest, bold=on, lines=1):
            return
    draw_text(surface, text, room, smallest, colour, bold=on, lines=lines, min_size=smallest)


__all__ = ["Area", "BoardMap", "draw_map", "fit"]
