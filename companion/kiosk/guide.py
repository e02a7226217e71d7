"""The set-up guide's content: a game's set-up as steps a table follows with the box open, each
with a drawing (the board with the step's places lit, and the pieces it lays out, counted for
this table), and the pieces drawn in pygame (no scanned artwork).

A game gives its guide through its spec (``GameSpec.guide``: a loader of a function from the
set-up and the deck setting to the list of :class:`GuideStep`); the screen that shows it is
``screens/guide.py``.  The last step of every guide leads to the table, whose first hand-out
step hands out each seat's starting holdings (``HandOutPlan.start_steps``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from . import icons, theme
from .boardmap import BoardMap
from .ui import draw_text, fits, min_text, text_height


@dataclass(frozen=True)
class Piece:
    """Some pieces the step lays out: ``kind`` (a resource of ``icons.SHAPES``, or
    ``card``, ``builder``, ``worker``, ``die``, ``coin``), how many, and the player colour
    they belong to ("" for none)."""

    kind: str
    count: int
    colour: str = ""
    label: str = ""
    """What the pieces are, in words, under them (``privilege cards``)."""


@dataclass(frozen=True)
class GuideStep:
    """One step of a set-up guide: its title, what the table does (one line each), the
    board with ``places`` lit (None: no board on this step), and the pieces it lays out."""

    title: str
    lines: tuple[str, ...]
    board: BoardMap | None = None
    places: tuple[str, ...] = ()
    pieces: tuple[Piece, ...] = ()


Guide = Callable[[Any, bool], Sequence[GuideStep]]
"""A game's guide: the steps for a set-up (``companion.engine.Setup``) with the virtual deck
on or off."""


def guide_for(game: str) -> Guide | None:
    """The guide the game declares in its spec (None: the game has none)."""
    from companion.engine.registry import spec

    load = spec(game).guide
    return None if load is None else load()


# -- drawing the pieces -----------------------------------------------------------------------


def draw_pieces(surface: pygame.Surface, rect: pygame.Rect, pieces: Sequence[Piece]) -> None:
    """The pieces side by side in ``rect``: each kind as one drawing with its count (``×23``)
    and its words under it, as many as fit."""
    if not pieces:
        return
    smallest = min_text(surface)
    count_h = text_height(surface, smallest, bold=True)
    label_h = text_height(surface, smallest, lines=2) if any(p.label for p in pieces) else 0
    cell_w = rect.width // len(pieces)
    side = max(8, min(cell_w * 3 // 5, rect.height - count_h - label_h, smallest * 6))
    top = rect.y + (rect.height - side - count_h - label_h) // 2
    for k, piece in enumerate(pieces):
        cell = pygame.Rect(rect.x + k * cell_w, top, cell_w, side + count_h + label_h)
        icon = pygame.Rect(0, 0, side, side)
        icon.midtop = (cell.centerx, cell.y)
        draw_piece(surface, icon, piece)
        count = pygame.Rect(cell.x, icon.bottom, cell.width, count_h)
        draw_text(surface, f"×{piece.count}", count, smallest, theme.TEXT, bold=True, lines=1)
        words = pygame.Rect(cell.x + 2, count.bottom, cell.width - 4, label_h)
        if piece.label and fits(surface, piece.label, words, smallest, lines=2):
            draw_text(surface, piece.label, words, smallest, theme.MUTED, lines=2)


def draw_piece(surface: pygame.Surface, rect: pygame.Rect, piece: Piece) -> None:
    """One piece of ``piece.kind`` filling the square ``rect``."""
    colour = theme.PLAYER.get(piece.colour, theme.MUTED)
    drawings: dict[str, Callable[[pygame.Surface, pygame.Rect, theme.Colour], None]] = {
        "card": _card, "builder": _builder, "worker": _worker, "die": _die, "coin": _coin,
        "bag": _bag,
    }
    if piece.kind in icons.SHAPES:
        icons.resource_icon(surface, piece.kind, rect, rect)
    elif piece.kind in drawings:
        drawings[piece.kind](surface, rect, colour)
    else:
        raise ValueError(f"no drawing for the piece {piece.kind!r}")


def _card(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour) -> None:
    """Three cards fanned: a stack."""
    w, h = rect.width * 5 // 8, rect.height * 7 // 8
    for k in range(3):
        r = pygame.Rect(rect.x + k * rect.width // 8, rect.y + (2 - k) * rect.height // 32,
                        w, h)
        pygame.draw.rect(surface, theme.TEXT, r, border_radius=max(2, w // 10))
        pygame.draw.rect(surface, theme.OUTLINE, r, width=max(1, w // 24),
                         border_radius=max(2, w // 10))


def _builder(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour) -> None:
    """A master builder: a tall pawn with a round head."""
    cx = rect.centerx
    head = rect.width // 6
    pygame.draw.circle(surface, colour, (cx, rect.y + head + 2), head)
    body = [(cx - rect.width // 4, rect.bottom - 2), (cx + rect.width // 4, rect.bottom - 2),
            (cx + rect.width // 10, rect.y + head * 2), (cx - rect.width // 10, rect.y + head * 2)]
    pygame.draw.polygon(surface, colour, body)
    pygame.draw.polygon(surface, theme.OUTLINE, body, width=1)


def _worker(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour) -> None:
    """A worker: a small cube with a top face."""
    side = rect.width * 3 // 5
    front = pygame.Rect(rect.x + rect.width // 10, rect.bottom - side - 2, side, side)
    top = [(front.x, front.y), (front.x + side // 3, front.y - side // 3),
           (front.right + side // 3, front.y - side // 3), (front.right, front.y)]
    pygame.draw.rect(surface, colour, front)
    pygame.draw.polygon(surface, tuple(min(255, c + 40) for c in colour), top)
    pygame.draw.rect(surface, theme.OUTLINE, front, width=1)


def _die(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour) -> None:
    """The tax die showing 5."""
    side = rect.width * 4 // 5
    face = pygame.Rect(0, 0, side, side)
    face.center = rect.center
    pygame.draw.rect(surface, theme.TEXT, face, border_radius=max(2, side // 6))
    r = max(2, side // 10)
    for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
        pygame.draw.circle(surface, theme.OUTLINE,
                           (face.centerx + dx * side // 4, face.centery + dy * side // 4), r)


def _coin(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour) -> None:
    """A coin."""
    r = rect.width * 2 // 5
    pygame.draw.circle(surface, theme.RESOURCE["gold"], rect.center, r)
    pygame.draw.circle(surface, theme.OUTLINE, rect.center, r, width=max(1, r // 6))
    pygame.draw.circle(surface, theme.OUTLINE, rect.center, r * 3 // 5, width=1)


def _bag(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour) -> None:
    """The cloth bag: a rounded sack tied at the top."""
    r = rect.width * 2 // 5
    centre = (rect.centerx, rect.bottom - r - 2)
    pygame.draw.circle(surface, (150, 110, 70), centre, r)
    neck = [(rect.centerx - r // 3, centre[1] - r + 2), (rect.centerx + r // 3, centre[1] - r + 2),
            (rect.centerx + r // 2, rect.y + 2), (rect.centerx - r // 2, rect.y + 2)]
    pygame.draw.polygon(surface, (150, 110, 70), neck)
    for k in range(3):
        angle = math.pi * (0.3 + 0.2 * k)
        pygame.draw.line(surface, theme.OUTLINE,
                         (rect.centerx - int(r // 2 * math.cos(angle)), centre[1] - r + 4),
                         (rect.centerx + int(r // 2 * math.cos(angle)), centre[1] - r + 4), 1)


__all__ = ["Guide", "GuideStep", "Piece", "draw_piece", "draw_pieces", "guide_for"]
