"""The Pillars set-up guide (the rulebook's set-up, docs/pillars.md "Set-up"), counted for the
table: the board, the supply and the market, Shiring Castle and the cost track, the four
decks, the bag, and the players; then the table screen hands out each seat's starting
pieces."""

from __future__ import annotations

from companion.engine import Setup
from companion.kiosk.api import BoardMap, GuideStep, Piece, _, n_, name_of

from .boardmap import board_map

BUILDERS_EACH = 3
"""Master builders of each colour in the bag."""


def steps(setup: Setup, virtual_deck: bool) -> list[GuideStep]:
    """The set-up of ``setup``'s table, step by step."""
    board = board_map()
    deal = (_("The companion deals these cards for you: keep the deck ready, it says which "
              "card goes where.") if virtual_deck else
            _("The table deals them: the companion asks for each card when it is due."))
    return [*_board(board), *_decks(board, deal), *_pieces(setup)]


def _board(board: BoardMap) -> list[GuideStep]:
    """The board, the supply and the market, Shiring Castle and the cost track."""
    return [
        GuideStep(_("The board"), (
            _("Lay the board in the middle of the table."),
            _("The numbers 1 to 14 beside its areas are the order of phase III; the companion "
              "names places by them and lights them on its little board."),
        ), board, ()),
        GuideStep(_("The supply and the market"), (
            _("Stone (23) in the quarry, wood (23) in the forest, sand (23) in the gravel "
              "pit: the supply."),
            _("The market: 4 sand on its spaces marked 2, 4 wood on those marked 3, 4 stone "
              "on those marked 4."),
            _("1 metal on the King's Court; the other 12 metal beside the board."),
        ), board, ("supply", "market", "court"), (
            Piece("stone", 23), Piece("wood", 23), Piece("sand", 23), Piece("metal", 13))),
        GuideStep(_("Shiring Castle and the cost track"), (
            _("4 gray workers on Shiring Castle; the black worker beside the board."),
            _("The cost marker on 7."),
            _("The cathedral pieces 2 to 6 and the tax die (2, 3, 3, 4, 4, 5) beside the "
              "board."),
        ), board, ("castle", "cost"), (Piece("worker", 4, label=_("gray")), Piece("die", 1))),
    ]


def _decks(board: BoardMap, deal: str) -> list[GuideStep]:
    """The four decks: craftsmen, resource cards, privileges, events."""
    return [
        GuideStep(_("The craftsmen"), (
            _("Sort the 24 round craftsmen by the round (1 to 6) on their backs; shuffle "
              "each stack of 4 and stack them, round 1 on top, beside Shiring."),
            _("Each round, 2 go onto Shiring's spaces and 2 into the pool."),
            deal,
        ), board, ("shiring", "pool"), (Piece("card", 24, label=_("craftsmen")),)),
        GuideStep(_("The resource cards"), (
            _("Shuffle the 9 resource cards; each round 7 of them go into the pool."),
            deal,
        ), board, ("pool",), (Piece("card", 9, label=_("resource cards")),)),
        GuideStep(_("The privilege cards"), (
            _("Set aside the 2 last-round cards (marked on the back)."),
            _("Shuffle the other 14, put 4 back in the box unseen, and lay the 10 on top of "
              "the 2, beside Kingsbridge."),
            _("Each round the top 2 go onto Kingsbridge's spaces."),
            deal,
        ), board, ("kingsbridge",), (Piece("card", 12, label=_("privilege cards")),)),
        GuideStep(_("The event cards"), (
            _("Shuffle the 10 event cards, put 4 back in the box unseen, and lay 6 face down "
              "on the event space."),
        ), board, ("event",), (Piece("card", 6, label=_("event cards")),)),
    ]


def _pieces(setup: Setup) -> list[GuideStep]:
    """The bag and each player's pieces."""
    n = len(setup.players)
    return [
        GuideStep(_("The bag"), (
            n_("Each player's {n} master builder goes into the bag: {total} in all.",
               "Each player's {n} master builders go into the bag: {total} in all.",
               BUILDERS_EACH, total=BUILDERS_EACH * n),
            _("In phase II the start player draws them from the bag, one at a time (DRAW)."),
        ), None, (), (Piece("bag", 1),
                      *(Piece("builder", BUILDERS_EACH, p.colour, name_of(p))
                        for p in setup.players))),
        GuideStep(_("The players"), (
            _("Each player takes their colour: 7 small workers and 1 large (worth 5), the "
              "three starting craftsmen (Mortar Mixer, Woodworker, Stonecutter), a summary "
              "card."),
            _("{name} starts: give them the start player marker, the cathedral's first "
              "piece (the Nave).", name=name_of(setup.players[setup.start_player])),
            _("Next, the companion hands out each player's VP, gold and workers, seat by "
              "seat."),
        ), None, (), tuple(Piece("worker", 12, p.colour, name_of(p)) for p in setup.players)),
    ]


__all__ = ["steps"]
