"""What the table has handed out, and what it is to give back, as the journal stores it.

The kiosk hands out the rules' own changes step by step (``companion.kiosk.handout``); each
confirmation is committed before the next step shows, so a restart shows exactly the steps
still due.  The journal stores three things for that, all decided by what happened, never by a
setting read later:

- **confirmations**: ``games.handed_out`` (every step of the first N actions confirmed; -1:
  nothing yet, not even the set-up's holdings; NULL: a game begun before the journal stored
  them, or outside the kiosk) and the ``handouts`` rows, one per step confirmed after those
  (its action's index, -1 for the set-up, and its id among that action's steps);
- **who dealt each card**: ``entries.dealt`` (1: the companion's virtual deck dealt it, so the
  table lays it out as told; 0: the table dealt it by hand; NULL: not a deal, or not known);
- **give-backs**: the ``givebacks`` row an undo writes in the same transaction as its entry,
  naming what of the action it took back had reached the table (the steps confirmed, and
  whether the action was the companion's, whose pieces the table moved as instructed), until
  the table confirms that it put them back.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

ALL = "*"
"""A give-back's step id meaning every step of its action (all were confirmed)."""


@dataclass(frozen=True)
class HandedOut:
    """What the table confirmed handing out in one game: every hand-out of its first
    ``through`` actions (-1: nothing, not even the set-up's), and the steps ``(action index,
    step id)`` confirmed after them (index -1: the set-up's holdings)."""

    through: int
    steps: frozenset[tuple[int, str]]

    def confirmed(self, action: int, step: str) -> bool:
        return action < self.through or (action, step) in self.steps

    def of(self, action: int) -> tuple[str, ...]:
        """The ids of action ``action``'s steps confirmed (``(ALL,)``: every one)."""
        if action < self.through:
            return (ALL,)
        return tuple(sorted(step for a, step in self.steps if a == action))


@dataclass(frozen=True)
class GiveBack:
    """What an undo took back that had reached the table, until the table puts it back: the
    undo's entry ``seq``; ``actions``, the actions in force just before the undo (the last
    is the one taken back, at index ``len(actions) - 1``); ``steps``, the ids of that action's
    hand-out steps the table had confirmed (``(ALL,)``: all of them); ``instructed``: the
    action was the companion's, carried out by the table as its instruction said."""

    seq: int
    actions: tuple[str, ...]
    steps: tuple[str, ...]
    instructed: bool

    @property
    def index(self) -> int:
        """The index of the action taken back."""
        return len(self.actions) - 1

    @property
    def action(self) -> str:
        """The action taken back, in its notation."""
        return self.actions[-1]

    def id(self) -> str:
        """The id its hand-out step is confirmed under."""
        return f"back#{self.seq}"


def read_handed_out(conn: sqlite3.Connection, game_id: int) -> HandedOut | None:
    rows = conn.execute("SELECT handed_out FROM games WHERE id = ?", (game_id,)).fetchall()
    if not rows or rows[0][0] is None:
        return None
    steps = conn.execute("SELECT action, step FROM handouts WHERE game_id = ?",
                         (game_id,)).fetchall()
    return HandedOut(int(rows[0][0]), frozenset((int(a), str(k)) for a, k in steps))


def forget(conn: sqlite3.Connection, game_id: int, actions: int) -> None:
    """An undo left ``actions`` actions: the confirmations of those taken back go with them
    (another action may take their place)."""
    conn.execute("UPDATE games SET handed_out = MIN(handed_out, ?) WHERE id = ?",
                 (actions, game_id))
    conn.execute("DELETE FROM handouts WHERE game_id = ? AND action >= ?", (game_id, actions))


def record_give_back(conn: sqlite3.Connection, game_id: int, seq: int, index: int,
                     instructed: bool) -> None:
    """The undo entry ``seq`` takes back the action at ``index``: what of it reached the
    table (read before ``forget``) is stored to be given back; nothing when none did."""
    handed = read_handed_out(conn, game_id)
    steps = handed.of(index) if handed is not None else ()
    if steps or instructed:
        conn.execute("INSERT INTO givebacks (game_id, seq, steps, instructed) "
                     "VALUES (?, ?, ?, ?)", (game_id, seq, json.dumps(list(steps)),
                                             int(instructed)))


def give_backs(conn: sqlite3.Connection, game_id: int) -> list[GiveBack]:
    """The give-backs of the game not yet confirmed, oldest first."""
    rows = conn.execute("SELECT seq, steps, instructed FROM givebacks WHERE game_id = ? "
                        "ORDER BY seq", (game_id,)).fetchall()
    if not rows:
        return []
    entries = conn.execute("SELECT seq, kind, text FROM entries WHERE game_id = ? "
                           "ORDER BY seq", (game_id,)).fetchall()
    out = []
    for seq, steps, instructed in rows:
        actions = in_force(entries, int(seq) - 1)
        if not actions:
            continue  # (a row no undo explains: nothing to rebuild it from)
        ids = tuple(str(s) for s in json.loads(steps))
        out.append(GiveBack(int(seq), tuple(actions), ids, bool(instructed)))
    return out


def in_force(entries: list[tuple[int, str, str]], through: int) -> list[str]:
    """The actions in force after the entries up to seq ``through`` (each undo takes back
    the last action)."""
    actions: list[str] = []
    for seq, kind, text in entries:
        if seq > through:
            break
        if kind == "action":
            actions.append(str(text))
        elif actions:
            actions.pop()
    return actions


def dealt_flags(conn: sqlite3.Connection, game_id: int) -> list[bool | None]:
    """For each action in force, who dealt it: True the companion's virtual deck, False the
    table, None not a deal or not known."""
    flags: list[bool | None] = []
    for kind, dealt in conn.execute("SELECT kind, dealt FROM entries WHERE game_id = ? "
                                    "ORDER BY seq", (game_id,)):
        if kind == "action":
            flags.append(None if dealt is None else bool(dealt))
        elif flags:
            flags.pop()
    return flags


__all__ = ["ALL", "GiveBack", "HandedOut", "dealt_flags", "forget", "give_backs",
           "in_force", "read_handed_out", "record_give_back"]
