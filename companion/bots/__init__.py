"""Bots that take a seat: ``random``, ``heuristic`` and ``search`` over the simulation path
(:mod:`companion.engine.sim`), the companion's strengths and hints from a rules state
(:mod:`.seat`), and the arena that pits them against each other."""

from __future__ import annotations

from . import parallel
from .bots import Bot, Choice, GreedyBot, HeuristicBot, RandomBot, outcome, value
from .names import BOTS, NAMES_HELP, STRENGTHS, Strength, make_bot, strength_bot
from .search import SearchBot
from .seat import decide, hint, position_rng
from .tournament import ArenaResult, arena, wilson

__all__ = [
    "BOTS",
    "NAMES_HELP",
    "STRENGTHS",
    "ArenaResult",
    "Bot",
    "Choice",
    "GreedyBot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "Strength",
    "arena",
    "decide",
    "hint",
    "make_bot",
    "outcome",
    "parallel",
    "position_rng",
    "strength_bot",
    "value",
    "wilson",
]
