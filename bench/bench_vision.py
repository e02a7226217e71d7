"""Benchmarks of the camera; prints its figures.

    .venv/bin/python bench/bench_vision.py [--frames N] [--seed S] [--only PART]
    .venv-pi/bin/python bench/bench_vision.py ...      # the Pi's OpenCV 4.11 and numpy 1.x

Parts (``--only`` runs one):

- ``reads``: read rates and wrong ids on generated frame sets (``synth.py``: marked cards on a
  table, tilted, turned, unevenly lit, noisy, JPEG-compressed), one set per hard case --
  standard, small markers, defocus, motion blur, glare, a finger beside the marker, a busy
  board, a realistic table at 25 px -- without the foreign-marker check (before issue 50) and
  with it, on the same frames;
- ``speed``: the whole pipeline (``CameraThread.cycle``: source read, frame check, change
  check, detection, registry, tracker, status) against OpenCV's raw detector
  (``ArucoDetector`` with OpenCV's default ``DetectorParameters``) on the same frames, at
  1280x720 and 1920x1080 on plain, wooden and busy-board backgrounds; interleaved rounds, the
  median ratio (target at most 1.10);
- ``idle``: the real loop: the camera's thread running at 30 frames a second on a source that
  waits for each frame's time, watching a still busy board with 24 stickered cards (fresh
  sensor noise in every frame), in steady light and under +-2.5 % mains flicker rolling down
  the frame, reading and table mode, at 1280x720 and 1920x1080: process CPU over wall time
  (target at most 1 % of one core);
- ``latency``: the same real loop; the board's 24 cards lying still, a card appears at a random
  moment (held up in reading mode, laid in table mode); the time until its event is posted,
  median and slowest of ``--trials`` (15) at each size and mode (target at most 150 ms);
- ``ghosts``: frames with no marker but 40 faint, blurred, bordered random 6x6 patterns each
  (what a texture that looks like a marker is) on the three backgrounds: every id found is a
  false read (must be 0), before and now;
- ``icons``: printed boards with marker-shaped icons (``synth.icon_board``: their own patterns
  and near misses 3-4 bits from a sticker), and the other common 6x6 dictionaries' markers
  nearest to ours: ids reported before and now (the pipeline, with the white-margin check);
- ``moving``: a card waved in front of the camera (each frame smeared 4-12 px, as the audit's
  moving cards): how often it is read within half a second, frames analysed, and how often
  the kiosk is asked to say "hold the card still";
- ``foreign``: the other common dictionaries' markers within 5 bits of ours, rendered on cards
  clean, blurred, tilted and both at 30-60 px, and the nearest six and the audit's AprilTag
  36h11 #22 in the audit's blur and tilt through the reading and table pipelines too: ids of
  ours read, before issue 50 and now; our nearest stickers in the same renders;
- ``table``: table mode under a camera tilted 0-30 degrees with none, one or two corners
  covered (and a camera knocked with two covered): cards in their zone, the largest error of a
  card's place.

"before" means the code before the issue named; the machine is shared: compare timings as
ratios within one run, and run the timed parts a few times.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.vision import detect, synth  # noqa: E402
from companion.vision.detect import Detector, Grey, dictionary, fixed_rate_parameters  # noqa: E402
from companion.vision.markers import CORNER_MARKERS, REGISTRY  # noqa: E402
from companion.vision.pipeline import (  # noqa: E402
    CameraThread,
    CardTracker,
    ChangeCheck,
    Pipeline,
    Reading,
)
from companion.vision.sources import CameraConfig  # noqa: E402

C = synth.Conditions
CARDS = sorted(m for m in REGISTRY if REGISTRY[m].game != "table")
SETS: dict[str, synth.Conditions] = {
    "standard (24-90 px, 0-60 deg)": C(),
    "small (18-24 px)": C(marker_px=(18.0, 24.0), max_tilt=30.0),
    "defocus (3 px disc)": C(defocus=(3.0, 3.0), marker_px=(25.0, 60.0), max_tilt=30.0,
                             blur=(0.0, 0.5)),
    "motion blur (3 px)": C(motion=(3.0, 3.0), marker_px=(25.0, 60.0), max_tilt=30.0,
                            blur=(0.0, 0.5)),
    "motion blur (6 px)": C(motion=(6.0, 6.0), marker_px=(25.0, 60.0), max_tilt=30.0,
                            blur=(0.0, 0.5)),
    "motion blur (4-12 px)": C(motion=(4.0, 12.0), marker_px=(25.0, 60.0), max_tilt=30.0,
                               blur=(0.0, 0.5)),
    "glare": C(glare=1.0, marker_px=(30.0, 60.0), max_tilt=30.0),
    "finger": C(finger=1.0, marker_px=(30.0, 60.0), max_tilt=30.0),
    "busy board (25-45 px)": C(background="busy", marker_px=(25.0, 45.0), max_tilt=30.0),
    "table at 25 px (busy, 8-16 cards)": C(background="busy", cards=(8, 16),
                                           marker_px=(25.0, 25.0), max_tilt=20.0,
                                           blur=(0.3, 1.0), jpeg=(70, 92)),
}


def before_detector() -> Detector:
    """The detector before issue 25: a fixed correction rate, the whole frame searched, no
    foreign-marker check."""
    return Detector(fixed_rate_parameters(), downscale=False, foreign_check=False)


class OldChangeCheck(ChangeCheck):
    """The still-frame check before issue 25: 10-pixel cells, a plain difference."""

    def __init__(self) -> None:
        super().__init__(cell=10)

    def small(self, grey: Grey) -> object:
        h, w = grey.shape[:2]
        return cv2.resize(grey, (w // 10, h // 10), interpolation=cv2.INTER_AREA)

    def changed(self, small: object) -> bool:
        ref = self.reference
        if ref is None or ref.shape != small.shape:  # type: ignore[attr-defined]
            return True
        return float(cv2.absdiff(ref, small).max()) > self.threshold  # type: ignore[arg-type]


class Frames:
    """An in-memory source: the frames in turn, forever."""

    def __init__(self, frames: Sequence[Grey]) -> None:
        self.frames = frames
        self.i = 0

    def read(self) -> Grey | None:
        frame = self.frames[self.i % len(self.frames)]
        self.i += 1
        return frame

    def close(self) -> None:
        pass


def reads(frames: int, seed: int) -> None:
    print(f"reads: {frames} generated 1280x720 frames per set (seed {seed}); found / markers, "
          "wrong ids; before issue 50 (no foreign-marker check) -> now")
    before, now = Detector(foreign_check=False), Detector()
    total = [synth.Score(), synth.Score()]
    for k, (name, cond) in enumerate(SETS.items()):
        scores = [synth.Score(), synth.Score()]
        for scene in synth.scenes(seed + k, frames, CARDS, cond):
            for i, det in enumerate((before, now)):
                found = [(m.id, m.centre) for m in det.detect(scene.frame)]
                scores[i].add(scene.truth, found)
                total[i].add(scene.truth, found)
        b, n = scores
        print(f"  {name:36} {b.found:4}/{b.total:<4} {100 * b.rate:5.1f} % {b.wrong} wrong -> "
              f"{n.found:4}/{n.total:<4} {100 * n.rate:5.1f} % {n.wrong} wrong")
    b, n = total
    print(f"  {'all sets':36} {b.found:4}/{b.total:<4} {100 * b.rate:5.1f} % {b.wrong} wrong -> "
          f"{n.found:4}/{n.total:<4} {100 * n.rate:5.1f} % {n.wrong} wrong")


def timed(fn: Callable[[Grey], object], frames: Sequence[Grey]) -> float:
    t0 = time.perf_counter()
    for f in frames:
        fn(f)
    return (time.perf_counter() - t0) / len(frames)


def speed(seed: int, rounds: int = 15) -> None:
    print("speed: ms per frame, raw detector (OpenCV defaults) vs the whole pipeline, same "
          f"frames (12 per case, 2-5 cards of 30-80 px), {rounds} interleaved rounds: the best "
          "round of each (the least disturbed by the machine's other work), the median of the "
          "rounds' ratios, and the same pipeline with the detector before issue 25")
    raw = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters())
    for size in ((1280, 720), (1920, 1080)):
        for bg in ("plain", "wood", "busy"):
            frames = [s.frame for s in synth.scenes(
                seed, 12, CARDS, C(size=size, background=bg, marker_px=(30.0, 80.0)))]
            threads = []
            for det in (Detector(), before_detector()):
                t = CameraThread(lambda fr=frames: Frames(fr),  # type: ignore[misc]
                                 Pipeline(det, CardTracker()), rate=1e9)
                t.cycle()  # open the source
                threads.append(t)
            runs: list[Callable[[Grey], object]] = [
                raw.detectMarkers,
                lambda _f, t=threads[0]: t.cycle(),  # type: ignore[misc]
                lambda _f, t=threads[1]: t.cycle(),  # type: ignore[misc]
            ]
            times: list[list[float]] = [[], [], []]
            for k in range(rounds):  # each first in turn: none gets the warmer caches
                for j in [(k + i) % 3 for i in range(3)]:
                    times[j].append(timed(runs[j], frames))
            a, w, old = (min(t) for t in times)
            ratio = statistics.median(p / q for p, q in zip(times[1], times[0], strict=True))
            before = statistics.median(p / q for p, q in zip(times[2], times[0], strict=True))
            print(f"  {size[0]}x{size[1]} {bg:5}: raw {1000 * a:6.2f} ms ({1 / a:5.1f} fps), "
                  f"pipeline {1000 * w:6.2f} ms ({1 / w:5.1f} fps): {w / a:.2f}x, median "
                  f"{ratio:.2f}x (target <= 1.10); before {1000 * old:6.2f} ms, median "
                  f"{before:.2f}x")


def noisy_frames(base: np.ndarray, n: int, rng: np.random.Generator, flicker: float = 0.0
                 ) -> list[Grey]:
    """``n`` frames of ``base`` with fresh sensor noise (sigma 3), 1/30 s apart, under light
    swinging by +-``flicker`` at 100 Hz, rolling down the frame (a rolling shutter)."""
    h = base.shape[0]
    rows = np.arange(h, dtype=np.float32)[:, None]
    out = []
    for i in range(n):
        gain = 1 + flicker * np.sin(2 * np.pi * 100 * (i / 30 + rows / h / 30))
        out.append(np.clip(base * gain + rng.normal(0, 3.0, base.shape), 0, 255).astype(
            np.uint8))
    return out


BOARD_CARDS = 24


def busy_board(size: tuple[int, int], seed: int) -> tuple[np.ndarray, list[int]]:
    """A printed board with ``BOARD_CARDS`` stickered cards lying on it (stickers 1/43 to 1/30
    of the frame's width: 30-43 px at 1280, 45-64 px at 1920), without sensor noise; and
    their markers (never ``HELD``)."""
    rng = np.random.default_rng(seed)
    w, _h = size
    pool = np.array([m for m in CARDS if m != HELD])
    markers = [int(m) for m in rng.choice(pool, BOARD_CARDS, replace=False)]
    scene = synth.render_scene(rng, markers, C(
        size=size, background="busy", cards=(BOARD_CARDS, BOARD_CARDS),
        marker_px=(w / 43, w / 30), max_tilt=20.0, blur=(0.3, 0.8), noise=(0.0, 0.0),
        jpeg=(95, 95), light=(0.7, 1.0)))
    return scene.frame.astype(np.float32), markers


HELD = CARDS[9]
"""The card shown in the latency trials."""


class LiveCamera:
    """A camera in real time: a frame every 1/fps seconds, ``read`` giving the next one to be
    taken after it is called (as picamera2 does with ``queue=False``: never a frame from before
    the read); a frame shows the card when all of its exposure (a frame long) came after
    ``appear``."""

    def __init__(self, empty: Sequence[Grey], card: Sequence[Grey], fps: float,
                 appear: float) -> None:
        self.empty, self.card = empty, card
        self.period = 1.0 / fps
        self.appear = appear
        self.start = time.perf_counter()
        self.i = 0

    def read(self) -> Grey:
        now = time.perf_counter()
        taken = self.start + math.ceil((now - self.start) / self.period) * self.period
        if taken > now:
            time.sleep(taken - now)
        self.i += 1
        frames = self.card if taken - self.period >= self.appear else self.empty
        return frames[self.i % len(frames)]

    def close(self) -> None:
        pass


def make_tracker(mode: str) -> CardTracker:
    """The tracker with the default settings (``CameraConfig``) in ``mode``."""
    cfg = CameraConfig()
    return CardTracker(cfg.show_frames, cfg.gone_frames, gone_seconds=cfg.gone_seconds,
                       table=mode == "table")


def idle(seed: int, seconds: float = 30.0) -> None:
    """Process CPU over wall time while the camera's thread watches a still busy board."""
    print(f"idle: the camera's thread at 30 frames a second in real time (a source that waits "
          f"for each frame's time), a still busy board with {BOARD_CARDS} stickered cards, "
          f"fresh sensor noise (sigma 3) in every frame, steady light and +-2.5 % mains flicker "
          f"rolling down the frame; process CPU over wall time for {seconds:g} s after 2 s of "
          f"settling (target <= 1 % of one core)")
    rng = np.random.default_rng(seed)
    for size in ((1280, 720), (1920, 1080)):
        base, _markers = busy_board(size, seed)
        for flicker in (0.0, 0.025):
            frames = noisy_frames(base, 30, rng, flicker)
            for mode in ("reading", "table"):
                cam = LiveCamera(frames, frames, 30.0, float("inf"))
                thread = CameraThread(lambda c=cam: c,  # type: ignore[misc]
                                      Pipeline(Detector(), make_tracker(mode)),
                                      rate=CameraConfig().rate)
                thread.start()
                time.sleep(2.0)
                st = thread.status
                f0, a0 = st.frames, st.analysed
                c0, w0 = time.process_time(), time.monotonic()
                time.sleep(seconds)
                c1, w1 = time.process_time(), time.monotonic()
                f1, a1 = st.frames, st.analysed
                thread.stop()
                light = "flicker +-2.5 %" if flicker else "steady light   "
                print(f"  {size[0]}x{size[1]} {mode:7} {light}: {100 * (c1 - c0) / (w1 - w0):5.2f} "
                      f"% of a core ({f1 - f0} frames looked at, {a1 - a0} analysed, "
                      f"{1000 * (c1 - c0) / max(1, f1 - f0):.3f} ms CPU a frame)")


def latency(seed: int, trials: int = 15) -> None:
    cfg = CameraConfig()
    print(f"latency: a card appearing in front of a 30 fps camera in real time over a busy "
          f"board with {BOARD_CARDS} stickered cards lying still in view (learned for 1.5 s "
          f"before), until its event is posted; {trials} trials each, the default settings "
          f"(show_frames {cfg.show_frames}): reading mode (the card held up, 1/20 of the width) "
          "and table mode (laid down, as large as the others) (target <= 150 ms)")
    rng = np.random.default_rng(seed)
    for size in ((1280, 720), (1920, 1080)):
        base, _markers = busy_board(size, seed)
        empty = noisy_frames(base, 6, rng)
        w, h = size
        for mode in ("reading", "table"):
            side = w / 20 if mode == "reading" else w / 36
            held = []
            for _ in range(6):
                centre = (float(rng.uniform(0.3, 0.7)) * w, float(rng.uniform(0.3, 0.7)) * h)
                card, _placed = synth.overlay_card(base, rng, HELD, side, centre)
                held.extend(noisy_frames(card, 1, rng))
            ms, posted = card_times(empty, held, mode, trials, rng)
            figures = (f"median {statistics.median(ms):.0f} ms, slowest {max(ms):.0f} ms"
                       if ms else "never")
            print(f"  {w}x{h} {mode:7}: {figures}, posted in {posted}/{trials} trials "
                  f"(within 3 s)")


def card_times(empty: Sequence[Grey], held: Sequence[Grey], mode: str, trials: int,
               rng: np.random.Generator) -> tuple[list[float], int]:
    """Milliseconds from a card's appearing to its event, in each trial that posted it."""
    times = []
    for _ in range(trials):
        got = threading.Event()
        when: list[float] = []

        def on_reading(r: Reading, got: threading.Event = got, when: list[float] = when
                       ) -> None:
            if r.card is not None and r.card.marker == HELD and not got.is_set():
                when.append(time.perf_counter())
                got.set()

        appear = time.perf_counter() + 1.5 + float(rng.uniform(0, 1 / 30))
        cam = LiveCamera(empty, held, 30.0, appear)
        thread = CameraThread(lambda c=cam: c,  # type: ignore[misc]
                              Pipeline(Detector(), make_tracker(mode)),
                              rate=CameraConfig().rate, on_reading=on_reading)
        thread.start()
        got.wait(4.5)
        thread.stop()
        if when:
            times.append(1000 * (when[0] - appear))
    return times, len(times)


def ghosts(seed: int, frames: int = 150) -> None:
    rng = np.random.default_rng(seed)
    dets = {"before": before_detector(), "now": Detector()}
    found = dict.fromkeys(dets, 0)
    for i in range(frames):
        img = synth.background(rng, (1280, 720), ("wood", "busy", "plain")[i % 3])
        for _ in range(40):
            s = int(rng.integers(16, 60))
            x, y = int(rng.integers(0, 1280 - s)), int(rng.integers(0, 720 - s))
            cells = (rng.random((8, 8)) < 0.5).astype(np.float32)
            cells[0, :] = cells[-1, :] = cells[:, 0] = cells[:, -1] = 0  # the black border
            patch = cv2.resize(cells, (s, s), interpolation=cv2.INTER_NEAREST)
            img[y:y + s, x:x + s] = rng.uniform(40, 200) + rng.uniform(8, 40) * patch
        img = img * rng.uniform(0.2, 1.0) + rng.normal(0, rng.uniform(1, 6), img.shape)
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.5)))
        frame = np.clip(img, 0, 255).astype(np.uint8)
        for name, det in dets.items():
            found[name] += len(det.detect(frame))
    print(f"ghosts: {frames} frames x 40 faint bordered random patterns, no marker: "
          f"{found['before']} false reads before, {found['now']} now (must be 0)")


