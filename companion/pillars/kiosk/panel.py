"""What every Pillars step panel shares: the screen's metrics, state and rules, its buttons,
the header line, and the screen's ways to take an action or read a card."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.events import Role
from companion.kiosk.api import StepPanel, draw_text, fitted_height, theme
from companion.pillars import PillarsGame
from companion.pillars.actions import Action
from companion.pillars.state import PillarsState

if TYPE_CHECKING:
    from companion.kiosk.api import Kiosk

    from .screen import PillarsScreen


class PillarsPanel(StepPanel["PillarsScreen"]):
    """A step panel of :class:`~companion.pillars.kiosk.screen.PillarsScreen`."""

    screen: PillarsScreen

    def __init__(self, screen: PillarsScreen) -> None:
        super().__init__(screen)
        self.screen = screen

    @property
    def m(self) -> theme.Metrics:
        return self.screen.m

    @property
    def state(self) -> PillarsState:
        return self.screen.state

    @property
    def game(self) -> PillarsGame:
        return self.screen.game

    @property
    def app(self) -> Kiosk:
        return self.screen.app

    # -- the screen's ways ---------------------------------------------------------------------
    def stepper(
        self,
        surface: pygame.Surface,
        rects: tuple[pygame.Rect, pygame.Rect, pygame.Rect],
        key: str,
        value: int,
        change: Callable[[int], None],
        *,
        can: tuple[bool, bool] = (True, True),
        size: int | None = None,
    ) -> None:
        """A quantity with − and + (``less {key}``, ``more {key}``) in ``rects``: ``change``
        takes -1 or +1; ``can`` says whether each is enabled."""
        minus, qty_r, plus = rects
        button = self.screen.button
        button(surface, minus, "−", partial(change, -1), key=f"less {key}", enabled=can[0],
               size=size)
        draw_text(surface, str(value), qty_r, self.m.large, theme.TEXT, lines=1)
        button(surface, plus, "+", partial(change, 1), key=f"more {key}", enabled=can[1],
               size=size)

    def propose(self, action: Action) -> None:
        self.screen.propose(action)

    def reason(self, action: Action) -> str:
        return self.screen.reason(action)

    def big_button(self, surface: pygame.Surface, rect: pygame.Rect, label: str,
                   tap: Callable[[], None], key: str, role: Role | None = None) -> None:
        """The one large accent button of a step (DRAW, ROLL: ``role``, the table's button
        that presses it too)."""
        self.screen.button(surface, rect, label, tap, key=key, role=role, fill=theme.ACCENT,
                           text_colour=theme.OUTLINE, size=self.m.huge)

    def card_refusal(self, card: str) -> str:
        return self.screen.card_refusal(card)

    def explain_card(self, card: str) -> None:
        self.screen.explain_card(card)

    def explain_space(self, space: str) -> None:
        self.screen.explain_space(space)

    def header(
        self,
        surface: pygame.Surface,
        area: pygame.Rect,
        text: str,
        colour: theme.Colour = theme.MUTED,
        height: int = 34,
    ) -> pygame.Rect:
        """A line (or two) of text at the top of ``area``; the rest below it."""
        m = self.m
        h = fitted_height(surface, text, area.width, m.px(height), m.text, lines=2)
        head = pygame.Rect(area.x, area.y, area.width, h)
        draw_text(surface, text, head, m.text, colour, align="left", lines=2)
        return pygame.Rect(
            area.x, head.bottom + m.gap, area.width, area.height - head.height - m.gap
        )


__all__ = ["PillarsPanel"]
