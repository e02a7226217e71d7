"""The action log: the game so far in plain words, newest first, under round or turn headings.

Reached in one tap from every game screen (the bar's Log button) and closed back to that
screen as it was.  The words are the game's (``kiosk/gamelog.py``: who did what, and why the
points and holdings changed, from the ledger), in the table's language, rebuilt when the
language changes.  The list scrolls by touch (a drag moves it, a flick keeps it going and
slows down) and by the buttons beside it; only the rows in view are drawn.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.engine import Setup, get_game
from companion.kiosk import theme, ui
from companion.kiosk.fonts import font
from companion.kiosk.gamelog import LogSection, log_entries
from companion.kiosk.i18n import _, language
from companion.kiosk.inputs import Drag, Fling, Input
from companion.kiosk.logcache import line_widths, log_view, measured, shown, table_log
from companion.kiosk.textcache import LRU
from companion.kiosk.ui import draw_text, panel

from .ahead import back_frame
from .base import GameScreen, Screen

if TYPE_CHECKING:
    from companion.kiosk.context import Kiosk
    from companion.kiosk.lookahead import Ahead

FRICTION = 3.5
"""How fast a flick slows down: its speed falls by e every 1/FRICTION seconds."""

MIN_SPEED = 30.0
"""Below this many pixels a second a flick stops."""


@dataclass(frozen=True)
class Block:
    """One row of the laid-out log: a heading, an action, or the changes under it."""

    kind: str  # "heading", "entry" or "changes"
    text: str
    colour: str  # the player's colour, or ""
    y: int  # from the top of the list
    height: int
    lines: int


ROWS: LRU[ui.Drawing] = LRU(
    "log rows", 8 * 1024 * 1024,
    lambda kept: kept[0].get_width() * kept[0].get_height() * kept[0].get_bytesize())
"""The log's rows as drawn, and what they recorded in ``ui.OVERFLOWS``: at most 8 MB (a row
at 720x1280 is 0.1 to 0.3 MB, a screenful of rows 3 MB: the rows of two or three screens of
the log, as far as a fling goes)."""


class LogScreen(Screen):
    """The game on the table, in words, newest first."""

    def __init__(
        self, app: Kiosk, previous: Screen | None = None, game_id: int | None = None
    ) -> None:
        """The log of the game on the table, or of the journal's game ``game_id`` (a finished
        game's end screen, from the history)."""
        super().__init__(app)
        self.previous = previous
        self.game_id = game_id
        self.offset = 0.0  # pixels scrolled from the top (the newest)
        self.speed = 0.0  # pixels a second, after a flick
        self._sections: tuple[str, object, list[LogSection]] | None = None  # by language
        # and the table's state
        self._layout: tuple[tuple[str, int, int], list[Block], int] | None = None
        self.view = pygame.Rect(0, 0, 0, 0)

    # -- the words --------------------------------------------------------------------------
    def sections(self) -> list[LogSection]:
        """The log of the game on the table in the current language (built once per
        language and state, from the states the session already holds: no replay)."""
        session = self.app.session
        on_table = session if session is not None and self.game_id in (None, session.id) \
            else None
        lang, state = language(), on_table.state if on_table is not None else None
        if (self._sections is None or self._sections[0] != lang
                or self._sections[1] is not state):  # (a log made ahead of a move)
            if on_table is not None:
                built = table_log(on_table)
            else:  # a game of the journal that is not on the table: replayed once
                assert self.game_id is not None and self.app.journal is not None
                record = self.app.journal.record(self.game_id)
                built = log_entries(get_game(record.setup.game), record.setup, record.actions)
            self._sections = (lang, state, built)
            self._layout = None
        return self._sections[2]

    def setup(self) -> Setup:
        """The set-up of the game shown (its players' colours)."""
        session = self.app.session
        if session is not None and self.game_id in (None, session.id):
            return session.playthrough.setup
        assert self.game_id is not None and self.app.journal is not None
        return self.app.journal.record(self.game_id).setup

    def blocks(self, width: int) -> tuple[list[Block], int]:
        """The log laid out for a list ``width`` pixels wide: its rows and its height."""
        sections = self.sections()
        key = (language(), width, self.m.height)
        if self._layout is not None and self._layout[0] == key:
            return self._layout[1], self._layout[2]
        m = self.m
        players = self.setup().players
        out: list[Block] = []
        y = 0
        entry_font, change_font = font(m.small), font(m.small)
        text_w, change_w = line_widths(m, width)
        for s in sections:
            h = max(m.px(36), font(m.text, True).get_linesize() + m.px(8))
            out.append(Block("heading", shown(s.heading), "", y, h, 1))
            y += h
            for e in s.entries:
                colour = players[e.seat].colour if e.seat is not None else ""
                text, n = measured(e.text, entry_font, text_w)
                h = n * entry_font.get_linesize() + m.px(8)
                out.append(Block("entry", text, colour, y, h, n))
                y += h
                for change in e.changes:
                    c, n = measured(change, change_font, change_w)
                    h = n * change_font.get_linesize() + m.px(4)
                    out.append(Block("changes", c, colour, y, h, n))
                    y += h
            y += m.gap
        self._layout = (key, out, y)
        return out, y

    # -- scrolling --------------------------------------------------------------------------
    def max_offset(self) -> float:
        _blocks, total = self.blocks(self.view.width) if self.view.width else ([], 0)
        return float(max(0, total - self.view.height))

    def scroll_to(self, offset: float) -> None:
        """Scroll to ``offset`` pixels from the newest, kept within the list; a flick that
        reaches an end stops there."""
        top = self.max_offset()
        clamped = min(max(0.0, offset), top)
        if clamped != offset:
            self.speed = 0.0
        self.offset = clamped

    def page(self, direction: int) -> None:
        """Older (1) or newer (-1) by most of a screenful."""
        self.speed = 0.0
        self.scroll_to(self.offset + direction * self.view.height * 0.8)

    def newest(self) -> None:
        self.speed = 0.0
        self.scroll_to(0.0)

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Drag):
            if self.view.collidepoint(inp.start):
                self.speed = 0.0
                self.scroll_to(self.offset - inp.dy)
            return
        if isinstance(inp, Fling):
            if self.view.collidepoint(inp.start) and abs(inp.vy) >= MIN_SPEED:
                self.speed = -inp.vy
            return
        super().handle(inp)

    def update(self, dt: float) -> bool:
        if not self.speed:
            return False
        self.scroll_to(self.offset + self.speed * dt)
        self.speed *= math.exp(-FRICTION * dt)
        if abs(self.speed) < MIN_SPEED:
            self.speed = 0.0
        return True

    def animating(self) -> bool:
        return bool(self.speed)

    # -- the way back -------------------------------------------------------------------------
    def likely_next(self) -> Iterator[Ahead]:
        """Back's frame: the game screen the log was opened from, drawn again
        (``screens.ahead.back_frame``)."""
        if isinstance(self.previous, GameScreen):
            yield partial(back_frame, self, self.previous)

    def back(self) -> None:
        """Back to the screen it was opened from, as it was (or the game, if none is known)."""
        if self.previous is not None:
            self.app.show(self.previous)
        else:
            self.app.open_game()

    # -- drawing ------------------------------------------------------------------------------
    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        area = self.title_bar(
            surface,
            _("Game log"),
            right=[(_("Latest"), self.newest, "latest"), self.language_button()],
        )
        self.view, buttons = log_view(m, area)
        blocks, total = self.blocks(self.view.width)
        self.scroll_to(self.offset)
        panel(surface, self.view, theme.PANEL)
        if not blocks:
            draw_text(surface, _("Nothing has happened yet"), self.view, m.text, theme.MUTED)
        clip = surface.get_clip()
        surface.set_clip(self.view)
        top = self.view.y - int(self.offset)
        for b in blocks:
            y = top + b.y
            if y + b.height < self.view.y or y > self.view.bottom:
                continue
            self._block(surface, b, y)
        surface.set_clip(clip)
        self._scrollbar(surface, total)
        tall = min((buttons.height - m.gap) // 2, m.px(120))
        up = pygame.Rect(buttons.x, buttons.y, buttons.width, tall)
        down = pygame.Rect(buttons.x, buttons.bottom - tall, buttons.width, tall)
        self.button(surface, up, "▲", lambda: self.page(-1), key="newer",
                    enabled=self.offset > 0)
        self.button(surface, down, "▼", lambda: self.page(1), key="older",
                    enabled=self.offset < self.max_offset())

    def _block(self, surface: pygame.Surface, b: Block, y: int) -> None:
        """One row, drawn whole on its own surface and shown as far as the list's view
        reaches (a row half scrolled out is cut by the view, never its text by the screen).
        The row's surface is kept (``ROWS``) by all it is drawn from, wherever the row is:
        the log redrawn or scrolled blits its rows (drawing every row's texts took 1.7 ms a
        frame at 720x1280 here: a Pi 4's whole frame budget while a fling scrolls it)."""
        w = self.view.width
        if ui.recording():
            row = self._row(b, w)
        else:
            key = (b.kind, b.text, b.colour, b.lines, b.height, w, ui.context(surface))
            row = ui.drawn_once(ROWS, key, partial(self._row, b, w))
        if ui.AREAS is not None:  # (the row's texts, where they are on the screen)
            ui.AREAS.append(pygame.Rect(self.view.x, y, w, b.height).clip(self.view))
        surface.blit(row, (self.view.x, y))

    def _row(self, b: Block, w: int) -> pygame.Surface:
        m = self.m
        row = pygame.Surface((w, b.height))
        row.fill(theme.PANEL_HI if b.kind == "heading" else theme.PANEL)
        if b.kind == "heading":
            draw_text(row, b.text, pygame.Rect(m.px(8), 0, w - m.px(16), b.height), m.text,
                      theme.ACCENT, bold=True, align="left", lines=1, min_size=m.small)
        else:
            if b.colour:
                stripe = pygame.Rect(m.px(4), m.px(2), m.px(5), b.height - m.px(4))
                pygame.draw.rect(row, theme.PLAYER.get(b.colour, theme.MUTED), stripe)
            if b.kind == "entry":
                r = pygame.Rect(m.px(14), m.px(4), w - m.px(20), b.height - m.px(8))
                draw_text(row, b.text, r, m.small, theme.TEXT, align="left", lines=b.lines,
                          min_size=m.small)
            else:
                r = pygame.Rect(m.px(30), m.px(2), w - m.px(36), b.height - m.px(4))
                draw_text(row, b.text, r, m.small, theme.MUTED, align="left",
                          lines=b.lines, min_size=m.small)
        return row

    def _scrollbar(self, surface: pygame.Surface, total: int) -> None:
        """Where the view is in the whole log: a thin bar at the list's right edge."""
        m = self.m
        if total <= self.view.height:
            return
        track = pygame.Rect(self.view.right - m.px(5), self.view.y, m.px(4), self.view.height)
        h = max(m.px(20), track.height * self.view.height // total)
        y = track.y + int((track.height - h) * self.offset / max(1.0, self.max_offset()))
        pygame.draw.rect(surface, theme.MUTED, (track.x, y, track.width, h), border_radius=2)


__all__ = ["LogScreen"]
