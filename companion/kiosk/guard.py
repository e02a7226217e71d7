"""Faults become screens, never a traceback on a black screen.

Everything the kiosk does for the table (handling a touch, advancing time, drawing) runs under
:func:`protect`.  A :class:`~companion.journal.JournalError` (a full or failing SD card, another
program holding the journal, a game that no longer replays, a row that does not parse) is shown
on the :class:`FaultScreen` in the table's language with what to do, and the kiosk carries on
with what it has.  Anything unexpected is logged with its traceback on standard error (the
system journal under systemd: ``journalctl -u companion``) and shown on the same screen with a
Restart button.  A fault while the fault screen itself is handled or drawn is not caught again:
it ends the kiosk with a non-zero status, and ``companion session`` / systemd start it anew.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections.abc import Callable
from types import TracebackType
from typing import Protocol

import pygame

from companion.events import Role
from companion.journal import JournalError
from companion.text import clean

from . import theme
from .context import Kiosk
from .faults import journal_message, journal_problem
from .i18n import _
from .screens.base import Screen
from .ui import draw_text, panel, split_h

DETAIL_LIMIT = 400
"""How much of an error's own (English, technical) text the fault screen shows."""


def log(exc: BaseException, *, with_traceback: bool) -> None:
    """Write the fault to standard error (under systemd: the system journal)."""
    if with_traceback:
        text = "".join(traceback.format_exception(exc))
        print(f"companion: unexpected error, shown on screen:\n{text}", file=sys.stderr, end="")
    else:
        print(f"companion: journal error, shown on screen: {exc}", file=sys.stderr)
    sys.stderr.flush()


REPEAT_SUMMARY_SECONDS = 60.0
"""While the same journal error goes on, how often at most its count is written."""


class JournalErrorLog:
    """The journal errors written to standard error: a new error at once; the same error
    again (a full card fails every tap) only counted, its count written in one line when
    another error comes, when the journal works again, when the kiosk ends, and at most every
    REPEAT_SUMMARY_SECONDS while it goes on."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last = ""  # the error written last ("": none, or the journal worked since)
        self.repeats = 0  # how often it came again since it, or its last count, was written
        self.since = 0.0  # when that was

    def error(self, exc: BaseException) -> None:
        text = str(exc)
        if text == self.last:
            self.repeats += 1
            if self.clock() - self.since >= REPEAT_SUMMARY_SECONDS:
                self._count("")
            return
        self._count(", then another error")
        log(exc, with_traceback=False)
        self.last, self.repeats, self.since = text, 0, self.clock()

    def message(self, exc: JournalError) -> str:
        """Log ``exc`` (:meth:`error`); what the table is told of it (``journal_message``)."""
        self.error(exc)
        return journal_message(exc)

    def ended(self, how: str = ", then the journal worked again") -> None:
        """The journal worked (or the kiosk ends: ``how`` says so): the count of the last
        error, if it came again, is written."""
        if self.last:
            self._count(how)
            self.last = ""

    def _count(self, how: str) -> None:
        if self.repeats:
            print(f"companion: journal error repeated {self.repeats} times in "
                  f"{self.clock() - self.since:.0f} s{how}: {self.last}", file=sys.stderr)
            sys.stderr.flush()
        self.repeats, self.since = 0, self.clock()


def restart_process() -> None:
    """Start the kiosk anew in this process (the same command line): what the Restart button
    does.  Under ``companion session`` the process stays the session's child."""
    pygame.quit()  # gives the display back before the new process takes it
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


class FaultScreen(Screen):
    """A fault, in the table's language: what happened, what to do, the error's own words,
    and the way on (Home; Restart for an unexpected error)."""

    def __init__(self, app: Kiosk, exc: Exception) -> None:
        super().__init__(app)
        self.error = exc
        self.unexpected = not isinstance(exc, JournalError)
        self.detail = clean(f"{type(exc).__name__}: {exc}", DETAIL_LIMIT)

    def texts(self) -> tuple[str, str]:
        if isinstance(self.error, JournalError):
            return journal_problem(self.error)
        return (
            _("Something went wrong"),
            _(
                "The companion met an unexpected problem; every step before it is saved in "
                "the journal. Tap Restart to carry on."
            ),
        )

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        what, todo = self.texts()
        area = self.title_bar(surface, what, back=False, right=[self.language_button()])
        box = area.inflate(-m.px(32), -m.px(24))
        box.height -= m.touch + m.gap
        panel(surface, box, theme.PANEL, border=theme.BAD)
        inner = box.inflate(-m.px(24), -m.px(16))
        top = pygame.Rect(inner.x, inner.y, inner.width, inner.height * 3 // 5)
        bottom = pygame.Rect(inner.x, top.bottom, inner.width, inner.height - top.height)
        draw_text(surface, todo, top, m.text, lines=5, min_size=m.px(12))
        draw_text(surface, self.detail, bottom, m.small, theme.MUTED, lines=4, min_size=m.px(10))
        row = pygame.Rect(box.x, box.bottom + m.gap, box.width, m.touch)
        home_r, restart_r = split_h(row, 1, 1, gap=m.gap * 2)
        self.button(surface, home_r, _("Home"), self.home, key="home")
        if self.unexpected:
            self.button(surface, restart_r, _("Restart"), self.restart, key="restart",
                        role=Role.CONFIRM)

    def home(self) -> None:
        self.app.session = None
        self.app.go("home")

    def restart(self) -> None:
        self.app.restart()

    def back(self) -> None:
        self.home()


class Guarded(Kiosk, Protocol):
    """The kiosk a guard protects: it also counts the journal's errors."""

    journal_errors: JournalErrorLog


def fault(app: Guarded, exc: Exception) -> bool:
    """Show ``exc`` on the fault screen; False when it cannot be (it came from the fault
    screen itself), and the caller lets it end the kiosk."""
    if isinstance(app.screen, FaultScreen):
        return False
    if isinstance(exc, JournalError):
        app.journal_errors.error(exc)
    else:
        log(exc, with_traceback=True)
    app.show(FaultScreen(app, exc))
    return True


class protect:  # noqa: N801 - used as a statement: ``with protect(app):``
    """Run a block for the table: a fault in it shows the fault screen instead of
    escaping.  ``caught`` says whether it did."""

    def __init__(self, app: Guarded) -> None:
        self.app = app
        self.caught = False

    def __enter__(self) -> protect:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        if not isinstance(exc, Exception):  # nothing, or KeyboardInterrupt / SystemExit
            return False
        self.caught = fault(self.app, exc)
        return self.caught


def draw(app: Guarded, surface: pygame.Surface) -> None:
    """Draw the current screen; if that fails, draw the fault screen that replaced it."""
    with protect(app) as guard:
        surface.fill(theme.BG)
        app.screen.draw(surface)
    if guard.caught:
        surface.fill(theme.BG)
        app.screen.draw(surface)


__all__ = ["FaultScreen", "JournalErrorLog", "fault", "journal_message", "journal_problem",
           "protect"]
