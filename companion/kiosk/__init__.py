"""The kiosk: the touchscreen interface of the companion.

A game's screen, words, panels and scenes use the kiosk through one module,
:mod:`companion.kiosk.api`; a screen reaches the app's services through the typed context of
:mod:`companion.kiosk.context`."""

import os

# pygame prints a greeting on import unless told not to; the kiosk's output is for the journal.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
