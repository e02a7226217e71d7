"""When a button press counts: bounce, the long press and stuck buttons, from timestamps.

A press counts when the button is released, as a tap on the touchscreen counts when the finger
lifts: so a button that jams down is never obeyed, and one rule serves the short buttons and
the long UNDO.  All timing is computed from the timestamps the caller passes in (the panel's
clock), never with timers or sleeps, so tests step a fake clock:

* a contact shorter than ``debounce`` is bounce, and a new contact within ``debounce`` of such
  a bounce continues the same press; contacts within ``debounce`` after a counted release are
  the contacts' chatter and are ignored;
* a long-press button (UNDO) counts only when held at least ``long_press``; released earlier,
  it does nothing (and the table is told, once the contact has settled, to hold it longer);
* a button held ``stuck_after`` or longer, or already held when the panel starts, is reported
  and ignored until it is released; its release is reported too ("works again").

The gpiozero callbacks (another thread) call ``press``/``release``; the kiosk's main loop calls
``check`` and ``drain``; one lock keeps them apart.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from companion.events import Role

LONG_PRESS: tuple[Role, ...] = tuple(r for r in Role if r.long)
"""The buttons that count only when held (``Role.long``: UNDO)."""


@dataclass(frozen=True)
class Notice:
    """Something to tell the table about a button: ``kind`` is "start-up" (held when the panel
    started), "stuck" (held too long), "released" (a reported button is free again) or
    "hold" (the long-press button was released too early)."""

    kind: str
    button: str
    seconds: float = 0.0


@dataclass
class _Key:
    name: str
    long: bool
    down_at: float | None = None  # the contact is closed since (None: open)
    origin: float = 0.0  # when this press began (earlier than down_at after a bounce)
    chatter: bool = False  # this contact is chatter after a counted release
    blocked: str = ""  # "start-up" or "stuck": ignored until released
    counted_at: float = -math.inf  # the last release that counted
    gap: tuple[float, float] | None = None  # (origin, release) of a release that did not count
    hint_at: float | None = None  # a too-short long press, to hint about once settled


class ButtonTimer:
    """Turns timestamped contact edges into counted presses and notices (see the module)."""

    def __init__(
        self,
        names: Iterable[str],
        *,
        long: Iterable[str] = LONG_PRESS,
        long_press: float = 1.0,
        stuck_after: float = 5.0,
        debounce: float = 0.03,
    ) -> None:
        longs = set(long)
        self.keys = {n: _Key(n, n in longs) for n in names}
        self.long_press = long_press
        self.stuck_after = stuck_after
        self.debounce = debounce
        self._notices: list[Notice] = []
        self._lock = threading.Lock()

    def held_at_start(self, name: str, t: float) -> None:
        """The button was already down when the panel started: ignore it until released."""
        with self._lock:
            k = self.keys[name]
            k.down_at = k.origin = t
            k.blocked = "start-up"
            self._notices.append(Notice("start-up", name))

    def press(self, name: str, t: float) -> None:
        """The contact closed at ``t``."""
        with self._lock:
            k = self.keys[name]
            if k.down_at is not None:
                return  # a repeated edge: the contact is already closed
            k.down_at = t
            if t - k.counted_at < self.debounce:
                k.chatter, k.origin = True, t
            elif k.gap is not None and t - k.gap[1] < self.debounce:
                k.origin = k.gap[0]  # a bounce in the middle of a press: the same press
                k.hint_at = None
            else:
                k.origin = t
            k.gap = None

    def release(self, name: str, t: float) -> str | None:
        """The contact opened at ``t``: the button's name if this completes a press that
        counts, else None."""
        with self._lock:
            k = self.keys[name]
            if k.down_at is None:
                return None
            k.down_at = None
            held = t - k.origin
            if k.blocked:
                k.blocked = ""
                k.counted_at = t  # the release's own chatter is not a press
                self._notices.append(Notice("released", name))
                return None
            if k.chatter:
                k.chatter = False
                k.counted_at = t
                return None
            if held >= self.stuck_after:  # check() did not run in time to block it
                self._notices.append(Notice("stuck", name, self.stuck_after))
                return None
            if held < self.debounce:
                k.gap = (k.origin, t)
                return None
            if k.long and held < self.long_press:
                k.gap = (k.origin, t)
                k.hint_at = t
                return None
            k.counted_at = t
            return name

    def check(self, t: float) -> None:
        """Find stuck buttons and settled too-short long presses (called by the main loop)."""
        with self._lock:
            for k in self.keys.values():
                if k.down_at is not None and not k.blocked and t - k.origin >= self.stuck_after:
                    k.blocked = "stuck"
                    self._notices.append(Notice("stuck", k.name, self.stuck_after))
                if k.hint_at is not None and k.down_at is None and t - k.hint_at >= self.debounce:
                    k.hint_at = None
                    self._notices.append(Notice("hold", k.name, self.long_press))

    def armed(self, t: float) -> bool:
        """True while a long-press button has been held long enough: releasing it now acts."""
        with self._lock:
            return any(
                k.long
                and k.down_at is not None
                and not k.blocked
                and not k.chatter
                and self.long_press <= t - k.origin < self.stuck_after
                for k in self.keys.values()
            )

    def is_down(self, name: str) -> bool:
        with self._lock:
            return self.keys[name].down_at is not None

    def drain(self) -> list[Notice]:
        """The notices since the last call, oldest first."""
        with self._lock:
            out, self._notices = self._notices, []
            return out
