"""The game journal: every action the table takes, committed before it is acknowledged.

A :class:`Journal` is one SQLite file (WAL mode, ``synchronous=FULL``).  A
:class:`JournaledGame` wraps a :class:`~companion.engine.Playthrough`: ``play`` asks the rules
first (a refusal writes nothing), then commits the entry, and only then returns the new state;
``undo`` is written as an entry of its own.  Resuming replays a game's entries.  See
``docs/journal.md`` for the data model and what is durable when.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import platformdirs

from companion.engine import (
    Game,
    Playthrough,
    Record,
    RulesError,
    Setup,
    SetupError,
    Step,
    contract,
    get_game,
)
from companion.engine.record import companion_seats
from companion.engine.registry import spec as game_spec

from . import bgstats as _bgstats
from .errors import JournalDataError, JournalError
from .handouts import (
    GiveBack,
    HandedOut,
    dealt_flags,
    forget,
    give_backs,
    read_handed_out,
    record_give_back,
)
from .records import Entry, GameInfo
from .schema import BUSY_TIMEOUT, full_check, open_database, open_read_only

T = TypeVar("T")

Clock = Callable[[], datetime]
"""Where the journal gets the time from (aware datetimes; UTC by default)."""

STATUSES = ("playing", "finished", "abandoned")


def default_path() -> Path:
    """The journal in the user's data directory: ``$XDG_DATA_HOME/companion/journal.sqlite3``
    on Linux (``~/.local/share/companion/journal.sqlite3`` when XDG_DATA_HOME is unset)."""
    return Path(platformdirs.user_data_dir("companion", appauthor=False)) / "journal.sqlite3"


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _stamp(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _dumps(value: Any) -> str:
    return _ENCODER.encode(value)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""``json.dumps`` with these options, made once (``dumps`` makes an encoder a call, and every
action the table plays is stored with two of them)."""


_GAME_COLUMNS = (
    "id, game, setup, seed, status, started, updated, ended, actions, scores, winners, companions"
)
_V1_COLUMNS = _GAME_COLUMNS.replace("companions", "'{}' AS companions")
"""A version-1 journal opened read-only (not migrated) has no companions column: none."""
_STATUS_ORDER = "CASE status WHEN 'playing' THEN 0 WHEN 'finished' THEN 1 ELSE 2 END"


@dataclass(frozen=True)
class GamePage:
    """One page of a list of games: the games on it that could be read, how many games the
    whole list has, and a message for each game on the page whose row could not be read (it
    is left out; the others are not affected)."""

    games: list[GameInfo]
    total: int
    problems: list[str]


