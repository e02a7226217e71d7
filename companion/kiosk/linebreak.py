"""Where the kiosk's text may break into lines: Latin text at spaces, Chinese and Japanese between
phrases, never inside a word.

Chinese and Japanese write no spaces between words, and breaking between any two characters
splits words ("石切職/人", "（ラウ/ンド1）").  The phrase boundaries come from BudouX (Google's
phrase segmenter for Japanese and Chinese, Apache 2.0; its models ship inside the pip package,
so it works offline)::

    >>> units("石切職人（ラウンド1）を雇用します。", "ja")
    ('石切職人', '（ラウンド1）を', '雇用します。')

On top of BudouX's boundaries: a space is always a break; a boundary between two non-CJK
characters (inside a Latin word or a number, e.g. a player's name in a Japanese sentence) is not;
a closing mark never starts a line and an opening bracket never ends one; a line may break after
the middle dot that separates the words of a katakana name, as at a space; and a boundary inside
one of the catalogue's own terms (:func:`glossary`: the names of cards, craftsmen, areas and
resources, and the short words of the UI, such as 泥瓦匠, which BudouX splits as 泥/瓦匠) is not.

:func:`wrap` fills lines with these units.  A unit wider than a line on its own stays whole (the
line is too wide, so ``ui.draw_text`` shrinks the text) unless ``force`` is given, as it is at
the smallest size: then, and only then, it is broken between characters, the one break inside a
word, which the screenshot test (tests/test_linebreak.py) fails on.  A file's path is the one
Latin word that may break inside, after one of its slashes (:func:`path_breaks`).

The kiosk draws at 30 frames per second and ``ui.draw_text`` wraps every text of every frame,
at several sizes while it shrinks a text to fit: both the units of a paragraph and the lines of
a text in a font and width are cached (bench/bench_linebreak.py measures both).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from functools import cache, lru_cache

import pygame

from . import catalogue, i18n
from .fonts import NO_LINE_END, NO_LINE_START, is_cjk, text_fits

PARSERS = {"ja": "ja", "zh": "zh-hans"}
"""The BudouX model for each language's text."""

_KANA = range(0x3040, 0x3100)

WORD_SEPARATORS = frozenset("・･")
"""Marks that separate words inside CJK text: a line may break after one."""

CLAUSE_ENDS = frozenset("、。，．：；！？")
"""Full-width marks that end a clause: in CJK print a line may always break after one (BudouX
joins the mark to the phrase after it, "：1AP、", but "派遣する：" ends a line well)."""

RECORD: list[tuple[str, str, int, list[str]]] | None = None
"""When a list, every :func:`wrap` call appends ``(text, lang, width, lines)`` (for the
tests)."""


@cache
def _parser(model: str) -> Callable[[str], list[str]]:
    import budoux

    loaders = {
        "ja": budoux.load_default_japanese_parser,
        "zh-hans": budoux.load_default_simplified_chinese_parser,
    }
    return loaders[model]().parse


def model_for(text: str, lang: str) -> str:
    """The BudouX model for ``text`` shown in language ``lang``: the language's own, or for
    CJK text in an English screen (a player's name) Japanese if it has kana, else Chinese."""
    if lang in PARSERS:
        return PARSERS[lang]
    return "ja" if any(ord(ch) in _KANA for ch in text) else "zh-hans"


def phrases(paragraph: str, lang: str) -> list[str]:
    """BudouX's phrases of ``paragraph`` (one line of text, no newline), unchanged."""
    return _parser(model_for(paragraph, lang))(paragraph)


_PUNCTUATION = re.compile(r"[\s（）()、，。：；！？·・/{}]")


@cache
def glossary(lang: str) -> tuple[str, ...]:
    """The catalogue's own terms in ``lang``, longest first: the translated names of cards,
    craftsmen, ranks, areas and resources (without a parenthesised detail), and the
    translations of short UI words (a msgid without placeholders whose translation is 2 to 6
    CJK characters).  A line never breaks inside one of them.  English has none."""
    if lang not in catalogue.TRANSLATED:
        return ()
    names = {t.context for t in catalogue.tables().values() if "help" not in t.context}
    found: set[str] = set()
    for context, english, text in i18n.compiled_messages(lang):
        if context in names:
            base = re.split(r"[（(]", text)[0].strip()
            if 2 <= len(base) <= 8 and all(is_cjk(ch) for ch in base):
                found.add(base)
        elif (
            context is None
            and "{" not in english
            and 2 <= len(text) <= 6
            and all(is_cjk(ch) for ch in text)
            and not _PUNCTUATION.search(text)
        ):
            found.add(text)
        elif context is None:
            found.update(_fragments(text))
    return tuple(sorted(found, key=lambda term: (-len(term), term)))


