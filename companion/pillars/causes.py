"""The cause of every ledger entry of The Pillars of the Earth: its stable tag, what it changes,
its named detail and what it means.

``CAUSES`` is the single list; ``docs/pillars.md`` shows it as a table ("The ledger") and a test
checks that every entry the engine writes has a cause listed here, changes one of its ``whats``
and carries its fields.  Detail conventions: ``card`` a card id, ``space`` a space id,
``resource`` a resource name; ``capped`` the part of a change a limit took (gold above 30, P2;
VP below 0, P3; cubes the general supply did not have), signed like the change.
"""

from __future__ import annotations

from companion.engine.ledger import Cause

CUBES = ("stone", "wood", "sand", "metal")

CAUSES: dict[str, Cause] = {
    "start": Cause(
        ("vp", "gold", "workers"),
        (),
        (),
        "The starting amounts: 2 VP, 20 gold for the start player and one more per seat "
        "clockwise, 12 workers.",
    ),
    "craftsman": Cause(
        ("gold",), ("card",), (), "A craftsman taken in the draft (phase I) costs its price."
    ),
    "builder": Cause(
        ("gold",),
        ("space",),
        (),
        "Placing a drawn master builder on ``space`` costs what the cost marker shows (phase II).",
    ),
    "event": Cause(
        ("vp", "gold", "metal"),
        ("card",),
        ("capped", "short"),
        "This round's event ``card``: the King's gold, William's 4 gold (``short`` the gold "
        "that could not be paid, 1 VP per 2, P5), Richard's metal, the Conflict's -2 VP, "
        "Philip's wool money (P10).",
    ),
    "archbishop": Cause(
        ("stone", "wood", "sand"),
        ("space",),
        (),
        "The Archbishop's Office: one cube from the market instead of protection (P1).",
    ),
    "wool": Cause(
        ("gold",),
        ("workers",),
        ("capped",),
        "The wool mill (step 3): 1 gold for each of the ``workers`` there.",
    ),
    "privilege": Cause(
        ("vp", "gold", *CUBES, "workers"),
        ("card",),
        ("space", "capped", "owed"),
        "A privilege ``card``: one taken at Kingsbridge (Madonna's VP, the wool fair's gold, "
        "cubes, Otto's black worker, P8), or one that works each round (Prior Philip's +1 VP "
        "at the Priory ``space``; a production bonus, ``owed`` as for production).",
    ),
    "priory": Cause(
        ("vp",),
        ("space",),
        (),
        "The Priory (step 5): 2 VP on its first space, 1 VP on its second.",
    ),
    "production": Cause(
        ("stone", "wood", "sand"),
        (),
        ("event", "owed"),
        "Resource cards yield (steps 6 to 8); ``event`` names this round's event when it "
        "changed each card's yield; ``owed`` cubes are the player's but still owed by the "
        "general supply (P16).",
    ),
    "court": Cause(
        ("metal",),
        ("space",),
        (),
        "The first King's Court space takes the court's metal (step 9).",
    ),
    "tax": Cause(
        ("gold", "vp"),
        ("roll", "due"),
        ("short", "capped"),
        "The tax (step 9): ``due`` gold for a roll of ``roll`` (2 with Francis, P9); the gold "
        "``short`` costs 1 VP per 2 (P5).",
    ),
    "castle": Cause(
        ("workers",),
        ("space",),
        (),
        "Shiring Castle (step 11): gray workers, counted from now, working next round.",
    ),
    "castle.return": Cause(
        ("workers",),
        (),
        (),
        "The gray workers go back to the castle at the end of the round they worked in.",
    ),
    "market.buy": Cause(
        ("gold", "stone", "wood", "sand"),
        ("resource", "count"),
        (),
        "Bought at the market (step 12): ``count`` cubes of ``resource``.",
    ),
    "market.sell": Cause(
        ("gold", *CUBES),
        ("resource", "count"),
        ("capped",),
        "Sold at the market (step 12): ``count`` cubes of ``resource``.",
    ),
    "cathedral": Cause(
        ("vp", "gold", *CUBES),
        ("card",),
        ("capped",),
        "Craftsman ``card`` working for the cathedral (step 13): cubes and gold in, VP and gold "
        "out, every use of one craftsman in one action as one entry per what (the Tool Maker "
        "and the Architect work by themselves).",
    ),
    "return": Cause(
        CUBES,
        (),
        (),
        "Keep at most 5 resources: cubes given back after the cathedral (step 13).",
    ),
    "position": Cause(
        ("vp", "gold", *CUBES, "workers"),
        (),
        (),
        "A position built by hand (``PillarsGame.position``, tests and tutorials): the amounts "
        "it set, so the ledger still adds up.",
    ),
}
