"""What the companion costs on a Raspberry Pi: measured here (or under qemu) and scaled; prints
its figures.

    .venv/bin/python bench/bench_pi.py [--positions 20] [--only cpu,think,worker,...]

- ``think``: the companion's decision at each strength (``companion.bots`` strengths, through
  ``companion.kiosk.seats.decide``, the kiosk's own entry) and the hint, over positions of
  seeded random 4-player games of both games (every 25th decision): CPU seconds a decision,
  median, p95 and max (CPU time, so that a shared machine does not inflate it);
- ``worker``: a normal decision through the kiosk's worker process, as the table waits for it
  (wall time; the first ask starts the fork server); and the first decision after a start in
  a new process, with the fork server started when the kiosk starts (``start_fork_server``, 2 s
  before the decision) or at the decision itself (as before issue 26);
- ``render``: the busiest screens' render (``App.render(force=True)``) at 800x480 and 720x1280:
  the first frame of the screen (20 frames, each with the kiosk's text caches emptied first:
  every text laid out and rendered) and the screen redrawn (40 frames, warm caches): median,
  p95 and max;
  The companion's thinking indicator: a move of it drawn as the kiosk does (its dots only)
  and as the whole screen;
- ``moves``: the frame after each move of a seeded random game of each game (80 decisions,
  and the reveals between them), with the caches as the moves before left them; with the
  table's pause before each move (the idle main loop's frames drawn ahead, ``lookahead``) and
  without, and what drawing ahead costs;
- ``taps``: the frame after each of 150 seeded taps through the game's screen (moves, their
  previews and Confirm, selections, pages, hand-out steps, now and then Undo or a tableau),
  with the table's pause and without;
- ``camera``: one camera frame through the kiosk's pipeline (``Pipeline.step``: change check,
  detection, tracker) on generated frames that change every time (the worst case: detection
  always runs), at the lores 640x360 and the main 1280x720 (the default);
- ``start``: ``python -m companion kiosk`` spawned (SDL's dummy driver, an empty journal) until
  its ``READY=1`` on a notify socket, which the kiosk sends after its first frame is on screen;
- ``loop``: a CPython loop whose time on a Raspberry Pi 4 is published (cpu-benchmark's, see
  ``PI4_LOOP_SECONDS``), in CPU seconds here: the factor from this machine's Python to a Pi's;
- ``cpu``: this machine's single-core speed on 7-Zip's benchmark (``7za b -mmt=1``, the
  figure sbc-bench publishes for the Raspberry Pis): a second factor, for compiled code
  (see ``docs/notes/pi-lab.md`` for the sources and why the two differ).

Under qemu-user the figures are emulation's, not a Pi's: only the scaled figures from this
machine estimate a Pi (``docs/pi.md``).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.kiosk import memory  # noqa: E402 - (after the path: a clone's own)

# 7-Zip single-threaded MIPS (sbc-bench's "7-zip single", `7za b -mmt=1`), from sbc-bench's
# Results.md (github.com/ThomasKaiser/sbc-bench): Raspberry Pi 4 B at 1800 MHz on 64-bit
# Raspberry Pi OS Bullseye (results/3OBF.txt: 1769) and Buster arm64 (3F9C: 1741); at the
# stock 1500 MHz only 32-bit runs are listed (1MFf: 1606, 3EgS: 1661), so the 64-bit figure is
# scaled by the clock (1755 x 1500/1800 = 1463); Raspberry Pi 5 B at 2400 MHz on Bookworm arm64
# (Au3jaA: 3196, 8-NK: 3305).
# A CPython loop with a published Raspberry Pi 4 time: the loop of cpu-benchmark.py in
# github.com/alexdedyura/cpu-benchmark as of 2024-01-12 (commit dc312ef; the same loop from
# 2022-03 to 2024-03), whose README then listed "Raspberry Pi 4 | ARM | Ubuntu 22.04.3 LTS |
# 79.216s" (an average of 10 attempts on an idle Pi; Ubuntu 22.04's CPython 3.10).  This loop
# runs 14 % slower on CPython 3.11 than on 3.10 (3.10.13 and 3.11.7 built alike, measured
# here), so a Pi 4 on Bookworm's 3.11 takes about 79.216 x 1.14 = 90.3 s.  The README does not
# give the Pi's clock: it is taken as 1.8 GHz (the firmware's default on boards since 2020),
# and a 1.5 GHz Pi 4 as 1.2 times slower again.  A Pi 5 (2.4 GHz) runs 7-Zip 1.85 times as
# fast as a 1.8 GHz Pi 4 (sbc-bench, below); the same ratio is taken for Python.
PI4_LOOP_SECONDS = 79.216 * 1.14
PI_LOOP_SLOWER = {"Pi 4 (1.5 GHz)": 1.2, "Pi 4 (1.8 GHz)": 1.0, "Pi 5 (2.4 GHz)": 1 / 1.85}

PI_7ZIP_MIPS = {
    "Pi 4 (1.5 GHz)": 1755 * 1500 / 1800,
    "Pi 4 (1.8 GHz)": (1769 + 1741) / 2,
    "Pi 5 (2.4 GHz)": (3196 + 3305) / 2,
}


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


MEASURED: list[tuple[str, float]] = []
"""(what, p95 in seconds) of the part running now: scaled to the Pis after it."""


def summary(values: list[float], unit: float = 1.0, fmt: str = "{:.3f}",
            what: str | None = None) -> str:
    if what is not None:
        MEASURED.append((what, pct(values, 0.95)))
    return (f"median {fmt.format(statistics.median(values) * unit)}, p95 "
            f"{fmt.format(pct(values, 0.95) * unit)}, max {fmt.format(max(values) * unit)}")


def positions(name: str, count: int) -> list[tuple[Any, int]]:
    """``count`` positions of seeded random 4-player games: every 25th decision with a
    choice, and who decides there."""
    from companion.engine import CHANCE, TERMINAL, get_game
    from companion.engine.simulate import sample

    game = get_game(name)
    found: list[tuple[Any, int]] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        seed += 1
        state = game.initial_state(game.setup(4))
        made = 0
        while game.current_player(state) != TERMINAL and len(found) < count:
            who = game.current_player(state)
            if who == CHANCE:
                state = game.apply(state, sample(game.chance_outcomes(state), rng))
                continue
            made += 1
            if made % 25 == 0 and len(game.legal_actions(state)) > 1:
                found.append((state, who))
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    return found


def think(count: int) -> None:
    """Whole CPU a decision: the strong search's and the hint's trees all run in this process
    (``search.WORKERS = 1``), so ``process_time`` counts every tree; on a Pi's four cores the
    table waits for the critical path instead (``bench_bots.py --think`` prints both)."""
    from companion.bots import search
    from companion.kiosk.seats import HINT_CHOICES, STRENGTHS, decide, suggest

    search.WORKERS = 1
    for name in ("pillars", "builders"):
        found = positions(name, count)
        for strength in (*STRENGTHS, "hint"):
            times = []
            for k, (state, who) in enumerate(found):
                t0 = time.process_time()
                if strength == "hint":
                    suggest(name, state, who, f"bench{k}", HINT_CHOICES)
                else:
                    decide(name, state, who, strength, f"bench{k}")
                times.append(time.process_time() - t0)
            print(f"think {name} {strength} (4 players, {len(times)} positions): "
                  f"{summary(times, what=f'think {name} {strength}')} s", flush=True)


def worker(count: int) -> None:
    """What the table waits for a normal-strength decision: through the kiosk's worker process
    (a fork server with the bots imported), wall time from asking to the answer, the first ask
    (the fork server starting) apart from the rest."""
    from companion.kiosk.seats import Worker, decide

    found = positions("pillars", count + 1)
    times = []
    for k, (state, who) in enumerate(found):
        t0 = time.perf_counter()
        job = Worker(decide, ("pillars", state, who, "normal", f"bench{k}"), "process")
        while job.poll() is None:
            time.sleep(0.002)
        assert job.poll()[0] == "ok", job.poll()  # type: ignore[index]
        times.append(time.perf_counter() - t0)
    print(f"worker: a normal decision through the kiosk's worker process, wall time: the first "
          f"(fork server start) {times[0]:.2f} s, then {summary(times[1:])} s "
          f"({len(times) - 1} positions)", flush=True)
    firsts: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(3):  # alternately, the machine's load drifts
        for early in (False, True):
            firsts[early].append(first_decision(early))
    for early, label in ((False, "at the first decision"), (True, "with the kiosk")):
        what = f"first decision after a start, fork server started {label} (wall)"
        print(f"worker: {what}: {summary(firsts[early], what=what)} s", flush=True)
    cpu_times = []
    for _ in range(3):  # what the fork server's start costs in CPU: its preload's imports
        before = children_cpu()
        subprocess.run([sys.executable, "-c", "import companion.bots, companion.kiosk.seats"],
                       check=True)
        cpu_times.append(children_cpu() - before)
    print(f"worker: the fork server's imports (companion.bots, companion.kiosk.seats): "
          f"{summary(cpu_times, what='fork server imports')} s of CPU", flush=True)


FIRST_DECISION = r"""
import sys, time
from bench.bench_pi import positions
from companion.kiosk import seats
early, pause = sys.argv[1] == "early", float(sys.argv[2])
state, who = positions("pillars", 1)[0]
if early:
    seats.start_fork_server()  # as the kiosk does at its start (a game with a companion seat)
