"""The history screen with 10 000 finished games: one page read from the journal (a fixed
number of queries whatever its size), and nothing read again to redraw it."""

from __future__ import annotations

import time
from pathlib import Path

from companion.journal import Journal
from companion.kiosk.screens.history import GamesScreen
from tests.kiosk_helpers import keys, make_app, tap

from .test_cli_inputs import many_games


def test_history_with_ten_thousand_games_is_one_page_and_cached(tmp_path: Path) -> None:
    many_games(tmp_path / "journal.sqlite3", 10_000)
    app = make_app(tmp_path)
    assert app.journal is not None
    statements: list[str] = []
    app.journal._db().set_trace_callback(statements.append)
    t0 = time.perf_counter()
    tap(app, "history")
    first = time.perf_counter() - t0
    assert isinstance(app.screen, GamesScreen)
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) <= 3, reads  # the count, the page's games, their period scores
    assert first < 1.0, f"history took {first:.2f} s to open"
    listed = [k for k in keys(app) if k.startswith("game ")]
    assert 1 <= len(listed) <= 10
    statements.clear()
    t0 = time.perf_counter()
    for _ in range(5):
        app.render(force=True)
    again = (time.perf_counter() - t0) / 5
    assert statements == []  # redrawing reads nothing
    assert again < 0.5
    tap(app, "next")
    assert [k for k in keys(app) if k.startswith("game ")] != listed
    print(f"history: first render {first * 1000:.0f} ms, redraw {again * 1000:.0f} ms")


def test_the_page_query_lists_every_game_once(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    many_games(path, 230)
    with Journal.open(path, read_only=True) as journal:
        seen: list[int] = []
        offset = 0
        while True:
            page = journal.page("finished", offset, 100)
            seen += [g.id for g in page.games]
            offset += 100
            if offset >= page.total:
                break
        assert len(seen) == len(set(seen)) == 230 == page.total
        assert journal.page("playing", 0, 10).total == 0
