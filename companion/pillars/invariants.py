"""Conservation checks of a Pillars state: cubes, workers, builders, every card in exactly one
place (``PillarsGame.invariants``; the position builder refuses a position that breaks one)."""

from __future__ import annotations

from . import data as D
from .draft import limit, reserve
from .state import PillarsState


def invariants(state: PillarsState) -> list[str]:
    """Conservation: cubes, workers, builders and every card in exactly one place."""
    bad = []
    for r, total in enumerate(D.CUBES):
        # Owed cubes are the player's (ruling P16) but still lie in the general supply.
        held = state.supply[r] + sum(s.res[r] - s.owed[r] for s in state.seats)
        held += state.market[r] if r < 3 else state.court_metal
        if held != total:
            bad.append(f"{D.RESOURCES[r]}: {held} cubes, expected {total}")
        if state.supply[r] < 0 or any(s.res[r] < 0 for s in state.seats):
            bad.append(f"{D.RESOURCES[r]}: a negative count")
        if any(not 0 <= s.owed[r] <= s.res[r] for s in state.seats):
            bad.append(f"{D.RESOURCES[r]}: owed cubes out of range")
        if state.supply[r] and any(s.owed[r] for s in state.seats):
            bad.append(f"{D.RESOURCES[r]}: owed while the supply has some")
    gray = state.castle_gray + sum(s.gray + s.gray_next for s in state.seats)
    if gray != D.GRAY_WORKERS:
        bad.append(f"gray workers: {gray}, expected {D.GRAY_WORKERS}")
    for i, s in enumerate(state.seats):
        name = state.setup.players[i].name
        own = D.OWN_WORKERS + ("otto" in s.privileges)
        if s.workers != own:
            bad.append(f"{name}: {s.workers} workers, expected {own}")
        if reserve(s) < s.wool or reserve(s) < 0:
            bad.append(f"{name}: more workers placed than owned")
        builders = (
            state.bag[i]
            + state.aside[i]
            + state.spaces.count(i)
            + state.parked.count(i)
            + (state.drawn == i)
        )
        if builders != D.BUILDERS_EACH or state.bag[i] < 0 or state.aside[i] < 0:
            bad.append(f"{name}: {builders} master builders, expected 3, none below 0")
        if s.gold < 0 or s.gold > D.GOLD_LIMIT or s.vp < 0:
            bad.append(f"{name}: gold {s.gold}, VP {s.vp} out of range")
        if len(s.craftsmen) > limit(s) and state.step not in ("draft-discard", "shiring-discard"):
            bad.append(f"{name}: {len(s.craftsmen)} craftsmen over the limit")
    # Craftsman cards.
    colours = [p.colour for p in state.setup.players]
    expected = sorted(
        [c.id for rnd in D.ROUND_CRAFTSMEN for c in rnd]
        + [c.id for col in colours for c in D.start_cards(col)]
    )
    future = [c.id for rnd in D.ROUND_CRAFTSMEN[state.round :] for c in rnd]
    places = (
        list(state.round_craftsmen)
        + future
        + list(state.shiring)
        + [c for c in state.pool if c in D.CRAFTSMEN]
        + [c for s in state.seats for c in s.craftsmen]
        + list(state.removed)
    )
    if sorted(places) != expected:
        bad.append("craftsman cards: some card is missing or in two places")
    # Privilege cards.
    last_round = D.LAST_ROUND_PRIVILEGES
    privs = (
        list(state.priv_unseen)
        + [c for c in state.kingsbridge if c not in last_round]
        + [c for s in state.seats for c in s.privileges + s.spent if c not in last_round]
        + [c for c in state.priv_out if c not in last_round]
    )
    if sorted(privs) != sorted(D.SHUFFLED_PRIVILEGES):
        bad.append("privilege cards: some card is missing or in two places")
    last = (
        [c for c in state.kingsbridge if c in last_round]
        + [c for c in state.priv_out if c in last_round]
        + [c for s in state.seats for c in s.privileges if c in last_round]
    )
    if len(set(last)) != len(last) or (last and state.round < D.ROUNDS):
        bad.append("last-round privilege cards: out before round 6 or in two places")
    events = (
        list(state.events_unseen) + list(state.events_done) + ([state.event] if state.event else [])
    )
    if sorted(events) != sorted(D.EVENTS):
        bad.append("event cards: some card is missing or in two places")
    res_cards = (
        list(state.res_hidden)
        + [c for c in state.pool if c in D.RESOURCE_CARDS]
        + [c for s in state.seats for c in s.cards]
    )
    if sorted(res_cards) != sorted(D.RESOURCE_CARD_IDS):
        bad.append("resource cards: some card is missing or in two places")
    return bad
