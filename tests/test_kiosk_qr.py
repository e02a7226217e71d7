"""The BG Stats QR code: drawn a module a pixel and scaled, each module exactly as large as
one rectangle a module drew it, and readable."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.kiosk.qr import draw_qr, qr_matrix  # noqa: E402

LINK = "bgstats://app.import?data=" + "x" * 300


def _by_rectangles(surface: pygame.Surface, text: str, rect: pygame.Rect) -> pygame.Rect:
    """The code drawn one rectangle a module (what ``draw_qr`` drew before)."""
    matrix = qr_matrix(text)
    n = len(matrix) + 8
    module = max(1, min(rect.width, rect.height) // n)
    area = pygame.Rect(0, 0, module * n, module * n)
    area.center = rect.center
    pygame.draw.rect(surface, (255, 255, 255), area)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                pygame.draw.rect(surface, (0, 0, 0), (area.x + (x + 4) * module,
                                                      area.y + (y + 4) * module, module, module))
    return area


@pytest.mark.parametrize("box", [(10, 20, 300, 260), (0, 0, 97, 97), (5, 7, 40, 40)])
def test_the_code_is_the_same_as_drawn_a_rectangle_a_module(box: tuple[int, ...]) -> None:
    rect = pygame.Rect(box)
    a, b = pygame.Surface((320, 300)), pygame.Surface((320, 300))
    a.fill((40, 40, 60))
    b.fill((40, 40, 60))
    assert draw_qr(a, LINK, rect) == _by_rectangles(b, LINK, rect)
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def test_the_code_is_segnos_own_module_for_module() -> None:
    """The mask is chosen here (``best_mask``, on whole rows), the code made by segno: for
    texts of every size, from version 1 to codes with version information, the same mask as
    segno's own choice and the same modules."""
    import random
    import string

    import segno

    from companion.kiosk.qr import best_mask

    rng = random.Random(7)
    masks = set()
    for length in (1, 9, 17, 30, 45, 80, 120, 160, 230, 420, 900):
        text = "".join(rng.choice(string.ascii_letters + string.digits + "%&=?/:")
                       for _ in range(length))
        own = segno.make(text, error="l", micro=False, boost_error=False)
        assert qr_matrix(text) == [[bool(v) for v in row] for row in own.matrix], (length,
                                                                                   own.version)
        plain = segno.make(text, error="l", micro=False, boost_error=False, mask=0)
        assert best_mask(plain.matrix) == own.mask
        masks.add(own.mask)
    assert len(masks) >= 4  # the texts ask for several masks, not one


def test_a_text_too_long_for_any_code_is_refused() -> None:
    from segno import DataOverflowError

    with pytest.raises(DataOverflowError):
        qr_matrix("x" * 3000)


def test_without_segnos_steps_segno_chooses_the_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """A later segno without the steps ``qr_matrix`` reaches: the same code, segno's own way."""
    import segno

    from companion.kiosk import qr

    def moved(n: int) -> None:
        raise AttributeError("module 'segno.encoder' has no attribute 'make_matrix'")

    text = next(t for t in (f"bgstats://x?{k}" for k in range(50))
                if segno.make(t, error="l", micro=False, boost_error=False).mask != 0)
    own = segno.make(text, error="l", micro=False, boost_error=False)
    monkeypatch.setattr(qr, "_layout", moved)
    qr_matrix.cache_clear()
    assert qr_matrix(text) == [[bool(v) for v in row] for row in own.matrix]
    qr_matrix.cache_clear()
