"""Nothing hostile reaches a terminal through JSON either (issue 51, item 4): every command that
prints JSON writes control, format and bidirectional characters, line and paragraph separators
and lone surrogates as ``\\uXXXX`` escapes, and the JSON still reads back to the same values.

The check of the output is independent of ``companion.text``: it lists the characters by their
Unicode category here."""

from __future__ import annotations

import json
import sys
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import get_game
from companion.journal import Journal

from .test_journal import random_actions

Capsys = pytest.CaptureFixture[str]

HOSTILE = (
    "Ann\u009b31mRed",  # C1 CSI: a terminal takes it as ESC [
    "\u202eevil",  # right-to-left override
    "B\u200fob\u2066x\u2069",  # right-to-left mark, an isolate
    "\x1b[2J\x7fcl\u2028ear\u2029\U000e0001",  # ESC, DEL, line/paragraph separators, a tag
)
"""Four player names a person could type or a crafted file hold."""

SEPARATORS = "\n"
"""What JSON writes raw between values (with ``indent``)."""


def raw_unsafe(text: str) -> list[str]:
    """The characters of ``text`` that a terminal could act on, as written (not escaped)."""
    return sorted({
        f"U+{ord(ch):04X}" for ch in text
        if ch not in SEPARATORS
        and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")
    })


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal with one finished Pillars game whose four players have hostile names."""
    path = tmp_path_factory.mktemp("hostile") / "journal.sqlite3"
    game = get_game("pillars")
    setup = game.setup(4)
    setup = replace(setup, players=tuple(
        replace(p, name=n) for p, n in zip(setup.players, HOSTILE, strict=True)))
    with Journal.open(path) as journal:
        journal._db().execute("PRAGMA synchronous = OFF")  # (a test's journal: no flushes)
        session = journal.start(setup, seed=1)
        for text in random_actions("pillars", 4, 1):
            session.play(text)
        assert session.is_over()
    return path


def printed(capsys: Capsys, *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def names_in(value: object) -> set[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(names_in(k) | names_in(v) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(set(), *(names_in(v) for v in value))
    return set()


@pytest.mark.parametrize(
    "argv",
    [
        ["games", "--json"],
        ["games", "--json", "--all"],
        ["replay", "1", "--json"],
        ["export", "1"],
        ["export", "1", "--format", "bgstats"],
    ],
)
def test_every_json_output_escapes_what_a_terminal_acts_on(
    capsys: Capsys, journal_path: Path, argv: list[str]
) -> None:
    out = printed(capsys, *argv, "--journal", str(journal_path))
    assert raw_unsafe(out) == []
    if "bgstats" in argv:  # BG Stats gets the names cleaned (docs/journal.md): still JSON
        body, link = out.rstrip("\n").rsplit("\n", 1)
        assert json.loads(body)["players"][0]["name"] == "Ann31mRed" and link.isascii()
        return
    assert "\\u009b" in out and "\\u202e" in out and "\\u200f" in out
    value = json.loads(out)  # still JSON, and the names come back whole
    if argv[0] == "export":
        assert [p["name"] for p in value["setup"]["players"]] == list(HOSTILE)
    else:
        assert set(HOSTILE) <= names_in(value)


def test_export_to_a_file_escapes_them_too(
    capsys: Capsys, journal_path: Path, tmp_path: Path
) -> None:
    target = tmp_path / "game.json"
    printed(capsys, "export", "1", "--journal", str(journal_path), "--out", str(target))
    text = target.read_text(encoding="utf-8")
    assert raw_unsafe(text) == []
    assert [p["name"] for p in json.loads(text)["setup"]["players"]] == list(HOSTILE)


def test_names_in_any_script_stay_readable(capsys: Capsys, tmp_path: Path) -> None:
    """Only the unsafe characters are escaped: Chinese, Japanese, accents stay as they are."""
    from companion.text import json_text

    out = json_text({"names": ["红方", "赤のプレイヤー", "Zoë", "x\u00a0y"], "n": 1})
    assert out == '{"names": ["红方", "赤のプレイヤー", "Zoë", "x\u00a0y"], "n": 1}'


def test_json_text_escapes_every_unsafe_character_and_round_trips() -> None:
    """Every code point of the categories a terminal or a screen could act on, BMP and beyond
    (as surrogate pairs), and lone surrogates: escaped, and read back exactly.  (Each is set
    apart: a high and a low surrogate side by side read back as one character in any JSON.)"""
    from companion.text import json_safe, json_text

    unsafe = "|".join(
        chr(c) for c in range(sys.maxunicode + 1)
        if unicodedata.category(chr(c)) in ("Cc", "Cf", "Cs", "Zl", "Zp")
    )
    assert "\u009b" in unsafe and "\U000e007f" in unsafe and "\ud800" in unsafe
    for indent in (None, 2):
        out = json_text({"k\u202e": [unsafe, "plain"]}, indent=indent)
        assert raw_unsafe(out) == []
        assert out.isascii()  # (everything else in it is ASCII)
        assert json.loads(out) == {"k\u202e": [unsafe, "plain"]}
    assert json_safe(json.dumps("\x7f\u0085", ensure_ascii=False)) == '"\\u007f\\u0085"'


def test_simulate_and_arena_json_are_escaped_json(capsys: Capsys) -> None:
    for argv in (["simulate", "builders", "--players", "2", "--json"],
                 ["arena", "builders", "--games", "1", "--bots", "random", "--json"]):
        out = printed(capsys, *argv)
        assert raw_unsafe(out) == []
        assert json.loads(out)["game"] == "builders"


def test_doctor_json_escapes_a_hostile_config_path(tmp_path: Path) -> None:
    import io

    from companion.doctor import run_doctor

    config = tmp_path / "set\u009btings\u202e.toml"
    buffer = io.StringIO()
    run_doctor(config, as_json=True, out=buffer, display=False, dev_dir=tmp_path,
               cards=tmp_path / "cards", model_path=tmp_path / "model")
    out = buffer.getvalue()
    assert raw_unsafe(out) == []
    assert "\\u009b" in out
    assert any(str(config) in c["found"] for c in json.loads(out))


def test_scan_json_escapes_a_hostile_image_name(capsys: Capsys, tmp_path: Path) -> None:
    import cv2
    import numpy as np

    image = tmp_path / "card\u009b\u202e.png"
    cv2.imwrite(str(tmp_path / "plain.png"), np.full((40, 60), 255, np.uint8))
    (tmp_path / "plain.png").rename(image)
    out = printed(capsys, "scan", str(image), "--json")
    assert raw_unsafe(out) == []
    assert json.loads(out)["images"][0]["image"] == str(image)
