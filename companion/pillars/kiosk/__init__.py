"""The Pillars of the Earth in the kiosk: the table screen (``screen``), its step panels
(``panels``), its words (``words``) and its screenshot scenes (``scenes``)."""

from .screen import PillarsScreen

__all__ = ["PillarsScreen"]
