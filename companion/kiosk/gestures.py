"""Holds, drags and flicks, made from a finger's (or the mouse's) way down, across and up.

The input layer gives a :class:`~companion.kiosk.inputs.Pointer` when a finger goes down or
moves, and a Tap when it comes up.  :class:`Gestures` sits between it and the screens:

- a finger kept still for :data:`HOLD_SECONDS` is a :class:`Hold` (read the card or space
  under it), and the Tap it ends with is swallowed, so a hold never also takes the tap's
  action; where nothing can be read (:meth:`Gestures.keep_tap`), a slow press is still the
  tap it always was;
- a finger that moves more than the slop is a drag: :class:`Drag` as it moves, then a
  :class:`Fling` with its speed when it lifts (instead of a Tap), so a scroll never taps what
  it started on;
- a finger that lifts quickly where it went down is the Tap it always was.

Time is an input: :meth:`Gestures.tick` is called with the app's clock, so tests step time
instead of sleeping.
"""

from __future__ import annotations

from .inputs import Drag, Fling, Hold, Input, Pointer, Tap

HOLD_SECONDS = 0.6
"""How long a finger stays still on a card or space to read it."""

VELOCITY_WINDOW = 0.12
"""A flick's speed is measured over the last this many seconds of the drag."""


class Gestures:
    """Turns pointers and taps into holds, drags, flicks and taps (see the module's text).
    ``slop`` is how far (pixels) a finger may wander and still tap or hold."""

    def __init__(self, slop: int = 12) -> None:
        self.slop = slop
        self.start: tuple[tuple[int, int], float] | None = None
        self.samples: list[tuple[float, int]] = []  # (time, y) of the drag, latest last
        self.last_y = 0
        self.dragging = False
        self.held = False
        self.swallow = True  # the Tap that ends a hold is not taken

    def reset(self) -> None:
        self.start = None
        self.samples = []
        self.dragging = False
        self.held = False
        self.swallow = True

    def keep_tap(self) -> None:
        """The hold just given had nothing to read: the press ends with its tap after all."""
        self.swallow = False

    def feed(self, inp: Input, now: float) -> list[Input]:
        """What the screen gets for ``inp`` at time ``now``: nothing, the input itself, a
        Drag, or (for the Tap that ends a drag or a hold) a Fling or nothing."""
        if isinstance(inp, Pointer):
            if inp.kind == "down":
                self.reset()
                self.start = (inp.pos, now)
                self.last_y = inp.pos[1]
                self.samples = [(now, inp.pos[1])]
                return []
            if self.start is None or self.held:
                return []
            (x0, y0), _t = self.start
            x, y = inp.pos
            if not self.dragging and max(abs(x - x0), abs(y - y0)) > self.slop:
                self.dragging = True
            self.samples.append((now, y))
            self.samples = [s for s in self.samples if now - s[0] <= VELOCITY_WINDOW] or [
                (now, y)
            ]
            if not self.dragging:
                return []
            dy = y - self.last_y
            self.last_y = y
            return [Drag(inp.pos, dy, (x0, y0))] if dy else []
        if isinstance(inp, Tap) and self.start is not None:
            start, dragging, held = self.start[0], self.dragging, self.held and self.swallow
            samples = self.samples + [(now, inp.pos[1])]
            self.reset()
            if held:
                return []
            if dragging:
                t0, y0 = samples[0]
                for t, y in samples:
                    if now - t <= VELOCITY_WINDOW:
                        t0, y0 = t, y
                        break
                span = now - t0
                vy = (inp.pos[1] - y0) / span if span > 0 else 0.0
                return [Fling(inp.pos, vy, start)]
            return [inp]
        return [inp]

    def tick(self, now: float) -> list[Input]:
        """A Hold once a finger has stayed down and still long enough (once per touch)."""
        if self.start is None or self.dragging or self.held:
            return []
        pos, t = self.start
        if now - t >= HOLD_SECONDS:
            self.held = True
            return [Hold(pos)]
        return []


__all__ = ["HOLD_SECONDS", "Gestures"]
