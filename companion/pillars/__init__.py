"""The Pillars of the Earth: the complete base game for 2 to 4 players."""

from .actions import Action, parse_action
from .conversion import Conversion, best_conversion
from .rules import STEPS, PillarsGame
from .state import PillarsState, Seat

__all__ = [
    "STEPS",
    "Action",
    "Conversion",
    "PillarsGame",
    "PillarsState",
    "Seat",
    "best_conversion",
    "parse_action",
]
