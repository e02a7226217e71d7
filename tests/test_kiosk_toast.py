"""A message (a refusal, the camera's notice at start) never covers what the table reads next:
the title of the next instruction, Resume, Confirm (issue 22).  ``app.place_toast`` puts it
where it covers the least of the screen's texts and buttons."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import get_game
from companion.kiosk import ui
from companion.kiosk.screenshots import SIZES
from tests.kiosk_helpers import find, make_app


def _texts(app: object) -> list[ui.Drawn]:
    ui.DRAWN = []
    try:
        app.render(force=True)  # type: ignore[attr-defined]
        return [d for d in ui.DRAWN if isinstance(d, ui.Drawn) and d.strip()]
    finally:
        ui.DRAWN = None


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_camera_notice_at_start_leaves_resume_in_view(tmp_path: Path,
                                                          size: tuple[int, int]) -> None:
    game = get_game("pillars")
    app = make_app(tmp_path, size=size)
    app.journal.start(game.setup(3), seed=1)
    app.go("home")
    app.render(force=True)
    resume = find(app, "resume").rect
    app.toast("Camera: no camera found at /dev/video0; the table deals and taps its cards")
    texts = _texts(app)
    toast = app._toast_rect()
    assert not toast.colliderect(resume), (toast, resume)
    mine = [d for d in texts if "Camera" in d]
    assert mine and all(toast.contains(d.rect) for d in mine)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game_name", ["pillars", "builders"])
def test_a_refusal_leaves_the_next_instruction_readable(
    tmp_path: Path, size: tuple[int, int], game_name: str
) -> None:
    app = make_app(tmp_path, size=size, seed=3)
    game = get_game(game_name)
    app.session = app.journal.start(game.setup(3), seed=3)
    rng = random.Random(3)
    for _ in range(12):
        state = app.session.state
        if game.current_player(state) >= 0:
            action = rng.choice(game.legal_actions(state))
        else:
            action = rng.choice([a for a, p in game.chance_outcomes(state) if p > 0])
        app.session.play(game.format_action(action))
    app.open_game()
    before = _texts(app)
    bar = app.screen.bar_bottom()
    title = min((d for d in before if d.rect.top >= bar), key=lambda d: (d.rect.top, d.rect.x))
    app.refuse("That is not allowed now: a long reason that fills the message's whole width "
               "and wraps onto a second line")
    _texts(app)
    toast = app._toast_rect()
    assert toast.top >= bar
    assert not toast.colliderect(title.rect), (str(title), title.rect, toast)


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_a_message_on_screen_leaves_the_texts_places_cached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The message keeps off the texts' areas (``ui.AREAS``), recorded without placing the
    texts afresh: a frame with a message redrawn places no text, and the message goes where
    the texts as drawn (``ui.DRAWN``) would put it."""
    from companion.kiosk import linebreak, retained
    from companion.kiosk.screens.game import open_game
    from companion.kiosk.toasts import place_toast

    for module, flag, value in ((retained, "CHECK", False), (ui, "CHECK_GLYPHS", False),
                                (ui, "DRAWN", None), (linebreak, "RECORD", None)):
        monkeypatch.setattr(module, flag, value)  # (as the kiosk draws, whatever ran before)
    app = make_app(tmp_path, size=(720, 1280))
    app.session = app.journal.start(get_game(name).setup(4), seed=3)
    open_game(app)
    app.toast("A message for the table")
    for _ in range(3):
        app.render(force=True)
    placed: list[str] = []
    real = ui._place
    monkeypatch.setattr(ui, "_place", lambda surface, text, *a: placed.append(text) or real(
        surface, text, *a))
    app.render(force=True)
    assert placed == []
    at = app.toasts.at
    ui.DRAWN = []
    try:  # the screen drawn again, every text recorded the long way
        app.screen.draw(app.surface)
        texts = [d.rect for d in ui.DRAWN if isinstance(d, ui.Drawn)]
    finally:
        ui.DRAWN = None
    assert at == place_toast(app.screen, app.size, app.metrics, texts)