def _fragments(template: str) -> set[str]:
    """The short runs of CJK text between a translation's placeholders, numbers and
    punctuation (``{things}放回供应区`` → 放回供应区): each is a phrase of the sentence as
    the translator wrote it, which BudouX may split inside (放回供/应区)."""
    out: set[str] = set()
    for run in re.split(r"\{[^}]*\}", template):
        for piece in _PUNCTUATION.split(run):
            word = ""
            for ch in [*piece, ""]:
                if ch and is_cjk(ch) and not ch.isdigit():
                    word += ch
                    continue
                if 2 <= len(word) <= FRAGMENT:
                    out.add(word)
                word = ""
    return out


FRAGMENT = 5
"""The longest run between placeholders kept whole (a longer one is left to BudouX)."""


def _inside_terms(paragraph: str, lang: str) -> set[int]:
    """The offsets strictly inside an occurrence of a glossary term in ``paragraph``."""
    inside: set[int] = set()
    for term in glossary(lang):
        start = paragraph.find(term)
        while start >= 0:
            inside.update(range(start + 1, start + len(term)))
            start = paragraph.find(term, start + 1)
    return inside


def _is_word_char(ch: str) -> bool:
    return not ch.isspace() and not is_cjk(ch)


@lru_cache(maxsize=8192)
def units(paragraph: str, lang: str) -> tuple[str, ...]:
    """``paragraph`` split into the pieces a line may not break inside, with ``" "`` where a
    run of white space was (a break that shows as nothing at the end of a line).

    A paragraph without CJK characters splits at white space only.
    """
    if not any(is_cjk(ch) for ch in paragraph):
        return _latin_units(paragraph)
    # Offsets where a line may break: BudouX's boundaries and white space.
    breaks: set[int] = set()
    at = 0
    for phrase in phrases(paragraph, lang)[:-1]:
        at += len(phrase)
        breaks.add(at)
    # The middle dot separates the words of a name in katakana (ピラーズ・オブ・ジ・アース),
    # as a space does in Latin text.
    breaks.update(i + 1 for i, ch in enumerate(paragraph) if ch in WORD_SEPARATORS)
    paths = path_breaks(paragraph)
    breaks.update(paths)
    breaks -= _inside_terms(paragraph, lang)
    result: list[str] = []
    buf = ""
    for i, ch in enumerate(paragraph):
        if ch.isspace():
            if buf:
                result.append(buf)
                buf = ""
            if result and result[-1] != " ":
                result.append(" ")
            continue
        if buf and i in breaks and (i in paths or _may_break(paragraph[i - 1], ch)):
            result.append(buf)
            buf = ""
        buf += ch
    if buf:
        result.append(buf)
    while result and result[-1] == " ":
        result.pop()
    return _glue_numbers(result)


def _latin_units(paragraph: str) -> tuple[str, ...]:
    """The units of a paragraph without CJK: its words (a path's pieces), a number with the
    word after it."""
    out: list[str] = []
    for w in paragraph.split():
        if out and out[-1] != " " and NUMBER.match(out[-1].rsplit(" ", 1)[-1]):
            out[-1] += " " + w  # a number stays with its unit: "4 uses", "+2 VP"
            continue
        if out:
            out.append(" ")
        out.extend(_path_pieces(w))  # a path's pieces follow one another with no space
    return tuple(out)


def _glue_numbers(result: list[str]) -> tuple[str, ...]:
    """A number stays with its unit across a space too ("20金币 6分" breaks only at the space
    between them; "6 VP" never)."""
    glued: list[str] = []
    for piece in result:
        if (
            len(glued) >= 2
            and glued[-1] == " "
            and NUMBER.match(glued[-2].rsplit(" ", 1)[-1])
            and piece != " "
        ):
            glued.pop()
            glued[-1] += " " + piece
            continue
        glued.append(piece)
    return tuple(glued)


PATH = re.compile(r"(?<![^\s\u3000-\u303f\uff00-\uffef])[~.]{0,2}/[^\s/]*(?:/[^\s/]*)+")
"""A file's path (``/home/pi/.local/share/companion/journal.sqlite3``): one word a line may
break after any of its slashes, as a long address is broken in print.  It starts a text, or
follows a space or a full-width mark (``記録：/home/…``)."""


def path_breaks(paragraph: str) -> set[int]:
    """The offsets just after a slash inside a file's path of ``paragraph`` (not after its
    last character), where a line may break."""
    out: set[int] = set()
    for match in PATH.finditer(paragraph):
        out.update(i + 1 for i in range(match.start(), match.end() - 1)
                   if paragraph[i] == "/" and any(ch.isalnum()
                                                  for ch in paragraph[match.start():i]))
    return out