class Journal:
    """One journal file.  Open it with :meth:`open`; close it (or use ``with``)."""

    def __init__(
        self, path: Path, conn: sqlite3.Connection, notice: str | None, clock: Clock
    ) -> None:
        self.path = path
        self.notice = notice
        self._conn: sqlite3.Connection | None = conn
        self._clock = clock
        self._journal_id = ""
        self._columns = _GAME_COLUMNS
        self._handouts = True  # a migrated journal stores the hand-outs confirmed
        self._dealt = True  # ... who dealt each card, and what an undo gives back

    # -- opening and closing ------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        clock: Clock | None = None,
        read_only: bool = False,
        busy_timeout: float = BUSY_TIMEOUT,
    ) -> Journal:
        """Open (or create) the journal at ``path`` (default: :func:`default_path`).

        Creates missing folders and migrates an older journal forward.  A damaged or foreign
        file is moved aside to ``<name>.damaged-<UTC time>`` and a fresh journal started; the
        message is in :attr:`notice`.  A journal from a newer companion raises
        JournalFromTheFuture and is left untouched.

        ``read_only`` (the commands that only read): nothing is created, migrated or moved;
        anything but an existing companion journal raises JournalError, and every write
        raises JournalError.

        ``busy_timeout``: how long an open, a read or a write waits for another process's
        lock before it raises JournalError (SQLITE_BUSY); the kiosk gives a fraction of a
        second, so its main loop never stalls on a journal another program holds."""
        clock = clock or _utc_now
        where = Path(path) if path is not None else default_path()
        if read_only:
            journal = cls(where, open_read_only(where), None, clock)
            try:
                rows = journal._read("SELECT value FROM meta WHERE key = 'journal_id'")
            except BaseException:
                journal.close()
                raise
            journal._journal_id = str(rows[0][0]) if rows else ""
            names = {str(r[1]) for r in journal._read("PRAGMA table_info(games)")}
            if "companions" not in names:
                journal._columns = _V1_COLUMNS
            journal._handouts = "handed_out" in names
            tables = {str(r[0]) for r in journal._read(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            journal._dealt = "givebacks" in tables
            return journal
        conn, notice = open_database(where, clock(), busy_timeout)
        journal = cls(where, conn, notice, clock)
        try:
            journal._ensure_meta()
        except BaseException:
            journal.close()
            raise
        return journal

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}{', closed' if self.closed else ''})"

    # -- low level ----------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"the journal {self.path} is closed")
        return self._conn

    def _now(self) -> str:
        return _stamp(self._clock())

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed (durably, with synchronous=FULL) when the block ends,
        rolled back on any error.  SQLite errors become JournalError."""
        conn = self._db()
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                with suppress(sqlite3.Error):  # the connection may be gone
                    conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"the journal {self.path} could not record this: {exc}") from exc
            raise

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._db().execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read the journal {self.path}: {exc}") from exc

    def _open_for(self, stored: bool) -> bool:
        """``stored`` (whether this journal's version stores a thing), once the journal is
        known to be open (JournalError when closed)."""
        self._db()
        return stored

    def _reading(self, read: Callable[[sqlite3.Connection], T]) -> T:
        """``read(connection)``, SQLite's errors as JournalError."""
        try:
            return read(self._db())
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read the journal {self.path}: {exc}") from exc

    def _ensure_meta(self) -> None:
        if not self._read("SELECT 1 FROM meta WHERE key = 'journal_id'"):
            with self._write() as conn:
                conn.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('journal_id', ?), "
                    "('created', ?)",
                    (uuid.uuid4().hex, self._now()),
                )
        self._journal_id = str(self._read("SELECT value FROM meta WHERE key = 'journal_id'")[0][0])

    @property
    def journal_id(self) -> str:
        """A random id made when the journal was created: with a game id it names a play
        uniquely even across journals (BG Stats' ``sourcePlayId``)."""
        return self._journal_id

    def check(self) -> list[str]:
        """SQLite's check of the whole file; the problems found, [] if none.  It uses a
        connection of its own, so the kiosk runs it in a thread once it is on screen
        (opening checks only what the start needs).  Damage is noted beside the journal:
        the next open checks the whole file first and moves a damaged one aside."""
        return full_check(self.path)

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the main file (optional: SQLite does it by itself;
        the kiosk may call this while the table is idle)."""
        self._read("PRAGMA wal_checkpoint(TRUNCATE)")

    # -- games --------------------------------------------------------------------------------
    def start(
        self, setup: Setup, seed: int | None = None, companions: dict[int, str] | None = None,
        *, handing_out: bool = False,
    ) -> JournaledGame:
        """Begin a new game; it is in the journal (committed) when this returns.
        ``companions`` maps the seats the companion plays to its strength; SetupError when a
        seat is not one of the table's, or the companion would take every seat.
        ``handing_out``: the table hands out every change from the set-up's holdings on (the
        kiosk's new game), so nothing is handed out yet; else what was handed out is not
        known until the first confirmation (a game built outside the kiosk)."""
        game = get_game(setup.game)
        playthrough: Playthrough[Any, Any] = Playthrough(game, setup, seed)  # SetupError
        try:
            seats = companion_seats(dict(companions or {}), len(setup.players))
        except ValueError as exc:
            raise SetupError(str(exc)) from None
        state = playthrough.state
        now = self._now()
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO games (game, setup, seed, status, started, updated, ended, touched,"
                " actions, period, scores, winners, companions, handed_out) VALUES (?, ?, ?,"
                " 'playing', ?, ?, NULL, (SELECT COALESCE(MAX(touched), 0) + 1 FROM games), 0,"
                " ?, ?, '[]', ?, ?)",
                (
                    setup.game,
                    _dumps(setup.to_json()),
                    seed,
                    now,
                    now,
                    playthrough.period.number,
                    _dumps(contract.scores(game, game.scores(state))),
                    _dumps({str(k): v for k, v in seats.items()}),
                    -1 if handing_out else None,
                ),
            )
            game_id = cur.lastrowid
        assert game_id is not None
        return JournaledGame(self, game_id, game, playthrough, 0, seats)

    def games(self, limit: int | None = None) -> list[GameInfo]:
        """Every game (or the ``limit`` latest), the most recently active first."""
        return self._infos("1", limit=limit)

    def first_of(self, game: str) -> int | None:
        """The id of the journal's first game of ``game`` (None: it has none)."""
        rows = self._read("SELECT MIN(id) FROM games WHERE game = ?", (game,))
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    def ended_handing_out(self) -> GameInfo | None:
        """The most recently active game, when it has ended but the table may not have
        handed out all of its last changes (the steps after its last confirmation: the
        kiosk stopped before the end screen); None otherwise."""
        if not self._open_for(self._handouts):
            return None
        rows = self._read("SELECT id FROM games ORDER BY touched DESC, id DESC LIMIT 1")
        if not rows:
            return None
        found = self._infos("id = ? AND status = 'finished' AND handed_out IS NOT NULL "
                            "AND handed_out < actions", (int(rows[0][0]),))
        return found[0] if found else None

    def unfinished(self) -> list[GameInfo]:
        """The games still being played, the most recently active first."""
        return self._infos("status = 'playing'")

    def finished(self) -> list[GameInfo]:
        """The history: finished games, the most recent first."""
        return self._infos("status = 'finished'")

    def page(self, status: str | None = None, offset: int = 0, limit: int = 50) -> GamePage:
        """The games with ``status`` (None: all of them, unfinished first, then finished,
        then abandoned), the most recently active first, from ``offset`` for at most
        ``limit`` games: three queries whatever the journal's size (the count, the page's
        games, their period scores)."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown status {status!r} (one of {', '.join(STATUSES)})")
        if offset < 0 or limit < 1:
            raise ValueError(f"a page needs offset >= 0 and limit >= 1, not {offset}, {limit}")
        where, args = ("status = ?", [status]) if status is not None else ("1", [])
        order = "" if status is not None else f"{_STATUS_ORDER}, "
        total = int(self._read(f"SELECT COUNT(*) FROM games WHERE {where}", args)[0][0])
        rows = self._read(
            f"SELECT {self._columns} FROM games WHERE {where} "
            f"ORDER BY {order}touched DESC, id DESC LIMIT ? OFFSET ?",
            [*args, limit, offset],
        )
        periods: dict[int, list[tuple[int, dict[str, int]]]] = {int(r[0]): [] for r in rows}
        broken: dict[int, str] = {}
        if rows:
            marks = ", ".join("?" * len(rows))
            for game_id, period, scores in self._read(
                f"SELECT game_id, period, scores FROM periods WHERE game_id IN ({marks}) "
                "ORDER BY game_id, period",
                [int(r[0]) for r in rows],
            ):
                try:
                    periods[int(game_id)].append((int(period), dict(json.loads(scores))))
                except (ValueError, TypeError) as exc:
                    broken[int(game_id)] = f"game {game_id} has unreadable period scores: {exc}"
        infos: list[GameInfo] = []
        problems: list[str] = []
        for row in rows:
            game_id = int(row[0])
            if game_id in broken:
                problems.append(broken[game_id])
                continue
            try:
                infos.append(self._info(row, periods[game_id]))
            except JournalDataError as exc:
                problems.append(str(exc))
        return GamePage(infos, total, problems)

    def get(self, game_id: int) -> GameInfo:
        """The game ``game_id``; JournalError if there is none (any integer is accepted)."""
        if not 0 < game_id < 2**63:  # SQLite's integers: a larger one cannot be an id
            raise JournalError(self._no_such_game(game_id))
        infos = self._infos("id = ?", (game_id,))
        if not infos:
            raise JournalError(self._no_such_game(game_id))
        return infos[0]

    def _no_such_game(self, game_id: int) -> str:
        if game_id.bit_length() > 64:  # str() of a huge int is slow, and refused past 4300 digits
            return f"there is no game with so large an id in the journal {self.path}"
        return f"there is no game {game_id} in the journal {self.path}"

    def _infos(
        self, where: str, args: Sequence[Any] = (), limit: int | None = None
    ) -> list[GameInfo]:
        tail = "" if limit is None else " LIMIT ?"
        rows = self._read(
            f"SELECT {self._columns} FROM games WHERE {where} ORDER BY touched DESC, id DESC{tail}",
            [*args] if limit is None else [*args, limit],
        )
        infos = []
        for row in rows:
            try:
                periods = [
                    (int(p), dict(json.loads(s)))
                    for p, s in self._read(
                        "SELECT period, scores FROM periods WHERE game_id = ? ORDER BY period",
                        (row[0],),
                    )
                ]
            except (ValueError, TypeError) as exc:
                raise JournalDataError(
                    f"game {row[0]} has unreadable period scores: {exc}"
                ) from None
            infos.append(self._info(row, periods))
        return infos

    def _info(self, row: Sequence[Any], periods: list[tuple[int, dict[str, int]]]) -> GameInfo:
        (game_id, game, setup, seed, status, started, updated, ended, actions, scores, winners,
         companions) = row
        try:
            info_setup = Setup.from_json(json.loads(setup))
            return GameInfo(
                id=int(game_id),
                game=str(game),
                setup=info_setup,
                started=_time(started),
                updated=_time(updated),
                ended=_time(ended) if ended is not None else None,
                status=str(status),
                actions=int(actions),
                scores=dict(json.loads(scores)),
                winners=list(json.loads(winners)),
                periods=periods,
                seed=None if seed is None else int(seed),
                companions=companion_seats(json.loads(companions), len(info_setup.players)),
            )
        except (ValueError, TypeError, RulesError) as exc:
            raise JournalDataError(
                f"game {game_id} has unreadable data in the journal: {exc}"
            ) from None

    def entries(self, game_id: int) -> list[Entry]:
        """A game's whole log, every play and every undo, in order."""
        self.get(game_id)
        return [
            Entry(int(seq), str(kind), str(text), _time(time))
            for seq, kind, text, time in self._read(
                "SELECT seq, kind, text, time FROM entries WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        ]

    def _effective(self, game_id: int) -> tuple[list[str], int]:
        """The actions in force (each undo takes back the last one) and the entry count."""
        actions: list[str] = []
        n = 0
        for seq, kind, text in self._read(
            "SELECT seq, kind, text FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        ):
            n += 1
            if seq != n:
                raise JournalDataError(f"game {game_id}: entry {n} is missing from the journal")
            if kind == "action":
                actions.append(text)
            elif not actions or actions[-1] != text:
                raise JournalDataError(
                    f"game {game_id}: entry {seq} undoes {text!r}, which is not the last action"
                )
            else:
                actions.pop()
        return actions, n

    def resume(self, game_id: int | None = None) -> JournaledGame:
        """The game ``game_id`` (default: the most recently active unfinished game) as it was
        after its last committed entry.  Resuming an abandoned game makes it unfinished again."""
        if game_id is None:
            rows = self._read(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY touched DESC, id DESC "
                "LIMIT 1"
            )
            if not rows:
                raise JournalError(f"there is no unfinished game in the journal {self.path}")
            game_id = int(rows[0][0])
        if not 0 < game_id < 2**63:
            raise JournalError(self._no_such_game(game_id))
        rows = self._read(
            f"SELECT game, setup, seed, status, {self._columns.rpartition(', ')[2]} FROM games "
            "WHERE id = ?",
            (game_id,),
        )
        if not rows:
            raise JournalError(self._no_such_game(game_id))
        name, setup_text, seed, status, companions_text = rows[0]
        actions, n = self._effective(game_id)
        try:
            setup = Setup.from_json(json.loads(setup_text))
            game = get_game(name)
            playthrough: Playthrough[Any, Any] = Playthrough(game, setup, seed)
            seats = companion_seats(json.loads(companions_text), len(setup.players))
        except (ValueError, TypeError, RulesError) as exc:
            raise JournalDataError(f"game {game_id} cannot be set up again: {exc}") from None
        for i, text in enumerate(actions, 1):
            try:
                playthrough.play(text)
            except RulesError as exc:
                raise JournalDataError(
                    f"game {game_id} cannot be resumed: its action {i} ({text!r}) is refused "
                    f"by the rules: {exc}"
                ) from None
        if status == "abandoned":
            with self._write() as conn:
                conn.execute(
                    "UPDATE games SET status = 'playing', updated = ?, "
                    "touched = (SELECT MAX(touched) FROM games) + 1 WHERE id = ?",
                    (self._now(), game_id),
                )
        return JournaledGame(self, game_id, game, playthrough, n, seats)

    def record(self, game_id: int) -> Record:
        """The game's record in the engine's format: its set-up and the actions in force (undos
        applied); ``meta`` says where it came from."""
        info = self.get(game_id)
        actions, n = self._effective(game_id)
        meta: dict[str, Any] = {
            "journal": {
                "journal_id": self.journal_id,
                "game_id": info.id,
                "status": info.status,
                "started": _stamp(info.started),
                "ended": _stamp(info.ended) if info.ended else None,
                "entries": n,
                "undos": (n - len(actions)) // 2,
            },
        }
        return Record(info.setup, tuple(actions), info.seed, meta, dict(info.companions))

    def abandon(self, game_id: int) -> None:
        """Mark an unfinished game abandoned: it is kept (and can be resumed by its id) but no
        longer listed as unfinished."""
        info = self.get(game_id)
        if info.status == "finished":
            raise JournalError(f"game {game_id} is finished; finished games are kept as history")
        if info.status == "abandoned":
            return
        with self._write() as conn:
            conn.execute(
                "UPDATE games SET status = 'abandoned', updated = ?, "
                "touched = (SELECT MAX(touched) FROM games) + 1 WHERE id = ?",
                (self._now(), game_id),
            )

    # -- BG Stats -----------------------------------------------------------------------------
    def bgstats(self, game_id: int) -> dict[str, Any]:
        """The finished game as a BG Stats play object (see docs/journal.md)."""
        info = self.get(game_id)
        if info.status != "finished":
            raise JournalError(
                f"game {game_id} is {info.status}: only a finished game can go to BG Stats"
            )
        return _bgstats.play(info, self.journal_id, game_spec(info.game))

    def bgstats_link(self, game_id: int, *, web: bool = False) -> str:
        """The link that opens BG Stats with the play filled in (for a QR code):
        ``bgstats://app.bgstatsapp.com/createPlay.html?data=...``; ``web=True`` gives the
        ``https://app.bgstatsapp.com/...`` form of the same link."""
        return _bgstats.link(self.bgstats(game_id), web=web)


class JournaledGame:
    """A game being played through the journal.

    Use :meth:`play` and :meth:`undo`, never ``playthrough.play``/``undo`` directly (the journal
    notices and refuses to go on)."""

    def __init__(
        self,
        journal: Journal,
        game_id: int,
        game: Game[Any, Any],
        playthrough: Playthrough[Any, Any],
        entries: int,
        companions: dict[int, str] | None = None,
    ) -> None:
        self.id = game_id
        self.companions: dict[int, str] = dict(companions or {})
        """The seats the companion plays, with its strength at each (seat: strength)."""
        self.game = game
        self.playthrough = playthrough
        self._journal = journal
        self._entries = entries
        self._last = playthrough.state

    def __repr__(self) -> str:
        return f"JournaledGame({self.id}, {self.game.name!r}, {self._entries} entries)"

    @property
    def journal(self) -> Journal:
        return self._journal

    @property
    def state(self) -> Any:
        return self.playthrough.state

    @property
    def entries(self) -> int:
        """How many entries (plays and undos) this game has in the journal."""
        return self._entries

    def is_over(self) -> bool:
        return self.game.is_over(self.playthrough.state)

    def can_undo(self) -> bool:
        return self.playthrough.can_undo()

    def info(self) -> GameInfo:
        return self._journal.get(self.id)

    def _check(self) -> None:
        self._journal._db()  # refuses once the journal is closed
        if self.playthrough.state is not self._last:
            raise JournalError(
                f"game {self.id} was changed outside the journal (through its playthrough); "
                "resume it from the journal"
            )

    def play(self, action: Any, *, dealt: bool | None = None) -> Any:
        """Apply a decision or a chance outcome (an action, its notation, or a ``Step`` the
        table previewed) and return the new state, which is committed to the journal before
        this returns.  ``dealt`` says who dealt a chance outcome: True the companion's
        virtual deck (the table lays it out as told), False the table by hand; stored with
        the entry, so what a restart hands out depends on what happened, not on a setting.

        The rules are applied once (``Game.step``), and not at all for a step made on the
        current state: its state after is committed as it is (a step made on another state
        is refused).  A refusal by the rules (MalformedAction, IllegalAction) writes nothing.
        When the game ends, it is marked finished with its final scores and end time in the
        same transaction.  A hand-built action is stored in its canonical notation
        (``Game.notation``); one without a notation that reads back as it is refused
        (MalformedAction)."""
        self._check()
        game = self.game
        before = self.playthrough.state
        if isinstance(action, Step):
            self.playthrough.check_step(action)  # a stale preview raises here
            step = action
        else:
            if isinstance(action, str):
                action = game.parse_action(action)
            step = game.step(before, action)  # the rules first: a refusal raises here
        after = step.after
        # What is stored must read back as this action, or the game could never be resumed:
        # a hand-built look-alike (a count of True or 2.0) is stored in its canonical form,
        # and one the notation cannot write is refused (MalformedAction) with nothing written.
        text = game.notation(step.action)
        action = game.parse_action(text)  # memory holds what the journal holds
        step = Step(before, action, after)
        scores = contract.scores(game, game.scores(after))
        period = self.playthrough.period  # the game's own periods, or its turns counted
        period_before = period.number
        period_after = contract.period(game, game.period_after(period, after)).number
        over = game.is_over(after)
        now = self._journal._now()
        seq = self._entries + 1
        with self._journal._write() as conn:
            if self._journal._dealt:
                conn.execute(
                    "INSERT INTO entries (game_id, seq, kind, text, time, dealt) "
                    "VALUES (?, ?, 'action', ?, ?, ?)",
                    (self.id, seq, text, now, None if dealt is None else int(dealt)),
                )
            else:  # (a journal opened read-only: the write below refuses)
                conn.execute(
                    "INSERT INTO entries (game_id, seq, kind, text, time) "
                    "VALUES (?, ?, 'action', ?, ?)",
                    (self.id, seq, text, now),
                )
            if period_after != period_before:
                conn.execute(
                    "INSERT OR REPLACE INTO periods (game_id, period, scores) VALUES (?, ?, ?)",
                    (self.id, period_before, _dumps(scores)),
                )
            if over:
                conn.execute(
                    "INSERT OR REPLACE INTO periods (game_id, period, scores) VALUES (?, ?, ?)",
                    (self.id, period_after, _dumps(scores)),
                )
            conn.execute(
                "UPDATE games SET status = ?, updated = ?, ended = ?, "
                "touched = (SELECT MAX(touched) FROM games) + 1, actions = actions + 1, "
                "period = ?, scores = ?, winners = ? WHERE id = ?",
                (
                    "finished" if over else "playing",
                    now,
                    now if over else None,
                    period_after,
                    _dumps(scores),
                    _dumps(contract.winners(game, game.winners(after)) if over else []),
                    self.id,
                ),
            )
        self._entries = seq
        state = self.playthrough.commit(step)  # the state after, not the rules again
        self._last = state
        return state

    def handed_out(self) -> HandedOut | None:
        """What the table confirmed handing out (:meth:`confirm_hand_out`), or None for a game
        begun outside the kiosk before its first confirmation (or in a journal too old to
        store it): the kiosk then shows the last action's steps again."""
        if not self._journal._open_for(self._journal._handouts):
            return None
        return self._journal._reading(partial(read_handed_out, game_id=self.id))

    def confirm_hand_out(self, action: int | None, step: str, *, done: bool) -> None:
        """The table confirmed the hand-out ``step`` (its id among the steps of the action at
        index ``action``; -1 for the set-up's holdings; None for a step no action holds),
        committed before this returns; ``done``: no step is left to hand out, so every
        hand-out of the actions so far is confirmed.  JournalError, with nothing written, for
        an action the game does not have, a step without its id, or a journal that cannot
        write."""
        self._check()
        count = len(self.playthrough.actions)
        if action is not None and not -1 <= action < count:
            raise JournalError(f"game {self.id} has no action {action} to confirm a hand-out "
                               f"of (it has {count})")
        if not step:
            raise JournalError(f"game {self.id}: a hand-out confirmed without its step's id")
        with self._journal._write() as conn:
            if done:
                conn.execute("UPDATE games SET handed_out = ? WHERE id = ?", (count, self.id))
                conn.execute("DELETE FROM handouts WHERE game_id = ?", (self.id,))
            elif action is not None:
                conn.execute("UPDATE games SET handed_out = COALESCE(handed_out, ?) "
                             "WHERE id = ?", (action, self.id))
                conn.execute("INSERT OR IGNORE INTO handouts (game_id, action, step) "
                             "VALUES (?, ?, ?)", (self.id, action, step))

    def all_handed_out(self) -> None:
        """Nothing of the actions so far is left to hand out (a game that ended with no step
        to hand out): committed, so the end screen is not held for steps after a restart."""
        self._check()
        with self._journal._write() as conn:
            conn.execute("UPDATE games SET handed_out = ? WHERE id = ?",
                         (len(self.playthrough.actions), self.id))
            conn.execute("DELETE FROM handouts WHERE game_id = ?", (self.id,))

    def dealt(self) -> list[bool | None]:
        """Who dealt each action in force (``play``'s ``dealt``): True the virtual deck, False
        the table, None not a deal or not known (a journal of an older version)."""
        if not self._journal._open_for(self._journal._dealt):
            return [None] * len(self.playthrough.actions)
        return self._journal._reading(partial(dealt_flags, game_id=self.id))

    def give_backs(self) -> list[GiveBack]:
        """What the undos took back that had reached the table and the table has not yet
        confirmed putting back, oldest first (:meth:`undo`'s ``instructed``)."""
        if not self._journal._open_for(self._journal._dealt):
            return []
        return self._journal._reading(partial(give_backs, game_id=self.id))

    def confirm_give_back(self, seq: int) -> None:
        """The table put back what the undo entry ``seq`` took back; committed before this
        returns (JournalError, nothing written, if the journal cannot write)."""
        self._check()
        with self._journal._write() as conn:
            conn.execute("DELETE FROM givebacks WHERE game_id = ? AND seq = ?", (self.id, seq))

    def last_undone(self) -> tuple[int, str] | None:
        """When the game's last entry is an undo: the index and notation of the action it took
        back (the companion says when it plays the same move again); else None."""
        rows = self._journal._read(
            "SELECT kind, text FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            (self.id,))
        if not rows or rows[0][0] != "undo":
            return None
        return len(self.playthrough.actions), str(rows[0][1])

    def undo(self, *, instructed: bool = False) -> Any:
        """Take back the last decision (Playthrough.undo: UndoBlocked at a draw, a roll or a
        reveal, and nothing is written), then commit an undo entry; the action taken back.
        What of the action had reached the table (its hand-out steps confirmed, and with
        ``instructed`` the action itself: the companion's, carried out by the table as told)
        is stored with the entry, to be given back (:meth:`give_backs`)."""
        self._check()
        playthrough = self.playthrough
        action = playthrough.undo()  # UndoBlocked propagates; nothing written
        try:
            game = self.game
            state = playthrough.state
            period = playthrough.period.number
            now = self._journal._now()
            seq = self._entries + 1
            with self._journal._write() as conn:
                conn.execute(
                    "INSERT INTO entries (game_id, seq, kind, text, time) "
                    "VALUES (?, ?, 'undo', ?, ?)",
                    (self.id, seq, game.format_action(action), now),
                )
                conn.execute(
                    "DELETE FROM periods WHERE game_id = ? AND period >= ?", (self.id, period)
                )
                if self._journal._dealt:
                    record_give_back(conn, self.id, seq, len(playthrough.actions), instructed)
                forget(conn, self.id, len(playthrough.actions))
                conn.execute(
                    "UPDATE games SET status = 'playing', updated = ?, ended = NULL, "
                    "touched = (SELECT MAX(touched) FROM games) + 1, actions = actions - 1, "
                    "period = ?, scores = ?, winners = '[]' WHERE id = ?",
                    (now, period, _dumps(game.scores(state)), self.id),
                )
        except BaseException:
            playthrough.play(action)  # put the decision back: memory stays as the journal
            self._last = playthrough.state
            raise
        self._entries = seq
        self._last = playthrough.state
        return action
