"""Python's garbage collector, kept out of the frames.

CPython frees most objects at once (reference counting); a collector looks for the rest,
objects that refer to each other in a cycle (a screen and its buttons, whose taps are the
screen's methods: every screen left behind, every log screen made ahead).  Its collections
of the oldest generation look at every object the kiosk holds, and come when enough objects
were made, not when the kiosk is idle: in the middle of a frame.  Measured here
(``bench/bench_pi.py``): a full collection took 16 to 35 ms of a frame (0.2 to 0.4 s on a
Pi 4), over 52 000 objects of which 51 000 were the modules, classes and functions loaded
at the start; it fell on the frame after a tap.

So the main loop (``App.run``):

* **settles** once started (:func:`settle`): one full collection, then every object alive
  is moved out of the collector's sight for good (``gc.freeze``: the code and data of a
  program that runs until the Pi is switched off).  A full collection then looks at the
  objects made since: 3 to 5 ms here instead of 16 to 35;
* collects the middle and the oldest generations **in its idle time** (:func:`collect`): the
  middle one in a pass that draws ahead, the oldest once every frame ahead is drawn, each
  when CPython would have (``EVERY``); at once only when a table has given it no idle pass
  for ``AT_MOST`` times that.  The middle generation's collections took up to 5 ms here
  (60 ms on a Pi 4), and 18 of 6 260 frames after a tap had one;
* leaves the youngest generation as CPython collects it (most under 0.3 ms here).

A collection started is not stopped by a tap: the tap waits for it (5 ms here at most).
"""

from __future__ import annotations

import gc

EVERY = 10
"""Collections of a generation between two of the next: CPython's own default
(``gc.get_threshold()``'s second and third)."""

AT_MOST = 100
"""Past this many (a table with no idle pass for so long), a generation is collected at
once, idle or not: the cycles are freed in the end."""

_NEVER = 1 << 30
"""The older generations' thresholds while the kiosk collects them itself."""


def settle() -> None:
    """Collect everything, then keep every object alive now out of the collector's sight
    (the kiosk's code and the data it loaded at the start)."""
    gc.collect()
    gc.freeze()


def take_over() -> tuple[int, int, int]:
    """The kiosk collects the middle and oldest generations itself (:func:`collect`) from
    now; CPython's thresholds before, for :func:`give_back`."""
    before = gc.get_threshold()
    gc.set_threshold(before[0], _NEVER, _NEVER)
    return before


def give_back(thresholds: tuple[int, int, int]) -> None:
    """CPython collects as it did (the main loop ended)."""
    gc.set_threshold(*thresholds)
    gc.unfreeze()


def collect(idle: bool, done: bool = False) -> int | None:
    """Collect what is due after a pass of the main loop: ``idle``, a pass that drew no frame
    (it drew ahead); ``done``, nothing is left to draw ahead.  The oldest generation when
    ``done`` and due, the middle one when ``idle`` and due; either at once when far overdue.
    The generation collected, or None."""
    _young, middle, old = gc.get_count()
    if old >= AT_MOST or (done and old >= EVERY):
        gc.collect(2)
        return 2
    if middle >= AT_MOST or (idle and middle >= EVERY):
        gc.collect(1)
        return 1
    return None


__all__ = ["AT_MOST", "EVERY", "collect", "give_back", "settle", "take_over"]
