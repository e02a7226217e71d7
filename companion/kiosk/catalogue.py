"""The translation catalogues: gettext ``.po`` files, compiled to ``.mo``.

One catalogue per language for the kiosk core (domain ``companion``) and one per language for
each game that has words of its own (domain: the game's name, in the folder its registry record
declares as ``locale``), in the standard layout that gettext, Babel and translators' tools
(Poedit, Weblate, Lokalize) read::

    companion/kiosk/locale/zh/LC_MESSAGES/companion.po     # the core's (in git)
    companion/kiosk/locale/zh/LC_MESSAGES/companion.mo     # compiled (not in git)
    companion/pillars/locale/zh/LC_MESSAGES/pillars.po     # what only the Pillars say

The kiosk looks a text up in the core catalogue, then in each registered game's
(:func:`load_all`): a message the core uses, or two games share, is the core's; a message only
one game uses (its card names, sentences, refusals, help, scenes, title and options) is that
game's (``i18n.catalogue_messages``).

The ``msgid`` is always the English text.  UI strings (the ``_()`` and ``n_()`` calls) have no
context; the names of game things and the rules help are keyed by a ``msgctxt`` per table (see
:class:`Table`; each game lists its own), so that "Master" the Builders rank and a card called
"Master" never clash.

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
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

if TYPE_CHECKING:
    from companion.engine.registry import GameSpec

DOMAIN = "companion"
"""The core catalogue's gettext domain: its file name."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""The folder holding one ``<lang>/LC_MESSAGES/companion.po`` per translated language."""

TRANSLATED = ("zh", "ja")
"""The languages with a catalogue (English is the source text)."""


def po_path(lang: str, root: Path = LOCALE_DIR, domain: str = DOMAIN) -> Path:
    return root / lang / "LC_MESSAGES" / f"{domain}.po"


def mo_path(lang: str, root: Path = LOCALE_DIR, domain: str = DOMAIN) -> Path:
    return root / lang / "LC_MESSAGES" / f"{domain}.mo"


@dataclass(frozen=True, slots=True)
class Catalogue:
    """One catalogue: its gettext domain, its locale folder, the folder of the sources whose
    texts it translates, and the game it belongs to (None: the kiosk core's)."""

    domain: str
    folder: Path
    sources: Path
    game: str | None = None

    def po(self, lang: str) -> Path:
        return po_path(lang, self.folder, self.domain)

    def mo(self, lang: str) -> Path:
        return mo_path(lang, self.folder, self.domain)


CORE = Catalogue(DOMAIN, LOCALE_DIR, LOCALE_DIR.parent)
"""The kiosk core's catalogue: what every game's table shows."""


def catalogues() -> tuple[Catalogue, ...]:
    """The core catalogue, then each registered game's that declares a ``locale`` folder (in
    the registry's order); a game's sources are the package holding that folder."""
    from companion.engine.registry import specs

    games = (
        Catalogue(s.name, s.locale, s.locale.parent, s.name)
        for s in specs()
        if s.locale is not None
    )
    return (CORE, *games)


def game_names() -> tuple[str, ...]:
    from companion.engine.registry import names

    return names()


# ---------------------------------------------------------------------------------------------
# The tables of game words: each a context, and the English text of each id.


@dataclass(frozen=True, slots=True)
class Table:
    """Names or help texts of one kind, translated under one ``msgctxt``."""

    name: str
    """The table's name (``BUILDERS_CARDS``), unique among all the games' tables."""
    context: str
    """Its ``msgctxt`` in the .po files."""
    english: Mapping[str, str]
    """The English text (the ``msgid``) of each id."""
    note: str
    """What the entries are, for translators (an extracted comment)."""


def game_tables(game: str) -> tuple[Table, ...]:
    """The tables of names and help of the game called ``game``: the ``tables()`` of the words
    its registry record declares (none for a game with the default words)."""
    from companion.engine.registry import spec

    found = spec(game)
    if found.words is None:
        return ()
    return tuple(_words(found).tables())


def game_english_words(game: str) -> list[str]:
    """Every English name of the game called ``game`` besides its ``_()`` texts: its words'
    ``english_words()``, or its card catalogue's names for a game with the default words."""
    from companion.engine.registry import spec

    found = spec(game)
    if found.words is None:
        return [name for c in found.cards for name in (c.name, c.printed) if name]
    return list(_words(found).english_words())


