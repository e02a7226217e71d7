"""The journal's errors: plain exceptions with messages the kiosk can show as they are."""

from __future__ import annotations


class JournalError(Exception):
    """The journal cannot do what was asked: no such game, an unusable file, a failed write."""


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
