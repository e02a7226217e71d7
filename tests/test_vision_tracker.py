"""Issue 50: the tracker learns what lies still.  Cards lying in view (the revealed card, the
rows of The Builders) are the background: a card that arrives among them is reported on its
own, as fast as on an empty table; "several cards" is said only for cards that arrive
together, and clears once they lie still; a card taken away and shown again is reported
again.  Frames at 30 a second, with their times, as the camera's thread gives them."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from companion.vision.markers import REGISTRY, markers_of
from companion.vision.tracker import CardTracker, Place, Reading

CARDS = sorted(m for m in REGISTRY if REGISTRY[m].game != "table")
NEW = markers_of("pillars", "tom")[0]
OTHER = markers_of("pillars", "madonna")[0]
THIRD = markers_of("builders", "abbaye")[0]
LYING = [m for m in CARDS if m not in (NEW, OTHER, THIRD)][:24]
FPS = 30.0


class Table:
    """A tracker with the camera's default settings fed frame by frame at 30 a second; each
    card lies at its own place (``jitter``: a hand holding it moves it a little each frame)."""

    def __init__(self) -> None:
        self.tracker = CardTracker(show_frames=2, gone_frames=2, gone_seconds=2.0)
        self.frame = 0
        self.jitter: set[int] = set()
        self.rng = np.random.default_rng(50)

    def place(self, m: int) -> Place:
        x, y = 40.0 * (m % 30), 40.0 * (m // 30)
        if m in self.jitter:
            x, y = x + float(self.rng.uniform(-6, 6)), y + float(self.rng.uniform(-6, 6))
        return x, y, 30.0

    def show(self, cards: Iterable[int], frames: int = 1, found: Iterable[int] | None = None
             ) -> list[Reading]:
        """``frames`` frames with ``cards`` in view (``found``: the ids the frame's analysis
        found; None: all of them)."""
        out = []
        cards = list(cards)
        for _ in range(frames):
            self.frame += 1
            out.append(self.tracker.step(
                cards, self.frame / FPS, found=None if found is None else set(found),
                places={m: self.place(m) for m in cards}))
        return out


def posted(readings: list[Reading]) -> list[tuple[int, int]]:
    """(frame index, marker) of each card reported."""
    return [(i, r.card.marker) for i, r in enumerate(readings) if r.card is not None]


def notices(readings: list[Reading]) -> int:
    return sum(1 for r in readings if r.several)


def lay_one_by_one(table: Table, cards: list[int]) -> None:
    """Lay ``cards`` on the table one every half second; each is reported once."""
    for m in cards:
        before = table.tracker.last
        out = table.show([*table.tracker.shown, m], 15)
        assert posted(out) == [(1, m)], (m, before)
    assert notices([]) == 0


@pytest.mark.parametrize("lying", [0, 1, 2, 20, 24])
def test_a_card_laid_among_lying_cards_is_reported_as_fast_as_on_an_empty_table(
        lying: int) -> None:
    """The audit: two or more cards in view made every new card "several" for ever."""
    table = Table()
    table.show([], 3)  # the camera starts on an empty table
    lay_one_by_one(table, LYING[:lying])
    out = table.show(LYING[:lying], 60)  # two seconds of a still table
    assert not any(out)
    out = table.show([*LYING[:lying], NEW], 30)
    assert posted(out) == [(1, NEW)]  # on its second frame, as on an empty table
    assert notices(out) == 0 and not any(r.gone for r in out)


@pytest.mark.parametrize("lying", [2, 20, 24])
def test_the_table_as_the_camera_finds_it_is_the_background(lying: int) -> None:
    """Cards already in view when the camera starts are not "several new cards": nothing is
    said, none is reported, and a card laid among them a moment later is reported."""
    table = Table()
    out = table.show(LYING[:lying], 45)
    assert not any(out)
    out = table.show([*LYING[:lying], NEW], 10)
    assert posted(out) == [(1, NEW)] and notices(out) == 0
    one = Table()  # a single card in view at the start is a card shown (the revealed card)
    assert posted(one.show([NEW], 5)) == [(1, NEW)]


def test_cards_missed_now_and_then_do_not_hold_a_new_card_back() -> None:
    """With two dozen small markers in view, most frames miss one or two of them."""
    table = Table()
    rng = np.random.default_rng(7)
    table.show(LYING, 45)
    for _ in range(60):
        table.show([m for m in LYING if rng.random() > 0.1])
    seen: list[Reading] = []
    for _ in range(30):
        seen += table.show([*[m for m in LYING if rng.random() > 0.1], NEW])
    assert posted(seen) == [(1, NEW)] and notices(seen) == 0
    assert not any(r.gone for r in seen)


def test_two_cards_laid_together_are_said_once_and_join_the_background() -> None:
    table = Table()
    table.show(LYING, 45)
    out = table.show([*LYING, NEW, OTHER], 45)  # laid together, then left lying: 1.5 s
    assert posted(out) == [] and notices(out) == 1
    assert {e.marker for r in out for e in r.several} == {NEW, OTHER}
    out = table.show([*LYING, NEW, OTHER, THIRD], 30)  # the next card is reported at once
    assert posted(out) == [(1, THIRD)] and notices(out) == 0


def test_two_cards_held_up_together_wait_until_one_is_taken_away() -> None:
    """Held in a hand they keep moving, so they do not join the background: when one has gone
    the other is reported."""
    table = Table()
    table.show(LYING[:20], 45)
    table.jitter = {NEW, OTHER}
    out = table.show([*LYING[:20], NEW, OTHER], 60)
    assert posted(out) == [] and notices(out) == 1
    out = table.show([*LYING[:20], NEW], 90)  # OTHER taken away: gone after 2 s
    assert [e.marker for r in out for e in r.gone] == [OTHER]
    assert posted(out) == [(next(i for i, r in enumerate(out) if r.gone), NEW)]


def test_a_card_arriving_while_another_is_on_its_way_in_holds_both_back() -> None:
    table = Table()
    table.show(LYING[:2], 45)
    out = table.show([*LYING[:2], NEW], 1) + table.show([*LYING[:2], NEW, OTHER], 5)
    assert posted(out) == [] and notices(out) == 1


def test_a_card_taken_away_and_shown_again_is_reported_again() -> None:
    table = Table()
    table.show(LYING[:20], 45)
    assert posted(table.show([*LYING[:20], NEW], 10)) == [(1, NEW)]
    out = table.show(LYING[:20], 75)  # away for two and a half seconds: gone
    assert [e.marker for r in out for e in r.gone] == [NEW]
    out = table.show([*LYING[:20], NEW], 10)
    assert posted(out) == [(1, NEW)] and [r.again for r in out if r.card] == [True]
    # a card of the background, taken away and laid again, is reported too
    out = table.show([m for m in LYING[:20] if m != LYING[3]] + [NEW], 75)
    assert [e.marker for r in out for e in r.gone] == [LYING[3]]
    out = table.show([*LYING[:20], NEW], 10)
    assert posted(out) == [(1, LYING[3])] and [r.again for r in out if r.card] == [False]
    # lifted for a moment (less than gone_seconds) and put back: not read again
    table.show([m for m in LYING[:20] if m != LYING[5]] + [NEW], 20)
    assert posted(table.show([*LYING[:20], NEW], 10)) == []


def test_only_frames_analysed_count_towards_a_card() -> None:
    """A frame like the last one analysed repeats its markers (``found`` empty): it neither
    confirms a marker found once nor breaks a run."""
    table = Table()
    table.show([], 3)
    out = table.show([NEW], 1) + table.show([NEW], 10, found=())
    assert posted(out) == []  # found once, then only repeated: not a card yet
    assert posted(table.show([NEW], 1)) == [(0, NEW)]  # found again


def test_a_marker_found_only_now_and_then_joins_the_background() -> None:
    """A sticker at the edge of the view, never found twice in a row, is never a card and does
    not hold the next card back for more than a moment."""
    table = Table()
    table.show([], 3)
    flaky = LYING[0]
    out = []
    for k in range(40):
        out += table.show([flaky] if k % 2 == 0 else [])
    assert posted(out) == []
    out = table.show([NEW, flaky], 1) + table.show([NEW], 10)
    assert posted(out) == [(1, NEW)]
