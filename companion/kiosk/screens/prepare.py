"""The screens one tap away from the home and set-up screens, made and drawn ahead.

The frame after a move is drawn ahead in the kiosk's idle time (``lookahead``,
``screens.ahead``); the first frame of another screen is too, by making that screen before
the tap (``kiosk.prepared``: where the screens made ahead are kept, and how ``App.go`` finds
them).  The home screen makes the screens it leads to (a new game's set-up, the history, the
settings: :func:`frames`) and draws their first frame on the scratch surface; the tap then
shows the screen made ahead, whose frame blits what was drawn.  Its ``on_show`` runs when it
is shown, not before: nothing a screen does when it comes (reading the journal afresh,
dealing a virtual card) happens ahead.

Resume is the costly one: the game is replayed from the journal (every action checked by the
rules again, 80 ms for 400 actions on a Pi 4) and its table screen is the busiest first
frame.  The home screen prepares both (:func:`resume_frame`): the session replayed and the
game screen drawn.  Resume then takes them (:func:`resume`) if the journal still holds the
game as it was replayed (its status, its number of actions, its last change, what was handed
out), else it replays the game as before.  The hand-out steps still to confirm are read ahead
too (``HandOutView.resume``, which reads the journal and is done once a screen).  Only a game
the journal has as unfinished is prepared: resuming an abandoned one writes.

The set-up screen makes the new game's table screen (:func:`new_game_frame`) for the table
chosen and the seed Start will draw; Start (:func:`start`) shows it when both are the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion.engine.registry import spec
from companion.kiosk import logcache
from companion.kiosk.lookahead import NO_FRAME
from companion.kiosk.prepared import own_frame, playing, quiet, route, route_frame, take
from companion.kiosk.prepared import store as keep_for

if TYPE_CHECKING:
    from companion.engine import Setup
    from companion.journal import GameInfo, JournaledGame
    from companion.kiosk.context import Kiosk
    from companion.kiosk.lookahead import Ahead

    from .base import GameScreen, Screen


@dataclass(frozen=True)
class Resumed:
    """A game replayed ahead from the journal, and its table screen made for it."""

    version: tuple[object, ...]
    """What the journal said of the game when it was replayed (:func:`_version`) and what
    the table had handed out of it."""
    session: JournaledGame
    screen: Screen


def frames(screen: Screen, leads: list[tuple[str, dict[str, Any]]]) -> Iterator[Ahead]:
    """The first frame of each screen ``screen`` leads to (``leads``: name and arguments, as
    ``App.go`` takes them, most likely first), then the frame on screen itself (its parts kept
    now, not at their second sight)."""
    for name, kwargs in leads:
        key = route(name, kwargs)
        if key is not None:
            yield partial(route_frame, screen, key, kwargs)
    yield partial(own_frame, screen)


def resume_frame(home: Screen, info: GameInfo, surface: pygame.Surface) -> None:
    """Replay the game ``info`` (the home screen's Resume, a game of the unfinished games'
    list) and draw its table screen's first frame; both kept for :func:`resume`."""
    app = home.app
    journal = app.journal
    if app.screen is not home or journal is None or info.status != "playing":
        return
    store = keep_for(home)
    key = ("resume", info.id)
    found = store.get(key)
    if not isinstance(found, Resumed):
        before = _version(journal.get(info.id))
        session = journal.resume(info.id)
        screen = None if session.game.is_over(session.state) else _table_screen(app, session)
        if screen is None or _version(journal.get(info.id)) != before:
            return  # (the end screen, the generic screen: made as before)
        with playing(app, session), quiet(app):
            screen.handout_view.resume()  # what is still to hand out, as on_show will find
        found = store[key] = Resumed((*before, session.handed_out()), session, screen)
    _draw_for(app, found.session, found.screen, surface)


def resume_log(home: Screen, info: GameInfo) -> Iterator[Ahead]:
    """Resume's game's log kept up a step at a time (``logcache``), once the game is replayed
    (:func:`resume_frame`): the game resumed spends its first idle passes on the frames one
    action away, not on its log's words (a 360-action game's take twelve steps, a third of a
    second on a Pi 4)."""
    while (found := _resumed(home, info)) is not None and logcache.behind(found.session):
        yield partial(_resume_log, home, found)


