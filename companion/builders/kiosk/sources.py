"""The sources of a Builders breakdown: under which line of a game's table each ledger entry
counts (the cause tags of ``companion.builders.causes``); the words for each entry's cause
itself are ``sentences.cause_text``."""

from __future__ import annotations

from companion.engine.ledger import Entry
from companion.kiosk.api import _


def source(entry: Entry) -> str:
    """The source ``entry`` counts under in a breakdown by source: buildings, machines, coins
    converted, wages, coins taken..."""
    return {
        "start": _("Start"),
        "apprentice": _("Workers"),
        "recruit": _("Workers"),
        "send.wage": _("Wages"),
        "coins.take": _("Coins taken"),
        "action.buy": _("Actions bought"),
        "complete.building": _("Buildings"),
        "complete.machine": _("Machines"),
        "end.coins": _("Coins converted"),
        "automa.recruit": _("The Automa"),
        "automa.complete": _("The Automa"),
        "automa.aside": _("The Automa"),
    }.get(entry.cause) or _("Set by hand")


def sources() -> tuple[str, ...]:
    """The sources of VP a game's breakdown always lists, in this order."""
    return (_("Buildings"), _("Machines"), _("Coins converted"))


__all__ = ["source", "sources"]
