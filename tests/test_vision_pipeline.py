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
    out = feed(t, [{TOM, MADONNA}] * 6)
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
    out = feed(t, [{TOM}, {TOM, MADONNA}, {TOM, MADONNA}, {TOM, MADONNA}])
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
