"""The kiosk's screens by name: screens move between each other through ``App.go(name)``.

A screen never imports another screen: it asks the app for a screen by its name here, and the
app loads the class from its ``"module:attribute"`` reference on first use (:func:`screen_class`).
So the screens form no import circle.  A game's table screen comes from its registry record
(``GameSpec.screen``, a loader the game declares).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .screens.base import Screen

ROUTES: dict[str, str] = {
    "home": "companion.kiosk.screens.home:HomeScreen",
    "error": "companion.kiosk.screens.home:ErrorScreen",
    "setup": "companion.kiosk.screens.setup:SetupScreen",
    "games": "companion.kiosk.screens.history:GamesScreen",
    "settings": "companion.kiosk.screens.settings:SettingsScreen",
    "end": "companion.kiosk.screens.end:EndScreen",
    "table-check": "companion.kiosk.screens.table_check:TableCheckScreen",
    "log": "companion.kiosk.screens.log:LogScreen",
    "generic-game": "companion.kiosk.screens.generic:GenericGameScreen",
    "guide": "companion.kiosk.screens.guide:GuideScreen",
}
"""Screen name -> the class that draws it."""



def screen_class(name: str) -> Callable[..., Screen]:
    """The screen class called ``name`` (imported on first use; made with the app and the
    screen's own arguments); KeyError for another name, TypeError for a route that names no
    screen class."""
    from .screens.base import Screen

    module, _, attr = ROUTES[name].partition(":")
    found: object = getattr(importlib.import_module(module), attr)
    if not (isinstance(found, type) and issubclass(found, Screen)):
        raise TypeError(f"route {name!r} names {ROUTES[name]}, not a screen class")
    return found


__all__ = ["ROUTES", "screen_class"]
