"""The numbers of The Builders' rules (``builders.md`` §1 to §3, rulings B1 to B9)."""

from __future__ import annotations

START_AP = 3
"""Free action points at the start of every turn."""
ACTION_PRICE = 5
"""Coins for one extra action point (B2)."""
START_COINS = 10
"""Coins every player starts with."""
ROW_SIZE = 5
"""Cards in each row (buildings, workers)."""
SOLO_ROW_SIZE = 4
"""Cards in each row in the solo variant (B9)."""
AUTOMA = "Automa"
"""The name of the automatic opponent of the solo variant (B9, unofficial)."""
AUTOMA_HAND = 3
"""Workers the Automa spends on each building it completes (B9)."""
END_VP = 17
"""VP from finished cards that trigger the end of the game at the end of one's turn."""
COIN_TABLE = (0, 1, 3, 6)
"""Coins for 0, 1, 2 or 3 AP spent on taking coins."""
MAX_COIN_AP = 3
"""The most AP one take-coins action (or, with cumulative coins, one turn) spends on coins."""
