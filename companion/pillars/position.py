"""A validated way to reach a position, for tests and tutorials: ``PillarsGame.position``.

``position(base, seats={0: {"gold": 6}}, spaces={"court1": 2}, step="event", ...)`` starts from
``base`` (a :class:`Setup`, for round 1 before the first reveal, or a state) and changes what
is named: seat fields per seat index, the builder on each named space (-1 to clear it), and any
state field.  Everything the rules keep as bookkeeping is then derived unless named too: the
builders in each bag, the general supply, the gray workers at the castle, the cards not yet
seen (privileges, events, resource cards), the craftsmen out of the game, each seat's workers
(13 with Otto), the waiting builder at ``place``, the market's turn order at ``market``.  The
result must pass every conservation check; otherwise SetupError names what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from companion.engine.core import Setup
from companion.engine.errors import SetupError

from . import data as D
from .invariants import invariants
from .state import PillarsState, Seat
from .steps import STEP

if TYPE_CHECKING:
    from .rules import PillarsGame

_STATE_FIELDS = frozenset(f.name for f in fields(PillarsState)) - {"setup", "seats"}
_SEAT_FIELDS = frozenset(f.name for f in fields(Seat))
_DERIVED = (
    "bag",
    "supply",
    "castle_gray",
    "priv_unseen",
    "events_unseen",
    "res_hidden",
    "removed",
    "round_craftsmen",
)


def build(
    game: PillarsGame,
    base: Setup | PillarsState,
    seats: Mapping[int, Mapping[str, Any]],
    spaces: Mapping[str, int],
    changes: Mapping[str, Any],
) -> PillarsState:
    state = game.initial_state(base) if isinstance(base, Setup) else base
    n = len(state.seats)
    bad = sorted(set(changes) - _STATE_FIELDS)
    if bad:
        raise SetupError(f"unknown state fields: {', '.join(bad)}")
    step = changes.get("step", state.step)
    if step not in STEP:
        raise SetupError(f"unknown step {step!r}; the steps are {', '.join(STEP)}")
    rnd = changes.get("round", state.round)
    if not isinstance(rnd, int) or not 1 <= rnd <= D.ROUNDS:
        raise SetupError(f"round {rnd!r} is not 1 to {D.ROUNDS}")
    new_seats = list(state.seats)
    for i, seat_changes in seats.items():
        if not isinstance(i, int) or not 0 <= i < n:
            raise SetupError(f"seat {i!r} is not a seat of {n} players")
        unknown = sorted(set(seat_changes) - _SEAT_FIELDS)
        if unknown:
            raise SetupError(f"unknown seat fields: {', '.join(unknown)}")
        new_seats[i] = replace(new_seats[i], **seat_changes)
    for i, s in enumerate(new_seats):
        if "workers" not in seats.get(i, {}):
            new_seats[i] = replace(s, workers=D.OWN_WORKERS + ("otto" in s.privileges))
        for card in (*s.craftsmen, *s.privileges, *s.spent, *s.cards):
            if not (card in D.CRAFTSMEN or card in D.PRIVILEGES or card in D.RESOURCE_CARDS):
                raise SetupError(f"seat {i}: unknown card {card!r}")
    sp = list(state.spaces)
    for space, who in spaces.items():
        if space not in D.SPACE_INDEX:
            raise SetupError(f"unknown space {space!r}")
        if not isinstance(who, int) or not -1 <= who < n:
            raise SetupError(f"space {space}: {who!r} is not a seat of {n} players (or -1)")
        sp[D.SPACE_INDEX[space]] = who
    try:
        out = replace(state, seats=tuple(new_seats), spaces=tuple(sp), **changes)
        if STEP[step].who == "player" and "turn" not in changes and out.turn < 0:
            out = replace(out, turn=out.drawn if step == "place" and out.drawn >= 0 else out.start)
        elif STEP[step].who != "player" and "turn" not in changes:
            out = replace(out, turn=-1)
        out = _derive(out, changes)
        problems = invariants(out)
        who_problem = _check_turn(out, STEP[step].who)
    except (TypeError, ValueError, IndexError, KeyError) as exc:
        raise SetupError(f"malformed position: {exc}") from None
    if who_problem:
        problems.append(who_problem)
    if problems:
        raise SetupError("impossible position: " + "; ".join(problems))
    return out


def _derive(s: PillarsState, given: Mapping[str, Any]) -> PillarsState:
    n = len(s.seats)
    d: dict[str, Any] = {}
    step = s.step
    if step == "place" and "drawn" not in given:
        d["drawn"] = s.turn
    drawn = d.get("drawn", s.drawn)
    if "bag" not in given:
        d["bag"] = tuple(
            D.BUILDERS_EACH - s.spaces.count(i) - s.parked.count(i) - s.aside[i] - (drawn == i)
            for i in range(n)
        )
    if step == "market" and "market_live" not in given:
        d["market_live"] = tuple(k for k in D.AREA_SPACES["market"] if s.spaces[k] >= 0)
        if "market_slot" not in given and d["market_live"]:
            d["market_slot"] = d["market_live"][0]
            if "turn" not in given:
                d["turn"] = s.spaces[d["market_slot"]]
    if "supply" not in given:
        cubes = [sum(x.res[r] - x.owed[r] for x in s.seats) for r in range(4)]
        on_board = [*s.market, s.court_metal]
        d["supply"] = tuple(D.CUBES[r] - cubes[r] - on_board[r] for r in range(4))
    if "castle_gray" not in given:
        d["castle_gray"] = D.GRAY_WORKERS - sum(x.gray + x.gray_next for x in s.seats)
    if "priv_unseen" not in given:
        seen = set(s.kingsbridge) | set(s.priv_out)
        seen |= {c for x in s.seats for c in x.privileges + x.spent}
        d["priv_unseen"] = tuple(c for c in D.SHUFFLED_PRIVILEGES if c not in seen)
    if "events_unseen" not in given:
        out = set(s.events_done) | {s.event}
        d["events_unseen"] = tuple(c for c in D.EVENTS if c not in out)
    if "res_hidden" not in given:
        used = set(s.pool) | {c for x in s.seats for c in x.cards}
        d["res_hidden"] = tuple(c for c in D.RESOURCE_CARD_IDS if c not in used)
    held = set(s.shiring) | set(s.pool) | {c for x in s.seats for c in x.craftsmen}
    this_round = [c.id for c in D.ROUND_CRAFTSMEN[s.round - 1]]
    if "round_craftsmen" not in given:
        unrevealed = step in ("privilege", "craftsman")
        d["round_craftsmen"] = tuple(c for c in this_round if unrevealed and c not in held)
    if "removed" not in given:
        rc = set(d.get("round_craftsmen", s.round_craftsmen))
        future = {c.id for rnd in D.ROUND_CRAFTSMEN[s.round :] for c in rnd}
        colours = [p.colour for p in s.setup.players]
        every = [c.id for rnd in D.ROUND_CRAFTSMEN for c in rnd]
        every += [c.id for col in colours for c in D.start_cards(col)]
        d["removed"] = tuple(c for c in every if c not in held | rc | future)
    return replace(s, **d) if d else s


def _check_turn(s: PillarsState, who: str) -> str:
    n = len(s.seats)
    if who == "player" and not 0 <= s.turn < n:
        return f"step {s.step} is a player's decision: turn must be a seat, not {s.turn}"
    if s.step == "place" and s.drawn != s.turn:
        return "at step place the drawn builder's owner decides: drawn must equal turn"
    if who == "chance" and s.turn != -1:
        return f"step {s.step} is a chance step: turn must be -1"
    if s.step == "market" and (s.market_slot < 0 or s.spaces[s.market_slot] != s.turn):
        return "at step market the turn is the builder's on the market space whose turn it is"
    return ""
