"""A card completed: it flips to its finished side, then the coins and VP it pays."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from companion.kiosk.api import draw_text, panel, theme

from .base import Panel

if TYPE_CHECKING:
    from ..screen import BuildersScreen

CELEBRATE_SECONDS = 1.5


@dataclass
class Celebration:
    """What is celebrated (one line per card completed) and the seconds left."""

    lines: tuple[str, ...]
    left: float = CELEBRATE_SECONDS


class CelebrationPanel(Panel):
    """The flip, drawn over the board while a celebration runs (``now``)."""

    def __init__(self, screen: BuildersScreen) -> None:
        super().__init__(screen)
        self.now: Celebration | None = None

    def start(self, lines: list[str]) -> None:
        """Celebrate ``lines`` (after those still on show: a companion's turn that completes
        two cards celebrates both)."""
        shown = self.now.lines if self.now is not None else ()
        self.now = Celebration((*shown, *lines))

    def step(self, dt: float) -> bool:
        """Advance by ``dt`` seconds; True when the celebration just ended."""
        if self.now is None:
            return False
        self.now.left -= dt
        if self.now.left > 0:
            return False
        self.now = None
        return True

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        if self.now is None:
            return
        m = self.m
        t = 1 - self.now.left / CELEBRATE_SECONDS
        box = area.inflate(-area.width // 6, -area.height // 3)
        if t < 0.35:
            squeeze = abs(math.cos(t / 0.35 * math.pi))
            card = box.inflate(-int(box.width * (1 - squeeze)), 0)
            colour = theme.PANEL_HI if t < 0.175 else theme.ACCENT
            panel(surface, card, colour, border=theme.OUTLINE, width=3)
            return
        panel(surface, box, theme.ACCENT, border=theme.OUTLINE, width=3)
        draw_text(surface, " · ".join(self.now.lines), box.inflate(-m.gap * 4, -m.gap * 4),
                  m.large, theme.OUTLINE, bold=True, lines=4)


__all__ = ["CELEBRATE_SECONDS", "Celebration", "CelebrationPanel"]