time.sleep(pause)  # the kiosk starts, the table taps its way to the companion's turn
t0 = time.perf_counter()
job = seats.Worker(seats.decide, ("pillars", state, who, "normal", "bench"), "process")
while job.poll() is None:
    time.sleep(0.002)
assert job.poll()[0] == "ok", job.poll()
print(f"{time.perf_counter() - t0:.3f}")
"""


def first_decision(early: bool, pause: float = 2.0) -> float:
    """The first decision after a start, in a new process, wall time: with the fork server
    started when the kiosk starts (``seats.start_fork_server``, ``early``) or at that
    decision (as before); ``pause`` seconds between the start and the decision."""
    out = subprocess.run([sys.executable, "-c", FIRST_DECISION, "early" if early else "late",
                          str(pause)], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout
    return float(out)


def children_cpu() -> float:
    """User and system CPU seconds of the reaped child processes so far."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_caches() -> None:
    """Empty the kiosk's caches of laid-out, rendered and placed texts and fit answers
    (``companion.kiosk.textcache``) and of wrapped lines (``linebreak``): the next frame draws
    every text as the first frame of a new screen does (the fonts stay loaded), and of the
    other languages' catalogues and line breakers' glossaries (read at a language's first
    frame)."""
    from companion.kiosk import i18n, linebreak, logcache, retained, textcache

    textcache.clear()
    retained.clear()  # the parts kept whole, and the keys seen once
    linebreak.clear_cache()  # the wrapped lines, units and glossaries
    if i18n.language() == "en":
        i18n._loaded.clear()  # (read again at the next use)
    logcache.clear()  # the game log kept, and its lines measured


