"""Drive the kiosk as a person would: taps on buttons, presses of the table's buttons, time.

Everything goes through SDL events and the app's own event handling, on SDL's dummy video
driver, with a journal in a temporary folder.
"""

from __future__ import annotations

import os
import re
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402

from companion.kiosk.app import App  # noqa: E402
from companion.kiosk.config import Config  # noqa: E402
from companion.kiosk.inputs import KEYMAP, listen  # noqa: E402


def make_app(
    tmp: Path,
    size: tuple[int, int] = (800, 480),
    language: str = "en",
    virtual_deck: bool = False,
    seed: int = 1,
) -> App:
    from companion.journal import Journal

    pygame.init()
    journal = Journal.open(tmp / "journal.sqlite3")
    # A table that has set up before: no set-up guide at Start, no teaching cards (the tests
    # of those turn them on).
    cfg = Config(
        language=language, sound=False, width=size[0], height=size[1], virtual_deck=virtual_deck,
        setup_guide=False, teach="off",
    )
    app = App(
        cfg,
        size=size,
        fullscreen=False,
        journal=journal,
        config_path=tmp / "config.toml",
        seed=seed,
    )
    listen()  # the devices' events reach this app, as companion.main arranges
    app.render(force=True)
    return app


def open_device(app: App, opener: Any, **kwargs: Any) -> Any:
    """Open a device as ``companion.main`` does (``opener(config_path, **kwargs)`` gives the
    device and its notices), showing its notices on ``app``; the device."""
    from companion.kiosk.devices import notice_text

    assert app.config_path is not None
    device, notices = opener(app.config_path, **kwargs)
    for notice in notices:
        app.toast(notice_text(notice), good=notice.good)
    return device


def keys(app: App) -> list[str]:
    """The keys of the buttons on screen now."""
    return [b.key for b in app.screen.buttons]


def find(app: App, key: str) -> Any:
    for b in app.screen.buttons:
        if b.key == key:
            return b
    raise AssertionError(f"no button {key!r} on {type(app.screen).__name__}: {keys(app)}")


def tap(app: App, key: str, touch: bool = False) -> None:
    """Tap the centre of the button ``key`` (a finger when ``touch``, else the mouse)."""
    b = find(app, key)
    x, y = b.rect.center
    if touch:
        w, h = app.size
        event = pygame.event.Event(pygame.FINGERUP, x=x / w, y=y / h, touch_id=1, finger_id=0)
    else:
        event = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1, touch=False)
    app.handle_event(event)
    app.render()


def press(app: App, role: str) -> None:
    """Press one of the table's buttons through its keyboard stand-in."""
    key = next(k for k, r in KEYMAP.items() if r == role)
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    app.render()


def wait(app: App, seconds: float) -> None:
    """Let time pass in steps of a frame."""
    steps = max(1, int(seconds * 30))
    for _ in range(steps):
        app.tick(seconds / steps)
    app.render()


def hold(app: App, key: str, seconds: float = 0.8, touch: bool = False) -> None:
    """Hold a finger (or the mouse button) still on the button ``key`` for ``seconds``, then
    lift it: the screen reads what is under it, and the tap it ends with is not taken."""
    b = find(app, key)
    x, y = b.rect.center
    w, h = app.size
    if touch:
        down = pygame.event.Event(pygame.FINGERDOWN, x=x / w, y=y / h, touch_id=1, finger_id=0)
        up = pygame.event.Event(pygame.FINGERUP, x=x / w, y=y / h, touch_id=1, finger_id=0)
    else:
        down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=False)
        up = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1, touch=False)
    app.handle_event(down)
    wait(app, seconds)
    app.handle_event(up)
    app.render()


