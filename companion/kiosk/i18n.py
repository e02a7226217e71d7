"""The kiosk's languages: English, Simplified Chinese and Japanese.

English source text is the key (gettext style)::

    from companion.kiosk.i18n import _, n_
    _("Round {n}", n=3)                                  # "Round 3", "第3轮" or "ラウンド3"
    n_("{n} turn left", "{n} turns left", k)             # "1 turn left", "2 turns left"

``_`` looks the text up in the current language's gettext catalogues (the core one,
``companion/kiosk/locale/<lang>/LC_MESSAGES/companion.po``, then each registered game's, found
through its registry record: see :mod:`companion.kiosk.catalogue` and docs/i18n.md), falls back
to the English text, then fills in the ``{placeholders}``; numbers are written the language's
way through Babel.  The names of a game's things and its rules help are the game's own
(``companion/<game>/kiosk/names.py``): English names come from the engines' data, and the
catalogues translate them under a ``msgctxt`` per kind (:func:`in_table`).

The current language is module state: the kiosk is single-threaded.

Only literal strings passed to ``_`` and ``n_`` are extracted (``pybabel extract``, and
``source_strings`` for the tests; their characters go into the bundled fonts): write
``_("Cost {n}", n=cost)``, never ``_(f"Cost {cost}")`` or ``_(variable)``.
"""

from __future__ import annotations

import ast
import gettext
import re
import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path

from babel.numbers import format_decimal

from . import catalogue
from .catalogue import Catalogue, Table, tables

LANGUAGES = ("en", "zh", "ja")
"""Language codes, in the order the kiosk offers them."""

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "zh": "简体中文", "ja": "日本語"}
"""Each language's name in itself (what a language button shows)."""

DEFAULT_LANGUAGE = "en"

_current = DEFAULT_LANGUAGE

_loaded: dict[str, gettext.GNUTranslations] = {}
"""The catalogues read so far, by language (read on first use: see :func:`translations`)."""


def set_language(code: str) -> None:
    """Make ``code`` (one of LANGUAGES) the current language; ValueError for any other."""
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; expected one of {', '.join(LANGUAGES)}")
    if code != "en":
        translations(code)  # read it now, not in the middle of drawing a frame
    _current = code


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """``code`` is the current language for the while (a frame drawn ahead in another
    language: ``SettingsScreen.likely_next``); the language before comes back after."""
    global _current
    saved = _current
    set_language(code)
    try:
        yield
    finally:
        _current = saved


def language() -> str:
    """The current language code."""
    return _current


def translations(code: str) -> gettext.GNUTranslations | None:
    """The gettext catalogues of language ``code`` (None for English, the source language): the
    core catalogue, then every registered game's, read once from their .mo or .po
    (:func:`companion.kiosk.catalogue.load_all`)."""
    if code == "en":
        return None
    found = _loaded.get(code)
    if found is None:
        found = _loaded[code] = catalogue.load_all(code)
    return found


def compiled_messages(code: str) -> Iterator[tuple[str | None, str, str]]:
    """Every message of ``code``'s catalogues as the kiosk looks it up (:func:`translations`:
    fuzzy and untranslated ones left out), as (context or None, English, text); plural
    messages left out.  Quicker than reading the .po files (``Locale``): the first Chinese
    frame read them for the line breaker's glossary, 29 ms here, 0.3 s on a Pi 4."""
    found: gettext.NullTranslations | None = translations(code)
    while found is not None:
        table: dict[object, str] = getattr(found, "_catalog", {})
        for key, text in table.items():
            if isinstance(key, str) and key and text:
                context, sep, english = key.rpartition("\x04")
                yield (context if sep else None), english, text
        found = getattr(found, "_fallback", None)