def render() -> None:
    """The busiest screens, each drawn as the first frame of the screen (cold caches: every
    text laid out and rendered) and redrawn (warm: what did not change comes from the
    caches)."""
    import pygame

    from companion.journal import Journal
    from companion.kiosk.app import App
    from companion.kiosk.config import Config
    from companion.kiosk.screens.game import open_game
    from companion.kiosk.screenshots import find_prefixes

    pygame.display.init()
    pygame.font.init()
    cases = [("pillars", step, find_prefixes("pillars", [step])[step])
             for step in ("market", "cathedral", "place")]
    cases.append(("builders", "turn with sites",
                  find_prefixes("builders", ["turn-sites"], players=4)["turn-sites"]))
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "journal.sqlite3")
        for size in ((800, 480), (720, 1280)):
            app = App(Config(sound=False), size=size, fullscreen=False, journal=journal,
                      config_path=Path(tmp) / "config.toml")
            for game, step, (setup, actions) in cases:
                app.session = journal.start(setup, seed=0)
                for a in actions:
                    app.session.play(a)
                open_game(app)
                app.render(force=True)  # fonts and glyph caches warm, as after the first frame
                label = f"render {game} {step} at {size[0]}x{size[1]}"
                for kind, frames, before in (("first frame, cold", 20, cold_caches),
                                             ("redrawn, warm", 40, None)):
                    times = []
                    for _ in range(frames):
                        if before is not None:
                            before()
                        t0 = time.process_time()
                        app.render(force=True)
                        times.append(time.process_time() - t0)
                    what = f"{label} ({kind})"
                    print(f"{what}: {summary(times, 1000, '{:.1f}', what=what)} ms", flush=True)
            thinking(app, size)
        journal.close()


def thinking(app: Any, size: tuple[int, int]) -> None:
    """The companion thinking (the screenshots' scene, Pillars): each move of its indicator
    (8 a second) redraws only its dots (``App.parts``), against the whole screen redrawn."""
    from companion.kiosk.seats import screenshot_scenes

    dict(screenshot_scenes(app.journal))["companion-pillars-thinking"](app)
    app.tick(0)
    app.render(force=True)
    times: dict[str, list[float]] = {"dots only": [], "whole screen": []}
    for k in range(80):
        app.time += 1 / 8
        app.tick(0)
        kind = "dots only" if k % 2 else "whole screen"
        t0 = time.process_time()
        app.render(force=kind == "whole screen")
        times[kind].append(time.process_time() - t0)
    app.companion.close()
    for kind, values in times.items():
        what = f"thinking indicator at {size[0]}x{size[1]}, {kind}"
        print(f"{what}: {summary(values, 1000, '{:.2f}', what=what)} ms", flush=True)


def moves(count: int = 80) -> None:
    """What a table sees: the frame drawn after each move of a seeded random 4-player game
    (``count`` decisions from the start, chance drawn at random), each move taken as the kiosk
    takes it (its preview first where the screen shows one, then Confirm; then each hand-out
    step confirmed and each result on show continued), the caches as the moves before left
    them.  After each of the ``PAUSES``: with the table's pause before each tap (the kiosk's
    idle time draws the frames a tap may bring, ``lookahead``: every frame ahead drawn), a
    tap half a second or a quarter of a second after the last on a Pi 4, and with taps in
    quick succession (nothing drawn ahead).  The frames after decisions, reveals, previews,
    hand-out steps and results continued are reported apart, and with
    the look-ahead what it costs: a frame drawn ahead and the CPU time a position's frames
    ahead take (the pause a table must leave for all of them)."""
    _each_table(_moves, count)


PI4_FACTOR = 12.8
"""The factor from this machine's Python to a 1.8 GHz Pi 4's, for the model of the main
loop's passes on a Pi (``_draw_ahead``): the factor measured by the loop timed just before
each part (``main``; the machine's speed drifts, and a loaded machine's CPU time stretches
the frames it models); 12.8, the cautious factor of ``docs/notes/pi-lab.md``, without it
(``--no-scale``)."""

