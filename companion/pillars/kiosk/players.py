"""The Pillars screen's players: the top bar (round, step, whose decision), each player's
panel (VP, gold, cubes, workers, craftsmen) and a player's whole tableau."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.engine import CHANCE, PlayerSpec
from companion.kiosk.api import (
    COMPANION_MARK,
    _,
    card_name,
    draw_tableau,
    draw_text,
    fits,
    fitting,
    font,
    grid,
    icons,
    n_,
    name_of,
    panel,
    retained,
    seat_label,
    split_h,
    split_v,
    theme,
)
from companion.pillars import data as D
from companion.pillars.state import Seat

from .names import resource_name
from .panel import PillarsPanel

if TYPE_CHECKING:
    from .screen import PillarsScreen
from .words import (
    short_craftsman,
    step_title,
)


class PlayersPanel(PillarsPanel):
    """The top bar and the players' panels (a tap on one shows the whole tableau)."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        n = len(state.seats)
        cols = 2 if m.portrait else 1
        cells = grid(area, n, cols, m.gap)
        who = self.game.current_player(state)
        order = [(state.start + k) % n for k in range(n)]
        for k, cell in zip(order, cells, strict=True):
            retained.panel(self.screen, surface, cell, player_key(self.screen, k, who),
                           partial(self.player, surface, cell, k, who), "pillars player")

    def player(self, surface: pygame.Surface, cell: pygame.Rect, k: int, who: int) -> None:
        """Seat ``k``'s panel (framed when ``who`` decides): name, VP and gold; cubes; workers,
        craftsmen and privileges."""
        m = self.m
        state = self.state
        p, s = state.setup.players[k], state.seats[k]
        self.screen.tap_area(cell, partial(self.screen.show_tableau, k), f"tableau {k}")
        panel(surface, cell, theme.PANEL, border=theme.ACCENT if k == who else None, width=3)
        stripe = pygame.Rect(cell.x, cell.y, m.px(8), cell.height)
        pygame.draw.rect(surface, theme.PLAYER[p.colour], stripe, border_radius=4)
        inner = pygame.Rect(
            stripe.right + m.gap,
            cell.y + m.px(2),
            cell.width - stripe.width - m.gap * 2,
            cell.height - m.px(4),
        )
        line1, line2, line3 = split_v(inner, 1, 1, 1.6)
        # each line kept by what it shows: a move changes one or two of a seat's lines
        companion = k in self.screen.session.companions
        retained.pixels(surface, line1, (p, k == state.start, companion, s.vp, s.gold),
                        partial(self.name_line, surface, line1, k), "pillars name line")
        retained.pixels(surface, line2, s.res, partial(self.cubes, surface, line2, s, k),
                        "pillars cubes")
        free, workers = self.game.free_workers(state, k), self.game.workers(state, k)
        retained.pixels(surface, line3, (free, workers, s.craftsmen, len(s.privileges)),
                        partial(self.workers_line, surface, line3, s, free, workers),
                        "pillars workers line")

    def workers_line(self, surface: pygame.Surface, line: pygame.Rect, s: Seat, free: int,
                     workers: int) -> None:
        """A seat's workers free and all, its craftsmen and privileges (how many)."""
        m = self.m
        count = _("workers {free}/{all}", free=free, all=workers)
        crafts = " · ".join(short_craftsman(c) for c in s.craftsmen)
        privs = f"  ◆{len(s.privileges)}" if s.privileges else ""
        text = (f"{count} · {crafts}" if crafts else count) + privs
        if not fits(surface, text, line, m.small, lines=2):  # the tableau has them all
            text = _("{workers} · {n} craftsmen", workers=count, n=len(s.craftsmen)) + privs
        draw_text(surface, text, line, m.small, theme.MUTED, align="left", lines=2)

    def name_line(self, surface: pygame.Surface, line: pygame.Rect, k: int) -> None:
        """Seat ``k``'s name (① for the start player), VP and gold."""
        m = self.m
        state = self.state
        p, s = state.setup.players[k], state.seats[k]
        # portrait panels are half as wide: the name (with its signs, ①◆Yellow) takes more
        name_r, vp_r, gold_r = split_h(line, 6 if m.portrait else 5, 3, 3, gap=m.gap)
        star = "① " if k == state.start else ""
        draw_text(
            surface,
            fitting(surface, name_r, m.text,
                    star + seat_label(p, k in self.screen.session.companions),
                    star + seat_label(p, k in self.screen.session.companions, short=True),
                    _signs(k == state.start, k in self.screen.session.companions, p),
                    bold=True),
            name_r,
            m.text,
            theme.PLAYER_INK[p.colour],
            bold=True,
            align="left",
            lines=1,
        )
        vp = _("{n} VP", n=s.vp)
        if not fits(surface, vp, vp_r, m.text, bold=True, lines=1, min_size=m.px(11)):
            vp = _("{n}VP", n=s.vp)
        draw_text(
            surface,
            vp,
            vp_r,
            m.text,
            theme.TEXT,
            bold=True,
            lines=1,
            align="right",
            min_size=m.px(11),
        )
        icons.amounts(surface, [("gold", s.gold)], gold_r, m.text, theme.ACCENT, align="right")

    def top(self, surface: pygame.Surface) -> pygame.Rect:
        """The bar: the game's buttons, the round, the step and whose decision it is; returns
        the body below it."""
        bar = pygame.Rect(0, 0, surface.get_width(), self.screen.bar_bottom())
        return retained.panel(self.screen, surface, bar, top_key(self.screen),
                              partial(self._top, surface), "pillars bar")

    def _top(self, surface: pygame.Surface) -> pygame.Rect:
        m = self.m
        state = self.state
        left, body = self.screen.standard_bar(surface)
        round_text = _("Round {n}", n=state.round)
        round_w = min(left.width // 3, font(m.text, True).size(round_text)[0] + m.px(4))
        round_r = pygame.Rect(left.x, left.y, round_w, left.height)
        step_r = pygame.Rect(round_r.right + m.gap, left.y, left.right - round_r.right - m.gap,
                             left.height)
        draw_text(
            surface,
            round_text,
            round_r,
            m.text,
            theme.ACCENT,
            bold=True,
            lines=1,
            align="left",
        )
        who = self.game.current_player(state)
        handing = self.screen.handouts.current
        if handing is not None:  # the table hands out first: the next step waits
            sub, colour = _("The table hands out"), theme.MUTED
        elif who >= 0:
            p = state.setup.players[who]
            sub = _("{name}'s decision", name=name_of(p))
            colour = theme.PLAYER_INK[p.colour]
        elif who == CHANCE:
            sub, colour = _("The table reveals"), theme.MUTED
        else:
            sub, colour = "", theme.MUTED
        t_r, w_r = split_v(step_r, 1, 1)
        title = step_title(state.step) if handing is None else handing.title
        if not fits(surface, title, t_r, m.small, lines=1):  # without its phase
            title = title.replace("：", ": ").split(": ", 1)[-1]
        draw_text(surface, title, t_r, m.small, theme.TEXT, align="left", lines=1)
        draw_text(surface, sub, w_r, m.small, colour, align="left", lines=1, bold=True)
        return body

    def tableau_rows(self, seat: int) -> list[tuple[str, str]]:
        """A player's whole tableau in words: VP and gold, cubes (owed ones said), workers,
        craftsmen with their uses left, privileges by name."""

        state = self.state
        s = state.seats[seat]
        name = self.game.name
        cubes = _(", ").join(
            _("{n} {res}", n=s.res[r], res=resource_name(res))
            + (_(" ({n} owed)", n=s.owed[r]) if s.owed[r] else "")
            for r, res in enumerate(D.RESOURCES)
        )
        crafts = _(", ").join(
            n_("{card}: {n} use left", "{card}: {n} uses left", self.game.uses_left(state, seat, c),
               card=card_name(name, c))
            if not D.CRAFTSMEN[c].spec.auto
            else card_name(name, c)
            for c in s.craftsmen
        )
        privileges = _(", ").join(card_name(name, c) for c in s.privileges) or _("none")
        return [
            (_("Points"), _("{vp} VP, {gold} gold", vp=s.vp, gold=s.gold)),
            (_("Resources"), cubes),
            (_("Workers"), _("{free} free of {all}", free=self.game.free_workers(state, seat),
                             all=self.game.workers(state, seat))),
            (_("Craftsmen"), crafts or _("none")),
            (_("Privileges"), privileges),
        ]

    def render_tableau(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        assert self.screen.tableau is not None
        seat = self.screen.tableau
        title = seat_label(self.state.setup.players[seat], seat in self.screen.session.companions)
        draw_tableau(self.screen, surface, area, title, self.tableau_rows(seat),
                     self.screen.close_tableau)

    def cubes(self, surface: pygame.Surface, area: pygame.Rect, s: Seat, seat: int) -> None:
        m = self.m
        cells = split_h(area, 1, 1, 1, 1, gap=m.gap)
        for r, name in enumerate(D.RESOURCES):
            cell = cells[r]
            sq = min(cell.height - 4, m.px(16))
            box = pygame.Rect(cell.x, cell.centery - sq // 2, sq, sq)
            icons.resource_icon(surface, name, box, cell)
            draw_text(
                surface,
                str(s.res[r]),
                pygame.Rect(box.right + 4, cell.y, cell.width - sq - 4, cell.height),
                m.text,
                theme.TEXT,
                align="left",
                lines=1,
                min_size=m.px(10),  # two-digit counts (10+ cubes before the cathedral)
            )

    # -- the decision panel ----------------------------------------------------------------


def player_key(screen: PillarsScreen, k: int, who: int) -> tuple[object, ...]:
    """Everything seat ``k``'s panel is drawn from (``PlayersPanel.player``): its player and
    seat (the same object while it does not change), whether it decides, starts, is the
    companion's."""
    state = screen.state
    return (k, k == who, state.setup.players[k], state.seats[k], k == state.start,
            k in screen.session.companions)


def top_key(screen: PillarsScreen) -> tuple[object, ...]:
    """Everything the bar is drawn from (``PlayersPanel.top``, ``standard_bar``): the round,
    the step, who decides, the hint and undo offered."""
    state = screen.state
    who = screen.game.current_player(state)
    handing = screen.handouts.current
    return (state.round, state.step, who, state.setup.players[who] if who >= 0 else None,
            screen.hint_offered(), screen.can_undo(), handing.title if handing else None)


def _signs(start: bool, companion: bool, player: PlayerSpec) -> str:
    """A seat's name after its signs closed up, where the spaced ones do not fit
    (``①◆Yellow``: the start player played by the companion)."""
    return ("①" if start else "") + (COMPANION_MARK if companion else "") + name_of(player)


__all__ = ["PlayersPanel"]
