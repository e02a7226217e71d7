"""English texts that are not UI strings: the rules help for each Pillars step (translated in
this game's catalogue under the context ``pillars step help``, see :mod:`.names`).

English UI strings need no catalog (the source text is the key), and English card, space and
area names come from the engine's data (``companion.pillars.data``).
"""

from __future__ import annotations

# Short rules help for each step of companion.pillars.rules.STEPS, written from docs/pillars.md.
STEP_HELP: dict[str, str] = {
    "privilege": (
        "Round start: the top two privilege cards are revealed, one onto each Kingsbridge "
        "space. In round 6 these are the two last-round cards."
    ),
    "craftsman": (
        "Round start: this round's four craftsmen are revealed. Two go onto the Shiring "
        "spaces; the other two join the card pool."
    ),
    "resource": (
        "Round start: 7 of the 9 resource cards are revealed into the card pool. "
        "The other two are not used this round."
    ),
    "peek": (
        "Ellen's owner sees this round's event now, at the start of the round. "
        "It still takes effect in phase III."
    ),
    "draft": (
        "Phase I: in turn, take one card from the pool or pass; passing is final for this "
        "phase. A resource card needs the workers printed on it, a craftsman costs its gold."
    ),
    "draft-discard": (
        "You are over your craftsman limit (5, or 6 with Jack). Discard one, which may be "
        "the new one; it leaves the game."
    ),
    "draw": (
        "Phase II: the start player draws a master builder from the bag. The first one costs "
        "7 gold to place; the cost drops by 1 with every builder drawn."
    ),
    "place": (
        "Place the drawn master builder on a free space and pay the current cost, or pass: "
        "passed builders are placed free once the bag is empty. Once a round the start player "
        "may put the drawn builder back and draw again."
    ),
    "parked": (
        "The bag is empty: the passed master builders are now placed free, the first to pass first."
    ),
    "event": (
        "Phase III begins: the event card is revealed and applies to everyone. A builder in "
        "the Archbishop's Office can protect its owner from a negative event."
    ),
    "archbishop": (
        "Archbishop's Office: choose protection from this round's negative event, or take "
        "one stone, wood or sand from the market."
    ),
    "thomas": (
        "A negative event hits you. Play Thomas now to be protected from it, or keep him for "
        "a later round."
    ),
    "lose": (
        "Event: give up one of your craftsmen (a starting one is allowed). It leaves the game."
    ),
    "boost": (
        "Event: choose one of your craftsmen (not a Bellmaker or Organ Builder); it can be "
        "used once more this round."
    ),
    "roll": (
        "King's Court: the start player rolls the tax die. Everyone without a builder in the "
        "King's Court pays that much gold."
    ),
    "taxfree": (
        "Play your tax exemption now to pay no tax this round, or keep it for a later round."
    ),
    "shiring-discard": (
        "Shiring brought you over your craftsman limit. Discard one; it leaves the game."
    ),
    "market": (
        "Market, in space order, round and round: buy or sell any number of one resource, or "
        "pass for good. Selling stone needs a Stonecutter, buying wood a Woodworker; metal is "
        "only sold."
    ),
    "cathedral": (
        "Cathedral: use your craftsmen to turn resources into VP (and gold), each up to its "
        "capacity. The best conversion is offered first."
    ),
    "return": "You may keep at most 5 resources. Choose which ones to give back.",
    "over": (
        "The game is over. Most VP wins; a tie goes to the most gold, otherwise the win is shared."
    ),
}