def _placed_rectangle_by_rectangle(screen: object, size: tuple[int, int], m: object,
                                   texts: list[object]) -> object:
    """The message's place as it was found before: each height tried, each text's and
    button's overlap with the message measured as a rectangle (``Rect.clip``)."""
    import pygame

    from companion.kiosk.toasts import STEPS

    w, h = size
    height = m.px(88)  # type: ignore[attr-defined]
    top = screen.bar_bottom() + m.px(4)  # type: ignore[attr-defined]
    bottom = h - height - m.px(4)  # type: ignore[attr-defined]
    best: tuple[float, int] | None = None
    for k in range(STEPS + 1):
        y = top + (bottom - top) * k // STEPS
        r = pygame.Rect(m.px(12), y, w - m.px(24), height)  # type: ignore[attr-defined]
        cost = 0.0
        for d in texts:
            c = r.clip(d)  # type: ignore[arg-type]
            cost += 4.0 * c.width * c.height
        for b in screen.buttons:  # type: ignore[attr-defined]
            c = r.clip(b.rect)
            cost += (0.1 if b.extra.get("area") else 1.0) * c.width * c.height
        if best is None or cost < best[0]:
            best = (cost, y)
    assert best is not None
    return pygame.Rect(m.px(12), best[1], w - m.px(24), height)  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", SIZES)
def test_the_message_goes_where_measuring_rectangle_by_rectangle_put_it(
        tmp_path: Path, size: tuple[int, int]) -> None:
    """The message's place, from the overlaps kept between frames, is the one measured
    rectangle by rectangle, on the screens of a seeded game and on random texts."""
    import pygame

    from companion.kiosk.toasts import place_toast
    from companion.kiosk.ui import Button

    app = make_app(tmp_path, size=size)
    app.session = app.journal.start(get_game("builders").setup(4), seed=0)
    app.open_game()
    app.render(force=True)
    screen, rng = app.screen, random.Random(2)
    for k in range(40):
        texts = [pygame.Rect(rng.randrange(-20, size[0]), rng.randrange(-20, size[1]),
                             rng.randrange(0, 400), rng.randrange(0, 200))
                 for _ in range(rng.randrange(0, 60))]
        if k % 2:
            screen.buttons.append(Button(pygame.Rect(0, rng.randrange(size[1]), size[0], 90),
                                         "", lambda: None, extra={"area": True}))
        assert place_toast(screen, size, app.metrics, texts) == \
            _placed_rectangle_by_rectangle(screen, size, app.metrics, texts)


@pytest.mark.parametrize("size", SIZES)
def test_a_message_drawn_again_is_blitted_as_drawn_the_first_time(
        tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A message on screen is drawn once (its panel and text, corners keyed out) and blitted
    at the frames after: the same pixels as drawing it where it is, over any screen."""
    import pygame

    from companion.kiosk import linebreak, toasts
    from companion.kiosk.ui import draw_text, panel

    for recorder in ("DRAWN", "CHECK_GLYPHS"):  # (off, as in the kiosk: on, it is drawn in
        monkeypatch.setattr(ui, recorder, None if recorder == "DRAWN" else False)  # place)
    monkeypatch.setattr(linebreak, "RECORD", None)
    app = make_app(tmp_path, size=size)
    app.session = app.journal.start(get_game("pillars").setup(3), seed=0)
    app.open_game()
    toasts.DRAWN_TOASTS.clear()
    app.toast("Not your turn: Blue plays now, and this line is long enough to wrap once")
    app.render(force=True)
    drawn: list[str] = []
    monkeypatch.setattr(toasts, "draw_text",
                        lambda s, t, *a, **k: drawn.append(t) or draw_text(s, t, *a, **k))
    app.render(force=True)
    assert drawn == [], "the message was drawn again"
    shown = pygame.image.tobytes(app.surface, "RGB")
    rect = app.toasts.at
    assert rect is not None
    text, _until, good = app.toasts.current  # type: ignore[misc]
    app.toasts.current = None
    app.render(force=True)  # the screen alone, then the message drawn where it is
    panel(app.surface, rect, ui.theme.TOAST_GOOD if good else ui.theme.TOAST_BAD, radius=10,
          border=ui.theme.OUTLINE)  # (drawn where it is, as it was before it was kept)
    draw_text(app.surface, text, rect.inflate(-16, -8), app.metrics.text, ui.theme.TOAST_TEXT,
              lines=4)
    assert pygame.image.tobytes(app.surface, "RGB") == shown
