"""The set-up guide: the box opened, step by step, to a laid-out board.

Offered when a game starts (``setup_guide`` in the settings, on until the table turns it off
here) and from the help ("?") at any time.  Each step shows a drawing (the board with the
step's places lit, the pieces it lays out, counted for this table) and what to do, one line
each; Back and Next page through it; Skip (or Next on the last step) leads to the table,
whose first hand-out step gives each seat its starting pieces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.events import Role
from companion.kiosk import theme
from companion.kiosk.boardmap import draw_map
from companion.kiosk.guide import GuideStep, draw_pieces, guide_for
from companion.kiosk.i18n import _
from companion.kiosk.ui import draw_text, fitted_height, panel, split_h
from companion.kiosk.words import game_title

from .base import Screen

if TYPE_CHECKING:
    from companion.kiosk.context import Kiosk


class GuideScreen(Screen):
    """The game's set-up guide, a step a page, for the game being played (its set-up)."""

    def __init__(self, app: Kiosk, previous: Screen | None = None) -> None:
        super().__init__(app)
        self.previous = previous
        self.page = 0

    def steps(self) -> list[GuideStep]:
        session = self.app.session
        if session is None:
            return []
        guide = guide_for(session.game.name)
        if guide is None:
            return []
        setup = session.game.setup_of(session.state)
        return list(guide(setup, bool(self.app.config.virtual_deck)))

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        steps = self.steps()
        session = self.app.session
        title = _("Set-up: {game}", game=game_title(session.game.name)) if session else ""
        if steps:
            title = _("{title} ({k} of {n})", title=title, k=self.page + 1, n=len(steps))
        area = self.title_bar(surface, title, back=False)
        inner = area.inflate(-m.gap * 2, -m.gap * 2)
        foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
        body = pygame.Rect(inner.x, inner.y, inner.width, foot.y - inner.y - m.gap)
        if not steps:
            draw_text(surface, _("This game has no set-up guide"), body, m.large, theme.MUTED)
            self.button(surface, foot, _("To the table"), self.done, key="guide done",
                        role=Role.CONFIRM)
            return
        self.page = min(self.page, len(steps) - 1)
        self.draw_step(surface, body, steps[self.page])
        self.footer(surface, foot, last=self.page == len(steps) - 1)

    def draw_step(self, surface: pygame.Surface, body: pygame.Rect, step: GuideStep) -> None:
        """The drawing (the board, the pieces) and the words of one step."""
        m = self.m
        panel(surface, body, theme.PANEL, border=theme.ACCENT)
        inner = body.inflate(-m.gap * 3, -m.gap * 3)
        for share in (11, 9, 7):  # the words as wide as they need, the picture the rest
            if m.portrait:
                picture = pygame.Rect(inner.x, inner.y, inner.width, inner.height * share // 20)
                words = pygame.Rect(inner.x, picture.bottom + m.gap, inner.width,
                                    inner.bottom - picture.bottom - m.gap)
            else:
                picture, words = split_h(inner, share, 20 - share, gap=m.gap * 3)
            if self.words_height(surface, step, words.width) <= words.height:
                break
        self.picture(surface, picture, step)
        title_h = fitted_height(surface, step.title, words.width, m.px(32), m.large, lines=2)
        title_r = pygame.Rect(words.x, words.y, words.width, title_h)
        draw_text(surface, step.title, title_r, m.large, theme.ACCENT, bold=True, lines=2,
                  align="left")
        y = title_r.bottom + m.gap
        for line in step.lines:
            h = fitted_height(surface, "• " + line, words.width, m.px(24), m.small, lines=6)
            row = pygame.Rect(words.x, y, words.width, min(h, words.bottom - y))
            if row.height <= 0:
                break
            draw_text(surface, "• " + line, row, m.small, theme.TEXT, align="left",
                      valign="top", lines=6)
            y = row.bottom + m.gap

    def words_height(self, surface: pygame.Surface, step: GuideStep, width: int) -> int:
        """The height a step's title and lines take in ``width`` pixels."""
        m = self.m
        need = fitted_height(surface, step.title, width, m.px(32), m.large, lines=2)
        return need + sum(
            fitted_height(surface, "• " + line, width, m.px(24), m.small, lines=6) + m.gap
            for line in step.lines) + m.gap

    def picture(self, surface: pygame.Surface, rect: pygame.Rect, step: GuideStep) -> None:
        """The board with the step's places lit (their names where they fit), and under it
        the pieces the step lays out."""
        m = self.m
        pieces_h = m.px(96) if step.pieces else 0
        board_r = pygame.Rect(rect.x, rect.y, rect.width, rect.height - pieces_h)
        if step.board is not None:
            draw_map(surface, board_r, step.board, step.places, names=True)
        else:
            pieces_h = rect.height
        if step.pieces:
            draw_pieces(surface, pygame.Rect(rect.x, rect.bottom - pieces_h, rect.width,
                                             pieces_h), step.pieces)

    def footer(self, surface: pygame.Surface, foot: pygame.Rect, *, last: bool) -> None:
        m = self.m
        cells = split_h(foot, 5, 4, 4, 5, gap=m.gap)
        on = bool(self.app.config.setup_guide)
        self.button(surface, cells[0], _("At every new game: on") if on else
                    _("At every new game: off"), self.toggle, key="guide every game",
                    selected=on, short=_("Every game"))
        self.button(surface, cells[1], _("Skip"), self.done, key="guide skip")
        self.button(surface, cells[2], _("Back"), self.back, key="guide back",
                    enabled=self.page > 0, role=Role.BACK)
        label = _("To the table") if last else _("Next")
        self.button(surface, cells[3], label, self.next, key="guide next", role=Role.CONFIRM,
                    fill=theme.ACCENT, text_colour=theme.OUTLINE)

    def next(self) -> None:
        if self.page >= len(self.steps()) - 1:
            self.done()
        else:
            self.page += 1

    def back(self) -> None:
        self.page = max(0, self.page - 1)

    def toggle(self) -> None:
        """Offer the guide at every new game, or not (remembered in the settings)."""
        self.app.config = self.app.config.with_(setup_guide=not self.app.config.setup_guide)
        self.app.save_config()

    def done(self) -> None:
        """To the table (the screen the guide was opened from, or the game's)."""
        if self.previous is not None:
            self.app.show(self.previous)
        else:
            self.app.open_game()


__all__ = ["GuideScreen"]
