"""The kiosk's languages: English, Simplified Chinese and Japanese.

English source text is the key (gettext style)::

    from companion.kiosk.i18n import _
    _("Round {n}", n=3)          # "Round 3", "第3轮" or "ラウンド3"

``_`` looks the text up in the current language's catalog (``companion/kiosk/locale/zh.py``,
``ja.py``), falls back to the English text, then fills in the ``{placeholders}``.  Card, space and
resource names and the rules help have their own functions below.  English names of cards, spaces
and areas come from the engines' data; the translations live in the locale modules.

The current language is module state: the kiosk is single-threaded.

Only literal strings passed to ``_`` are found by ``tests/test_i18n.py`` and
``tools/i18n_missing.py`` (and their characters go into the bundled fonts): write
``_("Cost {n}", n=cost)``, never ``_(f"Cost {cost}")`` or ``_(variable)``.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from companion.builders import cards as B
from companion.pillars import data as P

from .locale import en, ja, zh

LANGUAGES = ("en", "zh", "ja")
"""Language codes, in the order the kiosk offers them."""

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "zh": "简体中文", "ja": "日本語"}
"""Each language's name in itself (what a language button shows)."""

DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Locale:
    """The translations of one language (everything but English)."""

    code: str
    catalog: Mapping[str, str]
    pillars_kinds: Mapping[str, str]
    pillars_cards: Mapping[str, str]
    areas: Mapping[str, str]
    builders_cards: Mapping[str, str]
    builders_ranks: Mapping[str, str]
    resources: Mapping[str, str]
    step_help: Mapping[str, str]
    builders_help: Mapping[str, str]

    @classmethod
    def from_module(cls, code: str, module: ModuleType) -> Locale:
        return cls(
            code,
            module.CATALOG,
            module.PILLARS_KINDS,
            module.PILLARS_CARDS,
            module.AREAS,
            module.BUILDERS_CARDS,
            module.BUILDERS_RANKS,
            module.RESOURCES,
            module.STEP_HELP,
            module.BUILDERS_HELP,
        )

    def strings(self) -> Iterator[str]:
        """Every translated text of this language (for tests and the font build)."""
        for table in (
            self.catalog,
            self.pillars_kinds,
            self.pillars_cards,
            self.areas,
            self.builders_cards,
            self.builders_ranks,
            self.resources,
            self.step_help,
            self.builders_help,
        ):
            yield from table.values()


LOCALES: dict[str, Locale] = {
    "zh": Locale.from_module("zh", zh),
    "ja": Locale.from_module("ja", ja),
}
"""The translations by language code; English has none (the source text is the key)."""

_current = DEFAULT_LANGUAGE


def set_language(code: str) -> None:
    """Make ``code`` (one of LANGUAGES) the current language; ValueError for any other."""
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; expected one of {', '.join(LANGUAGES)}")
    _current = code


def language() -> str:
    """The current language code."""
    return _current


def _locale() -> Locale | None:
    return LOCALES.get(_current)


def _(text: str, /, **fmt: object) -> str:
    """``text`` (English) in the current language, with ``fmt`` filled into its placeholders.

    Falls back to English for a string the catalog does not have.  Without keyword arguments
    the text is returned as it is (no ``format`` call, so literal braces need no doubling).
    """
    loc = _locale()
    # An empty translation (a pasted, not yet filled line) counts as missing.
    translated = (loc.catalog.get(text) or text) if loc is not None else text
    if not fmt:
        return translated
    try:
        return translated.format(**fmt)
    except (KeyError, IndexError, ValueError):
        # A broken translation must not take the kiosk down: show the English text.
        return text.format(**fmt)


# ---------------------------------------------------------------------------------------------
# Names of game things.


def pillars_card_name(card_id: str) -> str:
    """A Pillars card's name (craftsmen ``mason2``, resource cards, privileges, events)."""
    known = card_id in P.CRAFTSMEN or any(
        card_id in names for names in (P.RESOURCE_CARD_NAMES, P.PRIVILEGE_NAMES, P.EVENT_NAMES)
    )
    if not known:
        raise KeyError(f"unknown Pillars card {card_id!r}")
    loc = _locale()
    if loc is None:
        return P.card_name(card_id)
    if card_id in P.CRAFTSMEN:
        c = P.CRAFTSMEN[card_id]
        kind = loc.pillars_kinds.get(c.kind, P.KIND_NAMES[c.kind])
        if c.round == 0:
            return _("{name} (start)", name=kind)
        return _("{name} (round {n})", name=kind, n=c.round)
    return loc.pillars_cards.get(card_id) or P.card_name(card_id)


