"""The Builders table screen's step panels: each draws its part of the screen (``render``),
takes what is meant for it (``handle``) and keeps its own state in a dataclass."""

from .base import Panel
from .celebration import Celebration, CelebrationPanel
from .companion import CompanionTurnPanel
from .help import HelpPanel
from .mine import MinePanel, MineState
from .picker import PickerPanel, PickerState
from .rows import RowsPanel
from .tableau import TableauPanel
from .turn import ActionsPanel, ScoresPanel

__all__ = [
    "ActionsPanel",
    "Celebration",
    "CelebrationPanel",
    "CompanionTurnPanel",
    "HelpPanel",
    "MinePanel",
    "MineState",
    "Panel",
    "PickerPanel",
    "PickerState",
    "RowsPanel",
    "ScoresPanel",
    "TableauPanel",
]
