"""Retained panels (``companion.kiosk.retained``): a part drawn again with the same inputs is
blitted from what was kept, and must look and act exactly as a fresh drawing.

The walks play seeded random games of both games through the screen (taps on the buttons on
screen: moves, previews and their Confirm, selections, a tableau, undo, the language) at both
display sizes, and after every tap draw the frame three ways: as the kiosk draws it (parts
kept), with every part drawn afresh (``retained.ENABLED`` off), and with ``retained.CHECK`` (every
kept part drawn afresh too and compared, naming the part that differs).  The pixels, the touch
targets and the roles must be the same.  A key that leaves out an input the part draws from
(the test below breaks one) is caught."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.engine import get_game  # noqa: E402
from companion.kiosk import retained, textcache  # noqa: E402
from companion.kiosk.app import App  # noqa: E402
from companion.kiosk.screens.game import open_game  # noqa: E402
from companion.kiosk.ui import Button  # noqa: E402

from .kiosk_helpers import make_app  # noqa: E402
from .sweeps import sampled  # noqa: E402

SKIP = {"menu", "log", "table check", "help", "hint"}
"""Buttons the walk does not tap: they leave the game's screen (or wait for the companion)."""


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    retained.clear()
    textcache.clear()
    retained.MISMATCHES.clear()
    yield
    retained.ENABLED, retained.CHECK = True, False
    retained.MISMATCHES.clear()


def _frame(app: App) -> tuple[bytes, list[tuple[object, ...]], list[str], list[str]]:
    app.render(force=True)
    buttons = [(tuple(b.rect), b.key, b.label, b.sub, b.enabled, b.selected, b.roles)
               for b in app.screen.buttons]
    from companion.kiosk import ui

    overflows = list(ui.OVERFLOWS)
    ui.OVERFLOWS.clear()
    return (pygame.image.tobytes(app.surface, "RGB"), buttons, overflows)


def check_frame(app: App, where: str) -> None:
    """The frame as drawn with kept parts (twice: the second sight keeps them) equals the
    frame drawn afresh; with CHECK every kept part equals its fresh drawing."""
    from companion.kiosk import ui

    ui.OVERFLOWS.clear()  # (what other drawings recorded before)
    retained.ENABLED = True
    kept = [_frame(app), _frame(app)]
    retained.ENABLED = False
    fresh = _frame(app)
    retained.ENABLED, retained.CHECK = True, True
    try:
        _frame(app)
    finally:
        retained.CHECK = False
    assert not retained.MISMATCHES, f"{where}: {retained.MISMATCHES[:3]}"
    for k, got in enumerate(kept):
        assert got[1] == fresh[1], f"{where}: touch targets or their roles differ (drawing {k})"
        assert got[2] == fresh[2], f"{where}: overflows differ (drawing {k})"
        assert got[0] == fresh[0], f"{where}: pixels differ (drawing {k})"


def _tap(app: App, pos: tuple[int, int]) -> None:
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))


def walk(tmp: Path, name: str, size: tuple[int, int], steps: int, seed: int,
         skip: int = 0, ahead: bool = False) -> int:
    """Tap ``steps`` random buttons of a ``name`` game (the language switched now and then),
    checking every frame, after ``skip`` random moves played straight through the journal (a
    later phase of the game); the number of frames checked.  ``ahead``: before each tap the
    kiosk's idle time draws the likely next frames (``lookahead``), whose parts the next
    frame blits."""
    from companion.engine import CHANCE
    from companion.engine.simulate import sample

    app = make_app(tmp, size=size)
    rng = random.Random(seed)
    game = get_game(name)
    app.session = app.journal.start(game.setup(4), seed=seed)
    for _ in range(skip):
        state = app.session.state
        app.session.play(sample(game.chance_outcomes(state), rng)
                         if game.current_player(state) == CHANCE
                         else rng.choice(game.legal_actions(state)))
    open_game(app)
    checked = 0
    for step in range(steps):
        check_frame(app, f"{name} {size} step {step} ({type(app.screen).__name__})")
        checked += 1
        b = _choose(app, rng, step)
        if b is None or app.session is None:
            break
        if ahead:  # then the frame on screen drawn again (a message, a light): unchanged
            while app.ahead.run(app.screen, app.surface, 1.0, lambda: False):
                pass
            check_frame(app, f"{name} {size} step {step}, drawn again after drawing ahead")
            b = next((c for c in app.screen.buttons if c.key == b.key and c.rect == b.rect), b)
        _tap(app, b.rect.center)
        app.tick(0.05)
    app.journal.close()
    return checked


