"""The Builders: Middle Ages (Les Bâtisseurs : Moyen-Âge) on the shared rules-engine core."""

from __future__ import annotations

from .actions import (
    Action,
    BuyAction,
    DealApprentice,
    EndTurn,
    Recruit,
    Reveal,
    Send,
    ShowNext,
    Start,
    TakeCoins,
    parse_action,
)
from .cards import BUILDING, BUILDINGS, WORKER, WORKERS, BuildingCard, WorkerCard, card_name
from .rules import TURN, BuildersGame, Move, can_progress
from .state import BuildersState, PlayerState, Site

__all__ = [
    "BUILDING",
    "BUILDINGS",
    "TURN",
    "WORKER",
    "WORKERS",
    "Action",
    "BuildersGame",
    "BuildersState",
    "BuildingCard",
    "BuyAction",
    "DealApprentice",
    "EndTurn",
    "Move",
    "PlayerState",
    "Recruit",
    "Reveal",
    "Send",
    "ShowNext",
    "Site",
    "Start",
    "TakeCoins",
    "WorkerCard",
    "can_progress",
    "card_name",
    "parse_action",
]
