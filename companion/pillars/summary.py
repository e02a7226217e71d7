"""``PillarsGame.summary``: the whole table, its JSON (``Summary.to_json``) documented in
``docs/pillars.md``, "The summary"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.core import CHANCE, TERMINAL
from companion.engine.summary import Summary

from . import data as D
from .draft import reserve
from .state import PillarsState

if TYPE_CHECKING:
    from .rules import PillarsGame


def summary(game: PillarsGame, state: PillarsState) -> Summary:
    players = state.setup.players

    def seat_name(i: int) -> str | None:
        return players[i].name if i >= 0 else None

    who = game.current_player(state)
    active = game.active_seat(state)
    seats = []
    for i, (p, s) in enumerate(zip(players, state.seats, strict=True)):
        seats.append(
            {
                "name": p.name,
                "colour": p.colour,
                "vp": s.vp,
                "gold": s.gold,
                "resources": dict(zip(D.RESOURCES, s.res, strict=True)),
                "owed": dict(zip(D.RESOURCES, s.owed, strict=True)),
                "craftsmen": list(s.craftsmen),
                "uses": {c: n for c, n in s.uses},
                "boost": s.boost or None,
                "privileges": list(s.privileges),
                "spent": list(s.spent),
                "workers": s.workers + s.gray,
                "free_workers": reserve(s),
                "gray_next": s.gray_next,
                "resource_cards": list(s.cards),
                "wool_mill": s.wool,
                "passed": s.passed,
                "builders": {
                    "bag": state.bag[i],
                    "aside": state.aside[i],
                    "placed": [D.SPACES[k].id for k, o in enumerate(state.spaces) if o == i],
                    "parked": state.parked.count(i),
                },
                "two_builders": s.walled,
                "two_builders_next": s.walled_next,
                "protected": s.protected,
                "tax_exempt_card": s.taxfree,
                "yield_change": s.yield_mod,
            }
        )
    return game.summary_with(state, {
        "round": state.round,
        "step": state.step,
        "to_act": "chance" if who == CHANCE else (None if who == TERMINAL else seat_name(who)),
        "active": None if active is None else seat_name(active),
        "start_player": players[state.start].name,
        "cost_marker": state.cost,
        "drawn": seat_name(state.drawn),
        "redraw_used": state.redraw_used,
        "spaces": {sp.id: seat_name(o) for sp, o in zip(D.SPACES, state.spaces, strict=True)},
        "parked": [players[i].name for i in state.parked],
        "die": state.tax or None,
        "market": dict(zip(D.RESOURCES[:3], state.market, strict=True)),
        "market_turn": D.SPACES[state.market_slot].id if state.market_slot >= 0 else None,
        "supply": dict(zip(D.RESOURCES, state.supply, strict=True)),
        "court_metal": state.court_metal,
        "castle_gray": state.castle_gray,
        "kingsbridge": list(state.kingsbridge),
        "shiring": list(state.shiring),
        "pool": list(state.pool),
        "event": state.event or None,
        "events_done": list(state.events_done),
        "cards_left": {
            "privileges": len(state.priv_unseen),
            "events": len(state.events_unseen),
        },
    }, seats)
