"""Seat names and the companion's mark (issue 22): a seat left unnamed is stored as its colour
and shown in the table's language everywhere (screens, the command line, the exports); older
journals' default names in any language are recognised; a typed name stays as typed; every
listing of the seats marks the companion's."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine import PlayerSpec, get_game
from companion.engine.simulate import random_game
from companion.journal import Journal
from companion.journal.names import english_name
from companion.kiosk import i18n
from companion.kiosk.words import display_name, name_of, seat_label
from tests.kiosk_helpers import drawn_texts, find, make_app, tap


def _finished(journal: Journal, names: list[str], companions: dict[int, str] | None = None,
              game_name: str = "builders", seed: int = 3) -> int:
    game = get_game(game_name)
    colours = ["red", "blue", "yellow", "green"]
    setup = game.setup([PlayerSpec(n, c) for n, c in zip(names, colours, strict=False)])
    _state, actions = random_game(game, setup, random.Random(seed))
    jg = journal.start(setup, seed=seed, companions=companions or {})
    for a in actions:
        jg.play(a)
    return jg.id


# -- the words ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "colour", "en", "zh", "ja"),
    [
        ("Red", "red", "Red", "红方", "赤"),  # stored as the colour
        ("red", "red", "Red", "红方", "赤"),
        ("红方", "red", "Red", "红方", "赤"),  # an older journal, written in Chinese
        ("红色", "red", "Red", "红方", "赤"),
        ("赤のプレイヤー", "red", "Red", "红方", "赤"),  # an older Japanese default
        ("青", "blue", "Blue", "蓝方", "青"),
        ("Yellow player", "yellow", "Yellow", "黄方", "黄"),
        ("Ann", "red", "Ann", "Ann", "Ann"),  # typed: as typed
        ("Blue", "red", "Blue", "Blue", "Blue"),  # another seat's colour: a name
        ("赤", "blue", "赤", "赤", "赤"),
    ],
)
def test_a_default_name_follows_the_language(
    stored: str, colour: str, en: str, zh: str, ja: str
) -> None:
    for lang, want in (("en", en), ("zh", zh), ("ja", ja)):
        i18n.set_language(lang)
        assert display_name(stored, colour) == want, lang
        assert name_of(PlayerSpec(stored, colour)) == want


def test_the_export_names_are_english_and_stable() -> None:
    assert english_name("红方", "red") == "Red"
    assert english_name("赤のプレイヤー", "red") == "Red"
    assert english_name("Ann", "red") == "Ann"
    assert english_name("Blue", "red") == "Blue"


def test_the_companion_is_marked_in_every_language() -> None:
    blue = PlayerSpec("Blue", "blue")
    for lang, want in (("en", "Blue (companion)"), ("zh", "蓝方（助手）"),
                       ("ja", "青（コンパニオン）")):
        i18n.set_language(lang)
        assert seat_label(blue, True) == want
        assert seat_label(blue, False) == display_name("Blue", "blue")


# -- the set-up stores the colour, shows the language --------------------------------------


def test_a_chinese_set_up_stores_colours_and_a_japanese_one_shows_them(tmp_path: Path) -> None:
    app = make_app(tmp_path, language="zh")
    tap(app, "new")
    tap(app, "players 3")
    texts = drawn_texts(app)
    assert {"红方", "蓝方", "黄方"} <= set(texts), texts
    tap(app, "start")
    assert app.session is not None
    assert [p.name for p in app.session.playthrough.setup.players] == ["Red", "Blue", "Yellow"]
    app.companion.close()
    # the next table reads Japanese: the set-up seats the same table, in Japanese
    app.config = app.config.with_(language="ja")
    i18n.set_language("ja")
    app.session = None
    app.go("setup")
    texts = drawn_texts(app)
    assert {"赤", "青", "黄"} <= set(texts), texts
    assert not {"Red", "Blue", "Yellow", "红方"} & set(texts), texts


def test_an_old_chinese_table_is_seated_again_in_english(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        game = get_game("pillars")
        setup = game.setup([PlayerSpec("红方", "red"), PlayerSpec("蓝方", "blue"),
                            PlayerSpec("Ann", "yellow")])
        journal.start(setup, seed=1)
    app = make_app(tmp_path)
    tap(app, "new")
    texts = drawn_texts(app)
    assert {"Red", "Blue", "Ann"} <= set(texts), texts
    assert "红方" not in texts
    # the old default names are not offered as names people typed
    tap(app, "name 0")
    assert [k for k in (b.key for b in app.screen.buttons) if k.startswith("recent")] == []


def test_old_default_names_are_known_without_parsing_the_catalogue_sources(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a seat's name is an old default (``红方``, ``赤のプレイヤー``) is answered from
    the compiled catalogues: reading every .po file with Babel took a Pi 4 about a second in
    the first frame of a game."""
    from companion.kiosk import catalogue, words

    def read_all(code: str) -> Iterator[object]:
        raise AssertionError(f"the {code} catalogue sources were parsed")

    monkeypatch.setattr(catalogue, "read_all", read_all)
    monkeypatch.setattr(i18n, "LOCALES", i18n._Locales())  # none read yet
    monkeypatch.setattr(words, "LOCALES", i18n.LOCALES)
    assert words.is_default_name("红方", "red") and words.is_default_name("赤", "red")
    assert words.is_default_name("青のプレイヤー", "blue")
    assert not words.is_default_name("Ann", "red") and not words.is_default_name("青", "red")


