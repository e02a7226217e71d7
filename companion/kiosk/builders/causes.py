"""The Builders ledger in words: why each entry changed what it changed (``cause``), and the
source it counts under in a breakdown (``source``), from the cause tags of
``companion.builders.causes`` and their named detail."""

from __future__ import annotations

from companion.engine.ledger import Entry
from companion.kiosk.i18n import _, builders_card_name, builders_rank_name


def _card(entry: Entry, key: str = "card") -> str:
    try:
        return builders_card_name(str(entry.get(key, "")))
    except KeyError:
        return _("a card")


def _worker(entry: Entry) -> str:
    try:
        return builders_rank_name(str(entry.get("card", "")))
    except KeyError:  # a machine sent as a worker
        return _card(entry)


def cause(entry: Entry) -> str:
    """The cause of ``entry`` in the table's language, with its detail ("wage of the Master
    at the Chapel", "coins for 2 AP", "Castle completed")."""
    tag = entry.cause
    if tag == "start":
        return _("the starting coins")
    if tag == "apprentice":
        return _("an Apprentice dealt")
    if tag in ("recruit", "automa.recruit"):
        return _("recruiting {card}", card=_worker(entry))
    if tag == "send.wage":
        return _("the wage of {worker} at {site}", worker=_worker(entry),
                 site=_card(entry, "site"))
    if tag == "coins.take":
        return _("coins for {n} AP", n=entry.get("ap", 0))
    if tag == "action.buy":
        return _("an extra action")
    if tag in ("complete.building", "complete.machine", "automa.complete"):
        return _("{card} completed", card=_card(entry))
    if tag == "end.coins":
        return _("{n} coins at the end: 1 VP per 10", n=entry.get("coins", 0))
    if tag == "automa.aside":
        return _("workers set aside with {card}", card=_card(entry))
    return _("set by hand")


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


__all__ = ["cause", "source", "sources"]
