"""The journal's commands: ``companion games``, ``companion export``, ``companion replay ID``."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from urllib.parse import unquote

import pytest

from companion.cli import main
from companion.engine import Record, get_game, replay
from companion.journal import Journal

from .test_journal import finished_game

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: Capsys, code_wanted: int, *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert code == code_wanted, (code, out, err)
    assert out == ""
    assert "Traceback" not in err
    assert err.startswith(f"companion {argv[0]}: "), err
    return err


@pytest.fixture(scope="module")
def made_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal with a finished Pillars game (1), a finished Builders game (2), an unfinished
    Pillars game (3) and an abandoned one (4), played once for the module."""
    path = tmp_path_factory.mktemp("journal") / "journal.sqlite3"
    with Journal.open(path) as journal:
        finished_game(journal, "pillars", 3, 1)
        finished_game(journal, "builders", 2, 2)
        journal.start(get_game("pillars").setup(["Ann", "Bob"]))
        gone = journal.start(get_game("builders").setup(3))
        journal.abandon(gone.id)
        journal.checkpoint()  # everything in the main file: a copy is the whole journal
    return path


@pytest.fixture
def jpath(made_journal: Path, tmp_path: Path) -> Path:
    """A test's own copy of that journal (tests may change or damage it)."""
    path = tmp_path / "journal.sqlite3"
    shutil.copyfile(made_journal, path)
    return path


# -- games --------------------------------------------------------------------------------------


def test_games_lists_unfinished_then_history(capsys: Capsys, jpath: Path) -> None:
    code, out, err = run(capsys, "games", "--journal", str(jpath))
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["3", "pillars", "playing"],
        ["2", "builders", "finished"],
        ["1", "pillars", "finished"],
        ["4", "builders", "abandoned"],
    ]
    with Journal.open(jpath) as journal:
        for line, game_id in zip(lines, (3, 2, 1, 4), strict=True):
            info = journal.get(game_id)
            for name, pts in info.scores.items():
                star = "*" if name in info.winners else ""
                assert f"{name} {pts}{star}" in line
            assert f"{info.actions} actions" in line
            assert info.started.astimezone().strftime("%Y-%m-%d %H:%M") in line
    assert "  Ann 2, Bob 2  " in lines[0]  # the players by name, each with 2 VP to start
    assert " to " in lines[1] and "last played" in lines[0]


def test_games_json(capsys: Capsys, jpath: Path) -> None:
    code, out, err = run(capsys, "games", "--journal", str(jpath), "--json")
    assert code == 0, err
    games = json.loads(out)
    assert [(g["id"], g["status"]) for g in games] == [
        (3, "playing"),
        (2, "finished"),
        (1, "finished"),
        (4, "abandoned"),
    ]
    one = games[2]
    assert one["game"] == "pillars"
    assert [p["name"] for p in one["players"]] == ["Red", "Blue", "Yellow"]
    assert [p["score"] for p in one["players"]] == list(one["scores"].values())
    assert [p["name"] for p in one["players"] if p["winner"]] == one["winners"]
    assert [p for p, _ in one["periods"]] == [1, 2, 3, 4, 5, 6]
    assert one["ended"] is not None and games[0]["ended"] is None
    assert one["actions"] > 100


def test_games_without_a_journal(capsys: Capsys, tmp_path: Path) -> None:
    where = tmp_path / "none.sqlite3"
    code, out, err = run(capsys, "games", "--journal", str(where))
    assert (code, err) == (0, "")
    assert out == f"no games yet (there is no journal at {where})\n"
    code, out, err = run(capsys, "games", "--journal", str(where), "--json")
    assert (code, out, err) == (0, "[]\n", "")
    assert not where.exists()  # listing creates nothing


def test_games_uses_the_default_journal(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with Journal.open() as journal:
        finished_game(journal, "pillars", 2, 0)
    code, out, err = run(capsys, "games")
    assert code == 0, err
    assert out.startswith("   1  pillars   finished")


def test_games_on_a_journal_from_the_future(capsys: Capsys, jpath: Path) -> None:
    conn = sqlite3.connect(str(jpath))
    conn.execute("PRAGMA user_version = 5")
    conn.commit()
    conn.close()
    err = refused(capsys, 1, "games", "--journal", str(jpath))
    assert "schema version 5" in err and "untouched" in err


@pytest.mark.parametrize("command", [["games"], ["export", "1"], ["replay", "1"]])
def test_commands_that_read_refuse_a_file_that_is_not_a_journal(
    capsys: Capsys, tmp_path: Path, command: list[str]
) -> None:
    """Only the kiosk, after showing it, moves a damaged journal aside: a command that reads
    never renames or creates a file."""
    path = tmp_path / "journal.sqlite3"
    path.write_text("not a journal at all" * 10, encoding="utf-8")
    err = refused(capsys, 1, *command, "--journal", str(path))
    assert "not a companion journal" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3"]
    assert path.read_text(encoding="utf-8") == "not a journal at all" * 10
    other = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    err = refused(capsys, 1, *command, "--journal", str(other))
    assert "another program's SQLite database" in err
    err = refused(capsys, 1, *command, "--journal", str(tmp_path))
    assert "not a companion journal" in err or "folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3", "other.sqlite3"]


