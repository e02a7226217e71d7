"""The set-up guide: offered at Start (and from the help), a step a page with the numbers of
this table, skippable, remembered in the settings; it ends at the table, whose first step
hands out each seat's starting pieces."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.kiosk import config as config_mod
from companion.kiosk import i18n, ui
from companion.kiosk.guide import guide_for
from companion.kiosk.screens.base import GameScreen
from companion.kiosk.screens.guide import GuideScreen
from tests.kiosk_helpers import drawn_texts, handed_out, keys, make_app, tap
from tests.sweeps import covered, ids


def _start(app: Any, game: str, players: int) -> None:
    tap(app, "new")
    tap(app, f"game {game}")
    tap(app, f"players {players}")
    tap(app, "start")


def _guided(tmp: Path, size: tuple[int, int] = (800, 480), language: str = "en") -> Any:
    app = make_app(tmp, size=size, language=language)
    app.config = app.config.with_(setup_guide=True)
    return app


def _pages(app: Any) -> list[list[str]]:
    """The words of every page, from the first to the table (Next each time)."""
    pages = []
    while isinstance(app.screen, GuideScreen):
        pages.append(drawn_texts(app))
        tap(app, "guide next")
    return pages


@pytest.mark.parametrize(("players", "bag", "gold"), [(2, "6 in all", "+21 gold"),
                                                      (4, "12 in all", "+23 gold")])
def test_the_pillars_guide_counts_for_the_table_and_ends_with_the_starting_pieces(
        tmp_path: Path, players: int, bag: str, gold: str) -> None:
    app = _guided(tmp_path)
    _start(app, "pillars", players)
    assert isinstance(app.screen, GuideScreen)
    pages = _pages(app)
    assert len(pages) == 9
    assert any(bag in t for t in pages[7]), pages[7]  # the bag: 3 builders a colour
    assert any("Stone (23)" in t for t in pages[1])
    assert isinstance(app.screen, GameScreen)
    step = app.screen.handouts.current
    assert step is not None and step.key == "start"  # the table hands out the pieces next
    assert any(gold in t for t in drawn_texts(app))
    app.journal.close()


def test_the_builders_guide_deals_one_apprentice_a_player(tmp_path: Path) -> None:
    app = _guided(tmp_path)
    _start(app, "builders", 3)
    pages = _pages(app)
    assert len(pages) == 4
    assert any("deal 3 at random" in t for t in pages[1]), pages[1]
    assert any("other 3 Apprentices" in t for t in pages[1]), pages[1]
    app.journal.close()


def test_back_skip_and_the_setting_remembered(tmp_path: Path) -> None:
    app = _guided(tmp_path)
    _start(app, "pillars", 3)
    tap(app, "guide next")
    tap(app, "guide next")
    assert app.screen.page == 2
    tap(app, "guide back")
    assert app.screen.page == 1
    tap(app, "guide every game")  # off from now on: written to the settings
    assert config_mod.load(tmp_path / "config.toml").setup_guide is False
    tap(app, "guide skip")
    assert isinstance(app.screen, GameScreen)
    tap(app, "menu")
    _start(app, "builders", 2)
    assert isinstance(app.screen, GameScreen)  # not offered again
    app.journal.close()


def test_the_help_opens_the_guide_and_it_comes_back_to_the_table(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    _start(app, "pillars", 2)
    handed_out(app)
    table = app.screen
    tap(app, "help")
    tap(app, "setup guide")
    assert isinstance(app.screen, GuideScreen)
    tap(app, "guide skip")
    assert app.screen is table
    app.journal.close()


@pytest.mark.parametrize(("size", "language"), covered(
    [(size, lang) for size in ((800, 480), (720, 1280)) for lang in ("en", "zh", "ja")]),
    ids=ids)  # each size and language by default, every combination under -m full
def test_every_page_of_every_guide_fits_for_every_table_size(
        tmp_path: Path, language: str, size: tuple[int, int]) -> None:
    """Nothing cut: every page of both guides, at 2 and 4 players (the longest counts and
    names), in every language, at both screen sizes."""
    app = _guided(tmp_path, size, language)
    try:
        for game in ("pillars", "builders"):
            for players in (2, 4):
                _start(app, game, players)
                ui.OVERFLOWS.clear()
                n = len(guide_for(game)(app.session.game.setup_of(app.session.state), False))
                for _k in range(n):
                    app.render(force=True)
                    tap(app, "guide next")
                assert not ui.OVERFLOWS, (game, players, ui.OVERFLOWS)
                assert "menu" in keys(app)
                tap(app, "menu")
    finally:
        app.journal.close()
        i18n.set_language("en")
