"""The Builders set-up guide (docs/builders.md "Set-up"), counted for the table: the building
deck and its row, the worker deck with the Apprentices dealt and its row, the bank, and the
first player; then the table screen hands out each player's 10 coins."""

from __future__ import annotations

from companion.engine import Setup
from companion.kiosk.api import GuideStep, Piece, _, n_, name_of

from .boardmap import board_map

APPRENTICES = 6
"""Apprentices in the box: one is dealt to each player, the rest go back into the deck."""


def steps(setup: Setup, virtual_deck: bool) -> list[GuideStep]:
    """The set-up of ``setup``'s table, step by step."""
    board = board_map(setup)
    n = len(setup.players)
    deal = (_("The companion deals these cards for you: it says which card goes where.")
            if virtual_deck else
            _("The table deals them: the companion asks for each card as it is turned over."))
    first = setup.players[setup.start_player]
    return [
        GuideStep(_("The buildings"), (
            _("Shuffle the 42 building cards (34 buildings and 8 machines) into one deck, "
              "construction side up."),
            _("Deal the top 5 face up in a row beside it: the building row."),
            deal,
        ), board, ("building-deck", "building-row"),
            (Piece("card", 42, label=_("buildings and machines")),)),
        GuideStep(_("The workers"), (
            n_("Take the 6 Apprentices out of the 42 worker cards; deal {n} at random, one "
               "to each player.",
               "Take the 6 Apprentices out of the 42 worker cards; deal {n} at random, one "
               "to each player.", n),
            n_("Shuffle the other {n} Apprentice back into the worker deck.",
               "Shuffle the other {n} Apprentices back into the worker deck.",
               APPRENTICES - n),
            _("Deal the top 5 face up in a row beside it: the worker row."),
            deal,
        ), board, ("worker-deck", "worker-row", *(f"player{k}" for k in range(n))),
            (Piece("card", 42, label=_("workers")),)),
        GuideStep(_("The bank"), (
            _("The coins make the bank: 25 silver coins worth 1 and 15 gold coins worth 5."),
            _("Next, the companion hands out each player's 10 coins: 1 gold and 5 silver."),
        ), board, ("bank",), (Piece("coin", 40, label=_("coins")),)),
        GuideStep(_("The first player"), (
            _("{name} plays first: give them the first player card.", name=name_of(first)),
            _("On a turn: 3 actions (start a building, recruit a worker, send a worker to "
              "a site, take coins), and more for 5 coins each."),
        ), board, (f"player{setup.start_player}",), ()),
    ]


__all__ = ["steps"]
