"""Lists of games from the journal: the history of finished games, or unfinished ones."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion.journal import GameInfo, GamePage, JournalDataError
from companion.kiosk import theme
from companion.kiosk.i18n import _
from companion.kiosk.ui import draw_text, grid, split_h
from companion.kiosk.words import game_title, seat_labels
from companion.text import clean

from .base import Screen
from .prepare import frames, resume, resume_frame

if TYPE_CHECKING:
    from companion.kiosk.context import Kiosk
    from companion.kiosk.lookahead import Ahead


class GamesScreen(Screen):
    """Finished games (tap one for its scores) or unfinished ones (tap to resume).

    Only the page on screen is read from the journal (a few queries whatever its size), and
    kept until the page, the page size or the screen changes: a redraw reads nothing."""

    def __init__(self, app: Kiosk, unfinished: bool) -> None:
        super().__init__(app)
        self.unfinished = unfinished
        self.page = 0
        self._cached: tuple[tuple[int, int], GamePage] | None = None

    def on_show(self) -> None:
        self._cached = None

    def fetch(self, page: int, per_page: int) -> GamePage:
        """The games of ``page`` (read once, then from the cache); a row that cannot be read
        is left out and named in a message."""
        key = (page, per_page)
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1]
        journal = self.app.journal
        if journal is None:
            result = GamePage([], 0, [])
        else:
            status = "playing" if self.unfinished else "finished"
            result = journal.page(status, page * per_page, per_page)
            if result.problems:
                from companion.kiosk.faults import journal_message

                self.app.toast(journal_message(JournalDataError("; ".join(result.problems))))
        self._cached = (key, result)
        return result

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        title = _("Unfinished games") if self.unfinished else _("History")
        area = self.title_bar(surface, title)
        inner = area.inflate(-m.gap * 4, -m.gap * 2)
        per_page = max(1, (inner.height - m.touch - m.gap) // (m.touch + m.px(20) + m.gap))
        listing = self.fetch(self.page, per_page)
        pages = max(1, (listing.total + per_page - 1) // per_page)
        if self.page > pages - 1:  # fewer games than when the page was chosen
            self.page = pages - 1
            listing = self.fetch(self.page, per_page)
        shown = listing.games
        if not listing.total:
            draw_text(surface, _("No games yet"), inner, m.large, theme.MUTED)
            return
        list_area = pygame.Rect(inner.x, inner.y, inner.width, inner.height - m.touch - m.gap)
        cells = grid(list_area, len(shown), 1, m.gap, m.touch + m.px(20))
        for info, cell in zip(shown, cells, strict=True):
            when = info.started.strftime("%Y-%m-%d %H:%M")
            scores = _(", ").join(
                f"{clean(label)} {info.scores.get(p.name, 0)}"
                for p, label in zip(
                    info.setup.players, seat_labels(info.setup, info.companions), strict=True
                )
            )
            self.button(
                surface,
                cell,
                f"{game_title(info.game)} · {when}",
                partial(self.open, info),
                key=f"game {info.id}",
                sub=scores,
                size=m.text,
            )
        nav = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
        prev_r, label_r, next_r = split_h(nav, 1, 2, 1, gap=m.gap)
        self.button(
            surface, prev_r, _("Previous"), self.prev, key="previous", enabled=self.page > 0
        )
        draw_text(surface, f"{self.page + 1} / {pages}", label_r, m.text, theme.MUTED)
        self.button(
            surface, next_r, _("Next"), self.next, key="next", enabled=self.page < pages - 1
        )

    def prev(self) -> None:
        self.page -= 1

    def next(self) -> None:
        self.page += 1

    def open(self, info: GameInfo) -> None:
        """An unfinished game resumed (the one replayed ahead, if the journal still holds it
        as it was), a finished one's end screen."""
        assert self.app.journal is not None
        if self.unfinished:
            resume(self.app, info.id)
        else:
            name, kwargs = self._end(info)
            self.app.go(name, **kwargs)

    def likely_next(self) -> Iterator[Ahead]:
        """The first frame of each game of the page on show, top first, as a tap opens it
        (replayed ahead: an unfinished game's table screen, a finished game's end screen),
        then the frame on screen (``prepare``)."""
        games = self._cached[1].games if self._cached is not None else []
        if self.unfinished:
            for info in games:
                yield partial(resume_frame, self, info)
        yield from frames(self, [] if self.unfinished else [self._end(i) for i in games])

    @staticmethod
    def _end(info: GameInfo) -> tuple[str, dict[str, Any]]:
        return "end", {"game_id": info.id, "back_to_history": True}

    def back(self) -> None:
        self.app.go("home")