PAUSES: tuple[float | None, ...] = (math.inf, 0.5, 0.25, None)
"""How long after the last frame each tap comes, in a Pi 4's seconds: ``inf``, the table's
pause (every frame ahead drawn); 0.5, a quick tap (the frames ahead a Pi 4's idle passes draw
in half a second, modelled by ``_draw_ahead``); 0.25, the quickest hand (a quarter of a
second: about a person's reaction to a new picture, before the finger moves); None, nothing
drawn ahead (taps faster than a hand: a program's, or two fingers at once)."""


def _each_table(measure: Callable[[Path, str, tuple[int, int], int, float | None], None],
                count: int) -> None:
    """``measure`` each game at both display sizes, after each of the ``PAUSES``."""
    import pygame

    pygame.display.init()
    pygame.font.init()
    with tempfile.TemporaryDirectory() as tmp:
        for size in ((800, 480), (720, 1280)):
            for name in ("pillars", "builders"):
                for pause in PAUSES:
                    measure(Path(tmp), name, size, count, pause)


def how_of(pause: float | None) -> str:
    if pause is None:
        return "taps in quick succession"
    if pause == math.inf:
        return "with the table's pause (drawn ahead)"
    return f"a tap {pause:g} s after the last on a Pi 4 (what its idle passes draw ahead)"


def _table(tmp: Path, label: str, name: str, size: tuple[int, int], seed: int) -> Any:
    """A kiosk (caches empty) showing a new 4-player game of ``name``, seeded ``seed``, with
    its own journal in ``tmp``: the app (its journal is ``app.journal``)."""
    from companion.engine import get_game
    from companion.journal import Journal
    from companion.kiosk.app import App
    from companion.kiosk.config import Config
    from companion.kiosk.screens.game import open_game

    cold_caches()
    journal = Journal.open(tmp / f"{label}-{name}-{size[0]}x{size[1]}.sqlite3")
    app = App(Config(sound=False), size=size, fullscreen=False, journal=journal,
              config_path=tmp / "config.toml")
    app.session = journal.start(get_game(name).setup(4), seed=seed)
    open_game(app)
    app.render(force=True)
    memory.settle()  # (as the main loop does after its first frame)
    return app


def timed_frame(app: Any) -> float:
    """The CPU seconds of the frame after a tap (``App.render``), then what the main loop's
    pass does after its frame (``memory.collect``, not idle)."""
    _IN_FRAME[0] = True
    FRAMES[0] += 1
    t0 = time.process_time()
    try:
        app.render(force=True)
    finally:
        _IN_FRAME[0] = False
    spent = time.process_time() - t0
    memory.collect(idle=False)
    return spent


_IN_FRAME = [False]
FRAMES = [0]
"""Frames timed by ``timed_frame``."""
COLLECTIONS: list[tuple[int, float, bool]] = []
"""Each collection of Python's garbage collector in the parts (its generation, its seconds,
whether inside a frame timed by ``timed_frame``)."""
_STARTED = [0.0]


