"""Benchmarks of the kiosk; prints its figures.

    .venv/bin/python bench/bench_kiosk.py [cache | qr]

- render time of the busiest screens (the Pillars market and cathedral, the Builders turn with
  sites) at 800x480 and 720x1280: the first frame of the screen (the kiosk's caches of texts
  emptied first) and the screen redrawn (warm caches);
- ``bench_kiosk.py cache``: what those caches hold after drawing every screen (entries, bytes)
  against their limits;
- ``bench_kiosk.py qr``: the end screen's QR code of real BG Stats links (finished random
  games of both titles), made by ``qr.qr_matrix`` against segno choosing its own mask;
- CPU used while idle on a game screen (the main loop waits for events);
- time from process start to the first frame on screen;
- peak memory (RSS) of the kiosk process;
- how long the companion thinks at each strength, and for a hint, through the kiosk's worker
  process (what the table waits), over positions of 4-player games;
- frame times while the companion thinks (its strong search, in a worker process and, for
  comparison, in a thread of the kiosk's own process) against the same screen idle.
Runs on SDL's dummy video driver (no display here); on a Pi the same script measures the real
thing.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

CHILD = r"""
import os, sys, time, resource
t0 = float(sys.argv[1])
import pygame
from pathlib import Path
from companion.kiosk.app import App
from companion.kiosk.config import Config
from companion.journal import Journal
from companion.kiosk.screenshots import find_prefixes
from companion.kiosk.screens.game import open_game
pygame.init()
tmp = Path(sys.argv[2])
journal = Journal.open(tmp / "journal.sqlite3")
setup, actions = find_prefixes("pillars", ["market"])["market"]
jg = journal.start(setup, seed=0)
for a in actions:
    jg.play(a)
app = App(Config(sound=False), size=(800, 480), fullscreen=False, journal=journal,
          config_path=tmp / "config.toml")
