"""The kiosk's caches of laid-out, rendered and placed texts (``textcache``): a cached text
draws the same pixels as a fresh one, a change of any input (language, colour, box, font)
draws it anew, and the memory they hold stays within its limits."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.kiosk import fonts, i18n, linebreak, textcache, theme, ui  # noqa: E402
from companion.kiosk.textcache import LRU  # noqa: E402

TEXTS = [
    ("Hire the stone mason (round 1) for two gold", "en"),
    ("石切職人（ラウンド1）を雇用します。", "ja"),
    ("轮到红方决定：雇用石匠", "zh"),
]


@pytest.fixture(autouse=True)
def display(monkeypatch: pytest.MonkeyPatch) -> Iterator[pygame.Surface]:
    # drawn as the kiosk draws (a test before may have left a recording or the glyph check on:
    # `companion screenshots` turns that on for its process)
    monkeypatch.setattr(ui, "CHECK_GLYPHS", False)
    monkeypatch.setattr(ui, "DRAWN", None)
    monkeypatch.setattr(linebreak, "RECORD", None)
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((800, 480))
    textcache.clear()
    yield screen
    textcache.clear()


def drawn(text: str, rect: pygame.Rect, colour: theme.Colour = theme.TEXT,
          **kw: object) -> bytes:
    """The pixels of ``text`` drawn in ``rect`` on a fresh copy of the screen's background."""
    surface = pygame.display.get_surface().copy()
    surface.fill(theme.PANEL)
    ui.draw_text(surface, text, rect, 28, colour, **kw)  # type: ignore[arg-type]
    return pygame.image.tobytes(surface, "RGB")


def fresh(text: str, rect: pygame.Rect, colour: theme.Colour = theme.TEXT,
          **kw: object) -> bytes:
    """The same, with every cache emptied first (as the first frame draws it)."""
    textcache.clear()
    return drawn(text, rect, colour, **kw)


def test_a_cached_text_draws_the_same_pixels_as_a_fresh_one() -> None:
    for text, lang in TEXTS:
        i18n.set_language(lang)
        for rect in (pygame.Rect(10, 10, 500, 60), pygame.Rect(30, 40, 160, 140)):
            for align in ("left", "center", "right"):
                cold = fresh(text, rect, align=align)
                hits = textcache.PLACED.hits
                assert drawn(text, rect, align=align) == cold
                assert textcache.PLACED.hits == hits + 1  # the second came from the cache
                hits = textcache.LAYOUTS.hits
                moved = rect.move(7, 3)  # elsewhere: placed anew, from the kept layout
                there = drawn(text, moved, align=align)
                assert textcache.LAYOUTS.hits == hits + 1
                assert there == fresh(text, moved, align=align)


def test_a_cached_text_is_drawn_anew_when_its_language_changes() -> None:
    """The same string in another language: another font file (the Chinese subset instead of
    the Japanese one) and BudouX's other model: never the cached rows or pixels."""
    text = "石切職人（ラウンド1）を雇用します。決定"
    rect = pygame.Rect(20, 20, 200, 120)
    i18n.set_language("ja")
    ja = drawn(text, rect)
    assert drawn(text, rect) == ja  # cached
    i18n.set_language("zh")
    zh = drawn(text, rect)
    assert zh != ja
    assert zh == fresh(text, rect)
    i18n.set_language("ja")
    assert drawn(text, rect) == ja == fresh(text, rect)


def test_a_cached_text_is_drawn_anew_when_its_colour_changes() -> None:
    text, rect = "Confirm", pygame.Rect(20, 20, 300, 60)
    plain = drawn(text, rect)
    accent = drawn(text, rect, theme.ACCENT)
    assert accent != plain
    assert accent == fresh(text, rect, theme.ACCENT)
    assert drawn(text, rect, pygame.Color(*theme.ACCENT)) == accent  # a Color is a colour too
    assert drawn(text, rect) == plain == fresh(text, rect)