def _collector(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _STARTED[0] = time.perf_counter()
    else:
        COLLECTIONS.append((info["generation"], time.perf_counter() - _STARTED[0],
                            _IN_FRAME[0]))


def collector_report() -> None:
    """The collector's pauses, by generation: how many, the longest, those inside a frame
    after a tap (the kiosk collects the oldest in its idle time: ``memory``)."""
    for gen in range(3):
        found = [(t, inside) for g, t, inside in COLLECTIONS if g == gen]
        if not found:
            continue
        inside = [t for t, in_frame in found if in_frame]
        print(f"the collector, generation {gen}: {len(found)} collections, the longest "
              f"{max(t for t, _i in found) * 1000:.1f} ms; inside the {FRAMES[0]} frames "
              f"after a tap: {len(inside)}"
              + (f", the longest {max(inside) * 1000:.1f} ms" if inside else ""), flush=True)


def random_move(game: Any, state: Any, rng: random.Random) -> Any:
    """A chance outcome drawn by its odds where the table reveals, else any legal action."""
    from companion.engine import CHANCE
    from companion.engine.simulate import sample

    if game.current_player(state) == CHANCE:
        return sample(game.chance_outcomes(state), rng)
    return rng.choice(game.legal_actions(state))


def _draw_ahead(app: Any, within: float = math.inf) -> list[float]:
    """The frames ahead drawn as the idle main loop draws them while the table moves its
    pieces: all of them, or those a Pi 4 draws ``within`` seconds (a model of its passes:
    each pass starts frames until ``lookahead.SLICE`` has gone, at least one, and lasts at
    least 1/``LOOP_HZ``; a frame's time is its CPU time here times ``PI4_FACTOR``; a frame
    started before the tap counts as drawn).  The CPU seconds of each frame here."""
    times: list[float] = []
    for pass_ in _passes(app, within):
        times.extend(pass_)
    return times


def _passes(app: Any, within: float) -> Iterator[list[float]]:
    from companion.kiosk.app import LOOP_HZ
    from companion.kiosk.lookahead import SLICE

    clock = 0.0  # a Pi 4's seconds since the frame on screen
    while clock < within:
        drawn: list[float] = []
        while not drawn or sum(drawn) * PI4_FACTOR < SLICE:
            t0 = time.process_time()
            if not app.ahead.run(app.screen, app.surface, 0.0, lambda: False):
                memory.collect(idle=True, done=app.ahead.done)  # (as the main loop does)
                yield drawn
                return
            memory.collect(idle=True)  # (a pass that drew ahead: the idle time, counted in)
            drawn.append(time.process_time() - t0)
        yield drawn
        clock += max(1 / LOOP_HZ, sum(drawn) * PI4_FACTOR)


def modelled_wall(frames: list[float], slice_: float) -> float:
    """How long a Pi 4's idle passes take to draw ``frames`` (CPU seconds here each) with
    ``slice_`` seconds a pass (the model of ``_passes``)."""
    from companion.kiosk.app import LOOP_HZ

    wall, k = 0.0, 0
    while k < len(frames):
        spent = 0.0
        while k < len(frames) and (spent == 0.0 or spent < slice_):
            spent += frames[k] * PI4_FACTOR
            k += 1
        wall += max(1 / LOOP_HZ, spent)
    return wall


def _moves(tmp: Path, name: str, size: tuple[int, int], count: int,
           ahead: float | None) -> None:
    from companion.engine import CHANCE, TERMINAL, get_game
    from companion.kiosk.screens.base import GameScreen

    app = _table(tmp, f"moves-{ahead}", name, size, seed=0)
    game, rng = get_game(name), random.Random(3)
    times: dict[bool, list[float]] = {False: [], True: []}  # by: after a reveal?
    frames_ahead: list[float] = []
    positions: list[list[float]] = []

    def pause() -> None:  # the table moves its pieces: the idle passes draw ahead
        if ahead is not None:
            frames_ahead.extend(drawn := _draw_ahead(app, ahead))
            positions.append(drawn)

    def frame(into: list[float]) -> None:
        into.append(timed_frame(app))

    previews: list[float] = []
    picks: list[float] = []
    handouts: list[float] = []
    results: list[float] = []
    while (len(times[False]) < count and isinstance(app.screen, GameScreen)
           and game.current_player(app.session.state) != TERMINAL):
        pause()
        screen, state = app.screen, app.session.state
        chance = game.current_player(state) == CHANCE
        # as the kiosk takes a move: the first tap it needs (a worker picked for a send),
        # its preview first where the screen shows one (a card shown, picked or read), then
        # Confirm; then each hand-out step confirmed
        action = random_move(game, state, rng)
        for first in _first_taps(screen, action):
            first()
            frame(picks)
            pause()
        screen.propose(action)
        if screen.preview is not None:
            frame(previews)
            pause()
            screen.confirm_preview()
        frame(times[chance])
        while app.screen is screen and (tap := _waiting_tap(screen)) is not None:
            pause()  # each hand-out step confirmed, each result on show continued
            tap()
            frame(handouts if tap == screen.confirm_handout else results)
    app.journal.close()
    for label, values in (("a worker picked", picks), ("a preview", previews),
                          ("a hand-out step confirmed", handouts),
                          ("Continue on a result", results)):
        if not values:
            continue
        what = f"render after {label}, {name} at {size[0]}x{size[1]}, {how_of(ahead)}"
        print(f"{what} ({len(values)} frames): {summary(values, 1000, '{:.1f}', what=what)} ms",
              flush=True)
    how = how_of(ahead)
    for chance, label in ((False, "decision"), (True, "reveal (confirmed)")):
        what = f"render after each {label}, {name} at {size[0]}x{size[1]}, {how}"
        print(f"{what} ({len(times[chance])} moves): "
              f"{summary(times[chance], 1000, '{:.1f}', what=what)} ms", flush=True)
    if ahead == math.inf:
        _ahead_costs(f"{name} at {size[0]}x{size[1]}", frames_ahead, positions)


def _first_taps(screen: Any, action: Any) -> list[Callable[[], object]]:
    """The taps the kiosk needs before it takes ``action`` (their frames drawn as the table
    sees them): The Builders' send, its worker picked first (a site's button sends the worker
    picked); none for the rest."""
    from companion.builders.actions import Send

    if isinstance(action, Send):
        return [partial(screen.mine.select, action.worker)]
    return []


def _waiting_tap(screen: Any) -> Callable[[], object] | None:
    """What the screen waits for the table to tap before the game goes on: the hand-out
    step on show's Confirm, else a result's Continue (a round's points, what an event did:
    the table reads it and taps on), else None."""
    if screen.handouts.current is not None:
        return screen.confirm_handout  # type: ignore[no-any-return]
    return next((b.on_tap for b in screen.buttons if b.key == "continue"), None)


def _ahead_costs(label: str, frames: list[float], positions: list[list[float]]) -> None:
    """What drawing ahead costs: a frame, a position's frames (CPU here), and how long a Pi 4's
    idle passes take to draw them (modelled, ``modelled_wall``) with 4 ms a pass (before) and
    with ``lookahead.SLICE``."""
    from companion.kiosk.lookahead import SLICE

    what = f"a frame drawn ahead, {label}"
    print(f"{what} ({len(frames)} frames): {summary(frames, 1000, '{:.1f}', what=what)} ms",
          flush=True)
    what = f"the frames ahead of a position, {label}"
    print(f"{what} ({len(positions)} positions): "
          f"{summary([sum(p) for p in positions], 1000, '{:.0f}', what=what)} ms of CPU",
          flush=True)
    for slice_ in (0.004, SLICE):
        walls = [modelled_wall(p, slice_) for p in positions]
        print(f"  all drawn on a Pi 4 (modelled, x{PI4_FACTOR:.1f}, {slice_ * 1000:.0f} ms a "
              f"pass): {summary(walls, 1, '{:.2f}')} s", flush=True)


TAP_SKIP = {"menu", "log", "table check", "help", "hint", "language"}
"""Buttons the taps leave alone: they leave the game's screen or wait for the companion."""


def taps(count: int = 150) -> None:
    """What a table's finger sees: ``count`` seeded random taps on a 4-player game's enabled
    buttons (moves, previews and their Confirm, selections, pages, hand-out steps, now and then
    Undo, Cancel or a tableau), the frame after each; with the table's pause before each tap
    (every frame ahead drawn, as the idle main loop does) and with taps in quick succession."""
    _each_table(_taps, count)


def _tap_choice(buttons: list[Any], rng: random.Random) -> Any:
    """Mostly a move (or its Confirm); one tap in ten Undo, Cancel, a tableau opened or
    closed, a card or space read (as ``tests/test_retained.py`` walks)."""
    buttons = [b for b in buttons if b.enabled and b.key not in TAP_SKIP and b.rect.width > 0]
    rare = {"undo", "cancel", "close tableau"}
    if rng.random() < 0.1:
        buttons = [b for b in buttons if b.key in rare or b.extra.get("area")] or buttons
    else:
        buttons = ([b for b in buttons if not (b.key in rare or b.extra.get("area"))]
                   or buttons)
    return rng.choice(buttons) if buttons else None


def _taps(tmp: Path, name: str, size: tuple[int, int], count: int,
          ahead: float | None) -> None:
    import pygame

    app = _table(tmp, f"taps-{ahead}", name, size, seed=5)
    rng = random.Random(5)
    times: list[float] = []
    for _ in range(count):
        if app.session is None:
            break
        if ahead is not None:
            _draw_ahead(app, ahead)
        b = _tap_choice(app.screen.buttons, rng)
        if b is None:
            break
        app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b.rect.center, button=1,
                                            touch=False))
        app.tick(0.05)
        times.append(timed_frame(app))
    app.journal.close()
    what = f"render after each tap, {name} at {size[0]}x{size[1]}, {how_of(ahead)}"
    print(f"{what} ({len(times)} taps): {summary(times, 1000, '{:.1f}', what=what)} ms",
          flush=True)


