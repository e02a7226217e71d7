"""The table's button panel and lights (gpiozero).

* :mod:`.pins`: the pin map (``hardware/pins.toml`` and the user's ``[panel]`` tables);
* :mod:`.buttons`: when a press counts (bounce, UNDO's long press, stuck buttons);
* :mod:`.lamps`: what the five lights show, from the game's state and the clock;
* :mod:`.device`: ``open_panel(config_path)``, the gpiozero :class:`Panel` and
  :class:`ScreenLeds` (the lights the kiosk draws on screen).

``companion doctor`` (``companion.doctor``) checks the whole build.

Only ``Panel`` needs gpiozero; importing this package does not (``open_panel``, ``Panel``
and ``ScreenLeds`` load ``device`` when first used).
Nothing in the rules knows about pins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .pins import BUTTONS, LEDS, PinConfigError, PinMap, load_pins

if TYPE_CHECKING:
    from .device import Panel, ScreenLeds, open_panel

__all__ = [
    "BUTTONS",
    "LEDS",
    "Panel",
    "PinConfigError",
    "PinMap",
    "ScreenLeds",
    "load_pins",
    "open_panel",
]


def __getattr__(name: str) -> Any:
    if name in ("Panel", "ScreenLeds", "open_panel"):
        from . import device

        return getattr(device, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
