"""QR codes drawn with pygame (the BG Stats link at the end of a game)."""

from __future__ import annotations

from functools import lru_cache

import pygame


@lru_cache(maxsize=4)
def qr_matrix(text: str) -> list[list[bool]]:
    """The modules of a QR code for ``text``, without border.  Low error correction keeps the
    code as small as possible: a screen shows it sharp, and a phone reads it best large.
    Cached: the end screen redraws the same code.  Raises segno's DataOverflowError (a
    ValueError) for a text too long for any QR code."""
    import segno

    code = segno.make(text, error="l", micro=False, boost_error=False)
    return [[bool(v) for v in row] for row in code.matrix]


def draw_qr(surface: pygame.Surface, text: str, rect: pygame.Rect) -> pygame.Rect:
    """Draw the code as large as fits in ``rect`` (square, with a quiet zone); the area used."""
    n = len(qr_matrix(text)) + 8  # a quiet zone of 4 modules each side
    module = max(1, min(rect.width, rect.height) // n)
    area = pygame.Rect(0, 0, module * n, module * n)
    area.center = rect.center
    surface.blit(_code(text, module), area)
    return area


@lru_cache(maxsize=4)
def _code(text: str, module: int) -> pygame.Surface:
    """The code with its quiet zone, ``module`` pixels a module: drawn a pixel a module, then
    scaled by a whole number (each module exactly ``module`` pixels square, as drawn one
    rectangle a module before, which took 6 ms a frame for a BG Stats link's 5 900 modules
    here: a Pi's 16 ms frame budget)."""
    matrix = qr_matrix(text)
    n = len(matrix) + 8
    small = pygame.Surface((n, n))
    small.fill((255, 255, 255))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                small.set_at((x + 4, y + 4), (0, 0, 0))
    return pygame.transform.scale(small, (n * module, n * module))
