"""How long the log screen and the breakdowns take on whole games; prints its figures (no
assertion).

    .venv/bin/python bench/bench_kiosk_log.py [--games 5] [--players 4] [--lang ja]
                                              [--size 800x480]

For each game: seeded random games played to the end in a journal, then, on the kiosk (SDL's
dummy driver): opening the log screen (its entries from the session's states, no replay, laid
out and drawn: the wait after the Log button), one frame of a scroll, and the end screen's and
a round's breakdown by source (``game_table``, ``period_table``).  Medians over the games.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from companion.engine import CHANCE, get_game  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.kiosk import i18n  # noqa: E402
from companion.kiosk.app import App  # noqa: E402
from companion.kiosk.breakdown import game_table, period_table  # noqa: E402
from companion.kiosk.config import Config  # noqa: E402
from companion.kiosk.screens.log import LogScreen  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lang", default="ja", choices=i18n.LANGUAGES)
    parser.add_argument("--size", default="800x480")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    pygame.init()
    tmp = Path(tempfile.mkdtemp())
    journal = Journal.open(tmp / "journal.sqlite3")
    cfg = Config(language=args.lang, sound=False, width=w, height=h)
    app = App(cfg, size=(w, h), fullscreen=False, journal=journal,
              config_path=tmp / "config.toml", seed=1)
    print(f"log screen and breakdowns, {args.lang}, {w}x{h}, {args.players} players, "
          f"median of {args.games} games")
    for name in ("pillars", "builders"):
        game = get_game(name)
        opened, scrolled, tables, actions = [], [], [], []
        for seed in range(args.games):
            rng = random.Random(seed)
            session = journal.start(game.setup(args.players), seed=seed)
            while not game.is_over(session.state):
                state = session.state
                if game.current_player(state) == CHANCE:
                    outs = game.chance_outcomes(state)
                    session.play(rng.choices([o for o, _p in outs], [p for _o, p in outs])[0])
                else:
                    session.play(rng.choice(game.legal_actions(state)))
            app.session = session
            actions.append(len(session.playthrough.actions))
            t0 = time.perf_counter()
            app.show(LogScreen(app))
            app.render(force=True)
            t1 = time.perf_counter()
            screen = app.screen
            assert isinstance(screen, LogScreen)
            screen.scroll_to(screen.max_offset() / 2)
            app.render(force=True)
            t2 = time.perf_counter()
            game_table(game, session.state)
            period_table(game, session.state, game.period_of(session.state).number, "")
            t3 = time.perf_counter()
            opened.append(t1 - t0)
            scrolled.append(t2 - t1)
            tables.append(t3 - t2)
        ms = 1000.0
        print(f"{name:9} {statistics.median(actions):5.0f} actions: open the log "
              f"{statistics.median(opened) * ms:6.1f} ms, a scroll frame "
              f"{statistics.median(scrolled) * ms:5.1f} ms, both breakdowns "
              f"{statistics.median(tables) * ms:5.1f} ms")
    journal.close()


if __name__ == "__main__":
    main()
