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
    matrix = qr_matrix(text)
    n = len(matrix) + 8  # a quiet zone of 4 modules each side
    module = max(1, min(rect.width, rect.height) // n)
    side = module * n
    area = pygame.Rect(0, 0, side, side)
    area.center = rect.center
    pygame.draw.rect(surface, (255, 255, 255), area)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                pygame.draw.rect(
                    surface,
                    (0, 0, 0),
                    (area.x + (x + 4) * module, area.y + (y + 4) * module, module, module),
                )
    return area
