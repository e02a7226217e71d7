"""The command line shows no traceback for any input: huge integers as ids, deeply nested or
huge JSON, images too large to decode, names that would repaint a terminal; and ``games``
lists a page by default."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest

from companion.cli import MAX_RECORD_BYTES, main
from companion.journal import Journal
from companion.text import clean, terminal

from .test_journal import finished_game

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.fixture
def jpath(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        finished_game(journal, "pillars", 3, 1)
    return path


@pytest.mark.parametrize("command", ["replay", "export"])
@pytest.mark.parametrize(
    "game_id", ["9" * 5000, "journal:" + "9" * 30, "99999999999999999999", "0"]
)
def test_huge_ids_are_no_such_game(capsys: Capsys, jpath: Path, command: str, game_id: str) -> None:
    code, out, err = run(capsys, command, game_id, "--journal", str(jpath))
    assert code == 1 and out == ""
    assert "there is no game" in err and len(err) < 300


def test_deeply_nested_json_is_refused(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1 and "nested too deeply" in err


def test_a_number_of_thousands_of_digits_is_refused(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"format": "companion-record", "seed": ' + "9" * 5000 + "}", "utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1 and "not valid JSON" in err


def test_a_huge_record_file_is_refused_before_reading(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)  # sparse: no disk used
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1 and "a record is at most" in err


@pytest.mark.parametrize("where", ["/", "/dev/null", "missing.json"])
def test_a_path_that_is_no_record_file(capsys: Capsys, tmp_path: Path, where: str) -> None:
    target = where if where.startswith("/") else str(tmp_path / where)
    code, out, err = run(capsys, "replay", target)
    assert code == 1 and err.startswith("companion replay: ")


def test_options_with_huge_numbers_are_usage_errors(capsys: Capsys, jpath: Path) -> None:
    for argv in (
        ["games", "--limit", "9" * 5000, "--journal", str(jpath)],
        ["games", "--page", "-1", "--journal", str(jpath)],
        ["simulate", "pillars", "--players", "9" * 5000],
        ["screenshots", "out", "--size", "9" * 5000 + "x1"],
    ):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        assert "Traceback" not in capsys.readouterr().err


def png_header(width: int, height: int) -> bytes:
    """The first bytes of a grey PNG of that size (the picture itself need not follow: the
    size must be refused before anything decodes it)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


def test_scan_refuses_an_image_too_large_before_decoding(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cv2  # the vision extra is part of the dev install
    path = tmp_path / "huge.png"
    path.write_bytes(png_header(16000, 16000) + b"\0" * 64)
    decoded: list[object] = []
    for decoder in ("imread", "imdecode"):
        real = getattr(cv2, decoder)
        monkeypatch.setattr(
            cv2, decoder, lambda what, *a, _real=real: decoded.append(what) or _real(what, *a)
        )
    code, out, err = run(capsys, "scan", str(path))
    assert code == 1
    assert "16000×16000" in err and "256 MP" in err
    assert decoded == []


def test_image_sizes_from_headers(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    from companion.imagesize import image_size

    picture = np.zeros((30, 50), np.uint8)
    for ext in ("png", "jpg", "bmp", "webp"):
        path = tmp_path / f"a.{ext}"
        cv2.imwrite(str(path), picture)
        assert image_size(path) == (50, 30), ext


# -- names on a terminal -------------------------------------------------------------------


def test_clean_and_terminal() -> None:
    assert clean("Al\x00ice") == "Alice"
    assert clean("\x1b[2J\x1b[31mRed") == "[2J[31mRed"
    assert clean("\u202eevil\u202c  name\n") == "evil name"
    assert clean("x" * 5000) == "x" * 39 + "…"
    assert clean("\ud800") == "\ufffd"
    assert clean("\x00\x01") == "?"
    assert terminal("a\x1b[2Jb\nc\u2066d\ud800") == "a[2Jb\ncd\ufffd"


def test_games_shows_nasty_names_safely(capsys: Capsys, tmp_path: Path) -> None:
    import random
    from dataclasses import replace

    from companion.engine import get_game
    from companion.engine.simulate import random_game

    nasty = ("Al\x00ice", "\x1b[2J\x1b[31mRed", "\u202eevil", "x" * 5000)
    game = get_game("pillars")
    setup = game.setup(4)
    setup = replace(
        setup, players=tuple(replace(p, name=n) for p, n in zip(setup.players, nasty, strict=True))
    )
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        session = journal.start(setup, seed=1)
        _state, actions = random_game(game, setup, random.Random(1))
        for a in actions[:30]:
            session.play(a)
    code, out, err = run(capsys, "games", "--journal", str(path))
    assert code == 0, err
    assert "\x1b" not in out and "\x00" not in out and "\u202e" not in out
    assert max(len(line) for line in out.splitlines()) < 400
    code, out, err = run(capsys, "games", "--journal", str(path), "--json")
    assert json.loads(out)[0]["players"][3]["name"] == "x" * 5000  # JSON keeps the data


# -- games: a page by default ----------------------------------------------------------------


def many_games(path: Path, n: int) -> None:
    """``n`` finished games, written directly (a played game takes a second)."""
    with Journal.open(path) as journal:
        gid = finished_game(journal, "pillars", 2, 1).id
        conn = journal._db()
        conn.execute("BEGIN")
        conn.execute(
            "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?) "
            "INSERT INTO games (game, setup, seed, status, started, updated, ended, touched, "
            "actions, period, scores, winners) SELECT game, setup, seed, status, started, "
            "updated, ended, touched + i, actions, period, scores, winners FROM games, k "
            "WHERE id = ?",
            (n - 1, gid),
        )
        conn.execute("COMMIT")


def test_games_lists_a_page_by_default(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    many_games(path, 120)
    code, out, err = run(capsys, "games", "--journal", str(path))
    assert code == 0 and len(out.splitlines()) == 50
    assert "games 1 to 50 of 120" in err and "--page 2" in err
    code, out, err = run(capsys, "games", "--journal", str(path), "--page", "3")
    assert len(out.splitlines()) == 20 and err == ""
    code, out, err = run(capsys, "games", "--journal", str(path), "--all", "--json")
    assert len(json.loads(out)) == 120
    code, out, err = run(capsys, "games", "--journal", str(path), "--limit", "7", "--json")
    assert len(json.loads(out)) == 7