# -- the screens mark the companion ------------------------------------------------------------


def test_home_history_and_end_mark_the_companion_in_the_table_language(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        done = _finished(journal, ["赤のプレイヤー", "Blue", "Yellow"], {1: "normal"})
        game = get_game("pillars")
        playing = journal.start(game.setup([PlayerSpec("Red", "red"), PlayerSpec("Bo", "blue")]),
                                seed=2, companions={0: "easy"})
        del playing
    app = make_app(tmp_path, language="ja")
    resume = find(app, "resume")
    assert f"赤（コンパニオン）{i18n._(', ')}Bo" in resume.sub, resume.sub
    tap(app, "history")
    row = find(app, f"game {done}")
    assert "青（コンパニオン）" in row.sub and "赤 " in row.sub and "黄 " in row.sub, row.sub
    assert "Yellow" not in row.sub and "Blue" not in row.sub
    tap(app, f"game {done}")
    names = [n for _c, n in app.screen.table.players]  # type: ignore[attr-defined]
    assert sorted(names) == sorted(["赤", "◆ 青", "黄"]), names  # its columns: the sign
    tap(app, "chart")  # the scores and the chart
    texts = drawn_texts(app)
    assert any("青（コンパニオン）" in t for t in texts), texts
    assert not any(t.endswith(("Yellow", "Blue")) for t in texts), texts


# -- the command line and the exports ----------------------------------------------------------


def test_the_command_line_and_exports(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.cli import main

    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        gid = _finished(journal, ["红方", "Blue", "Ann"], {1: "strong"})
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert main(["games", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Red " in out and "Blue (companion) " in out and "Ann " in out, out
    assert "红方" not in out
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert main(["games", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "红方 " in out and "蓝方（助手） " in out, out
    assert main(["games", "--journal", str(path), "--json"]) == 0
    players = json.loads(capsys.readouterr().out)[0]["players"]
    assert [p["companion"] for p in players] == [None, "strong", None]
    assert [p["default_name"] for p in players] == [True, True, False]
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert main(["export", str(gid), "--journal", str(path), "--format", "text"]) == 0
    out = capsys.readouterr().out
    i18n.set_language("ja")
    sep = i18n._(", ")
    assert f"赤{sep}青（コンパニオン）{sep}Ann" in out, out[:300]
    assert main(["replay", str(gid), "--journal", str(path), "--log"]) == 0
    assert "青（コンパニオン）" in capsys.readouterr().out
    # BG Stats: English whatever the language, the companion marked where the format allows
    assert main(["export", str(gid), "--journal", str(path), "--format", "bgstats"]) == 0
    text = capsys.readouterr().out
    play = json.loads(text[: text.rindex("}") + 1])
    names = [p["name"] for p in play["players"]]
    assert names == ["Red", "Blue (companion)", "Ann"]
    assert [p["sourcePlayerId"] for p in play["players"]] == ["Red", "companion-blue", "Ann"]
    assert "companion" in play["comments"] and "Blue (strong)" in play["comments"]


@pytest.mark.parametrize("game_name", ["pillars", "builders"])
def test_the_table_marks_the_companion_on_the_panels_and_the_overlay(
    tmp_path: Path, game_name: str
) -> None:
    app = make_app(tmp_path, language="zh")
    game = get_game(game_name)
    app.session = app.journal.start(game.setup(3), seed=1, companions={1: "easy"})
    rng = random.Random(1)
    while game.current_player(app.session.state) < 0:  # past the table's first reveals
        outcomes = [a for a, p in game.chance_outcomes(app.session.state) if p > 0]
        app.session.play(game.format_action(rng.choice(outcomes)))
    app.config = app.config.with_(virtual_deck=False)
    app.open_game()
    texts = drawn_texts(app)
    assert any("蓝方（助手）" in t for t in texts), texts
    assert not any("红方（助手）" in t for t in texts)
    app.screen.show_tableau(1)  # type: ignore[attr-defined]
    texts = drawn_texts(app)
    assert any(t.startswith("蓝方（助手）") for t in texts), texts
    app.companion.close()
