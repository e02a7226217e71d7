"""The kiosk: the touchscreen interface of the companion."""

import os

# pygame prints a greeting on import unless told not to; the kiosk's output is for the journal.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
