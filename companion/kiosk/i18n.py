"""The kiosk's languages: English, Simplified Chinese and Japanese.

English source text is the key (gettext style)::

    from companion.kiosk.i18n import _, n_
    _("Round {n}", n=3)                                  # "Round 3", "第3轮" or "ラウンド3"
    n_("{n} turn left", "{n} turns left", k)             # "1 turn left", "2 turns left"

``_`` looks the text up in the current language's gettext catalogue
(``companion/kiosk/locale/<lang>/LC_MESSAGES/companion.po``, compiled to ``.mo``: see
:mod:`companion.kiosk.catalogue` and docs/i18n.md), falls back to the English text, then fills in
the ``{placeholders}``; numbers are written the language's way through Babel.  Card, space and
resource names and the rules help have their own functions below: English names come from the
engines' data, and the catalogues translate them under a ``msgctxt`` per kind.

The current language is module state: the kiosk is single-threaded.

Only literal strings passed to ``_`` and ``n_`` are extracted (``pybabel extract``, and
``source_strings`` for the tests; their characters go into the bundled fonts): write
``_("Cost {n}", n=cost)``, never ``_(f"Cost {cost}")`` or ``_(variable)``.
"""

from __future__ import annotations

import ast
import gettext
import string
from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path

from babel.numbers import format_decimal

from companion.builders import cards as B
from companion.pillars import data as P

from . import catalogue
from .catalogue import tables
from .locale import en

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


def language() -> str:
    """The current language code."""
    return _current


def translations(code: str) -> gettext.GNUTranslations | None:
    """The gettext catalogue of language ``code`` (None for English, the source language),
    read once from its .mo or .po (:func:`companion.kiosk.catalogue.load`)."""
    if code == "en":
        return None
    found = _loaded.get(code)
    if found is None:
        found = _loaded[code] = catalogue.load(code)
    return found


class Locale:
    """One translated language's catalogue as plain tables, read from its .po on first use:
    for code that lists or searches translations (the look-ups go through ``_``)."""

    def __init__(self, code: str) -> None:
        self.code = code

    @cached_property
    def catalog(self) -> Mapping[str, str]:
        """Every translated message without context and without plural: English → text."""
        return {
            m.id: m.string
            for m in catalogue.read(self.code)
            if isinstance(m.id, str) and m.id and m.context is None
            if isinstance(m.string, str) and m.string and not m.fuzzy
        }

    def strings(self) -> Iterator[str]:
        """Every translated text of this language (each plural form, every context)."""
        yield from catalogue.translated_texts(catalogue.read(self.code))


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
# Names of game things: each table of catalogue.TABLES is a msgctxt, its msgid the English name.


def _in_table(table: str, key: str) -> str:
    t = tables()[table]
    return _translated(t.context, t.english[key])


def pillars_card_name(card_id: str) -> str:
    """A Pillars card's name (craftsmen ``mason2``, resource cards, privileges, events)."""
    known = card_id in P.CRAFTSMEN or any(
        card_id in names for names in (P.RESOURCE_CARD_NAMES, P.PRIVILEGE_NAMES, P.EVENT_NAMES)
    )
    if not known:
        raise KeyError(f"unknown Pillars card {card_id!r}")
    if _current == "en":
        return P.card_name(card_id)
    if card_id in P.CRAFTSMEN:
        c = P.CRAFTSMEN[card_id]
        kind = kind_name(c.kind)
        if c.round == 0:
            return _("{name} (start)", name=kind)
        return _("{name} (round {n})", name=kind, n=c.round)
    return _in_table("PILLARS_CARDS", card_id)


def builders_card_name(card_id: str) -> str:
    """A Builders card's name (buildings, machines, workers; the id is the French name's slug,
    ruling B10)."""
    if card_id not in B.BUILDING and card_id not in B.WORKER:
        raise KeyError(f"unknown Builders card {card_id!r}")
    if _current == "en":
        return B.card_name(card_id, "en")
    if card_id in B.BUILDING:
        return _in_table("BUILDERS_CARDS", card_id)
    w = B.WORKER[card_id]
    parts = [
        _("{n} {resource}", n=n, resource=resource_name(r))
        for n, r in zip(w.output, B.RESOURCES, strict=True)
        if n
    ]
    return _(
        "{rank} ({resources})", rank=builders_rank_name(card_id), resources=_(", ").join(parts)
    )


def kind_name(kind: str) -> str:
    """The name of a Pillars craftsman kind (``mason``, ``woodworker!``), without a round."""
    return _in_table("PILLARS_KINDS", kind)


def builders_rank_name(card_id: str) -> str:
    """A Builders worker by its rank (``Master``)."""
    return _in_table("BUILDERS_RANKS", B.WORKER[card_id].rank)


def builders_french_name(card_id: str) -> str:
    """The French name printed on a Builders card, e.g. ``Le château-fort``."""
    return B.card_name(card_id, "fr")


def area_name(area: str) -> str:
    """The name of a Pillars board area (``court``, ``market``, ...) in the current language."""
    return _in_table("AREAS", area)


def area_label_lines(area: str) -> str:
    """A Pillars area's name for a box too narrow for it on one line: the catalogue's version
    with a line end where the name may break (the name itself where it needs none)."""
    return _in_table("AREA_LINES", area)


