"""The rules-engine core shared by every game, and the registry of games."""

from __future__ import annotations

from . import contract
from .core import CHANCE, COLOURS, TERMINAL, Game, Option, PlayerSpec, Setup, Step
from .errors import (
    AmbiguousAction,
    ContractError,
    IllegalAction,
    MalformedAction,
    RecordError,
    RulesError,
    SetupError,
    UndoBlocked,
)
from .playthrough import Playthrough
from .record import Record, replay
from .registry import CardInfo, GameSpec, get_game, register, spec, specs
from .summary import Period, PlayerResult, Summary

__all__ = [
    "CHANCE",
    "COLOURS",
    "TERMINAL",
    "AmbiguousAction",
    "CardInfo",
    "ContractError",
    "Game",
    "GameSpec",
    "IllegalAction",
    "MalformedAction",
    "Option",
    "Period",
    "PlayerResult",
    "PlayerSpec",
    "Playthrough",
    "Record",
    "RecordError",
    "RulesError",
    "Setup",
    "SetupError",
    "Step",
    "Summary",
    "UndoBlocked",
    "contract",
    "get_game",
    "register",
    "spec",
    "specs",
    "replay",
]