def screens(games: int = 3) -> None:
    """The first frame of each screen a table walks through, and the tap's own work: the
    kiosk starts on the home screen with an unfinished game of ``games`` x 120 actions in the
    journal and a finished one; History, the finished game (its end screen), Back, Back,
    Settings, Chinese, Japanese, English (the language's first frame: its catalogue, fonts
    and line breaker loaded the first time), a quarter turn and back, Back, Resume, six
    moves, the log, Back, the menu (home), Resume again, the menu, New game, Start.  With
    the table's pause before each tap (every frame ahead drawn: the home screen makes the
    screens it leads to and replays Resume's game, the set-up screen makes the new game's,
    the game keeps its log, ``screens.prepare``), a quarter of a second after the last on a
    Pi 4 (what its idle passes draw in that time) and in quick succession.  The frame after
    each tap (CPU), and the tap's own work (Resume replays the game when it was not
    replayed ahead)."""
    import pygame

    pygame.display.init()
    pygame.font.init()
    with tempfile.TemporaryDirectory() as tmp:
        for size in ((800, 480), (720, 1280)):
            for name in ("pillars", "builders"):
                for pause in (math.inf, 0.25, None):
                    frames, taps_ = _walk(Path(tmp), name, size, games * 120, pause)
                    how = how_of(pause)
                    for label, values in (("first frame", frames), ("tap's work", taps_)):
                        print(f"screens, {name} at {size[0]}x{size[1]}, {how}, {label}: "
                              + ", ".join(f"{k} {v * 1000:.1f}" for k, v in values)
                              + " ms", flush=True)
                        what = f"screens' {label}, {name} at {size[0]}x{size[1]}, {how}"
                        MEASURED.append((what, max(v for _k, v in values)))


