"""The set-up explains itself (issue 22): a finger held on any control of the set-up screen (a
game, a player count, every option and each of its choices, a seat's order, colour, name, who
plays it and the start) shows what it does, in the table's language, and selects nothing; one
name for the companion per language."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.kiosk.i18n import _
from tests.kiosk_helpers import find, hold, keys, make_app, tap
from tests.sweeps import covered


def _explained(app: object, key: str) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    before = (screen.game, screen.count, dict(screen.options), list(screen.strengths),
              screen.start, list(screen.seats), app.config.virtual_deck)  # type: ignore[attr-defined]
    hold(app, key)  # type: ignore[arg-type]
    assert screen.held is not None, f"a hold on {key!r} explains nothing"
    title, text = screen.held
    assert keys(app) == ["close explanation"]  # type: ignore[arg-type]
    tap(app, "close explanation")  # type: ignore[arg-type]
    after = (screen.game, screen.count, dict(screen.options), list(screen.strengths),
             screen.start, list(screen.seats), app.config.virtual_deck)  # type: ignore[attr-defined]
    assert after == before, f"a hold on {key!r} changed the set-up"
    return f"{title}\n{text}"


@pytest.mark.parametrize(("game", "lang"), covered(
    [(game, lang) for game in ("pillars", "builders") for lang in ("en", "zh", "ja")]))  # all:
# -m full
def test_every_control_of_the_set_up_explains_itself(tmp_path: Path, lang: str,
                                                      game: str) -> None:
    app = make_app(tmp_path, language=lang)
    tap(app, "new")
    tap(app, f"game {game}")
    texts: dict[str, str] = {}
    wanted = [k for k in keys(app) if k.split(" ")[0] in (
        "game", "players", "virtual", "coins", "show_next_worker", "about", "who", "move",
        "colour", "name", "start") and k != "start"]
    assert "virtual True" in wanted and "about virtual" in wanted
    if game == "builders":
        assert {"coins separate", "coins cumulative", "show_next_worker False",
                "show_next_worker True", "about coins", "about show_next_worker"} <= set(wanted)
    for key in wanted:
        texts[key] = _explained(app, key)
    if lang != "en":  # nothing in English: each text is translated
        for key, text in texts.items():
            body = text.split("\n", 1)[1]
            assert not any(w in body for w in ("the ", "The ", " is ", " a ")), (key, text)
    if game == "builders":
        # the choices say different things
        assert texts["coins separate"] != texts["coins cumulative"]
        assert texts["show_next_worker False"] != texts["show_next_worker True"]
    assert texts["virtual True"] != texts["virtual False"]


def test_the_companion_has_one_name_in_japanese(tmp_path: Path) -> None:
    app = make_app(tmp_path, language="ja", size=(720, 1280))
    tap(app, "new")
    assert find(app, "who 1").label == "人"
    tap(app, "who 1")
    assert find(app, "who 1").label == "コンパニオン"
    assert _("{name}, the companion:", name="青") == "青（コンパニオン）："
