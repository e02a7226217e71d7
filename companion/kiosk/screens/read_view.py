"""What a card or a space does, over the whole table screen while a finger held on it asks
(``GameScreen.read``), until Close."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

import pygame

from companion.events import Role
from companion.kiosk import theme
from companion.kiosk.i18n import _
from companion.kiosk.ui import draw_text

from .panel import StepPanel

if TYPE_CHECKING:
    from .base import GameScreen

S = TypeVar("S")
A = TypeVar("A")


class ReadView(StepPanel["GameScreen[S, A]"], Generic[S, A]):
    """The card or space read by a hold (its title and what it does), or none."""

    screen: GameScreen[S, A]

    def __init__(self, screen: GameScreen[S, A]) -> None:
        super().__init__(screen)
        self.held: tuple[str, str] | None = None  # title, text

    def show(self, title: str, text: str) -> None:
        self.held = (title, text)

    def close(self) -> None:
        self.held = None

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The text over ``area`` (the screen below its bar), with Close (also the back
        key)."""
        from .overlays import help_frame

        if self.held is None:
            return
        s = self.screen
        m = s.m
        title, text = self.held
        body, foot = help_frame(s, surface, area.inflate(-m.gap * 4, -m.gap * 4), title)
        draw_text(surface, text, body, m.text, theme.TEXT, align="left", valign="top",
                  lines=14, min_size=m.px(12))
        s.button(surface, foot, _("Close"), s.close_read, key="close card",
                 role=(Role.CONFIRM, Role.BACK))


__all__ = ["ReadView"]
