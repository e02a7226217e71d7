"""The end of the game and the checks of a table: no progress (B6), scores (3.4, B5) and the
conservation invariants."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import BUILDING, BUILDINGS, MACHINE_IDS, OUTPUT, WORKER, WORKERS
from .constants import AUTOMA, AUTOMA_HAND, MAX_COIN_AP, ROW_SIZE, SOLO_ROW_SIZE
from .state import BuildersState

if TYPE_CHECKING:
    from .draft import Draft

NEEDS = {c.id: c.needs for c in BUILDINGS}
"""What each building or machine needs, by id."""
SUPPLY = dict(OUTPUT)
"""What each worker or machine supplies, by id: :data:`~.cards.OUTPUT` as a plain dict, which
the steps (run in the bots' rollouts) read faster than the read-only catalogue."""


def covers(supplied: tuple[int, int, int, int], needs: tuple[int, int, int, int]) -> bool:
    """Whether ``supplied`` meets ``needs`` in every resource."""
    return (
        supplied[0] >= needs[0]
        and supplied[1] >= needs[1]
        and supplied[2] >= needs[2]
        and supplied[3] >= needs[3]
    )


def total(cards: Iterable[str], base: tuple[int, int, int, int] = (0, 0, 0, 0)) -> list[int]:
    """What ``cards`` (workers and machines) supply together, added to ``base``."""
    s0, s1, s2, s3 = base
    for c in cards:
        o = SUPPLY[c]
        s0 += o[0]
        s1 += o[1]
        s2 += o[2]
        s3 += o[3]
    return [s0, s1, s2, s3]


def shared_supply(state: BuildersState | Draft) -> list[int]:
    """What every worker nobody holds supplies of each resource: the worker row, the worker
    deck and its top, the Apprentices still to deal."""
    cards = [*state.worker_row, *state.worker_deck, *state.apprentices]
    if state.worker_next is not None:
        cards.append(state.worker_next)
    return total(cards)


def can_progress(state: BuildersState | Draft, shared: Sequence[int] | None = None) -> bool:
    """Whether any player could still finish any site (ruling B6); ``shared`` is
    :func:`shared_supply` when the caller keeps it (the draft's ``shared()``).

    Optimistic on purpose: a player is granted every idle worker of their own plus every worker
    still in the worker row or deck, unlimited coins (taking coins is always possible) and
    unlimited turns.  A site can be finished if what it already has plus all those workers
    covers its needs; a building in the row or deck counts as a site with nothing on it.  No
    action other than finishing a site ever widens these pools, so once this is false no site
    can ever be finished again: no VP can be earned any more.  (Every player's open sites are
    looked at first, the buildings still to start after: the usual answer comes sooner.)
    """
    s0, s1, s2, s3 = shared_supply(state) if shared is None else shared
    if state.solo and (state.building_row or state.building_deck or state.building_next):
        workers = len(state.automa_workers) + len(state.worker_row) + len(state.worker_deck)
        if workers + (state.worker_next is not None) >= AUTOMA_HAND:
            return True  # the Automa can still complete a building
    output = SUPPLY
    needs = NEEDS
    pools = []
    for p in state.players:
        t0, t1, t2, t3 = s0, s1, s2, s3
        for c in p.idle:
            o = output[c]
            t0 += o[0]
            t1 += o[1]
            t2 += o[2]
            t3 += o[3]
        for site in p.sites:
            s = site.supplied
            n = needs[site.card]
            if s[0] + t0 >= n[0] and s[1] + t1 >= n[1] and s[2] + t2 >= n[2] and s[3] + t3 >= n[3]:
                return True
        pools.append((t0, t1, t2, t3))
    startable = [*state.building_row, *state.building_deck]
    if state.building_next is not None:
        startable.append(state.building_next)
    for t0, t1, t2, t3 in pools:
        for card in startable:
            n = needs[card]
            if t0 >= n[0] and t1 >= n[1] and t2 >= n[2] and t3 >= n[3]:
                return True
    return False


def automa_vp(state: BuildersState | Draft) -> int:
    """The solo Automa's VP: those of the buildings it completed."""
    return sum(BUILDING[c].vp for c in state.automa_finished)


def ranking(state: BuildersState | Draft) -> list[tuple[str, tuple[int, int, int]]]:
    """Each name with its B5 key: points (VP + 1 per full 10 coins), VP from cards, coins."""
    keys = [(p.vp + p.coins // 10, p.vp, p.coins) for p in state.players]
    out = [(spec.name, key) for spec, key in zip(state.setup.players, keys, strict=True)]
    if state.solo:
        vp = automa_vp(state)
        out.append((AUTOMA, (vp, vp, 0)))
    return out


def invariants(state: BuildersState) -> list[str]:
    """Conservation problems: every card in exactly one place, sane counters; [] if fine."""
    problems: list[str] = []
    places: dict[str, list[str]] = {}

    def put(card: str, where: str) -> None:
        places.setdefault(card, []).append(where)

    for c in state.building_deck:
        put(c, "building deck")
    if state.building_next is not None:
        put(state.building_next, "top of the building deck")
    for c in state.building_row:
        put(c, "building row")
    for c in state.worker_deck:
        put(c, "worker deck")
    if state.worker_next is not None:
        put(state.worker_next, "top of the worker deck")
    for c in state.worker_row:
        put(c, "worker row")
    for c in state.apprentices:
        put(c, "Apprentices to deal")
    for c in state.automa_workers:
        put(c, f"{AUTOMA}'s workers")
    for c in state.automa_finished:
        put(c, f"{AUTOMA}'s buildings")
    for c in state.set_aside:
        put(c, "set aside")
    for spec, p in zip(state.setup.players, state.players, strict=True):
        if p.coins < 0:
            problems.append(f"{spec.name} has {p.coins} coins")
        machine_jobs: dict[str, int] = {}
        for c in p.finished:
            put(c, f"{spec.name}'s finished cards")
        for c in p.idle:
            if c in MACHINE_IDS:
                machine_jobs[c] = machine_jobs.get(c, 0) + 1
            else:
                put(c, f"{spec.name}'s idle workers")
        finished_vp = sum(BUILDING[c].vp for c in p.finished if c in BUILDING)
        if finished_vp != p.vp:
            problems.append(f"{spec.name} has {p.vp} VP but the finished cards give {finished_vp}")
        for site in p.sites:
            put(site.card, f"{spec.name}'s sites")
            for w in site.workers:
                if w in MACHINE_IDS:
                    machine_jobs[w] = machine_jobs.get(w, 0) + 1
                else:
                    put(w, f"{spec.name}'s site {site.card}")
            if site.card not in NEEDS or not all(w in OUTPUT for w in site.workers):
                continue  # reported below as an unknown card
            if tuple(total(site.workers)) != site.supplied:
                problems.append(f"{spec.name}'s site {site.card} has a wrong supply total")
            if covers(site.supplied, NEEDS[site.card]):
                problems.append(f"{spec.name}'s site {site.card} is complete but still open")
        for m in MACHINE_IDS:
            jobs = machine_jobs.get(m, 0)
            expected = 1 if m in p.finished else 0
            if jobs != expected:
                problems.append(
                    f"machine {m} works {jobs} times for {spec.name}, expected {expected}"
                )
    for b in BUILDINGS:
        where = places.get(b.id, [])
        if len(where) != 1:
            problems.append(f"building {b.id} is in {len(where)} places: {where}")
    for wc in WORKERS:
        where = places.get(wc.id, [])
        if len(where) != wc.count:
            problems.append(f"worker {wc.id} is in {len(where)} places (expected {wc.count})")
    strays = set(places) - set(BUILDING) - set(WORKER)
    if strays:
        problems.append(f"unknown cards on the table: {sorted(strays)}")
    if state.ap < 0:
        problems.append(f"{state.ap} AP")
    if state.coin_ap < 0 or (state.cumulative_coins and state.coin_ap > MAX_COIN_AP):
        problems.append(f"{state.coin_ap} AP spent on coins this turn")
    if any(n < 1 for _, n in state.sent):
        problems.append(f"a count of workers sent is below 1: {dict(state.sent)}")
    size = SOLO_ROW_SIZE if state.solo else ROW_SIZE
    if len(state.building_row) > size or len(state.worker_row) > size:
        problems.append(f"a row has more than {size} cards")
    if not state.solo and (state.automa_workers or state.automa_finished or state.set_aside):
        problems.append(f"{AUTOMA} cards in a game with {len(state.players)} players")
    return problems


def holdings(state: BuildersState) -> dict[tuple[int, str], int]:
    """What the ledger must add up to, by (seat, what): each player's ``coins``, ``vp`` (from
    cards; once the game is over, the final points with 1 per full 10 coins) and ``workers``
    (idle or on a site, finished machines included); the solo Automa (the seat after the last)
    its ``vp`` and ``workers``.  Zeros left out."""
    out: dict[tuple[int, str], int] = {}
    for i, p in enumerate(state.players):
        vp = p.vp + p.coins // 10 if state.over else p.vp
        workers = len(p.idle) + sum(len(s.workers) for s in p.sites)
        for what, n in (("vp", vp), ("coins", p.coins), ("workers", workers)):
            if n:
                out[i, what] = n
    if state.solo:
        automa = len(state.players)
        for what, n in (("vp", automa_vp(state)), ("workers", len(state.automa_workers))):
            if n:
                out[automa, what] = n
    return out
