"""The button panel as a kiosk device: gpiozero buttons and LEDs, or the lights on screen.

``open_panel(app)`` reads the pin map, finds a pin factory and returns a :class:`Panel` (the
real buttons and LEDs); where there is no GPIO (not a Raspberry Pi, gpiozero or the pin
library missing) it shows one notice and returns :class:`ScreenLeds`, which draws the five
lights on screen, while the keyboard stands in for the buttons.

Threads stop at the edge: gpiozero calls ``when_pressed``/``when_released`` in its own thread,
and those callbacks only time the contact (:class:`ButtonTimer`) and post ``Press(role)`` to the
kiosk's queue (``companion.kiosk.inputs.post``); the main loop turns it into the same input as
the keyboard stand-ins.  The lights are set in ``update``, on the main loop, from the game's
state and ``app.time`` (:class:`Lamps`); no gpiozero blink or hold thread is used, so the
panel's timing follows the clocks it is given.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from companion.kiosk import theme
from companion.kiosk.i18n import _
from companion.kiosk.inputs import Input, Press
from companion.kiosk.inputs import post as post_input

from .buttons import ButtonTimer, Notice
from .gpio import MODEL_FILE, NoGpio, choose_factory
from .lamps import Lamps
from .pins import LEDS, PinMap, load_pins

if TYPE_CHECKING:
    from companion.kiosk.app import App
    from companion.kiosk.theme import Metrics


def notice_text(notice: Notice) -> str:
    """What the kiosk tells the table about a button."""
    button = notice.button.upper()
    if notice.kind == "start-up":
        return _(
            "The {button} button is held down at start-up: it is ignored until it is released",
            button=button,
        )
    if notice.kind == "stuck":
        return _(
            "The {button} button has been down for {n} seconds (stuck?): it is ignored until "
            "it is released",
            button=button,
            n=f"{notice.seconds:g}",
        )
    if notice.kind == "released":
        return _("The {button} button works again", button=button)
    return _("Hold {button} for about a second", button=button)


class Panel:
    """The real panel: gpiozero Buttons named by role and LEDs named by colour.

    ``clock`` (default ``time.monotonic``) times the contacts, in gpiozero's thread and in
    ``update``; ``post`` hands a ``Press`` to the kiosk (default ``inputs.post``).  Tests give a
    fake clock and drive MockFactory pins."""

    def __init__(
        self,
        pins: PinMap,
        factory: Any,
        *,
        clock: Callable[[], float] = time.monotonic,
        post: Callable[[Input], None] = post_input,
    ) -> None:
        from gpiozero import LED, Button  # type: ignore[import-untyped]

        self.pins = pins
        self.factory = factory
        self._clock = clock
        self._post = post
        self.lamps = Lamps()
        self.timer = ButtonTimer(
            pins.buttons,
            long=("undo",),
            long_press=pins.long_press,
            stuck_after=pins.stuck_after,
            debounce=pins.debounce,
        )
        self.buttons: dict[str, Any] = {}
        self.leds: dict[str, Any] = {}
        self.shown: dict[str, bool] = {}
        try:
            for name, gpio in pins.buttons.items():
                # Bounce is handled by the timer, the same on every pin library (RPi.GPIO's own
                # bounce_time can drop the release edge).
                self.buttons[name] = Button(gpio, pull_up=True, bounce_time=None,
                                            pin_factory=factory)
            for name, gpio in pins.leds.items():
                self.leds[name] = LED(gpio, initial_value=False, pin_factory=factory)
        except Exception:
            self.close()
            raise
        now = clock()
        for name, button in self.buttons.items():
            if button.is_pressed:
                self.timer.held_at_start(name, now)
            button.when_pressed = partial(self._edge, name, True)
            button.when_released = partial(self._edge, name, False)

    def __repr__(self) -> str:
        pins = ", ".join(f"{n}=GPIO{g}" for n, g in {**self.pins.buttons, **self.pins.leds}.items())
        return f"<Panel {type(self.factory).__name__}: {pins}>"

    def _edge(self, name: str, pressed: bool) -> None:
        """gpiozero's thread: time the contact; post the press if it counts.  Nothing else."""
        t = self._clock()
        if pressed:
            self.timer.press(name, t)
            return
        role = self.timer.release(name, t)
        if role is not None:
            self._post(Press(role))

    # -- the Device protocol ------------------------------------------------------------------
    def update(self, app: App) -> None:
        """The main loop: report button trouble, and set the lights from the state."""
        now = self._clock()
        self.timer.check(now)
        for notice in self.timer.drain():
            app.toast(notice_text(notice), good=notice.kind == "released", now=True)
        lamps = self.lamps.frame(app.session, app.time)
        if self.timer.armed(now):
            lamps["status"] = True  # UNDO held long enough: release it to undo
        for name, on in lamps.items():
            led = self.leds.get(name)
            if led is not None and self.shown.get(name) != on:
                led.value = on
                self.shown[name] = on

    def notify(self, event: str, detail: str = "") -> None:
        self.lamps.notify(event, detail)

    def close(self) -> None:
        for led in self.leds.values():
            try:
                led.off()
            finally:
                led.close()
        for button in self.buttons.values():
            button.close()
        self.leds, self.buttons, self.shown = {}, {}, {}


