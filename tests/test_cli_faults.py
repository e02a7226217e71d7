"""The command line's leftovers from the fault audit (issue 24, item 7): each answers within a
second or two with a one-line message and an ordinary failure status (never 70, "unexpected
error"), nothing hangs on a FIFO or a device, and what a crafted journal holds reaches the
terminal without its control characters."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal

from .sweeps import sampled
from .test_journal import finished_game

Capsys = pytest.CaptureFixture[str]
ROOT = Path(__file__).resolve().parents[1]


def refused(capsys: Capsys, *argv: str) -> str:
    t0 = time.monotonic()
    code = main(list(argv))
    took = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code in (1, 2), (code, out, err)
    assert "unexpected error" not in err and "Traceback" not in err, err
    assert err.startswith(f"companion {argv[0]}: "), err
    assert took < 2.0, f"{argv} took {took:.1f} s"
    return err


def test_scan_of_an_image_past_opencvs_pixel_limit(capsys: Capsys, tmp_path: Path) -> None:
    pgm = tmp_path / "big.pgm"
    pgm.write_bytes(b"P5\n100000 100000\n255\n\x00\x00\x00")
    err = refused(capsys, "scan", str(pgm))
    assert "big.pgm" in err and "too large" in err


def test_markers_with_an_empty_out(capsys: Capsys) -> None:
    err = refused(capsys, "markers", "--out", "")
    assert "--out" in err


@pytest.mark.parametrize("target", ["/dev/full", "file", "/proc/self/x"])
def test_screenshots_where_no_folder_can_be(capsys: Capsys, tmp_path: Path, target: str) -> None:
    if target == "file":
        (tmp_path / "file").write_text("x")
        target = str(tmp_path / "file")
    from companion.kiosk import ui

    err = refused(capsys, "screenshots", target, "--only", "home", "--size", "800x480",
                  "--language", "en")
    assert target in err
    assert not ui.CHECK_GLYPHS  # (the run's check of every glyph ends with it)


def test_games_cleans_what_a_crafted_journal_holds(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        finished_game(journal, "pillars", seed=1)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET game = 'pillars\x1b[2J\x1b]0;pwned\x07\r'")
    conn.commit()
    conn.close()
    main(["games", "--journal", str(path)])
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err and "\r" not in out + err
    assert "pillars" in out + err


def test_an_escape_in_a_journal_path_is_not_printed_raw(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "j\x1b[31m.sqlite3"
    path.write_text("not a journal")
    err = refused(capsys, "games", "--journal", str(path))
    assert "\x1b" not in err


def run_bounded(*argv: str, seconds: float = 20.0) -> subprocess.CompletedProcess[str]:
    """``companion ARGV`` in a process of its own, killed if it hangs."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "companion", *argv], cwd=ROOT, capture_output=True,
            text=True, timeout=seconds, stdin=subprocess.DEVNULL,
            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"companion {' '.join(argv)} hangs")


COMMANDS = [
    ("games", "--journal", "{fifo}"),
    ("export", "1", "--journal", "{fifo}"),
    ("replay", "1", "--journal", "{fifo}"),
    ("replay", "{fifo}"),
    ("scan", "{fifo}"),
    ("export", "1", "--journal", "{journal}", "--out", "{fifo}"),
    ("doctor", "--config", "{fifo}"),
    ("doctor", "--config", "/dev/zero"),
]
"""Each a process of its own (0.5 s of CPU): by default a FIFO as the journal, as a record and
as the output, and a device; every command under ``-m full``."""


@pytest.mark.parametrize("argv", sampled([(argv,) for argv in COMMANDS], keep=[0, 3, 5, 7]))
def test_a_fifo_or_a_device_never_hangs_a_command(tmp_path: Path, argv: tuple[str, ...]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    journal = tmp_path / "journal.sqlite3"
    if "{journal}" in argv:
        with Journal.open(journal) as j:
            finished_game(j, "pillars", seed=1)
    args = [a.format(fifo=fifo, journal=journal) for a in argv]
    proc = run_bounded(*args)
    assert proc.returncode in (1, 2), (proc.returncode, proc.stdout, proc.stderr)
    assert "unexpected error" not in proc.stderr and "Traceback" not in proc.stderr
    if argv[0] == "doctor":
        assert "not a regular file" in proc.stdout
    else:
        assert "not a" in proc.stderr, proc.stderr
    assert fifo.exists() and not fifo.is_file()  # left as it was
