"""Every refusal of the Pillars engine: its stable rule tag, its named fields, what it means.

``RULES`` is the single list; ``docs/pillars.md`` shows it as a table and a test checks that
every refusal the engine raises carries a tag listed here and the fields listed for it.
Field conventions: ``player`` is a seat index, ``card`` a card id, ``space`` a space id,
``resource`` a resource name, ``have``/``need`` counts, ``round`` the round now.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from companion.engine.errors import IllegalAction


class Rule(NamedTuple):
    fields: tuple[str, ...]
    meaning: str


RULES: dict[str, Rule] = {
    # -- anywhere
    "over": Rule((), "The game is over: nothing more can be played."),
    "action": Rule(
        ("verb",),
        "Not a well-formed action of this game (built by hand with an unknown card or space, "
        "a count out of range, or not in its one canonical form).",
    ),
    "turn": Rule(
        ("step", "player"),
        "The action does not belong to this step of the round (``player`` is -1 at a chance "
        "step, where the table reveals, draws or rolls).",
    ),
    # -- chance
    "chance.none": Rule(("card", "step"), "A card was shown, but no card is being revealed now."),
    "chance.step": Rule(
        ("step", "card"), "The card is not of the kind this step reveals (``step`` says which)."
    ),
    "chance.round": Rule(
        ("card", "card_round", "round"), "A craftsman of another round than this one."
    ),
    "chance.lastround": Rule(
        ("card", "round"), "A last-round privilege card, revealed only in round 6."
    ),
    "chance.round6": Rule(
        ("card",), "Round 6 reveals the two last-round privilege cards, no other."
    ),
    "chance.revealed": Rule(("card",), "The card is already out (revealed, taken or discarded)."),
    "chance.bag": Rule(
        ("colour", "player"), "Every master builder of that colour has already been drawn."
    ),
    "chance.colour": Rule(("colour",), "No player at this table has that colour."),
    "chance.die": Rule(("value",), "The tax die shows 2, 3, 3, 4, 4 and 5 only."),
    # -- phase I
    "phase1.pool": Rule(("player", "card"), "The card is not in this round's pool."),
    "phase1.workers": Rule(
        ("player", "card", "need", "have"),
        "A resource card needs more free workers than the player has.",
    ),
    "phase1.gold": Rule(
        ("player", "card", "cost", "gold"), "A craftsman costs more gold than the player has."
    ),
    "phase1.limit": Rule(
        ("player", "have", "limit"),
        "Over the craftsman limit after the draft: discard one of the player's own craftsmen.",
    ),
    # -- phase II
    "phase2.cost": Rule(
        ("player", "cost", "gold"), "Placing the drawn builder costs more than the player has."
    ),
    "phase2.space": Rule(
        ("player", "space", "owner"), "Each space holds one master builder; this one is taken."
    ),
    "phase2.pass": Rule(
        ("player",), "Placement is free now (from the 8th builder, or passed ones): no passing."
    ),
    "phase2.remigius": Rule(("player",), "Only the holder of Remigius places a builder free."),
    "phase2.remigius.free": Rule(
        ("player",), "Placement is free already: Remigius is kept (ruling P7)."
    ),
    "phase2.redraw": Rule(
        ("player",), "The start player (``player``) has used the once-a-round re-draw already."
    ),
    # -- phase III
    "archbishop.stock": Rule(
        ("player", "resource"), "Archbishop's Office: the market has none of that resource left."
    ),
    "once.card": Rule(
        ("player", "card"), "The decision is about another once-per-game card (``card``)."
    ),
    "event.lose": Rule(
        ("player", "card"), "Hard times: the player gives up one of his own craftsmen (P11)."
    ),
    "event.boost": Rule(
        ("player", "card"),
        "The Archbishop: one own craftsman, not a Bellmaker or Organ Builder, gets +1 (P12).",
    ),
    "shiring.limit": Rule(
        ("player", "have", "limit"),
        "Over the craftsman limit after Shiring: discard one of the player's own craftsmen.",
    ),
    "market.both": Rule(
        ("player", "resource"), "A resource bought this round cannot be sold, and the reverse."
    ),
    "market.woodworker": Rule(("player",), "Buying wood needs a Woodworker (ruling P13)."),
    "market.stonecutter": Rule(("player",), "Selling stone needs a Stonecutter (ruling P13)."),
    "market.stock": Rule(
        ("player", "resource", "have", "need"), "The market has fewer cubes than asked for."
    ),
    "market.gold": Rule(
        ("player", "cost", "gold"), "The cubes cost more gold than the player has."
    ),
    "market.cubes": Rule(
        ("player", "resource", "have", "need"), "The player holds fewer cubes than he sells."
    ),
    "cathedral.craftsman": Rule(("player", "card"), "The player has no such craftsman."),
    "cathedral.auto": Rule(
        ("player", "card"), "The Tool Maker and the Architect work by themselves."
    ),
    "cathedral.capacity": Rule(
        ("player", "card", "capacity", "used"), "The craftsman has worked as often as he can."
    ),
    "cathedral.mortar": Rule(
        ("player", "card"), "A Mason scores only for a player with a Mortar Mixer (P13)."
    ),
    "cathedral.resource": Rule(
        ("player", "card", "resource", "need", "have"), "Not enough cubes for one more use."
    ),
    "cathedral.gold": Rule(
        ("player", "card", "need", "have"), "Not enough gold for one more use (Goldsmith)."
    ),
    "return.count": Rule(
        ("player", "need", "have"),
        "Keep at most 5 resources: give back exactly ``need`` cubes, from those held.",
    ),
}


def refuse(action: object, rule: str, reason: str, **fields: Any) -> IllegalAction:
    """The refusal of ``action`` for ``rule`` (a tag of :data:`RULES`) with its fields."""
    return IllegalAction(action, reason, rule, **fields)


def docs_table() -> str:
    """:data:`RULES` as the Markdown table of ``docs/pillars.md``."""
    lines = ["| rule | fields | meaning |", "|---|---|---|"]
    for tag, r in RULES.items():
        names = ", ".join(f"`{f}`" for f in r.fields) or "none"
        lines.append(f"| `{tag}` | {names} | {r.meaning} |")
    return "\n".join(lines)
