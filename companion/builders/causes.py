"""The cause of every ledger entry of The Builders: Middle Ages: its stable tag, what it
changes, its named detail and what it means.

``CAUSES`` is the single list; ``docs/builders.md`` shows it as a table ("The ledger") and a
test checks that every entry the engine writes has a cause listed here, changes one of its
``whats`` and carries its fields.  ``card`` and ``site`` are card ids; the solo Automa's
entries are for the seat after the last.
"""

from __future__ import annotations

from companion.engine.ledger import Cause

CAUSES: dict[str, Cause] = {
    "start": Cause(("coins",), (), (), "The 10 coins each player starts with."),
    "apprentice": Cause(
        ("workers",),
        ("card",),
        (),
        "The Apprentice ``card`` dealt at set-up (in the solo game to the Automa too).",
    ),
    "recruit": Cause(
        ("workers",), ("card",), (), "Worker ``card`` recruited from the worker row (1 AP)."
    ),
    "send.wage": Cause(
        ("coins",),
        ("card", "site"),
        (),
        "The wage of worker ``card`` sent to ``site`` (a machine has none: no entry).",
    ),
    "coins.take": Cause(
        ("coins",),
        ("ap",),
        (),
        "Coins taken for ``ap`` AP: 1, 3 or 6 (cumulative option: along the scale, B1).",
    ),
    "action.buy": Cause(("coins",), (), (), "An extra action bought for 5 coins."),
    "complete.building": Cause(
        ("coins", "vp"),
        ("card",),
        (),
        "Building ``card`` completed: it pays its coins and VP.",
    ),
    "complete.machine": Cause(
        ("coins", "vp", "workers"),
        ("card",),
        (),
        "Machine ``card`` completed: its VP (and coins, if any), and it joins its owner's "
        "workers.",
    ),
    "end.coins": Cause(
        ("vp",),
        ("coins",),
        (),
        "At the end of the game, 1 VP per full 10 of the player's ``coins`` (3.4); the coins "
        "are kept for the tie-break (B5).",
    ),
    "automa.recruit": Cause(
        ("workers",), ("card",), (), "Solo: the Automa takes worker ``card`` from the row (B9)."
    ),
    "automa.complete": Cause(
        ("vp",), ("card",), (), "Solo: the Automa completes building ``card`` for its VP (B9)."
    ),
    "automa.aside": Cause(
        ("workers",),
        ("card",),
        (),
        "Solo: the Automa's 3 oldest workers are set aside with building ``card`` (B9).",
    ),
    "position": Cause(
        ("coins", "vp", "workers"),
        (),
        (),
        "A position built by hand (``BuildersGame.position``, tests and tutorials): the "
        "amounts on its table, so the ledger still adds up.",
    ),
}
