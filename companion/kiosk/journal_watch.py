"""The kiosk's watch over its journal: a journal another program held at start, or on a card
that could not be written, tried again every few seconds from the main loop, and the
whole-file check run in a thread of its own once the first frame is on screen, its findings
told on the main loop."""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.journal import JournalError

from . import i18n
from .faults import is_read_only, is_retried, retried_at_start_message

if TYPE_CHECKING:
    from companion.journal import Journal

    from .context import Kiosk

JOURNAL_RETRY_SECONDS = 2.0
"""How often a journal another program held at start, or a read-only one, is tried again."""


class JournalWatch:
    """The journal's opener while another program holds it or its card is read-only (None
    once open, or never held), when to try it next, what the last try met, and the
    whole-file check's results on their way back."""

    def __init__(self, app: Kiosk, opener: Callable[[], Journal] | None) -> None:
        self.app = app
        self.opener = opener
        self.retry_at = JOURNAL_RETRY_SECONDS
        self.read_only = False  # the last try met a read-only card (not a busy journal)
        self.check_started = False
        self.results: queue.SimpleQueue[list[str]] = queue.SimpleQueue()

    def retry(self) -> None:
        """Try again to open the journal another program held at start, or whose card could
        not be written (every JOURNAL_RETRY_SECONDS); once it opens, the home screen.  The
        message changes if the other one of those two is met; another fault is shown instead,
        and not tried again."""
        app = self.app
        if self.opener is None or app.time < self.retry_at:
            return
        self.retry_at = app.time + JOURNAL_RETRY_SECONDS
        try:
            journal = self.opener()
        except JournalError as exc:
            if is_retried(exc):
                self.read_only = is_read_only(exc)
                self.tell(retried_at_start_message(exc))
                return
            self.opener = None
            app.go("error", message=i18n._("The journal cannot be opened: {error}",
                                           error=str(exc)))
            return
        self.opener = None
        app.journal = journal
        app.go("home")
        print(f"companion: the journal {journal.path} is open", file=sys.stderr)
        app.toast(i18n._("The journal can be written again.") if self.read_only
                  else i18n._("The journal is free again."), good=True)
        if journal.notice:
            app.toast(journal.notice)

    def tell(self, message: str) -> None:
        """Show ``message`` on the start's error screen if it says something else (the
        other fault of the two, or the table changed the language)."""
        from .screens.home import ErrorScreen

        screen = self.app.screen
        if isinstance(screen, ErrorScreen) and screen.message != message:
            self.app.go("error", message=message)

    def start_check(self) -> None:
        """Check the whole journal file in a thread of its own (``Journal.check``, on a
        connection of its own); damage found is shown when the main loop next ticks."""
        journal = self.app.journal
        if journal is None or self.check_started:
            return
        self.check_started = True
        results = self.results

        def check() -> None:
            try:
                results.put(journal.check())
            except JournalError as exc:  # busy, or gone: nothing to say about damage
                print(f"companion: the journal's check did not run: {exc}", file=sys.stderr)

        threading.Thread(target=check, name="journal-check", daemon=True).start()

    def checked(self) -> None:
        """Tell the table what the check found, once it is done (on the main loop)."""
        try:
            problems = self.results.get_nowait()
        except queue.Empty:
            return
        if not problems:
            return
        print(f"companion: the journal's check found damage: {'; '.join(problems[:3])}",
              file=sys.stderr)
        self.app.toast(i18n._(
            "The journal's check found damage: some games may not be readable. Copy the "
            "journal off the SD card now; at the next start the damaged file is set aside "
            "and a new journal begun."
        ), now=True)


__all__ = ["JOURNAL_RETRY_SECONDS", "JournalWatch"]
