"""The immutable state of a game of The Pillars of the Earth.

Everything is a tuple, an int or a string, so states compare with ``==``, hash, and can be
shared freely: ``apply`` builds the next state and never touches the one it was given.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from companion.engine.core import Setup

from .data import FIRST_COST


@dataclass(frozen=True)
class Seat:
    """One player's holdings and this round's flags.

    ``res`` counts every cube the player owns, the owed ones included (ruling P16); ``owed``
    says how many of them the general supply still has to hand over."""

    gold: int
    vp: int
    res: tuple[int, int, int, int]  # stone, wood, sand, metal
    owed: tuple[int, int, int, int]  # of ``res``, cubes the supply still owes (P16)
    craftsmen: tuple[str, ...]
    workers: int  # own workers: 12, 13 with Otto's black worker
    gray: int  # gray workers usable this round (Shiring Castle last round)
    gray_next: int  # gray workers taken at Shiring Castle this round, usable next round
    cards: tuple[str, ...]  # resource cards taken this round
    wool: int  # workers in the wool mill this round
    privileges: tuple[str, ...]  # permanent cards and unused once-per-game cards
    spent: tuple[str, ...]  # once-per-game cards already used
    passed: bool  # passed in this round's draft
    drawn: int  # own builders drawn this round (for the "only two builders" event)
    walled: bool  # only two builders this round
    walled_next: bool  # only two builders next round
    protected: bool  # spared this round's negative event
    taxfree: bool  # played the tax exemption this round
    yield_mod: int  # cubes more (or fewer) per resource card this round
    boost: str  # craftsman with +1 capacity this round ("" for none)
    bought: int  # bit per resource bought at the market this round
    sold: int  # bit per resource sold at the market this round
    uses: tuple[tuple[str, int], ...]  # craftsman uses made at the cathedral this round


@dataclass(frozen=True)
class PillarsState:
    """A whole table.  ``step`` names what the game waits for (see ``rules.STEPS``).

    Not slotted on purpose: ``apply`` copies the fields through ``__dict__`` into a mutable
    draft and back (``companion.engine.draft``)."""

    setup: Setup
    round: int
    step: str
    turn: int  # the seat whose decision it is, where the step has one
    queue: tuple[int, ...]  # seats still to decide at this step, after ``turn``
    start: int  # the start player
    seats: tuple[Seat, ...]
    supply: tuple[int, int, int, int]
    market: tuple[int, int, int]  # stone, wood, sand for sale
    court_metal: int
    castle_gray: int
    round_craftsmen: tuple[str, ...]  # this round's craftsmen not yet revealed
    shiring: tuple[str, ...]  # craftsmen on the two Shiring spaces ("" when none)
    pool: tuple[str, ...]  # cards in the draft pool
    res_hidden: tuple[str, ...]  # resource cards not in play this round
    priv_unseen: tuple[str, ...]  # privilege cards not yet revealed
    kingsbridge: tuple[str, ...]  # privilege cards on the two Kingsbridge spaces
    priv_out: tuple[str, ...]  # privilege cards discarded or used up
    events_unseen: tuple[str, ...]
    event: str  # this round's event ("" until revealed)
    events_done: tuple[str, ...]
    removed: tuple[str, ...]  # craftsmen out of the game
    bag: tuple[int, ...]  # master builders in the bag, per seat
    aside: tuple[int, ...]  # builders set aside by the "only two builders" event, per seat
    spaces: tuple[int, ...]  # the seat on each space, -1 when empty
    parked: tuple[int, ...]  # seats of passed builders, first passer first
    decided: int  # builders placed or passed this round (moves the cost marker)
    drawn: int  # seat of the builder waiting for a decision, -1 for none
    redraw_used: bool
    tax: int  # this round's die roll, 0 before the roll
    market_live: tuple[int, ...]  # market spaces still trading, in slot order
    market_slot: int  # the market space whose turn it is, -1 outside the market
    over: bool

    @property
    def cost(self) -> int:
        """The cost marker: 7 for the first builder drawn, down to 1, then free; 0 once every
        builder has been drawn and decided (two players: after the sixth, rules §Phase II)."""
        if self.drawn < 0 and not any(self.bag):
            return 0
        return max(FIRST_COST - self.decided, 0)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "setup":
                v = v.to_json()
            elif f.name == "seats":
                v = [{g.name: getattr(s, g.name) for g in fields(s)} for s in v]
            out[f.name] = v
        return out
