"""The screen base class: what every screen shares (its buttons and the table's, the title
bar, the game bar)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.kiosk import retained, theme
from companion.kiosk.fonts import font
from companion.kiosk.i18n import _
from companion.kiosk.inputs import ROLES, Hold, Input, Press, Role, Tap
from companion.kiosk.ui import Button, button_inner, draw_text, fits, panel, title_bar_height

if TYPE_CHECKING:
    from companion.journal import JournaledGame
    from companion.kiosk.context import Kiosk
    from companion.kiosk.lookahead import Ahead


def face_key(b: Button) -> tuple[object, ...]:
    """Everything a button's face is drawn from (``Button.draw``), for ``retained.pixels``."""
    return (b.label, b.sub, b.short, b.short_sub, b.enabled, b.selected, tuple(b.fill),
            tuple(b.text_colour), b.size, bool(b.extra.get("sub_optional")))


def _with_face(b: Button, surface: pygame.Surface, face: Callable[[], None]) -> None:
    b.draw(surface)
    face()


class Screen(ABC):
    """One screen.  Screens read state and emit actions through the app; ``draw`` lays out
    and draws the buttons, which ``handle`` then hit-tests, so layout follows any size."""

    title = ""

    def __init__(self, app: Kiosk) -> None:
        self.app = app
        self.buttons: list[Button] = []
        """The touch targets of the last frame drawn, in drawing order (a tap and a press
        of the table's buttons are hit-tested against them)."""
        self.keys: dict[Role, Callable[[], None]] = {}
        """What the table's buttons do on this screen whatever it shows (declared when the
        screen is made: a game screen's UNDO and HELP); a button on screen that carries the
        role comes first."""

    @property
    def session(self) -> JournaledGame:
        """The game being played (game screens only)."""
        assert self.app.session is not None, "a game screen without a game"
        return self.app.session

    @property
    def m(self) -> theme.Metrics:
        return self.app.metrics

    def on_show(self) -> None:  # noqa: B027 - an optional hook
        """Called when the screen becomes current."""

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Tap):
            for b in reversed(self.buttons):
                if b.rect.collidepoint(inp.pos):
                    if b.enabled:
                        b.on_tap()
                    elif b.why is not None:
                        self.app.refuse(b.why())
                    return
        elif isinstance(inp, Press):
            self.press(inp.role)
        elif isinstance(inp, Hold):
            for b in reversed(self.buttons):
                if b.rect.collidepoint(inp.pos):
                    read = b.extra.get("hold")
                    if callable(read):
                        read()  # what the card or space does; its tap is not taken
                    return

    def press(self, role: Role) -> None:
        """A button of the table (the panel's, or its key): the topmost enabled button of the
        last frame that carries ``role`` is tapped (DRAW on the Draw button, CONFIRM on the
        step's main button); with none, what the screen declares for it (``keys``); with
        neither, BACK goes back."""
        for b in reversed(self.buttons):
            if role in b.roles and b.enabled:
                b.on_tap()
                return
        action = self.pressed_keys().get(role)
        if action is not None:
            action()
        elif role == Role.BACK:
            self.back()

    def pressed_keys(self) -> dict[Role, Callable[[], None]]:
        """The declared ``keys`` that answer now (all of them, unless a screen shows
        something that takes every press: a card read by a hold)."""
        return self.keys

    def can_hold(self, pos: tuple[int, int]) -> bool:
        """Whether a finger held at ``pos`` has something to read (the button there has a
        ``hold``)."""
        for b in reversed(self.buttons):
            if b.rect.collidepoint(pos):
                return callable(b.extra.get("hold"))
        return False

    def back(self) -> None:  # noqa: B027 - an optional hook
        """The back key: by default, nothing."""

    def update(self, dt: float) -> bool:
        """Advance animations by ``dt`` seconds; True if the screen must be redrawn."""
        return False

    def animating(self) -> bool:
        return False

    def redraw_part(self) -> Callable[[pygame.Surface], pygame.Rect] | None:
        """After ``update`` said to redraw: when only a part changed, what draws just that part
        over the last frame (and returns where); None to draw the whole screen."""
        return None

    def draw(self, surface: pygame.Surface) -> None:
        self.buttons = []
        self.render(surface)

    @abstractmethod
    def render(self, surface: pygame.Surface) -> None:
        """Lay out and draw the screen (called by ``draw`` with the buttons cleared)."""

    def likely_next(self) -> Iterator[Ahead]:
        """The frames this screen may draw next, drawn ahead in the kiosk's idle time
        (``lookahead``): a game screen's states one action away; the home screen's, the first
        frame of each screen it leads to (``prepare.frames``); none here."""
        return iter(())

    def ui_variants(self) -> Iterator[Callable[[], None]]:
        """What a likely next tap changes on the screen alone (a worker picked, a page turned),
        for a game screen to draw ahead (``screens.ahead``: what it changes in the screen, its
        panels and their state objects is put back after)."""
        return iter(())

    def continue_ahead(self) -> Callable[[], None] | None:
        """What Continue changes on the screen alone while the screen waits for it (a result
        on show: the table's one likely tap), for a game screen to draw ahead instead of its
        other frames (``screens.ahead``); None when nothing waits for it, or when Continue
        leaves the screen.  It must not change a list or a queue in place (drawing ahead
        puts the screen's attributes back, not what is inside them)."""
        return None

    # -- helpers -------------------------------------------------------------------------
    def button(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        label: str,
        on_tap: Callable[[], None],
        *,
        key: str = "",
        enabled: bool = True,
        why: Callable[[], str] | None = None,
        fill: theme.Colour = theme.PANEL_HI,
        text_colour: theme.Colour = theme.TEXT,
        role: Role | tuple[Role, ...] | None = None,
        sub: str = "",
        selected: bool = False,
        size: int | None = None,
        short: str = "",
        short_sub: str = "",
        sub_optional: bool = False,
        hold: Callable[[], None] | None = None,
        face: tuple[Hashable, Callable[[], None]] | None = None,
    ) -> Button:
        """A button drawn now; ``role``: the table's button (or buttons) that press it too;
        ``hold`` is what a finger held on it does (read the card or space it shows) instead of
        its tap; ``face``: what is drawn over it (a card's face: everything it is drawn from,
        and what draws it), kept with it."""
        b = Button(
            rect,
            label,
            on_tap,
            key or label,
            enabled,
            why,
            fill,
            text_colour,
            size or self.m.text,
            sub,
            selected,
            short=short,
            short_sub=short_sub,
            extra={"sub_optional": True} if sub_optional else {},
            roles=() if role is None else (role,) if isinstance(role, Role) else role,
        )
        if hold is not None:
            b.extra["hold"] = hold
        if face is None:
            retained.pixels(surface, rect, face_key(b), partial(b.draw, surface), "button")
        else:
            retained.pixels(surface, rect, (face_key(b), face[0]),
                            partial(_with_face, b, surface, face[1]), "button with a face")
        self.buttons.append(b)
        return b

    def bar_bottom(self) -> int:
        """Where the screen's top bar ends (the title, or whose turn it is)."""
        return self.m.touch + self.m.gap * 2

    def tap_area(self, rect: pygame.Rect, on_tap: Callable[[], None], key: str) -> Button:
        """A touch target over something already drawn (a player's panel): it draws nothing,
        and buttons drawn after it, inside it, take their own taps."""
        b = Button(rect, "", on_tap, key, extra={"area": True})
        self.buttons.append(b)
        return b

    def title_bar(
        self,
        surface: pygame.Surface,
        title: str,
        *,
        back: bool = True,
        right: list[tuple[str, Callable[[], None], str]] | None = None,
    ) -> pygame.Rect:
        """The bar at the top: back, the title, and buttons on the right (label, tap, key: a
        key that is a role's string binds that button of the table too).  Returns the area
        below it."""
        m = self.m
        w, _h = surface.get_size()
        bar = pygame.Rect(0, 0, w, title_bar_height(m))
        panel(surface, bar, theme.PANEL, radius=0)
        x = m.gap
        if back:
            self.button(
                surface,
                pygame.Rect(x, m.gap, m.touch * 2, m.touch),
                _("Back"),
                self.back,
                key="back",
                role=Role.BACK,
            )
            x += m.touch * 2 + m.gap
        rx = w - m.gap
        for label, tap, key in reversed(right or []):
            bw = max(m.touch * 2, m.px(84))
            while bw < w // 3 and not fits(surface, label, button_inner(pygame.Rect(
                    0, 0, bw, m.touch)), m.text):
                bw += m.px(12)  # wide enough for its label, up to a third of the bar
            rx -= bw
            self.button(
                surface, pygame.Rect(rx, m.gap, bw, m.touch), label, tap, key=key,
                role=Role(key) if key in ROLES else None,
            )
            rx -= m.gap
        draw_text(
            surface,
            title,
            pygame.Rect(x, m.gap, rx - x - m.gap, m.touch),
            m.large,
            theme.ACCENT,
            bold=True,
            align="left",
        )
        return pygame.Rect(0, bar.bottom, w, surface.get_height() - bar.bottom)

    def game_bar(
        self, surface: pygame.Surface, buttons: list[tuple[str, Callable[[], None], str, bool]]
    ) -> tuple[pygame.Rect, pygame.Rect]:
        """The bar of a game screen: buttons (label, tap, key, enabled) on the right, or on a
        second row in portrait.  Returns the area for the game's status and the body below."""
        m = self.m
        w = surface.get_width()
        rows = 2 if m.portrait else 1
        bar_h = m.touch * rows + m.gap * (rows + 1)
        panel(surface, pygame.Rect(0, 0, w, bar_h), theme.PANEL, radius=0)
        y = m.gap + (m.touch + m.gap if m.portrait else 0)
        x = w - m.gap
        for label, tap, key, enabled in reversed(buttons):
            # as wide as its word (at least a touch target, wider in landscape): room for the
            # status beside five buttons, and in portrait for the lights at the row's left
            least = m.touch if m.portrait or key in ("help", "log", "hint") else m.touch * 3 // 2
            pad = max(6, m.touch // 6) + m.px(8)
            width = max(least, font(m.small).size(label)[0] + pad)
            x -= width
            self.button(
                surface,
                pygame.Rect(x, y, width, m.touch),
                label,
                tap,
                key=key,
                enabled=enabled,
                role=Role(key) if key in (Role.UNDO, Role.HELP) else None,
                why=lambda: _("Nothing to undo since the last draw, roll or reveal"),
                size=m.small,
            )
            x -= m.gap
        info = (
            pygame.Rect(m.gap, m.gap, w - 2 * m.gap, m.touch)
            if m.portrait
            else pygame.Rect(m.gap, m.gap, x - m.gap, m.touch)
        )
        return info, pygame.Rect(0, bar_h, w, surface.get_height() - bar_h)

    def language_button(self) -> tuple[str, Callable[[], None], str]:
        from companion.kiosk.i18n import LANGUAGE_NAMES, language

        return (LANGUAGE_NAMES[language()], self.app.next_language, "language")
