"""The turn's own actions (coins for 1, 2 or 3 AP, an extra action, the end of the turn) and
everyone's score (a tap shows a player's whole tableau)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.builders.actions import BUY_ACTION, END_TURN, TakeCoins
from companion.events import Role
from companion.kiosk.api import (
    _,
    button_inner,
    draw_text,
    fits,
    fitting,
    font,
    grid,
    icons,
    n_,
    panel,
    retained,
    seat_label,
    split_h,
    split_v,
    theme,
)

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
            label = n_("+{n} coin", "+{n} coins", gain) if gain is not None else _("{n} AP", n=k)
            short = "" if gain is None else _("+{n}¤", n=gain)  # (¤ in English alone)
            label_r = button_inner(cell)
            label_r.height = label_r.height * 6 // 10
            if gain is not None and not fits(surface, short, label_r, m.small, lines=1):
                # no words fit: the coin drawn with its number, as on the players' chips
                enabled = str(TakeCoins(k)) in legal
                screen.action_button(
                    surface, cell, "", TakeCoins(k), legal, size=m.small,
                    face=((gain, k, enabled), partial(coins_face, surface, m, cell, gain, k,
                                                      enabled)))
                continue
            screen.action_button(surface, cell, label, TakeCoins(k), legal,
                                 sub=_("{n} AP", n=k), size=m.small, short=short)
        screen.button(
            surface, cells[3], _("Buy an action"), partial(screen.take, BUY_ACTION),
            key="buy action", enabled="buy action" in legal,
            why=partial(screen.reason, BUY_ACTION), sub=_("{n} coins", n=self.game.action_price),
            size=m.small, short=_("+1 AP"),
        )
        screen.button(
            surface, cells[4], _("End turn"), partial(screen.propose, END_TURN), key="end turn",
            role=Role.CONFIRM, fill=theme.ACCENT, text_colour=theme.OUTLINE, size=m.small,
        )


def coins_face(surface: pygame.Surface, m: theme.Metrics, cell: pygame.Rect, gain: int,
               ap: int, enabled: bool) -> None:
    """A coins button where no words fit: the coin and ``+gain`` above, the AP it costs
    below."""
    inner = button_inner(cell)
    top, bottom = split_v(inner, 3, 2)
    colour = theme.TEXT if enabled else theme.DISABLED
    width = icons.amount_width(f"+{gain}", m.small, bold=True)
    icons.amount(surface, "gold", f"+{gain}",
                 pygame.Rect(top.centerx - width // 2, top.y, width, top.height), m.small,
                 colour, bold=True)
    draw_text(surface, _("{n} AP", n=ap), bottom, m.small, colour, lines=1)


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
        # The points in words, the coins as the coin with their number: the same on every
        # chip, in every language (a coin needs no word, and never hides its number).
        coins_w = icons.amount_width(p.coins, m.small) + m.gap
        words_r = pygame.Rect(r2.x, r2.y, r2.width - coins_w, r2.height)
        points = next((t for t in (_("{vp}/{goal} VP", vp=p.vp, goal=goal),
                                   f"{p.vp}/{goal}") if fits(surface, t, words_r, m.small,
                                                             lines=1)), f"{p.vp}/{goal}")
        width = min(words_r.width, font(m.small).size(points)[0]) + coins_w
        x = r2.x + max(0, (r2.width - width) // 2)  # the two together, centred
        used = draw_text(surface, points, pygame.Rect(x, r2.y, width - coins_w, r2.height),
                         m.small, fg, lines=1, align="left")
        icons.amount(surface, "gold", p.coins, pygame.Rect(used.right + m.gap, r2.y,
                                                           coins_w - m.gap, r2.height),
                     m.small, fg)


def score_key(screen: BuildersScreen, k: int) -> tuple[object, ...]:
    """Everything seat ``k``'s score is drawn from (``ScoresPanel.score``)."""
    state = screen.state
    return (k, state.setup.players[k], state.players[k], k == state.turn_player,
            k in screen.session.companions, screen.game.end_vp)


__all__ = ["ActionsPanel", "ScoresPanel", "score_key"]
