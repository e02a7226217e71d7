"""The journal's errors: plain exceptions with messages the kiosk can show as they are."""

from __future__ import annotations


class JournalError(Exception):
    """The journal cannot do what was asked: no such game, an unusable file, a failed write."""


class JournalDataError(JournalError):
    """A game's stored data cannot be used: a row that does not parse, or actions that the
    rules no longer accept (the game no longer replays).  The file itself is readable and the
    other games are not affected."""


class JournalReadOnly(JournalError):
    """The journal cannot be written: its file system is mounted read-only (a card's lock
    switch, a card the system set read-only after errors), or the file or its folder may not be
    written.  Nothing was changed; opening it again works once it can be written."""


class JournalFromTheFuture(JournalError):
    """The journal was written by a newer version of the companion (a higher schema version).

    Nothing was changed: the file is left exactly as it was for the newer version to use."""

    def __init__(self, path: object, found: int, supported: int) -> None:
        self.path = path
        self.found = found
        self.supported = supported
        super().__init__(
            f"the journal {path} has schema version {found}, newer than this companion "
            f"understands (up to {supported}); it was left untouched: update the companion "
            "to use it, or choose another journal file"
        )
