"""The game journal (companion.journal): commits, undo entries, resume, history, BG Stats,
schema versions and migrations, damaged and foreign files, journals from the future."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

import companion.journal.schema as schema
from companion.engine import (
    CHANCE,
    IllegalAction,
    MalformedAction,
    Playthrough,
    Record,
    UndoBlocked,
    get_game,
    replay,
)
from companion.engine.simulate import random_game, sample
from companion.journal import (
    GameInfo,
    Journal,
    JournaledGame,
    JournalError,
    JournalFromTheFuture,
    default_path,
    schema_version,
)
from companion.journal.bgstats import ranks
from companion.journal.crashtest import expected_periods

# -- helpers (also used by test_journal_cli.py) ------------------------------------------------

T0 = datetime(2024, 5, 1, 18, 0, 0, tzinfo=UTC)


class FakeClock:
    """A clock that moves ``step`` forward at every reading (or wherever it is set)."""

    def __init__(self, start: datetime = T0, step: timedelta = timedelta(seconds=10)) -> None:
        self.now = start
        self.step = step

    def __call__(self) -> datetime:
        self.now += self.step
        return self.now


def random_actions(name: str, players: int, seed: int) -> list[str]:
    """The notation of a complete random game."""
    game = get_game(name)
    _, actions = random_game(game, game.setup(players), random.Random(seed))
    return [game.format_action(a) for a in actions]


def play_random(jg: JournaledGame, rng: random.Random, steps: int | None = None) -> None:
    """Play random legal actions (chance sampled) through the journal, to the end or ``steps``."""
    game = jg.game
    n = 0
    while not jg.is_over() and (steps is None or n < steps):
        state = jg.state
        if game.current_player(state) == CHANCE:
            jg.play(sample(game.chance_outcomes(state), rng))
        else:
            jg.play(rng.choice(game.legal_actions(state)))
        n += 1


def finished_game(
    journal: Journal, name: str = "pillars", players: int = 3, seed: int = 1
) -> JournaledGame:
    game = get_game(name)
    jg = journal.start(game.setup(players), seed=seed)
    for text in random_actions(name, players, seed):
        jg.play(text)
    assert jg.is_over()
    return jg


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path))


def entry_count(path: Path, game_id: int) -> int:
    conn = raw(path)
    try:
        return int(
            conn.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()[0]
        )
    finally:
        conn.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def jpath(tmp_path: Path) -> Path:
    return tmp_path / "data" / "journal.sqlite3"


@pytest.fixture
def journal(jpath: Path, clock: FakeClock) -> Any:
    j = Journal.open(jpath, clock=clock)
    yield j
    j.close()


# -- opening, paths, settings -----------------------------------------------------------------


def test_default_path_is_in_the_xdg_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "companion" / "journal.sqlite3"
    with Journal.open() as journal:
        assert journal.path == default_path()
        assert journal.notice is None
    assert default_path().is_file()


def test_open_creates_folders_wal_and_full_sync(jpath: Path) -> None:
    assert not jpath.parent.exists()
    with Journal.open(str(jpath)) as journal:
        assert jpath.is_file()
        assert journal.notice is None
        conn = journal._db()
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    conn = raw(jpath)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # stored in the file
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version()
    assert conn.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    conn.close()


def test_a_closed_journal_refuses_clearly(jpath: Path) -> None:
    journal = Journal.open(jpath)
    jg = journal.start(get_game("pillars").setup(2))
    journal.close()
    journal.close()  # twice is fine
    assert journal.closed
    with pytest.raises(JournalError, match="is closed"):
        journal.unfinished()
    with pytest.raises(JournalError, match="is closed"):
        jg.play(random_actions("pillars", 2, 0)[0])
    assert jg.entries == 0


def test_journal_ids_differ_and_last(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "a.sqlite3") as a, Journal.open(tmp_path / "b.sqlite3") as b:
        first = a.journal_id
        assert first != b.journal_id and len(first) == 32
    with Journal.open(tmp_path / "a.sqlite3") as a:
        assert a.journal_id == first


def test_checkpoint_folds_the_log_into_the_file(journal: Journal, jpath: Path) -> None:
    jg = finished_game(journal, "pillars", 2, 0)
    wal = jpath.with_name(jpath.name + "-wal")
    assert wal.stat().st_size > 0
    journal.checkpoint()
    assert wal.stat().st_size == 0
    copy = jpath.with_name("alone.sqlite3")
    shutil.copyfile(jpath, copy)  # the main file alone now holds everything
    with Journal.open(copy) as alone:
        assert alone.get(jg.id) == journal.get(jg.id)


# -- playing: committed before acknowledged ----------------------------------------------------


def test_every_play_is_committed_when_it_returns(journal: Journal, jpath: Path) -> None:
    game = get_game("pillars")
    jg = journal.start(game.setup(3), seed=5)
    assert entry_count(jpath, jg.id) == 0
    for i, text in enumerate(random_actions("pillars", 3, 5)[:40], 1):
        state = jg.play(text)
        # another connection (another process, after a power cut) already sees it
        assert entry_count(jpath, jg.id) == i
        assert state is jg.state
    assert jg.entries == 40


def test_a_refusal_writes_nothing(journal: Journal, jpath: Path) -> None:
    jg = journal.start(get_game("pillars").setup(2))
    before = jg.state
    with pytest.raises(MalformedAction):
        jg.play("fly away")
    with pytest.raises(IllegalAction):
        jg.play("roll 3")  # the first action is a privilege reveal, not a roll
    assert jg.state is before
    assert entry_count(jpath, jg.id) == 0
    assert journal.get(jg.id).actions == 0
    jg.play(random_actions("pillars", 2, 0)[0])  # and the game goes on normally
    assert entry_count(jpath, jg.id) == 1


def test_start_rejects_a_bad_setup_and_writes_nothing(journal: Journal) -> None:
    from companion.engine import PlayerSpec, Setup, SetupError

    bad = Setup("pillars", (PlayerSpec("Ann", "red"),))  # one player: not for Pillars
    with pytest.raises(SetupError):
        journal.start(bad)
    assert journal.games() == []


def test_play_through_the_playthrough_is_noticed(journal: Journal) -> None:
    jg = journal.start(get_game("pillars").setup(2))
    actions = random_actions("pillars", 2, 0)
    jg.playthrough.play(actions[0])  # behind the journal's back
    with pytest.raises(JournalError, match="outside the journal"):
        jg.play(actions[1])


def test_a_failed_write_is_not_acknowledged(journal: Journal, jpath: Path) -> None:
    """If the commit fails the action is not applied in memory either: what the screen
    shows is always what the journal holds."""
    jg = journal.start(get_game("pillars").setup(2))
    actions = random_actions("pillars", 2, 0)
    jg.play(actions[0])
    other = raw(jpath)
    other.execute("INSERT INTO entries (game_id, seq, kind, text, time) "
                  "VALUES (?, 2, 'action', 'x', 't')", (jg.id,))
    other.commit()
    other.close()  # a second writer took seq 2: the next insert must fail
    before = jg.state
    with pytest.raises(JournalError, match="could not record"):
        jg.play(actions[1])
    assert jg.state is before
    assert len(jg.playthrough.actions) == 1


# -- undo entries -----------------------------------------------------------------------------


def test_undo_is_an_entry_of_its_own(journal: Journal) -> None:
    game = get_game("pillars")
    actions = random_actions("pillars", 2, 0)
    jg = journal.start(game.setup(2), seed=0)
    # play up to the first two decisions in a row, so that two undos are possible
    k = 0
    pt: Playthrough[Any, Any] = Playthrough(game, game.setup(2))
    while True:
        pt.play(actions[k])
        k += 1
        if k >= 2 and pt.can_undo():
            pt.undo()
            if pt.can_undo():
                break
            pt.play(actions[k - 1])
    for text in actions[:k]:
        jg.play(text)
    undone = jg.undo()
    assert game.format_action(undone) == actions[k - 1]
    undone2 = jg.undo()
    assert game.format_action(undone2) == actions[k - 2]
    jg.play(actions[k - 2])
    entries = journal.entries(jg.id)
    assert [e.seq for e in entries] == list(range(1, k + 4))
    assert [(e.kind, e.text) for e in entries[-3:]] == [
        ("undo", actions[k - 1]),
        ("undo", actions[k - 2]),
        ("action", actions[k - 2]),
    ]
    assert all(e.time.tzinfo is not None for e in entries)
    record = journal.record(jg.id)
    assert list(record.actions) == actions[: k - 1]
    assert record.meta["journal"]["undos"] == 2
    assert record.meta["journal"]["entries"] == k + 3
    info = journal.get(jg.id)
    assert info.actions == k - 1
    assert replay(game, record) == jg.state
    resumed = journal.resume(jg.id)
    assert resumed.state == jg.state and resumed.entries == k + 3


def test_undo_blocked_writes_nothing(journal: Journal, jpath: Path) -> None:
    jg = journal.start(get_game("pillars").setup(2))
    with pytest.raises(UndoBlocked, match="nothing to undo"):
        jg.undo()
    jg.play(random_actions("pillars", 2, 0)[0])  # a reveal: an information barrier
    assert not jg.can_undo()
    with pytest.raises(UndoBlocked, match="re-roll"):
        jg.undo()
    assert entry_count(jpath, jg.id) == 1


def test_undo_of_the_last_action_reopens_a_finished_game(journal: Journal) -> None:
    jg = finished_game(journal, "pillars", 2, 0)  # seed 0 ends with a decision ("done")
    info = journal.get(jg.id)
    assert info.status == "finished" and info.ended is not None and info.winners
    assert jg.can_undo()
    jg.undo()
    info = journal.get(jg.id)
    assert info.status == "playing" and info.ended is None and info.winners == []
    assert [g.id for g in journal.unfinished()] == [jg.id]
    effective = list(journal.record(jg.id).actions)
    assert info.periods == expected_periods(jg.game, info.setup, effective)
    jg.play(random_actions("pillars", 2, 0)[-1])
    assert journal.get(jg.id).status == "finished"


# -- resume -----------------------------------------------------------------------------------


def test_resume_is_exactly_where_it_was(jpath: Path) -> None:
    rng = random.Random(3)
    with Journal.open(jpath) as journal:
        jg = journal.start(get_game("builders").setup(3), seed=3)
        for _ in range(120):
            if jg.can_undo() and rng.random() < 0.2:
                jg.undo()
            else:
                play_random(jg, rng, 1)
        state, can_undo, actions = jg.state, jg.can_undo(), jg.playthrough.actions
    with Journal.open(jpath) as journal:
        resumed = journal.resume()
        assert resumed.id == jg.id
        assert resumed.state == state
        assert resumed.can_undo() == can_undo
        assert resumed.playthrough.actions == actions
        assert resumed.playthrough.seed == 3
        play_random(resumed, rng)  # and it plays on to the end
        assert journal.get(jg.id).status == "finished"


def test_the_most_recent_unfinished_game_first(journal: Journal, clock: FakeClock) -> None:
    rng = random.Random(1)
    pillars, builders = get_game("pillars"), get_game("builders")
    a = journal.start(pillars.setup(2))
    b = journal.start(builders.setup(2))
    c = journal.start(pillars.setup(4))
    assert [g.id for g in journal.unfinished()] == [c.id, b.id, a.id]
    play_random(a, rng, 3)
    assert [g.id for g in journal.unfinished()] == [a.id, c.id, b.id]
    # the Pi has no clock battery: activity order must not depend on the wall clock
    clock.now -= timedelta(days=400)
    play_random(b, rng, 1)
    assert [g.id for g in journal.unfinished()] == [b.id, a.id, c.id]
    assert journal.resume().id == b.id
    assert journal.resume(c.id).id == c.id  # the others can be chosen


def test_resume_without_unfinished_games(journal: Journal) -> None:
    with pytest.raises(JournalError, match="no unfinished game"):
        journal.resume()
    finished_game(journal)
    with pytest.raises(JournalError, match="no unfinished game"):
        journal.resume()
    with pytest.raises(JournalError, match="no game 99"):
        journal.resume(99)
    with pytest.raises(JournalError, match="no game 99"):
        journal.get(99)


def test_a_broken_log_is_reported_not_guessed(journal: Journal, jpath: Path) -> None:
    jg = journal.start(get_game("pillars").setup(2))
    for text in random_actions("pillars", 2, 0)[:5]:
        jg.play(text)
    conn = raw(jpath)
    conn.execute("UPDATE entries SET text = 'roll 3' WHERE game_id = ? AND seq = 3", (jg.id,))
    conn.commit()
    with pytest.raises(JournalError, match=r"action 3 \('roll 3'\)"):
        journal.resume(jg.id)
    conn.execute("UPDATE entries SET kind = 'undo' WHERE game_id = ? AND seq = 3", (jg.id,))
    conn.commit()
    with pytest.raises(JournalError, match="entry 3 undoes"):
        journal.resume(jg.id)
    conn.execute("DELETE FROM entries WHERE game_id = ? AND seq = 2", (jg.id,))
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="entry 2 is missing"):
        journal.record(jg.id)


def test_unreadable_listing_data_is_a_journal_error(journal: Journal, jpath: Path) -> None:
    jg = finished_game(journal, "pillars", 2, 0)
    conn = raw(jpath)
    conn.execute("UPDATE periods SET scores = '{oops' WHERE game_id = ?", (jg.id,))
    conn.commit()
    with pytest.raises(JournalError, match="unreadable period scores"):
        journal.finished()
    conn.execute("DELETE FROM periods")
    conn.execute("UPDATE games SET started = 'yesterday' WHERE id = ?", (jg.id,))
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match=f"game {jg.id} has unreadable data"):
        journal.get(jg.id)


# -- history ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), [("pillars", 4), ("builders", 4), ("builders", 1)])
def test_a_finished_game_is_history(
    journal: Journal, clock: FakeClock, name: str, players: int
) -> None:
    start = clock.now
    jg = finished_game(journal, name, players, 7)
    game = jg.game
    info = journal.get(jg.id)
    assert isinstance(info, GameInfo)
    assert (info.id, info.game, info.status, info.seed) == (jg.id, name, "finished", 7)
    assert info.setup == game.setup(players)
    assert info.actions == len(jg.playthrough.actions)
    assert info.scores == game.scores(jg.state) and list(info.scores)[0] == "Red"
    assert info.winners == game.winners(jg.state) and info.winners
    assert info.started == start + clock.step  # the first reading
    assert info.ended == info.updated == clock.now  # the last reading
    assert info.started < info.ended
    periods = [p for p, _ in info.periods]
    assert periods == sorted(set(periods))
    if name == "pillars":
        assert periods == [1, 2, 3, 4, 5, 6]  # every round's scores, the last at the end
    else:
        assert periods[0] == 1 and periods[-1] == game.period_of(jg.state).number
    assert info.periods[-1][1] == info.scores
    assert info.periods == expected_periods(game, info.setup, list(journal.record(jg.id).actions))
    assert [g.id for g in journal.finished()] == [jg.id]
    assert journal.unfinished() == []
    assert journal.games() == [info]


def test_history_most_recent_first_and_abandon(journal: Journal) -> None:
    first = finished_game(journal, "pillars", 2, 0)
    playing = journal.start(get_game("builders").setup(2))
    second = finished_game(journal, "builders", 2, 0)
    gone = journal.start(get_game("pillars").setup(3))
    assert [g.id for g in journal.finished()] == [second.id, first.id]
    assert [g.id for g in journal.unfinished()] == [gone.id, playing.id]
    journal.abandon(gone.id)
    journal.abandon(gone.id)  # again: nothing more happens
    assert [g.id for g in journal.unfinished()] == [playing.id]
    assert journal.get(gone.id).status == "abandoned"
    assert gone.id in [g.id for g in journal.games()]  # kept
    with pytest.raises(JournalError, match="finished"):
        journal.abandon(first.id)
    back = journal.resume(gone.id)  # chosen again: unfinished again
    assert journal.get(back.id).status == "playing"
    assert journal.resume().id == gone.id


# -- records and BG Stats ---------------------------------------------------------------------


def test_record_is_the_engine_format(journal: Journal, tmp_path: Path) -> None:
    jg = finished_game(journal, "builders", 3, 2)
    record = journal.record(jg.id)
    path = tmp_path / "game.json"
    record.save(path)
    again = Record.load(path)
    assert again.setup == record.setup and again.actions == record.actions and again.seed == 2
    assert replay(jg.game, again) == jg.state
    meta = again.meta["journal"]
    assert meta["game_id"] == jg.id and meta["status"] == "finished"
    assert meta["journal_id"] == journal.journal_id


def test_bgstats_play(journal: Journal, clock: FakeClock) -> None:
    jg = finished_game(journal, "pillars", 4, 3)
    info = journal.get(jg.id)
    play = journal.bgstats(jg.id)
    assert play["sourceName"] == "companion"
    assert play["sourcePlayId"] == f"{journal.journal_id}-{jg.id}"
    assert play["playDate"] == info.started.strftime("%Y-%m-%d %H:%M:%S")
    assert info.ended is not None
    assert play["durationMin"] == round((info.ended - info.started).total_seconds() / 60)
    assert play["game"] == {
        "bggId": 24480,
        "name": "The Pillars of the Earth",
        "highestWins": True,
        "sourceGameId": "pillars",
    }
    players = play["players"]
    assert [p["name"] for p in players] == ["Red", "Blue", "Yellow", "Green"]
    assert [p["score"] for p in players] == list(info.scores.values())
    assert [p["name"] for p in players if p["winner"]] == info.winners
    assert [p["startPlayer"] for p in players] == [True, False, False, False]
    assert all(p["sourcePlayerId"] == p["name"] for p in players)
    assert all(p["rank"] == 1 for p in players if p["winner"])
    assert sorted(p["rank"] for p in players)[0] == 1
    link = journal.bgstats_link(jg.id)
    prefix = "bgstats://app.bgstatsapp.com/createPlay.html?data="
    assert link.startswith(prefix)
    data = link[len(prefix) :]
    assert all(c.isalnum() or c in "%-_.!~*'()" for c in data)  # fully percent-encoded
    assert json.loads(unquote(data)) == play
    web = journal.bgstats_link(jg.id, web=True)
    assert web == "https://app.bgstatsapp.com/createPlay.html?data=" + data


def test_bgstats_builders_solo_and_unfinished(journal: Journal) -> None:
    jg = finished_game(journal, "builders", 1, 4)
    play = journal.bgstats(jg.id)
    assert play["game"]["bggId"] == 144553
    assert play["game"]["name"] == "The Builders: Middle Ages"
    assert [p["name"] for p in play["players"]] == ["Red", "Automa"]
    playing = journal.start(get_game("builders").setup(2))
    with pytest.raises(JournalError, match="only a finished game"):
        journal.bgstats(playing.id)
    with pytest.raises(JournalError, match="only a finished game"):
        journal.bgstats_link(playing.id)


def test_bgstats_ranks_follow_the_winners_then_the_scores() -> None:
    # Ann and Bob tie on points, Ann wins the tie-break; Cat and Dan share third place
    scores = {"Ann": 40, "Bob": 40, "Cat": 30, "Dan": 30, "Eve": 10}
    assert ranks(scores, ["Ann"]) == {"Ann": 1, "Bob": 2, "Cat": 3, "Dan": 3, "Eve": 5}
    assert ranks(scores, ["Ann", "Bob"]) == {"Ann": 1, "Bob": 1, "Cat": 3, "Dan": 3, "Eve": 5}


# -- schema versions and migrations -----------------------------------------------------------

# The version-1 schema exactly as version 1 of the companion wrote it: later versions must
# keep opening (and migrating) this.
V1_SCHEMA = [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, setup TEXT "
    "NOT NULL, seed INTEGER, status TEXT NOT NULL CHECK (status IN ('playing', 'finished', "
    "'abandoned')), started TEXT NOT NULL, updated TEXT NOT NULL, ended TEXT, touched INTEGER "
    "NOT NULL, actions INTEGER NOT NULL, period INTEGER NOT NULL, scores TEXT NOT NULL, "
    "winners TEXT NOT NULL)",
    "CREATE INDEX games_by_touch ON games (touched)",
    "CREATE TABLE entries (game_id INTEGER NOT NULL REFERENCES games (id), seq INTEGER NOT NULL "
    "CHECK (seq >= 1), kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')), text TEXT NOT "
    "NULL, time TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID",
    "CREATE TABLE periods (game_id INTEGER NOT NULL REFERENCES games (id), period INTEGER NOT "
    "NULL, scores TEXT NOT NULL, PRIMARY KEY (game_id, period)) WITHOUT ROWID",
]


def make_v1_journal(path: Path) -> list[str]:
    """A version-1 journal written by hand: one unfinished Pillars game of 6 actions (one of
    them undone); the effective actions."""
    actions = random_actions("pillars", 2, 0)
    setup = get_game("pillars").setup(2).to_json()
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN")
    for statement in V1_SCHEMA:
        conn.execute(statement)
    conn.execute("INSERT INTO meta VALUES ('journal_id', 'v1journal'), ('created', 'x')")
    t = "2024-05-01T18:00:00.000+00:00"
    conn.execute(
        "INSERT INTO games VALUES (1, 'pillars', ?, 11, 'playing', ?, ?, NULL, 1, 5, 1, "
        "'{\"Red\":0,\"Blue\":0}', '[]')",
        (json.dumps(setup), t, t),
    )
    rows = [("action", a) for a in actions[:6]] + [("undo", actions[5])]
    for seq, (kind, text) in enumerate(rows, 1):
        conn.execute("INSERT INTO entries VALUES (1, ?, ?, ?, ?)", (seq, kind, text, t))
    conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("COMMIT")
    conn.close()
    return actions[:5]


def test_a_version_1_journal_opens(jpath: Path) -> None:
    jpath.parent.mkdir(parents=True)
    effective = make_v1_journal(jpath)
    with Journal.open(jpath) as journal:
        assert journal.notice is None
        assert journal.journal_id == "v1journal"
        assert list(journal.record(1).actions) == effective
        jg = journal.resume()
        assert jg.id == 1 and jg.entries == 7
        assert journal.get(1).seed == 11


def test_migrations_run_forward_in_one_transaction(
    jpath: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jpath.parent.mkdir(parents=True)
    effective = make_v1_journal(jpath)
    nxt = schema_version() + 1
    v2 = schema.Migration(
        nxt,
        "a test migration: notes on games",
        ("ALTER TABLE games ADD COLUMN note TEXT", "UPDATE games SET note = 'migrated'"),
    )
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, v2))
    assert schema_version() == nxt
    with Journal.open(jpath) as journal:
        assert list(journal.record(1).actions) == effective
    conn = raw(jpath)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == nxt
    assert conn.execute("SELECT note FROM games").fetchall() == [("migrated",)]
    conn.close()


def test_a_failed_migration_leaves_the_journal_as_it_was(
    jpath: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jpath.parent.mkdir(parents=True)
    make_v1_journal(jpath)
    nxt = schema_version() + 1
    broken = schema.Migration(
        nxt, "a broken migration", ("CREATE TABLE extra (x)", "ALTER TABLE nowhere ADD y")
    )
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, broken))
    with pytest.raises(JournalError, match=f"from schema version 1 to {nxt}.*left as it was"):
        Journal.open(jpath)
    conn = raw(jpath)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "extra" not in tables  # the first statement was rolled back too
    conn.close()
    assert list(jpath.parent.glob("*.damaged-*")) == []


def test_an_empty_file_becomes_a_journal(jpath: Path) -> None:
    jpath.parent.mkdir(parents=True)
    jpath.write_bytes(b"")
    with Journal.open(jpath) as journal:
        assert journal.notice is None
        journal.start(get_game("pillars").setup(2))
        assert len(journal.unfinished()) == 1


def test_a_journal_from_the_future_is_refused_untouched(jpath: Path) -> None:
    with Journal.open(jpath) as journal:
        finished_game(journal)
    conn = raw(jpath)
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    before = digest(jpath)
    files = sorted(p.name for p in jpath.parent.iterdir())
    with pytest.raises(JournalFromTheFuture) as info:
        Journal.open(jpath)
    assert info.value.found == 7 and info.value.supported == schema_version()
    message = str(info.value)
    assert "schema version 7" in message and "untouched" in message and str(jpath) in message
    assert isinstance(info.value, JournalError)
    assert digest(jpath) == before
    assert sorted(p.name for p in jpath.parent.iterdir()) == files


def test_the_future_hidden_in_the_write_ahead_log_is_refused(jpath: Path) -> None:
    """A newer companion's migration may still be in the -wal file (a power cut before the
    checkpoint): the main file's header says 1, the database says more."""
    with Journal.open(jpath):
        pass
    conn = sqlite3.connect(str(jpath), isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("BEGIN")
    conn.execute("CREATE TABLE from_the_future (x)")
    conn.execute("PRAGMA user_version = 9")
    conn.execute("COMMIT")
    copy = jpath.with_name("copy.sqlite3")
    shutil.copyfile(jpath, copy)  # as a power cut leaves them: both files, not checkpointed
    shutil.copyfile(jpath.with_name(jpath.name + "-wal"), copy.with_name(copy.name + "-wal"))
    conn.close()
    assert schema.read_header(copy) == schema.Header(
        True, schema.APPLICATION_ID, schema_version()
    )
    wal = copy.with_name(copy.name + "-wal")
    before = digest(copy), digest(wal)
    with pytest.raises(JournalFromTheFuture, match="schema version 9"):
        Journal.open(copy)
    assert (digest(copy), digest(wal)) == before  # not even checkpointed
    check = raw(copy)
    assert check.execute("PRAGMA user_version").fetchone()[0] == 9
    check.close()
    assert list(jpath.parent.glob("*.damaged-*")) == []


# -- damaged and foreign files ----------------------------------------------------------------


def assert_moved_aside(journal: Journal, path: Path, original: bytes, clock_now: str) -> Path:
    assert journal.notice is not None
    (moved,) = path.parent.glob(path.name + ".damaged-*[!lm]")  # not the -wal/-shm
    assert moved.name == f"{path.name}.damaged-{clock_now}"
    assert moved.read_bytes() == original
    assert str(path) in journal.notice and moved.name in journal.notice
    assert "new, empty journal" in journal.notice
    assert journal.games() == []
    journal.start(get_game("pillars").setup(2))  # the fresh journal works
    return moved


def test_a_text_file_is_moved_aside(jpath: Path) -> None:
    jpath.parent.mkdir(parents=True)
    original = b"Ann 52, Bob 47\n" * 20
    jpath.write_bytes(original)
    clock = FakeClock(datetime(2024, 5, 1, 18, 0, 0, tzinfo=UTC), timedelta(0))
    with Journal.open(jpath, clock=clock) as journal:
        assert_moved_aside(journal, jpath, original, "20240501T180000Z")
        assert "not an SQLite database" in (journal.notice or "")


def test_another_programs_database_is_moved_aside(jpath: Path) -> None:
    jpath.parent.mkdir(parents=True)
    conn = raw(jpath)
    conn.execute("CREATE TABLE notes (text)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    original = jpath.read_bytes()
    clock = FakeClock(datetime(2024, 5, 1, 18, 0, 0, tzinfo=UTC), timedelta(0))
    with Journal.open(jpath, clock=clock) as journal:
        moved = assert_moved_aside(journal, jpath, original, "20240501T180000Z")
        assert "another program's SQLite database (tables: notes)" in (journal.notice or "")
    conn = raw(moved)
    assert conn.execute("SELECT text FROM notes").fetchall() == [("keep me",)]
    conn.close()


def test_another_programs_application_id_is_moved_aside(jpath: Path) -> None:
    jpath.parent.mkdir(parents=True)
    conn = raw(jpath)
    conn.execute("PRAGMA application_id = 1234")
    conn.execute("PRAGMA user_version = 99")  # not ours: not "from the future" either
    conn.commit()
    conn.close()
    with Journal.open(jpath) as journal:
        assert "application id 1234" in (journal.notice or "")
        assert journal.games() == []


def test_a_damaged_journal_is_moved_aside_with_its_log(jpath: Path) -> None:
    with Journal.open(jpath) as journal:
        for seed in range(3):
            finished_game(journal, "builders", 4, seed)
    data = bytearray(jpath.read_bytes())
    assert len(data) > 8 * 4096
    data[3 * 4096 : 6 * 4096] = b"\xa5" * (3 * 4096)  # three pages of garbage
    jpath.write_bytes(bytes(data))
    jpath.with_name(jpath.name + "-wal").write_bytes(b"")  # a leftover log must go with it
    clock = FakeClock(datetime(2024, 5, 2, 9, 30, 0, tzinfo=UTC), timedelta(0))
    with Journal.open(jpath, clock=clock) as journal:
        moved = assert_moved_aside(journal, jpath, bytes(data), "20240502T093000Z")
        assert "damage" in (journal.notice or "") or "malformed" in (journal.notice or "")
    assert moved.with_name(moved.name + "-wal").exists()


def test_two_damaged_files_in_the_same_second_keep_both(jpath: Path) -> None:
    jpath.parent.mkdir(parents=True)
    clock = FakeClock(datetime(2024, 5, 1, 18, 0, 0, tzinfo=UTC), timedelta(0))
    for text in (b"first" * 30, b"second" * 30):
        jpath.write_bytes(text)
        Journal.open(jpath, clock=clock).close()
    moved = sorted(p.name for p in jpath.parent.glob("*.damaged-*"))
    assert moved == [
        "journal.sqlite3.damaged-20240501T180000Z",
        "journal.sqlite3.damaged-20240501T180000Z-2",
    ]


def test_a_folder_at_the_journal_path(jpath: Path) -> None:
    jpath.mkdir(parents=True)
    with pytest.raises(JournalError, match="is a folder"):
        Journal.open(jpath)
    assert jpath.is_dir()


def test_busy_is_not_damage(tmp_path: Path) -> None:
    """Only SQLite's 'corrupt' and 'not a database' move a file aside; a lock never does."""
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"x" * 4096)
    with pytest.raises(sqlite3.DatabaseError) as corrupt:
        raw(garbage).execute("SELECT * FROM sqlite_master").fetchall()
    assert schema.is_damage(corrupt.value)
    db = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(str(db), isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    other = sqlite3.connect(str(db), timeout=0)
    with pytest.raises(sqlite3.OperationalError) as busy:
        other.execute("SELECT * FROM t").fetchall()
    assert not schema.is_damage(busy.value)
    holder.execute("ROLLBACK")
    holder.close()
    other.close()


def test_the_latest_games_can_be_read_alone(journal: Journal) -> None:
    """``games(limit=N)``: the N most recently active games, as ``games()`` orders them (the
    set-up screen reads the last tables without reading the whole history)."""
    for n in (2, 3, 4, 2, 3):
        journal.start(get_game("pillars").setup(n))
    every = journal.games()
    assert len(every) == 5
    assert journal.games(limit=2) == every[:2]
    assert journal.games(limit=10) == every
