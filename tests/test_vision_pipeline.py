"""The camera pipeline: the tracker's debounce and ambiguity rules, one step on real frames, and
the thread's loop (stepped by hand: offline, retries with a growing pause, back online)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
import pytest

from companion.vision import pipeline as P
from companion.vision.markers import CORNER_MARKERS, REGISTRY, markers_of
from companion.vision.pipeline import CameraThread, CardTracker, Pipeline, Reading
from companion.vision.sources import CameraError, SyntheticSource
from companion.vision.synth import card_frame

MADONNA = markers_of("pillars", "madonna")[0]
TOM = markers_of("pillars", "tom")[0]
ABBEY = markers_of("builders", "abbaye")[0]


def feed(tracker: CardTracker, frames: list[set[int]]) -> list[Reading]:
    return [tracker.step(ids) for ids in frames]


def cards(readings: list[Reading]) -> list[str]:
    return [r.card.card for r in readings if r.card is not None]


def test_a_card_counts_after_several_frames_and_once() -> None:
    t = CardTracker(show_frames=3, gone_frames=2)
    out = feed(t, [{MADONNA}, {MADONNA}])
    assert cards(out) == []
    out = feed(t, [{MADONNA}] * 10)
    assert cards(out) == ["madonna"]  # on the third frame, and never again while in view
    assert out[0].card is not None and out[0].card.marker == MADONNA


def test_a_flicker_is_not_a_card_and_a_dropped_frame_is_not_a_loss() -> None:
    t = CardTracker(show_frames=3, gone_frames=3)
    assert cards(feed(t, [{TOM}, set(), {TOM}, set(), {TOM}, {TOM}])) == []
    assert cards(feed(t, [{TOM}])) == ["tom"]
    out = feed(t, [set(), set(), {TOM}, {TOM}, {TOM}])  # missed for 2 frames: still shown
    assert cards(out) == [] and not any(r.gone for r in out)


def test_gone_then_shown_again_counts_again() -> None:
    t = CardTracker(show_frames=2, gone_frames=2)
    assert cards(feed(t, [{TOM}, {TOM}])) == ["tom"]
    out = feed(t, [set(), set()])
    assert [e.card for r in out for e in r.gone] == ["tom"]
    assert cards(feed(t, [{TOM}, {TOM}])) == ["tom"]


def test_two_new_cards_together_ask_for_one_at_a_time() -> None:
    t = CardTracker(show_frames=2, gone_frames=2)
    out = feed(t, [set()] + [{TOM, MADONNA}] * 6)
    assert cards(out) == []
    notices = [r.several for r in out if r.several]
    assert len(notices) == 1  # one notice, not one per frame
    assert {e.card for e in notices[0]} == {"tom", "madonna"}
    # the player takes one away: the one left is the card
    out = feed(t, [{MADONNA}] * 3)
    assert cards(out) == ["madonna"]


def test_a_card_on_its_way_in_holds_the_first_back() -> None:
    """Tom is confirmed while Madonna is already arriving: that is two cards shown together."""
    t = CardTracker(show_frames=3, gone_frames=2)
    out = feed(t, [set(), {TOM}, {TOM, MADONNA}, {TOM, MADONNA}, {TOM, MADONNA}])
    assert cards(out) == [] and sum(1 for r in out if r.several) == 1


def test_a_new_card_beside_one_already_read_is_read() -> None:
    t = CardTracker(show_frames=2, gone_frames=2)
    assert cards(feed(t, [{TOM}, {TOM}])) == ["tom"]
    assert cards(feed(t, [{TOM, ABBEY}, {TOM, ABBEY}, {TOM, ABBEY}])) == ["abbaye"]


def test_corner_markers_and_unknown_markers_are_not_cards_and_are_said_once() -> None:
    t = CardTracker(show_frames=1, gone_frames=1)
    assert 240 not in REGISTRY
    out = feed(t, [{*CORNER_MARKERS, 240}] * 3)
    assert not any(r.card or r.several for r in out)
    assert [r.strays for r in out] == [(240, *CORNER_MARKERS), (), ()]  # once, not per frame
    out = feed(t, [set(), {240}])  # out of view long enough, then back: said again
    assert [r.strays for r in out] == [(), (240,)]
    table = CardTracker(show_frames=1, gone_frames=1, table=True)  # corners are expected there
    assert [r.strays for r in feed(table, [{*CORNER_MARKERS, 240}])] == [(240,)]


def test_two_copies_of_the_same_card_have_their_own_markers() -> None:
    one, two = markers_of("builders", "compagnon-1111")
    t = CardTracker(show_frames=1, gone_frames=1)
    assert cards(feed(t, [{one}])) == ["compagnon-1111"]
    assert cards(feed(t, [{one, two}])) == ["compagnon-1111"]  # the second copy joins


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        CardTracker(show_frames=0)


def test_the_pipeline_reads_a_card_from_frames() -> None:
    pipe = Pipeline(tracker=CardTracker(show_frames=2, gone_frames=2))
    empty, card = card_frame(None, 1), card_frame(MADONNA, 2)
    steps = [pipe.step(f) for f in (empty, card, card, card, empty, empty)]
    assert [m.id for m in steps[1].markers] == [MADONNA]
    assert [s.reading.inputs() for s in steps if s.reading.card] == [
        [steps[2].reading.inputs()[0]]
    ]
    card_input = steps[2].reading.inputs()[0]
    assert (card_input.game, card_input.card) == ("pillars", "madonna")
    assert [e.card for e in steps[5].reading.gone] == ["madonna"]


# -- the thread's loop, stepped by hand ------------------------------------------------------


class Flaky:
    """A source that gives ``good`` frames, then fails (as an unplugged camera does)."""

    def __init__(self, frames: Iterator[np.ndarray], good: int) -> None:
        self.frames = frames
        self.good = good
        self.closed = False

    def read(self) -> np.ndarray | None:
        if self.good <= 0:
            raise OSError("camera unplugged")
        self.good -= 1
        return next(self.frames)

    def close(self) -> None:
        self.closed = True


def test_a_missing_camera_is_retried_with_a_growing_pause() -> None:
    tries: list[int] = []

    def opener() -> Flaky:
        tries.append(1)
        if len(tries) < 5:
            raise CameraError("no camera at 0")
        return Flaky(iter([card_frame(TOM, 1)] * 100), good=100)

    thread = CameraThread(opener, Pipeline(tracker=CardTracker(1, 1)), rate=20.0)
    waits = [thread.cycle() for _ in range(4)]
    assert waits == [1.0, 2.0, 4.0, 8.0]
    assert not thread.status.online and "no camera" in thread.status.reason
    wait = thread.cycle()  # the fifth try finds it
    assert thread.status.online and 0 <= wait <= 0.05
    assert thread.status.last is not None and thread.status.last.card == "tom"
    for _ in range(5):
        thread.cycle()
    assert thread.backoff == P.BACKOFF_FIRST


def test_the_pause_stops_growing() -> None:
    def opener() -> Flaky:
        raise CameraError("nothing there")

    thread = CameraThread(opener, Pipeline())
    waits = [thread.cycle() for _ in range(10)]
    assert max(waits) == P.BACKOFF_MAX == waits[-1]


def test_a_camera_failing_mid_game_goes_offline_and_comes_back() -> None:
    sources: list[Flaky] = []
    posted: list[Reading] = []

    def opener() -> Flaky:
        src = Flaky(iter([card_frame(TOM, 1)] * 50), good=4 if not sources else 50)
        sources.append(src)
        return src

    thread = CameraThread(opener, Pipeline(tracker=CardTracker(2, 2)), rate=10.0,
                          on_reading=posted.append)
    for _ in range(4):
        thread.cycle()
    assert thread.status.online and [r.card.card for r in posted if r.card] == ["tom"]
    waits = [thread.cycle() for _ in range(P.FAILURES_BEFORE_OFFLINE)]
    assert not thread.status.online and "unplugged" in thread.status.reason
    assert sources[0].closed and waits[-1] == P.BACKOFF_FIRST
    assert waits[:-1] == [0.1] * (P.FAILURES_BEFORE_OFFLINE - 1)  # a dropped frame or two
    for _ in range(3):
        thread.cycle()
    assert thread.status.online and len(sources) == 2
    # the tracker started afresh: the card still in view is read again
    assert [r.card.card for r in posted if r.card] == ["tom", "tom"]


def test_the_thread_runs_at_its_rate_and_stops() -> None:
    got = threading.Event()
    readings: list[Reading] = []

    def on_reading(r: Reading) -> None:
        readings.append(r)
        if r.card is not None:
            got.set()

    source = SyntheticSource([MADONNA], frames_each=1000)
    thread = CameraThread(lambda: source, Pipeline(tracker=CardTracker(2, 2)), rate=50.0,
                          on_reading=on_reading, keep_frames=True)
    thread.start()
    try:
        assert got.wait(10.0), thread.status
    finally:
        thread.stop()
    assert thread.source is None and thread.status.frame is not None
    assert readings[0].card is not None and readings[0].card.card == "madonna"


# -- issue 16: a card at the edge of the view, re-reads, duplicates, still frames -------------


def test_a_card_missed_now_and_then_is_not_gone_and_read_again() -> None:
    """A card left near the size limit is found in about half the frames (up to 8 misses in a
    row at 10 frames a second): with a time, not a count of frames, it stays shown."""
    rng = np.random.default_rng(5)
    t = CardTracker(show_frames=3, gone_frames=2, gone_seconds=2.0)
    frames: list[set[int]] = [{TOM}] * 3
    while len(frames) < 600:  # a minute
        frames += [set()] * int(rng.integers(1, 9)) + [{TOM}] * int(rng.integers(1, 4))
    out = [t.step(ids, now=i / 10) for i, ids in enumerate(frames)]
    assert cards(out) == ["tom"]
    assert not any(r.gone for r in out)
    out = [t.step(set(), now=60.0 + i / 10) for i in range(25)]  # really taken away
    assert [e.card for r in out for e in r.gone] == ["tom"]
    assert [i for i, r in enumerate(out) if r.gone] == [20]  # after 2 s, not 2 frames


def test_the_last_card_read_again_is_marked_again() -> None:
    t = CardTracker(show_frames=1, gone_frames=1)
    first = feed(t, [{TOM}, set(), {TOM}, set(), {MADONNA}, set(), {TOM}])
    assert [(r.card.card, r.again) for r in first if r.card] == [
        ("tom", False), ("tom", True), ("madonna", False), ("tom", False)]
    t.reset()  # the camera came back: the card still in view is the same card
    assert [r.again for r in feed(t, [{TOM}]) if r.card] == [True]


def test_two_stickers_with_one_id_are_reported_not_merged() -> None:
    t = CardTracker(show_frames=2, gone_frames=1)
    out = feed(t, [[TOM, TOM]] * 4)
    assert cards(out) == []  # not one card: two stickers claim it
    assert [r.duplicates for r in out] == [(TOM,), (), (), ()]  # said once
    assert cards(feed(t, [[TOM], [TOM, TOM], [TOM]])) == []  # one sticker missed once
    assert cards(feed(t, [[TOM]])) == ["tom"]  # one taken away: the one left is read


class CountingDetector:
    def __init__(self) -> None:
        from companion.vision.detect import Detector

        self.inner = Detector()
        self.calls = 0
        self.boxes: list[tuple[int, int, int, int] | None] = []

    def detect(self, grey: np.ndarray, box: tuple[int, int, int, int] | None = None, *,
               known: tuple[P.Marker, ...] = ()) -> list[P.Marker]:
        self.calls += 1
        self.boxes.append(box)
        return self.inner.detect(grey, box, known=known)


def test_still_frames_are_not_analysed_again() -> None:
    from companion.vision.synth import Conditions, background

    rng = np.random.default_rng(3)
    board = np.clip(background(rng, (640, 360), "busy"), 0, 255)
    det = CountingDetector()
    pipe = Pipeline(det, CardTracker(show_frames=2, gone_frames=2))  # type: ignore[arg-type]

    def noisy(img: np.ndarray) -> np.ndarray:  # a still view: only the sensor's noise moves
        return np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)

    steps = [pipe.step(noisy(board), now=i / 30) for i in range(60)]
    assert det.calls == P.SETTLE_FRAMES  # the first frames, then nothing until a change
    assert not steps[-1].analysed
    card = card_frame(TOM, 1)
    steps = [pipe.step(noisy(card.astype(np.float32)), now=2 + i / 30) for i in range(10)]
    assert steps[0].analysed and [r.card.card for s in steps for r in [s.reading] if r.card] == [
        "tom"]
    calls = det.calls
    pipe.step(noisy(card.astype(np.float32)), now=2 + P.REFRESH_SECONDS + 1)
    assert det.calls == calls + 1  # a still view is looked at again now and then
    assert Conditions().background == "wood"


# -- issue 15: nothing a frame can be stops the thread; a read that never returns -------------


class Odd:
    """A source that gives the frames it is handed, whatever they are."""

    def __init__(self, frames: list[object]) -> None:
        self.frames = frames
        self.closed = False

    def read(self) -> object:
        return self.frames.pop(0) if self.frames else card_frame(TOM, 1)

    def close(self) -> None:
        self.closed = True


class Raising:
    def detect(self, grey: np.ndarray, box: object = None, *, known: object = ()
               ) -> list[P.Marker]:
        import cv2

        raise cv2.error("OpenCV(5.0.0) detectMarkers: (-215:Assertion failed) !_image.empty()")


@pytest.mark.parametrize("frame", [
    np.zeros((0, 0), np.uint8),
    np.zeros((360, 0), np.uint8),
    "not a frame",
    [[1, 2], [3, 4]],
    np.zeros((360, 640, 3), np.float64),
    np.zeros((360, 640), np.int32),
    np.zeros((2, 2), np.uint8),
])
def test_any_frame_is_survived(frame: object) -> None:
    opened: list[Odd] = []

    def opener() -> Odd:
        opened.append(Odd([] if opened else [frame] * P.FAILURES_BEFORE_OFFLINE))
        return opened[-1]

    thread = CameraThread(opener, Pipeline(tracker=CardTracker(1, 1)), rate=10.0)  # type: ignore[arg-type]
    waits = [thread.cycle() for _ in range(P.FAILURES_BEFORE_OFFLINE)]
    assert not thread.status.online and "bad frame" in thread.status.reason
    assert opened[0].closed and waits[-1] == P.BACKOFF_FIRST
    thread.cycle()  # reopened: good frames again
    assert thread.status.online and thread.status.last is not None


def test_opencv_raising_is_survived() -> None:
    thread = CameraThread(lambda: Odd([]), Pipeline(Raising(), CardTracker(1, 1)),  # type: ignore[arg-type]
                          rate=10.0)
    for _ in range(P.FAILURES_BEFORE_OFFLINE):
        thread.cycle()
    assert not thread.status.online and "Assertion failed" in thread.status.reason


def test_the_thread_survives_a_fault_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    thread = CameraThread(lambda: Odd([]), Pipeline(tracker=CardTracker(1, 1)), rate=100.0)

    def boom(reading: Reading) -> None:
        raise RuntimeError("a bug in a callback")

    thread.on_reading = boom
    thread.start()
    try:
        deadline = __import__("time").monotonic() + 5
        while thread.status.reason == "" and __import__("time").monotonic() < deadline:
            threading.Event().wait(0.01)
        assert "a bug in a callback" in thread.status.reason
        assert thread._thread is not None and thread._thread.is_alive()
    finally:
        thread.stop()


def test_a_read_that_never_returns_marks_the_camera_offline() -> None:
    release = threading.Event()
    reads: list[int] = []

    class Hangs:
        def read(self) -> np.ndarray:
            reads.append(1)
            if len(reads) > 3:
                release.wait(10)  # the camera's driver stops answering
            return card_frame(TOM, 1)

        def close(self) -> None:
            pass

    status = P.Status(stale_after=0.3)
    thread = CameraThread(Hangs, Pipeline(tracker=CardTracker(2, 2)), rate=50.0,
                          status=status)
    thread.start()
    try:
        import time

        deadline = time.monotonic() + 5
        while status.view(time.monotonic()).last is None and time.monotonic() < deadline:
            time.sleep(0.01)
        view = status.view(time.monotonic())
        assert view.online and view.last is not None and view.last.card == "tom"
        while len(reads) < 4:
            time.sleep(0.01)
        time.sleep(0.5)
        view = status.view(time.monotonic())
        assert not view.online and view.reason == P.STALE
        assert view.last is None and view.markers == ()  # the chip shows no card any more
        release.set()  # the driver answers again: online, with frames
        deadline = time.monotonic() + 5
        while not status.view(time.monotonic()).online and time.monotonic() < deadline:
            time.sleep(0.01)
        assert status.view(time.monotonic()).online
    finally:
        release.set()
        thread.stop()


def test_a_broken_camera_library_is_said_once_and_not_retried() -> None:
    from companion.vision.sources import CameraLibraryError

    tries: list[int] = []

    def opener() -> Odd:
        tries.append(1)
        raise CameraLibraryError("camera library broken: picamera2 fails to import (...)")

    thread = CameraThread(opener, Pipeline(), rate=10.0)
    waits = [thread.cycle() for _ in range(20)]
    assert len(tries) == 1 and set(waits) == {P.BACKOFF_MAX}
    assert thread.status.broken and "camera library broken" in thread.status.reason
    assert thread.status.version == 1


def test_the_table_watch_confirms_a_missing_marker_over_several_frames() -> None:
    from companion.vision.detect import Marker

    def mk(i: int, x: float = 0.0) -> Marker:
        return Marker(i, ((x, 0.0), (x + 10, 0.0), (x + 10, 10.0), (x, 10.0)))

    w = P.TableWatch(3)
    w.add([mk(1), mk(2), mk(2, 50)])
    w.add([mk(1)])  # one frame misses 2 (both copies)
    assert [m.id for m in w.markers()] == [1, 2, 2]
    w.add([mk(1)])
    w.add([mk(1)])  # three frames in a row without it: missing
    assert [m.id for m in w.markers()] == [1]


# -- issue 25: room light, moving cards, glare ---------------------------------------------------


def flicker(base: np.ndarray, t: float, rng: np.random.Generator, depth: float = 0.05
            ) -> np.ndarray:
    """``base`` under mains light against a short exposure on a rolling shutter: a 100 Hz
    brightness swing of +-``depth`` that rolls down the frame as bands, and sensor noise."""
    h = base.shape[0]
    rows = np.arange(h, dtype=np.float32)[:, None]
    gain = 1 + depth * np.sin(2 * np.pi * 100 * (t + rows / h / 30))
    noise = rng.standard_normal(base.shape, dtype=np.float32) * 3
    return np.clip(base * gain + noise, 0, 255).astype(np.uint8)


def test_flickering_light_is_not_a_change() -> None:
    """A still board under +-5 % flicker: analysed in the first frames only.  The change check
    before issue 25 (plain difference of 10-pixel cells) analysed every frame."""
    from companion.vision.synth import background

    rng = np.random.default_rng(5)
    board = np.clip(background(rng, (1280, 720), "busy"), 0, 255).astype(np.float32)
    board[300:380, 600:660] = 235  # a white card lying on it
    det = CountingDetector()
    pipe = Pipeline(det, CardTracker(2, 2))  # type: ignore[arg-type]
    for i in range(60):
        pipe.step(flicker(board, i / 30, rng), now=i / 30)
    assert det.calls == P.SETTLE_FRAMES
    old = P.ChangeCheck(cell=10)
    old.reference = old.small(flicker(board, 0.0, rng))
    old.changed = lambda small: bool(np.abs(small.astype(np.float32) - old.reference).max()  # type: ignore[method-assign]
                                     > old.threshold)
    assert sum(old.changed(old.small(flicker(board, i / 30, rng))) for i in range(1, 30)) > 15
    # a card coming in is still a change, under the same flicker
    moved = board.copy()
    moved[100:160, 200:245] = 230
    assert pipe.step(flicker(moved, 2.0, rng), now=2.0).analysed


def smeared(marker: int, length: float, seed: int) -> np.ndarray:
    from companion.vision import synth

    rng = np.random.default_rng(seed)
    cond = synth.Conditions(size=(1280, 720), cards=(1, 1), marker_px=(50.0, 50.0),
                            max_tilt=10.0, blur=(0.0, 0.3), noise=(2.0, 2.0), background="plain",
                            motion=(length, length), jpeg=(90, 92))
    return synth.render_scene(rng, [marker], cond).frame


def test_a_card_moving_too_fast_asks_to_hold_it_still_and_the_sharpest_frame_is_read() -> None:
    det = CountingDetector()
    # a computer too slow to analyse every frame (a Pi on a busy board): the sharpest only
    pipe = Pipeline(det, CardTracker(2, 2), sharpest=True)  # type: ignore[arg-type]
    pipe.step(card_frame(None, 1, (1280, 720)), now=0.0)
    readings = [pipe.step(smeared(TOM, 30.0, k), now=(k + 1) / 30).reading
                for k in range(P.HOLD_FRAMES + 2)]
    assert [r.hold_still for r in readings].count(True) == 1  # said once
    assert not any(r.card for r in readings)
    # blurred frames blurrier than one a moment before are not analysed
    assert det.calls < P.HOLD_FRAMES + 2
    # the card slows down: the sharpest frames are read
    calls = det.calls
    got = [pipe.step(smeared(TOM, length, 50 + k), now=1 + k / 30).reading
           for k, length in enumerate((9.0, 5.0, 2.0, 0.0, 0.0, 0.0))]
    assert [r.card.card for r in got if r.card] == ["tom"]
    assert det.calls > calls
    assert not any(r.hold_still for r in got)


def test_a_reflection_on_the_sticker_asks_to_tilt_the_card() -> None:
    from companion.vision import synth

    rng = np.random.default_rng(3)
    pipe = Pipeline(tracker=CardTracker(2, 2))
    pipe.step(card_frame(None, 2, (1280, 720)), now=0.0)
    cond = synth.Conditions(cards=(1, 1), glare=1.0, marker_px=(50.0, 50.0), max_tilt=10.0,
                            light=(0.9, 1.0), background="plain")
    from companion.vision.detect import Detector

    unread = []  # frames whose glint hides the marker
    while len(unread) < 2 * P.GLARE_FRAMES:
        frame = synth.render_scene(rng, [TOM], cond).frame
        if not Detector().detect(frame):
            unread.append(frame)
    said = [pipe.step(f, now=(k + 1) / 30).reading.glare for k, f in enumerate(unread)]
    assert said.count(True) == 1, said  # said once
    plain = Pipeline(tracker=CardTracker(2, 2))
    for k in range(8):  # no glare: never said
        frame = smeared(TOM, 0.0, 90 + k)
        assert not plain.step(frame, now=k / 30).reading.glare
