"""The game journal: nothing the table did is lost on a power cut.

Every accepted action is committed to an SQLite journal (WAL, ``synchronous=FULL``) before it is
acknowledged; undo is an entry of its own; an unfinished game resumes exactly where it was;
finished games are kept as history and export as records or BG Stats plays.  See
``docs/journal.md``.
"""

from __future__ import annotations

from .errors import JournalDataError, JournalError, JournalFromTheFuture
from .handouts import GiveBack, HandedOut
from .journal import GamePage, Journal, JournaledGame, default_path
from .records import Entry, GameInfo
from .schema import schema_version

__all__ = [
    "Entry",
    "GameInfo",
    "GamePage",
    "GiveBack",
    "HandedOut",
    "Journal",
    "JournalDataError",
    "JournalError",
    "JournalFromTheFuture",
    "JournaledGame",
    "default_path",
    "schema_version",
]
