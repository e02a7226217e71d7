"""The message line of the kiosk: one message on screen for a few seconds, notices waiting their
turn behind it, and the place on the screen where it covers the least."""

from __future__ import annotations

from functools import lru_cache, partial
from typing import TYPE_CHECKING

import pygame

from . import theme, ui
from .textcache import LRU
from .theme import Metrics
from .ui import draw_text, panel

if TYPE_CHECKING:
    from .context import View

TOAST_SECONDS = 4.0
"""How long a message stays on screen."""


class Toasts:
    """The message on screen (its text, until when, whether it is good news), those waiting
    behind it, and where it was last drawn.  Time is given (``App.time``), never read."""

    def __init__(self) -> None:
        self.current: tuple[str, float, bool] | None = None
        self.at: pygame.Rect | None = None  # where the message was last drawn
        self.waiting: list[tuple[str, bool]] = []

    @property
    def text(self) -> str | None:
        return self.current[0] if self.current else None

    def show(self, message: str, good: bool, now: bool, time: float) -> bool:
        """Show ``message`` from ``time``; with ``now`` it replaces the one on screen, else it
        waits its turn (once).  True when the screen changed."""
        if self.current is not None and not now:
            if message != self.current[0] and (message, good) not in self.waiting:
                self.waiting.append((message, good))
            return False
        self.current = (message, time + TOAST_SECONDS, good)
        return True

    def next(self, time: float) -> None:
        """The message on screen goes; the next one waiting, if any, shows from ``time``."""
        self.current = None
        if self.waiting:
            message, good = self.waiting.pop(0)
            self.current = (message, time + TOAST_SECONDS, good)

    def clear(self) -> None:
        """No message on screen or waiting (what was said of a game now over)."""
        self.current = None
        self.waiting.clear()

    def expired(self, time: float) -> bool:
        """True when the message on screen has had its time."""
        return self.current is not None and time >= self.current[1]

    def rect(self, screen: View, size: tuple[int, int], m: Metrics) -> pygame.Rect:
        """Where the message shows: where it was last placed, else below the screen's bar."""
        if self.at is not None:
            return self.at
        w, _h = size
        top = screen.bar_bottom() + m.px(4)
        return pygame.Rect(m.px(12), top, w - m.px(24), m.px(88))

    def draw(
        self, surface: pygame.Surface, screen: View, m: Metrics, under: list[pygame.Rect]
    ) -> None:
        """Draw the message on screen where it covers the least of ``under`` (the texts the
        screen just drew) and of the screen's buttons (:func:`place_toast`)."""
        if self.current is None:
            return
        self.at = place_toast(screen, surface.get_size(), m, under)
        rect = self.at
        text, _until, good = self.current
        if ui.recording():
            _card(surface, rect, text, good, m)  # (where it is, for what records it)
            return
        key = (text, good, rect.size, m.text, ui.context(surface))
        surface.blit(ui.drawn_once(DRAWN_TOASTS, key,
                                   partial(_keyed_card, rect.size, text, good, m)), rect)


def _card(surface: pygame.Surface, rect: pygame.Rect, text: str, good: bool, m: Metrics) -> None:
    """The message's panel and its text over ``rect``."""
    panel(surface, rect, theme.TOAST_GOOD if good else theme.TOAST_BAD, radius=10,
          border=theme.OUTLINE)
    draw_text(surface, text, rect.inflate(-16, -8), m.text, theme.TOAST_TEXT, lines=4)


def _keyed_card(size: tuple[int, int], text: str, good: bool, m: Metrics) -> pygame.Surface:
    """The message's card on a surface of its own, its rounded corners keyed out."""
    card = pygame.Surface(size)
    card.fill(_CORNERS)
    _card(card, card.get_rect(), text, good, m)
    card.set_colorkey(_CORNERS)
    return card


_CORNERS = (1, 2, 3)
"""The colour a message's drawn card is filled with first and keyed out by: its rounded
corners, which show the screen under them (no colour of the theme)."""

DRAWN_TOASTS: LRU[ui.Drawing] = LRU("messages", 8)
"""The messages as drawn (the panel and the text, their corners keyed out), and what drawing
them recorded in ``ui.OVERFLOWS``: a message stays on screen for seconds, over frames that
redraw the screen under it (its rounded panel and text took 0.2 ms a frame here)."""


def place_toast(
    screen: View, size: tuple[int, int], m: Metrics, texts: list[pygame.Rect]
) -> pygame.Rect:
    """The message's place on ``screen``: full width, below its bar, at the height where it
    covers the least of the texts just drawn (``texts``, their areas: ``ui.AREAS``; weighted
    most: a title or an instruction under a message cannot be read) and of the buttons (a
    whole-panel tap area counts for little); the highest such place on a tie."""
    w, h = size
    height = m.px(88)
    top = screen.bar_bottom() + m.px(4)
    bottom = h - height - m.px(4)
    if bottom <= top:
        return pygame.Rect(m.px(12), top, w - m.px(24), height)
    boxes = tuple((d.x, d.y, d.right, d.bottom, 4.0) for d in texts) + tuple(
        (b.rect.x, b.rect.y, b.rect.right, b.rect.bottom, 0.1 if b.extra.get("area") else 1.0)
        for b in screen.buttons)
    y = _least_covering(m.px(12), w - m.px(12), top, bottom, height, boxes)
    return pygame.Rect(m.px(12), y, w - m.px(24), height)


STEPS = 12
"""The heights tried for the message, from just below the bar to the bottom."""


@lru_cache(maxsize=32)
def _least_covering(left: int, right: int, top: int, bottom: int, height: int,
                    boxes: tuple[tuple[int, int, int, int, float], ...]) -> int:
    """The height (of ``STEPS`` + 1 from ``top`` to ``bottom``) where a message ``height``
    high from ``left`` to ``right`` covers the least of ``boxes`` (left, top, right, bottom,
    weight), the highest on a tie.  Kept: a screen redrawn under the same message has the
    same texts and buttons (placing it took 0.4 ms a frame here, a thousand overlaps)."""
    across = [(weight * (min(right, r) - max(left, x)), y, b)
              for x, y, r, b, weight in boxes if min(right, r) > max(left, x)]
    best: tuple[float, int] | None = None
    for k in range(STEPS + 1):
        at = top + (bottom - top) * k // STEPS
        end = at + height
        cost = 0.0
        for wide, y, b in across:
            if b > at and y < end:
                cost += wide * (min(end, b) - max(at, y))
        if best is None or cost < best[0]:
            best = (cost, at)
    assert best is not None
    return best[1]


__all__ = ["STEPS", "TOAST_SECONDS", "Toasts", "place_toast"]