class ScreenLeds:
    """The five lights drawn on screen, where there is no panel: small circles at the bottom
    left of the title bar (the keyboard stands in for the buttons)."""

    def __init__(self) -> None:
        self.lamps = Lamps()
        self.shown: dict[str, bool] = {name: False for name in LEDS}
        self.visible = False

    def __repr__(self) -> str:
        return "<ScreenLeds>"

    def update(self, app: App) -> None:
        lamps = self.lamps.frame(app.session, app.time)
        visible = app.session is not None or any(lamps.values())
        if lamps != self.shown or visible != self.visible:
            self.shown, self.visible = lamps, visible
            app.dirty = True

    def notify(self, event: str, detail: str = "") -> None:
        self.lamps.notify(event, detail)

    def close(self) -> None:
        pass

    def rects(self, metrics: Metrics) -> list[tuple[str, tuple[int, int], int]]:
        """Where each light is drawn: (name, centre, radius), left to right, on the bottom
        edge of the bar's first row: below the round and whose turn it is, below the Back
        button, and left of the buttons of a second row in portrait."""
        r = metrics.px(6)
        step = 2 * r + metrics.px(5)
        y = metrics.gap + metrics.touch + r + metrics.px(1)
        x = metrics.gap + r + metrics.px(2)
        return [(name, (x + k * step, y), r) for k, name in enumerate(LEDS)]

    def draw(self, surface: pygame.Surface, metrics: Metrics) -> None:
        """Draw the lights (after the screen; nothing when there is no game and all is dark)."""
        if not self.visible:
            return
        for name, centre, r in self.rects(metrics):
            colour = theme.TEXT if name == "status" else theme.PLAYER[name]
            if self.shown.get(name):
                pygame.draw.circle(surface, colour, centre, r + 1)
            else:
                dim = tuple((c + 2 * p) // 3 for c, p in zip(colour, theme.PANEL, strict=True))
                pygame.draw.circle(surface, dim, centre, r - 1)
            pygame.draw.circle(surface, theme.OUTLINE, centre, r + 1, 1)


def open_panel(
    app: App,
    config_path: Path | None = None,
    *,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
    post: Callable[[Input], None] = post_input,
    model_path: Path = MODEL_FILE,
) -> Panel | ScreenLeds:
    """The panel device for ``app`` (to ``app.add_device``): the pin map from
    ``hardware/pins.toml`` and the user's config file (``config_path``, else the app's, else
    the default), the gpiozero factory (``pin_factory``, else :func:`choose_factory`).  Where
    there is no GPIO it toasts one notice and returns :class:`ScreenLeds`; with
    ``[panel] enabled = false`` it returns ScreenLeds quietly.  Raises PinConfigError (file and
    line) for a bad pin map."""
    if config_path is None:
        config_path = app.config_path
    if config_path is None:
        from companion.kiosk.config import default_path

        config_path = default_path()
    pins = load_pins(config_path)
    if not pins.enabled:
        return ScreenLeds()
    try:
        factory = pin_factory if pin_factory is not None else choose_factory(model_path)
        try:
            panel = Panel(pins, factory, clock=clock, post=post)
        except Exception as exc:  # noqa: BLE001 - a pin library refusing a pin, busy pins
            raise NoGpio(f"the pins cannot be opened ({exc})", "see companion doctor") from None
    except NoGpio as exc:
        fix = f" ({exc.fix})" if exc.fix else ""
        app.toast(
            _(
                "No button panel: {reason}{fix}. The keyboard stands in for the buttons and "
                "the lights are shown on screen.",
                reason=exc.reason,
                fix=fix,
            )
        )
        return ScreenLeds()
    panel.update(app)
    return panel


__all__ = ["NoGpio", "Panel", "ScreenLeds", "choose_factory", "open_panel"]
