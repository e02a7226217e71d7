"""The end of a game: final scores, the tie-break explained, VP round by round, and the
BG Stats link as a QR code.

Everything here comes from the game's typed summary (``Game.summary``: scores, winners, each
player's money and points by source where the game has them), never from its state: a game
without a ledger shows its scores and chart in place of the points by source, and a game
without money no money under the scores.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pygame

from companion.engine import Game, Summary, get_game, replay
from companion.engine.contract import checked_summary
from companion.engine.summary import PlayerResult
from companion.kiosk import theme
from companion.kiosk.breakdown import draw_breakdown, game_table
from companion.kiosk.fonts import font
from companion.kiosk.i18n import _
from companion.kiosk.qr import draw_qr, qr_matrix
from companion.kiosk.ui import (
    Button,
    draw_text,
    fits,
    fitted_height,
    panel,
    split_h,
    split_v,
    text_height,
)
from companion.kiosk.words import COMPANION_MARK, seat_label, words_for
from companion.text import clean

from .base import Screen

if TYPE_CHECKING:
    from companion.journal import JournaledGame
    from companion.kiosk.context import Kiosk

Choice = tuple[str, Callable[[], None], str]
"""A button of a bar: label, what a tap does, key."""


def explain_result(game: str, summary: Summary) -> str:
    """One sentence on how the winner was decided, tie-breaks included (the game's words).
    Names are cleaned first (:func:`companion.text.clean`), as everywhere they are shown."""
    return words_for(game).result(cleaned(summary))


def cleaned(summary: Summary) -> Summary:
    """``summary`` with every player name as the kiosk shows it."""
    return replace(
        summary,
        players=tuple(replace(p, name=clean(p.name)) for p in summary.players),
        scores={clean(k): v for k, v in summary.scores.items()},
        winners=tuple(clean(w) for w in summary.winners),
    )


class EndScreen(Screen):
    """Final scores of a finished game in the journal."""

    def __init__(self, app: Kiosk, game_id: int, back_to_history: bool = False) -> None:
        super().__init__(app)
        self.game_id = game_id
        self.back_to_history = back_to_history
        self.big_qr = False
        self._read()

    def _on_table(self) -> JournaledGame | None:
        """The game on the table, if it is this one (it holds its state: no replay)."""
        session = self.app.session
        return (session if session is not None and session.id == self.game_id
                and session.journal is self.app.journal else None)

    def on_show(self) -> None:
        """A screen made ahead (``screens.ahead``: the end screen of the game on the table,
        made while its last breakdown was on show) reads the game again if the table has
        since taken its last action back and ended it otherwise."""
        session = self._on_table()
        if session is not None:  # the game just ended: what was said during it is stale
            self.app.toasts.clear()
            self.app.dirty = True
        if session is not None and session.state is not self.state:
            self._read()

    def _read(self) -> None:
        """The game's final state, scores, points by source and BG Stats link."""
        game_id = self.game_id
        journal = self.app.journal
        assert journal is not None, "the end screen of a game needs the journal"
        self.info = journal.get(game_id)
        self.game: Game[object, object] = get_game(self.info.game)
        session = self._on_table()
        self.state = (session.state if session is not None
                      else replay(self.game, journal.record(game_id)))
        self.summary = checked_summary(self.game, self.state)
        self.link: str | None = None
        self.qr_note = ""
        if self.info.status == "finished":
            try:
                self.link = journal.bgstats_link(game_id)
                qr_matrix(self.link)  # a link too long for a QR code raises here, not in draw
            except Exception:  # noqa: BLE001 - the link is a convenience; the scores still show
                self.link = None
                self.qr_note = _(
                    "No BG Stats code for this game: export it with companion export {id} "
                    "--format bgstats",
                    id=game_id,
                )
        self.table = self._marked(game_table(self.game, self.state))
        self.has_sources = self.summary.has_sources  # a game with a ledger
        # the scores' chart in place of the points by source (always, without a ledger)
        self.show_chart = not self.has_sources

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        right: list[Choice] = [self.language_button()]
        if self.can_go_back():
            right.insert(0, (_("Back to the last decision"), self.back_to_game, "last decision"))
        chart_title = words_for(self.info.game).chart_title()
        sources: Choice | None = (
            (_("Points by source"), self.toggle_chart, "chart") if self.has_sources else None
        )
        if not m.portrait:  # the log, and the scores and chart or the points by source
            other = sources if self.show_chart else (_("Scores and chart"), self.toggle_chart,
                                                     "chart")
            right[:0] = [*([other] if other else []), (_("Log"), self.open_log, "log")]
        area = self.title_bar(surface, _("Final scores"), right=right)
        inner = area.inflate(-m.gap * 4, -m.gap * 2)
        if self.big_qr and self.link:
            self._qr(surface, inner)
            return
        if m.portrait:  # the scores, the points by source or the chart, the code
            scores_r, lower_r, qr_r = split_v(inner, 4, 6, 3, gap=m.gap * 2)
            self._scores(surface, scores_r)
            if self.show_chart:
                body = self._head(surface, lower_r, chart_title, sources)
                self._chart(surface, body, titled=False)
            else:
                other = (_("Chart"), self.toggle_chart, "chart")
                body = self._head(surface, lower_r, self.table.title, other)
                draw_breakdown(surface, m, body, self.table)
        else:
            left, qr_r = split_h(inner, 3, 2, gap=m.gap * 2)
            if self.show_chart:  # the scores and the chart
                scores_r, chart_r = split_v(left, 1, 1, gap=m.gap * 2)
                self._scores(surface, scores_r)
                self._chart(surface, chart_r)
            else:  # who won and how, and everyone's points by source (their total last)
                line = font(m.text).get_linesize()
                head_r = pygame.Rect(left.x, left.y, left.width, line * 2 + m.gap)
                table_r = pygame.Rect(left.x, head_r.bottom + m.gap, left.width,
                                      left.bottom - head_r.bottom - m.gap)
                draw_text(surface, explain_result(self.info.game, self.summary), head_r,
                          m.text, theme.ACCENT, lines=2)
                self._sources(surface, table_r)
        self._qr(surface, qr_r)

    def _sources(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Each player's points over the game by source (the ledger), with the total."""
        m = self.m
        panel(surface, area, theme.PANEL)
        title_r = pygame.Rect(area.x + m.gap, area.y, area.width - 2 * m.gap,
                              font(m.small).get_linesize() + m.px(6))
        draw_text(surface, self.table.title, title_r, m.small, theme.MUTED, align="left",
                  lines=1)
        body = pygame.Rect(area.x + m.gap, title_r.bottom, area.width - 2 * m.gap,
                           area.bottom - title_r.bottom - m.px(4))
        draw_breakdown(surface, m, body, self.table)

    def _head(
        self, surface: pygame.Surface, area: pygame.Rect, title: str, other: Choice | None
    ) -> pygame.Rect:
        """A panel with its title and, on the right of the title, the ``other`` view (label,
        tap, key) and the game's log (portrait: the bar has no room for them); the area below
        them."""
        m = self.m
        panel(surface, area, theme.PANEL)
        x = area.right - m.px(4)
        for label, tap, key in (*([other] if other else []), (_("Log"), self.open_log, "log")):
            w = max(m.touch, min(area.width // 3, font(m.small).size(label)[0] + m.px(24)))
            x -= w
            self.button(surface, pygame.Rect(x, area.y + m.px(4), w, m.touch), label, tap,
                        key=key, size=m.small)
            x -= m.gap
        head = pygame.Rect(area.x + m.gap, area.y + m.px(4), x - area.x - m.gap, m.touch)
        draw_text(surface, title, head, m.small, theme.MUTED, align="left", lines=2,
                  min_size=m.px(11))
        top = head.bottom + m.px(6)
        return pygame.Rect(area.x + m.gap, top, area.width - 2 * m.gap,
                           area.bottom - top - m.px(6))

    def open_log(self) -> None:
        """The game in words, newest first; Back returns here."""
        self.app.go("log", previous=self, game_id=self.info.id)

    def toggle_chart(self) -> None:
        self.show_chart = not self.show_chart

    def can_go_back(self) -> bool:
        """The game on the table can go back to its last decision: nothing has been drawn,
        rolled or revealed since (undo never becomes a re-draw)."""
        session = self.app.session
        return bool(session is not None and session.id == self.info.id and session.can_undo())

    def back_to_game(self) -> None:
        """Take back the decision that ended the game and return to the table."""
        self.app.undo()
        if self.app.session is not None and not self.app.session.game.is_over(
            self.app.session.state
        ):
            self.app.open_game()

    def _marked(self, table: Any) -> Any:
        """The breakdown with the companion's seats marked in its players' names: the short
        mark in its narrow columns (``◆ Blue``), never a name cut by "…"."""
        colours = {p.colour for seat, p in enumerate(self.info.setup.players)
                   if seat in self.info.companions}
        players = tuple((c, f"{COMPANION_MARK} {n}" if c in colours else n)
                        for c, n in table.players)
        return dataclasses.replace(table, players=players)

    def label(self, player: PlayerResult) -> str:
        """A player of the summary as the table reads it, marked when the companion played
        the seat (:func:`~companion.kiosk.words.seat_label`)."""
        players = self.info.setup.players
        if 0 <= player.seat < len(players):
            return seat_label(players[player.seat], player.seat in self.info.companions)
        return player.name

    def _scores(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        players = sorted(self.summary.players, key=lambda p: (-p.score, p.rank, p.seat))
        head, body = split_v(area, 1, 5, gap=m.gap)
        draw_text(
            surface,
            explain_result(self.info.game, self.summary),
            head,
            m.text,
            theme.ACCENT,
            lines=2,
        )
        rows = split_v(body, *([1] * len(players)), gap=m.gap)
        words = words_for(self.info.game)
        for p, row in zip(players, rows, strict=True):
            win = p.winner
            panel(
                surface,
                row,
                theme.PLAYER[p.colour],
                border=theme.ACCENT if win else None,
                width=4,
            )
            # the name the room of two lines: ★ 青 / （コンパニオン） on a portrait screen
            name_r, pts_r, detail_r = split_h(row.inflate(-m.gap * 2, 0), 6, 2, 8, gap=m.gap)
            fg = theme.PLAYER_TEXT[p.colour]
            draw_text(
                surface,
                ("★ " if win else "") + clean(self.label(p)),
                name_r,
                m.text,
                fg,
                align="left",
                bold=True,
                lines=2,
            )
            draw_text(
                surface,
                str(p.score),
                pts_r,
                m.large,
                fg,
                bold=True,
                lines=1,
            )
            detail = words.player_detail(self.state, p)
            if not fits(surface, detail, detail_r, m.small, lines=2) and p.money is not None:
                detail = words.money_label(p.money)  # the tie-breaker
            if detail:
                draw_text(surface, detail, detail_r, m.small, fg, align="right", lines=2)

    def _chart(self, surface: pygame.Surface, area: pygame.Rect, titled: bool = True) -> None:
        m = self.m
        if titled:
            panel(surface, area, theme.PANEL)
            label = words_for(self.info.game).chart_title()
            title_r = pygame.Rect(area.x + m.gap, area.y, area.width - 2 * m.gap, m.px(26))
            draw_text(surface, label, title_r, m.small, theme.MUTED, align="left", lines=1)
        else:  # under a head that has the title
            title_r = pygame.Rect(area.x, area.y - m.gap, area.width, 0)
        periods = list(self.info.periods)
        lab_h = text_height(surface, m.px(12))  # the axes' numbers
        plot = pygame.Rect(
            area.x + m.px(36),
            title_r.bottom + m.gap,
            area.width - m.px(48),
            area.bottom - title_r.bottom - lab_h - m.px(8),
        )
        if len(periods) < 1 or plot.height < 10:
            return
        top = max(1, max(max(s.values()) for _p, s in periods))
        pygame.draw.line(surface, theme.MUTED, plot.bottomleft, plot.bottomright, 2)
        pygame.draw.line(surface, theme.MUTED, plot.bottomleft, plot.topleft, 2)
        draw_text(
            surface,
            str(top),
            pygame.Rect(area.x, plot.y - lab_h // 2, m.px(32), lab_h),
            m.px(12),
            theme.MUTED,
            align="right",
            lines=1,
        )
        draw_text(
            surface,
            "0",
            pygame.Rect(area.x, plot.bottom - lab_h // 2, m.px(32), lab_h),
            m.px(12),
            theme.MUTED,
            align="right",
            lines=1,
        )
        n = len(periods)
        for p in self.summary.players:
            pts = []
            for k, (_period, scores) in enumerate(periods):
                x = plot.x + (plot.width * k // max(1, n - 1) if n > 1 else plot.width // 2)
                y = plot.bottom - plot.height * scores.get(p.name, 0) // top
                pts.append((x, y))
            colour = theme.PLAYER[p.colour]
            if len(pts) > 1:
                pygame.draw.lines(surface, colour, False, pts, max(2, m.px(3)))
            if n <= 24:  # dots only where they can be told apart
                for pt in pts:
                    pygame.draw.circle(surface, colour, pt, max(3, m.px(4)))
        first, last = periods[0][0], periods[-1][0]
        axis = pygame.Rect(plot.x, plot.bottom + 2, plot.width, lab_h)
        draw_text(surface, str(first), axis, m.px(12), theme.MUTED, align="left", lines=1)
        draw_text(surface, str(last), axis, m.px(12), theme.MUTED, align="right", lines=1)

    def _qr(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        if not self.link:
            if self.qr_note:
                draw_text(surface, self.qr_note, area, m.small, theme.MUTED, lines=4)
            return
        text = (
            _("Tap the code to make it smaller")
            if self.big_qr
            else _("Scan to log this play in BG Stats (tap to enlarge)")
        )
        label_h = fitted_height(surface, text, area.width, m.px(40), m.small)
        label_r = pygame.Rect(area.x, area.bottom - label_h, area.width, label_h)
        code_r = pygame.Rect(area.x, area.y, area.width, area.height - label_r.height)
        used = draw_qr(surface, self.link, code_r)
        self.buttons.append(Button(used, "", self.toggle_qr, key="qr"))
        draw_text(surface, text, label_r, m.small, theme.MUTED, lines=2)

    def toggle_qr(self) -> None:
        self.big_qr = not self.big_qr

    def back(self) -> None:
        if self.big_qr:
            self.big_qr = False
        elif self.back_to_history:
            self.app.go("games", unfinished=False)
        else:
            self.app.session = None
            self.app.go("home")
