"""Helpers for Pillars tests: positions through ``PillarsGame.position`` and scripted actions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.pillars import PillarsGame, PillarsState

GAME = PillarsGame()


def new(players: int = 4, start: int = 0) -> PillarsState:
    return GAME.initial_state(GAME.setup(players, start_player=start))


def seat(state: PillarsState, i: int, **changes: Any) -> PillarsState:
    """The state with seat ``i`` changed (checked: an impossible position raises)."""
    return GAME.position(state, seats={i: changes})


def seat_unchecked(state: PillarsState, i: int, **changes: Any) -> PillarsState:
    """Seat ``i`` changed with no check at all: only for rules tests that deliberately give a
    hand no game can reach (a round-6 craftsman in round 1, to test its rule early)."""
    seats = list(state.seats)
    seats[i] = replace(seats[i], **changes)
    return replace(state, seats=tuple(seats))


def play(state: PillarsState, *texts: str) -> PillarsState:
    for text in texts:
        state = GAME.apply_text(state, text)
    return state


def legal(state: PillarsState) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state)]


def outcomes(state: PillarsState) -> dict[str, float]:
    return {str(a): p for a, p in GAME.chance_outcomes(state)}


ROUND1_REVEALS = (
    "privilege madonna",
    "privilege tom",
    "craftsman mason1",
    "craftsman toolmaker1",
    "resource stone4",
    "resource stone3",
    "resource wood4",
    "resource wood2",
    "resource sand4",
    "resource sand3",
    "resource sand2",
)
"""A round-1 opening: Madonna and Tom at Kingsbridge, Mason and Tool Maker at Shiring,
the Master Mortar Mixer and Master Woodworker in the pool with seven resource cards."""


def at_draft(players: int = 4, start: int = 0) -> PillarsState:
    return play(new(players, start), *ROUND1_REVEALS)


def at_draw(players: int = 4, start: int = 0) -> PillarsState:
    """Round 1 with everyone passing the draft: the first builder is about to be drawn."""
    state = at_draft(players, start)
    while state.step == "draft":
        state = play(state, "pass")
    assert state.step == "draw"
    return state


def spaces(state: PillarsState, **placed: int) -> PillarsState:
    """The state with builders of the given seats on the named spaces (bags derived)."""
    return GAME.position(state, spaces=placed)


def phase3(players: int = 4, placed: dict[str, int] | None = None) -> PillarsState:
    """Round 1 after a draft where everyone passed (all 12 workers in the wool mill), with
    builders on the ``placed`` spaces: the event is about to be revealed."""
    state = at_draw(players)
    placed = placed or {}
    # builders not placed in the scenario wait beside the board
    aside = tuple(3 - list(placed.values()).count(i) for i in range(players))
    return GAME.position(state, spaces=placed, aside=aside, step="event")
