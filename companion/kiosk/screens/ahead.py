"""The frames a game screen may draw next, for the kiosk to draw ahead (``lookahead``).

A game screen's likely next frames, most likely first:

* under a card read by a hold, the help, a tableau or a preview, the frame Back returns to;
* while a hand-out step is on show, the frame after its confirmation (the next step, or the
  game);
* the previewed action's result while a preview waits for Confirm;
* the frame after Continue while a result waits for it (``Screen.continue_ahead``), and
  nothing else (every other frame would show the result too); once the game is over, the
  end screen's first frame (the last tap shows it);
* the state after the companion's whole visit once it is decided (the table carries it out
  and confirms once);
* the actions a first tap narrowed the choice to (``GameScreen.likely_now``: a worker picked,
  where it may go);
* the first action that hands the game to each other seat, and the first that leaves the
  seat fewest choices (their new parts, the costliest, serve every action that ends the
  turn or spends its last AP);
* the screen's own likely taps that change it alone (``Screen.ui_variants``: a worker
  picked);
* each other action the rules allow now (those taken at once before those the screen
  previews: a preview is quick to draw on the tap, and its result is drawn ahead while it is
  read), or the likeliest chance outcomes when the table reveals: as its preview where the
  screen shows one first (``propose``), else the state after it with the hand-out steps it
  brings (``HandOutPlan.steps``, as the commit queues them);
* the game log's first frame after the first ``LOG_AFTER`` of those (a log screen made for
  this position, ``prepared``), its words kept up with the game a step at a time before all
  (``logcache``);
* last, the frame on screen itself (drawn again when a message or a light goes: its parts
  kept whole now rather than at their second sight).

Each is drawn by the screen itself, with its state put in for the while
(``GameScreen.ahead_state``), and everything the drawing may change on the screen and its
panels put back after (``drawing_ahead``).  Under the hint nothing more is drawn ahead
(closing it asks the companion).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, TypeVar

import pygame

from companion.engine import CHANCE, TERMINAL, RulesError
from companion.kiosk import logcache
from companion.kiosk.handout import HandOutQueue
from companion.kiosk.lookahead import MOST, NO_FRAME
from companion.kiosk.prepared import quiet, route, route_frame

from .game import Preview

if TYPE_CHECKING:
    from companion.kiosk.lookahead import Ahead

    from .base import GameScreen, Screen

CHANCE_MOST = 12
"""The most reveals drawn ahead of a chance (the likeliest; a bag's draw or a die has fewer,
a deck up to forty, whose frames would push the kept parts out of their 48 MB)."""

S = TypeVar("S")
A = TypeVar("A")


def game_frames(screen: GameScreen[S, A]) -> Iterator[Ahead]:
    """The frames ``screen`` may draw after the table's next tap, the log's among the first
    (``LOG_AFTER``), then the frame on screen itself (drawn again when a message or a light
    goes: its parts kept whole now, not at their second sight); the game's log kept up
    first."""
    state = screen.state
    while logcache.behind(screen.session):  # the game log kept up (a step at a time)
        yield partial(_log_ahead, screen, state)
    # (``lookahead.MOST`` frames in all: room for the log's and the frame on screen)
    after = _next_frames(screen, state)
    yield from itertools.islice(after, LOG_AFTER)
    yield partial(_log_frame, screen, state)
    yield from itertools.islice(after, max(0, MOST - 2 - LOG_AFTER))
    yield partial(_variant, screen, state, _unchanged)


LOG_AFTER = 3
"""The frames one action away drawn ahead before the log's first frame.  A tap on Log is
rarer than a move, but its first frame unprepared is the costliest (a game's whole log: 10 to
18 ms here, 0.1 to 0.2 s on a Pi 4, against 3 to 5 ms for a move's), and drawn ahead it takes
1 to 2 ms: last, it was still undrawn a quarter of a second after a Pillars move on a Pi 4
(``bench_pi.py --only screens``)."""


def back_frame(over: Screen, game: GameScreen[S, A], surface: pygame.Surface) -> None:
    """The frame Back shows from a screen opened over a game (its log): the game screen's
    frame drawn again, its parts kept now, and all its drawing changes put back."""
    if over.app.screen is over:
        with quiet(over.app), drawing_ahead(game, None):
            game.draw(surface)


def _log_frame(screen: GameScreen[S, A], before: S, surface: pygame.Surface) -> None:
    """The log's first frame, as the bar's Log button would show it: a log screen made for
    this position (``prepared``; ``App.go`` shows it)."""
    kwargs: dict[str, object] = {"previous": screen}
    key = route("log", kwargs)
    if screen.state is before and key is not None and not logcache.behind(screen.session):
        route_frame(screen, key, kwargs, surface, fresh=True)


def _log_ahead(screen: GameScreen[S, A], before: S, surface: pygame.Surface) -> str:
    """The game's log brought up to date by a step, its new lines measured: the log opened
    lays out from what is kept (``logcache``).  Draws no frame."""
    if screen.state is before:
        logcache.keep_up(screen.session, screen.m, surface.get_size())
    return NO_FRAME


def _next_frames(screen: GameScreen[S, A], state: S) -> Iterator[Ahead]:
    """The frames the table's next tap may bring, most likely first: the frame under what
    Back closes, the next hand-out step, the preview's result, Continue on a result, the
    companion's visit done, the end screen, the new turns, the screen's own variants, each
    action allowed (or reveal)."""
    if screen.hint_open:  # (closing the hint asks the companion)
        return
    if (screen.reader.held is not None or screen.help_open or screen.tableau is not None
            or screen.preview is not None):
        yield partial(_variant, screen, state, screen.close_overlay)
        if screen.preview is None:
            return
    game = screen.game
    who = game.current_player(state)
    over = who == TERMINAL
    if screen.handouts.current is not None:  # the table confirms the step on show
        yield partial(_next_handout, screen, state)
        if over:  # (the last step: the end screen next)
            yield partial(_end_frame, screen, state)
        return
    if screen.preview is not None:
        yield partial(_draw, screen, state, screen.preview.after, screen.preview.action)
        return
    resumed = screen.continue_ahead()
    if resumed is not None:  # a result on show: Continue is the tap (the rest is under it)
        yield partial(_variant, screen, state, resumed)
        return
    planned = screen.visit_ready()
    if planned:  # the table carries out the companion's visit: the frame after its last action
        yield partial(_after, screen, state, tuple(planned))
        return
    if over:  # Continue on the last breakdown shows the end screen
        yield partial(_end_frame, screen, state)
        return
    if who == CHANCE:  # the likeliest reveals (a deck's forty cards would crowd the others out)
        outcomes = sorted(game.chance_outcomes(state), key=lambda o: -o[1])[:CHANCE_MOST]
        actions = [a for a, _p in outcomes]
    else:
        legal = game.legal_actions(state)
        afters = [_applied(screen, state, a) for a in legal]  # (None: refused)
        now = screen.likely_now(legal)  # (a worker picked: its sends)
        front = [a for a in _new_turns(screen, state, legal, afters) if a not in now]
        for action in (*now, *front):  # (before the picks: a new turn's frame costs the most)
            yield partial(_after, screen, state, (action,))
        for change in screen.ui_variants():  # a worker picked: the first tap of a send
            yield partial(_variant, screen, state, change)
        rest = [(a, after) for a, after in zip(legal, afters, strict=True)
                if a not in front and a not in now]
        actions = _at_once_first(screen, state, rest)
    for action in actions:
        yield partial(_after, screen, state, (action,))


def _applied(screen: GameScreen[S, A], state: S, action: A) -> S | None:
    try:
        return screen.game.apply(state, action)
    except RulesError:
        return None


def _at_once_first(screen: GameScreen[S, A], state: S,
                   actions: list[tuple[A, S | None]]) -> list[A]:
    """``actions`` (each with the state after it), those the table sees at once first, then
    those the screen previews (``wants_preview``: a card taken from a row): a preview is a
    panel over the frame on screen, quick to draw on the tap, and its result is drawn ahead
    while the table reads it; a move taken at once shows its result at once, with the new
    parts it brings."""
    return [a for a, _after in sorted(actions, key=lambda pair: pair[1] is None
                                      or screen.wants_preview(state, pair[0], pair[1]))]


def _new_turns(screen: GameScreen[S, A], state: S, actions: list[A],
               afters: list[S | None]) -> list[A]:
    """Of ``actions`` (``afters``: the state after each, None where refused), those drawn
    ahead first: the first that hands the game to each other seat (or to a reveal), and the
    first that leaves the seat fewest choices (the last of its turn spent: everything it
    could take now out of reach).  Their frames are the costliest to draw (new panels, every
    card of the rows drawn anew: 3 to 5 ms here in The Builders, against 0.5 to 1 ms for a
    move within the turn or a worker picked), and once drawn their parts serve every action
    that leads to the same (ending the turn, spending the last AP on coins), wherever the
    rules list them: a quick tap finds them drawn."""
    game = screen.game
    who = game.current_player(state)
    first: dict[int, A] = {}
    fewest: tuple[int, A] | None = None
    for action, after in zip(actions, afters, strict=True):
        if after is None:
            continue
        seat = game.current_player(after)
        if seat != who:
            first.setdefault(seat, action)
        elif (n := len(game.legal_actions(after))) < len(actions) and (
                fewest is None or n < fewest[0]):
            fewest = (n, action)
    return [*first.values(), *([fewest[1]] if fewest is not None else [])]


def _end_frame(screen: GameScreen[S, A], before: S, surface: pygame.Surface) -> None:
    """The end screen's first frame, as the game's last tap shows it (``open_game``): an
    end screen made for this position (``prepared``; it reads the game again when shown if
    the table took the last action back meanwhile)."""
    kwargs: dict[str, object] = {"game_id": screen.session.id}
    key = route("end", kwargs)
    if screen.state is before and key is not None:
        route_frame(screen, key, kwargs, surface, fresh=True)


def _after(screen: GameScreen[S, A], before: S, actions: tuple[A, ...],
           surface: pygame.Surface) -> None:
    """The frame after ``actions`` (one, or a companion's visit) from ``before``: for one
    action the screen previews (``wants_preview``), its preview, as ``propose`` makes it."""
    after = before
    try:
        if len(actions) == 1:
            step = screen.game.step(before, actions[0])
            if screen.wants_preview(before, actions[0], step.after):
                preview = Preview.of(step, screen.preview_title(before, actions[0]),
                                     screen.preview_lines(before, step.after))
                if screen.state is before:
                    with drawing_ahead(screen, None, preview=preview):
                        screen.draw(surface)
                return
            after = step.after
        else:
            for action in actions:
                after = screen.game.apply(after, action)
    except RulesError:
        return
    _draw(screen, before, after, actions[0] if len(actions) == 1 else None, surface)


def _draw(screen: GameScreen[S, A], before: S, after: S, action: A | None,
          surface: pygame.Surface) -> None:
    """The frame of ``after``, with the hand-out steps ``action`` (taken on ``before``) brings
    as the screen's commit queues them."""
    if screen.state is not before:  # the table moved on: no longer one action away
        return
    queue = None
    if action is not None:
        steps = screen.plan.steps(before, action, after)
        if steps:
            queue = HandOutQueue()
            queue.add(len(screen.session.playthrough.actions), steps)
    with drawing_ahead(screen, after, queue):
        screen.draw(surface)


def _unchanged() -> None:
    """No change: the frame on screen."""


def _variant(screen: GameScreen[S, A], before: S, change: Callable[[], object],
             surface: pygame.Surface) -> None:
    """The frame after a tap that changes the screen alone (``Screen.ui_variants``)."""
    if screen.state is not before:
        return
    with drawing_ahead(screen, None):
        change()
        screen.draw(surface)


def _next_handout(screen: GameScreen[S, A], before: S, surface: pygame.Surface) -> None:
    """The frame after the table confirms the hand-out step on show: the next step, or the
    game once none is left (the state is the same)."""
    if screen.state is not before or not screen.handouts.pending:
        return
    queue = replace(screen.handouts, pending=list(screen.handouts.pending[1:]))
    with drawing_ahead(screen, None, queue):
        screen.draw(surface)


@contextmanager
def drawing_ahead(screen: GameScreen[S, A], state: S | None,
                  queue: HandOutQueue | None = None,
                  preview: Preview[S, A] | None = None) -> Iterator[None]:
    """``screen`` draws ``state`` (None: the table's), with ``preview`` over it (None: none)
    and the hand-out steps of ``queue`` (if given), for the while; then every attribute of the
    screen, its panels and their state objects is as it was (``_snapshot``: a drawing may note
    where it put things, for the taps, or turn a page back into range; those stay the frame
    on screen's)."""
    kept = _snapshot(screen)
    screen.ahead_state, screen.preview = state, preview
    if queue is not None:
        screen.handouts = screen.handout_view.queue = queue
    try:
        yield
    finally:
        for obj, attrs in kept:
            vars(obj).clear()
            vars(obj).update(attrs)


def _snapshot(screen: object) -> list[tuple[object, dict[str, object]]]:
    """The screen's attributes and those of the parts it holds, three deep: its panels and
    views and their state objects (a page turned back by ``%=`` while drawing is put back
    too), the objects of the kiosk's modules it refers to, directly or in a list or dict."""
    found: list[tuple[object, dict[str, object]]] = []
    seen: set[int] = set()
    todo: list[tuple[object, int]] = [(screen, 0)]
    while todo:
        obj, depth = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        attrs = vars(obj).copy()
        found.append((obj, attrs))
        if depth >= DEPTH:
            continue
        deeper = depth + 1
        for name, value in attrs.items():
            if name in _WHOLE:
                continue
            if isinstance(value, dict):
                todo.extend((item, deeper) for item in value.values() if _part(item))
            elif isinstance(value, list | tuple):
                todo.extend((item, deeper) for item in value if _part(item))
            elif _part(value):
                todo.append((value, deeper))
    return found


_WHOLE = frozenset({"buttons", "roles"})
"""A screen's attributes put back as they are, not looked into: the touch targets and roles
of the frame on screen, which a drawing replaces (``Screen.draw``) and never changes (a kept
part's touch targets are shared by every frame that blits it).  Looking into them was a
quarter of a frame drawn ahead (a Builders screen has 30 to 40 touch targets)."""


DEPTH = 3
"""How deep ``drawing_ahead`` puts attributes back: screen, panel, the panel's state, and one
more."""

_NOT_PARTS = (".app", ".journal", ".seats", ".visit")
"""Modules whose objects are never put back: the app's, and the companion's work (a worker
thread sets its outcome meanwhile; putting it back would lose the decision)."""


def _part(obj: object) -> bool:
    """Whether ``obj`` is one of the kiosk's objects with attributes (decided once a type)."""
    kind = type(obj)
    found = _PART_TYPES.get(kind)
    if found is None:
        module = kind.__module__
        found = _PART_TYPES[kind] = (hasattr(obj, "__dict__") and module.startswith("companion.")
                                     and ".kiosk." in module + "."
                                     and not module.endswith(_NOT_PARTS))
    return found


_PART_TYPES: dict[type, bool] = {}