def drag(
    app: App,
    start: tuple[int, int],
    end: tuple[int, int],
    seconds: float = 0.3,
    steps: int = 10,
    touch: bool = True,
    pause: float = 0.0,
) -> None:
    """Drag a finger from ``start`` to ``end`` in ``seconds`` (``steps`` moves), keep it still
    there for ``pause`` seconds, then lift it: a quick drag lifted at once is a flick."""
    w, h = app.size

    def event(kind: int, pos: tuple[int, int]) -> Any:
        if touch:
            return pygame.event.Event(kind, x=pos[0] / w, y=pos[1] / h, touch_id=1,
                                      finger_id=0, dx=0.0, dy=0.0)
        mouse = {pygame.FINGERDOWN: pygame.MOUSEBUTTONDOWN, pygame.FINGERMOTION:
                 pygame.MOUSEMOTION, pygame.FINGERUP: pygame.MOUSEBUTTONUP}[kind]
        extra = {"buttons": (1, 0, 0), "rel": (0, 0)} if mouse == pygame.MOUSEMOTION else {
            "button": 1}
        return pygame.event.Event(mouse, pos=pos, touch=False, **extra)

    app.handle_event(event(pygame.FINGERDOWN, start))
    for k in range(1, steps + 1):
        app.tick(seconds / steps)
        pos = (start[0] + (end[0] - start[0]) * k // steps,
               start[1] + (end[1] - start[1]) * k // steps)
        app.handle_event(event(pygame.FINGERMOTION, pos))
    if pause:
        app.tick(pause)
    app.handle_event(event(pygame.FINGERUP, end))
    app.render()


def position(
    game_name: str, stop: Any, seed: int = 5, players: int = 4, seeds: int = 60
) -> tuple[Any, list[str], Any]:
    """The set-up and actions of a seeded random game up to the first state where
    ``stop(state, action, next_state)`` holds, and that action (tried on seeds from ``seed``
    on); AssertionError when no game has one."""
    import random

    from companion.engine import CHANCE, TERMINAL, get_game
    from companion.engine.simulate import sample

    game = get_game(game_name)
    for s in range(seed, seed + seeds):
        rng = random.Random(s)
        setup = game.setup(players)
        state = game.initial_state(setup)
        actions: list[str] = []
        while game.current_player(state) != TERMINAL:
            if game.current_player(state) == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                action = rng.choice(game.legal_actions(state))
            after = game.apply(state, action)
            if stop(state, action, after):
                return setup, actions, action
            actions.append(str(action))
            state = after
    raise AssertionError(f"no {game_name} game from seed {seed} reaches that position")


def enter(app: App, setup: Any, actions: list[str]) -> None:
    """A new game in the app's journal played up to ``actions``, on its screen."""
    assert app.journal is not None
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    app.open_game()
    app.render(force=True)
    handed_out(app)


def shows(drawn: list[str], text: str) -> bool:
    """Whether ``text`` is among the texts drawn (``drawn_texts``), also when it was paged:
    drawn line by line as it was wrapped, across texts drawn one after another (spaces,
    line ends and the arrow of a text going on on the next page left out)."""
    def bare(t: str) -> str:
        return re.sub(r"\s+|→", "", t)

    return bare(text) in bare("".join(str(t) for t in drawn))


def read_pages(app: App, more: str, turn: Any = None) -> list[str]:
    """Every text drawn on every page of what is on show, the button ``more`` turning the
    page (``turn``: what turns it instead of a tap, CONFIRM for an instruction), as a table
    reads a paged text."""
    drawn: list[str] = []
    for _k in range(20):
        drawn += drawn_texts(app)
        if more not in keys(app):
            return drawn
        if turn is None:
            tap(app, more)
        else:
            turn()
    raise AssertionError(f"{more!r} never reached the last page")


def drawn_texts(app: App) -> list[str]:
    """Every text the screen on show draws (a whole frame, ``ui.DRAWN``)."""
    from companion.kiosk import ui

    ui.DRAWN = []
    try:
        app.render(force=True)
        return [str(t) for t in ui.DRAWN]
    finally:
        ui.DRAWN = None


def confirm_handout(app: App) -> None:
    """Confirm the hand-out step on show: its pages read (``handout more``), then Done."""
    for _k in range(10):
        if "handout more" not in keys(app):
            break
        tap(app, "handout more")
    tap(app, "handout confirm")


def handed_out(app: App) -> None:
    """Confirm the hand-out steps a game shows on opening (the last action's, in case the
    table had not handed them out), as a table that had would."""
    for _k in range(20):
        handouts = getattr(app.screen, "handouts", None)
        if handouts is None or handouts.current is None:
            return
        confirm_handout(app)
    raise AssertionError("the hand-out steps never ended")


def start_while_held(
    monkeypatch: Any, config: Path, release: Any, then: Any = None
) -> dict[str, Any]:
    """``companion.main.run_kiosk(config)`` while its journal cannot be opened, its loop
    stepped by hand: the first frame, a retry (still held), ``release()``, a retry (open).
    What was seen: ``first`` and ``still`` (screens), ``message`` (the first screen's),
    ``retry`` (seconds the held retry took), ``then`` (the screen once open), ``journal``,
    ``toasts`` (the message on screen and those waiting); ``then(app, seen)`` adds more."""
    from companion.kiosk import app as app_mod
    from companion.kiosk.app import JOURNAL_RETRY_SECONDS
    from companion.main import run_kiosk

    seen: dict[str, Any] = {}

    def run(self: App) -> None:
        self.render(force=True)
        seen["first"] = self.screen
        seen["message"] = getattr(self.screen, "message", "")
        t0 = time.monotonic()
        self.tick(JOURNAL_RETRY_SECONDS + 0.1)  # still held: tried, still waiting
        seen["retry"] = time.monotonic() - t0
        seen["still"] = self.screen
        release()
        self.tick(JOURNAL_RETRY_SECONDS + 0.1)  # free: opened, the home screen
        self.render()
        seen["then"] = self.screen
        seen["journal"] = self.journal
        seen["toasts"] = [self.toast_text, *(m for m, _ in self.toasts.waiting)]
        if then is not None:
            then(self, seen)

    monkeypatch.setattr(app_mod.App, "run", run)
    t0 = time.monotonic()
    assert run_kiosk(config, size=(800, 480)) == 0
    seen["seconds"] = time.monotonic() - t0
    return seen
