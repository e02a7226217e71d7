"""A validated way to reach a position, for tests and tutorials: :func:`position`.

Name what is on the table; the decks are what is left.  Every impossible position (a card in
two places, a site already complete, a machine working twice, more cards than a row holds...)
is refused with a SetupError that names what is wrong, so a test never starts from a table
that the rules could not reach.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.engine.core import Setup
from companion.engine.errors import SetupError

from .cards import BUILDING, BUILDINGS, MACHINE_IDS, ORDER, WORKER, WORKERS
from .chance import STEPS
from .checks import NEEDS, covers, invariants, total
from .constants import MAX_COIN_AP, ROW_SIZE, SOLO_ROW_SIZE, START_AP, START_COINS
from .state import DEAL_APPRENTICE, BuildersState, PlayerState, Site

_PLAYER_KEYS = frozenset({"coins", "idle", "sites", "finished"})


def _cards(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise SetupError(f"{what} must be a list of card ids, not {value!r}", "position.cards")
    cards = tuple(value)
    for c in cards:
        if not isinstance(c, str) or (c not in BUILDING and c not in WORKER):
            raise SetupError(
                f"{what}: {c!r} is not a card of The Builders", "position.cards", card=str(c)
            )
    return cards


def _player(seat: int, spec: Mapping[str, Any]) -> PlayerState:
    unknown = set(spec) - _PLAYER_KEYS
    if unknown:
        raise SetupError(
            f"player {seat}: unknown keys {sorted(unknown)}; the keys are "
            f"{', '.join(sorted(_PLAYER_KEYS))}",
            "position.player",
            player=seat,
        )
    coins = spec.get("coins", START_COINS)
    if type(coins) is not int or coins < 0:
        raise SetupError(
            f"player {seat}: coins must be a whole number >= 0, not {coins!r}",
            "position.player",
            player=seat,
        )
    idle = _cards(spec.get("idle", ()), f"player {seat}'s idle workers")
    finished = _cards(spec.get("finished", ()), f"player {seat}'s finished cards")
    for c in finished:
        if c not in BUILDING:
            raise SetupError(
                f"player {seat}: {c} is a worker, not a finished card",
                "position.player",
                player=seat,
                card=c,
            )
    raw_sites = spec.get("sites", {})
    if not isinstance(raw_sites, Mapping):
        raise SetupError(
            f"player {seat}: sites must map a building to its workers",
            "position.player",
            player=seat,
        )
    sites = []
    for card, workers in raw_sites.items():
        _cards((card,), f"player {seat}'s sites")
        if card not in BUILDING:
            raise SetupError(
                f"player {seat}: site {card} is a worker, not a building",
                "position.site",
                player=seat,
                card=card,
            )
        on_site = _cards(workers, f"player {seat}'s site {card}")
        for w in on_site:
            if w in BUILDING and w not in MACHINE_IDS:
                raise SetupError(
                    f"player {seat}: {w} on site {card} is a building",
                    "position.site",
                    player=seat,
                    card=w,
                )
        supplied = tuple(total(on_site))
        if covers(supplied, NEEDS[card]):  # type: ignore[arg-type]
            raise SetupError(
                f"player {seat}: site {card} would be complete with {', '.join(on_site)}",
                "position.site",
                player=seat,
                card=card,
            )
        sites.append(Site(card, on_site, supplied))  # type: ignore[arg-type]
    busy = set(idle) | {w for s in sites for w in s.workers}
    # A finished machine works as a worker: idle unless it is placed on a site.
    idle += tuple(m for m in finished if m in MACHINE_IDS and m not in busy)
    vp = sum(BUILDING[c].vp for c in finished)
    return PlayerState(coins, idle, tuple(sites), finished, vp)


def position(
    setup: Setup,
    *,
    players: Sequence[Mapping[str, Any]] = (),
    building_row: Sequence[str] = (),
    building_next: str | None = None,
    worker_row: Sequence[str] = (),
    worker_next: str | None = None,
    turn_player: int | None = None,
    ap: int = START_AP,
    sent: Mapping[str, int] | None = None,
    coin_ap: int = 0,
    turn: int = 1,
    pending: Sequence[str] = (),
    end: str | None = None,
    automa_workers: Sequence[str] = (),
    automa_finished: Sequence[str] = (),
    set_aside: Sequence[str] = (),
) -> BuildersState:
    """A table after set-up with the named cards in place and every other card in its deck.

    ``players`` gives, per seat, ``coins`` (10 by default), ``idle`` workers, ``sites`` (a
    mapping from each open site to the workers on it, in the order started) and ``finished``
    cards; VP and supplies are computed, and a finished machine not placed on a site is idle.
    ``turn_player`` defaults to the set-up's start player; ``sent`` counts the workers sent to
    each site this turn, ``coin_ap`` the AP spent on coins; ``pending`` lists chance steps
    still due (refills).  Raises SetupError naming what is wrong."""
    n = len(setup.players)
    solo = n == 1
    if setup.game != "builders":
        raise SetupError(f"this set-up is for {setup.game!r}, not 'builders'")
    if len(players) > n:
        raise SetupError(f"{len(players)} players given for a table of {n}", "position.player")
    seats = [_player(i, spec) for i, spec in enumerate(players)]
    seats += [PlayerState(coins=START_COINS) for _ in range(n - len(seats))]
    seat = setup.start_player if turn_player is None else turn_player
    if type(seat) is not int or not 0 <= seat < n:
        raise SetupError(f"turn_player {seat!r} is not a seat of {n} players", "position.turn")
    cumulative = setup.options.get("coins", "separate") == "cumulative"
    for name, value, low, top in (
        ("ap", ap, 0, 10**6),
        ("turn", turn, 1, 10**6),
        ("coin_ap", coin_ap, 0, MAX_COIN_AP if cumulative else 10**6),
    ):
        if type(value) is not int or not low <= value <= top:
            raise SetupError(f"{name} cannot be {value!r}", "position.turn")
    sent_t = tuple((sent or {}).items())
    # Workers go to the player's open sites; a site finished this turn keeps its count.
    own = {s.card for s in seats[seat].sites} | set(seats[seat].finished)
    for site, count in sent_t:
        if site not in own or type(count) is not int or count < 1:
            raise SetupError(
                f"sent: {count!r} workers to {site!r}, which is not a site of seat {seat}",
                "position.turn",
            )
    for step in pending:
        if step not in STEPS or step == DEAL_APPRENTICE:
            raise SetupError(f"pending: {step!r} is not a refill step", "position.pending")
    brow = _cards(building_row, "the building row")
    wrow = _cards(worker_row, "the worker row")
    size = SOLO_ROW_SIZE if solo else ROW_SIZE
    for what, row, kinds in (("building", brow, BUILDING), ("worker", wrow, WORKER)):
        if len(row) > size:
            raise SetupError(
                f"the {what} row holds at most {size} cards, not {len(row)}", "position.row"
            )
        for c in row:
            if c not in kinds:
                raise SetupError(f"{c} cannot lie in the {what} row", "position.row", card=c)
    if building_next is not None and building_next not in BUILDING:
        raise SetupError(f"{building_next!r} cannot top the building deck", "position.row")
    if worker_next is not None and worker_next not in WORKER:
        raise SetupError(f"{worker_next!r} cannot top the worker deck", "position.row")
    if not solo and (automa_workers or automa_finished or set_aside):
        raise SetupError("the Automa plays only in the solo game", "position.automa")
    a_workers = _cards(automa_workers, "the Automa's workers")
    a_finished = _cards(automa_finished, "the Automa's buildings")
    aside = _cards(set_aside, "the cards set aside")
    placed: Counter[str] = Counter(brow + wrow + a_workers + a_finished + aside)
    placed.update(c for c in (building_next, worker_next) if c is not None)
    for p in seats:
        placed.update(p.finished)
        placed.update(c for c in p.idle if c not in MACHINE_IDS)
        placed.update(s.card for s in p.sites)
        placed.update(w for s in p.sites for w in s.workers if w not in MACHINE_IDS)
    building_deck = tuple(c.id for c in BUILDINGS if not placed[c.id])
    worker_deck: list[str] = []
    for w in WORKERS:
        left = w.count - placed[w.id]
        worker_deck.extend([w.id] * max(0, left))
    for deck, steps in (
        (building_deck, ("reveal building", "next building")),
        (worker_deck, ("reveal worker", "next worker")),
    ):
        due = sum(1 for step in pending if step in steps)
        if due > len(deck):
            raise SetupError(
                f"pending: {due} cards to reveal from a deck of {len(deck)}", "position.pending"
            )
    state = BuildersState(
        setup=setup,
        players=tuple(seats),
        building_deck=building_deck,
        building_next=building_next,
        building_row=brow,
        worker_deck=tuple(sorted(worker_deck, key=ORDER.__getitem__)),
        worker_next=worker_next,
        worker_row=wrow,
        apprentices=(),
        pending=tuple(pending),
        pending_seat=2 if solo else setup.start_player,  # where the set-up's deal stopped
        turn_player=seat,
        ap=ap,
        sent=sent_t,
        coin_ap=coin_ap,
        turn=turn,
        end=end,
        over=False,
        cumulative_coins=cumulative,
        show_next_worker=bool(setup.options.get("show_next_worker", False)),
        solo=solo,
        automa_workers=a_workers,
        automa_finished=a_finished,
        set_aside=aside,
    )
    problems = invariants(state)
    if problems:
        raise SetupError("impossible position: " + "; ".join(problems), "position.cards")
    return state


def keywords(state: BuildersState) -> dict[str, Any]:
    """The keywords of :func:`position` that rebuild ``state`` (``position(setup,
    **keywords(state)) == state``): a played position to edit and rebuild, validated.
    SetupError during the set-up's deal or once the game is over."""
    if state.apprentices or DEAL_APPRENTICE in state.pending or state.over:
        raise SetupError(
            "a position is a table after the set-up and before the end", "position.turn"
        )
    return {
        "players": [
            {
                "coins": p.coins,
                "idle": list(p.idle),
                "sites": {s.card: list(s.workers) for s in p.sites},
                "finished": list(p.finished),
            }
            for p in state.players
        ],
        "building_row": state.building_row,
        "building_next": state.building_next,
        "worker_row": state.worker_row,
        "worker_next": state.worker_next,
        "turn_player": state.turn_player,
        "ap": state.ap,
        "sent": dict(state.sent),
        "coin_ap": state.coin_ap,
        "turn": state.turn,
        "pending": state.pending,
        "end": state.end,
        "automa_workers": state.automa_workers,
        "automa_finished": state.automa_finished,
        "set_aside": state.set_aside,
    }
