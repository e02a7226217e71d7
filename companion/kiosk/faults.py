"""What a journal fault means for the table, in its language: what happened and what to do.
Plain text, no screens: the guard's fault screen and the screens' notices both use it."""

from __future__ import annotations

from companion.journal import JournalDataError, JournalError
from companion.journal.errors import JournalReadOnly
from companion.journal.schema import sqlite_code

from .i18n import _

# SQLite's primary result codes (the low byte of sqlite_errorcode).
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


def is_busy(exc: BaseException) -> bool:
    """True if ``exc`` means another process holds the journal (SQLITE_BUSY or _LOCKED):
    trying again later may well work."""
    return isinstance(exc, JournalError) and sqlite_code(exc) in (_BUSY, _LOCKED)


def is_read_only(exc: BaseException) -> bool:
    """True if ``exc`` means the journal cannot be written (its card is read-only): trying
    again once the card can be written works."""
    return isinstance(exc, JournalReadOnly)


def is_retried(exc: BaseException) -> bool:
    """True for a journal that could not be opened at start but may open a few seconds later
    (another program holds it, or its card is read-only): the kiosk tries it again."""
    return is_busy(exc) or is_read_only(exc)


def journal_problem(exc: JournalError) -> tuple[str, str]:
    """What happened and what to do about it, in the current language."""
    if isinstance(exc, JournalDataError):
        return (
            _("A game in the journal cannot be read"),
            _(
                "That game is kept as it is and the other games are not affected. Start a new "
                "game, or choose another one."
            ),
        )
    if isinstance(exc, JournalReadOnly):
        return (
            _("The journal cannot be written"),
            _(
                "The SD card or USB stick is read-only. Make it writable (check its lock "
                "switch), then try again. Everything saved before is kept."
            ),
        )
    code = sqlite_code(exc)
    if code == _FULL:
        return (
            _("The storage is full: this step was not saved"),
            _(
                "Free some space on the SD card (or use a larger one), then try again. "
                "Everything saved before is kept."
            ),
        )
    if code in (_BUSY, _LOCKED):
        return (
            _("Another program is using the journal"),
            _("Close the other program (another companion?), then try again."),
        )
    if code == _READONLY:
        return (
            _("The journal cannot be written"),
            _(
                "The SD card or USB stick is read-only. Check it, then restart the companion. "
                "Everything saved before is kept."
            ),
        )
    if code in (_IOERR, _CORRUPT, _CANTOPEN, _NOTADB):
        return (
            _("The storage cannot be read or written"),
            _(
                "The SD card or USB stick may be failing. Restart the companion; if it happens "
                "again, copy the journal elsewhere and replace the card."
            ),
        )
    return (
        _("The journal could not do this"),
        _("Try again; if it happens again, restart the companion."),
    )


def journal_message(exc: JournalError) -> str:
    """One line for a message box: what happened, and what to do."""
    what, todo = journal_problem(exc)
    return f"{what}. {todo}"


def retried_at_start_message(exc: JournalError) -> str:
    """The start screen's message for a journal another program holds or a read-only card
    (``is_retried``): what, what to do, and that the companion keeps trying."""
    again = _("The companion tries again every few seconds.")
    return f"{journal_message(exc)} {again}"