class Locale:
    """One translated language's catalogue as plain tables, read from its .po on first use:
    for code that lists or searches translations (the look-ups go through ``_``)."""

    def __init__(self, code: str) -> None:
        self.code = code

    @cached_property
    def catalog(self) -> Mapping[str, str]:
        """Every translated message without context and without plural, from every catalogue
        (the core one first): English → text."""
        found: dict[str, str] = {}
        for read in catalogue.read_all(self.code):
            for m in read:
                msgid, text = m.id, m.string
                plain = isinstance(msgid, str) and msgid and m.context is None
                if plain and isinstance(text, str) and text and not m.fuzzy:
                    found.setdefault(str(msgid), text)
        return found

    def strings(self) -> Iterator[str]:
        """Every translated text of this language (each plural form, every context, every
        catalogue)."""
        for read in catalogue.read_all(self.code):
            yield from catalogue.translated_texts(read)


class _Locales(Mapping[str, Locale]):
    def __init__(self) -> None:
        self._made: dict[str, Locale] = {}

    def __getitem__(self, code: str) -> Locale:
        if code not in catalogue.TRANSLATED:
            raise KeyError(code)
        found = self._made.get(code)
        if found is None:
            found = self._made[code] = Locale(code)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(catalogue.TRANSLATED)

    def __len__(self) -> int:
        return len(catalogue.TRANSLATED)


LOCALES: Mapping[str, Locale] = _Locales()
"""The translated languages' catalogues by code (English has none: the source text is the
key), read lazily."""


def _translated(context: str | None, text: str) -> str:
    t = translations(_current)
    if t is None:
        return text
    found = t.gettext(text) if context is None else t.pgettext(context, text)
    return found or text  # an empty translation counts as missing


class _Number:
    """A number filled into a text: written the current language's way (Babel's
    ``format_decimal``: ``12,345``, ``2.5``) unless the placeholder has a format spec of its
    own (``{n:d}``, ``{x:.1f}``)."""

    __slots__ = ("value",)

    def __init__(self, value: int | float) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec) if spec else str(self)

    def __str__(self) -> str:
        return number(self.value)


def number(value: int | float) -> str:
    """``value`` written with the current language's digit grouping and decimal mark."""
    if isinstance(value, int) and -1000 < value < 1000:
        return str(value)  # the same in every language: no grouping, no Babel call
    return format_decimal(value, locale=_current)


