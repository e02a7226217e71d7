"""Texts too long for their box are paged, never cut: an instruction, a hand-out's lines, a
step of the companion's turn.

``pages`` wraps each text at the size given (the display's smallest at least) and lays the
lines out page by page: a text that fits a page stays whole on one, one taller than a page is
split between its lines (the rest continues on the next page), so no number, unit or name is
ever hidden behind "…".  ``draw_piece`` draws a piece of a page, line by line, as
``draw_text`` would have wrapped it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from . import theme
from .fonts import font
from .linebreak import wrap
from .ui import draw_text, min_text, text_height

ARROW = " →"
"""What ends the last line of a page when its text goes on on the next."""


@dataclass(frozen=True)
class Piece:
    """Lines ``rows`` of text number ``index`` (its first line when ``first``; ``last``:
    its last line, else it goes on on the next page), ``height`` pixels tall."""

    index: int
    rows: tuple[str, ...]
    height: int
    first: bool = True
    last: bool = True


def pages(surface: pygame.Surface, texts: list[str], width: int, size: int, room: int,
          gap: int) -> list[list[Piece]]:
    """``texts`` wrapped to ``width`` at ``size`` and laid out in pages ``room`` pixels tall
    (``gap`` between two texts): a text stays whole on one page when it fits one."""
    size = max(size, min_text(surface))
    f = font(size)
    width -= f.size(ARROW)[0]  # room for the arrow of a text that goes on on the next page
    per_page = 1
    while per_page < 200 and text_height(surface, size, lines=per_page + 1) <= room:
        per_page += 1
    out: list[list[Piece]] = [[]]
    used = 0
    for k, text in enumerate(texts):
        rows = wrap(text, f, width)
        chunks = [rows[i:i + per_page] for i in range(0, len(rows), per_page)] or [[""]]
        for c, chunk in enumerate(chunks):
            h = text_height(surface, size, lines=len(chunk))
            if out[-1] and used + gap + h > room:
                out.append([])
                used = 0
            used += (gap if out[-1] else 0) + h
            out[-1].append(Piece(k, tuple(chunk), h, c == 0, c == len(chunks) - 1))
    return out


def draw_piece(surface: pygame.Surface, piece: Piece, rect: pygame.Rect, size: int,
               colour: theme.Colour = theme.TEXT) -> None:
    """The lines of ``piece`` from the top of ``rect``, left-aligned, as they were wrapped;
    one that goes on on the next page ends with an arrow."""
    size = max(size, min_text(surface))
    rows = list(piece.rows)
    if not piece.last:
        rows[-1] += ARROW
    draw_text(surface, "\n".join(rows), rect, size, colour, align="left", valign="top",
              lines=len(rows), min_size=size)


__all__ = ["Piece", "draw_piece", "pages"]
