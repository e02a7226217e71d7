"""Bots that take a seat: ``random`` and ``heuristic`` over the simulation path
(:mod:`companion.engine.sim`), and the arena that pits them against each other."""

from __future__ import annotations

from .bots import BOTS, Bot, HeuristicBot, RandomBot, make_bot, value
from .tournament import ArenaResult, arena, wilson

__all__ = [
    "BOTS",
    "ArenaResult",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "arena",
    "make_bot",
    "value",
    "wilson",
]
