"""Which seats are the companion's, kept by the journal and the records: a new game keeps them,
a resumed game has them, a record carries them (and replays exactly as before), bad seats are
refused with the reason, and a journal from before the companion's seats still opens."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from companion.engine import Record, RecordError, SetupError, get_game, replay
from companion.engine.record import companion_seats
from companion.engine.simulate import random_game
from companion.journal import Journal, schema_version
from tests.test_journal import make_v1_journal


def test_a_game_keeps_its_companion_seats(tmp_path: Path) -> None:
    game = get_game("builders")
    setup = game.setup(3)
    _state, actions = random_game(game, setup, random.Random(3))
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        jg = journal.start(setup, seed=3, companions={2: "strong", 0: "easy"})
        assert jg.companions == {0: "easy", 2: "strong"}
        for a in actions[:40]:
            jg.play(a)
        plain = journal.start(setup, seed=4)
        assert plain.companions == {} and journal.get(plain.id).companions == {}
        assert journal.get(jg.id).companions == {0: "easy", 2: "strong"}
        assert [g.companions for g in journal.page().games] == [{}, {0: "easy", 2: "strong"}]
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        again = journal.resume(jg.id)
        assert again.companions == {0: "easy", 2: "strong"}
        record = journal.record(jg.id)
    assert record.companions == {0: "easy", 2: "strong"}
    text = record.dumps()
    assert json.loads(text)["companions"] == {"0": "easy", "2": "strong"}
    back = Record.loads(text)
    assert back.companions == record.companions
    # the companion's decisions are actions like any other: the replay is the same
    plain_record = Record(record.setup, record.actions, record.seed)
    assert replay(game, back) == replay(game, plain_record)
    assert "companions" not in json.loads(plain_record.dumps())


def test_read_only_commands_see_the_seats(tmp_path: Path) -> None:
    game = get_game("pillars")
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        jg = journal.start(game.setup(2), seed=1, companions={1: "normal"})
    with Journal.open(tmp_path / "j.sqlite3", read_only=True) as journal:
        assert journal.get(jg.id).companions == {1: "normal"}
        assert journal.record(jg.id).companions == {1: "normal"}


@pytest.mark.parametrize(
    ("companions", "message"),
    [
        ({0: "easy", 1: "normal"}, "cannot take every seat"),
        ({2: "easy"}, "companion seat '2' is not a seat of 2 players"),
        ({-1: "easy"}, "is not a seat of 2 players"),
        ({0: ""}, "needs a strength"),
    ],
)
def test_bad_seats_are_refused_and_nothing_is_written(
    tmp_path: Path, companions: dict[int, str], message: str
) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        with pytest.raises(SetupError, match=message):
            journal.start(get_game("pillars").setup(2), seed=1, companions=companions)
        assert journal.games() == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (["0"], "must be a JSON object"),
        ({"x": "easy"}, "'x' is not a seat"),
        ({"1": 3}, "needs a strength"),
        ({"0": "easy", "1": "easy", "2": "easy"}, "cannot take every seat"),
    ],
)
def test_a_record_with_bad_seats_is_refused(data: object, message: str) -> None:
    record = Record(get_game("pillars").setup(3)).to_json()
    record["companions"] = data
    with pytest.raises(RecordError, match=message):
        Record.from_json(record)
    with pytest.raises(ValueError, match=message):
        companion_seats(data, 3)


def test_a_journal_from_before_the_seats_opens(tmp_path: Path) -> None:
    path = tmp_path / "old" / "journal.sqlite3"
    path.parent.mkdir()
    effective = make_v1_journal(path)
    with Journal.open(path, read_only=True) as journal:  # not migrated: no seats, read anyway
        assert journal.get(1).companions == {}
        assert list(journal.record(1).actions) == effective
        assert journal.resume(1).companions == {}
    raw = sqlite3.connect(str(path))
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
    raw.close()
    with Journal.open(path) as journal:  # migrated forward: every old game has no seats
        assert journal.get(1).companions == {}
        assert journal.resume(1).companions == {}
        jg = journal.start(get_game("pillars").setup(2), seed=1, companions={0: "easy"})
        assert journal.get(jg.id).companions == {0: "easy"}
    raw = sqlite3.connect(str(path))
    assert raw.execute("PRAGMA user_version").fetchone()[0] == schema_version() >= 2
    raw.close()


def test_unreadable_seats_in_the_journal_are_named(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        jg = journal.start(get_game("pillars").setup(2), seed=1)
    raw = sqlite3.connect(str(path))
    raw.execute("UPDATE games SET companions = '{\"5\": \"easy\"}' WHERE id = ?", (jg.id,))
    raw.commit()
    raw.close()
    from companion.journal import JournalDataError

    with Journal.open(path) as journal:
        with pytest.raises(JournalDataError, match="not a seat of 2 players"):
            journal.get(jg.id)
        with pytest.raises(JournalDataError, match="cannot be set up again"):
            journal.resume(jg.id)