def _resumed(home: Screen, info: GameInfo) -> Resumed | None:
    found = keep_for(home).get(("resume", info.id)) if home.app.screen is home else None
    return found if isinstance(found, Resumed) else None


def _resume_log(home: Screen, found: Resumed, surface: pygame.Surface) -> str:
    if home.app.screen is home:
        logcache.keep_up(found.session, home.m, surface.get_size())
    return NO_FRAME


def _table_screen(app: Kiosk, session: JournaledGame) -> GameScreen[Any, Any] | None:
    """The table screen ``session``'s game declares, made for it (None for a game without
    one, or whose loader makes no game screen: ``App.open_game`` says what is wrong with it
    when the table opens the game)."""
    from .base import GameScreen

    load = spec(session.game.name).screen
    if load is None:
        return None
    with playing(app, session), quiet(app):
        screen = load()(app)
    return screen if isinstance(screen, GameScreen) else None


def _draw_for(app: Kiosk, session: JournaledGame, screen: Screen,
              surface: pygame.Surface) -> None:
    """``screen``'s frame, drawn for ``session`` (not the table's yet)."""
    with playing(app, session), quiet(app):
        screen.draw(surface)


def resume(app: Kiosk, game_id: int) -> None:
    """Resume the journal's game ``game_id``: the game replayed ahead and its screen, if the
    journal still holds the game as it was replayed, else replayed now."""
    from .base import GameScreen

    journal = app.journal
    assert journal is not None
    found = take(app, ("resume", game_id))
    if (isinstance(found, Resumed) and isinstance(found.screen, GameScreen)
            and found.version == (*_version(journal.get(game_id)),
                                  found.session.handed_out())):
        app.session = found.session
        app.show(found.screen)
        return
    app.session = journal.resume(game_id)
    app.open_game()


@dataclass(frozen=True)
class NewGame:
    """A new game's table screen, made ahead for the set-up chosen."""

    chosen: tuple[object, ...]
    """The set-up, the seed Start will draw and the companion's seats."""
    session: JournaledGame
    """The game as Start will begin it, not in the journal (its id 0): drawn, never played."""
    screen: Screen


def new_game_frame(setup_screen: Screen,
                   chosen: Callable[[], tuple[Setup, dict[int, str]] | str],
                   surface: pygame.Surface) -> None:
    """The first frame of the game the set-up screen would start now (``chosen()``: the set-up
    and the companion's seats, or why it cannot start): the set-up chosen, the
    seed Start will draw (the app's generator, peeked at), its table screen made and drawn
    for a game that is not in the journal; kept for :func:`start`."""
    from companion.engine import get_game
    from companion.engine.playthrough import Playthrough
    from companion.journal import JournaledGame

    app = setup_screen.app
    table = chosen()
    if app.screen is not setup_screen or app.journal is None or isinstance(table, str):
        return
    setup, companions = table
    peek = random.Random()
    peek.setstate(app.rng.getstate())
    key = (setup, peek.randrange(2**31), tuple(sorted(companions.items())))
    store = keep_for(setup_screen)
    found = store.get("new game")
    if not isinstance(found, NewGame) or found.chosen != key:
        game = get_game(setup.game)
        session = JournaledGame(app.journal, 0, game, Playthrough(game, setup, key[1]), 0,
                                companions)
        screen = _table_screen(app, session)
        if screen is None:
            return
        with playing(app, session), quiet(app):
            screen.handout_view.begin()  # the set-up's steps, as the journal will have them
        found = store["new game"] = NewGame(key, session, screen)
    _draw_for(app, found.session, found.screen, surface)


def start(app: Kiosk, setup: Setup, companions: dict[int, str], seed: int) -> None:
    """Start a new game of ``setup`` in the journal and show it: its screen made ahead, if it
    was for this set-up, seed and companion, else a new one."""
    from .base import GameScreen

    journal = app.journal
    assert journal is not None
    found = take(app, "new game")
    app.session = journal.start(setup, seed=seed, companions=companions, handing_out=True)
    if (isinstance(found, NewGame) and isinstance(found.screen, GameScreen)
            and found.chosen == (setup, seed, tuple(sorted(companions.items())))):
        app.show(found.screen)
        return
    app.open_game()


def _version(info: GameInfo) -> tuple[object, ...]:
    return (info.status, info.actions, info.updated)


__all__ = ["NewGame", "Resumed", "frames", "new_game_frame", "resume", "resume_frame", "start"]
