"""The kiosk never gives up (issue 24, item 10): the unit has no start limit, and after
repeated failures the session starts the kiosk in safe mode, which shows what failed and the
journal's games instead of a dark screen.  The same under systemd, for real, is
``tools/nspawn_proof.sh`` ("crash it again and again")."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion import session
from companion.journal import Journal
from companion.kiosk.app import App
from companion.kiosk.config import Config
from companion.kiosk.config import save as save_config
from companion.kiosk.safemode import SAFE_MODE_MINUTES, SafeModeScreen
from tests import kiosk_helpers  # noqa: F401 - SDL's dummy drivers
from tests.kiosk_helpers import find, tap

from .test_journal import finished_game

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "companion.service"


def test_the_unit_never_stops_restarting() -> None:
    """systemd's default (5 starts in 10 s) or the old 5 in 10 minutes left the unit failed
    and the screen dark for good."""
    lines = [line.strip() for line in UNIT.read_text().splitlines()]
    assert "StartLimitIntervalSec=0" in lines
    assert not any(line.startswith("StartLimitBurst=") for line in lines)
    assert "Restart=always" in lines


class FakeRun:
    """``session.run`` that records the kiosk's command line and ends with given statuses."""

    def __init__(self, statuses: list[int], fault: str = "") -> None:
        self.statuses = statuses
        self.fault = fault
        self.argvs: list[list[str]] = []

    def __call__(self, cage: str, kiosk: list[str]) -> int:
        self.argvs.append(list(kiosk))
        status = self.statuses.pop(0)
        if status and self.fault:
            session.note_fault(self.fault)
        return status


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    return tmp_path


def test_after_repeated_failures_the_kiosk_starts_in_safe_mode(
    state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeRun([137, 1, 134, 0, 0, 137], fault="RuntimeError: the camera driver")
    monkeypatch.setattr(session, "run", fake)
    assert [session.run_session("cage", None) for _ in range(6)] == [137, 1, 134, 0, 0, 137]
    safe = ["--safe-mode" in argv for argv in fake.argvs]
    # three failures, then safe mode; its Start normally (status 0) clears the log
    assert safe == [False, False, False, True, False, False]
    logged = session.read_failures(session.failures_path())
    assert [f.status for f in logged] == [137]
    assert logged[0].fault == "RuntimeError: the camera driver"


def test_old_failures_and_a_bad_log_do_not_count(
    state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = session.failures_path()
    now = session.uptime()
    old = [
        {"status": 1, "uptime": now - session.CRASH_WINDOW - 5, "boot": session.boot_id(),
         "when": "", "fault": ""},
        {"status": 1, "uptime": now - 1, "boot": "another boot", "when": "", "fault": ""},
        {"status": 1, "uptime": now - 2, "boot": "another boot", "when": "", "fault": ""},
    ]
    log.write_text(json.dumps(old), encoding="utf-8")
    fake = FakeRun([1])
    monkeypatch.setattr(session, "run", fake)
    session.run_session("cage", None)
    assert "--safe-mode" not in fake.argvs[0]
    log.write_text("[" * 100_000, encoding="utf-8")  # a damaged log never stops the start
    fake = FakeRun([0])
    monkeypatch.setattr(session, "run", fake)
    assert session.run_session("cage", None) == 0
    assert "--safe-mode" not in fake.argvs[0]
    assert not log.exists()


def journal_with_games(path: Path) -> None:
    with Journal.open(path) as journal:
        finished_game(journal, "pillars", seed=1)
        finished_game(journal, "builders", players=2, seed=2)
        jg = journal.start(__import__("companion.engine", fromlist=["get_game"]).get_game(
            "pillars").setup(3), seed=3)
        del jg


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_the_safe_mode_shows_what_failed_and_the_journals_games_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.kiosk import app as app_mod
    from companion.main import run_safe_mode

    data = tmp_path / "data"
    data.mkdir()
    journal = data / "journal.sqlite3"
    journal_with_games(journal)
    cfg = tmp_path / "config.toml"
    save_config(Config(journal=str(journal), sound=False), cfg)
    before = digests(data)
    seen: dict[str, Any] = {}

    def fake_run(self: App, max_passes: int | None = None) -> None:
        self.render(force=True)
        seen["screen"] = self.screen
        seen["devices"] = list(self.devices)
        tap(self, "normal")
        seen["running"] = self.running

    monkeypatch.setattr(app_mod.App, "run", fake_run)
    endings = [(137, ""), (1, "RuntimeError: the camera driver"), (134, "")]
    assert run_safe_mode(cfg, size=(800, 480), endings=endings) == 0
    screen = seen["screen"]
    assert isinstance(screen, SafeModeScreen)
    assert seen["devices"] == []  # no panel, no camera
    assert seen["running"] is False  # Start normally ends it with status 0
    lines = screen.lines()
    assert "stopped by the signal SIGKILL" in lines[0]
    assert "RuntimeError: the camera driver" in lines[1]
    assert [g.id for g in screen.games] == [3, 2, 1]  # unfinished first
    assert digests(data) == before  # read-only: nothing written, nothing made


def test_the_safe_mode_tries_a_normal_start_by_itself(tmp_path: Path) -> None:
    pygame.init()
    app = App(Config(sound=False), size=(800, 480), fullscreen=False, journal=None,
              config_path=tmp_path / "config.toml")
    app.show(SafeModeScreen(app, [], [], ["the journal cannot be read"]))
    app.render(force=True)
    find(app, "normal")
    for _ in range(SAFE_MODE_MINUTES * 60 - 2):
        app.tick(1.0)
    assert app.running
    for _ in range(3):
        app.tick(1.0)
    assert not app.running


def test_the_kiosks_last_words_reach_the_safe_mode(
    state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``companion kiosk`` leaves the error that ended it for the session's log; the safe mode
    started by ``companion kiosk --safe-mode`` shows the log's failures."""
    from companion import main as main_mod
    from companion.cli import main

    def broken(*args: Any, **kwargs: Any) -> int:
        raise RuntimeError("the camera driver hung")

    monkeypatch.setattr(main_mod, "run_kiosk", broken)
    with pytest.raises(RuntimeError):
        main(["kiosk", "--config", str(state / "none.toml")])
    assert session.take_fault_note() == "RuntimeError: the camera driver hung"
    session.note_ending(session.failures_path(), 1, "RuntimeError: the camera driver hung")
    got: dict[str, Any] = {}

    def safe(config: Any, **kwargs: Any) -> int:
        got.update(kwargs)
        return 0

    monkeypatch.setattr(main_mod, "run_safe_mode", safe)
    t0 = time.monotonic()
    assert main(["kiosk", "--safe-mode", "--config", str(state / "none.toml")]) == 0
    assert time.monotonic() - t0 < 5
    assert got["endings"] == [(1, "RuntimeError: the camera driver hung")]
