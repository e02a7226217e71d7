"""What a screen may ask of the kiosk: the typed context every screen is made with.

A screen is made with the kiosk (``Screen(kiosk)``) and reaches the services it uses through
it: the game on the table and the journal, the companion's seats, the messages, the settings,
the way to another screen.  It is typed here as :class:`Kiosk`, a protocol of those services
and nothing else; :class:`~companion.kiosk.app.App` is the one implementation (it also runs the
window, the loop and the devices, which no screen reaches).  So no screen, panel or game
kiosk imports the app, even for its types: the app imports the screens it shows, the screens
know this protocol, and the app is checked against it where it makes them (``mypy``).

A screenshot scene (a game's ``scenes``) drives the kiosk as a test would: it is given a
:class:`Stage`, the kiosk with the screen on show and the clock and the frame it advances.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from .inputs import Input

if TYPE_CHECKING:
    from companion.events import Device
    from companion.journal import Journal, JournaledGame

    from .config import Config
    from .lookahead import Ahead, LookAhead
    from .seats import Companion
    from .sound import Sounds
    from .theme import Metrics
    from .toasts import Toasts
    from .ui import Button


class View(Protocol):
    """What the kiosk asks of the screen on show (``screens.base.Screen`` is the one every
    screen is): draw it, give it the table's inputs and the time, ask what it may draw next."""

    buttons: list[Button]
    """The buttons of the last frame drawn (where a message covers the least)."""

    def on_show(self) -> None: ...

    def bar_bottom(self) -> int:
        """Where the screen's top bar ends (a message is not put over it)."""

    def draw(self, surface: pygame.Surface) -> None: ...

    def handle(self, inp: Input) -> None: ...

    def can_hold(self, pos: tuple[int, int]) -> bool: ...

    def update(self, dt: float) -> bool: ...

    def animating(self) -> bool: ...

    def redraw_part(self) -> Callable[[pygame.Surface], pygame.Rect] | None: ...

    def likely_next(self) -> Iterator[Ahead]: ...


class Navigation(Protocol):
    """The way to another screen (the names are in ``routes.py``)."""

    @property
    def screen(self) -> View:
        """The screen on show."""

    def go(self, name: str, /, **kwargs: Any) -> View:
        """Show the screen called ``name``, made with ``kwargs``."""

    def show(self, screen: View) -> None:
        """Show ``screen`` (already made)."""

    def open_game(self) -> None:
        """Show the session's game: its table screen, or its end screen once it is over."""


class Messages(Protocol):
    """What the table is told: a message, a refusal with its reason, a cue, a device's news."""

    sounds: Sounds
    toasts: Toasts

    def toast(self, message: str, good: bool = False, now: bool = False) -> None: ...

    def refuse(self, reason: str) -> None:
        """Say why something was refused (the message, the cue, the camera's chip)."""

    def refusal(self, error: Exception) -> str:
        """A refusal of the game being played, in the table's language."""

    def notify(self, event: str, detail: str = "") -> None:
        """Tell the devices (the panel's lights, the camera's chip)."""


class Table(Protocol):
    """The game on the table: the session, the journal, the companion's seats, and the one
    way an action is committed (through the journal, before it is shown)."""

    session: JournaledGame | None
    journal: Journal | None
    companion: Companion
    rng: random.Random
    """The kiosk's seeded generator (the bag, the die, the virtual deck)."""

    @property
    def time(self) -> float:
        """Seconds since the kiosk started (the toasts', the companion's and the camera's
        clock)."""

    @property
    def devices(self) -> list[Device]: ...

    def play(self, action: object, *, dealt: bool = False) -> bool:
        """Commit an action (or a previewed step) through the journal; True if taken."""

    def undo(self) -> None:
        """Take back the last action."""


class Settings(Protocol):
    """The table's settings and what changes them."""

    config: Config
    typing: bool
    """Whether a text field has the keyboard (the keys type, not press buttons)."""
    metrics: Metrics
    """Sizes for the screen on show (its touch target, its type)."""

    def save_config(self) -> None: ...

    def set_language(self, code: str) -> None: ...

    def next_language(self) -> None: ...

    def set_rotation(self, degrees: int) -> None: ...


class Kiosk(Navigation, Messages, Table, Settings, Protocol):
    """Everything a screen may ask of the kiosk (the app)."""

    dirty: bool
    """Set when the screen must be drawn again."""
    running: bool
    """Cleared to end the kiosk (Quit)."""
    ahead: LookAhead
    """The frames and screens made ahead in the idle time (``lookahead``, ``prepared``)."""

    def restart(self) -> None:
        """Start the kiosk anew (the fault screen's Restart)."""


class Stage(Kiosk, Protocol):
    """The kiosk as a screenshot scene drives it: the clock moved on, a frame drawn."""

    surface: pygame.Surface

    def tick(self, dt: float) -> None: ...

    def render(self, force: bool = False) -> bool: ...