def _path_pieces(word: str) -> list[str]:
    """A Latin ``word`` split after the slashes of a path in it (:data:`PATH`)."""
    cuts = sorted(path_breaks(word))
    if not cuts:
        return [word]
    return [word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True)]


NUMBER = re.compile(r"^[+\-−]?\d[\d,.]*[%％]?$")
"""A number written alone (``4``, ``+2``, ``1,000``): it stays on the line of its unit."""


def _may_break(before: str, after: str) -> bool:
    """Whether a BudouX boundary between ``before`` and ``after`` may become a line break."""
    if _is_word_char(before) and _is_word_char(after):
        return False  # inside a Latin word or a number
    if before.isdigit() and not after.isspace():
        return False  # a number and its unit: "6分", "20金币"
    return after not in NO_LINE_START and before not in NO_LINE_END


_LINES: OrderedDict[tuple[str, str, pygame.font.Font, int, bool], list[str]] = OrderedDict()
_LINES_MAX = 4096


def wrap(
    text: str,
    font: pygame.font.Font,
    width: int,
    lang: str | None = None,
    *,
    force: bool = True,
) -> list[str]:
    """``text`` broken into lines at most ``width`` pixels wide in ``font``, at spaces and
    between phrases (:func:`units`); ``lang`` defaults to the current language.

    Explicit newlines are kept; an empty text gives no lines.  A unit wider than ``width`` on
    its own is broken between characters when ``force`` is true (so no line is wider than
    ``width`` unless a single character is), else left whole on a line of its own, wider than
    ``width`` (for a caller that would rather shrink the text).  Results are cached by text,
    language, font, width and ``force``.
    """
    lang = i18n.language() if lang is None else lang
    key = (text, lang, font, width, force)
    lines = _LINES.get(key)
    if lines is None:
        lines = _LINES[key] = _wrap(text, font, width, lang, force)
        if len(_LINES) > _LINES_MAX:
            _LINES.popitem(last=False)
    else:
        _LINES.move_to_end(key)
    if RECORD is not None:
        RECORD.append((text, lang, width, list(lines)))
    return list(lines)


def _char_break(line: str, after: str, phrase_ends: set[int]) -> int:
    """Where a unit too wide for its line breaks, the line being ``line`` and the next
    character ``after``: the last end of a phrase in ``line`` (``phrase_ends``) where a reader
    does not trip (not inside a word or a number, not after a number, not before a closing
    mark), after the end of a clause first; else the last such offset anywhere in it, else
    its end."""
    text = line + after

    def ok(at: int) -> bool:
        before, nxt = text[at - 1], text[at]
        if _is_word_char(before) and _is_word_char(nxt):
            return False
        return not (before.isdigit() or nxt in NO_LINE_START or before in NO_LINE_END)

    for at in range(len(line), 0, -1):  # after the end of a clause, where print breaks
        if text[at - 1] in CLAUSE_ENDS and ok(at):
            return at
    for at in sorted(phrase_ends, reverse=True):
        if 0 < at <= len(line) and ok(at):
            return at
    return next((at for at in range(len(line), 0, -1) if ok(at)), len(line))


def clear_cache() -> None:
    """Forget the cached lines, units and glossaries (the fonts or the catalogues changed)."""
    _LINES.clear()
    units.cache_clear()
    glossary.cache_clear()


def _wrap(text: str, font: pygame.font.Font, width: int, lang: str, force: bool) -> list[str]:
    if not text:
        return []
    lines: list[str] = []
    for paragraph in text.split("\n"):
        pieces = units(paragraph, lang)
        if not pieces:
            lines.append("")
            continue
        line = ""
        space = False  # a space is pending between ``line`` and the next unit
        for unit in pieces:
            if unit == " ":
                space = bool(line)
                continue
            candidate = line + " " + unit if space else line + unit
            space = False
            if text_fits(candidate, font, width):
                line = candidate
                continue
            if line:
                lines.append(line)
                line = ""
            if text_fits(unit, font, width) or not force:
                line = unit
                continue
            # A single unit wider than the line: break it between characters, never inside
            # a Latin word or a number, nor between a number and its unit ("1A|P"), nor
            # before a closing mark, where the line has a better place.
            bounds, at = set(), 0
            for phrase in phrases(unit, lang):  # (a phrase's end is the best place)
                at += len(phrase)
                bounds.add(at)
            start = 0  # where the line being filled starts in the unit
            for i, ch in enumerate(unit):
                while line and not text_fits(line + ch, font, width):  # (cut again when
                    # the rest kept with ``ch`` is still too wide)
                    cut = _char_break(line, ch, {b - start for b in bounds if start < b < i})
                    lines.append(line[:cut])
                    line = line[cut:]
                    start += cut
                line += ch
        lines.append(line)
    return lines
