"""The rules-engine core shared by every game, and the registry of games."""

from __future__ import annotations

from typing import Any

from .core import CHANCE, COLOURS, TERMINAL, Game, Option, PlayerSpec, Setup
from .errors import (
    AmbiguousAction,
    IllegalAction,
    MalformedAction,
    RecordError,
    RulesError,
    SetupError,
    UndoBlocked,
)
from .playthrough import Playthrough
from .record import Record, replay

GAMES = ("pillars", "builders")


def get_game(name: str) -> Game[Any, Any]:
    """The rules of the game called ``name``; raises SetupError for an unknown name."""
    if name == "pillars":
        from companion.pillars import PillarsGame

        return PillarsGame()
    if name == "builders":
        from companion.builders import BuildersGame

        return BuildersGame()
    raise SetupError(f"unknown game {name!r}; the games are {', '.join(GAMES)}")


__all__ = [
    "CHANCE",
    "COLOURS",
    "GAMES",
    "TERMINAL",
    "AmbiguousAction",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "Option",
    "PlayerSpec",
    "Playthrough",
    "Record",
    "RecordError",
    "RulesError",
    "Setup",
    "SetupError",
    "UndoBlocked",
    "get_game",
    "replay",
]
