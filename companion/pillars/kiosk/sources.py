"""The sources of a Pillars breakdown: under which line of a round's or a game's table each
ledger entry counts (the cause tags of ``companion.pillars.causes``); the words for each
entry's cause itself are ``sentences.cause_text``."""

from __future__ import annotations

from companion.engine.ledger import Entry
from companion.kiosk.api import _


def source(entry: Entry) -> str:
    """The source ``entry`` counts under in a breakdown by source (one line of a round's or
    a game's table): the Priory, events, tax, the cathedral, privileges, the market..."""
    return {
        "start": _("Start"),
        "craftsman": _("Craftsmen hired"),
        "builder": _("Master builders"),
        "event": _("Events"),
        "archbishop": _("Archbishop's Office"),
        "wool": _("Wool mill"),
        "privilege": _("Privileges"),
        "priory": _("Priory"),
        "production": _("Production"),
        "court": _("King's Court"),
        "tax": _("Tax"),
        "castle": _("Shiring Castle"),
        "castle.return": _("Shiring Castle"),
        "market.buy": _("Market"),
        "market.sell": _("Market"),
        "cathedral": _("Cathedral"),
        "return": _("Resource limit"),
    }.get(entry.cause) or _("Set by hand")


def sources() -> tuple[str, ...]:
    """The sources of VP a game's breakdown always lists, in this order."""
    return (_("Start"), _("Priory"), _("Cathedral"))


__all__ = ["source", "sources"]