def test_a_cached_text_is_laid_out_anew_when_its_box_changes() -> None:
    text = "Hire the stone mason for two gold"
    wide, narrow = pygame.Rect(20, 20, 600, 100), pygame.Rect(20, 20, 150, 100)
    one = ui.draw_text(pygame.display.get_surface(), text, wide, 28)
    two = ui.draw_text(pygame.display.get_surface(), text, narrow, 28)
    assert one.height < two.height  # wrapped on more lines in the narrow box
    assert drawn(text, narrow) == fresh(text, narrow)
    assert drawn(text, wide) == fresh(text, wide)
    # the box's place changes no layout: the same rows, moved
    assert ui.draw_text(pygame.display.get_surface(), text, narrow.move(100, 50), 28) == (
        two.move(100, 50))


def test_a_cached_text_follows_a_moved_font_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    text, rect = "Hire the stone mason", pygame.Rect(20, 20, 400, 60)
    bundled = drawn(text, rect)
    monkeypatch.setattr(fonts, "FONT_DIR", tmp_path)
    monkeypatch.setattr(fonts, "SYSTEM_FONT_DIR", tmp_path)
    monkeypatch.setattr(fonts, "_warned", True)
    default = drawn(text, rect)  # pygame's default font now
    assert default != bundled
    monkeypatch.undo()
    assert drawn(text, rect) == bundled


def test_what_a_drawing_records_is_recorded_from_the_cache_too() -> None:
    """Overflows, the rows drawn (linebreak.RECORD) and the texts drawn (ui.DRAWN) are
    recorded at every draw, not only at the first (when the layout is worked out)."""
    surface = pygame.display.get_surface()
    long = "a text far too long for its little box, whatever its size " * 3
    ui.OVERFLOWS.clear()
    linebreak.RECORD = []
    ui.DRAWN = []
    try:
        for _ in range(2):
            ui.draw_text(surface, long, pygame.Rect(10, 10, 120, 40), 20)
            ui.draw_text(surface, "two words", pygame.Rect(10, 100, 60, 80), 20)
        assert len(ui.OVERFLOWS) == 2 and ui.OVERFLOWS[0] == ui.OVERFLOWS[1]
        finals = [r for r in linebreak.RECORD if r[0] == "two words"]
        assert finals[-1] == ("two words", "en", 60, ["two", "words"])
        assert [str(d) for d in ui.DRAWN] == [long, "two words"] * 2
        assert ui.DRAWN[0].rect == ui.DRAWN[2].rect and ui.DRAWN[1].size == ui.DRAWN[3].size
    finally:
        linebreak.RECORD = None
        ui.DRAWN = None
        ui.OVERFLOWS.clear()


def test_the_fit_answers_follow_the_language_and_the_box() -> None:
    surface = pygame.display.get_surface()
    text = "Hire the stone mason"
    assert ui.fits(surface, text, pygame.Rect(0, 0, 400, 40), 20, lines=1)
    assert not ui.fits(surface, text, pygame.Rect(0, 0, 60, 40), 20, lines=1)
    assert ui.fits(surface, text, pygame.Rect(0, 0, 400, 40), 20, lines=1)  # cached, same
    one = ui.text_height(surface, 20)
    assert ui.text_height(surface, 20, lines=2) > one == ui.text_height(surface, 20)


def test_the_caches_stay_within_their_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing many different texts keeps at most the limit's bytes of rendered rows and the
    limit's number of layouts, the most recently used kept."""
    monkeypatch.setattr(textcache.IMAGES, "limit", 200_000)
    monkeypatch.setattr(textcache.PLACED, "limit", 200_000)
    monkeypatch.setattr(textcache.LAYOUTS, "limit", 50)
    surface = pygame.display.get_surface()
    for k in range(300):
        ui.draw_text(surface, f"count {k}", pygame.Rect(10, 10, 300, 50), 30)
        assert textcache.IMAGES.weight <= 200_000 and textcache.PLACED.weight <= 200_000
        assert len(textcache.LAYOUTS) <= 50
    hits = textcache.LAYOUTS.hits
    ui.draw_text(surface, "count 299", pygame.Rect(20, 60, 300, 50), 30)  # elsewhere, same box
    assert textcache.LAYOUTS.hits == hits + 1  # the latest is kept
    misses = textcache.LAYOUTS.misses
    ui.draw_text(surface, "count 0", pygame.Rect(20, 60, 300, 50), 30)
    assert textcache.LAYOUTS.misses == misses + 1  # the oldest was let go