def _fill(translated: str, english: str, fmt: dict[str, object]) -> str:
    values = {
        k: _Number(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
        for k, v in fmt.items()
    }
    try:
        return translated.format(**values)
    except (KeyError, IndexError, ValueError):
        # A broken translation must not take the kiosk down: show the English text.
        return english.format(**values)


def _(text: str, /, **fmt: object) -> str:
    """``text`` (English) in the current language, with ``fmt`` filled into its placeholders.

    Falls back to English for a string the catalogue does not have.  Without keyword arguments
    the text is returned as it is (no ``format`` call, so literal braces need no doubling).
    Numbers are written the language's way (:func:`number`).
    """
    translated = _translated(None, text)
    if not fmt:
        return translated
    return _fill(translated, text, dict(fmt))


def n_(singular: str, plural: str, n: int, /, **fmt: object) -> str:
    """The form of a text for the count ``n`` (gettext's ``ngettext``), with ``n`` and ``fmt``
    filled in: ``n_("{n} builder", "{n} builders", k)`` gives "1 builder", "3 builders",
    "3名建筑师"...  English picks ``singular`` for 1 and ``plural`` otherwise; a catalogue
    picks by its language's ``Plural-Forms`` (Chinese and Japanese have one form).
    """
    t = translations(_current)
    english = singular if n == 1 else plural
    translated = english if t is None else (t.ngettext(singular, plural, n) or english)
    return _fill(translated, english, {"n": n, **fmt})


# ---------------------------------------------------------------------------------------------
# Names of game things: each game's tables (catalogue.tables) are a msgctxt each, the msgid the
# English name.  The games' own modules (``companion/<game>/kiosk/names.py``) name their things
# through these.


def in_context(context: str, text: str) -> str:
    """``text`` (English) translated under the catalogue context ``context`` (gettext's
    ``pgettext``), the English text where no catalogue has it."""
    return _translated(context, text)


def in_table(table: Table, key: str) -> str:
    """The name of ``key`` from a table of names, in the current language.  KeyError for a key
    the table does not have."""
    return _translated(table.context, table.english[key])


RESOURCE_CONTEXT = "resource"
"""The context of resource and currency names, in every game's table of them: a resource two
games share (``stone``) is one message of the core catalogue."""


_resources: dict[tuple[str, ...], frozenset[str]] = {}


def resource_ids() -> frozenset[str]:
    """Every resource and currency the registered games name (``stone``, ``gold``, ...)."""
    games = catalogue.game_names()
    found = _resources.get(games)
    if found is None:
        found = _resources[games] = frozenset(
            key for t in tables().values() if t.context == RESOURCE_CONTEXT for key in t.english
        )
    return found


def resource_name(r: str) -> str:
    """A resource's or currency's name as a game's table lists it (``stone``, ``knowledge``,
    ``gold``, ``coins``): English names are the engines' lower-case ids, ready to go into a
    sentence.  KeyError for a resource no game has.
    """
    if r not in resource_ids():
        raise KeyError(f"unknown resource {r!r}")
    return _translated(RESOURCE_CONTEXT, r)


# ---------------------------------------------------------------------------------------------
# Tooling: the ``_("...")`` strings of the kiosk's source (used by tests and tools, not at run
# time).

KIOSK_DIR = Path(__file__).resolve().parent
PROJECT_DIR = KIOSK_DIR.parent.parent


def ui_dirs() -> list[Path]:
    """The folders whose text reaches the screen: the kiosk's and each registered game's (its
    catalogue's sources: the package holding its ``locale`` folder).  The devices report codes,
    which the kiosk words."""
    return [c.sources for c in catalogue.catalogues() if c.sources.is_dir()]


def _where(path: Path, line: int) -> str:
    try:
        return f"{path.relative_to(PROJECT_DIR)}:{line}"
    except ValueError:  # a game installed from outside the project
        return f"{path}:{line}"


def _calls(root: Path | None) -> Iterator[tuple[str, str, ast.Call]]:
    """``(name, where, call)`` for each call of ``_`` or ``n_`` (or ``something._``) in the
    ``.py`` files under ``root`` (default: every folder of :func:`ui_dirs`), in order."""
    roots = [root] if root is not None else ui_dirs()
    paths = sorted(p for r in roots for p in r.rglob("*.py"))
    for path in paths:
        yield from _file_calls(path)


_PARSED: dict[Path, tuple[tuple[int, int], list[tuple[str, str, ast.Call]]]] = {}
"""Each source file's calls of ``_`` and ``n_``, with the file's modification time and size
they were read at: the tools and the tests ask for every catalogue's messages many times, and
parsing every source each time cost seconds a call."""


_MAY_CALL = re.compile(r"(?<!\w)n?_\s*\(")
"""Where a call of ``_`` or ``n_`` may be (a file without one is not parsed)."""


def _file_calls(path: Path) -> list[tuple[str, str, ast.Call]]:
    """``_calls`` of one file, parsed again only when the file has changed."""
    stat = path.stat()
    key = (stat.st_mtime_ns, stat.st_size)
    kept = _PARSED.get(path)
    if kept is not None and kept[0] == key:
        return kept[1]
    text = path.read_text(encoding="utf-8")
    if not _MAY_CALL.search(text):  # most files: nothing to parse
        _PARSED[path] = (key, [])
        return []
    tree = ast.parse(text, filename=str(path))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args]
    found: list[tuple[str, str, ast.Call]] = []
    for node in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
        func = node.func
        name = (
            func.id
            if isinstance(func, ast.Name)
            else func.attr
            if isinstance(func, ast.Attribute)
            else ""
        )
        if name in ("_", "n_"):
            found.append((name, _where(path, node.lineno), node))
    _PARSED[path] = (key, found)
    return found


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def source_strings(root: Path | None = None) -> dict[str, list[str]]:
    """Every string literal passed as the first argument of ``_`` (or ``something._``) in the
    ``.py`` files under ``root`` (default: every folder of :func:`ui_dirs`), with where it occurs
    (``path:line``), in order of first use.
    """
    found: dict[str, list[str]] = {}
    for name, where, node in _calls(root):
        text = _literal(node.args[0])
        if name == "_" and text is not None:
            found.setdefault(text, []).append(where)
    return found


