"""systemd's notify protocol, with no dependency: READY, WATCHDOG and STOPPING messages sent
as datagrams to ``$NOTIFY_SOCKET``.

The unit runs the kiosk with ``Type=notify`` and ``WatchdogSec=``; the kiosk's main loop calls
``Notifier.tick()`` on every pass, which pings at half the watchdog interval.  A frozen main
loop stops the pings and systemd restarts the kiosk.  Outside systemd (no ``NOTIFY_SOCKET``)
every call does nothing.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable


class Notifier:
    """Talks to systemd if it is listening; silent otherwise."""

    def __init__(self, environ: dict[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET", "")
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 1e6 / 2 if usec.isdigit() and int(usec) > 0 else None
        self.clock = clock
        self.last = -1e18
        self.sent: list[str] = []

    @property
    def active(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> bool:
        """Send one notification; False when nobody listens or the socket fails."""
        if not self.address:
            return False
        addr = self.address
        if addr.startswith("@"):  # an abstract socket
            addr = "\0" + addr[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
                s.connect(addr)
                s.sendall(message.encode())
        except OSError:
            return False
        self.sent.append(message)
        return True

    def ready(self) -> None:
        self.send("READY=1\nSTATUS=The kiosk is running")

    def tick(self) -> None:
        """Ping the watchdog if half its interval has passed since the last ping."""
        if self.interval is None:
            return
        now = self.clock()
        if now - self.last >= self.interval and self.send("WATCHDOG=1"):
            self.last = now

    def stopping(self) -> None:
        self.send("STOPPING=1")