def test_an_lru_forgets_the_least_recently_used_first() -> None:
    cache: LRU[str] = LRU("test", 10, len)
    try:
        cache.put("a", "aaaa")
        cache.put("b", "bbbb")
        assert cache.get("a") == "aaaa"  # now the most recently used
        cache.put("c", "cccc")  # 12 > 10: "b" goes
        assert cache.get("b") is None and cache.get("a") == "aaaa" and cache.weight == 8
        cache.put("a", "a")  # replaced: its weight too
        assert cache.weight == 5
        assert cache.put("d", "d" * 11) == "d" * 11 and cache.get("d") is None  # too heavy
        cache.clear()
        assert len(cache) == 0 and cache.weight == 0
        with pytest.raises(ValueError, match="at least 1"):
            LRU("bad", 0)
    finally:
        textcache.CACHES.remove(cache)


def test_a_font_from_before_pygame_quit_is_never_used_after_it() -> None:
    """pygame.quit() closes every font; a kept one used after pygame.init() crashed the
    process (a segmentation fault in its metrics, seen when a cached text was checked for
    missing glyphs).  The fonts and what was drawn with them are let go at pygame.quit()."""
    from companion.kiosk.fonts import font

    before = font(20)
    ui.draw_text(pygame.display.get_surface(), "kept", pygame.Rect(0, 0, 200, 40), 20)
    assert len(textcache.LAYOUTS) == 1
    pygame.quit()
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((800, 480))
    after = font(20)
    assert after is not before and len(textcache.LAYOUTS) == 0
    assert after.metrics("kept")[0] is not None
    pygame.quit()  # and again: pygame forgets a quit function once called
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((800, 480))
    assert font(20) is not after


def test_a_text_drawn_again_in_its_place_records_what_it_recorded() -> None:
    """A text drawn again in the same place is blitted as placed (``textcache.PLACED``): its
    overflows are recorded again every time, and under another clip it is placed anew."""
    surface = pygame.display.get_surface()
    long = "a text far too long for its little box, whatever its size " * 3
    box = pygame.Rect(10, 10, 120, 40)
    ui.OVERFLOWS.clear()
    try:
        first = ui.draw_text(surface, long, box, 20)
        hits = textcache.PLACED.hits
        assert ui.draw_text(surface, long, box, 20) == first
        assert textcache.PLACED.hits == hits + 1
        assert len(ui.OVERFLOWS) == 2 and ui.OVERFLOWS[0] == ui.OVERFLOWS[1]
        low = pygame.Rect(10, 470, 300, 40)  # past the screen's bottom: cut off
        ui.OVERFLOWS.clear()
        for _ in range(2):
            ui.draw_text(surface, "cut", low, 30)
        assert [o for o in ui.OVERFLOWS if "cut off" in o] == [
            f"'cut' in {tuple(low)} is cut off by the screen"] * 2
        ui.OVERFLOWS.clear()
        surface.set_clip(pygame.Rect(0, 0, 800, 300))  # a scrolled view: it clips, by design
        ui.draw_text(surface, "cut", low, 30)
        assert ui.OVERFLOWS == []
    finally:
        surface.set_clip(None)
        ui.OVERFLOWS.clear()


def test_a_text_placed_before_draws_the_pixels_of_a_fresh_one_under_a_clip() -> None:
    text, rect = "Hire the stone mason (round 1)", pygame.Rect(20, 20, 260, 60)

    def draw(clip: pygame.Rect | None) -> bytes:
        s = pygame.display.get_surface().copy()
        s.fill(theme.PANEL)
        s.set_clip(clip)
        ui.draw_text(s, text, rect, 28)
        return pygame.image.tobytes(s, "RGB")

    for clip in (None, pygame.Rect(0, 0, 150, 480), pygame.Rect(0, 35, 800, 20)):
        textcache.clear()
        cold = draw(clip)
        assert draw(clip) == cold  # placed