@runtime_checkable
class GameNames(Protocol):
    """What the catalogue asks of a game's words (``companion.kiosk.words.GameWords``)."""

    def tables(self) -> tuple[Table, ...]: ...

    def english_words(self) -> Iterator[str]: ...


def _words(found: GameSpec) -> GameNames:
    """The words the spec ``found`` declares; TypeError when its loader gives none."""
    assert found.words is not None
    made = found.words()(found)
    if not isinstance(made, GameNames):
        raise TypeError(f"the {found.name} spec's words loader made {made!r}, not GameWords")
    return made


def tables() -> dict[str, Table]:
    """Every registered game's tables, by name.  An English text occurs once per table, and a
    table's name once among all games (tested)."""
    found: dict[str, Table] = {}
    for game in game_names():
        for table in game_tables(game):
            if table.name in found:
                raise ValueError(f"two games have a table called {table.name!r}")
            found[table.name] = table
    return found


def registry_words(game: str | None = None) -> list[str]:
    """The words of the games' registry records (or of ``game``'s) that the kiosk passes to
    ``_()``: titles, option labels and choice labels."""
    from companion.engine.registry import spec, specs

    words: list[str] = []
    for one in specs() if game is None else (spec(game),):
        words.append(one.title)
        for opt in one.options.values():
            if opt.label:
                words += [opt.label, *opt.labels]
    return list(dict.fromkeys(words))


def extract_game_words(
    fileobj: Any, keywords: Collection[str], comment_tags: Collection[str], options: Any
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """A Babel extraction method (named in babel.cfg) for the words that no ``_()`` literal
    holds: every game's tables of names and help (as ``pgettext``) and the registry's words.

    Babel calls it for companion/kiosk/locale/__init__.py; the words come from the games,
    through the registry, not from that file's text.  ``tools/i18n_update.py`` shares the
    extracted messages out among the catalogues.
    """
    for table in tables().values():
        for key, english in table.english.items():
            yield 0, "pgettext", (table.context, english), [f"{table.note}: {key}"]
    for word in registry_words():
        yield 0, "_", word, ["A game's title or option, from its registry record"]


# ---------------------------------------------------------------------------------------------
# Reading, compiling, loading.


def read(lang: str, root: Path = LOCALE_DIR, domain: str = DOMAIN) -> Catalog:
    """``lang``'s catalogue, read from its .po file.  FileNotFoundError when there is none."""
    path = po_path(lang, root, domain)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def read_all(lang: str) -> list[Catalog]:
    """``lang``'s catalogues, the core's first, then each game's that has one for ``lang``."""
    found = []
    for cat in catalogues():
        if cat is CORE or cat.po(lang).exists():
            found.append(read(lang, cat.folder, cat.domain))
    return found


def compile_catalog(catalog: Catalog) -> bytes:
    """The .mo form of ``catalog``: fuzzy and untranslated entries left out (they show the
    English text), as ``pybabel compile`` does."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def is_fresh(lang: str, root: Path = LOCALE_DIR, domain: str = DOMAIN) -> bool:
    """Whether ``lang``'s .mo exists and is at least as new as its .po."""
    mo = mo_path(lang, root, domain)
    try:
        return mo.stat().st_mtime >= po_path(lang, root, domain).stat().st_mtime
    except FileNotFoundError:
        return False


def load(lang: str, root: Path = LOCALE_DIR, domain: str = DOMAIN) -> gettext.GNUTranslations:
    """``lang``'s translations for gettext look-ups: from the .mo when it is fresh, else
    compiled in memory from the .po."""
    if is_fresh(lang, root, domain):
        with mo_path(lang, root, domain).open("rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.GNUTranslations(io.BytesIO(compile_catalog(read(lang, root, domain))))


def load_all(lang: str) -> gettext.GNUTranslations:
    """``lang``'s translations from every catalogue: the core's, falling back to each
    registered game's in turn (a game without a catalogue for ``lang`` shows English)."""
    found = load(lang)
    for cat in catalogues()[1:]:
        if cat.po(lang).exists():
            found.add_fallback(load(lang, cat.folder, cat.domain))
    return found


def compile_all(
    langs: Iterable[str] = TRANSLATED, root: Path = LOCALE_DIR, domain: str = DOMAIN
) -> list[Path]:
    """Write each language's .mo from its .po (what ``pybabel compile`` does); returns them."""
    written = []
    for lang in langs:
        path = mo_path(lang, root, domain)
        path.write_bytes(compile_catalog(read(lang, root, domain)))
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
