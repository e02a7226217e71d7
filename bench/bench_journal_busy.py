"""How long the kiosk's main loop stalls when another program holds the journal's write lock;
prints its figures (no assertion).

    .venv/bin/python bench/bench_journal_busy.py [--taps 3]

The kiosk's journal is opened as ``companion.main`` opens it; another connection holds
``BEGIN IMMEDIATE``; each tap plays the next action through ``App.play`` (refused: the journal
is busy).  Printed: each tap's stall, and the longest gap between two passes of the main loop
(what systemd's watchdog would see) while the taps go through ``App.run``.  Runs on SDL's dummy
video driver.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from companion.engine import CHANCE, get_game  # noqa: E402
from companion.engine.simulate import sample  # noqa: E402
from companion.kiosk.app import App  # noqa: E402
from companion.kiosk.config import Config  # noqa: E402
from companion.kiosk.inputs import Tap  # noqa: E402
from companion.main import open_journal  # noqa: E402


def next_action(app: App) -> Any:
    assert app.session is not None
    game, state = app.session.game, app.session.state
    if game.current_player(state) == CHANCE:
        return sample(game.chance_outcomes(state), random.Random(1))
    return game.legal_actions(state)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-busy-") as tmp:
        path = Path(tmp) / "journal.sqlite3"
        config = Config(sound=False, journal=str(path))
        journal = open_journal(config)
        pygame.init()
        app = App(config, size=(800, 480), fullscreen=False, journal=journal,
                  config_path=Path(tmp) / "config.toml")
        app.session = journal.start(get_game("pillars").setup(2), seed=0)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        stalls = []
        for _ in range(args.taps):
            t0 = time.perf_counter()
            app.play(next_action(app))
            stalls.append(time.perf_counter() - t0)
        print("each tap while another program holds the journal: "
              + ", ".join(f"{s * 1000:.0f} ms" for s in stalls)
              + f"; message: {app.toast_text!r}")
        passes: list[float] = []

        class Notifier:
            def ready(self) -> None:
                pass

            def stopping(self) -> None:
                pass

            def tick(self) -> None:
                passes.append(time.perf_counter())

        app.notifier = Notifier()  # type: ignore[assignment]

        taps: list[float] = []

        def handle(inp: object) -> None:
            if isinstance(inp, Tap):
                taps.append(time.perf_counter())
                app.play(next_action(app))

        app.screen.handle = handle  # type: ignore[method-assign]
        for _ in range(args.taps):
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(5, 5), button=1))
        app.run(max_passes=30)
        gaps = [b - a for a, b in zip(passes, passes[1:], strict=False)]
        print(f"main loop, {len(taps)} taps in one pass: longest gap between passes "
              f"{max(gaps) * 1000:.0f} ms (the watchdog allows 30 s)")
        other.execute("ROLLBACK")
        other.close()
        journal.close()
        pygame.quit()


if __name__ == "__main__":
    main()