def icons(seed: int, frames: int = 40) -> None:
    """False reads on printed boards with marker-shaped icons, and of other dictionaries."""
    rng = np.random.default_rng(seed)
    before, now = before_detector(), Detector()
    counts = {"before": 0, "now": 0, "decoded": 0}
    for _ in range(frames):
        frame, _placed = synth.icon_board(rng, CARDS)
        counts["before"] += len(before.detect(frame))
        pipe = Pipeline(now, CardTracker(2, 2), skip_still=False)
        counts["now"] += sum(len(pipe.step(frame, now=k / 30).markers) for k in range(2)) // 2
    print(f"icons: {frames} boards x 24 marker-shaped icons (half their own patterns, half 3-4 "
          f"bits from a sticker): {counts['before']} ids read before, {counts['now']} now")
    exact = [0, 0]
    for _ in range(frames // 2):
        frame, _placed = synth.icon_board(rng, CARDS, flips=(0, 2))
        found = now.detect(frame)
        exact[0] += len(found)
        exact[1] += sum(detect.quiet_zone(frame, m) >= detect.QUIET_SHARE for m in found)
    print(f"  icons carrying a sticker's cells (0-2 bits off: they decode): {exact[0]} decoded, "
          f"{exact[1]} with a printed sticker's white margin (the rest refused)")
    near = []
    ours = np.array([[np.rot90(synth.marker_cells(m), k) for k in range(4)] for m in range(250)])
    for name in ("DICT_6X6_1000", "DICT_APRILTAG_36h11", "DICT_APRILTAG_36h10"):
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
        for i in range(d.bytesList.shape[0]):
            bits = (cv2.aruco.generateImageMarker(d, i, 8, borderBits=1)[1:7, 1:7] > 127)
            if int((ours != bits.astype(np.uint8)).sum(axis=(2, 3)).min()) <= 5:
                near.append((name, i, bits.astype(np.uint8)))
    side, quiet = 60, 20
    img = np.full((side + 2 * quiet, len(near) * (side + 2 * quiet)), 235, np.uint8)
    for k, (_name, _i, bits) in enumerate(near):
        x = k * (side + 2 * quiet) + quiet
        img[quiet:quiet + side, x:x + side] = synth.draw_cells(bits, side, 15, 235)
    print(f"  the {len(near)} markers of ArUco 6X6_1000 and AprilTag 36h10/36h11 within 5 bits "
          f"of ours: {len(before.detect(img))} read before, {len(now.detect(img))} now")


FOREIGN_SETS: dict[str, synth.Conditions] = {
    "clean": C(cards=(1, 1), marker_px=(30.0, 60.0), max_tilt=10.0, blur=(0.0, 0.4),
               noise=(1.0, 3.0), jpeg=(80, 95), light=(0.7, 1.0)),
    "blurred (sigma 0.8-1.5)": C(cards=(1, 1), marker_px=(30.0, 60.0), max_tilt=15.0,
                                 blur=(0.8, 1.5), noise=(1.0, 5.0), jpeg=(60, 92),
                                 light=(0.6, 1.0)),
    "tilted (30-55 deg)": C(cards=(1, 1), marker_px=(30.0, 60.0), max_tilt=55.0,
                            blur=(0.0, 0.6), noise=(1.0, 5.0), jpeg=(60, 92), light=(0.6, 1.0)),
    "blurred and tilted": C(cards=(1, 1), marker_px=(30.0, 60.0), max_tilt=45.0,
                            blur=(0.6, 1.5), noise=(1.0, 5.0), jpeg=(60, 92), light=(0.6, 1.0)),
}
AUDIT_SET = C(cards=(1, 1), marker_px=(30.0, 60.0), max_tilt=45.0, blur=(0.8, 1.5),
              noise=(1.0, 5.0), jpeg=(60, 92), light=(0.6, 1.0))
"""The audit's case: AprilTag 36h11 #22 (4 bits from sticker #149) slightly blurred and
tilted, 30-60 px."""


def near_foreign(within: int = 5) -> list[tuple[synth.Foreign, int, int]]:
    """The markers of the other common 6x6 dictionaries within ``within`` bits of one of ours
    (in any rotation): (the marker, our nearest id, the distance)."""
    ours = np.array([[np.rot90(synth.marker_cells(m), k) for k in range(4)]
                     for m in range(250)])
    out = []
    for name in synth.FOREIGN_FAMILIES:
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
        for i in range(d.bytesList.shape[0]):
            bits = (cv2.aruco.generateImageMarker(d, i, 8, borderBits=1)[1:7, 1:7] > 127)
            dist = (ours != bits.astype(np.uint8)).sum(axis=(2, 3)).min(axis=1)
            if int(dist.min()) <= within:
                out.append(((name, i), int(dist.argmin()), int(dist.min())))
    return out


def foreign(seed: int, renders: int = 10) -> None:
    """Foreign markers near ours, rendered on cards (their white margin included), and our
    nearest stickers under the same conditions, before issue 50 (no foreign-marker check)
    and now, on the same frames."""
    near = near_foreign()
    print(f"foreign: the {len(near)} markers of {', '.join(synth.FOREIGN_FAMILIES)} within 5 "
          f"bits of one of ours, each on a card in {renders} generated 1280x720 frames per "
          "set (30-60 px): ids of ours read by the detector (scan; any is wrong), before "
          "issue 50 -> now, and our nearest stickers in the same sets, read right before -> "
          "now; then the nearest in the audit's blur and tilt, also through the reading and "
          "the table pipelines (cards posted from 4 frames of the still view, fresh noise "
          "each)")
    for k, (name, cond) in enumerate(FOREIGN_SETS.items()):
        rng = np.random.default_rng(seed + k)
        wrong = foreign_reads(rng, [m for m, _id, _d in near], renders, cond, pipelines=False)
        own = own_reads(rng, sorted({i for _m, i, _d in near}), renders, cond)
        print(f"  {name:24}: {said(wrong)}; our stickers read right {own[0]}/{own[2]} -> "
              f"{own[1]}/{own[2]}")
    rng = np.random.default_rng(seed + 99)
    closest = [m for m, _id, d in near if d <= 4]
    wrong = foreign_reads(rng, closest, 10 * renders, AUDIT_SET)
    print(f"  the {len(closest)} within 4 bits, {10 * renders} renders each, blurred and tilted "
          f"as in the audit: {said(wrong)}")
    wrong = foreign_reads(rng, [("DICT_APRILTAG_36h11", 22)], 30 * renders, AUDIT_SET)
    print(f"  the audit's case, AprilTag 36h11 #22 (4 bits from #149), {30 * renders} renders: "
          f"{said(wrong)}")


def said(wrong: dict[str, list[int]]) -> str:
    frames = wrong.pop("frames")[0]
    return (f"{frames} frames, read as ours " + ", posted ".join(
        f"{b} -> {n} ({path})" for path, (b, n) in wrong.items()))


def foreign_reads(rng: np.random.Generator, markers: Sequence[synth.Foreign], renders: int,
                  cond: synth.Conditions, pipelines: bool = True) -> dict[str, list[int]]:
    """Reads of foreign markers as ours, before issue 50 and now: by the detector, and (with
    ``pipelines``) cards posted by the reading and the table pipelines; and the number of
    frames."""
    out = {"scan": [0, 0], "reading": [0, 0], "table": [0, 0], "frames": [0, 0]}
    if not pipelines:
        del out["reading"], out["table"]
    dets = [Detector(foreign_check=False), Detector()]
    for marker in markers:
        for _ in range(renders):
            scene = synth.render_scene(rng, [marker], cond)
            out["frames"][0] += 1
            shots = noisy_frames(scene.frame.astype(np.float32), 4, rng)
            for i, check in enumerate((False, True)):
                out["scan"][i] += sum(m.id in REGISTRY for m in dets[i].detect(scene.frame))
                for mode in ("reading", "table") if pipelines else ():
                    pipe = Pipeline(Detector(foreign_check=check), make_tracker(mode))
                    out[mode][i] += sum(bool(pipe.step(f, now=j / 30).reading.card)
                                        for j, f in enumerate(shots))
    return out


def own_reads(rng: np.random.Generator, markers: Sequence[int], renders: int,
              cond: synth.Conditions) -> tuple[int, int, int]:
    """Our stickers read with their own id by the detector before issue 50 and now, out of how
    many (and no wrong id)."""
    scores = [synth.Score(), synth.Score()]
    dets = [Detector(foreign_check=False), Detector()]
    for marker in markers:
        for _ in range(renders):
            scene = synth.render_scene(rng, [marker], cond)
            for score, det in zip(scores, dets, strict=True):
                score.add(scene.truth, [(m.id, m.centre) for m in det.detect(scene.frame)])
    assert scores[0].wrong == scores[1].wrong == 0
    return scores[0].found, scores[1].found, scores[1].total


def table_tilt(seed: int, shots: int = 8) -> None:
    """Table mode under a tilted camera with corners covered: every card in its zone?"""
    from companion.engine.registry import spec
    from companion.vision import table as T

    zones = T.layout(spec("builders"), 4)
    print(f"table: The Builders for 4 on an 80 x 48 cm play area, 2 cards in each of its 8 "
          f"zones (25 mm stickers, 40 mm corners), a 1920x1080 camera tilted 0-30 degrees "
          f"towards a random side, {shots} frames per case, corners covered by a hand; cards "
          "in their zone / in another zone or none / rejected (size) / not detected, and the "
          "largest error of a card's place (mm); frames that could not be read")
    rng = np.random.default_rng(seed)
    cards: dict[int, tuple[float, float]] = {}
    pool = iter(m for m in CARDS if REGISTRY[m].game == "builders")
    for z in zones:
        u0, v0, u1, v1 = z.rect
        for k in range(2):
            cards[next(pool)] = (u0 + (u1 - u0) * (k + 1) / 3, (v0 + v1) / 2)
    det = Detector()
    for tilt in (0.0, 15.0, 30.0):
        for covered in (0, 1, 2):
            tally = [0, 0, 0, 0, 0]  # right, wrong, rejected, not detected, unreadable
            worst = 0.0
            for _ in range(shots):
                seed_shot = int(rng.integers(1 << 30))
                turn = float(rng.uniform(0, 360))
                hide = tuple(int(m) for m in rng.choice(np.array(CORNER_MARKERS), covered,
                                                        replace=False))
                plane = T.TablePlane()
                before = synth.table_scene(np.random.default_rng(seed_shot), cards, tilt=tilt,
                                           turn=turn)  # all corners in view a moment before
                plane.update(det.detect(before.frame))
                shot = synth.table_scene(np.random.default_rng(seed_shot), cards, tilt=tilt,
                                         turn=turn, covered=hide)
                found = det.detect(shot.frame)
                mapped = plane.update(found)
                view = T.read_table(found, "builders", zones, plane=mapped)
                count_zones(view, found, zones, cards, tally)
                worst = max(worst, place_error(found, cards, mapped.h))
            print(f"  tilt {tilt:4.0f} deg, {covered} corner(s) covered: {tally[0]} right, "
                  f"{tally[1]} wrong, {tally[2]} rejected, {tally[3]} not detected; largest "
                  f"error {worst:.0f} mm; {tally[4]}/{shots} frames could not be read")
    moved = 0
    for _ in range(shots):
        seed_shot = int(rng.integers(1 << 30))
        plane = T.TablePlane()
        plane.update(det.detect(synth.table_scene(np.random.default_rng(seed_shot), cards,
                                                  tilt=20.0, turn=0.0).frame))
        hide = tuple(CORNER_MARKERS[:2])
        knocked = synth.table_scene(np.random.default_rng(seed_shot), cards, tilt=23.0,
                                    turn=8.0, covered=hide)  # the camera knocked, two hidden
        view = T.read_table(det.detect(knocked.frame), "builders", zones,
                            plane=plane.update(det.detect(knocked.frame)))
        moved += view.moved and not view.ok
    print(f"  the camera knocked (20 -> 23 deg, turned 8 deg) with two corners covered: said "
          f"it moved (and read nothing) in {moved}/{shots} frames")


def place_error(found: Sequence[object], cards: dict[int, tuple[float, float]],
                h: np.ndarray | None = None) -> float:
    """The largest distance (mm on the 80 x 48 cm play area) between a card's place read
    through the table's map (``h``, or the corners in view) and where it lies."""
    from companion.vision import table as T
    from companion.vision.detect import Marker

    markers = [m for m in found if isinstance(m, Marker)]
    h = T.homography(markers) if h is None else h
    if h is None:
        return 0.0
    worst = 0.0
    for m in markers:
        if m.id in cards:
            u, v = T.to_table(h, m.centre)
            tu, tv = cards[m.id]
            worst = max(worst, float(np.hypot((u - tu) * 800, (v - tv) * 480)))
    return worst


def count_zones(view: object, found: Sequence[object], zones: Sequence[object],
                cards: dict[int, tuple[float, float]], tally: list[int]) -> None:
    """Add one frame's cards to ``tally`` (right zone, another zone or none, rejected, not
    detected, frames unreadable)."""
    from companion.vision import table as T

    assert isinstance(view, T.TableView)
    if not view.ok:
        tally[4] += 1
        return
    detected = {getattr(m, "id", None) for m in found}
    where = {card: zid for zid, seen in view.seen.items() for card in seen}
    for marker, uv in cards.items():
        entry = REGISTRY[marker]
        truth = next(z.id for z in zones if isinstance(z, T.TableZone) and z.contains(uv))
        if marker not in detected:
            tally[3] += 1
        elif marker in view.rejected:
            tally[2] += 1
        elif where.get(entry.card) == truth:
            tally[0] += 1
        else:
            tally[1] += 1


def moving(seed: int, sequences: int = 30, length: int = 15) -> None:
    """A card waved in front of the camera: each frame smeared by 4-12 px, then 10-20 px."""
    for lo, hi in ((4.0, 12.0), (10.0, 20.0)):
        waved(seed, sequences, length, lo, hi)


def waved(seed: int, sequences: int, length: int, lo: float, hi: float) -> None:
    rng = np.random.default_rng(seed)
    # read, analysed, hold notices; "now, slow": as on a computer that cannot analyse every
    # frame (blurred frames analysed only when the sharpest of the last few)
    results = {"before": [0, 0, 0], "now": [0, 0, 0], "now, slow": [0, 0, 0]}
    for _ in range(sequences):
        base = synth.render_scene(rng, [int(rng.choice(np.array(CARDS)))], C(
            cards=(1, 1), marker_px=(35.0, 60.0), max_tilt=20.0, blur=(0.0, 0.3),
            noise=(0.0, 0.0), jpeg=(95, 95), background="plain")).frame.astype(np.float32)
        frames = []
        for _ in range(length):  # the hand moves the card about: a new place in every frame
            angle = float(rng.uniform(0, np.pi))
            smear = float(rng.uniform(lo, hi))
            shift = np.float32([[1, 0, rng.uniform(-40, 40)], [0, 1, rng.uniform(-25, 25)]])
            moved = cv2.warpAffine(base, shift, (base.shape[1], base.shape[0]),
                                   borderMode=cv2.BORDER_REFLECT)
            smeared = cv2.filter2D(moved, -1, synth.motion_kernel(smear, angle))
            smeared = smeared + rng.normal(0, 3, base.shape)
            frames.append(np.clip(smeared, 0, 255).astype(np.uint8))
        empty = np.clip(np.full_like(base, float(base[5, 5])) + rng.normal(0, 3, base.shape),
                        0, 255).astype(np.uint8)
        for name in results:
            pipe = Pipeline(before_detector() if name == "before" else Detector(),
                            CardTracker(2, 2), sharpest=name == "now, slow")
            if name == "before":
                pipe.change = OldChangeCheck()
                pipe.tracker.table = True  # no sharpest-frame choice, no advice: as before
            pipe.step(empty, 0.0)
            read = hold = analysed = 0
            for i, f in enumerate(frames):
                step = pipe.step(f, (i + 1) / 30)
                read |= step.reading.card is not None
                hold += step.reading.hold_still
                analysed += step.analysed
            results[name][0] += read
            results[name][1] += analysed
            results[name][2] += hold
    print(f"moving: {sequences} cards waved for half a second ({length} frames, the card "
          f"somewhere else within +-40 px in each, smeared {lo:g}-{hi:g} px in a random "
          "direction): read, "
          "frames analysed, 'hold the card still' said")
    for name, (read, analysed, hold) in results.items():
        print(f"  {name:9}: read in {read}/{sequences}, {analysed}/{sequences * length} frames "
              f"analysed, hold-still said {hold} times")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--frames", type=int, default=60, help="frames per read set (60)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the sets (7)")
    parser.add_argument("--only", choices=("reads", "speed", "idle", "latency", "ghosts",
                                           "icons", "moving", "foreign", "table"))
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="idle: seconds measured per case (30: two of the still view's "
                        "refreshes)")
    parser.add_argument("--trials", type=int, default=15, help="latency: trials per case (15)")
    parser.add_argument("--renders", type=int, default=10,
                        help="foreign: frames per marker and set (10)")
    args = parser.parse_args()
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}, {cv2.getNumThreads()} OpenCV "
          f"threads, {os.cpu_count()} cores")
    if args.only in (None, "reads"):
        reads(args.frames, args.seed)
    if args.only in (None, "speed"):
        speed(args.seed)
    if args.only in (None, "idle"):
        idle(args.seed, args.seconds)
    if args.only in (None, "latency"):
        latency(args.seed, args.trials)
    if args.only in (None, "ghosts"):
        ghosts(args.seed)
    if args.only in (None, "icons"):
        icons(args.seed)
    if args.only in (None, "moving"):
        moving(args.seed)
    if args.only in (None, "foreign"):
        foreign(args.seed, args.renders)
    if args.only in (None, "table"):
        table_tilt(args.seed)


if __name__ == "__main__":
    main()
