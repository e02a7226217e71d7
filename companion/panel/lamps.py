"""What the panel's lights show: computed from the game's state and the kiosk's clock.

One function of (session, time) drives the real LEDs and their on-screen stand-ins alike, and
time is an input, so tests step the clock instead of sleeping:

* the colour of the player whose decision the game waits for lights: the owner of the drawn
  master builder while they decide (Pillars, phase II), the current player in phase I and at
  every other decision of Pillars, and the active player in The Builders (also while the cards
  of their turn are being revealed); nothing lights while the table draws, rolls or reveals in
  Pillars;
* the status light flashes three times after a refusal (``notify("refused")``);
* when a game ends (its state is over, or ``notify("game-over")``) the colours chase round three
  times and all five lights flash three times, about three seconds; then the winners' colours
  stay lit while the finished game is shown.
"""

from __future__ import annotations

import math
from typing import Any

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


def deciding_colour(session: Any) -> str | None:
    """The colour of the player the game waits for, or None (no game, a chance step, over)."""
    if session is None:
        return None
    game, state = session.game, session.state
    if game.is_over(state):
        return None
    players = state.setup.players
    if game.name == "pillars" and state.drawn >= 0:
        return str(players[state.drawn].colour)
    if game.name == "builders":
        return str(players[state.turn_player].colour)
    who = game.current_player(state)
    return str(players[who].colour) if who >= 0 else None


def winning_colours(session: Any) -> set[str]:
    """The colours of the winners of a finished game (names the set-up does not know, such
    as the solo Automa, have none)."""
    if session is None or not session.game.is_over(session.state):
        return set()
    state = session.state
    winners = set(session.game.winners(state))
    return {p.colour for p in state.setup.players if p.name in winners}


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

    def _advance(self, session: Any, now: float) -> bool:
        """Stamp pending events with ``now``; True if the session's game is over."""
        if self._refusal_pending:
            self._refusal_pending = False
            self._refused_at = now
        over = session is not None and session.game.is_over(session.state)
        key = getattr(session, "id", None)
        if (over and key != self._end_key) or self._end_pending:
            self._end_pending = False
            self._end_key = key
            self._end_at = now
        elif session is not None and not over:
            self._end_key = None
            self._end_at = None  # a game on again (a new one, or an undo): no pattern
        return over

    def frame(self, session: Any, now: float) -> dict[str, bool]:
        """The lights at ``now`` (the kiosk's ``app.time``) for the current ``session``."""
        over = self._advance(session, now)
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
                for colour in winning_colours(session):
                    lamps[colour] = True
            else:
                deciding = deciding_colour(session)
                if deciding is not None:
                    lamps[deciding] = True
            if self._refused_at is not None:
                k = _tick(now - self._refused_at, REFUSAL_STEP)
                if 0 <= k < REFUSAL_STEPS:
                    lamps["status"] = k % 2 == 0
        return lamps
