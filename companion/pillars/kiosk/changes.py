"""What an action changes in Pillars, in words: the ledger's entries by cause (VP, gold,
cubes, workers), then what the ledger does not count (cards taken or lost, the start player,
protection, the round that begins)."""

from __future__ import annotations

from companion.kiosk.api import Lines, change_lines, name_of
from companion.pillars import PillarsGame
from companion.pillars.state import PillarsState

from .change_list import pillars_changes


def explained(game: PillarsGame, before: PillarsState, after: PillarsState) -> Lines:
    """Every change between ``before`` and ``after`` by cause, one line per player, followed
    by the changes the ledger does not count (a player's cards merged into their line)."""
    lines = change_lines(game, before, after)
    names = {p.colour: f"{name_of(p)}: " for p in before.setup.players}
    for colour, text in pillars_changes(before, after, numbers=False):
        prefix = names.get(colour, "")
        for k, (c, line) in enumerate(lines):
            if colour and c == colour and prefix and text.startswith(prefix):
                lines[k] = (c, line + " · " + text[len(prefix):])
                break
        else:
            lines.append((colour, text))
    return lines


__all__ = ["explained"]
