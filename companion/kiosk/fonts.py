"""Fonts of the kiosk: one Noto Sans CJK family for English, Simplified Chinese and Japanese.

The fonts are subsets of Noto Sans CJK (SIL Open Font License 1.1) committed in
``assets/fonts/`` (see its README; ``tools/build_fonts.py`` rebuilds them):

* Chinese (``zh``) uses the SC subset: Latin, punctuation, kana and the GB2312 level-1 hanzi;
* Japanese (``ja``) and English (``en``) use the JP subset: the same with the JIS X 0208 level-1
  kanji (its Latin letters are the same design, so every screen keeps one look).

Both subsets also hold every character of every catalog, so any kiosk text renders in any of
them.  A player's name with a character outside the current language's subset can use
``font_for`` to get the other subset.

Fallbacks, in order, when the bundled subsets are missing (one warning is logged): the system's
Noto Sans CJK collection (Debian's ``fonts-noto-cjk``, ``/usr/share/fonts/opentype/noto/
NotoSansCJK-Regular.ttc`` and ``-Bold.ttc``; its first face, JP, covers all CJK) and then
pygame's default font (Latin only).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pygame

from . import i18n

log = logging.getLogger(__name__)

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"
"""The bundled font subsets (``assets/fonts`` of the repository)."""

SYSTEM_FONT_DIR = Path("/usr/share/fonts/opentype/noto")
"""Where Debian's ``fonts-noto-cjk`` puts Noto Sans CJK: the first fallback."""

FAMILIES = {"zh": "sc", "ja": "jp", "en": "jp"}
"""The subset each language uses: ``sc`` (Simplified Chinese) or ``jp`` (Japanese)."""


def subset_file(family: str, bold: bool = False) -> Path:
    """The path of a bundled subset: ``family`` is ``sc`` or ``jp``."""
    return FONT_DIR / f"NotoSansCJK{family}-Subset-{'Bold' if bold else 'Regular'}.otf"


def system_file(bold: bool = False) -> Path:
    """The path of the system's Noto Sans CJK collection (the first fallback)."""
    return SYSTEM_FONT_DIR / f"NotoSansCJK-{'Bold' if bold else 'Regular'}.ttc"


_warned = False


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        log.warning(message)


def font_path(
    lang: str | None = None, bold: bool = False, family: str | None = None
) -> Path | None:
    """The font file for ``lang`` (default: the current language), or None for pygame's default
    font when neither the bundled subset nor the system font exists."""
    return _found(lang, bold, family)[0]


def font_name(lang: str | None = None, bold: bool = False) -> str:
    """``font_path`` as a string ("" for pygame's default font): a cheap key for the caches
    of what was drawn in it (``textcache``)."""
    return _found(lang, bold, None)[1]


def _found(lang: str | None, bold: bool, family: str | None) -> tuple[Path | None, str]:
    fam = family or FAMILIES.get(lang or i18n.language(), "jp")
    if not (_dirs and _dirs[0] is FONT_DIR and _dirs[1] is SYSTEM_FONT_DIR):  # (tests move them)
        _paths.clear()
        _dirs[:] = [FONT_DIR, SYSTEM_FONT_DIR]
    found = _paths.get((fam, bold))
    if found is None:  # looked up once: every text drawn asks, a stat each time cost a third
        path = _find_path(fam, bold)  # of a busy frame's render on a Pi
        found = _paths[(fam, bold)] = (path, str(path) if path is not None else "")
    return found


_paths: dict[tuple[str, bool], tuple[Path | None, str]] = {}
_dirs: list[Path] = []


def _find_path(fam: str, bold: bool) -> Path | None:
    bundled = subset_file(fam, bold)
    if bundled.is_file():
        return bundled
    system = system_file(bold)
    if system.is_file():
        _warn_once(f"font subset {bundled} missing; using the system font {system}")
        return system
    _warn_once(
        f"font subset {bundled} and system Noto Sans CJK missing; using pygame's default font "
        "(no Chinese or Japanese)"
    )
    return None


_cache: dict[tuple[str, int, bool], pygame.font.Font] = {}
_hooked: list[bool] = []
_notdef: dict[int, bytes] = {}  # by id(font): the rendering of a missing glyph
_covered: dict[tuple[int, str], bool] = {}  # by (id(font), character): has_glyph


def clear_cache() -> None:
    """Forget the loaded fonts (they die with ``pygame.font.quit()``) and what was drawn with
    them (``textcache``)."""
    from . import textcache

    textcache.clear()
    _cache.clear()
    _notdef.clear()
    _covered.clear()


def _at_quit() -> None:
    _hooked.clear()  # pygame forgets its quit functions once it has called them
    clear_cache()


