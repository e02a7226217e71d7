"""The Pillars ledger in words: why each entry changed what it changed (``cause``), and the
source it counts under in a breakdown (``source``), from the cause tags of
``companion.pillars.causes`` and their named detail."""

from __future__ import annotations

from companion.engine.ledger import Entry
from companion.kiosk.i18n import _, area_name, pillars_card_name, resource_name, space_name
from companion.pillars import data as D


def _card(entry: Entry) -> str:
    card = str(entry.get("card", ""))
    try:
        name = pillars_card_name(card)
    except KeyError:
        return _("a card")
    for bracket in (" (", "（", "("):  # the name without its printed details
        if bracket in name and card not in D.CRAFTSMEN:
            return name.split(bracket)[0].strip()
    return name


def _space(entry: Entry) -> str:
    space = str(entry.get("space", ""))
    return space_name(space) if space in D.SPACE_INDEX else area_name("priory")


def cause(entry: Entry) -> str:
    """The cause of ``entry`` in the table's language, with its detail ("the Priory, space
    1", "tax (die 4)", "sold 2 stone")."""
    tag = entry.cause
    if tag == "start":
        return _("the starting amounts")
    if tag == "craftsman":
        return _("hiring {card}", card=_card(entry))
    if tag == "builder":
        return _("a master builder on {space}", space=_space(entry))
    if tag == "event":
        short = int(entry.get("short", 0))
        if short:
            return _("{card} ({n} gold short)", card=_card(entry), n=short)
        return _card(entry)
    if tag == "archbishop":
        return area_name("archbishop")
    if tag == "wool":
        return _("the wool mill ({n} workers)", n=entry.get("workers", 0))
    if tag in ("privilege", "cathedral"):
        return _card(entry)
    if tag == "priory":
        return _space(entry)
    if tag == "production":
        return _("production")
    if tag == "court":
        return area_name("court")
    if tag == "tax":
        short = int(entry.get("short", 0))
        if short:
            return _("tax (die {roll}, {n} gold short)", roll=entry.get("roll", ""), n=short)
        return _("tax (die {roll})", roll=entry.get("roll", ""))
    if tag == "castle":
        return area_name("castle")
    if tag == "castle.return":
        return _("gray workers back to the castle")
    if tag in ("market.buy", "market.sell"):
        res = resource_name(str(entry.get("resource", "stone")))
        n = entry.get("count", 0)
        return _("bought {n} {res}", n=n, res=res) if tag == "market.buy" else _(
            "sold {n} {res}", n=n, res=res
        )
    if tag == "return":
        return _("given back (at most 5 kept)")
    return _("set by hand")


def source(entry: Entry) -> str:
    """The source ``entry`` counts under in a breakdown by source (one line of a round's or
    a game's table): the Priory, events, tax, the cathedral, privileges, the market..."""
    tag = entry.cause
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
    }.get(tag) or _("Set by hand")


def sources() -> tuple[str, ...]:
    """The sources of VP a game's breakdown always lists, in this order."""
    return (_("Start"), _("Priory"), _("Events"), _("Privileges"), _("Tax"), _("Cathedral"))


__all__ = ["cause", "source", "sources"]