def _walk(tmp: Path, name: str, size: tuple[int, int], actions: int, pause: float | None
          ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    import pygame

    from companion.engine import get_game
    from companion.journal import Journal
    from companion.kiosk.app import App
    from companion.kiosk.config import Config

    cold_caches()
    journal = Journal.open(tmp / f"walk-{name}-{size[0]}-{pause}.sqlite3")
    game, rng = get_game(name), random.Random(4)
    session = journal.start(game.setup(4), seed=4)
    while len(session.playthrough.actions) < actions and not game.is_over(session.state):
        state = session.state
        session.play(random_move(game, state, rng))
    pillars = get_game("pillars")  # a finished game in the history (The Pillars: it ends)
    done = journal.start(pillars.setup(4), seed=5)
    while not pillars.is_over(done.state):
        done.play(random_move(pillars, done.state, rng))
    app = App(Config(sound=False), size=size, fullscreen=False, journal=journal,
              config_path=tmp / "config.toml")
    app.render(force=True)
    memory.settle()
    frames: list[tuple[str, float]] = []
    taps_: list[tuple[str, float]] = []

    def tap(key: str, label: str) -> None:
        if pause is not None:
            _draw_ahead(app, pause)
        b = next(b for b in app.screen.buttons if b.key == key and b.enabled)
        t0 = time.process_time()
        at = _on_display(app, b.rect.center)
        app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=1,
                                            touch=False))
        taps_.append((label, time.process_time() - t0))
        app.tick(0.05)
        frames.append((label, timed_frame(app)))

    for key, label in (("history", "history"), (f"game {done.id}", "a finished game"),
                       ("back", "history again"), ("back", "home"), ("settings", "settings"),
                       ("language zh", "Chinese"), ("language ja", "Japanese"),
                       ("language en", "English"), ("rotation 90", "a quarter turn"),
                       ("rotation 0", "turned back"), ("back", "home"),
                       ("resume", "game resumed")):
        tap(key, label)
    for _ in range(6):
        app.screen.propose(random_move(game, app.session.state, rng))
        if app.screen.preview is not None:
            app.screen.confirm_preview()
        while app.screen.handouts.current is not None:
            app.screen.confirm_handout()
        app.render(force=True)
    for key, label in (("log", "log"), ("back", "game"), ("menu", "home"),
                       ("resume", "game resumed again"), ("menu", "home"), ("new", "set-up"),
                       ("start", "new game")):
        tap(key, label)
    journal.close()
    return frames, taps_


def _on_display(app: Any, pos: tuple[int, int]) -> tuple[int, int]:
    """Where on the display to touch ``pos`` of the picture, turned as the app turns it
    (the inverse of ``app.unrotate``)."""
    x, y = pos
    w, h = app.display.get_size()
    return {90: (w - 1 - y, x), 180: (w - 1 - x, h - 1 - y),
            270: (y, h - 1 - x)}.get(app.rotation, (x, y))


def camera(frames: int) -> None:
    import numpy as np

    from companion.vision.pipeline import Pipeline
    from companion.vision.synth import Conditions, render_scene

    rng = np.random.default_rng(7)
    for size in ((640, 360), (1280, 720)):
        cond = Conditions(size=size, cards=(2, 5))
        scenes = [render_scene(rng, [int(m) for m in rng.choice(40, 4, replace=False)], cond)
                  for _ in range(frames)]
        pipeline = Pipeline()
        pipeline.step(scenes[0].frame, now=0.0)
        times = []
        for k, scene in enumerate(scenes):
            t0 = time.process_time()
            pipeline.step(scene.frame, now=k / 30)
            times.append(time.process_time() - t0)
        label = f"camera frame {size[0]}x{size[1]}"
        print(f"{label} (every frame changed, {len(times)} frames): "
              f"{summary(times, 1000, '{:.1f}', what=label)} ms", flush=True)


def start(runs: int) -> None:
    times = []
    cpu_times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            sock_path = str(Path(tmp) / "notify")
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.bind(sock_path)
            sock.settimeout(300)
            env = {**os.environ, "NOTIFY_SOCKET": sock_path, "XDG_DATA_HOME": f"{tmp}/data",
                   "XDG_CONFIG_HOME": f"{tmp}/config", "XDG_STATE_HOME": f"{tmp}/state",
                   "HOME": tmp}
            t0 = time.perf_counter()
            c0 = children_cpu()
            proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "kiosk", "--windowed", "--size", "800x480"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                while True:
                    message = sock.recv(4096).decode()
                    if "READY=1" in message:
                        times.append(time.perf_counter() - t0)
                        break
            finally:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                sock.close()
            cpu_times.append(children_cpu() - c0)  # to READY=1, and the few ms of its stop
    print(f"start to the first frame (READY=1), {len(times)} runs: {summary(times)} s wall, "
          f"{summary(cpu_times, what='start to the first frame (CPU)')} s of CPU", flush=True)


