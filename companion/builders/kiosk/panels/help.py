"""The help: what the player can do now, each action's rule, and the legend of the short
words on the cards (``S1 W2``: what a worker supplies)."""

from __future__ import annotations

import pygame

from companion.builders.cards import RESOURCES
from companion.kiosk import theme
from companion.kiosk.i18n import _, resource_name
from companion.kiosk.screens.overlays import help_frame
from companion.kiosk.ui import draw_text, fitted_height, split_v

from ..cardhelp import turn_now
from ..names import builders_action_help
from .base import Panel

KINDS = ("start", "recruit", "send", "coins", "buy action", "end turn")


def legend() -> str:
    """The short words the cards use, spelt out: each resource's initial and ``¤``."""
    initials = _(", ").join(
        _("{short} = {name}", short=resource_name(r)[:1].upper(), name=resource_name(r))
        for r in RESOURCES
    )
    return _("On the workers: {initials} (what each supplies); ¤ = coins", initials=initials)


class HelpPanel(Panel):
    """The rules of a turn in short, over the board until Close."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        teaching = self.screen.teacher.teaching
        titles = {"turn": _("New: your turn"), "reveal": _("New: the cards turned over"),
                  "last-round": _("New: the last round")}
        body, foot = help_frame(self.screen, surface, area, titles.get(teaching))
        now = _("Now: {text}", text=turn_now(self.game, self.state))
        now_h = fitted_height(surface, now, body.width, 1, m.small, lines=6)
        now_r = pygame.Rect(body.x, body.y, body.width, now_h)
        draw_text(surface, now, now_r, m.small, theme.ACCENT, align="left", valign="top", lines=6)
        body = pygame.Rect(body.x, now_r.bottom + m.gap, body.width,
                           body.bottom - now_r.bottom - m.gap)
        texts = [builders_action_help(kind) for kind in KINDS] + [legend()]
        needs = [fitted_height(surface, t, body.width, 1, m.small, lines=5) for t in texts]
        rows = split_v(body, *needs, gap=m.gap)  # each as tall as its text needs
        for text, row in zip(texts, rows, strict=True):
            draw_text(surface, text, row, m.small, theme.TEXT, align="left", lines=5)
        self.screen.help_footer(surface, foot)


__all__ = ["HelpPanel", "legend"]
