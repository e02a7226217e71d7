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
from .position import keywords, position
from .queries import Completion, Cost, SendPreview, SiteView, WorkerView
from .refusals import REFUSALS, Refusal
from .rules import TURN, BuildersGame, Move, can_progress
from .state import BuildersState, PlayerState, Site

__all__ = [
    "REFUSALS",
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
    "Completion",
    "Cost",
    "DealApprentice",
    "EndTurn",
    "Move",
    "PlayerState",
    "Recruit",
    "Refusal",
    "Reveal",
    "Send",
    "SendPreview",
    "ShowNext",
    "Site",
    "SiteView",
    "Start",
    "TakeCoins",
    "WorkerCard",
    "WorkerView",
    "can_progress",
    "card_name",
    "keywords",
    "parse_action",
    "position",
]
