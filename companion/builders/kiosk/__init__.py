"""The Builders: Middle Ages in the kiosk: the turn screen (``screen``) and its screenshot
scenes (``scenes``)."""

from .screen import BuildersScreen

__all__ = ["BuildersScreen"]
