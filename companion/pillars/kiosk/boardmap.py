"""The Pillars board drawn small: its areas in the order phase III resolves them (the numbers
1 to 14 printed on the board), the craftsmen pool along its edge, the cost track, and the
places each hand-out, instruction and set-up step names.

The drawing is a plan of our own, not the board's artwork: the areas run round the board as
phase III takes them (the event, the Archbishop, the wool mill, Kingsbridge and the Priory
along the top; the forest, quarry and gravel pit holding the supply down the right; the
King's Court, Shiring, Shiring Castle, the market and the cathedral back along the bottom),
each with the number the board prints beside it, so the table finds "4 Kingsbridge" on its
own board.
"""

from __future__ import annotations

from companion.kiosk.api import Area, BoardMap, _
from companion.pillars import data as D
from companion.pillars.actions import Action

from .names import area_name


def _spaces(area: str) -> tuple[str, ...]:
    return tuple(D.SPACES[i].id for i in D.AREA_SPACES.get(area, ()))


def board_map() -> BoardMap:
    """The board in the table's language (14 by 11 units)."""
    return BoardMap((14.0, 11.0), (
        Area("event", (0, 0, 2, 3), _("Event cards"), "1"),
        Area("archbishop", (2, 0, 2, 3), area_name("archbishop"), "2", _spaces("archbishop")),
        Area("wool", (4, 0, 2, 3), _("Wool mill"), "3"),
        Area("kingsbridge", (6, 0, 3, 3), area_name("kingsbridge"), "4",
             _spaces("kingsbridge")),
        Area("priory", (9, 0, 2, 3), area_name("priory"), "5", _spaces("priory")),
        Area("supply", (11, 0, 3, 6.5), _("Forest, quarry, gravel pit: the supply"), "6–8"),
        Area("cost", (0, 3.2, 3, 3.1), _("Cost track")),
        Area("court", (11, 6.5, 3, 3), area_name("court"), "9", _spaces("court")),
        Area("shiring", (8, 6.5, 3, 3), area_name("shiring"), "10", _spaces("shiring")),
        Area("castle", (6, 6.5, 2, 3), area_name("castle"), "11", _spaces("castle")),
        Area("market", (3, 6.5, 3, 3), area_name("market"), "12", _spaces("market")),
        Area("cathedral", (0, 6.5, 3, 3), area_name("cathedral"), "13", _spaces("cathedral")),
        Area("pool", (0, 9.6, 14, 1.4), _("The pool of cards")),
    ))


STEP_PLACES: dict[str, tuple[str, ...]] = {
    "event": ("event",),
    "wool": ("wool",),
    "kingsbridge": ("kingsbridge",),
    "priory": ("priory",),
    "production": ("supply",),
    "court": ("court",),
    "tax": ("court",),
    "shiring": ("shiring",),
    "castle": ("castle",),
    "cathedral": ("cathedral",),
    "return": ("supply",),
    "round": ("cathedral", "market", "castle", "cost"),
    "dealt": ("kingsbridge", "shiring", "pool"),
}
"""The places of each kind of hand-out step (``PillarsHandOuts``' keys)."""


def action_places(action: Action) -> tuple[str, ...]:
    """The places an action moves pieces at: a builder's space, the pool, the market..."""
    verb, args = action.verb, action.args
    if verb in ("place", "remigius") and args:
        return (str(args[0]),)
    if verb == "take":
        return ("pool",)
    if verb in ("buy", "sell"):
        return ("market",)
    if verb == "archbishop":
        return ("archbishop",) if args and args[0] == "protect" else ("archbishop", "market")
    if verb in ("craft", "convert", "done"):
        return ("cathedral",)
    if verb == "return":
        return ("supply",)
    if verb == "privilege":
        return ("kingsbridge",)
    if verb == "craftsman":
        return ("shiring",)
    if verb == "resource":
        return ("pool",)
    if verb == "event":
        return ("event",)
    return ()


__all__ = ["STEP_PLACES", "action_places", "board_map"]