def builders_card_name(card_id: str) -> str:
    """A Builders card's name (buildings, machines, workers; the id is the French name's slug,
    ruling B10)."""
    if card_id not in B.BUILDING and card_id not in B.WORKER:
        raise KeyError(f"unknown Builders card {card_id!r}")
    loc = _locale()
    if loc is None:
        return B.card_name(card_id, "en")
    if card_id in B.BUILDING:
        return loc.builders_cards.get(card_id) or B.card_name(card_id, "en")
    w = B.WORKER[card_id]
    parts = [
        _("{n} {resource}", n=n, resource=loc.resources.get(r, r))
        for n, r in zip(w.output, B.RESOURCES, strict=True)
        if n
    ]
    return _(
        "{rank} ({resources})",
        rank=loc.builders_ranks.get(w.rank, w.name_en),
        resources=_(", ").join(parts),
    )


def kind_name(kind: str) -> str:
    """The name of a Pillars craftsman kind (``mason``, ``woodworker!``), without a round."""
    english = P.KIND_NAMES[kind]
    loc = _locale()
    return english if loc is None else loc.pillars_kinds.get(kind, english)


def builders_rank_name(card_id: str) -> str:
    """A Builders worker by its rank (``Master``)."""
    w = B.WORKER[card_id]
    loc = _locale()
    return w.name_en if loc is None else loc.builders_ranks.get(w.rank, w.name_en)


def builders_french_name(card_id: str) -> str:
    """The French name printed on a Builders card, e.g. ``Le château-fort``."""
    return B.card_name(card_id, "fr")


def area_name(area: str) -> str:
    """The name of a Pillars board area (``court``, ``market``, ...) in the current language."""
    english = P.AREA_NAMES[area]
    loc = _locale()
    return english if loc is None else loc.areas.get(area, english)


def space_name(space_id: str) -> str:
    """The name of a Pillars master-builder space (``court1``, ``castle``, ...).

    KeyError for an unknown space.
    """
    s = P.SPACES[P.SPACE_INDEX[space_id]]
    if _locale() is None:
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
    loc = _locale()
    return name if loc is None else loc.resources.get(name, name)


# ---------------------------------------------------------------------------------------------
# Rules help.


def step_help(step: str) -> str:
    """Short rules help for a Pillars step (an id of ``companion.pillars.rules.STEPS``).

    KeyError for an unknown step.
    """
    english = en.STEP_HELP[step]
    loc = _locale()
    return english if loc is None else loc.step_help.get(step, english)


BUILDERS_ACTIONS = tuple(en.BUILDERS_HELP)
"""The kinds of Builders action: start, recruit, send, coins, buy action, end turn."""


def builders_action_help(kind: str) -> str:
    """Short rules help for a kind of Builders action, named by the first words of its
    notation: ``start``, ``recruit``, ``send``, ``coins``, ``buy action``, ``end turn``
    (``buy`` and ``end`` are read too).  KeyError for anything else.
    """
    key = " ".join(kind.lower().split())
    key = {"buy": "buy action", "end": "end turn"}.get(key, key)
    english = en.BUILDERS_HELP[key]
    loc = _locale()
    return english if loc is None else loc.builders_help.get(key, english)


# ---------------------------------------------------------------------------------------------
# Tooling: the ``_("...")`` strings of the kiosk's source (used by tests and tools, not at run
# time).

KIOSK_DIR = Path(__file__).resolve().parent


UI_DIRS = (KIOSK_DIR,)
"""The packages whose text reaches the screen: the kiosk (the devices report codes, which the
kiosk words)."""


def source_strings(root: Path | None = None) -> dict[str, list[str]]:
    """Every string literal passed as the first argument of ``_`` (or ``something._``) in the
    ``.py`` files under ``root`` (default: every folder of UI_DIRS), with where it occurs
    (``path:line``), in order of first use.
    """
    found: dict[str, list[str]] = {}
    roots = [root] if root is not None else [d for d in UI_DIRS if d.is_dir()]
    paths = sorted(p for r in roots for p in r.rglob("*.py"))
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args]
        for node in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
            func = node.func
            named = (isinstance(func, ast.Name) and func.id == "_") or (
                isinstance(func, ast.Attribute) and func.attr == "_"
            )
            arg = node.args[0]
            if named and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                where = f"{path.relative_to(KIOSK_DIR.parent.parent)}:{node.lineno}"
                found.setdefault(arg.value, []).append(where)
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
    yield from LANGUAGE_NAMES.values()
    yield from en.STEP_HELP.values()
    yield from en.BUILDERS_HELP.values()
    yield from RESOURCE_IDS
    for card in (*P.CRAFTSMEN, *P.RESOURCE_CARD_NAMES, *P.PRIVILEGE_NAMES, *P.EVENT_NAMES):
        yield P.card_name(card)
    for space in P.SPACE_INDEX:
        yield P.space_name(space)
    for card in (*B.BUILDING, *B.WORKER):
        yield B.card_name(card, "en")
        yield B.card_name(card, "fr")
