"""The companion's fork server starts with the kiosk when its game has a companion seat, or
when such a game starts, in the background (docs/notes/pi-lab.md: the first decision after a start
waited 2.3 to 2.7 s more on a Pi 4 for it)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.kiosk import seats  # noqa: E402
from companion.kiosk.config import Config, save  # noqa: E402
from tests.kiosk_helpers import make_app  # noqa: E402


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], threading.Event]:
    """The fork server's start replaced by one that records it and then waits for the test's
    word (as a slow start would), with no fork server started before."""
    started: list[str] = []
    release = threading.Event()

    def recording() -> None:
        started.append(threading.current_thread().name)
        release.wait(30)

    monkeypatch.setattr(seats, "_SERVER", None)
    monkeypatch.setattr(seats, "_run_fork_server", recording)
    yield started, release  # type: ignore[misc]
    release.set()


def journal_with(tmp_path: Path, companions: dict[int, str] | None) -> Path:
    from companion.engine import get_game
    from companion.journal import Journal

    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    journal.start(get_game("pillars").setup(3), seed=1, companions=companions)
    journal.close()
    return path


def run_kiosk_once(tmp_path: Path, journal: Path, monkeypatch: pytest.MonkeyPatch,
                   started: list[str]) -> dict[str, Any]:
    """``run_kiosk`` with its loop replaced by one frame: what was started by then."""
    from companion.kiosk import app as app_mod
    from companion.main import run_kiosk

    seen: dict[str, Any] = {}

    def one_frame(self: Any) -> None:
        self.render(force=True)
        seen["started before the first frame"] = list(started)

    monkeypatch.setattr(app_mod.App, "run", one_frame)
    cfg = tmp_path / "config.toml"
    save(Config(journal=str(journal), sound=False), cfg)
    assert run_kiosk(cfg, size=(800, 480)) == 0
    return seen


def test_the_kiosk_starts_the_fork_server_when_its_game_has_a_companion_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    starts: tuple[list[str], threading.Event],
) -> None:
    started, release = starts
    journal = journal_with(tmp_path, {1: "normal"})
    seen = run_kiosk_once(tmp_path, journal, monkeypatch, started)
    # asked for before the loop's first frame, and that frame did not wait for it (the
    # recording start is still waiting for the word when the frame is drawn)
    assert seen["started before the first frame"] == ["fork server"]
    assert not release.is_set()
    assert seats.start_fork_server() is None  # once a process


def test_no_fork_server_at_the_start_without_a_companion_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    starts: tuple[list[str], threading.Event],
) -> None:
    started, _release = starts
    journal = journal_with(tmp_path, None)
    seen = run_kiosk_once(tmp_path, journal, monkeypatch, started)
    assert seen["started before the first frame"] == []


def test_a_game_started_with_a_companion_seat_starts_the_fork_server(
    tmp_path: Path, starts: tuple[list[str], threading.Event],
) -> None:
    from companion.engine import get_game
    from companion.kiosk.screens.game import open_game

    started, _release = starts
    app = make_app(tmp_path)
    assert app.journal is not None
    app.session = app.journal.start(get_game("pillars").setup(3), seed=2)
    open_game(app)
    app.companion.update(app.session, 0.0)
    assert started == []  # people at every seat: no fork server
    app.session = app.journal.start(get_game("pillars").setup(3), seed=2, companions={2: "easy"})
    app.companion.mode = "thread"
    app.companion.update(app.session, 0.0)
    assert started == []  # thinking in a thread needs none
    app.companion.mode = "process"
    app.companion.update(app.session, 0.0)
    assert started == ["fork server"]
    app.companion.close()


def test_the_early_start_leaves_a_running_fork_server_for_the_first_decision() -> None:
    """The real start (no fake): the fork server runs, with its preload, before any
    decision asks for it."""
    from multiprocessing import forkserver

    thread = seats.start_fork_server()
    if thread is not None:
        thread.join(60)
    assert forkserver._forkserver._forkserver_pid is not None  # type: ignore[attr-defined]
    job = seats.Worker(seats.decide, ("pillars", None, 0, "easy", "x"), "process")
    while job.poll() is None:
        threading.Event().wait(0.01)
    assert job.poll() is not None and job.poll()[0] == "error"  # type: ignore[index]
