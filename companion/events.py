"""Where the devices meet the kiosk: plain events in, plain status out.

The button panel and the camera live below the kiosk and import nothing from it.  From their
own threads they :func:`post` plain events (a :class:`Press` of a button, a :class:`Card` the
camera read); the kiosk :func:`connect`\\ s a sink that hands them to its main loop.  On the main
loop the kiosk gives every device a :class:`TableView` (whose turn, the winners) and the time;
the device answers with :class:`Notice`\\ s, stable codes with named fields that the kiosk words
in the table's language, and exposes what it wants drawn as plain data (:class:`Lights`,
:class:`CameraState`), which the kiosk draws itself.

Nothing here imports pygame, OpenCV or gpiozero.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

ROLES = ("draw", "roll", "confirm", "pass", "undo", "back", "help", "language")
"""The table's buttons by role (the panel's five, and keys the kiosk adds)."""


@dataclass(frozen=True)
class Press:
    """One of the table's buttons, by role (see ROLES)."""

    role: str


@dataclass(frozen=True)
class Card:
    """A card recognised by the camera: the game and the card's stable id; ``again`` when it is
    the card the camera read last, shown again (the kiosk stays silent if it is refused)."""

    game: str
    card: str
    again: bool = False


DeviceEvent = Press | Card

_lock = threading.Lock()
_sink: Callable[[DeviceEvent], None] | None = None


def connect(sink: Callable[[DeviceEvent], None] | None) -> None:
    """Route posted events to ``sink`` (the kiosk's main loop); None disconnects."""
    global _sink
    with _lock:
        _sink = sink


def post(event: DeviceEvent) -> bool:
    """Hand ``event`` to whoever listens, from any thread; False when nobody does (the kiosk
    is closing, or not started) or the listener refused it."""
    with _lock:
        sink = _sink
    if sink is None:
        return False
    try:
        sink(event)
    except Exception:  # noqa: BLE001 - a closing kiosk: the event has nowhere to go
        return False
    return True


@dataclass(frozen=True)
class Notice:
    """Something a device tells the table once: a stable ``code`` (documented where it is
    raised, e.g. ``"button.stuck"``) and its named ``fields``; ``good`` for good news."""

    code: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    good: bool = False


@dataclass(frozen=True)
class TableView:
    """What a device may know of the table, computed by the kiosk after every batch of inputs.

    ``active`` is the colour of the seat the table should look at (the engine's
    ``active_seat``), ``winners`` the winners' colours of a finished game, ``key`` identifies the
    game on show (None: no game)."""

    active: str | None = None
    winners: frozenset[str] = frozenset()
    over: bool = False
    key: object = None

    @property
    def playing(self) -> bool:
        return self.key is not None


@dataclass(frozen=True)
class Lights:
    """The five lights to draw on screen (where there is no panel): colour or ``status`` → on;
    ``visible`` False draws nothing."""

    lit: Mapping[str, bool]
    visible: bool = True


@dataclass(frozen=True)
class MarkerOutline:
    """A marker in a frame: its corners in pixels and what it is on (``card``, ``corner``,
    ``unknown``)."""

    corners: tuple[tuple[float, float], ...]
    what: str


@dataclass(frozen=True)
class CameraState:
    """What the camera's status chip and live view show.

    ``last_game``/``last_card`` the last card read (None: none yet); ``refused`` the reason
    the kiosk gave for it (set by the kiosk through :meth:`Device.notify`); ``frame`` a grey
    picture as ``(width, height, bytes)`` for the live view, ``markers`` its outlines."""

    online: bool
    last_game: str | None = None
    last_card: str | None = None
    refused: str | None = None
    live_view: bool = False
    frame: tuple[int, int, bytes] | None = None
    markers: tuple[MarkerOutline, ...] = ()
    frames: int = 0


@runtime_checkable
class Device(Protocol):
    """Something at the edge of the kiosk (the button panel, the camera)."""

    def update(self, view: TableView, now: float) -> Sequence[Notice]:
        """The main loop, after every batch of inputs: read the table, return news."""
        ...

    def notify(self, event: str, detail: str = "") -> None:
        """Events the kiosk signals: ``"refused"`` (with the reason), ``"game-over"``."""
        ...

    def close(self) -> None: ...


__all__ = [
    "ROLES",
    "CameraState",
    "Card",
    "Device",
    "DeviceEvent",
    "Lights",
    "MarkerOutline",
    "Notice",
    "Press",
    "TableView",
    "connect",
    "post",
]
