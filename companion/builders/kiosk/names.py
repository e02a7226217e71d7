"""The names of Builders things in the table's language: buildings, machines, workers (by rank
and what they supply), resources, and the rules help of each kind of action.

English names come from the engine's data (:mod:`companion.builders.cards`; card ids are the
French names' slugs, ruling B10); the translations are in this game's catalogue
(``companion/builders/locale``), each kind of name under its own ``msgctxt`` (:func:`tables`).
"""

from __future__ import annotations

from functools import cache

from companion.builders import cards as B
from companion.kiosk.api import RESOURCE_CONTEXT, Table, _, in_table, language, resource_name

from .rules_help import BUILDERS_HELP


@cache
def tables() -> tuple[Table, ...]:
    """This game's tables of names and help (extracted into its catalogue)."""
    return (
        Table(
            "BUILDERS_CARDS",
            "builders card",
            {c: B.card_name(c, "en") for c in B.BUILDING},
            "The Builders: a building or machine card",
        ),
        Table(
            "BUILDERS_RANKS",
            "builders rank",
            {w.rank: w.name_en for w in B.WORKERS},
            "The Builders: a worker's rank (a card's name adds its resources)",
        ),
        Table(
            "BUILDERS_RESOURCES",
            RESOURCE_CONTEXT,
            {r: r for r in (*B.RESOURCES, "coins")},
            "A resource or currency, lower case as in a sentence",
        ),
        Table(
            "BUILDERS_HELP",
            "builders action help",
            dict(BUILDERS_HELP),
            "The Builders: rules help for one kind of action (1 to 3 sentences)",
        ),
    )


def _table(name: str) -> Table:
    return next(t for t in tables() if t.name == name)


def english_words() -> list[str]:
    """Every English name this game can show, and the French names printed on the cards."""
    return [B.card_name(c, lang) for c in (*B.BUILDING, *B.WORKER) for lang in ("en", "fr")]


def builders_card_name(card_id: str) -> str:
    """A Builders card's name (buildings, machines, workers; the id is the French name's slug,
    ruling B10)."""
    if card_id not in B.BUILDING and card_id not in B.WORKER:
        raise KeyError(f"unknown Builders card {card_id!r}")
    if language() == "en":
        return B.card_name(card_id, "en")
    if card_id in B.BUILDING:
        return in_table(_table("BUILDERS_CARDS"), card_id)
    w = B.WORKER[card_id]
    parts = [
        _("{n} {resource}", n=n, resource=resource_name(r))
        for n, r in zip(w.output, B.RESOURCES, strict=True)
        if n
    ]
    return _(
        "{rank} ({resources})", rank=builders_rank_name(card_id), resources=_(", ").join(parts)
    )


def builders_rank_name(card_id: str) -> str:
    """A Builders worker by its rank (``Master``)."""
    return in_table(_table("BUILDERS_RANKS"), B.WORKER[card_id].rank)


def builders_french_name(card_id: str) -> str:
    """The French name printed on a Builders card, e.g. ``Le château-fort``."""
    return B.card_name(card_id, "fr")


BUILDERS_ACTIONS = tuple(BUILDERS_HELP)
"""The kinds of Builders action: start, recruit, send, coins, buy action, end turn."""


def builders_action_help(kind: str) -> str:
    """Short rules help for a kind of Builders action, named by the first words of its
    notation: ``start``, ``recruit``, ``send``, ``coins``, ``buy action``, ``end turn``
    (``buy`` and ``end`` are read too).  KeyError for anything else.
    """
    key = " ".join(kind.lower().split())
    key = {"buy": "buy action", "end": "end turn"}.get(key, key)
    return in_table(_table("BUILDERS_HELP"), key)
