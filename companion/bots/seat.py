"""The companion's seat at a real table: a decision or a hint from the rules' own state.

The kiosk holds ``game`` and the immutable ``state``; :func:`decide` and :func:`hint` thaw it
onto the simulation path (``simulator(game).thaw(state)``) and seed the bot from what the
deciding seat can see of the position (:func:`position_rng`): the same position gives the same
decision however often the table undoes and replays it, and two positions that differ only in
what the seat cannot see give the same decision.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Iterator
from functools import partial
from typing import Any

from companion.engine.core import Game, Setup
from companion.engine.sim import SimState, simulator

from . import parallel, search
from .bots import Choice, decision, judged
from .names import strength_bot

HINT_STRENGTH = "strong"
"""The strength whose search the hint button shows."""


def position_rng(sim: SimState, seat: int, salt: str = "") -> random.Random:
    """A generator seeded by the position as ``seat`` sees it (its determinization with a
    fixed generator, which puts everything hidden from it in one canonical form) and
    ``salt`` (e.g. the game's id, so that two games do not share their seeds)."""
    view = sim.determinize(seat, random.Random(0)).freeze()
    digest = hashlib.sha256(f"{salt}\n{_canonical(view)}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _canonical(view: Any) -> str:
    """A state as text that does not depend on how it was built: its compared fields in
    order, the set-up as sorted JSON (a resumed game's options may come back in another
    order, or as another kind of mapping)."""
    if not dataclasses.is_dataclass(view):
        return repr(view)
    parts = []
    for f in dataclasses.fields(view):
        if not f.compare:
            continue
        value = getattr(view, f.name)
        to_json = getattr(value, "to_json", None)
        if isinstance(value, Setup) and to_json is not None:
            parts.append(json.dumps(to_json(), sort_keys=True, default=str))
        else:
            parts.append(repr(value))
    return "\n".join(parts)


def _thawed(game: Game[Any, Any], state: Any, seat: int) -> SimState:
    sim = simulator(game).thaw(state)
    decision(sim, seat)
    return sim


def decide(game: Game[Any, Any], state: Any, seat: int, strength: str, salt: str = "") -> Any:
    """The companion's action for ``seat`` (the player to decide in ``state``) at
    ``strength`` (``easy``, ``normal``, ``strong``); ValueError for an unknown strength or a
    seat that has no decision."""
    bot = strength_bot(strength, game.name, len(game.setup_of(state).players))
    sim = _thawed(game, state, seat)
    return bot.choose(sim, seat, position_rng(sim, seat, salt))


def hint(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    top: int = 3,
    strength: str = HINT_STRENGTH,
    salt: str = "",
) -> list[Choice]:
    """``seat``'s ``top`` choices, best first, each with its estimated win chance (the hint
    button); uses nothing ``seat`` cannot see."""
    bot = strength_bot(strength, game.name, len(game.setup_of(state).players))
    sim = _thawed(game, state, seat)
    return bot.rank(sim, seat, position_rng(sim, seat, salt), top)


def weigh(
    sim: SimState,
    seat: int,
    actions: list[Any],
    rng: random.Random,
    rounds: int,
    batch: int,
    workers: int | None = None,
) -> Iterator[list[tuple[float, float]]]:
    """Rounds of judged playouts after each of ``actions`` (the hint's ranking): round ``r``
    is, for each action, the sum and the sum of squares of the seat's win chance over
    ``batch`` playouts, each from a fresh determinization (nothing the seat cannot see is
    used).  Every (action, round) has its own generator, seeded from ``rng`` before any
    playout, so the rounds are computed a few at a time on the cores (:mod:`.parallel`: as
    many rounds at once as processes) with the same numbers however many there are; the
    caller stops taking rounds once it has seen enough."""
    seeds = [[rng.getrandbits(64) for _ in actions] for _ in range(rounds)]
    processes = min(workers or search.WORKERS or parallel.cores(), rounds * len(actions) or 1)
    per = len(actions)

    def unit(first: int, k: int) -> tuple[float, float]:
        r, i = divmod(k, per)
        gen = random.Random(seeds[first + r][i])
        total = squares = 0.0
        for _ in range(batch):
            after = sim.determinize(seat, gen)
            after.apply(actions[i])
            v = judged(after, gen)[seat]
            total += v
            squares += v * v
        return total, squares

    step = max(1, processes if parallel.can_fork() else 1)
    for first in range(0, rounds, step):
        count = min(step, rounds - first)
        got = parallel.run(partial(unit, first), count * per, processes)
        for r in range(count):
            yield got[r * per : (r + 1) * per]