def _choose(app: App, rng: random.Random, step: int) -> Button | None:
    """Mostly a move (or its Confirm); now and then a tableau, Undo, Cancel or the language."""
    buttons = [b for b in app.screen.buttons
               if b.enabled and b.key not in SKIP and b.rect.width > 0]
    rare = {"language", "undo", "cancel", "close tableau"}
    if step % 17 == 8:
        buttons = [b for b in buttons if b.key == "language"] or buttons
    elif rng.random() < 0.1:
        buttons = [b for b in buttons if b.key in rare or b.extra.get("area")] or buttons
    else:
        buttons = ([b for b in buttons if not (b.key in rare or b.extra.get("area"))]
                   or [b for b in buttons if b.key in rare - {"language"}] or buttons)
    return rng.choice(buttons) if buttons else None


@pytest.mark.parametrize(("name", "size", "skip", "steps"), sampled([
    ("pillars", (800, 480), 0, 110), ("pillars", (720, 1280), 0, 110),
    ("builders", (800, 480), 0, 110), ("builders", (720, 1280), 0, 110),
    ("pillars", (720, 1280), 42, 45),  # the event, the tax, the market, the cathedral
    ("pillars", (720, 1280), 42, 110),  # ... and the next round
    ("builders", (800, 480), 60, 110),  # sites with workers, machines
], keep=[4]))  # by default 45 taps deep into Pillars (the Builders' deep walk, with the
# look-ahead, is test_lookahead's); all under -m full
def test_kept_frames_equal_fresh_frames(tmp_path: Path, name: str, size: tuple[int, int],
                                        skip: int, steps: int) -> None:
    assert walk(tmp_path, name, size, steps=steps, seed=5, skip=skip) >= steps * 6 // 11
    assert retained.STORE.hits > 0  # parts were kept and blitted, not only drawn


def test_a_key_missing_an_input_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    """A player's panel keyed without its seat shows an old count: the walk fails, and the
    check names the part."""
    from companion.pillars.kiosk import players

    monkeypatch.setattr(players, "player_key",
                        lambda screen, k, who: (k, k == who))  # the seat left out
    with pytest.raises(AssertionError, match="pillars player|pixels differ"):
        # (ten moves in, a few taps show it; from the start, 24 to 36 taps)
        walk(tmp_path, "pillars", (720, 1280), steps=70, seed=5, skip=10)


def test_kept_parts_stay_within_their_limit(tmp_path: Path) -> None:
    walk(tmp_path, "builders", (720, 1280), steps=15, seed=2)
    assert 0 < retained.STORE.weight <= retained.RETAINED_BYTES


def test_parts_off_the_frame_are_drawn(tmp_path: Path) -> None:
    """Outside a frame (``begin``), on another surface, or clipped, a part is drawn each time
    and nothing is kept."""
    surface = pygame.Surface((100, 100))
    drawn: list[int] = []
    rect = pygame.Rect(10, 10, 20, 20)
    for _ in range(3):
        retained.pixels(surface, rect, ("k",), lambda: drawn.append(1))
    retained.begin(surface)
    try:
        other = pygame.Surface((100, 100))
        for _ in range(3):
            retained.pixels(other, rect, ("k",), lambda: drawn.append(1))
        surface.set_clip(pygame.Rect(0, 0, 50, 50))
        for _ in range(3):
            retained.pixels(surface, rect, ("k",), lambda: drawn.append(1))
        surface.set_clip(None)
        for _ in range(3):  # seen once, kept the second time, blitted the third
            retained.pixels(surface, rect, ("k",), lambda: drawn.append(1))
    finally:
        retained.end()
    assert len(drawn) == 11
    assert len(retained.STORE) == 1


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_the_thinking_indicator_redraws_only_its_dots(tmp_path: Path, name: str,
                                                      size: tuple[int, int]) -> None:
    """While the companion thinks, the indicator moving on redraws only its dots (not the
    screen), and the frame is the same as the whole screen drawn then."""
    from companion.kiosk.seats import screenshot_scenes

    app = make_app(tmp_path, size=size)
    assert app.journal is not None
    try:
        dict(screenshot_scenes(app.journal))[f"companion-{name}-thinking"](app)
        app.tick(0)  # the companion starts thinking: the whole screen
        app.render(force=True)
        assert app.screen.companion_view.dots is not None  # type: ignore[attr-defined]
        thought = app.companion.decision
        assert thought is not None and thought.worker is not None
        # it goes on thinking for the test (a quick machine's answer would end the indicator)
        thought.worker.poll = lambda: None  # type: ignore[method-assign]
        drawn: list[int] = []
        real = app.screen.render
        app.screen.render = lambda surface: (drawn.append(1), real(surface))  # type: ignore
        for _ in range(6):
            app.time += 1 / 8
            app.tick(0)
            assert not app.dirty and app.parts, "the indicator's step alone is a part"
            assert app.render()
            partial_frame = pygame.image.tobytes(app.surface, "RGB")
            assert drawn == []  # the screen was not drawn again
            app.render(force=True)
            drawn.clear()
            assert pygame.image.tobytes(app.surface, "RGB") == partial_frame
    finally:
        app.companion.close()
        app.journal.close()
