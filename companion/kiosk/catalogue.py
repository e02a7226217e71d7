"""The translation catalogues: gettext ``.po`` files, compiled to ``.mo``.

One catalogue per language, in the standard layout that gettext, Babel and translators' tools
(Poedit, Weblate, Lokalize) read::

    companion/kiosk/locale/zh/LC_MESSAGES/companion.po   # the translations (in git)
    companion/kiosk/locale/zh/LC_MESSAGES/companion.mo   # compiled (not in git)

The ``msgid`` is always the English text.  UI strings (the ``_()`` and ``n_()`` calls) have no
context; the names of game things and the rules help are keyed by a ``msgctxt`` per table (see
:data:`TABLES`), so that "Master" the Builders rank and a card called "Master" never clash.

The compiled ``.mo`` files are built by ``make`` (and by systemd/install-pi.sh) with
``pybabel compile``.  At run time :func:`load` reads a ``.mo`` that is at least as new as its
``.po``; a missing or older one is compiled in memory from the ``.po`` instead, so a fresh
clone, a ``git pull`` or a translator's edit never shows stale text.  See docs/i18n.md.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from companion.builders import cards as B
from companion.pillars import data as P

from .locale import en

DOMAIN = "companion"
"""The gettext domain: the catalogues' file name."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""The folder holding one ``<lang>/LC_MESSAGES/companion.po`` per translated language."""

TRANSLATED = ("zh", "ja")
"""The languages with a catalogue (English is the source text)."""


def po_path(lang: str, root: Path = LOCALE_DIR) -> Path:
    return root / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str, root: Path = LOCALE_DIR) -> Path:
    return root / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


# ---------------------------------------------------------------------------------------------
# The tables of game words: each a context, and the English text of each id.


@dataclass(frozen=True, slots=True)
class Table:
    """Names or help texts of one kind, translated under one ``msgctxt``."""

    name: str
    """The table's name in the old dict catalogues (``BUILDERS_CARDS``)."""
    context: str
    """Its ``msgctxt`` in the .po files."""
    english: Mapping[str, str]
    """The English text (the ``msgid``) of each id."""
    note: str
    """What the entries are, for translators (an extracted comment)."""


def _builders_ranks() -> dict[str, str]:
    return {w.rank: w.name_en for w in B.WORKERS}


@cache
def tables() -> dict[str, Table]:
    """Every table, by name.  An English text occurs once per table (tested)."""
    pillars_cards = (*P.RESOURCE_CARD_NAMES, *P.PRIVILEGE_NAMES, *P.EVENT_NAMES)
    found = [
        Table(
            "PILLARS_KINDS",
            "pillars craftsman",
            {k: P.KIND_NAMES[k] for k in P.KINDS},
            "Pillars: a kind of craftsman card (a card's name adds its round)",
        ),
        Table(
            "PILLARS_CARDS",
            "pillars card",
            {c: P.card_name(c) for c in pillars_cards},
            "Pillars: a resource, privilege or event card",
        ),
        Table("AREAS", "pillars area", dict(P.AREA_NAMES), "Pillars: an area of the board"),
        Table(
            "AREA_LINES",
            "pillars area, two lines",
            dict(P.AREA_NAMES),
            "Pillars: an area's name on the kiosk's small drawing of the board; where the name"
            " is one word too wide for its box, put a line end (\\n) where it may break",
        ),
        Table(
            "BUILDERS_CARDS",
            "builders card",
            {c: B.card_name(c, "en") for c in B.BUILDING},
            "The Builders: a building or machine card",
        ),
        Table(
            "BUILDERS_RANKS",
            "builders rank",
            _builders_ranks(),
            "The Builders: a worker's rank (a card's name adds its resources)",
        ),
        Table(
            "RESOURCES",
            "resource",
            {r: r for r in (*P.RESOURCES, *B.RESOURCES, "gold", "coins")},
            "A resource or currency, lower case as in a sentence",
        ),
        Table(
            "STEP_HELP",
            "pillars step help",
            dict(en.STEP_HELP),
            "Pillars: rules help for one step (1 to 3 sentences)",
        ),
        Table(
            "BUILDERS_HELP",
            "builders action help",
            dict(en.BUILDERS_HELP),
            "The Builders: rules help for one kind of action (1 to 3 sentences)",
        ),
    ]
    return {t.name: t for t in found}


def registry_words() -> list[str]:
    """The words of the games' registry records that the kiosk passes to ``_()``: titles,
    option labels and choice labels."""
    from companion.engine.registry import specs

    words: list[str] = []
    for spec in specs():
        words.append(spec.title)
        for opt in spec.options.values():
            if opt.label:
                words += [opt.label, *opt.labels]
    return list(dict.fromkeys(words))


def extract_game_words(
    fileobj: Any, keywords: Collection[str], comment_tags: Collection[str], options: Any
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """A Babel extraction method (named in babel.cfg) for the words that no ``_()`` literal
    holds: the tables of game words (as ``pgettext``) and the registry's words.

    Babel calls it for companion/kiosk/locale/en.py; the words come from the engines' data,
    not from that file's text.
    """
    for table in tables().values():
        for key, english in table.english.items():
            yield 0, "pgettext", (table.context, english), [f"{table.note}: {key}"]
    for word in registry_words():
        yield 0, "_", word, ["A game's title or option, from its registry record"]


# ---------------------------------------------------------------------------------------------
# Reading, compiling, loading.


def read(lang: str, root: Path = LOCALE_DIR) -> Catalog:
    """``lang``'s catalogue, read from its .po file.  FileNotFoundError when there is none."""
    path = po_path(lang, root)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def compile_catalog(catalog: Catalog) -> bytes:
    """The .mo form of ``catalog``: fuzzy and untranslated entries left out (they show the
    English text), as ``pybabel compile`` does."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def is_fresh(lang: str, root: Path = LOCALE_DIR) -> bool:
    """Whether ``lang``'s .mo exists and is at least as new as its .po."""
    mo = mo_path(lang, root)
    try:
        return mo.stat().st_mtime >= po_path(lang, root).stat().st_mtime
    except FileNotFoundError:
        return False


def load(lang: str, root: Path = LOCALE_DIR) -> gettext.GNUTranslations:
    """``lang``'s translations for gettext look-ups: from the .mo when it is fresh, else
    compiled in memory from the .po."""
    if is_fresh(lang, root):
        with mo_path(lang, root).open("rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.GNUTranslations(io.BytesIO(compile_catalog(read(lang, root))))


def compile_all(langs: Iterable[str] = TRANSLATED, root: Path = LOCALE_DIR) -> list[Path]:
    """Write each language's .mo from its .po (what ``pybabel compile`` does); returns them."""
    written = []
    for lang in langs:
        path = mo_path(lang, root)
        path.write_bytes(compile_catalog(read(lang, root)))
        written.append(path)
    return written


def translated_texts(catalog: Catalog) -> Iterator[str]:
    """Every non-empty translation of ``catalog`` (each plural form), obsolete ones left out."""
    for message in catalog:
        if not message.id:
            continue  # the header
        string = message.string
        forms = [string] if isinstance(string, str) else list(string or ())
        yield from (s for s in forms if s)
