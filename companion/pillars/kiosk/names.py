"""The names of Pillars things in the table's language: cards, craftsman kinds, board areas and
spaces, resources, and the rules help of each step.

English names come from the engine's data (:mod:`companion.pillars.data`); the translations are
in this game's catalogue (``companion/pillars/locale``), each kind of name under its own
``msgctxt`` (:func:`tables`), so that a name never clashes with a UI string.
"""

from __future__ import annotations

from functools import cache

from companion.kiosk.api import RESOURCE_CONTEXT, Table, _, in_table, language
from companion.kiosk.api import resource_name as core_resource_name
from companion.pillars import data as P

from .rules_help import STEP_HELP


@cache
def tables() -> tuple[Table, ...]:
    """This game's tables of names and help (extracted into its catalogue)."""
    cards = (*P.RESOURCE_CARD_NAMES, *P.PRIVILEGE_NAMES, *P.EVENT_NAMES)
    return (
        Table(
            "PILLARS_KINDS",
            "pillars craftsman",
            {k: P.KIND_NAMES[k] for k in P.KINDS},
            "Pillars: a kind of craftsman card (a card's name adds its round)",
        ),
        Table(
            "PILLARS_CARDS",
            "pillars card",
            {c: P.card_name(c) for c in cards},
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
            "PILLARS_RESOURCES",
            RESOURCE_CONTEXT,
            {r: r for r in (*P.RESOURCES, "gold")},
            "A resource or currency, lower case as in a sentence",
        ),
        Table(
            "STEP_HELP",
            "pillars step help",
            dict(STEP_HELP),
            "Pillars: rules help for one step (1 to 3 sentences)",
        ),
    )


def _table(name: str) -> Table:
    return next(t for t in tables() if t.name == name)


def english_words() -> list[str]:
    """Every English name this game can show (for the fonts)."""
    words = [P.card_name(c) for c in (*P.CRAFTSMEN, *P.RESOURCE_CARD_NAMES, *P.PRIVILEGE_NAMES)]
    words += [P.card_name(c) for c in P.EVENT_NAMES]
    words += [P.space_name(s) for s in P.SPACE_INDEX]
    return words


def pillars_card_name(card_id: str) -> str:
    """A Pillars card's name (craftsmen ``mason2``, resource cards, privileges, events)."""
    known = card_id in P.CRAFTSMEN or any(
        card_id in names for names in (P.RESOURCE_CARD_NAMES, P.PRIVILEGE_NAMES, P.EVENT_NAMES)
    )
    if not known:
        raise KeyError(f"unknown Pillars card {card_id!r}")
    if language() == "en":
        return P.card_name(card_id)
    if card_id in P.CRAFTSMEN:
        c = P.CRAFTSMEN[card_id]
        kind = kind_name(c.kind)
        if c.round == 0:
            return _("{name} (start)", name=kind)
        return _("{name} (round {n})", name=kind, n=c.round)
    return in_table(_table("PILLARS_CARDS"), card_id)


def kind_name(kind: str) -> str:
    """The name of a Pillars craftsman kind (``mason``, ``woodworker!``), without a round."""
    return in_table(_table("PILLARS_KINDS"), kind)


def area_name(area: str) -> str:
    """The name of a Pillars board area (``court``, ``market``, ...) in the current language."""
    return in_table(_table("AREAS"), area)


def area_label_lines(area: str) -> str:
    """A Pillars area's name for a box too narrow for it on one line: the catalogue's version
    with a line end where the name may break (the name itself where it needs none)."""
    return in_table(_table("AREA_LINES"), area)


def space_name(space_id: str) -> str:
    """The name of a Pillars master-builder space (``court1``, ``castle``, ...).

    KeyError for an unknown space.
    """
    s = P.SPACES[P.SPACE_INDEX[space_id]]
    if language() == "en":
        return P.space_name(space_id)
    if len(P.AREA_SPACES[s.area]) > 1:
        return _("{area}, space {n}", area=area_name(s.area), n=s.slot)
    return area_name(s.area)


def resource_name(r: str | int) -> str:
    """A resource's name (:func:`companion.kiosk.api.resource_name`); an int is a Pillars
    resource index.  KeyError for an unknown resource."""
    return core_resource_name(P.RESOURCES[r] if isinstance(r, int) else r)


def step_help(step: str) -> str:
    """Short rules help for a Pillars step (an id of ``companion.pillars.rules.STEPS``).

    KeyError for an unknown step.
    """
    return in_table(_table("STEP_HELP"), step)
