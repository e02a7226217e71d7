"""The kiosk's watch over its journal: a journal another program held at start, tried again
every few seconds from the main loop, and the whole-file check run in a thread of its own once
the first frame is on screen, its findings told on the main loop."""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.journal import JournalError

from . import i18n
from .faults import is_busy

if TYPE_CHECKING:
    from companion.journal import Journal

    from .app import App

JOURNAL_RETRY_SECONDS = 2.0
"""How often a journal another program held at start is tried again."""


class JournalWatch:
    """The journal's opener while another program holds it (None once open, or never held),
    when to try it next, and the whole-file check's results on their way back."""

    def __init__(self, app: App, opener: Callable[[], Journal] | None) -> None:
        self.app = app
        self.opener = opener
        self.retry_at = JOURNAL_RETRY_SECONDS
        self.check_started = False
        self.results: queue.SimpleQueue[list[str]] = queue.SimpleQueue()

    def retry(self) -> None:
        """Try again to open the journal another program held at start (every
        JOURNAL_RETRY_SECONDS); once it opens, the home screen.  Another fault is shown
        instead, and not tried again."""
        app = self.app
        if self.opener is None or app.time < self.retry_at:
            return
        self.retry_at = app.time + JOURNAL_RETRY_SECONDS
        try:
            journal = self.opener()
        except JournalError as exc:
            if is_busy(exc):
                return
            self.opener = None
            app.go("error", message=i18n._("The journal cannot be opened: {error}",
                                           error=str(exc)))
            return
        self.opener = None
        app.journal = journal
        app.go("home")
        app.toast(i18n._("The journal is free again."), good=True)
        if journal.notice:
            app.toast(journal.notice)

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
