"""The names of the seats as the journal stores them: a seat left unnamed is stored as its
colour, and older journals' default names are recognised in every language.

A seat left unnamed is stored as its colour's English word (``Red`` for the red seat: the same
name the engine gives the seats of a set-up made from a count), never in words of the table's
language.  Whoever shows it words it in the language of the moment (the kiosk:
``companion.kiosk.words.display_name``: ``Red``, ``红方``, ``赤``); the BG Stats export sends
it in English (:mod:`companion.journal.bgstats`), so that BG Stats matches the same seat to the
same player whatever the table's language.  A name equal to another seat's colour word (a
player called "Blue" on the red seat) is a name as typed.

Journals written before this rule stored a default name in the language of their first game
("Red player", "红方", "红色", "赤のプレイヤー", "赤"): :func:`is_default_name` recognises each
of them on its colour's seat.
"""

from __future__ import annotations

from collections.abc import Iterable

COLOUR_WORDS = {"red": "Red", "blue": "Blue", "yellow": "Yellow", "green": "Green"}
"""Each colour's English word: what the journal stores for a seat of that colour left unnamed."""

LEGACY_DEFAULT_NAMES: dict[str, tuple[str, ...]] = {
    "red": ("Red player", "红方", "红色", "赤のプレイヤー", "赤"),
    "blue": ("Blue player", "蓝方", "蓝色", "青のプレイヤー", "青"),
    "yellow": ("Yellow player", "黄方", "黄色", "黄のプレイヤー", "黄"),
    "green": ("Green player", "绿方", "绿色", "緑のプレイヤー", "緑"),
}
"""The default names older journals stored, in every language the kiosk has spoken."""


def stored_default(colour: str) -> str:
    """What the journal stores for a seat of ``colour`` left unnamed: the colour's English word
    (``Red``), whatever the table's language.  KeyError for an unknown colour."""
    return COLOUR_WORDS[colour]


def is_default_name(name: str, colour: str, also: Iterable[str] = ()) -> bool:
    """Whether ``name`` on a seat of ``colour`` is that colour's default: its colour word (any
    case), or an older journal's default name in any language (``also``: more default names
    to recognise, e.g. the catalogues' current words), not a name somebody typed."""
    if colour not in COLOUR_WORDS:
        return False
    folded = name.strip().casefold()
    known = (COLOUR_WORDS[colour], *LEGACY_DEFAULT_NAMES[colour], *also)
    return any(folded == n.casefold() for n in known)


def english_name(name: str, colour: str) -> str:
    """``name`` as an export in English shows it: a default name as its colour's English word
    (``红方`` on the red seat is ``Red``), any other as it is."""
    return COLOUR_WORDS[colour] if is_default_name(name, colour) else name


__all__ = [
    "COLOUR_WORDS",
    "LEGACY_DEFAULT_NAMES",
    "english_name",
    "is_default_name",
    "stored_default",
]
