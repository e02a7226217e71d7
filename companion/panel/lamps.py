"""What the panel's lights show: computed from the kiosk's view of the table and its clock.

One function of (view, time) drives the real LEDs and their on-screen stand-ins alike, and
time is an input, so tests step the clock instead of sleeping:

* the colour of the seat the table should look at lights: the engine's ``active_seat`` (the
  player deciding; at a draw, roll or reveal the player it concerns, or none when it concerns
  the whole table), which the kiosk puts in :class:`~companion.events.TableView`;
* the status light flashes three times after a refusal (``notify("refused")``);
* when a game ends (its state is over, or ``notify("game-over")``) the colours chase round three
  times and all five lights flash three times, about three seconds; then the winners' colours
  stay lit while the finished game is shown.
"""

from __future__ import annotations

import math

from companion.events import TableView

from .pins import LEDS

COLOURS = ("red", "blue", "yellow", "green")

REFUSAL_STEP = 0.15
"""Seconds on, then off, for each of the status light's flashes after a refusal."""
REFUSAL_STEPS = 6  # on, off, three times
REFUSAL_SECONDS = REFUSAL_STEP * REFUSAL_STEPS

CHASE_STEP = 0.12
CHASE_STEPS = 12  # round the four colours three times
CHASE_SECONDS = CHASE_STEP * CHASE_STEPS
FLASH_STEP = 0.25
FLASH_STEPS = 6  # all five on, off, three times
END_SECONDS = CHASE_SECONDS + FLASH_STEP * FLASH_STEPS
"""The whole end-of-game pattern: the chase, then the flashes."""


def dark() -> dict[str, bool]:
    return {name: False for name in LEDS}


def _tick(elapsed: float, step: float) -> int:
    """How many whole ``step``s have passed (a microsecond's slack absorbs the float noise of
    a clock advanced in frames, so an edge falls on its step)."""
    return math.floor(elapsed / step + 1e-6)


class Lamps:
    """The state of the five lights over time (see the module).  ``notify`` records events;
    ``frame`` gives the lights at a moment."""

    def __init__(self) -> None:
        self._refusal_pending = False
        self._refused_at: float | None = None
        self._end_pending = False
        self._end_key: object = None
        self._end_at: float | None = None

    def notify(self, event: str, detail: str = "") -> None:
        if event == "refused":
            self._refusal_pending = True
        elif event == "game-over":
            self._end_pending = True

    def _advance(self, view: TableView, now: float) -> bool:
        """Stamp pending events with ``now``; True if the game on show is over."""
        if self._refusal_pending:
            self._refusal_pending = False
            self._refused_at = now
        over = view.playing and view.over
        key = view.key
        if (over and key != self._end_key) or self._end_pending:
            self._end_pending = False
            self._end_key = key
            self._end_at = now
        elif view.playing and not over:
            self._end_key = None
            self._end_at = None  # a game on again (a new one, or an undo): no pattern
        return over

    def frame(self, view: TableView, now: float) -> dict[str, bool]:
        """The lights at ``now`` (the kiosk's ``app.time``) for the table in ``view``."""
        over = self._advance(view, now)
        lamps = dark()
        chase = flash = -1
        if self._end_at is not None:
            since = now - self._end_at
            chase = _tick(since, CHASE_STEP)
            flash = max(0, _tick(since - CHASE_SECONDS, FLASH_STEP))
        if 0 <= chase < CHASE_STEPS:
            lamps[COLOURS[chase % len(COLOURS)]] = True
        elif chase >= 0 and flash < FLASH_STEPS:
            lamps = {name: flash % 2 == 0 for name in LEDS}
        else:
            if over:
                for colour in view.winners & lamps.keys():
                    lamps[colour] = True
            elif view.active in lamps:
                lamps[view.active] = True
            if self._refused_at is not None:
                k = _tick(now - self._refused_at, REFUSAL_STEP)
                if 0 <= k < REFUSAL_STEPS:
                    lamps["status"] = k % 2 == 0
        return lamps
