"""The kiosk's fonts: the bundled subsets load and cover their texts; wrapping and fitting."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]  # noqa: E402
from hypothesis import example, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from companion.kiosk import fonts, i18n  # noqa: E402
from companion.kiosk.fonts import fit, font, text_fits  # noqa: E402
from companion.kiosk.linebreak import wrap  # noqa: E402
from tests.sweeps import examples, sweep_params  # noqa: E402

SAMPLE = "建筑师 マスタービルダー Master builder"


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    pygame.font.init()
    yield
    fonts.clear_cache()


def _cmap(path: Path) -> set[int]:
    return set(TTFont(str(path), lazy=True).getBestCmap())


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("family", ["sc", "jp"])
def test_the_subsets_are_bundled_cff_fonts(family: str, bold: bool) -> None:
    path = fonts.subset_file(family, bold)
    assert path.is_file(), "run .venv/bin/python tools/build_fonts.py"
    assert path.parent == Path(__file__).resolve().parents[1] / "assets" / "fonts"
    assert path.stat().st_size < 3_000_000
    face = TTFont(str(path), lazy=True)
    assert "CFF " in face
    assert face["name"].getDebugName(1).startswith("Noto Sans CJK")
    assert (path.parent / "OFL.txt").is_file()


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_fonts_load_and_are_cached(lang: str, bold: bool) -> None:
    path = fonts.font_path(lang, bold)
    assert path == fonts.subset_file(fonts.FAMILIES[lang], bold)
    f = font(24, bold, lang)
    assert isinstance(f, pygame.font.Font)
    assert font(24, bold, lang) is f
    assert f.size("Master builder")[1] > 0
    i18n.set_language(lang)
    assert font(24, bold) is f  # lang defaults to the current language


def test_english_and_japanese_share_the_jp_subset_chinese_uses_sc() -> None:
    assert fonts.FAMILIES == {"zh": "sc", "ja": "jp", "en": "jp"}
    assert font(20, lang="en") is font(20, lang="ja")
    assert font(20, lang="zh") is not font(20, lang="ja")


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_sample_renders_without_missing_glyphs(lang: str, bold: bool) -> None:
    path = fonts.font_path(lang, bold)
    assert path is not None
    cmap = _cmap(path)
    assert all(ord(ch) in cmap for ch in SAMPLE)
    f = font(32, bold, lang)
    assert fonts.missing_glyphs(SAMPLE, f) == ""
    surface = f.render(SAMPLE, True, (255, 255, 255))
    assert surface.get_width() > 0
    # The check itself sees a missing glyph: a private-use character and a JIS level-2 kanji
    # that no catalog uses (not in the SC subset's GB2312 set nor the JP subset's level 1).
    assert fonts.missing_glyphs("\ue001鬱", f) == "\ue001鬱"


def test_the_glyph_check_agrees_with_the_cmap() -> None:
    for family in ("sc", "jp"):
        cmap = _cmap(fonts.subset_file(family))
        f = font(18, family=family)
        sample = [chr(c) for c in range(0x4E00, 0x9FA0, 97)] + list("Aé€—「」・ー가")
        for ch in sample:
            assert fonts.has_glyph(f, ch) == (ord(ch) in cmap), (family, ch)


def test_font_for_picks_the_subset_that_has_the_name() -> None:
    i18n.set_language("ja")
    name = "张伟"  # simplified hanzi: in GB2312, not in JIS X 0208
    assert fonts.missing_glyphs(name, font(20)) != ""
    assert fonts.font_for(name, 20) is font(20, family="sc")
    assert fonts.font_for("Ken", 20) is font(20)
    i18n.set_language("zh")
    assert fonts.font_for("张伟", 20) is font(20)


def test_fallbacks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(fonts, "FONT_DIR", tmp_path)
    monkeypatch.setattr(fonts, "_warned", False)
    fonts.clear_cache()
    system = fonts.system_file()
    with caplog.at_level(logging.WARNING, logger="companion.kiosk.fonts"):
        first = fonts.font_path("zh")
        fonts.font_path("ja", bold=True)
    assert first == (system if system.is_file() else None)
    assert len(caplog.records) == 1  # one warning, however many fonts are asked for
    assert isinstance(font(20, lang="zh"), pygame.font.Font)
    monkeypatch.setattr(fonts, "SYSTEM_FONT_DIR", tmp_path)
    fonts.clear_cache()
    assert fonts.font_path("zh") is None
    default = font(20, bold=True, lang="zh")
    assert isinstance(default, pygame.font.Font) and default.get_bold()
    assert wrap("Master builder", default, 60)


# -- measuring, wrapping, fitting ------------------------------------------------------------

TEXTS = [
    SAMPLE,
    "The start player draws a master builder from the bag and places it or passes.",
    "放置第一个需要7黄金，每抽出一个建筑师，费用减少1。布袋抽空后，放弃的建筑师免费放置。",
    "引いたマスタービルダーを空いているスペースに置いて現在のコストを払うか、パスします。",
    "Mason (round 2) 泥瓦匠（第2轮） 石工（ラウンド2） Supercalifragilisticexpialidocious",
]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_wrap_never_exceeds_the_width(lang: str) -> None:
    f = font(22, lang=lang)
    widest_char = max(f.size(ch)[0] for t in TEXTS for ch in t)
    for text in TEXTS:
        for width in range(widest_char, 700, 13):
            lines = wrap(text, f, width)
            assert lines and all(f.size(line)[0] <= width for line in lines), (text, width)
            # Nothing is lost: only the spaces at the breaks go.
            assert "".join(lines).replace(" ", "") == text.replace(" ", "")
            assert all(line == line.strip() for line in lines)


def test_latin_wraps_at_spaces() -> None:
    f = font(20)
    text = "Tap the card the table revealed to continue the round"
    lines = wrap(text, f, f.size("Tap the card the")[0] + 2)
    assert lines[0] == "Tap the card the"
    assert " ".join(lines) == text
    assert all(w in text.split() for line in lines for w in line.split())


def test_closing_punctuation_never_starts_a_line() -> None:
    f = font(20, lang="ja")
    text = "資源は最大5個までしか残せません。返却する資源を選んでください。「大聖堂」（完成）"
    for width in range(3 * 20, 500, 5):
        for line in wrap(text, f, width)[1:]:
            assert line[0] not in fonts.NO_LINE_START, (width, line)
        for line in wrap(text, f, width)[:-1]:
            assert line[-1] not in fonts.NO_LINE_END, (width, line)


def test_a_long_word_breaks_by_character() -> None:
    f = font(20)
    word = "Supercalifragilisticexpialidocious"
    width = f.size(word)[0] // 3
    lines = wrap("a " + word + " b", f, width)
    assert "".join(lines).replace(" ", "") == "a" + word + "b"
    assert all(f.size(line)[0] <= width for line in lines)
    assert len(lines) >= 3


def test_wrap_keeps_newlines_and_gives_nothing_for_nothing() -> None:
    f = font(20)
    assert wrap("", f, 100) == []
    assert wrap("one\n\ntwo", f, 500) == ["one", "", "two"]
    assert wrap("  spaced   out  ", f, 500) == ["spaced out"]


def test_text_fits() -> None:
    f = font(20)
    width = f.size("Confirm")[0]
    assert text_fits("Confirm", f, width)
    assert not text_fits("Confirm", f, width - 1)


def _size_of(f: pygame.font.Font, bold: bool = False, lang: str | None = None) -> int:
    """The size ``f`` was loaded at, as the font cache keeps it (asking ``font`` for every
    size until one is ``f`` loaded fifty fonts a call)."""
    name = fonts.font_name(lang, bold)
    return next(size for (kept_name, size, kept_bold), kept in fonts._cache.items()
                if kept is f and kept_name == name and kept_bold == bold)


@pytest.mark.parametrize("text", ["Best conversion", "最佳转换", "マスタービルダー"])
def test_fit_finds_the_largest_size(text: str) -> None:
    for width in (40, 90, 150, 400):
        f = fit(text, width, 48, 10)
        size = _size_of(f)
        assert 10 <= size <= 48
        if size > 10:
            assert text_fits(text, f, width)
        if size < 48:
            assert not text_fits(text, font(size + 1), width)


def test_fit_gives_the_minimum_when_nothing_fits_and_the_maximum_when_all_do() -> None:
    assert _size_of(fit("Supercalifragilisticexpialidocious", 20, 40, 12)) == 12
    assert _size_of(fit("OK", 500, 40, 12)) == 40
    assert _size_of(fit("建筑师", 500, 30, 10, bold=True, lang="zh"), True, "zh") == 30


_ALPHABET = "abcXYZ019 ,.!?()·—建筑师大教堂。，、（）「」マスタービルダーぁっャー\n"


@pytest.mark.parametrize("sweep", sweep_params())
def test_wrap_property(sweep: str) -> None:
    f = font(18, lang="ja")

    @examples(sweep, 150)
    @given(text=st.text(alphabet=_ALPHABET, max_size=80), width=st.integers(0, 400))
    @example(text=".スャ", width=23)  # a clause's end, then a pair no line may start between
    def check(text: str, width: int) -> None:
        width = max(width, max((f.size(ch)[0] for ch in text), default=0))
        lines = wrap(text, f, width)
        assert all(f.size(line)[0] <= width for line in lines)
        assert "".join("".join(lines).split()) == "".join(text.split())

    check()
