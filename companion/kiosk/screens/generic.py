"""The table screen for a registered game that brings no screen of its own.

Any game in the registry can be set up, journaled, played and replayed; this screen lets the
table play one through the engine alone: whose decision it is, the decisions the engine allows
as buttons (paged), and at a draw or reveal the companion's virtual deck.  The two built-in games
have screens of their own (their registry records name them).
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.engine import CHANCE
from companion.kiosk import theme
from companion.kiosk.i18n import _
from companion.kiosk.ui import draw_text, grid
from companion.kiosk.words import name_of

from .base import GameScreen
from .game import open_game, virtual_draw


class GenericGameScreen(GameScreen):
    """Whose turn, and the engine's legal decisions as buttons."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.page = 0

    def act(self, action: Any) -> None:
        if self.app.play(action):
            self.page = 0
            virtual_draw(self.app, lambda state: True)
            if self.game.is_over(self.state):
                open_game(self.app)

    def commit_companion(self, action: Any) -> None:
        self.act(action)

    def draw_for_table(self) -> None:
        """The companion draws or reveals for the table (committed before it is shown)."""
        from companion.engine.simulate import sample

        self.app.play(sample(self.game.chance_outcomes(self.state), self.app.rng))
        virtual_draw(self.app, lambda state: True)
        if self.game.is_over(self.state):
            open_game(self.app)

    def next_page(self) -> None:
        self.page += 1

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        info, body = self.standard_bar(surface)
        state = self.state
        who = self.game.current_player(state)
        players = self.game.setup_of(state).players
        if who == CHANCE:
            status = _("The table draws or reveals")
        elif 0 <= who < len(players):
            status = _("{name} decides", name=name_of(players[who]))
        else:
            status = ""
        draw_text(surface, status, info, m.text, theme.TEXT, align="left", bold=True)
        inner = body.inflate(-m.gap * 2, -m.gap * 2)
        if who == CHANCE:
            self.button(surface, inner, _("Draw for the table"), self.draw_for_table,
                        key="virtual", role="draw")
            return
        if self.companion_panel(surface, inner):  # the companion's seat decides, or a hint
            return
        actions = self.game.legal_actions(state)
        cols = 2 if m.portrait else 3
        rows = max(1, (inner.height + m.gap) // (m.touch + m.gap))
        per_page = max(1, cols * rows - 1)
        pages = max(1, (len(actions) + per_page - 1) // per_page)
        self.page %= pages
        shown = actions[self.page * per_page : (self.page + 1) * per_page]
        cells = grid(inner, len(shown) + (pages > 1), cols, m.gap, m.touch)
        legal = {str(a) for a in actions}
        for action, cell in zip(shown, cells, strict=False):
            self.action_button(surface, cell, self.game.format_action(action), action, legal)
        if pages > 1:
            self.button(surface, cells[-1], _("More"), self.next_page, key="next page")
        self.roles.setdefault("undo", self.undo)


__all__ = ["GenericGameScreen"]