app.session = journal.resume(jg.id)
open_game(app)
app.render(force=True)
pygame.display.flip()
first = time.time() - t0
idle = float(sys.argv[3])
pygame.time.set_timer(pygame.QUIT, int(idle * 1000), loops=1)
c0 = time.process_time(); w0 = time.perf_counter()
app.run()
cpu = time.process_time() - c0; wall = time.perf_counter() - w0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{first:.3f} {cpu:.4f} {wall:.3f} {rss}")
"""


def render_times() -> None:
    import pygame

    from companion.journal import Journal
    from companion.kiosk.app import App
    from companion.kiosk.config import Config
    from companion.kiosk.screens.game import open_game
    from companion.kiosk.screenshots import find_prefixes

    pygame.init()
    cases = [("pillars", "market", 4), ("pillars", "cathedral", 4), ("pillars", "place", 4)]
    prefixes = {step: find_prefixes("pillars", [step])[step] for _g, step, _n in cases}
    from companion.builders.kiosk.screen import screen_key  # noqa: F401

    b_prefix = find_prefixes("builders", ["turn-sites"], players=4)["turn-sites"]
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "journal.sqlite3")
        for size in ((800, 480), (720, 1280)):
            pygame.display.quit()
            pygame.display.init()
            app = App(
                Config(sound=False),
                size=size,
                fullscreen=False,
                journal=journal,
                config_path=Path(tmp) / "config.toml",
            )
            for label, (setup, actions) in [
                *((f"pillars {step}", prefixes[step]) for _g, step, _n in cases),
                ("builders turn with sites", b_prefix),
            ]:
                app.session = journal.start(setup, seed=0)
                for a in actions:
                    app.session.play(a)
                open_game(app)
                app.render(force=True)
                for kind, cold in (("first frame, cold caches", True), ("redrawn", False)):
                    times = []
                    for _ in range(20 if cold else 40):
                        if cold:
                            cold_caches()
                        t0 = time.perf_counter()
                        app.render(force=True)
                        times.append(time.perf_counter() - t0)
                    print(
                        f"render {label} at {size[0]}x{size[1]} ({kind}): median "
                        f"{statistics.median(times) * 1000:.1f} ms, "
                        f"max {max(times) * 1000:.1f} ms"
                    )
        journal.close()


def cold_caches() -> None:
    """Empty the kiosk's text caches and its wrapped lines: the next frame is drawn as the
    first frame of a new screen."""
    from companion.kiosk import linebreak, retained, textcache

    textcache.clear()
    retained.clear()  # the parts kept whole, and the keys seen once
    linebreak._LINES.clear()


def deep_size(value: object) -> int:
    """The bytes of ``value`` and what it holds (tuples, strings, numbers, a Layout), by
    ``sys.getsizeof``."""
    import dataclasses

    size = sys.getsizeof(value)
    if isinstance(value, tuple | list):
        size += sum(deep_size(v) for v in value)
    elif dataclasses.is_dataclass(value):
        size += sum(deep_size(getattr(value, f.name)) for f in dataclasses.fields(value))
    return size


def cache_memory() -> None:
    """What the kiosk's caches hold after drawing every screen of ``companion screenshots``
    (both sizes, three languages) in one process, against their limits: entries, and bytes
    (the pixels of the kept surfaces; for layouts and measures, their keys and values by
    ``sys.getsizeof``)."""
    import pygame

    from companion.kiosk import textcache
    from companion.kiosk.screenshots import take

    pygame.init()
    cold_caches()
    with tempfile.TemporaryDirectory() as tmp:
        files = take(Path(tmp), save=False)
    print(f"caches after drawing {len(files)} screens (every screen, 2 sizes, 3 languages):")
    for cache in textcache.CACHES:
        entries = list(cache._data.items())
        counted = cache._weigh is None  # a limit on entries, not on bytes of pixels
        held = (sum(deep_size(k) + deep_size(v) for k, (v, _w) in entries) if counted
                else cache.weight)
        each = held / len(entries) if entries else 0
        print(f"  {cache.name}: {len(entries)} entries, {held / 1024:.0f} KB "
              f"({each:.0f} bytes each), limit {cache.limit}"
              f"{' entries' if counted else ' bytes'}; {cache.hits} hits, {cache.misses} misses")


def idle_process(seconds: float = 5.0) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.time()
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(t0), tmp, str(seconds)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
        )
        first, cpu, wall, rss = out.stdout.split()[-4:]
        print(
            f"start to first frame (process start, imports, journal, replay, first render): "
            f"{float(first) * 1000:.0f} ms"
        )
        print(
            f"idle on the Pillars market screen: {float(cpu) * 1000:.1f} ms CPU in "
            f"{float(wall):.1f} s ({100 * float(cpu) / float(wall):.2f}% of one core)"
        )
        print(f"peak memory (RSS): {int(rss) / 1024:.1f} MB")


def companion_frames(seconds: float = 6.0) -> None:
    """Frame times of the Pillars screen while the companion's seat thinks (each frame a full
    redraw of the screen, as the thinking indicator turns), with the work in a process and in
    a thread, against the same screen with nothing to think about."""
    import pygame

    from companion.engine import CHANCE, get_game
    from companion.engine.simulate import sample
    from companion.journal import Journal
    from companion.kiosk.app import App
    from companion.kiosk.config import Config
    from companion.kiosk.screens.game import open_game

    game = get_game("pillars")
    setup = game.setup(4)
    state = game.initial_state(setup)
    rng = __import__("random").Random(5)
    actions = []
    while True:  # a position in round 2 where a seat decides
        who = game.current_player(state)
        if who >= 0 and state.round >= 2 and len(game.legal_actions(state)) > 3:
            break
        action = sample(game.chance_outcomes(state), rng) if who == CHANCE else rng.choice(
            game.legal_actions(state))
        state = game.apply(state, action)
        actions.append(str(action))
    seat = game.current_player(state)
    pygame.init()
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "journal.sqlite3")
        app = App(Config(sound=False), size=(800, 480), fullscreen=False, journal=journal,
                  config_path=Path(tmp) / "config.toml")
        for label, companions, mode in (
            ("idle (nothing to think about)", {}, "process"),
            ("companion thinking in a process", {seat: "strong"}, "process"),
            ("companion thinking in a thread", {seat: "strong"}, "thread"),
        ):
            app.companion.close()
            app.companion.mode = mode
            app.session = journal.start(setup, seed=0, companions=companions)
            for a in actions:
                app.session.play(a)
            open_game(app)
            times: list[float] = []
            decisions = 0
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                t0 = time.perf_counter()
                pygame.event.pump()
                app.tick(1 / 30)
                app.render(force=True)
                app.present()
                times.append(time.perf_counter() - t0)
                if app.companion.ready(app.session) is not None:
                    decisions += 1
                    app.companion.close()  # think about the same position again
                    app.companion.forget()
                rest = 1 / 30 - (time.perf_counter() - t0)
                if rest > 0:
                    time.sleep(rest)
            times.sort()
            p95 = times[int(len(times) * 0.95)]
            print(
                f"frames at 800x480, {label}: {len(times)} frames, median "
                f"{statistics.median(times) * 1000:.1f} ms, 95th percentile {p95 * 1000:.1f} ms, "
                f"max {times[-1] * 1000:.1f} ms ({decisions} decisions made meanwhile)"
            )
        app.companion.close()
        journal.close()


def companion_think_times(positions: int = 4) -> None:
    """Seconds from asking to the answer on screen (process start included) for each strength
    and the hint, over ``positions`` positions per game (every 25th decision of seeded random
    4-player games)."""
    from bench_pi import positions as find_positions  # bench/ is on the path of a script

    from companion.kiosk.seats import HINT_CHOICES, STRENGTHS, Worker, decide, suggest

    for name in ("pillars", "builders"):
        found = find_positions(name, positions)  # the same positions bench_pi.py measures
        jobs: list[tuple[str, object, tuple[object, ...]]] = [
            (strength, decide, (name, st, who, strength, "bench"))
            for strength in STRENGTHS for st, who in found
        ]
        jobs += [("hint", suggest, (name, st, who, "bench", HINT_CHOICES)) for st, who in found]
        times: dict[str, list[float]] = {}
        for label, work, args in jobs:
            t0 = time.perf_counter()
            worker = Worker(work, args, "process")  # type: ignore[arg-type]
            while worker.poll() is None:
                time.sleep(0.002)
            assert worker.poll()[0] == "ok", worker.poll()  # type: ignore[index]
            times.setdefault(label, []).append(time.perf_counter() - t0)
        for label, ts in times.items():
            print(
                f"companion {label} in {name} (4 players, {len(ts)} positions): median "
                f"{statistics.median(ts):.2f} s, max {max(ts):.2f} s"
            )


def qr_times(games: int = 6) -> None:
    """The QR code of each finished game's BG Stats link: ``qr_matrix`` (the mask chosen on
    whole rows) against ``segno.make`` (its own choice), the same modules, CPU medians."""
    import random

    import segno

    from companion.engine import get_game
    from companion.engine.simulate import random_game
    from companion.journal import Journal
    from companion.kiosk.qr import qr_matrix

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "journal.sqlite3")
        links = []
        for name in ("pillars", "builders"):
            game = get_game(name)
            for seed in range(games // 2):
                setup = game.setup(["Ann", "Bob", "Chen", "Dai"])
                _state, actions = random_game(game, setup, random.Random(seed))
                jg = journal.start(setup, seed=seed)
                for a in actions:
                    jg.play(a)
                links.append(journal.bgstats_link(jg.id))
        journal.close()
    ours, theirs = [], []
    for link in links:
        t0 = time.process_time()
        segno_code = segno.make(link, error="l", micro=False, boost_error=False)
        t1 = time.process_time()
        qr_matrix.cache_clear()
        matrix = qr_matrix(link)
        t2 = time.process_time()
        assert matrix == [[bool(v) for v in row] for row in segno_code.matrix]
        theirs.append(t1 - t0)
        ours.append(t2 - t1)
    sizes = sorted(len(link) for link in links)
    print(f"QR code of a BG Stats link ({len(links)} finished 4-player games, {sizes[0]} to "
          f"{sizes[-1]} characters, the same modules): qr_matrix median "
          f"{statistics.median(ours) * 1000:.1f} ms of CPU, segno choosing its own mask "
          f"{statistics.median(theirs) * 1000:.1f} ms")


if __name__ == "__main__":
    if sys.argv[1:] == ["cache"]:
        cache_memory()
        sys.exit()
    if sys.argv[1:] == ["qr"]:
        qr_times()
        sys.exit()
    render_times()
    idle_process()
    companion_think_times()
    companion_frames()
