"""What covers a table screen for a while: the help, a seat's whole tableau, a card read by a
hold."""

from __future__ import annotations

import pygame

from .core import A, S, TableScreen


class Covers(TableScreen[S, A]):
    """The part of a table screen for what covers it for a while: the help (with its
    footer: the set-up guide, the table check), a seat's whole tableau, a card read by a hold
    (``ReadView``)."""

    def read(self, title: str, text: str) -> None:
        """Show what a card or space does (a finger held on it), until Close."""
        self.reader.show(title, text)

    def close_read(self) -> None:
        self.reader.close()

    def show_tableau(self, seat: int) -> None:
        self.tableau = seat

    def close_tableau(self) -> None:
        self.tableau = None

    def toggle_help(self) -> None:
        self.help_open = not self.help_open
        self.teacher.closed()

    def help_footer(self, surface: pygame.Surface, foot: pygame.Rect) -> None:
        """Close the help; the set-up guide, when the game has one; with a camera attached,
        the table check (``overlays.help_buttons``)."""
        from .overlays import help_buttons

        help_buttons(self, surface, foot)
