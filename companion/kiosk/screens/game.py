"""Pieces shared by the game screens: opening the right screen, the preview of an action's
effects, the change list between two states, and the virtual deck."""

from __future__ import annotations

from typing import Any

from companion.engine import CHANCE, RulesError
from companion.engine.simulate import sample
from companion.kiosk.i18n import _, resource_name
from companion.kiosk.words import card_name, name_of


def open_game(app: Any) -> None:
    """Show the session's game (or its end screen when it is over): ``App.open_game``."""
    app.open_game()


class Preview:
    """An action not yet taken, the state it would lead to, and what would change."""

    def __init__(self, action: Any, after: Any, title: str, lines: list[tuple[str, str]]):
        self.action = action
        self.after = after
        self.title = title
        self.lines = lines  # (colour or "", text)


def virtual_draw(app: Any, is_card_reveal: Any) -> int:
    """With the virtual deck on, let the companion reveal the cards the table would turn over
    (never the bag or the die: those have their own buttons).  Returns how many it drew."""
    if not app.config.virtual_deck or app.session is None:
        return 0
    game = app.session.game
    drawn = 0
    while True:
        state = app.session.state
        if game.current_player(state) != CHANCE or not is_card_reveal(state):
            return drawn
        outcome = sample(game.chance_outcomes(state), app.rng)
        try:
            app.session.play(outcome)
        except RulesError as exc:  # pragma: no cover - a sampled outcome is always legal
            app.refuse(app.refusal(exc))
            return drawn
        drawn += 1


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def pillars_changes(before: Any, after: Any, numbers: bool = True) -> list[tuple[str, str]]:
    """What changed for each player between two Pillars states, in words (without the VP,
    gold and cubes when not ``numbers``: the ledger says those by cause)."""
    from companion.pillars.data import RESOURCES

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
