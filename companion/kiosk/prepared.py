"""Screens made ahead: where they are kept, and how a tap finds the one made for it.

A screen's panels are kept for that screen alone (their touch targets call it), so the first
frame of another screen can be blitted only if that very screen was made and drawn before the
tap.  The kiosk's idle time does that (``screens.prepare``: the home screen's Resume, set-up,
history and settings, the set-up screen's new game; ``screens.ahead``: a game's log), and
keeps them in ``LookAhead.prepared`` for the screen on show (``prepared_by``); ``App.go``
asks :func:`made` for the screen to show, which is the one made ahead when it was made for
the screen the tap came from, else a new one.  A screen is made with ``LookAhead.make`` (the
app's ``routes.screen_class``): this module imports no screen.

While a screen is made or drawn ahead, what it says (``App.toast``) goes to a throwaway queue
(:func:`quiet`): the table hears it when the screen is shown and says it again.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

import pygame

from .toasts import Toasts

if TYPE_CHECKING:
    from companion.journal import JournaledGame

    from .context import Kiosk
    from .screens.base import Screen


Route = tuple[str, tuple[tuple[str, Hashable], ...]]
"""A screen's name (``routes.ROUTES``) and the arguments it is made with, sorted."""


def route(name: str, kwargs: dict[str, Any]) -> Route | None:
    """``name`` and ``kwargs`` as a key, or None when an argument cannot be one."""
    try:
        found: Route = (name, tuple(sorted(kwargs.items())))
        hash(found)
    except TypeError:
        return None
    return found


def store(screen: Screen) -> dict[Hashable, object]:
    """The screens made ahead for ``screen`` (those made for another screen are dropped)."""
    ahead = screen.app.ahead
    if ahead.prepared_by is not screen:
        ahead.prepared.clear()
        ahead.prepared_by = screen
    return ahead.prepared


def route_frame(screen: Screen, key: Route, kwargs: dict[str, Any], surface: pygame.Surface,
                fresh: bool = False) -> None:
    """Make the screen ``key`` (``kwargs``: its arguments) for ``screen``, or take the one made
    before (a new one when ``fresh``: a screen that reads the table when made), and draw its
    frame on ``surface``."""
    app = screen.app
    if app.screen is not screen:
        return
    kept = store(screen)
    made_ahead = cast("Screen | None", kept.get(key))
    with quiet(app):
        if made_ahead is None or fresh:
            made_ahead = kept[key] = app.ahead.make(key[0])(app, **kwargs)
        made_ahead.draw(surface)


def own_frame(screen: Screen, surface: pygame.Surface) -> None:
    """The frame on screen drawn again, its parts kept now (not at their second sight)."""
    if screen.app.screen is screen:
        with quiet(screen.app):
            screen.draw(surface)


def made(app: Kiosk, name: str, kwargs: dict[str, Any]) -> Screen:
    """The screen ``name`` made with ``kwargs`` for ``App.go``: the one made ahead for the
    screen on show, if it was (the others are dropped), else a new one."""
    key = route(name, kwargs)
    found = cast("Screen | None", take(app, key) if key is not None else None)
    return found if found is not None else app.ahead.make(name)(app, **kwargs)


def take(app: Kiosk, key: Hashable) -> object | None:
    """What was made ahead as ``key`` for the screen on show, if anything; the rest goes."""
    ahead = app.ahead
    on_show = getattr(app, "screen", None)  # (none yet while the app starts)
    found = ahead.prepared.get(key) if on_show is not None and ahead.prepared_by is on_show \
        else None
    ahead.prepared.clear()
    ahead.prepared_by = None
    return found


@contextmanager
def playing(app: Kiosk, session: JournaledGame) -> Iterator[None]:
    """``session`` is the app's game for the while (a screen made or drawn for it ahead)."""
    saved = app.session
    app.session = session
    try:
        yield
    finally:
        app.session = saved


@contextmanager
def quiet(app: Kiosk) -> Iterator[None]:
    """What a screen says while it is made or drawn ahead goes to a throwaway queue (it says
    it again when it is shown); the app's own messages and ``dirty`` are as they were."""
    toasts, dirty = app.toasts, app.dirty
    app.toasts = Toasts()
    try:
        yield
    finally:
        app.toasts, app.dirty = toasts, dirty


__all__ = ["Route", "made", "own_frame", "playing", "quiet", "route", "route_frame", "store",
           "take"]
