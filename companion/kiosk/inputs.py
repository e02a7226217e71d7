"""The kiosk's inputs: a tap somewhere, or a press of one of the table's buttons.

The devices' events (:class:`Press`, :class:`Card`) are defined in ``companion.events``.

Touch, mouse, keyboard, the GPIO button panel and the camera all become these, so screens
handle one small vocabulary.  A touch is read from the FINGER events only: SDL also synthesises
mouse events from touches (marked ``touch``), and those are dropped, so a tap never counts twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from companion import events
from companion.events import ROLES, Card, Press, Role

KEYMAP: dict[int, Role] = {getattr(pygame, key): role for role in Role for key in role.keys}
"""Keyboard stand-ins for the table's buttons, built from ``Role.keys`` (``companion.events``;
the README's table of keys shows them, and a test keeps it so)."""


@dataclass(frozen=True)
class Tap:
    pos: tuple[int, int]


@dataclass(frozen=True)
class Text:
    """Typed text (a hardware keyboard, with an input method for CJK names)."""

    text: str


@dataclass(frozen=True)
class Pointer:
    """A finger (or the mouse's left button) going ``down`` or moving (``move``) while down,
    before the Tap it ends with: ``companion.kiosk.gestures`` makes holds, drags and flicks
    of them."""

    kind: str
    pos: tuple[int, int]


@dataclass(frozen=True)
class Hold:
    """A finger held still at ``pos`` for ``gestures.HOLD_SECONDS``."""

    pos: tuple[int, int]


@dataclass(frozen=True)
class Drag:
    """A finger dragged by ``dy`` pixels (down is positive) to ``pos``; ``start`` is where
    it went down."""

    pos: tuple[int, int]
    dy: int
    start: tuple[int, int]


@dataclass(frozen=True)
class Fling:
    """A drag ended at ``pos``, the finger moving at ``vy`` pixels a second (down is
    positive) as it lifted; ``start`` is where it went down."""

    pos: tuple[int, int]
    vy: float
    start: tuple[int, int]


Input = Tap | Press | Text | Card | Pointer | Hold | Drag | Fling

INPUT_EVENT = pygame.USEREVENT + 1
"""Carries an input from another thread (the devices' events, see :func:`listen`) into the
main loop; pygame's event queue is thread-safe."""


def post(inp: Input) -> None:
    """Hand an input to the kiosk's main loop from any thread."""
    pygame.event.post(pygame.event.Event(INPUT_EVENT, input=inp))


def listen() -> None:
    """Route the devices' events (``companion.events.post``) into the main loop."""
    events.connect(post)


def stop_listening() -> None:
    events.connect(None)


def translate(event: Any, size: tuple[int, int], typing: bool = False) -> Input | None:
    """The input an SDL event stands for, or None.  ``typing`` makes letters text, not keys."""
    kind = event.type
    if kind == pygame.FINGERUP:
        return Tap((int(event.x * size[0]), int(event.y * size[1])))
    if kind in (pygame.FINGERDOWN, pygame.FINGERMOTION):
        where = (int(event.x * size[0]), int(event.y * size[1]))
        return Pointer("down" if kind == pygame.FINGERDOWN else "move", where)
    if kind == pygame.MOUSEBUTTONUP:
        if getattr(event, "touch", False) or event.button != 1:
            return None
        return Tap(event.pos)
    if kind == pygame.MOUSEBUTTONDOWN:
        if getattr(event, "touch", False) or event.button != 1:
            return None
        return Pointer("down", event.pos)
    if kind == pygame.MOUSEMOTION:
        if getattr(event, "touch", False) or not event.buttons[0]:
            return None
        return Pointer("move", event.pos)
    if kind == pygame.TEXTINPUT and typing:
        return Text(event.text)
    if kind == pygame.KEYDOWN:
        role = KEYMAP.get(event.key)
        if typing and role not in (Role.CONFIRM, Role.BACK):
            return None  # a letter is text while typing; Enter and Esc/Backspace still work
        return Press(role) if role else None
    if kind == INPUT_EVENT:
        inp = getattr(event, "input", None)
        return inp if isinstance(inp, (Tap, Press, Text, Card, Pointer)) else None
    return None


__all__ = [
    "INPUT_EVENT",
    "KEYMAP",
    "ROLES",
    "Card",
    "Drag",
    "Fling",
    "Hold",
    "Input",
    "Pointer",
    "Press",
    "Role",
    "Tap",
    "Text",
    "listen",
    "post",
    "stop_listening",
    "translate",
]
