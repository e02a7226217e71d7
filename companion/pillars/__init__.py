"""The Pillars of the Earth: the complete base game for 2 to 4 players."""

from .actions import Action, parse_action
from .conversion import Conversion, best_conversion
from .refusals import RULES
from .rules import STEP_TABLE, STEPS, PillarsGame, Step
from .state import PillarsState, Seat

__all__ = [
    "RULES",
    "STEPS",
    "STEP_TABLE",
    "Action",
    "Conversion",
    "PillarsGame",
    "PillarsState",
    "Seat",
    "Step",
    "best_conversion",
    "parse_action",
]