@pytest.mark.parametrize("command", [["games"], ["export", "2"], ["replay", "2"]])
def test_commands_that_read_create_no_file_beside_a_journal(
    capsys: Capsys, jpath: Path, command: list[str]
) -> None:
    before = sorted(p.name for p in jpath.parent.iterdir())
    code, out, err = run(capsys, *command, "--journal", str(jpath))
    assert code == 0, err
    assert sorted(p.name for p in jpath.parent.iterdir()) == before


# -- export -------------------------------------------------------------------------------------


def test_export_json_is_the_record(capsys: Capsys, jpath: Path, tmp_path: Path) -> None:
    code, out, err = run(capsys, "export", "2", "--journal", str(jpath))
    assert code == 0, err
    record = Record.loads(out)
    with Journal.open(jpath) as journal:
        assert record.actions == journal.record(2).actions
        assert record.meta["journal"]["game_id"] == 2
        assert replay(get_game("builders"), record) == journal.resume(2).state
    target = tmp_path / "out" / "game2.json"
    target.parent.mkdir()
    code, out, err = run(
        capsys,
        "export",
        "journal:2",
        "--format",
        "json",
        "--journal",
        str(jpath),
        "--out",
        str(target),
    )
    assert code == 0 and out == ""
    assert str(target) in err
    assert Record.load(target).actions == record.actions


def test_export_bgstats(capsys: Capsys, jpath: Path) -> None:
    code, out, err = run(capsys, "export", "1", "--format", "bgstats", "--journal", str(jpath))
    assert code == 0, err
    body, link = out.rstrip("\n").rsplit("\n", 1)
    play = json.loads(body)
    assert play["game"]["bggId"] == 24480 and play["sourceName"] == "companion"
    assert link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    assert json.loads(unquote(link.split("data=", 1)[1])) == play
    with Journal.open(jpath) as journal:
        assert play == journal.bgstats(1)


def test_export_refusals(capsys: Capsys, jpath: Path, tmp_path: Path) -> None:
    err = refused(capsys, 1, "export", "3", "--format", "bgstats", "--journal", str(jpath))
    assert "game 3 is playing" in err
    err = refused(capsys, 1, "export", "99", "--journal", str(jpath))
    assert "no game 99" in err
    err = refused(capsys, 2, "export", "three", "--journal", str(jpath))
    assert "'three' is not a game id" in err
    err = refused(capsys, 1, "export", "1", "--journal", str(tmp_path / "nowhere.sqlite3"))
    assert "there is no journal at" in err
    err = refused(
        capsys, 1, "export", "1", "--journal", str(jpath), "--out", str(tmp_path / "no" / "x")
    )
    assert "cannot write" in err


# -- replay ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["1", "journal:1"])
def test_replay_a_journal_game(capsys: Capsys, jpath: Path, tmp_path: Path, target: str) -> None:
    code, out, err = run(capsys, "replay", target, "--journal", str(jpath), "--json")
    assert code == 0, err
    summary = json.loads(out)
    with Journal.open(jpath) as journal:
        info = journal.get(1)
        journal.record(1).save(tmp_path / "one.json")
    assert summary["over"] is True
    assert summary["scores"] == info.scores and summary["winners"] == info.winners
    assert summary["actions"] == info.actions
    vp = [e["amount"] for e in summary["ledger"] if e["what"] == "vp"]
    assert sum(vp) == sum(info.scores.values())  # the ledger explains every point
    code, out_file, err = run(capsys, "replay", str(tmp_path / "one.json"), "--json")
    assert code == 0 and json.loads(out_file) == summary
    code, text, err = run(capsys, "replay", target, "--journal", str(jpath))
    assert code == 0 and text.splitlines()[0] == "Game over"


def test_replay_an_unfinished_journal_game(capsys: Capsys, jpath: Path) -> None:
    code, out, err = run(capsys, "replay", "3", "--journal", str(jpath), "--json")
    assert code == 0, err
    assert json.loads(out)["over"] is False


def test_replay_journal_refusals(capsys: Capsys, jpath: Path, tmp_path: Path) -> None:
    err = refused(capsys, 1, "replay", "42", "--journal", str(jpath))
    assert err.startswith("companion replay: journal:42: ") and "no game 42" in err
    err = refused(capsys, 2, "replay", "journal:x", "--journal", str(jpath))
    assert "not a game id" in err
    err = refused(capsys, 1, "replay", "1", "--journal", str(tmp_path / "nowhere.sqlite3"))
    assert "there is no journal at" in err
    conn = sqlite3.connect(str(jpath))
    conn.execute("UPDATE entries SET text = 'fly away' WHERE game_id = 1 AND seq = 5")
    conn.commit()
    conn.close()
    err = refused(capsys, 1, "replay", "1", "--journal", str(jpath))
    assert "action 5 ('fly away')" in err


def test_replay_of_a_file_named_like_a_number(
    capsys: Capsys, jpath: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Digits are a journal id; ./12 is the file called 12 (documented)."""
    with Journal.open(jpath) as journal:
        journal.record(2).save(tmp_path / "12")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "replay", "./12", "--json")
    assert code == 0, err
    assert json.loads(out)["over"] is True
    err = refused(capsys, 1, "replay", "12", "--journal", str(jpath))
    assert "no game 12" in err
