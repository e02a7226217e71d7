"""What every step panel of the Builders screen shares: the screen it draws on, its metrics,
the game and the state on the table."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

import pygame

from companion.builders import BuildersGame
from companion.builders.state import BuildersState
from companion.kiosk.api import Input, font, min_text, text_height, theme, wrap

if TYPE_CHECKING:
    from companion.kiosk.api import Kiosk

    from ..screen import BuildersScreen


class Panel(ABC):
    """A part of the Builders screen: ``render`` lays it out in an area and draws it (its
    touch targets through the screen's ``button``); ``handle`` takes an input meant for it
    (a press of the table's buttons, a card the camera read) and says whether it did."""

    def __init__(self, screen: BuildersScreen) -> None:
        self.screen = screen

    @property
    def m(self) -> theme.Metrics:
        return self.screen.m

    @property
    def app(self) -> Kiosk:
        return self.screen.app

    @property
    def game(self) -> BuildersGame:
        return self.screen.game

    @property
    def state(self) -> BuildersState:
        return self.screen.state

    @abstractmethod
    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Lay out and draw the panel in ``area``."""

    def handle(self, inp: Input) -> bool:
        """Take ``inp`` if it is meant for this panel; False to let the screen's buttons have
        it."""
        return False

    def text_block(self, surface: pygame.Surface, text: str, width: int,
                   size: int) -> tuple[int, int, int]:
        """The height ``text`` takes wrapped to ``width`` at ``size`` (never below the
        display's smallest), the size it is drawn at and its number of lines."""
        size = max(size, min_text(surface))
        f = font(size)
        rows = max(1, len(wrap(text, f, width, force=False)))
        return text_height(surface, size, lines=rows), size, rows

    def legal(self) -> set[str]:
        """The notations of the actions the rules allow now (worked out once a state: the
        panels of a frame all ask)."""
        state = self.state
        known = _legal.get(id(self.game))
        if known is None or known[0] is not state:
            legal = {str(a) for a in self.game.legal_actions(state)}
            known = _legal[id(self.game)] = (state, legal)
        return known[1]


_legal: dict[int, tuple[BuildersState, set[str]]] = {}
"""By the game: the last state asked about and its legal actions' notations."""


__all__ = ["Panel"]
