"""One journal for every command (issue 51, item 3): ``games``, ``replay ID`` and ``export`` read
the journal the settings name (``--config FILE``, before or after the command, or the user's
config file), exactly the file the kiosk opens, and say which; settings the kiosk would refuse
(a FIFO, a device, a folder, not TOML, a bad value) are refused with the file and what is wrong,
status 2 (1 for the user's own config file), and nothing is created or changed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.journal import Journal

from .test_journal import finished_game

Capsys = pytest.CaptureFixture[str]
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def stick_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal holding a finished game of three players, made once for the module."""
    path = tmp_path_factory.mktemp("stick") / "journal.sqlite3"
    with Journal.open(path) as journal:
        journal._db().execute("PRAGMA synchronous = OFF")  # (a test's journal: no flushes)
        finished_game(journal, "pillars", 3, 1)
        journal.checkpoint()  # all of it in the one file, to copy
    return path


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stick_journal: Path) -> Path:
    """A home of its own (config and data folders), a copy of that journal on a "USB stick"
    (``stick/journal.sqlite3``), and no journal in the default place."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "data"))
    (tmp_path / "stick").mkdir()
    shutil.copyfile(stick_journal, tmp_path / "stick" / "journal.sqlite3")
    return tmp_path


def settings(path: Path, journal: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[kiosk]\nlanguage = "en"\njournal = "{journal}"\n', encoding="utf-8")
    return path


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def nothing_made(tmp_path: Path) -> None:
    assert not (tmp_path / "home" / "data").exists()  # no default journal, no folder for it


READERS = (["games"], ["games", "--json"], ["export", "1"], ["replay", "1"],
           ["replay", "1", "--json"])


@pytest.mark.parametrize(("command", "where"), [
    *((command, "before") for command in READERS), (["games"], "after"), (["export", "1"], "after"),
])
def test_config_names_the_journal_every_command_reads(
    capsys: Capsys, table: Path, command: list[str], where: str
) -> None:
    stick = table / "stick" / "journal.sqlite3"
    cfg = settings(table / "usb.toml", str(stick))
    argv = (["--config", str(cfg), *command] if where == "before"
            else [*command, "--config", str(cfg)])
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "no games yet" not in out and "Red" in out  # the stick's game
    assert err == f"companion {command[0]}: the journal {stick} (named by the settings {cfg})\n"
    nothing_made(table)


def test_the_users_config_is_read_when_none_is_given(capsys: Capsys, table: Path) -> None:
    stick = table / "stick" / "journal.sqlite3"
    user = settings(table / "home" / "config" / "companion" / "config.toml", str(stick))
    code, out, err = run(capsys, "games")
    assert code == 0 and out.startswith("   1  pillars   finished"), (out, err)
    assert f"the journal {stick} (named by the settings {user})" in err
    user.write_text('[kiosk]\nsound = false\n', encoding="utf-8")  # names no journal
    code, out, err = run(capsys, "games")
    default = table / "home" / "data" / "companion" / "journal.sqlite3"
    assert (code, out) == (0, f"no games yet (there is no journal at {default})\n")
    assert f"the journal {default} (the default: the settings {user} name none)" in err
    user.unlink()
    code, out, err = run(capsys, "games")
    assert f"(the default: there is no settings file {user})" in err
    nothing_made(table)


def test_journal_overrides_the_settings_and_is_not_announced(capsys: Capsys, table: Path) -> None:
    cfg = settings(table / "usb.toml", str(table / "elsewhere.sqlite3"))
    stick = table / "stick" / "journal.sqlite3"
    code, out, err = run(capsys, "--config", str(cfg), "games", "--journal", str(stick))
    assert (code, err) == (0, "")
    assert out.startswith("   1  pillars")


def test_a_journal_under_the_home_folder(capsys: Capsys, table: Path) -> None:
    """``journal = "~/..."`` is the same file for the kiosk and the commands."""
    from companion.kiosk.config import load
    from companion.main import open_journal

    home_journal = table / "home" / "games" / "journal.sqlite3"
    home_journal.parent.mkdir(parents=True)
    (table / "stick" / "journal.sqlite3").rename(home_journal)
    cfg = settings(table / "usb.toml", "~/games/journal.sqlite3")
    code, out, err = run(capsys, "--config", str(cfg), "games")
    assert code == 0 and out.startswith("   1  pillars"), (out, err)
    assert f"the journal {home_journal} " in err
    with open_journal(load(cfg)) as kiosk_journal:  # the kiosk opens that very file
        assert kiosk_journal.path == home_journal


BAD_SETTINGS = {
    "garbage": (b"garbage ][ = \x01", "not valid TOML"),
    "bad value": (b"[kiosk]\njournal = 5\n", "kiosk.journal must be str"),
    "unknown key": (b"[kiosk]\njournl = 'x'\n", "unknown setting kiosk.journl"),
    "not UTF-8": (b"[kiosk]\njournal = '\xff'\n", "not UTF-8"),
    "folder": (None, "not a regular file (a folder)"),
    "device": (None, "not a regular file (a device)"),
}


@pytest.mark.parametrize("kind", BAD_SETTINGS)
def test_settings_the_kiosk_refuses_are_refused(capsys: Capsys, table: Path, kind: str) -> None:
    data, what = BAD_SETTINGS[kind]
    cfg = {"folder": table / "stick", "device": Path("/dev/zero")}.get(kind, table / "bad.toml")
    if data is not None:
        cfg.write_bytes(data)
    for command in [*READERS, ["simulate", "pillars"]]:
        for argv in (["--config", str(cfg), *command], [*command, "--config", str(cfg)]):
            if argv[0] == "simulate" and argv[-1] == str(cfg):
                continue  # (simulate takes --config before the command only)
            code, out, err = run(capsys, *argv)
            assert (code, out) == (2, ""), (argv, err)
            assert err.startswith(f"companion {command[0]}: the settings cannot be read: "
                                  f"{cfg}: "), err
            assert what in err and err.count("\n") == 1
    nothing_made(table)


def test_the_users_unreadable_config_is_status_1_and_journal_gets_past_it(
    capsys: Capsys, table: Path
) -> None:
    user = table / "home" / "config" / "companion" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[kiosk\n", encoding="utf-8")
    for command in READERS:
        code, out, err = run(capsys, *command)
        assert (code, out) == (1, ""), (command, err)
        assert f"the settings cannot be read: {user}: not valid TOML" in err
    stick = table / "stick" / "journal.sqlite3"
    code, out, err = run(capsys, "games", "--journal", str(stick))
    assert code == 0 and out.startswith("   1  pillars")


@pytest.mark.parametrize("command", [["games", "--json"], ["replay", "1"]])
def test_a_fifo_as_the_config_is_refused_at_once(tmp_path: Path, command: list[str]) -> None:
    """In a process of its own: a FIFO read would hang it (the kiosk refuses it unread)."""
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "companion", "--config", str(fifo), *command], cwd=ROOT,
            capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL, env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"companion --config FIFO {' '.join(command)} hangs")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (f"companion {command[0]}: the settings cannot be read: {fifo}: "
                           "not a regular file (a FIFO)\n")
    assert fifo.exists() and not fifo.is_file()
    assert not (tmp_path / "data").exists()


def test_config_before_a_command_is_kept_after_it() -> None:
    """``companion --config FILE kiosk`` (or doctor, session) used FILE's default: none."""
    parser = build_parser()
    for command in (["kiosk"], ["doctor"], ["session"], ["games"], ["export", "1"]):
        assert parser.parse_args(["--config", "c.toml", *command]).config == "c.toml"
        assert parser.parse_args([*command, "--config", "d.toml"]).config == "d.toml"
    assert parser.parse_args(["--windowed", "kiosk"]).fullscreen is False
    assert parser.parse_args(["kiosk"]).fullscreen is None
