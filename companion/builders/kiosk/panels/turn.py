"""The turn's own actions (coins for 1, 2 or 3 AP, an extra action, the end of the turn) and
everyone's score (a tap shows a player's whole tableau)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.builders.actions import BUY_ACTION, END_TURN, TakeCoins
from companion.kiosk import retained, theme
from companion.kiosk.i18n import _, n_
from companion.kiosk.ui import (
    button_inner,
    draw_text,
    fits,
    fitting,
    grid,
    panel,
    split_h,
    split_v,
)
from companion.kiosk.words import seat_label

from .base import Panel

if TYPE_CHECKING:
    from ..screen import BuildersScreen


class ActionsPanel(Panel):
    """Coins for AP, an extra action for coins, and the end of the turn."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        screen = self.screen
        legal = self.legal()
        cells = split_h(area, 1, 1, 1, 1.4, 1.2, gap=m.gap)
        for k, cell in zip((1, 2, 3), cells, strict=False):
            gain = self.game.coins_for(self.state, k)
            short = ""
            if gain is not None:  # the translated short form, else the sign ¤
                label_r = button_inner(cell)
                label_r.height = label_r.height * 6 // 10
                short = _("+{n}¤", n=gain)
                if not fits(surface, short, label_r, m.small, lines=1):
                    short = f"+{gain}¤"
            screen.action_button(
                surface, cell,
                n_("+{n} coin", "+{n} coins", gain) if gain is not None else _("{n} AP", n=k),
                TakeCoins(k), legal, sub=_("{n} AP", n=k), size=m.small, short=short,
            )
        screen.button(
            surface, cells[3], _("Buy an action"), partial(screen.take, BUY_ACTION),
            key="buy action", enabled="buy action" in legal,
            why=partial(screen.reason, BUY_ACTION), sub=_("{n} coins", n=self.game.action_price),
            size=m.small, short=_("+1 AP"),
        )
        screen.button(
            surface, cells[4], _("End turn"), partial(screen.propose, END_TURN), key="end turn",
            role="confirm", fill=theme.ACCENT, text_colour=theme.OUTLINE, size=m.small,
        )


class ScoresPanel(Panel):
    """Each player's VP against the goal and coins, the player whose turn it is outlined."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        n = len(state.players)
        low = area.height < 2 * m.touch + m.gap  # one row, side by side
        cols = n if low or n <= 2 or (m.portrait and n <= 4) else 2
        for k, cell in enumerate(grid(area, n, cols, m.gap)):
            retained.panel(self.screen, surface, cell, score_key(self.screen, k),
                           partial(self.score, surface, cell, k), "builders score")

    def score(self, surface: pygame.Surface, cell: pygame.Rect, k: int) -> None:
        """Seat ``k``'s name, VP against the goal and coins (a tap shows the tableau)."""
        m = self.m
        state = self.state
        goal = self.game.end_vp
        spec, p = state.setup.players[k], state.players[k]
        self.screen.tap_area(cell, partial(self.screen.show_tableau, k), f"tableau {k}")
        panel(surface, cell, theme.PLAYER[spec.colour],
              border=theme.ACCENT if k == state.turn_player else None, width=3)
        fg = theme.PLAYER_TEXT[spec.colour]
        r1, r2 = split_v(cell.inflate(-6, -4), 1, 1)
        mine = k in self.screen.session.companions
        draw_text(surface, fitting(surface, r1, m.small, seat_label(spec, mine),
                                   seat_label(spec, mine, short=True), bold=True),
                  r1, m.small, fg, bold=True, lines=1)
        shorter = [  # the longest that fits; the sign ¤ as the last resort
            n_("{vp}/{goal} VP · {n} coin", "{vp}/{goal} VP · {n} coins", p.coins, vp=p.vp,
               goal=goal),
            _("{vp}/{goal} VP · {coins}¤", vp=p.vp, goal=goal, coins=p.coins),
            _("{vp}/{goal} · {coins}¤", vp=p.vp, goal=goal, coins=p.coins),
        ]
        stats = next((t for t in shorter if fits(surface, t, r2, m.small, lines=1)),
                     f"{p.vp}/{goal} · {p.coins}¤")
        draw_text(surface, stats, r2, m.small, fg, lines=1)


def score_key(screen: BuildersScreen, k: int) -> tuple[object, ...]:
    """Everything seat ``k``'s score is drawn from (``ScoresPanel.score``)."""
    state = screen.state
    return (k, state.setup.players[k], state.players[k], k == state.turn_player,
            k in screen.session.companions, screen.game.end_vp)


__all__ = ["ActionsPanel", "ScoresPanel", "score_key"]
