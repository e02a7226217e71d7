"""The home screen (new game, resume, history, settings, language) and the error screen."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion.engine.registry import specs
from companion.events import Role
from companion.journal import GameInfo, JournalDataError, JournalError
from companion.kiosk import theme
from companion.kiosk.i18n import _
from companion.kiosk.ui import draw_text, fitted_height, grid, panel
from companion.kiosk.words import game_title, seat_labels
from companion.text import clean

from .base import Screen
from .prepare import frames, resume, resume_frame, resume_log

if TYPE_CHECKING:
    from companion.kiosk.context import Kiosk
    from companion.kiosk.lookahead import Ahead


class HomeScreen(Screen):
    """Where the kiosk starts: resume the unfinished game, or begin another.  It reads the
    journal when shown, not at every frame; a journal that cannot be read leaves a message
    and the buttons that still work (a new game, settings)."""

    def __init__(self, app: Kiosk) -> None:
        super().__init__(app)
        self.latest: GameInfo | None = None
        self.unfinished = 0
        self._read = False

    def on_show(self) -> None:
        self.read_journal()

    def read_journal(self) -> None:
        """The latest unfinished game and how many there are, read from the journal (when
        shown; a home screen made ahead, never shown yet, reads it for its first frame)."""
        from companion.kiosk.faults import journal_message

        self.latest, self.unfinished, self._read = None, 0, True
        journal = self.app.journal
        if journal is None:
            return
        try:
            page = journal.page("playing", 0, 1)
        except JournalError as exc:
            self.app.toast(journal_message(exc))
            return
        if page.problems:
            self.app.toast(journal_message(JournalDataError(page.problems[0])))
        self.latest = page.games[0] if page.games else None
        self.unfinished = page.total
        try:  # a game that ended before the table handed out its last changes: those first
            ended = journal.ended_handing_out()
        except JournalError:
            ended = None
        if ended is not None:
            self.latest = ended

    def render(self, surface: pygame.Surface) -> None:
        if not self._read:
            self.read_journal()
        m = self.m
        w, h = surface.get_size()
        right = [self.language_button()]
        area = self.title_bar(surface, "companion", back=False, right=right)
        items: list[tuple[str, str, Callable[[], None], str]] = []
        g = self.latest
        if g is not None:
            who = _(", ").join(clean(n) for n in seat_labels(g.setup, g.companions))
            sub = f"{game_title(g.game)} · {who}"
            if g.status == "finished":
                sub = _("{game}: its last changes to hand out", game=game_title(g.game))
            items.append((_("Resume"), sub, partial(self.resume, g.id), "resume"))
        items.append((_("New game"), "", self.new_game, "new"))
        others = self.unfinished - (1 if g is not None and g.status == "playing" else 0)
        if others > 0:
            items.append((_("Other unfinished games"), str(others), self.others, "others"))
        items.append((_("History"), "", self.history, "history"))
        items.append((_("Settings"), "", self.settings, "settings"))
        inner = area.inflate(-m.px(40), -m.px(16))
        titles = " · ".join(game_title(s.name) for s in specs())
        tag_h = fitted_height(surface, titles, inner.width, m.px(36), m.text)
        tagline = pygame.Rect(inner.x, inner.y, inner.width, tag_h)
        draw_text(surface, titles, tagline, m.text, theme.MUTED, lines=2)
        body = pygame.Rect(
            inner.x, tagline.bottom + m.gap, inner.width, inner.height - tagline.height - m.gap
        )
        # The first item (resume, or a new game) is the big one; the rest share a row.
        first, rest = items[0], items[1:]
        big_h = min(m.px(120), body.height // 2)
        big = pygame.Rect(body.x, body.y, body.width, big_h)
        cols = 1 if m.portrait else len(rest)
        row_h = min(
            m.px(96),
            (body.height - big_h - m.gap * 2) // max(1, (len(rest) + cols - 1) // cols) - m.gap,
        )
        rest_area = pygame.Rect(
            body.x, big.bottom + m.gap * 2, body.width, body.bottom - big.bottom - m.gap * 2
        )
        cells = [big, *grid(rest_area, len(rest), cols, m.gap * 2, row_h)]
        for (label, sub, tap, key), cell in zip([first, *rest], cells, strict=True):
            accent = cell is big
            self.button(
                surface,
                cell,
                label,
                tap,
                key=key,
                sub=sub,
                size=m.huge if accent and not sub else m.large,
                fill=theme.ACCENT if accent else theme.PANEL_HI,
                text_colour=theme.OUTLINE if accent else theme.TEXT,
                role=Role.CONFIRM if accent else None,
            )
        del w, h

    def likely_next(self) -> Iterator[Ahead]:
        """Resume's game replayed and its first frame drawn (the likeliest tap), the first
        frames of a new game's set-up, the history and the settings, then Resume's log kept
        up (``prepare``)."""
        if self.latest is not None:
            yield partial(resume_frame, self, self.latest)
        yield from frames(self, self.leads())
        if self.latest is not None:  # (after the other screens' first frames: less likely)
            yield from resume_log(self, self.latest)

    def leads(self) -> list[tuple[str, dict[str, Any]]]:
        """The screens a tap here is likely to show (name and arguments, as ``App.go`` takes
        them), most likely first, to be made and drawn ahead (``prepare.frames``)."""
        found: list[tuple[str, dict[str, Any]]] = [
            ("setup", {}), ("games", {"unfinished": False}), ("settings", {})]
        if self.unfinished - (1 if self.latest is not None and self.latest.status == "playing"
                              else 0) > 0:
            found.append(("games", {"unfinished": True}))
        return found

    def resume(self, game_id: int) -> None:
        resume(self.app, game_id)  # the game replayed ahead, if the journal has not changed

    def new_game(self) -> None:
        self.app.go("setup")

    def others(self) -> None:
        self.app.go("games", unfinished=True)

    def history(self) -> None:
        self.app.go("games", unfinished=False)

    def settings(self) -> None:
        self.app.go("settings")


class ErrorScreen(Screen):
    """A clear message when the config or the journal cannot be opened: never a traceback."""

    def __init__(self, app: Kiosk, message: str) -> None:
        super().__init__(app)
        self.message = message

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        area = self.title_bar(
            surface, _("The companion cannot start"), back=False, right=[self.language_button()]
        )
        box = area.inflate(-m.px(32), -m.px(32))
        box.height -= m.touch + m.gap
        panel(surface, box, theme.PANEL, border=theme.BAD)
        draw_text(
            surface,
            self.message,
            box.inflate(-m.px(24), -m.px(24)),
            m.text,
            lines=8,
            min_size=m.px(12),
        )
        quit_rect = pygame.Rect(box.right - m.touch * 3, box.bottom + m.gap, m.touch * 3, m.touch)
        self.button(surface, quit_rect, _("Quit"), self.quit, key="quit", role=Role.CONFIRM)

    def quit(self) -> None:
        self.app.running = False
