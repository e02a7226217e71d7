"""``companion replay RECORD|ID --log`` and ``companion export ID --format text``: the game in
plain words, in the language of LANGUAGE / LANG as gettext programs choose it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import Record, get_game
from companion.journal import Journal
from companion.kiosk import i18n
from companion.kiosk.gamelog import language_from_environ, log_text

from .test_gamelog import play
from .test_journal import finished_game
from .test_words_actions import leaks

Capsys = pytest.CaptureFixture[str]

LANG_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in LANG_VARS:
        monkeypatch.delenv(var, raising=False)
    yield


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:ja:en", "LANG": "zh_CN.UTF-8"}, "ja"),
        ({"LANGUAGE": "", "LC_ALL": "zh_TW.UTF-8@x", "LANG": "ja_JP"}, "zh"),
        ({"LC_MESSAGES": "en_GB.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),
    ],
)
def test_the_language_comes_from_the_environment_as_in_gettext(
    env: dict[str, str], lang: str
) -> None:
    assert language_from_environ(env) == lang


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pt = play("pillars", 4)
    path = tmp_path_factory.mktemp("rec") / "game.json"
    pt.record().save(path)
    return path


def test_replay_log_prints_the_game_in_the_language(
    record_file: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert main(["replay", str(record_file), "--log"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ピラーズ") and "ラウンド1\n" in out and "ラウンド6\n" in out
    assert "ゲーム終了" in out and not leaks(out, "ja")
    assert out.index("ラウンド1\n") < out.index("ラウンド2\n")  # oldest first
    game = get_game("pillars")
    i18n.set_language("ja")
    assert out == log_text(game, Record.load(record_file))
    monkeypatch.setenv("LANG", "C")
    assert main(["replay", str(record_file), "--log"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The Pillars of the Earth\nPlayers: Red, Blue, Yellow\n")
    assert "\nRound 1\n  The table revealed " in out


def test_replay_log_and_json_are_one_or_the_other(record_file: Path, capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["replay", str(record_file), "--log", "--json"])
    assert exit_.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_a_record_that_does_not_replay_prints_nothing(tmp_path: Path, capsys: Capsys) -> None:
    game = get_game("builders")
    bad = tmp_path / "bad.json"
    Record(game.setup(2), ("end turn",)).save(bad)
    assert main(["replay", str(bad), "--log"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "action 1" in captured.err


def test_export_text_and_replay_id_log(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        finished_game(journal, "builders", 2, 2)
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    assert main(["export", "1", "--format", "text", "--journal", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("建造者：中世纪\n玩家：红方、蓝方\n")
    assert "第1回合：" in text and "游戏结束" in text and not leaks(text, "zh")
    assert main(["replay", "journal:1", "--log", "--journal", str(path)]) == 0
    assert capsys.readouterr().out == text
    out = tmp_path / "game.txt"
    assert main(["export", "1", "--format", "text", "--journal", str(path), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == text
