"""What changed for each player between two Pillars states, in words: the part of a change
the ledger does not count (cards taken or lost, the start player, protection, the round)."""

from __future__ import annotations

from companion.kiosk.api import _, card_name, name_of, signed
from companion.pillars.data import RESOURCES
from companion.pillars.state import PillarsState

from .names import resource_name


def pillars_changes(before: PillarsState, after: PillarsState,
                    numbers: bool = True) -> list[tuple[str, str]]:
    """What changed for each player between two Pillars states, in words (without the VP,
    gold and cubes when not ``numbers``: the ledger says those by cause)."""
    out: list[tuple[str, str]] = []
    for p, a, b in zip(before.setup.players, before.seats, after.seats, strict=True):
        parts = []
        if numbers and b.vp != a.vp:
            parts.append(_("{n} VP", n=signed(b.vp - a.vp)))
        if numbers and b.gold != a.gold:
            parts.append(_("{n} gold", n=signed(b.gold - a.gold)))
        for r, name in enumerate(RESOURCES):
            if numbers and b.res[r] != a.res[r]:
                parts.append(f"{signed(b.res[r] - a.res[r])} {resource_name(name)}")
        for c in b.craftsmen:
            if c not in a.craftsmen:
                parts.append(_("takes {card}", card=card_name("pillars", c)))
        for c in a.craftsmen:
            if c not in b.craftsmen:
                parts.append(_("loses {card}", card=card_name("pillars", c)))
        for c in b.privileges + b.spent:
            if c not in a.privileges + a.spent:
                parts.append(_("takes {card}", card=card_name("pillars", c)))
        if b.gray_next > a.gray_next:
            parts.append(_("2 gray workers next round"))
        if b.protected and not a.protected:
            parts.append(_("protected from the event"))
        if parts:
            out.append((p.colour, f"{name_of(p)}: " + ", ".join(parts)))
    if after.start != before.start:
        p = after.setup.players[after.start]
        out.append((p.colour, _("{name} becomes the start player", name=name_of(p))))
    if after.over and not before.over:
        out.append(("", _("The game is over")))
    elif after.round != before.round:
        out.append(("", _("Round {n} begins", n=after.round)))
    return out


__all__ = ["pillars_changes"]
