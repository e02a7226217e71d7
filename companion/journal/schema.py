"""The journal's file: the SQLite schema, its version, forward migrations, and opening a file
safely (a damaged or foreign file is moved aside, a newer one is refused untouched).

The schema version is SQLite's ``PRAGMA user_version``; ``PRAGMA application_id`` marks the
file as a companion journal, so another program's database is never mistaken for one.  Every
migration runs in one transaction with the version bump: a migration either happens completely
or not at all.  See ``docs/journal.md``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .errors import JournalError, JournalFromTheFuture, JournalReadOnly

APPLICATION_ID = int.from_bytes(b"CmpJ", "big")
"""``PRAGMA application_id`` of a companion journal (the bytes ``CmpJ``)."""

SQLITE_MAGIC = b"SQLite format 3\x00"

# SQLite's primary result codes that mean "this file is not a (healthy) database".
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26
# ... and those that mean "another connection holds it" and "it cannot be written".
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 5, 6, 8


@dataclass(frozen=True)
class Migration:
    """The statements that bring a journal from ``version - 1`` to ``version``."""

    version: int
    what: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "the first journal: games, entries, period scores, meta",
        (
            """CREATE TABLE meta (
                key   TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID""",
            """CREATE TABLE games (
                id      INTEGER PRIMARY KEY AUTOINCREMENT,
                game    TEXT NOT NULL,
                setup   TEXT NOT NULL,
                seed    INTEGER,
                status  TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
                started TEXT NOT NULL,
                updated TEXT NOT NULL,
                ended   TEXT,
                touched INTEGER NOT NULL,
                actions INTEGER NOT NULL,
                period  INTEGER NOT NULL,
                scores  TEXT NOT NULL,
                winners TEXT NOT NULL
            )""",
            "CREATE INDEX games_by_touch ON games (touched)",
            """CREATE TABLE entries (
                game_id INTEGER NOT NULL REFERENCES games (id),
                seq     INTEGER NOT NULL CHECK (seq >= 1),
                kind    TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
                text    TEXT NOT NULL,
                time    TEXT NOT NULL,
                PRIMARY KEY (game_id, seq)
            ) WITHOUT ROWID""",
            """CREATE TABLE periods (
                game_id INTEGER NOT NULL REFERENCES games (id),
                period  INTEGER NOT NULL,
                scores  TEXT NOT NULL,
                PRIMARY KEY (game_id, period)
            ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        2,
        "the companion's seats: which seats the companion plays, and how strongly",
        (
            "ALTER TABLE games ADD COLUMN companions TEXT NOT NULL DEFAULT '{}'",
        ),
    ),
    Migration(
        3,
        "the hand-outs the table confirmed: a restart resumes at the first one not confirmed",
        (
            # NULL: a game begun before this version (nothing known of its hand-outs)
            "ALTER TABLE games ADD COLUMN handed_out INTEGER",
            """CREATE TABLE handouts (
                game_id INTEGER NOT NULL REFERENCES games (id),
                action  INTEGER NOT NULL CHECK (action >= 0),
                step    TEXT NOT NULL,
                PRIMARY KEY (game_id, action, step)
            ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        4,
        "the set-up's hand-outs, who dealt each card, and what an undo gives back",
        (
            # the set-up's holdings are handed out as the steps of action -1
            """CREATE TABLE handouts_v4 (
                game_id INTEGER NOT NULL REFERENCES games (id),
                action  INTEGER NOT NULL CHECK (action >= -1),
                step    TEXT NOT NULL,
                PRIMARY KEY (game_id, action, step)
            ) WITHOUT ROWID""",
            "INSERT INTO handouts_v4 (game_id, action, step) "
            "SELECT game_id, action, step FROM handouts",
            "DROP TABLE handouts",
            "ALTER TABLE handouts_v4 RENAME TO handouts",
            # 1: the companion's virtual deck dealt the card; 0: the table; NULL: not a deal
            "ALTER TABLE entries ADD COLUMN dealt INTEGER",
            """CREATE TABLE givebacks (
                game_id    INTEGER NOT NULL REFERENCES games (id),
                seq        INTEGER NOT NULL,
                steps      TEXT NOT NULL,
                instructed INTEGER NOT NULL,
                PRIMARY KEY (game_id, seq)
            ) WITHOUT ROWID""",
        ),
    ),
)

TABLES = frozenset({"meta", "games", "entries", "periods"})
"""The tables every journal of the current version has."""


def schema_version() -> int:
    """The schema version this companion writes (the last migration's)."""
    return MIGRATIONS[-1].version


# -- inspecting a file without opening it -----------------------------------------------------


@dataclass(frozen=True)
class Header:
    """What the first 100 bytes of a file say (SQLite's database header)."""

    sqlite: bool
    application_id: int = 0
    user_version: int = 0


def read_header(path: Path) -> Header | None:
    """The header of the file at ``path``; None if there is no file or it is empty (SQLite
    treats an empty file as an empty database).  A folder, a FIFO or a device is refused
    with JournalError before anything is read from it, so no such path can hang."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not wait; it is refused below.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise JournalError(f"the journal path {path} is a folder, not a file") from None
    except OSError as exc:
        raise JournalError(f"cannot read the journal {path}: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise JournalError(f"the journal path {path} is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise JournalError(f"the journal path {path} is not a regular file ({_kind(mode)})")
        head = os.pread(fd, 100, 0)
    except OSError as exc:
        raise JournalError(f"cannot read the journal {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if not head:
        return None
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return Header(sqlite=False)
    return Header(
        sqlite=True,
        user_version=int.from_bytes(head[60:64], "big", signed=True),
        application_id=int.from_bytes(head[68:72], "big", signed=True),
    )


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def is_damage(exc: sqlite3.Error) -> bool:
    """True if SQLite says the file is corrupt or not a database (not merely busy or locked)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:  # pragma: no cover - Python 3.11+ always sets it
        text = str(exc).lower()
        return "malformed" in text or "not a database" in text
    return (code & 0xFF) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


# -- opening ----------------------------------------------------------------------------------


class _Unusable(Exception):
    """Internal: the file is damaged or foreign; ``reason`` says how."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


BUSY_TIMEOUT = 10.0
"""Seconds a connection waits for another process's lock by default (the kiosk waits far
less: its main loop must never stall on the journal; see ``companion.main``)."""


def open_database(
    path: Path, now: datetime, busy_timeout: float = BUSY_TIMEOUT
) -> tuple[sqlite3.Connection, str | None]:
    """A connection to the journal at ``path``, created or migrated to the current schema;
    and a notice if a damaged or foreign file had to be moved aside first.  The connection
    waits at most ``busy_timeout`` seconds for another process's lock.

    Raises JournalFromTheFuture (nothing changed), JournalReadOnly (the file, its folder or
    its file system cannot be written: nothing changed, and opening it again works once it
    can) or JournalError (busy: its cause is SQLite's SQLITE_BUSY)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        read_only(path, exc)
        raise JournalError(f"cannot create the folder of the journal {path}: {exc}") from None
    notice: str | None = None
    for _ in range(2):
        try:
            conn = _open_checked(path, busy_timeout)
        except JournalError as exc:
            if not isinstance(exc, JournalFromTheFuture):
                read_only(path, exc)
            raise
        except _Unusable as unusable:
            moved = move_aside(path, now)
            notice = (
                f"The journal {path} could not be used ({unusable.reason}). It was moved to "
                f"{moved.name} in the same folder, and a new, empty journal was started."
            )
        else:
            check_writable(conn, path, busy_timeout)
            return conn, notice
    raise JournalError(f"cannot start a new journal at {path}")  # pragma: no cover


def sqlite_code(exc: BaseException) -> int | None:
    """SQLite's primary result code behind ``exc`` (the error itself or its cause), if any."""
    for e in (exc, exc.__cause__, exc.__context__):
        code = getattr(e, "sqlite_errorcode", None)
        if isinstance(code, int):
            return code & 0xFF
    return None


def read_only_reason(path: Path, exc: BaseException) -> str | None:
    """Why the journal at ``path`` cannot be written, if that is why SQLite failed (``exc``,
    or a folder that could not be made): SQLite said so (SQLITE_READONLY), its file system is
    mounted read-only, or the file or its folder may not be written (``access``: for root too
    on a read-only file system or an immutable file).  None when nothing says so, when ``exc``
    is another program's lock (busy), or not SQLite's or the file system's error."""
    code = sqlite_code(exc)
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED) or (code is None and not isinstance(exc, OSError)):
        return None
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # a folder not made yet: the one it would be made in
    with suppress(OSError):
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "its file system is mounted read-only"
    if os.path.lexists(path) and not os.access(path, os.W_OK):
        return "the file may not be written"
    if not os.access(folder, os.W_OK):
        return f"its folder {folder} may not be written"
    if code == _SQLITE_READONLY:
        return "SQLite can open it only for reading"
    return None


def read_only(path: Path, exc: BaseException) -> None:
    """Raise JournalReadOnly (caused by ``exc``) if the journal at ``path`` cannot be written
    (:func:`read_only_reason`); return if nothing says so."""
    reason = read_only_reason(path, exc)
    if reason is not None:
        raise JournalReadOnly(
            f"the journal {path} is read-only ({reason}): nothing can be saved until it can be "
            "written again"
        ) from exc


def check_writable(conn: sqlite3.Connection, path: Path, busy_timeout: float) -> None:
    """Raise JournalReadOnly, the connection closed, if SQLite opened the journal only for
    reading (it does so without a word for a file it may not write, and begins a write
    transaction all the same): the schema version is written over with itself inside a
    transaction that is rolled back, so nothing is written.  Another program's lock is no
    answer (that program writes, so the file can be written), so it is not waited for."""
    try:
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            if sqlite_code(exc) not in (_SQLITE_BUSY, _SQLITE_LOCKED):
                raise
        else:
            try:
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
                conn.execute(f"PRAGMA user_version = {version}")
            finally:
                conn.execute("ROLLBACK")
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
    except sqlite3.Error as exc:
        conn.close()
        read_only(path, exc)
        raise JournalError(f"cannot open the journal {path}: {exc}") from exc


def open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to the existing journal at ``path``, for the commands that only
    read: nothing is created, migrated, renamed or deleted, beside the journal or in it.
    Anything that is not a companion journal (a missing, empty, damaged or foreign file, a
    folder, a FIFO) is refused with a JournalError naming what it is; a newer journal raises
    JournalFromTheFuture.

    A journal is recognised by the mark in its header or, while that is still only in the
    write-ahead log (a journal in use, or left by a crash, before its first checkpoint), by
    the mark read through the log or by its tables.  A journal with a ``-wal`` is read
    through it: in place when its ``-shm`` is there too (a writer may hold it); from a
    private copy when the ``-shm`` is missing, since SQLite would otherwise create one."""
    if not os.path.lexists(path):
        raise JournalError(f"there is no journal at {path}")
    header = read_header(path)
    if header is None:
        raise JournalError(f"{path} is an empty file, not a companion journal")
    if not header.sqlite:
        raise JournalError(f"{path} is not a companion journal (not an SQLite database)")
    if header.application_id not in (0, APPLICATION_ID):
        raise JournalError(
            f"{path} is not a companion journal (another program's SQLite database)"
        )
    if header.application_id == APPLICATION_ID and header.user_version > schema_version():
        raise JournalFromTheFuture(path, header.user_version, schema_version())
    conn = _connect_read_only(path)
    try:
        app_id, version, tables = _identity(conn)
        if app_id != APPLICATION_ID and not (app_id == 0 and _has_journal_tables(conn)):
            raise JournalError(
                f"{path} is not a companion journal (another program's SQLite database)"
            )
        if version > schema_version():
            raise JournalFromTheFuture(path, version, schema_version())
    except sqlite3.Error as exc:
        conn.close()
        raise JournalError(f"cannot read the journal {path}: {exc}") from None
    except BaseException:
        conn.close()
        raise
    missing = TABLES - tables
    if version < 1 or missing:
        conn.close()
        raise JournalError(
            f"{path} is not a usable companion journal (tables missing: "
            f"{', '.join(sorted(missing)) or 'none'}; schema version {version})"
        )
    return conn


class _CopyConnection(sqlite3.Connection):
    """A connection to a private copy of a journal; closing it removes the copy."""

    copy_dir: str = ""

    def close(self) -> None:
        super().close()
        if self.copy_dir:
            shutil.rmtree(self.copy_dir, ignore_errors=True)
            self.copy_dir = ""


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection that creates no file beside ``path`` (see open_read_only)."""
    wal = path.with_name(path.name + "-wal")
    shm = path.with_name(path.name + "-shm")
    try:
        has_wal = os.path.lexists(wal)
        if not has_wal or (wal.stat().st_size == 0 and not os.path.lexists(shm)):
            # No log to read: read the file as immutable (a read-only connection to a WAL
            # database would create the -wal and -shm files).
            uri = path.absolute().as_uri() + "?mode=ro&immutable=1"
            return sqlite3.connect(uri, uri=True, timeout=10.0, isolation_level=None)
        if os.path.lexists(shm):
            uri = path.absolute().as_uri() + "?mode=ro"
            return sqlite3.connect(uri, uri=True, timeout=10.0, isolation_level=None)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the journal {path}: {exc}") from None
    except OSError as exc:
        raise JournalError(f"cannot read the journal {path}: {exc.strerror or exc}") from None
    # A log without its index (-shm): SQLite would make the index beside the journal, so the
    # journal and its log are read from a private copy, where it may.
    folder = tempfile.mkdtemp(prefix="companion-journal-")
    try:
        copy = Path(folder) / "journal.sqlite3"
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        conn = sqlite3.connect(
            copy.as_uri() + "?mode=ro", uri=True, timeout=10.0, isolation_level=None,
            factory=_CopyConnection,
        )
    except (OSError, sqlite3.Error) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise JournalError(
            f"cannot read the journal {path} with its write-ahead log (copying it to "
            f"{tempfile.gettempdir()} failed: {exc})"
        ) from None
    assert isinstance(conn, _CopyConnection)
    conn.copy_dir = folder
    return conn


_JOURNAL_COLUMNS = {
    "games": {"id", "game", "setup", "status", "touched", "actions", "scores", "winners"},
    "entries": {"game_id", "seq", "kind", "text", "time"},
}


def _has_journal_tables(conn: sqlite3.Connection) -> bool:
    """True if the database has a journal's tables and their columns (a journal whose mark is
    not readable yet)."""
    for table, columns in _JOURNAL_COLUMNS.items():
        found = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")}
        if not columns <= found:
            return False
    return True


def _open_checked(path: Path, busy_timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    header = read_header(path)
    if header is not None:
        if not header.sqlite:
            raise _Unusable("it is not an SQLite database")
        if header.application_id not in (0, APPLICATION_ID):
            raise _Unusable(
                f"it is another program's SQLite database (application id {header.application_id})"
            )
        if header.application_id == APPLICATION_ID and header.user_version > schema_version():
            raise JournalFromTheFuture(path, header.user_version, schema_version())
        _sqlite_step(path, _inspect, read_only=True, busy_timeout=busy_timeout)
    conn = _sqlite_step(path, _prepare, read_only=False, busy_timeout=busy_timeout)
    with suppress(OSError):  # checked in full just now (or a new journal): nothing to note
        check_mark(path).unlink(missing_ok=True)
    return conn


def _sqlite_step(
    path: Path,
    step: Callable[[sqlite3.Connection, Path], None],
    *,
    read_only: bool,
    busy_timeout: float = BUSY_TIMEOUT,
) -> sqlite3.Connection:
    """Run ``step`` on a new connection; the connection (closed if read-only or on error).

    SQLite's "corrupt" and "not a database" become _Unusable; other SQLite errors (busy,
    locked, cannot open) a JournalError: a file that is merely busy is never moved aside."""
    try:
        if read_only:
            uri = path.absolute().as_uri() + "?mode=ro"
            conn = sqlite3.connect(uri, uri=True, timeout=busy_timeout, isolation_level=None)
        else:
            conn = sqlite3.connect(str(path), timeout=busy_timeout, isolation_level=None)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open the journal {path}: {exc}") from None
    try:
        step(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        if is_damage(exc):
            raise _Unusable(f"SQLite reports: {exc}") from None
        raise JournalError(f"cannot open the journal {path}: {exc}") from exc
    except BaseException:
        conn.close()
        raise
    if read_only:
        conn.close()
    return conn


def _identity(conn: sqlite3.Connection) -> tuple[int, int, set[str]]:
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    tables = {
        str(r[0])
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not str(r[0]).startswith("sqlite_")
    }
    return app_id, version, tables


def _classify(conn: sqlite3.Connection, path: Path) -> bool:
    """True for an empty database; raises unless the file is one of our journals of this or an
    older version."""
    app_id, version, tables = _identity(conn)
    if app_id in (0, APPLICATION_ID) and version == 0 and not tables:
        return True  # empty (or only marked: the start of a new journal)
    if app_id != APPLICATION_ID:
        listed = ", ".join(sorted(tables)) or "none"
        raise _Unusable(f"it is another program's SQLite database (tables: {listed})")
    if version > schema_version():
        raise JournalFromTheFuture(path, version, schema_version())
    if version < 1:
        raise _Unusable("it has a journal's mark but no schema version")
    return False


START_CHECK_TABLES = ("meta", "games")
"""What opening checks (SQLite's quick check of these tables and their indexes): what the
start needs, a few milliseconds whatever the history holds.  The whole file is checked by
:func:`full_check`, which the kiosk runs in the background once it is on screen."""


def check_mark(path: Path) -> Path:
    """The note a failed full check leaves beside the journal: the next open checks the whole
    file before it uses it (and moves a damaged one aside)."""
    return path.with_name(path.name + ".needs-check")


def _inspect(conn: sqlite3.Connection, path: Path) -> None:
    """Read-only: what the file is, and SQLite's quick check of a journal: of the tables the
    start needs (START_CHECK_TABLES), or of the whole file when a full check found damage
    before (its note is beside the journal).  A read-only connection never writes: not even
    the checkpoint SQLite makes when a connection closes, so a damaged or newer file is left
    exactly as it was."""
    if _classify(conn, path):
        return
    if check_mark(path).exists():
        problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
    else:
        _, _, tables = _identity(conn)
        problems = []
        for table in START_CHECK_TABLES:
            if table in tables:
                problems += [str(r[0]) for r in conn.execute(f"PRAGMA quick_check({table})")]
        problems = [p for p in problems if p != "ok"] or ["ok"]
    if problems != ["ok"]:
        raise _Unusable("SQLite's check found damage: " + "; ".join(problems[:3]))


def full_check(path: Path) -> list[str]:
    """SQLite's quick check of the whole journal at ``path`` on a connection of its own (so
    it may run in another thread while the journal is in use); the problems found, [] if
    none.  The damage is noted beside the journal (:func:`check_mark`), so the next open
    moves a damaged file aside; a clean check removes the note."""
    try:
        conn = sqlite3.connect(
            path.absolute().as_uri() + "?mode=ro", uri=True, timeout=BUSY_TIMEOUT,
            isolation_level=None, check_same_thread=False,
        )
        try:
            problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        if not is_damage(exc):
            raise JournalError(f"cannot check the journal {path}: {exc}") from exc
        problems = [f"SQLite reports: {exc}"]
    mark = check_mark(path)
    if problems == ["ok"]:
        if mark.exists():
            with suppress(OSError):
                mark.unlink()
        return []
    with suppress(OSError):
        mark.write_text("\n".join(problems[:20]) + "\n", encoding="utf-8")
    return problems


def _prepare(conn: sqlite3.Connection, path: Path) -> None:
    """Switch on WAL and full sync, and migrate the journal forward."""
    if _classify(conn, path):  # again: another process may have changed it meanwhile
        # A new journal is marked in its header before the switch to WAL, so the mark is in
        # the main file at once (in WAL mode it would stay in the log until a checkpoint,
        # and a reader of the file alone could not tell the journal from another database).
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
    if mode != "wal":
        raise JournalError(f"cannot switch the journal {path} to WAL mode (it stays in {mode})")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn, path)
    _, _, tables = _identity(conn)
    missing = TABLES - tables
    if missing:
        raise _Unusable(f"tables are missing: {', '.join(sorted(missing))}")


def migrate(conn: sqlite3.Connection, path: Path) -> int:
    """Bring the journal to the current schema version in one transaction; the version it had.

    Raises JournalFromTheFuture if another process made it newer meanwhile, JournalError if a
    migration fails (the file then stays at its old version)."""
    target = schema_version()
    app_id, version, _tables = _identity(conn)
    if app_id == APPLICATION_ID and version == target:
        return version  # nothing to do: no write lock taken (another writer may hold it)
    conn.execute("BEGIN IMMEDIATE")
    try:
        app_id, version, tables = _identity(conn)
        if app_id not in (0, APPLICATION_ID):  # pragma: no cover - checked just before
            raise _Unusable(f"it is another program's SQLite database (application id {app_id})")
        if version > target:
            raise JournalFromTheFuture(path, version, target)
        for step in MIGRATIONS:
            if step.version <= version:
                continue
            try:
                for statement in step.statements:
                    conn.execute(statement)
            except sqlite3.Error as exc:
                if is_damage(exc):
                    raise
                raise JournalError(
                    f"cannot bring the journal {path} from schema version {version} to "
                    f"{step.version} ({step.what}): {exc}; the journal was left as it was"
                ) from None
        if version < target:
            conn.execute(f"PRAGMA user_version = {int(target)}")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
        return version
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


SIDE_FILES = ("-wal", "-shm", "-journal")
"""SQLite's companion files, moved with the database so they never meet another file."""


def move_aside(path: Path, now: datetime) -> Path:
    """Rename ``path`` (and its -wal, -shm, -journal files) to ``<name>.damaged-<UTC time>``;
    never deletes anything.  The new path."""
    stamp = now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists() or any(target.with_name(target.name + s).exists() for s in SIDE_FILES):
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    with suppress(OSError):  # the note of a failed check concerns the file moved aside
        check_mark(path).unlink(missing_ok=True)
    try:
        path.rename(target)
        for suffix in SIDE_FILES:
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
    except OSError as exc:
        raise JournalError(
            f"the journal {path} cannot be used and cannot be moved aside: {exc}"
        ) from None
    return target
