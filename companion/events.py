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
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable


class Role(StrEnum):
    """The table's buttons, by the role they play: the one place a button is declared.

    Each member says whether the button panel has it (``panel``: ``companion.panel.pins``
    takes a GPIO for it in ``[panel.buttons]``), whether it counts only when held
    (``long``: UNDO, ``companion.panel.buttons``) and its keyboard stand-ins (``keys``: the
    names of pygame's key constants, first the one the README shows; ``companion.kiosk.inputs``
    builds its key map from them).  Screens bind a role with ``Screen.button(role=...)``.
    The value is the string a pin map, a config file or a journal writes (``"draw"``), and a
    member equals its string."""

    panel: bool
    long: bool
    keys: tuple[str, ...]

    DRAW = "draw", True, False, ("K_SPACE",)
    ROLL = "roll", True, False, ("K_r",)
    CONFIRM = "confirm", True, False, ("K_RETURN", "K_KP_ENTER")
    PASS = "pass", True, False, ("K_p",)
    UNDO = "undo", True, True, ("K_u",)
    BACK = "back", False, False, ("K_ESCAPE", "K_BACKSPACE")
    HELP = "help", False, False, ("K_h", "K_F1")
    LANGUAGE = "language", False, False, ("K_l",)

    def __new__(cls, value: str, panel: bool = False, long: bool = False,
                keys: tuple[str, ...] = ()) -> Role:
        member = str.__new__(cls, value)
        member._value_ = value
        member.panel = panel
        member.long = long
        member.keys = keys
        return member

    @classmethod
    def of(cls, name: object, where: str = "") -> Role:
        """The role called ``name`` (a member or its string); ValueError naming it (and
        ``where`` it was written) and the roles there are, for anything else."""
        if isinstance(name, cls):
            return name
        if isinstance(name, str):
            try:
                return cls(name)
            except ValueError:
                pass
        at = f"{where}: " if where else ""
        raise ValueError(f"{at}unknown button role {name!r} (the roles are {', '.join(cls)})")


ROLES: tuple[Role, ...] = tuple(Role)
"""Every role, in declaration order (the panel's five, then the keys the kiosk adds)."""

PANEL_ROLES: tuple[Role, ...] = tuple(r for r in Role if r.panel)
"""The roles the button panel has a button for."""


@dataclass(frozen=True)
class Press:
    """One of the table's buttons, by role; a role's string is taken for it (``Press("draw")
    == Press(Role.DRAW)``), anything else is a ValueError naming it."""

    role: Role

    def __post_init__(self) -> None:
        object.__setattr__(self, "role", Role.of(self.role))


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
    "PANEL_ROLES",
    "ROLES",
    "CameraState",
    "Card",
    "Device",
    "DeviceEvent",
    "Lights",
    "MarkerOutline",
    "Notice",
    "Press",
    "Role",
    "TableView",
    "connect",
    "post",
]
