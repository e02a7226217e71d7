"""QR codes drawn with pygame (the BG Stats link at the end of a game)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pygame


@lru_cache(maxsize=4)
def qr_matrix(text: str) -> list[list[bool]]:
    """The modules of a QR code for ``text``, without border.  Low error correction keeps the
    code as small as possible: a screen shows it sharp, and a phone reads it best large.
    Cached: the end screen redraws the same code.  Raises segno's DataOverflowError (a
    ValueError) for a text too long for any QR code.

    The code is segno's, module for module; only the choice of its data mask (ISO/IEC 18004
    7.8.3: the pattern with the lowest penalty) is made here (:func:`best_mask`), on whole
    rows at once, where segno scores the eight patterns a module at a time: that took more
    than half the time of a BG Stats link's code (a finished 4-player game's link, about 1,000
    characters: 59 ms of CPU here, now 27 ms, ``bench/bench_kiosk.py qr``; a Pi is several
    times slower, and the end screen opens with it).  Should segno's steps this reaches change
    in a later version, segno chooses the mask itself, as before."""
    import segno

    code = segno.make(text, mask=0, **_OPTIONS)
    try:
        matrix = _masked(code)
    except (AttributeError, TypeError, ImportError):  # segno's own steps changed: its way
        matrix = segno.make(text, **_OPTIONS).matrix
    return [[bool(v) for v in row] for row in matrix]


_OPTIONS: dict[str, Any] = {"error": "l", "micro": False, "boost_error": False}
"""How the code is made (``segno.make``'s options): low error correction, never a micro code."""


def _masked(code: Any) -> Any:
    """The rows of ``code`` (made with mask 0) with the best mask instead, its format written
    by segno's own step."""
    from segno import consts
    from segno import encoder as steps

    encoder: Any = steps  # (segno's own steps, untyped)
    matrix = code.matrix
    n = len(matrix)
    rows = _rows(matrix)
    mask = _best(rows, n)
    if mask != 0:  # the data modules masked with ``mask`` instead, and its format written
        data, _blank, patterns = _layout(n)
        turned = [r ^ ((p0 ^ p) & d) for r, p0, p, d in
                  zip(rows, patterns[0], patterns[mask], data, strict=True)]
        matrix = tuple(bytearray(format(r, f"0{n}b").encode().translate(_MODULES))
                       for r in turned)
        encoder.add_format_info(matrix, code.version, consts.ERROR_LEVEL_L, mask)
    return matrix


_MODULES = bytes.maketrans(b"01", b"\x00\x01")


def _rows(matrix: Any) -> list[int]:
    """The rows of ``matrix`` (rows of 0 and 1) as bits, module ``j`` at bit ``n - 1 - j``."""
    return [int(bytes(row).translate(_DIGITS), 2) for row in matrix]


_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def _patterns(n: int) -> list[list[int]]:
    """The eight data mask patterns (ISO/IEC 18004 Table 10) of an ``n`` x ``n`` code, each a
    row of bits per row (module ``j`` at bit ``n - 1 - j``)."""
    conditions: tuple[Callable[[int, int], bool], ...] = (
        lambda i, j: (i + j) % 2 == 0,
        lambda i, j: i % 2 == 0,
        lambda i, j: j % 3 == 0,
        lambda i, j: (i + j) % 3 == 0,
        lambda i, j: (i // 2 + j // 3) % 2 == 0,
        lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
        lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
        lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
    )
    # Each repeats every six columns: a row is its first six modules over and over.
    return [[int(("".join("1" if dark(i, j) else "0" for j in range(6)) * (n // 6 + 1))[:n], 2)
             for i in range(n)] for dark in conditions]


@lru_cache(maxsize=8)
def _layout(n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """For a code ``n`` modules wide, each a row of bits per row: the data modules (those a
    mask changes), the modules blank while the masks are scored (the format and version
    areas, not yet written, and the dark module), and the eight patterns."""
    from segno import encoder as steps

    encoder: Any = steps  # (segno's own steps, untyped)
    function = encoder.make_matrix(n, n)  # 0x2: data; 0x0: light or reserved
    encoder.add_finder_patterns(function, n, n)
    encoder.add_alignment_patterns(function, n, n)
    dark_module = 1 << (n - 1 - 8)  # at row n - 8, column 8
    data = tuple(int(bytes(row).translate(_DATA), 2) for row in function)
    blank = tuple(int(bytes(row).translate(_BLANK), 2) | (dark_module if i == n - 8 else 0)
                  for i, row in enumerate(function))
    return data, blank, tuple(tuple(p) for p in _patterns(n))


# A function matrix's values (0x2: data, 0x0: light or reserved) as the digits of a row's bits.
_DATA = bytes(ord("1") if v > 0x1 else ord("0") for v in range(256))
_BLANK = bytes(ord("1") if v == 0x0 else ord("0") for v in range(256))


_RUN = re.compile("0{5,}|1{5,}")
_FINDER_LIKE = "1011101"


def best_mask(matrix: Any) -> int:
    """The data mask ISO/IEC 18004 7.8.3 chooses for the code ``matrix`` (rows of 0 and 1,
    made with mask 0): the first with the lowest penalty, each penalty counted as segno counts
    it (format and version areas blank, as before they are written)."""
    return _best(_rows(matrix), len(matrix))


def _best(rows: list[int], n: int) -> int:
    """:func:`best_mask` of the code whose rows (as bits, made with mask 0) are ``rows``."""
    data, blank, patterns = _layout(n)
    full = (1 << n) - 1
    base = [(r & ~b & full) ^ (p & d) for r, b, p, d in zip(rows, blank, patterns[0], data,
                                                             strict=True)]
    scores = [penalty([b ^ (p & d) for b, p, d in zip(base, pattern, data, strict=True)], n)
              for pattern in patterns]
    return scores.index(min(scores))


def penalty(rows: list[int], n: int) -> int:
    """The penalty of a masked code (rows of bits, module ``j`` at bit ``n - 1 - j``): runs of
    five or more modules alike (N1), 2x2 blocks alike (N2), finder-like patterns (N3) and the
    share of dark modules (N4), as ISO/IEC 18004 Table 11 and segno's count of them."""
    lines = [format(r, f"0{n}b") for r in rows]
    lines += ["".join(column) for column in zip(*lines, strict=True)]
    runs = _RUN.findall(" ".join(lines))  # (a space between the lines: no run spans two)
    n1 = sum(map(len, runs)) - 2 * len(runs)
    inner = (1 << (n - 1)) - 1  # modules 1 .. n - 1: each block's right column
    n2 = 0
    for above, row in zip(rows, rows[1:], strict=False):
        same = ~(above ^ row)
        n2 += (same & (same >> 1) & ~(row ^ (row >> 1)) & inner).bit_count()
    n3 = sum(_finder_like(line, n) for line in lines)
    dark = sum(r.bit_count() for r in rows)
    n4 = 10 * int(abs(float(dark) / (n**2) * 100 - 50) / 5)
    return n1 + 3 * n2 + n3 + n4


def _finder_like(line: str, n: int) -> int:
    """N3 of one row or column: 40 for each dark-light-dark x3-light-dark pattern with four
    light modules (or the edge) before or after it, found as segno finds them."""
    count = 0
    idx = line.find(_FINDER_LIKE)
    while idx != -1:
        offset = idx + 7
        if (idx in (0, n - 7) or "1" not in line[max(idx - 4, 0):min(idx, n)]
                or "1" not in line[max(offset, 0):min(offset + 4, n)]):
            count += 40
        else:  # not enough light beside it: the next match may start inside this one
            offset = idx + 4
        idx = line.find(_FINDER_LIKE, offset)
    return count


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
