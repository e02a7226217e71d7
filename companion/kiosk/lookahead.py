"""Drawing ahead: the kiosk's idle time draws the frames a table is likely to ask for next.

Between two taps the kiosk draws nothing, and a table takes seconds to move its pieces.  The
frame after a move is slow on its first sight, because its new parts (a new step's panel, a
new turn's bar, the cards a player may now afford) are laid out and drawn for the first time
(``docs/notes/pi-lab.md``: 55 to 78 ms on a Pi 4 before this, against a 16 ms budget).  So while the
table is idle the main loop draws, one at a time, the frames of the states one action away
(``Screen.likely_next``: the game screens give the frames of each action the rules allow
now, the previewed action's result, the next hand-out step..., ``screens/ahead.py``) on a
scratch surface nobody sees.  Their parts are kept at
once (``retained.begin(..., ahead=True)``), their texts laid out into the text caches, so the
frame that follows the table's real action blits what it can.

Nothing a table sees changes: the scratch surface is never shown; what drawing records (the
touch targets, the roles, ``ui.OVERFLOWS`` and the other recorders) goes to throwaway lists;
the screen's own state is put back (``screens.ahead.drawing_ahead``); a part's key holds all it is
drawn from, so a part kept ahead is blitted only where it would be drawn the same
(``COMPANION_RETAINED_CHECK`` checks it, ``tests/test_lookahead.py`` walks games with it).
A draw ahead that fails is dropped (the real frame, drawn later, shows any fault on the fault
screen).  Each pass of the main loop draws ahead for at most ``SLICE`` seconds and stops when
an event waits, also between two parts of a frame (``retained.Stopped``; the frame is drawn
again at the next idle pass): a tap waits for one part drawn ahead at most.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

import pygame

from . import i18n, linebreak, retained, theme, ui

if TYPE_CHECKING:
    from .screens.base import Screen

log = logging.getLogger(__name__)

SLICE = 0.020
"""Seconds of drawing ahead a pass of the main loop may start: most of a pass (a pass is
1/``LOOP_HZ``, 33 ms), as a tap stops it between two parts anyway (``CHECK_EVERY``).  A frame
ahead takes 1.3 to 4.7 ms here (median), 17 to 60 ms on a Pi 4 at 12.8x: with 4 ms a pass a
Pi drew one a pass.  Modelled on a Pi 4 (``bench/bench_pi.py``), a Builders position's frames
ahead are all drawn in 0.20 to 0.28 s (median) instead of 0.44 to 0.46 s; a Pillars frame
takes a pass or more either way (``docs/notes/pi-lab.md``)."""

CHECK_EVERY = 0.001
"""Seconds between two looks for a waiting event while a frame is drawn ahead: a tap that
comes meanwhile stops it between two of its parts, so it waits for one part, not a frame
(a frame ahead whose every part is new takes 8 ms here, about 100 ms on a Pi 4)."""

MOST = 40
"""The most frames drawn ahead of one position (a Builders turn offers about 13 actions, a
Pillars step up to about 30; past this the kiosk waits).  Work that draws no frame
(``NO_FRAME``) does not count."""

Ahead = Callable[[pygame.Surface], object]
"""One frame a screen may draw next: draws it on the surface given (a scratch surface); or
work for the idle time that draws no frame, which returns ``NO_FRAME`` (it is not counted
as a frame, and a pass draws a frame more after it: keep it short)."""

NO_FRAME = "no frame"
"""What a job ahead that drew no frame returns (``Ahead``)."""


class LookAhead:
    """The frames still to draw ahead of the frame on screen (``App.ahead``)."""

    def __init__(self, make: Callable[[str], Callable[..., Screen]]) -> None:
        self.make = make
        """A screen class by its name (``routes.screen_class``): what a screen made ahead is
        made with (``prepared``)."""
        self._todo: Iterator[Ahead] | None = None
        self._left = MOST  # frames still to draw ahead of this position
        self._scratch: pygame.Surface | None = None
        self.drawn = 0
        """Frames drawn ahead since the start (``bench/bench_pi.py`` reports them)."""
        self.failed = 0
        self.interrupted = 0
        """Frames left half drawn for an event (drawn again at the next idle pass)."""
        self.prepared: dict[Hashable, object] = {}
        """The screens made ahead, one tap away from ``prepared_by`` (``prepared``)."""
        self.prepared_by: object | None = None
        self.warm: list[Callable[[], object]] = [i18n.resource_ids]
        """Work done once, at the first idle passes, before any frame ahead: what a first
        frame would otherwise load on a tap (every game's table of resource names, which
        imports the other games' words: 50 ms here, the first time a Pillars frame named a
        resource)."""

    def reset(self) -> None:
        """The frame on screen changed: what was likely next may not be now."""
        self._todo = None
        self.done = False

    done = False
    """Whether every frame ahead of the frame on screen is drawn (the idle time is free)."""

    def run(self, screen: ScreenAhead, surface: pygame.Surface, budget: float = SLICE,
            waiting: Callable[[], bool] = pygame.event.peek) -> int:
        """Draw ahead for ``screen`` (whose frame is on ``surface``) until ``budget`` seconds
        have gone (at least one frame) or ``waiting()`` says an event waits; the number of
        frames drawn."""
        while self.warm and not waiting():
            self.warm.pop(0)()
        if self._todo is None:
            self._todo, self._left = screen.likely_next(), MOST
        self.done = self.done or self._left <= 0
        start, tried, done = time.perf_counter(), 0, 0
        while (self._left > 0 and not (tried and time.perf_counter() - start >= budget)
               and not waiting()):
            job = next(self._todo, None)
            if job is None:
                self.done = True
                break
            drawn = self._draw(job, surface, _Every(waiting, CHECK_EVERY))
            if drawn is None:  # an event came: this frame again at the next idle pass
                self._todo = itertools.chain([job], self._todo)
                self.interrupted += 1
                break
            tried += drawn is not NO_FRAME  # (work that draws no frame: one frame more)
            done += drawn is True
            self._left -= drawn is True
        return done

    def _draw(self, job: Ahead, surface: pygame.Surface, stop: Callable[[], bool]
              ) -> object:
        """Draw one frame ahead: True; ``NO_FRAME`` if the job drew none (work of its own);
        False if it failed (and nothing more is drawn ahead of this position); None if
        ``stop()`` said to stop between two of its parts (the parts drawn whole are
        kept)."""
        scratch = self._scratch
        if (scratch is None or scratch.get_size() != surface.get_size()
                or scratch.get_bitsize() != surface.get_bitsize()):
            scratch = self._scratch = pygame.Surface(surface.get_size(), 0, surface)
        scratch.fill(theme.BG)  # as ``guard.draw`` starts a frame: the parts' corners match
        retained.begin(scratch, ahead=True, stop=stop)
        try:
            with quiet_records():
                if job(scratch) is NO_FRAME:
                    return NO_FRAME
        except retained.Stopped:
            return None
        except Exception:  # noqa: BLE001 - a frame that may never be asked for; the real one
            self.failed += 1  # shows its fault when the table gets there
            self._todo = iter(())
            log.debug("drawing ahead failed", exc_info=True)
            return False
        finally:
            retained.end()
        self.drawn += 1
        return True


class _Every:
    """``check()`` asked at most once every ``seconds`` (pumping SDL's events costs)."""

    def __init__(self, check: Callable[[], bool], seconds: float) -> None:
        self.check, self.seconds = check, seconds
        self.last = time.perf_counter()

    def __call__(self) -> bool:
        now = time.perf_counter()
        if now - self.last < self.seconds:
            return False
        self.last = now
        return self.check()


class ScreenAhead(Protocol):
    """What drawing ahead asks of a screen (``Screen.likely_next``)."""

    def likely_next(self) -> Iterator[Ahead]: ...


@contextmanager
def quiet_records() -> Iterator[None]:
    """Every recorder that records (``ui.OVERFLOWS``, ``ui.DRAWN``, ``ui.MISSING_GLYPHS``,
    ``linebreak.RECORD``) records into a throwaway list for the while: a frame drawn ahead is
    no frame the table saw.  One that is off stays off: ``ui.DRAWN`` (on for tests and
    measurements) places every text afresh and samples what is under it, which made a frame
    drawn ahead cost a third more than the frame itself.  ``ui.AREAS`` records always: the
    parts are kept with what they record, so a frame that records it (while a message shows)
    blits them too."""
    saved = (ui.OVERFLOWS, ui.DRAWN, ui.MISSING_GLYPHS, linebreak.RECORD, ui.AREAS)
    ui.OVERFLOWS, ui.MISSING_GLYPHS, ui.AREAS = [], [], []
    ui.DRAWN = None if ui.DRAWN is None else []
    linebreak.RECORD = None if linebreak.RECORD is None else []
    try:
        yield
    finally:
        ui.OVERFLOWS, ui.DRAWN, ui.MISSING_GLYPHS, linebreak.RECORD, ui.AREAS = saved


__all__ = ["CHECK_EVERY", "MOST", "NO_FRAME", "SLICE", "Ahead", "LookAhead", "ScreenAhead",
           "quiet_records"]
