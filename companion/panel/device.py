"""The button panel as a device: gpiozero buttons and LEDs, or the lights drawn on screen.

``open_panel(config_path)`` reads the pin map, finds a pin factory and returns a :class:`Panel`
(the real buttons and LEDs); where there is no GPIO (not a Raspberry Pi, gpiozero or the pin
library missing) it returns :class:`ScreenLeds` with one notice, and the kiosk draws the five
lights on screen while the keyboard stands in for the buttons.

Threads stop at the edge: gpiozero calls ``when_pressed``/``when_released`` in its own thread,
and those callbacks only time the contact (:class:`ButtonTimer`) and post ``Press(role)``
(``companion.events.post``); the kiosk's main loop turns it into the same input as the keyboard
stand-ins.  The lights are set in ``update``, on the main loop, from the kiosk's
:class:`~companion.events.TableView` and its clock (:class:`Lamps`); no gpiozero blink or hold
thread is used, so the panel's timing follows the clocks it is given.  The panel imports nothing
from the kiosk: its news are :class:`~companion.events.Notice` codes, which the kiosk words:

========================  =======================================================
code                      fields
========================  =======================================================
``button.start-up``       ``button``: held down at start-up, ignored until released
``button.stuck``          ``button``, ``seconds``: down too long, ignored
``button.released``       ``button``: works again
``button.hold``           ``button``: a short press of a long-press button
``panel.none``            ``reason``, ``fix``: no GPIO, lights on screen
========================  =======================================================
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from companion import events
from companion.events import Lights, Notice, Press, Role, TableView

from .buttons import LONG_PRESS, ButtonTimer
from .buttons import Notice as ButtonNotice
from .gpio import MODEL_FILE, NoGpio, choose_factory
from .lamps import Lamps
from .pins import LEDS, PinMap, load_pins


def button_notice(notice: ButtonNotice) -> Notice:
    """A button's trouble as a notice for the kiosk to word."""
    kind = notice.kind if notice.kind in ("start-up", "stuck", "released") else "hold"
    fields: dict[str, Any] = {"button": notice.button}
    if kind == "stuck":
        fields["seconds"] = notice.seconds
    return Notice(f"button.{kind}", fields, good=kind == "released")


class Panel:
    """The real panel: gpiozero Buttons named by role and LEDs named by colour.

    ``clock`` (default ``time.monotonic``) times the contacts, in gpiozero's thread and in
    ``update``; ``post`` hands a ``Press`` to the kiosk (default ``companion.events.post``).
    Tests give a fake clock and drive MockFactory pins."""

    def __init__(
        self,
        pins: PinMap,
        factory: Any,
        *,
        clock: Callable[[], float] = time.monotonic,
        post: Callable[[Press], object] = events.post,
    ) -> None:
        from gpiozero import LED, Button  # type: ignore[import-untyped]

        self.pins = pins
        self.factory = factory
        self._clock = clock
        self._post = post
        self.lamps = Lamps()
        self.timer = ButtonTimer(
            pins.buttons,
            long=LONG_PRESS,
            long_press=pins.long_press,
            stuck_after=pins.stuck_after,
            debounce=pins.debounce,
        )
        self.buttons: dict[str, Any] = {}
        self.leds: dict[str, Any] = {}
        self.shown: dict[str, bool] = {}
        try:
            for role, gpio in pins.buttons.items():
                # Bounce is handled by the timer, the same on every pin library (RPi.GPIO's own
                # bounce_time can drop the release edge).
                self.buttons[role] = Button(gpio, pull_up=True, bounce_time=None,
                                            pin_factory=factory)
            for colour, gpio in pins.leds.items():
                self.leds[colour] = LED(gpio, initial_value=False, pin_factory=factory)
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
        named = [*self.pins.buttons.items(), *self.pins.leds.items()]
        pins = ", ".join(f"{n}=GPIO{g}" for n, g in named)
        return f"<Panel {type(self.factory).__name__}: {pins}>"

    def _edge(self, name: str, pressed: bool) -> None:
        """gpiozero's thread: time the contact; post the press if it counts.  Nothing else."""
        t = self._clock()
        if pressed:
            self.timer.press(name, t)
            return
        role = self.timer.release(name, t)
        if role is not None:
            self._post(Press(Role.of(role)))

    # -- the Device protocol ------------------------------------------------------------------
    def update(self, view: TableView, now: float) -> list[Notice]:
        """The main loop: set the lights from the table at ``now`` (the kiosk's clock), and
        report button trouble."""
        clock = self._clock()
        self.timer.check(clock)
        news = [button_notice(n) for n in self.timer.drain()]
        lamps = self.lamps.frame(view, now)
        if self.timer.armed(clock):
            lamps["status"] = True  # UNDO held long enough: release it to undo
        for name, on in lamps.items():
            led = self.leds.get(name)
            if led is not None and self.shown.get(name) != on:
                led.value = on
                self.shown[name] = on
        return news

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
    """The five lights where there is no panel: the kiosk draws them (``lights``), and the
    keyboard stands in for the buttons."""

    def __init__(self) -> None:
        self.lamps = Lamps()
        self.lights = Lights({name: False for name in LEDS}, visible=False)

    def __repr__(self) -> str:
        return "<ScreenLeds>"

    def update(self, view: TableView, now: float) -> list[Notice]:
        lamps = self.lamps.frame(view, now)
        visible = view.playing or any(lamps.values())
        self.lights = Lights(lamps, visible)
        return []

    def notify(self, event: str, detail: str = "") -> None:
        self.lamps.notify(event, detail)

    def close(self) -> None:
        pass


def open_panel(
    config_path: Path,
    *,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
    post: Callable[[Press], object] = events.post,
    model_path: Path = MODEL_FILE,
) -> tuple[Panel | ScreenLeds, list[Notice]]:
    """The panel device and its notices at start-up: the pin map from
    ``hardware/pins.toml`` and the user's config file ``config_path``, the gpiozero factory
    (``pin_factory``, else :func:`choose_factory`).  Where there is no GPIO it returns
    :class:`ScreenLeds` with a ``panel.none`` notice; with ``[panel] enabled = false`` it
    returns ScreenLeds quietly.  Raises PinConfigError (file and line) for a bad pin map."""
    pins = load_pins(config_path)
    if not pins.enabled:
        return ScreenLeds(), []
    try:
        factory = pin_factory if pin_factory is not None else choose_factory(model_path)
        try:
            panel = Panel(pins, factory, clock=clock, post=post)
        except Exception as exc:  # noqa: BLE001 - a pin library refusing a pin, busy pins
            raise NoGpio(f"the pins cannot be opened ({exc})", "see companion doctor") from None
    except NoGpio as exc:
        return ScreenLeds(), [Notice("panel.none", {"reason": exc.reason, "fix": exc.fix or ""})]
    panel.timer.check(clock())
    return panel, [button_notice(n) for n in panel.timer.drain()]  # a button held at start-up


__all__ = ["NoGpio", "Panel", "ScreenLeds", "button_notice", "choose_factory", "open_panel"]