def cpu(runs: int = 3) -> None:
    """7-Zip's single-threaded rating here, the best of ``runs`` (sbc-bench reports the best of
    its runs too).  The "R/U" column: the rating per 100 % of one core, which a shared machine
    does not lower the way it lowers the wall-clock rating (on an idle Pi the two are equal)."""
    seven = shutil.which("7za") or shutil.which("7zr")
    if seven is None:
        print("cpu: no 7za (apt install p7zip-full): no scale factor")
        return
    best = 0
    for _ in range(runs):
        out = subprocess.run(["taskset", "-c", "0", seven, "b", "-mmt=1"], capture_output=True,
                             text=True, check=True).stdout
        m = re.search(r"^Tot:\s+(\d+)\s+(\d+)\s+(\d+)", out, flags=re.M)
        if m is None:
            print("cpu: 7za printed no Tot: line")
            return
        usage, per_usage, rating = (int(g) for g in m.groups())
        print(f"cpu: 7za b -mmt=1: usage {usage} %, R/U {per_usage} MIPS, rating {rating} MIPS",
              flush=True)
        best = max(best, per_usage)
    print(f"cpu: 7-Zip single-threaded here {best} MIPS (best R/U); a Pi is slower by"
          + ",".join(f" {name} x{best / mips:.2f}" for name, mips in PI_7ZIP_MIPS.items()))


def loop_seconds(share: int = 10) -> float:
    """The published Pi 4 loop (see PI4_LOOP_SECONDS) in CPU seconds here: 1/``share`` of its
    10,000 iterations, scaled up (the loop is uniform)."""
    t0 = time.process_time()
    for _ in range(10000 // share):
        for x in range(1, 1000):
            3.141592 * 2**x
        for x in range(1, 10000):
            float(x) / 3.141592
        for x in range(1, 10000):
            float(3.141592) / x  # noqa: UP018 - the published loop, as it is
    return (time.process_time() - t0) * share


def factors(here: float) -> dict[str, float]:
    """How much slower each Pi is than this machine, from the loop's time here."""
    return {name: PI4_LOOP_SECONDS * slower / here for name, slower in PI_LOOP_SLOWER.items()}


def loop() -> None:
    here = loop_seconds(1)
    print(f"loop: cpu-benchmark's loop {here:.2f} s of CPU here (a Pi 4 about "
          f"{PI4_LOOP_SECONDS:.1f} s on CPython 3.11); a Pi is slower by"
          + ",".join(f" {name} x{f:.1f}" for name, f in factors(here).items()), flush=True)


def scaled(before: float, after: float) -> None:
    """The part's p95s on each Pi, with the factor from the loop timed just before and after
    it (a shared machine's speed drifts: the part and its factor are measured together)."""
    here = (before + after) / 2
    f = factors(here)
    print(f"  on a Pi (the loop around this part: {before:.2f} s and {after:.2f} s of CPU; "
          + ", ".join(f"{name} x{v:.1f}" for name, v in f.items()) + "), p95:", flush=True)
    for what, seconds in MEASURED:
        unit, scale = ("ms", 1000) if seconds < 0.1 else ("s", 1)
        print(f"    {what}: here {seconds * scale:.{1 if unit == 'ms' else 2}f} {unit}; "
              + ", ".join(f"{name} {seconds * scale * v:.{0 if unit == 'ms' else 1}f} {unit}"
                          for name, v in f.items()), flush=True)
    MEASURED.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="positions a game (think)")
    parser.add_argument("--frames", type=int, default=30, help="camera frames a size")
    parser.add_argument("--starts", type=int, default=3, help="kiosk starts")
    parser.add_argument("--no-scale", dest="scale", action="store_false",
                        help="no Pi estimates (under qemu the loop measures emulation)")
    parser.add_argument("--only",
                        default="loop,think,worker,render,moves,taps,screens,camera,start",
                        help="comma-separated parts")
    args = parser.parse_args()
    import platform

    print(f"bench_pi on {platform.machine()}, Python {platform.python_version()}, "
          f"{os.cpu_count()} cores", flush=True)
    parts = args.only.split(",")
    memory.take_over()  # the oldest generation collected in the idle time, as the kiosk does
    import gc

    gc.callbacks.append(_collector)
    for part in parts:
        workload = part in ("think", "worker", "render", "moves", "taps", "screens", "camera",
                            "start", "first")
        before = loop_seconds() if workload and args.scale else 0.0
        if before:
            global PI4_FACTOR
            PI4_FACTOR = factors(before)["Pi 4 (1.8 GHz)"]
        if part == "think":
            think(args.positions)
        elif part == "worker":
            worker(args.positions)
        elif part == "render":
            render()
        elif part == "moves":
            moves()
        elif part == "taps":
            taps()
        elif part == "screens":
            screens()
        elif part == "camera":
            camera(args.frames)
        elif part == "start":
            start(args.starts)
        elif part == "cpu":
            cpu()
        elif part == "loop":
            loop()
        else:
            parser.error(f"unknown part {part!r}")
        if workload and args.scale:
            scaled(before, loop_seconds())
    if set(parts) & {"moves", "taps", "screens"}:
        collector_report()


if __name__ == "__main__":
    main()
