"""The journal survives being killed at any moment (companion.journal.crashtest).

A child process plays random games through the journal and is killed with SIGKILL at random
moments; after each kill the journal must open, pass SQLite's integrity check, and hold every
acknowledged action and at most one more, with the resumed state equal to the replay of its
record.  The default run is short (10 kills; 30 under ``-m full``); the long run is marked
slow (``pytest -m slow``) and is also ``bench/bench_journal.py --kills N``.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from companion.engine import get_game
from companion.journal import Journal
from companion.journal.crashtest import CrashTestFailure, _Known, check_game, run

from .sweeps import sampled
from .test_journal import play_random


@pytest.mark.parametrize("kills", sampled([5, 10, 30], keep=[0]))  # 10 and 30 under -m full
@pytest.mark.usefixtures("every_installed_game")  # the child plays any installed game
def test_killed_many_times(tmp_path: Path, kills: int) -> None:
    report = run(tmp_path / "journal.sqlite3", kills=kills, seed=2024, max_life=0.1,
                 workdir=tmp_path)
    print(report)
    assert report.kills == kills
    assert report.games >= 1 and report.entries > 100
    assert report.checks >= report.games


@pytest.mark.slow
@pytest.mark.usefixtures("every_installed_game")
def test_killed_300_times(tmp_path: Path) -> None:
    report = run(tmp_path / "journal.sqlite3", kills=300, seed=7, workdir=tmp_path)
    print(report)
    assert report.kills == 300
    assert report.finished >= 10


# -- the checker itself must be able to fail --------------------------------------------------


def journal_with_a_game(path: Path) -> tuple[Journal, int, _Known]:
    journal = Journal.open(path)
    jg = journal.start(get_game("pillars").setup(3), seed=1)
    play_random(jg, random.Random(1), 60)
    known = _Known([(e.kind, e.text) for e in journal.entries(jg.id)])
    return journal, jg.id, known


def tamper(path: Path, sql: str, *args: object) -> None:
    conn = sqlite3.connect(str(path))
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def test_the_checker_accepts_a_sound_journal_and_one_unacknowledged_entry(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite3"
    journal, gid, known = journal_with_a_game(path)
    assert check_game(journal, gid, known, 1) == 0
    known.entries.pop()  # the last entry was committed but its acknowledgement lost
    assert check_game(journal, gid, known, 1) == 1
    journal.close()


def test_the_checker_notices_a_lost_acknowledged_entry(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal, gid, known = journal_with_a_game(path)
    tamper(path, "DELETE FROM entries WHERE game_id = ? AND seq = 60", gid)
    with pytest.raises(CrashTestFailure, match="lost or changed acknowledged entries"):
        check_game(journal, gid, known, 1)
    journal.close()


def test_the_checker_notices_two_unacknowledged_entries(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal, gid, known = journal_with_a_game(path)
    del known.entries[-2:]
    with pytest.raises(CrashTestFailure, match="2 more entries"):
        check_game(journal, gid, known, 1)
    journal.close()


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE games SET actions = actions + 1 WHERE id = ?", "actions or scores"),
        ("UPDATE games SET scores = '{}' WHERE id = ?", "actions or scores"),
        ("UPDATE games SET status = 'finished', ended = started WHERE id = ?", "is finished"),
        ("UPDATE games SET ended = started WHERE id = ?", "end time"),
        ("UPDATE games SET winners = '[\"Red\"]' WHERE id = ?", "winners"),
        ("DELETE FROM periods WHERE game_id = ? AND period = 1", "per-period scores"),
    ],
)
def test_the_checker_notices_listing_data_out_of_step(
    tmp_path: Path, sql: str, message: str
) -> None:
    path = tmp_path / "j.sqlite3"
    journal, gid, known = journal_with_a_game(path)
    assert journal.get(gid).periods  # round 1 is over after 60 actions
    tamper(path, sql, gid)
    with pytest.raises(CrashTestFailure, match=message):
        check_game(journal, gid, known, 1)
    journal.close()
