"""When a press counts, from timestamps alone: bounce, UNDO's long press, stuck buttons."""

from __future__ import annotations

from companion.panel.buttons import ButtonTimer, Notice


def timer() -> ButtonTimer:
    return ButtonTimer(
        ["draw", "undo"], long=["undo"], long_press=1.0, stuck_after=5.0, debounce=0.03
    )


def test_a_press_counts_when_released() -> None:
    t = timer()
    t.press("draw", 10.0)
    assert t.is_down("draw")
    assert t.release("draw", 10.12) == "draw"
    assert not t.is_down("draw")
    assert t.drain() == []


def test_bounce_on_closing_is_one_press() -> None:
    t = timer()
    out = []
    # the contact closes, opens and closes again within a few milliseconds, then holds
    for when, down in [(0.0, True), (0.002, False), (0.004, True), (0.006, False),
                       (0.008, True), (0.15, False)]:
        out.append(t.press("draw", when) if down else t.release("draw", when))
    assert [o for o in out if o] == ["draw"]


def test_chatter_after_the_release_is_ignored() -> None:
    t = timer()
    t.press("draw", 0.0)
    assert t.release("draw", 0.12) == "draw"
    t.press("draw", 0.125)  # bounces of the opening contact
    assert t.release("draw", 0.13) is None
    t.press("draw", 0.14)
    assert t.release("draw", 0.16) is None
    t.press("draw", 0.5)  # a real press again
    assert t.release("draw", 0.6) == "draw"


def test_a_glitch_in_the_middle_of_a_press_does_not_split_it() -> None:
    t = timer()
    t.press("undo", 0.0)
    assert t.release("undo", 0.6) is None  # the contact lifts for a moment...
    t.press("undo", 0.61)  # ...and closes again: the same press
    assert t.release("undo", 1.2) == "undo"
    t.check(2.0)
    assert t.drain() == []  # no "hold longer" hint for the glitch


def test_a_contact_shorter_than_the_debounce_time_is_nothing() -> None:
    t = timer()
    t.press("draw", 0.0)
    assert t.release("draw", 0.01) is None
    t.check(1.0)
    assert t.drain() == []


def test_undo_needs_a_long_press() -> None:
    t = timer()
    t.press("undo", 0.0)
    assert t.release("undo", 0.4) is None  # a brush of the hand
    t.check(0.41)
    assert t.drain() == []  # the hint waits until the contact has settled
    t.check(0.45)
    assert t.drain() == [Notice("hold", "undo", 1.0)]
    t.press("undo", 2.0)
    assert not t.armed(2.9)
    assert t.armed(3.0)  # held a second: releasing now undoes
    assert t.release("undo", 3.2) == "undo"
    assert not t.armed(3.3)


def test_a_stuck_button_is_reported_and_never_obeyed() -> None:
    t = timer()
    t.press("draw", 0.0)
    t.check(4.9)
    assert t.drain() == []
    t.check(5.0)
    assert t.drain() == [Notice("stuck", "draw", 5.0)]
    t.check(9.0)
    assert t.drain() == []  # reported once
    assert t.release("draw", 30.0) is None
    assert t.drain() == [Notice("released", "draw")]
    t.press("draw", 31.0)
    assert t.release("draw", 31.1) == "draw"  # works again


def test_a_stuck_undo_never_undoes_and_stops_arming() -> None:
    t = timer()
    t.press("undo", 0.0)
    assert t.armed(1.5)
    t.check(5.0)
    assert not t.armed(5.0)
    assert t.release("undo", 6.0) is None


def test_a_stuck_release_without_a_check_is_still_ignored() -> None:
    t = timer()
    t.press("draw", 0.0)
    assert t.release("draw", 7.0) is None
    assert t.drain() == [Notice("stuck", "draw", 5.0)]


def test_a_button_held_at_start_up_is_ignored_until_released() -> None:
    t = timer()
    t.held_at_start("draw", 0.0)
    assert t.drain() == [Notice("start-up", "draw")]
    t.press("draw", 0.5)  # a repeated edge changes nothing
    assert t.release("draw", 2.0) is None
    assert t.drain() == [Notice("released", "draw")]
    t.press("draw", 2.01)  # the release's own bounce
    assert t.release("draw", 2.02) is None
    t.press("draw", 3.0)
    assert t.release("draw", 3.1) == "draw"


def test_a_release_without_a_press_is_ignored() -> None:
    t = timer()
    assert t.release("draw", 1.0) is None
