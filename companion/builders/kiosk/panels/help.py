"""The help: what the player can do now, each action's rule, and the legend of the short
words on the cards (``S1 W2``: what a worker supplies)."""

from __future__ import annotations

import pygame

from companion.builders.cards import RESOURCES
from companion.kiosk.api import _, help_frame, paged_help, resource_name, theme

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
        teaching = self.screen.teacher.teaching
        titles = {"turn": _("New: your turn"), "last-round": _("New: the last round")}
        body, foot = help_frame(self.screen, surface, area, titles.get(teaching))
        now = _("Now: {text}", text=turn_now(self.game, self.state))
        texts = [(now, theme.ACCENT)] + [(builders_action_help(kind), theme.TEXT)
                                         for kind in KINDS] + [(legend(), theme.TEXT)]
        paged_help(self.screen, surface, body, foot, texts)


__all__ = ["HelpPanel", "legend"]
