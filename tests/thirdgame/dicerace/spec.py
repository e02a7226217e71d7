"""Dice Race's registry record: what it tells the companion about itself."""

from __future__ import annotations

from pathlib import Path

from companion.engine import CardInfo, GameSpec

from .rules import WIND, DiceRace

MARKER_BASE = 200
"""The wind cards' stickers: ids 200 to 202 (the companion's free range, docs/vision.md)."""


def _words() -> type:
    from .words import DiceRaceWords  # imports the kiosk: only when the kiosk asks

    return DiceRaceWords


SPEC = GameSpec(
    name=DiceRace.name,
    title=DiceRace.title,
    rules=DiceRace,
    min_players=DiceRace.min_players,
    max_players=DiceRace.max_players,
    options=DiceRace.options,
    cards=tuple(CardInfo(card, "wind", card.capitalize()) for card in WIND),
    marker_base=MARKER_BASE,
    words=_words,
    locale=Path(__file__).resolve().parent / "locale",
    rank=200,
)