def source_plurals(root: Path | None = None) -> dict[tuple[str, str], list[str]]:
    """Every ``n_(singular, plural, n)`` call with two literal texts, as
    :func:`source_strings` finds ``_`` calls."""
    found: dict[tuple[str, str], list[str]] = {}
    for name, where, node in _calls(root):
        if name != "n_" or len(node.args) < 2:
            continue
        one, many = _literal(node.args[0]), _literal(node.args[1])
        if one is not None and many is not None:
            found.setdefault((one, many), []).append(where)
    return found


def placeholders(text: str) -> list[str]:
    """The ``{fields}`` of a format string, sorted (``{{`` escapes are not fields)."""
    return sorted(
        "{" + name + ("!" + conv if conv else "") + (":" + spec if spec else "") + "}"
        for _lit, name, spec, conv in string.Formatter().parse(text)
        if name is not None
    )


def english_strings() -> Iterator[str]:
    """Every English text the kiosk can show from its sources, the games' tables and their
    engines' data."""
    yield from source_strings()
    for pair in source_plurals():
        yield from pair
    yield from LANGUAGE_NAMES.values()
    for table in tables().values():
        yield from table.english.values()
    yield from catalogue.registry_words()
    for game in catalogue.game_names():
        yield from catalogue.game_english_words(game)


MessageKey = tuple[str | tuple[str, str], str | None]
"""A catalogue message: ``(msgid, msgctxt)``, the msgid a pair ``(singular, plural)`` for a
plural message."""


def _used(cat: Catalogue) -> dict[MessageKey, list[str]]:
    """The messages ``cat``'s own sources use: its ``_()`` and ``n_()`` literals and, for a
    game's catalogue, its tables and its registry words."""
    found: dict[MessageKey, list[str]] = {}
    for text, where in source_strings(cat.sources).items():
        found[(text, None)] = where
    for pair, where in source_plurals(cat.sources).items():
        found[(pair, None)] = where
    if cat.game is not None:
        for table in catalogue.game_tables(cat.game):
            for key, english in table.english.items():
                found.setdefault((english, table.context), []).append(f"{table.name}[{key!r}]")
        for word in catalogue.registry_words(cat.game):
            found.setdefault((word, None), []).append(f"the registry record of {cat.game}")
    return found


def catalogue_messages(cat: Catalogue | None = None) -> dict[MessageKey, list[str]]:
    """Every message catalogue ``cat`` must translate (default: every catalogue's), with where
    it comes from.  A message the kiosk core uses, or that two games use, is the core
    catalogue's; one only a game uses is that game's (what ``tools/i18n_update.py`` writes from
    ``pybabel extract -F babel.cfg -k n_:1,2``)."""
    cats = catalogue.catalogues()
    used = {c.domain: _used(c) for c in cats}
    core = cats[0]
    owners: dict[MessageKey, str] = {}
    games: dict[MessageKey, list[str]] = {}
    for c in cats[1:]:
        for key in used[c.domain]:
            games.setdefault(key, []).append(c.domain)
    for key in used[core.domain]:
        owners[key] = core.domain
    for key, users in games.items():
        owners.setdefault(key, users[0] if len(users) == 1 else core.domain)
    found: dict[MessageKey, list[str]] = {}
    for c in cats:
        for key, where in used[c.domain].items():
            if cat is None or owners[key] == cat.domain:
                found.setdefault(key, []).extend(where)
    return found
