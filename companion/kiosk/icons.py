"""Resource icons: every resource has a shape of its own as well as a colour, so no resource is
told by colour alone (colour-blind players, a dim room, a greyscale photo of the screen).

Within a game no two resources share a shape: wood is a hexagon (a log's end), stone a square
(a block), sand a triangle (a heap), metal a diamond (an ingot seen from above), gold a circle
(a coin); in the Builders knowledge is a star and tile a roof (a triangle).  The colours
(``theme.RESOURCE``) keep wood and tile, stone and metal apart to the three common colour-vision
deficiencies and in greyscale as well (``tests/test_kiosk_icons.py`` checks both).

Every icon is drawn inside a box given by the caller and checked against it with
``ui.shape_inside``: one that would stick out is recorded in ``ui.OVERFLOWS``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from . import theme
from .ui import draw_text, ink, shape_inside

SHAPES: dict[str, str] = {
    "wood": "hexagon",
    "stone": "square",
    "sand": "triangle",
    "metal": "diamond",
    "gold": "circle",
    "knowledge": "star",
    "tile": "roof",
}
"""The shape of each resource (``theme.RESOURCE`` has its colour)."""


def outline(shape: str, rect: pygame.Rect) -> list[tuple[float, float]]:
    """The points of ``shape`` filling ``rect`` (a square is best); a circle has none."""
    cx, cy = rect.centerx, rect.centery
    w, h = rect.width / 2, rect.height / 2
    if shape == "square":
        w, h = w * 0.86, h * 0.86
        return [(cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)]
    if shape == "diamond":
        return [(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)]
    if shape == "hexagon":
        return [
            (cx + w * math.cos(math.radians(a)), cy + h * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]
    if shape == "triangle":
        return [(cx, cy - h), (cx + w, cy + h), (cx - w, cy + h)]
    if shape == "roof":  # a triangle on a short wall: a house's roof
        return [(cx, cy - h), (cx + w, cy + h * 0.1), (cx + w * 0.7, cy + h * 0.1),
                (cx + w * 0.7, cy + h), (cx - w * 0.7, cy + h), (cx - w * 0.7, cy + h * 0.1),
                (cx - w, cy + h * 0.1)]
    if shape == "star":
        points = []
        for k in range(10):
            r = 1.0 if k % 2 == 0 else 0.45
            a = math.radians(-90 + 36 * k)
            points.append((cx + w * r * math.cos(a), cy + h * r * math.sin(a)))
        return points
    if shape == "circle":
        return []
    known = ", ".join(sorted(set(SHAPES.values())))
    raise ValueError(f"no such icon shape: {shape!r} (known: {known})")


def resource_icon(
    surface: pygame.Surface, resource: str, rect: pygame.Rect, box: pygame.Rect | None = None
) -> None:
    """Draw the icon of ``resource`` (a name of ``SHAPES``) filling the square ``rect``, with a
    dark outline so it stands out on any panel; ``box`` is the area it must stay inside (the
    card or cell it belongs to; default the rect itself, i.e. only the screen's edge)."""
    if resource not in SHAPES:
        raise ValueError(f"no icon for the resource {resource!r} (known: {', '.join(SHAPES)})")
    shape_inside(surface, rect, box if box is not None else rect, f"the {resource} icon")
    colour = theme.RESOURCE[resource]
    edge = max(1, rect.width // 12)
    if SHAPES[resource] == "circle":
        r = min(rect.width, rect.height) // 2
        pygame.draw.circle(surface, colour, rect.center, r)
        pygame.draw.circle(surface, theme.OUTLINE, rect.center, r, edge)
        pygame.draw.circle(surface, theme.OUTLINE, rect.center, max(1, r * 6 // 10), 1)
        return
    points = outline(SHAPES[resource], rect)
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, theme.OUTLINE, points, edge)


def amount(
    surface: pygame.Surface,
    resource: str,
    n: int | str,
    rect: pygame.Rect,
    size: int,
    colour: theme.Colour = theme.TEXT,
    box: pygame.Rect | None = None,
    *,
    bold: bool = False,
) -> None:
    """An icon with a count beside it (``n``: a number or a text like ``2/3``), left-aligned
    in ``rect``: the icon as tall as the text's capitals allow, the count after it."""
    if box is not None:
        shape_inside(surface, rect, box, f"the {resource} count {n}")
    side = min(rect.height, max(8, round(size * 0.9)))
    icon = pygame.Rect(rect.x, rect.centery - side // 2, side, side)
    resource_icon(surface, resource, icon, box if box is not None else rect)
    gap = max(2, side // 6)
    text_r = pygame.Rect(icon.right + gap, rect.y, rect.right - icon.right - gap, rect.height)
    draw_text(surface, str(n), text_r, size, colour, bold=bold, align="left", lines=1)


def amount_width(n: int | str, size: int, *, bold: bool = False) -> int:
    """The width ``amount`` needs for ``n`` at ``size``."""
    from .fonts import font

    side = max(8, round(size * 0.9))
    return side + max(2, side // 6) + font(size, bold).size(str(n))[0]


def _rows(
    items: Sequence[tuple[str, int | str]], width: int, size: int, gap: int, bold: bool
) -> list[list[tuple[str, int | str, int]]]:
    rows: list[list[tuple[str, int | str, int]]] = [[]]
    used = 0
    for resource, n in items:
        w = amount_width(n, size, bold=bold)
        if rows[-1] and used + gap + w > width:
            rows.append([])
            used = 0
        used += (gap if rows[-1] else 0) + w
        rows[-1].append((resource, n, w))
    return rows


def row_height(size: int, *, bold: bool = False) -> int:
    """The height of one row of ``amounts`` at ``size``: the text's (ascenders to
    descenders), with a little room."""
    from .fonts import font

    top, bottom = ink(font(size, bold), ["0"])
    return max(max(8, round(size * 0.9)), top - bottom) + max(2, size // 8)


def amounts_height(items: Sequence[tuple[str, int | str]], width: int, size: int,
                   *, bold: bool = False) -> int:
    """The height ``amounts`` needs for ``items`` in ``width`` pixels at ``size``."""
    if not items:
        return 0
    return len(_rows(items, width, size, max(3, size // 3), bold)) * row_height(size, bold=bold)


def amounts(
    surface: pygame.Surface,
    items: Sequence[tuple[str, int | str]],
    area: pygame.Rect,
    size: int,
    colour: theme.Colour = theme.TEXT,
    *,
    bold: bool = False,
    align: str = "left",
) -> int:
    """Icons with their counts (``items``: resource, count) left to right in ``area``, on as
    many rows as they need (each checked against ``area``); the height used."""
    gap = max(3, size // 3)
    rows = _rows(items, area.width, size, gap, bold)
    row_h = row_height(size, bold=bold)
    y = area.y + max(0, (area.height - len(rows) * row_h) // 2)
    for row in rows:
        total = sum(w for _r, _n, w in row) + gap * (len(row) - 1)
        x = {"left": area.x, "right": area.right - total}.get(
            align, area.x + (area.width - total) // 2
        )
        for resource, n, w in row:
            amount(surface, resource, n, pygame.Rect(x, y, w, row_h), size, colour, area,
                   bold=bold)
            x += w + gap
        y += row_h
    return len(rows) * row_h if items else 0


__all__ = [
    "SHAPES",
    "amount",
    "amount_width",
    "amounts",
    "amounts_height",
    "outline",
    "resource_icon",
    "row_height",
]