def space_name(space_id: str) -> str:
    """The name of a Pillars master-builder space (``court1``, ``castle``, ...).

    KeyError for an unknown space.
    """
    s = P.SPACES[P.SPACE_INDEX[space_id]]
    if _current == "en":
        return P.space_name(space_id)
    if len(P.AREA_SPACES[s.area]) > 1:
        return _("{area}, space {n}", area=area_name(s.area), n=s.slot)
    return area_name(s.area)


RESOURCE_IDS = tuple(dict.fromkeys((*P.RESOURCES, *B.RESOURCES, "gold", "coins")))
"""Every resource name ``resource_name`` knows: both games' resources and currencies."""


def resource_name(r: str | int) -> str:
    """A resource's name: ``stone``, ``wood``, ``sand``, ``metal`` (Pillars), ``knowledge``,
    ``tile`` (Builders), ``gold``, ``coins``; an int is a Pillars resource index.

    English names are the engine's lower-case ids, ready to go into a sentence.
    KeyError for an unknown resource.
    """
    name = P.RESOURCES[r] if isinstance(r, int) else r
    if name not in RESOURCE_IDS:
        raise KeyError(f"unknown resource {r!r}")
    return _in_table("RESOURCES", name)


# ---------------------------------------------------------------------------------------------
# Rules help.


def step_help(step: str) -> str:
    """Short rules help for a Pillars step (an id of ``companion.pillars.rules.STEPS``).

    KeyError for an unknown step.
    """
    return _in_table("STEP_HELP", step)


BUILDERS_ACTIONS = tuple(en.BUILDERS_HELP)
"""The kinds of Builders action: start, recruit, send, coins, buy action, end turn."""


def builders_action_help(kind: str) -> str:
    """Short rules help for a kind of Builders action, named by the first words of its
    notation: ``start``, ``recruit``, ``send``, ``coins``, ``buy action``, ``end turn``
    (``buy`` and ``end`` are read too).  KeyError for anything else.
    """
    key = " ".join(kind.lower().split())
    key = {"buy": "buy action", "end": "end turn"}.get(key, key)
    return _in_table("BUILDERS_HELP", key)


# ---------------------------------------------------------------------------------------------
# Tooling: the ``_("...")`` strings of the kiosk's source (used by tests and tools, not at run
# time).

KIOSK_DIR = Path(__file__).resolve().parent


UI_DIRS = (
    KIOSK_DIR,
    KIOSK_DIR.parent / "pillars" / "kiosk",
    KIOSK_DIR.parent / "builders" / "kiosk",
)
"""The packages whose text reaches the screen: the kiosk (the devices report codes, which the
kiosk words)."""


def _calls(root: Path | None) -> Iterator[tuple[str, str, ast.Call]]:
    """``(name, where, call)`` for each call of ``_`` or ``n_`` (or ``something._``) in the
    ``.py`` files under ``root`` (default: every folder of UI_DIRS), in order."""
    roots = [root] if root is not None else [d for d in UI_DIRS if d.is_dir()]
    paths = sorted(p for r in roots for p in r.rglob("*.py"))
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args]
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
                where = f"{path.relative_to(KIOSK_DIR.parent.parent)}:{node.lineno}"
                yield name, where, node


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def source_strings(root: Path | None = None) -> dict[str, list[str]]:
    """Every string literal passed as the first argument of ``_`` (or ``something._``) in the
    ``.py`` files under ``root`` (default: every folder of UI_DIRS), with where it occurs
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
    """Every English text the kiosk can show from this module and the engines' data."""
    yield from source_strings()
    for pair in source_plurals():
        yield from pair
    yield from LANGUAGE_NAMES.values()
    for table in tables().values():
        yield from table.english.values()
    yield from catalogue.registry_words()
    for card in (*P.CRAFTSMEN, *P.RESOURCE_CARD_NAMES, *P.PRIVILEGE_NAMES, *P.EVENT_NAMES):
        yield P.card_name(card)
    for space in P.SPACE_INDEX:
        yield P.space_name(space)
    for card in (*B.BUILDING, *B.WORKER):
        yield B.card_name(card, "en")
        yield B.card_name(card, "fr")


MessageKey = tuple[str | tuple[str, str], str | None]
"""A catalogue message: ``(msgid, msgctxt)``, the msgid a pair ``(singular, plural)`` for a
plural message."""


def catalogue_messages() -> dict[MessageKey, list[str]]:
    """Every message the catalogues must translate, with where it comes from: the ``_()`` and
    ``n_()`` literals of the kiosk, the tables of game words, the registry's words (what
    ``pybabel extract -F babel.cfg -k n_:1,2`` finds)."""
    found: dict[MessageKey, list[str]] = {}
    for text, where in source_strings().items():
        found[(text, None)] = where
    for pair, where in source_plurals().items():
        found[(pair, None)] = where
    for table in tables().values():
        for key, english in table.english.items():
            found.setdefault((english, table.context), []).append(f"{table.name}[{key!r}]")
    for word in catalogue.registry_words():
        found.setdefault((word, None), []).append("the games' registry")
    return found
