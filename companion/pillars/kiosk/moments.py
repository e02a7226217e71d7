"""Two Pillars panels that hold a moment: Ellen's early look at the coming event (for her
owner's eyes only) and the animation of a draw from the bag or a roll of the tax die."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from companion.events import Role
from companion.kiosk.api import _, card_name, draw_text, help_frame, name_of, panel, theme

from .panel import PillarsPanel
from .words import step_title

DRAW_SECONDS = 0.8
ROLL_SECONDS = 1.0


@dataclass
class Look:
    """The event the virtual deck dealt for Ellen's owner (``seat``), and whether it is shown
    now (only after the owner taps)."""

    seat: int
    event: str
    shown: bool = False


class EllenPanel(PillarsPanel):
    """Ellen's early look: the physical deck's event entered by her owner alone, or the
    virtual deck's shown to her owner alone and hidden again."""

    look: Look | None = None
    private_open = False  # the owner is entering the event they looked at, alone

    def due(self) -> bool:
        """Whether the panel is the one to show now."""
        return self.look is not None or (self.state.step == "peek" and not self.private_open)

    def keep(self, seat: int, event: str) -> None:
        self.look = Look(seat, event)

    def show(self) -> None:
        """Ellen's owner taps to see the coming event (the virtual deck)."""
        if self.look is not None:
            self.look.shown = True

    def hide(self) -> None:
        self.look = None

    def open_private(self) -> None:
        """Ellen's owner taps to enter the event they looked at, alone at the screen."""
        self.private_open = True

    def reset(self) -> None:
        self.private_open = False

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        if self.look is not None:
            self.render_look(surface, area, self.look)
            return
        seat = self.game.active_seat(self.state)
        name = name_of(self.state.setup.players[seat]) if seat is not None else ""
        body = help_frame(self.screen, surface, area, step_title("peek"))[0]
        self.big_button(surface, body,
                        _("{name} only: tap to enter the event you looked at", name=name),
                        self.open_private, "private")

    def render_look(self, surface: pygame.Surface, area: pygame.Rect, look: Look) -> None:
        """The virtual deck dealt Ellen's look: hidden until her owner taps, then hidden
        again."""
        name = name_of(self.state.setup.players[look.seat])
        body, foot = help_frame(self.screen, surface, area, step_title("peek"))
        if not look.shown:
            self.big_button(surface, body, _("{name} only: tap to look", name=name),
                            self.show, "look")
            return
        draw_text(surface, card_name(self.game.name, look.event), body, self.m.large,
                  theme.ACCENT, bold=True, lines=3)
        self.screen.button(surface, foot, _("Hide it"), self.hide, key="hide", role=Role.CONFIRM)


@dataclass
class Animation:
    """A draw (``value``: the builder's colour) or a roll (``value``: the face) on show, with
    the seconds ``left``."""

    kind: str
    left: float
    value: str | int

    @property
    def total(self) -> float:
        return DRAW_SECONDS if self.kind == "draw" else ROLL_SECONDS


class AnimationPanel(PillarsPanel):
    """The bag shaken and the builder drawn, or the die rolling to its face."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        anim = self.screen.anim
        assert anim is not None
        t = 1 - anim.left / anim.total
        if anim.kind == "draw":
            self.draw(surface, area, t, str(anim.value))
        else:
            self.roll(surface, area, t, int(anim.value))

    def draw(self, surface: pygame.Surface, area: pygame.Rect, t: float, colour: str) -> None:
        m = self.m
        if t < 0.6:
            wobble = int(math.sin(t * 40) * m.px(10))
            bag = pygame.Rect(0, 0, area.width // 3, area.height // 2)
            bag.center = (area.centerx + wobble, area.centery)
            pygame.draw.ellipse(surface, (120, 90, 60), bag)
            draw_text(surface, _("Drawing…"), area, m.large, theme.TEXT)
        else:
            panel(surface, area, theme.PLAYER[colour])
            name = next(name_of(p) for p in self.state.setup.players if p.colour == colour)
            draw_text(surface, name, area, m.huge, theme.PLAYER_TEXT[colour], bold=True)

    def roll(self, surface: pygame.Surface, area: pygame.Rect, t: float, value: int) -> None:
        m = self.m
        face = value if t > 0.75 else (2, 3, 4, 5, 3, 4)[int(t * 24) % 6]
        side = min(area.width, area.height) // 2
        die = pygame.Rect(0, 0, side, side)
        die.center = area.center
        panel(surface, die, theme.TEXT, radius=die.width // 6)
        draw_text(surface, str(face), die, m.huge * 2, theme.OUTLINE, bold=True)


__all__ = ["DRAW_SECONDS", "ROLL_SECONDS", "Animation", "AnimationPanel", "EllenPanel", "Look"]
