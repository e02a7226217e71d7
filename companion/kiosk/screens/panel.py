"""The step panel: one part of a table screen with its own drawing and input."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import pygame

from companion.kiosk.inputs import Input

if TYPE_CHECKING:
    from .base import GameScreen

SC = TypeVar("SC", bound="GameScreen[Any, Any]")
"""The screen a panel belongs to (its own class: a Pillars panel's is ``PillarsScreen``)."""


class StepPanel(ABC, Generic[SC]):
    """One step's panel of a table screen (a draw, the market, a hand-out...): it draws
    itself over the area the screen gives it, its buttons being the screen's (so taps, holds
    and the table's buttons work as everywhere), keeps its own choices in a dataclass, and
    takes any other input through ``handle``.  The screen calls only ``render``, ``handle``
    and ``reset``.  Generic over its screen's class: ``class DrawPanel(StepPanel[PillarsScreen])``
    reads the Pillars screen's state and hooks with their types."""

    def __init__(self, screen: SC) -> None:
        self.screen = screen

    @abstractmethod
    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Draw the panel over ``area`` and lay out its buttons."""

    def handle(self, inp: Input) -> bool:
        """Take an input the buttons do not (True when taken); none by default."""
        return False

    def reset(self) -> None:  # noqa: B027 - an optional hook
        """A new step or turn: the panel's choices start afresh."""


__all__ = ["StepPanel"]
