"""The Builders' table drawn small: the building deck and its row of five, the worker deck and
its row of five, the bank, and each player's place; the places each hand-out, instruction and
set-up step names lit.  The Builders has no board: this is the table as the set-up guide lays
it out."""

from __future__ import annotations

from companion.builders import actions as B
from companion.engine import Setup
from companion.kiosk.api import Area, BoardMap, _, name_of

ROW = 5
"""Cards face up in each row."""


def board_map(setup: Setup) -> BoardMap:
    """The table for ``setup``'s players (12 by 8.5 units)."""
    players = setup.players
    width = 12.0 / max(1, len(players))
    areas = [
        Area("building-deck", (0, 0, 2, 3), _("Buildings")),
        Area("building-row", (2.2, 0, 9.8, 3), _("The building row"),
             spaces=tuple(f"building-row{k}" for k in range(1, ROW + 1))),
        Area("worker-deck", (0, 3.2, 2, 3), _("Workers")),
        Area("worker-row", (2.2, 3.2, 9.8, 3), _("The worker row"),
             spaces=tuple(f"worker-row{k}" for k in range(1, ROW + 1))),
    ]
    areas += [Area(f"player{seat}", (seat * width, 6.4, width, 1.4), name_of(p))
              for seat, p in enumerate(players)]
    areas.append(Area("bank", (4, 7.9, 4, 0.9), _("The bank"), beside=True))
    return BoardMap((12.0, 8.8), tuple(areas))


STEP_PLACES: dict[str, tuple[str, ...]] = {
    "deal": ("building-row", "worker-row"),
    "automa": ("building-row", "worker-row"),
    "end.coins": ("bank",),
    "start": ("bank",),
}
"""The places of each kind of hand-out step."""


def action_places(seat: int, action: B.Action) -> tuple[str, ...]:
    """The places ``action`` of seat ``seat`` moves pieces at."""
    own = f"player{seat}"
    if isinstance(action, B.Recruit):
        return ("worker-row", own)
    if isinstance(action, B.Start):
        return ("building-row", own)
    if isinstance(action, B.Send):
        return (own,)
    if isinstance(action, B.TakeCoins | B.BuyAction):
        return ("bank", own)
    if isinstance(action, B.Reveal | B.ShowNext):
        return (f"{action.deck}-row",)
    if isinstance(action, B.DealApprentice):
        return ("worker-deck",)
    return ()


__all__ = ["STEP_PLACES", "action_places", "board_map"]