def font(
    size: int, bold: bool = False, lang: str | None = None, family: str | None = None
) -> pygame.font.Font:
    """The kiosk font at ``size`` pixels for ``lang`` (default: the current language), cached.

    ``family`` (``sc`` or ``jp``) overrides the language's choice of subset.
    """
    if not _hooked:
        _hooked.append(True)
        # pygame.quit() closes every font: one kept after it, used after pygame.init(),
        # crashes the process (a segmentation fault in its metrics)
        pygame.register_quit(_at_quit)
    if not pygame.font.get_init():
        clear_cache()
        pygame.font.init()
    size = max(1, int(size))
    path, name = _found(lang, bold, family)
    key = (name, size, bold)
    f = _cache.get(key)
    if f is None:
        f = pygame.font.Font(path, size)
        if path is None and bold:
            f.set_bold(True)
        _cache[key] = f
    return f


# ---------------------------------------------------------------------------------------------
# Measuring and wrapping.


def text_fits(text: str, font: pygame.font.Font, width: int) -> bool:
    """Whether ``text`` on one line in ``font`` is at most ``width`` pixels wide."""
    return font.size(text)[0] <= width


def fit(
    text: str,
    width: int,
    max_size: int,
    min_size: int,
    bold: bool = False,
    lang: str | None = None,
) -> pygame.font.Font:
    """The largest font from ``max_size`` down to ``min_size`` at which ``text`` fits on one
    line of ``width`` pixels; ``min_size`` when even that is too wide."""
    lo, hi = min(min_size, max_size), max(min_size, max_size)
    if text_fits(text, font(hi, bold, lang), width):
        return font(hi, bold, lang)
    best = lo
    lo += 1
    hi -= 1
    while lo <= hi:  # text width grows with the size: binary search for the last fit
        mid = (lo + hi) // 2
        if text_fits(text, font(mid, bold, lang), width):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return font(best, bold, lang)


def is_cjk(ch: str) -> bool:
    """Whether a character is one of those that CJK text may break before and after."""
    o = ord(ch)
    return (
        0x1100 <= o <= 0x11FF  # Hangul Jamo
        or 0x2E80 <= o <= 0x2FDF  # radicals
        or 0x3000 <= o <= 0x303F  # CJK symbols and punctuation
        or 0x3040 <= o <= 0x30FF  # hiragana, katakana
        or 0x3100 <= o <= 0x31FF  # bopomofo, katakana extension
        or 0x3200 <= o <= 0x9FFF  # enclosed CJK, CJK unified ideographs
        or 0xAC00 <= o <= 0xD7AF  # Hangul syllables
        or 0xF900 <= o <= 0xFAFF  # compatibility ideographs
        or 0xFF00 <= o <= 0xFFEF  # fullwidth and halfwidth forms
        or 0x20000 <= o <= 0x3FFFF  # supplementary ideographs
    )


# Characters that must not start a line (closing punctuation, small kana, the long vowel
# mark) and that must not end one (opening brackets): kept with their neighbour.
NO_LINE_START = frozenset(
    ")]}>,.:;!?%"
    "、。，．：；！？）］｝〉》」』】〕〗〙〛”’・ー"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々〻…‥"
)
NO_LINE_END = frozenset("([{<（［｛〈《「『【〔〖〘〚“‘")


# ---------------------------------------------------------------------------------------------
# Glyph coverage (for names typed by players, which may use any character).

_NOT_A_CHAR = "\ue000"  # a private-use character: no Noto CJK face has a glyph for it


def _image(f: pygame.font.Font, ch: str) -> bytes:
    surface = f.render(ch, False, (255, 255, 255), (0, 0, 0))
    return bytes(str(surface.get_size()), "ascii") + pygame.image.tobytes(surface, "RGB")


def has_glyph(f: pygame.font.Font, ch: str) -> bool:
    """Whether ``f`` draws ``ch`` with a glyph of its own rather than the missing-glyph box.

    pygame offers no direct test, so this compares the rendering with that of a character no
    font has; results are cached.  Control characters count as covered.
    """
    if ord(ch) < 0x20:
        return True
    key = (id(f), ch)
    hit = _covered.get(key)
    if hit is None:
        box = _notdef.get(id(f))
        if box is None:
            box = _notdef[id(f)] = _image(f, _NOT_A_CHAR)
        hit = _covered[key] = _image(f, ch) != box
    return hit


def missing_glyphs(text: str, f: pygame.font.Font) -> str:
    """The distinct characters of ``text`` that ``f`` has no glyph for, in order."""
    return "".join(ch for ch in dict.fromkeys(text) if not has_glyph(f, ch))


def font_for(text: str, size: int, bold: bool = False, lang: str | None = None) -> pygame.font.Font:
    """The current language's font, or the other CJK subset when only that one covers ``text``
    (e.g. a Chinese player's name on a Japanese screen)."""
    first = font(size, bold, lang)
    if not missing_glyphs(text, first):
        return first
    own = FAMILIES.get(lang or i18n.language(), "jp")
    other = font(size, bold, family="sc" if own == "jp" else "jp")
    return other if len(missing_glyphs(text, other)) < len(missing_glyphs(text, first)) else first
