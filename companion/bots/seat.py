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
from typing import Any

from companion.engine.core import Game, Setup
from companion.engine.sim import SimState, simulator

from .bots import Choice, decision
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
    bot = strength_bot(strength)
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
    bot = strength_bot(strength)
    sim = _thawed(game, state, seat)
    return bot.rank(sim, seat, position_rng(sim, seat, salt), top)
