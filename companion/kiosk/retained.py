"""Retained panels: a part of a frame drawn again with the same inputs is blitted, not drawn.

A screen draws itself whole at every change (``Screen.render``), and after a move most of it
is what it drew the frame before: the players who did not move, the buttons whose label and
state did not change, the bar.  A part drawn through :func:`pixels` (a button's face) or
:func:`panel` (a player's panel, with its touch targets) is named by a ``key``: a tuple of
everything it draws from (the game state's parts, which are frozen dataclasses shared between
states, so an unchanged seat is the same object; the labels; the selection; the flags it
reads).  The frame adds what every part depends on (the language and its font files, the
surface's size and smallest text, the rect, the colours under the rect's corners), and

* when the key was kept, the part's pixels are blitted at its rect and what it registered is
  replayed: the touch targets (``screen.buttons``, ``tap_area``s included, with the roles
  of the table's buttons they carry) and what drawing records (``ui.OVERFLOWS``;
  ``ui.DRAWN``, which the toasts and the measurements read; ``linebreak.RECORD``;
  ``ui.MISSING_GLYPHS``);
* else the part is drawn; the second time a key is seen (a part that changes at every move is
  not worth keeping), or the first in a frame drawn ahead (``begin(..., ahead=True)``: the
  kiosk's idle time draws the frames one action away, ``lookahead``), its pixels and what it
  registered are kept, at most ``RETAINED_BYTES`` of pixels, the least recently used going
  first (``textcache.LRU``: ``textcache.clear`` empties it, ``bench/bench_kiosk.py cache``
  reports it).

Only on the frame's own surface (``begin``/``end``, called by ``App.render``), unclipped, and
inside it: anything else is drawn as before.  A key that misses an input shows a stale picture;
``CHECK`` (the environment's ``COMPANION_RETAINED_CHECK=1``, or set by a test) draws every kept
part afresh as well and records in ``MISMATCHES`` each one whose pixels, touch targets
or records differ (``tests/test_retained.py`` walks games with it).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, TypeVar, cast

import pygame

from . import linebreak, ui
from .textcache import LRU

if TYPE_CHECKING:
    from .screens.base import Screen

T = TypeVar("T")

RETAINED_BYTES = 48 * 1024 * 1024
"""The pixels kept: at most 48 MB (a 720x1280 frame is 3.7 MB; a busy screen's parts 2.7 to
3.5 MB, 1.2 to 1.6 MB at 800x480: the screens of a game stay).  The frames drawn ahead
(``lookahead``) keep the parts of up to forty next states: with 24 MB a Builders game at
720x1280 drew 118 parts again in the frames after 200 moves (pushed out before their
frame came), with 40 MB one, with 64 MB one (``docs/notes/pi-lab.md``)."""

SEEN_KEYS = 4096
"""Keys seen once, remembered so that the second sight keeps the part (hashes of the keys)."""

ENABLED = True
"""False: every part is drawn (a fresh frame, for comparisons)."""

CHECK = os.environ.get("COMPANION_RETAINED_CHECK", "") == "1"
"""Draw every kept part afresh too and record the parts whose kept picture differs."""

MISMATCHES: list[str] = []
"""With CHECK: each kept part found different from its fresh drawing (name, what differed)."""


@dataclass(frozen=True, slots=True)
class Kept:
    """A part as drawn: its pixels, the touch targets it registered, and what it appended
    to each recorder (None: that recorder was off when it was drawn)."""

    pixels: pygame.Surface
    buttons: tuple[ui.Button, ...]
    records: tuple[tuple[object, ...] | None, ...]
    result: object
    key: Hashable
    """The whole key it was kept by (the store is keyed by its hash: hashed once a part)."""
    """What drawing it returned (the area left below a bar), returned again when blitted."""

    def weight(self) -> int:
        return self.pixels.get_width() * self.pixels.get_height() * self.pixels.get_bytesize()


STORE: LRU[Kept] = LRU("retained panels", RETAINED_BYTES, Kept.weight)
_seen: OrderedDict[int, None] = OrderedDict()


@dataclass(slots=True)
class _Frame:
    surface: pygame.Surface
    whole: pygame.Rect
    context: tuple[object, ...]
    ahead: bool
    stop: Callable[[], bool] | None


class Stopped(BaseException):
    """Raised between two parts of a frame drawn ahead when its ``stop()`` says so (an event
    waits).  A BaseException: no drawing code's ``except Exception`` keeps it from the
    look-ahead, which drops the frame (``lookahead``)."""


_frame: list[_Frame] = []


def begin(surface: pygame.Surface, ahead: bool = False,
          stop: Callable[[], bool] | None = None) -> None:
    """A frame is drawn on ``surface``: its parts may be kept and blitted (not on a surface
    with per-pixel alpha, where a blit would blend).  ``ahead``: a frame drawn ahead of the
    table (``lookahead``), whose parts are kept at their first sight, and which stops
    (``Stopped``) before a part when ``stop()`` says so."""
    _frame.clear()
    if ENABLED and not surface.get_flags() & pygame.SRCALPHA:
        _frame.append(_Frame(surface, surface.get_rect(), ui.context(surface), ahead, stop))


def redirect(surface: pygame.Surface) -> None:
    """The frame being drawn ahead goes on ``surface`` from here on, drawn from what is true
    now (the settings drawn in another language, or at another rotation's size): its parts
    are kept under that language and size."""
    if _frame:
        f = _frame[0]
        _frame[0] = _Frame(surface, surface.get_rect(), ui.context(surface), f.ahead, f.stop)


def end() -> None:
    _frame.clear()


def _recorders() -> tuple[list[object] | None, ...]:
    return (ui.OVERFLOWS, ui.DRAWN, linebreak.RECORD,  # type: ignore[return-value]
            ui.MISSING_GLYPHS if ui.CHECK_GLYPHS else None, ui.AREAS)


def pixels(surface: pygame.Surface, rect: pygame.Rect, key: Hashable,
           paint: Callable[[], object], name: str = "part") -> None:
    """Draw a part that registers no touch target (a button's face): ``paint`` draws it inside
    ``rect``; ``key`` holds everything it draws from."""
    _retain(None, surface, rect, key, paint, name)


def panel(screen: Screen, surface: pygame.Surface, rect: pygame.Rect, key: Hashable,
          paint: Callable[[], T], name: str = "panel") -> T:
    """Draw a part of ``screen`` that may register touch targets and roles (kept with it, for
    this screen only): ``paint`` draws it inside ``rect`` and returns what the caller needs
    (returned again when it is blitted); ``key`` holds everything it draws, registers and
    returns from."""
    return cast(T, _retain(screen, surface, rect, key, paint, name))


def _retain(screen: Screen | None, surface: pygame.Surface, rect: pygame.Rect, key: Hashable,
            paint: Callable[[], object], name: str) -> object:
    frame = _frame[0] if _frame else None
    if frame is not None and frame.stop is not None and frame.stop():
        raise Stopped
    if (frame is None or surface is not frame.surface or not frame.whole.contains(rect)
            or surface.get_clip() != frame.whole or rect.width <= 0 or rect.height <= 0):
        return paint()
    m = surface.get_at_mapped  # what the part's (rounded) corners show through
    under = (m(rect.topleft), m((rect.right - 1, rect.bottom - 1)))
    # (kept by its place too: a polygon's corners are rounded to whole pixels, so an icon
    # drawn elsewhere may differ by a pixel)
    whole = (name, screen, tuple(rect), key, frame.context, under)
    h = hash(whole)
    kept = STORE.get(h)
    if kept is None and h not in _seen and not CHECK and not frame.ahead:
        _seen[h] = None  # seen once: drawn, not kept (it may change at every move)
        if len(_seen) > SEEN_KEYS:
            _seen.popitem(last=False)
        return paint()
    recorders = _recorders()
    if kept is not None and kept.key == whole and all(
            now is None or got is not None
            for now, got in zip(recorders, kept.records, strict=True)):
        if CHECK:
            fresh = _draw(screen, surface, rect, paint, recorders, whole)
            _compare(name, key, kept, fresh)
            return fresh.result
        surface.blit(kept.pixels, rect)
        if screen is not None:
            screen.buttons.extend(kept.buttons)
        for now, got in zip(recorders, kept.records, strict=True):
            if now is not None and got:
                now.extend(got)
        return kept.result
    return STORE.put(h, _draw(screen, surface, rect, paint, recorders, whole)).result


def _draw(screen: Screen | None, surface: pygame.Surface, rect: pygame.Rect,
          paint: Callable[[], object], recorders: tuple[list[object] | None, ...],
          whole: Hashable) -> Kept:
    """Draw the part and keep what it drew and registered."""
    starts = [len(r) if r is not None else 0 for r in recorders]
    n = len(screen.buttons) if screen is not None else 0
    result = paint()
    buttons = tuple(screen.buttons[n:]) if screen is not None else ()
    records = tuple(tuple(r[s:]) if r is not None else None
                    for r, s in zip(recorders, starts, strict=True))
    return Kept(surface.subsurface(rect).copy(), buttons, records, result, whole)


# -- the check: every kept part drawn afresh and compared ---------------------------------


def _compare(name: str, key: Hashable, kept: Kept, fresh: Kept) -> None:
    what = []
    if (pygame.image.tobytes(kept.pixels, "RGB")
            != pygame.image.tobytes(fresh.pixels, "RGB")):
        what.append("pixels")
    if len(kept.buttons) != len(fresh.buttons) or not all(
            _same_button(a, b) for a, b in zip(kept.buttons, fresh.buttons, strict=False)):
        what.append("touch targets")
    for k, (a, b) in enumerate(zip(kept.records[:3], fresh.records[:3], strict=True)):
        if b is not None and a != b:  # (what a recorder that is off now would record)
            what.append(f"records ({('overflows', 'texts drawn', 'line breaks')[k]}: "
                        f"{a!r:.120} against {b!r:.120})")
    if kept.result != fresh.result:
        what.append("result")
    if what:
        MISMATCHES.append(f"{name} {key!r}: {', '.join(what)} differ from a fresh drawing")


def _same_button(a: ui.Button, b: ui.Button) -> bool:
    plain = ("label", "key", "enabled", "sub", "selected", "short", "short_sub", "fill",
             "text_colour", "size", "roles")
    return (a.rect == b.rect and all(getattr(a, f) == getattr(b, f) for f in plain)
            and _same_call(a.on_tap, b.on_tap) and _same_call(a.why, b.why)
            and a.extra.keys() == b.extra.keys()
            and all(_same_call(a.extra[k], b.extra[k]) for k in a.extra))


def _same_call(a: object, b: object) -> bool:
    """Whether two callbacks do the same (the same function over the same values): a kept
    touch target must do what the fresh one would."""
    if a is b:
        return True
    if isinstance(a, partial) and isinstance(b, partial):
        return (_same_call(a.func, b.func) and len(a.args) == len(b.args)
                and all(_same_call(x, y) for x, y in zip(a.args, b.args, strict=True))
                and a.keywords == b.keywords)
    code_a, code_b = getattr(a, "__code__", None), getattr(b, "__code__", None)
    if code_a is not None and code_a is code_b:
        cells_a = getattr(a, "__closure__", None) or ()
        cells_b = getattr(b, "__closure__", None) or ()
        return all(_same_call(x.cell_contents, y.cell_contents)
                   for x, y in zip(cells_a, cells_b, strict=True))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - a value that cannot be compared is not the same
        return False


def clear() -> None:
    """Forget every kept part and seen key."""
    STORE.clear()
    _seen.clear()


__all__ = ["CHECK", "ENABLED", "MISMATCHES", "RETAINED_BYTES", "STORE", "Kept", "Stopped", "begin",
           "clear", "end", "panel", "pixels"]
