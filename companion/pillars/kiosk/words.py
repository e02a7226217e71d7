"""The words of the Pillars screen: step titles, action labels, card and board names."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import ClassVar

from companion.engine.ledger import Entry
from companion.engine.summary import PlayerResult
from companion.kiosk.api import ModuleWords, Table, _, card_name, short_card_name
from companion.pillars import data as D
from companion.pillars.actions import Action
from companion.pillars.state import PillarsState

from . import names, refusals_words, sentences
from .names import (
    area_label_lines,
    area_name,
    kind_name,
    pillars_card_name,
    resource_name,
    space_name,
)
from .sentences import step_title as step_title  # the screens import it from here

CARD_STEPS = ("privilege", "craftsman", "resource", "event", "peek")
"""The steps at which the table reveals a card."""


def short_craftsman(card: str) -> str:
    """A short name for the players' panel."""
    return short_card_name("pillars", card)


def without_details(name: str) -> str:
    """A card name without its bracketed details: ``Prior Philip (+1 VP ...)`` -> ``Prior
    Philip`` (also with the full-width brackets of Chinese and Japanese)."""
    for bracket in (" (", "（", "("):
        if bracket in name:
            return name.split(bracket)[0].strip()
    return name


def board_label(area: str, broken: bool = False) -> str:
    """The area's name as a label on the board drawing (no leading article in English);
    ``broken``: with the line end the catalogue gives a name too wide for a narrow box."""
    name = area_label_lines(area) if broken else area_name(area)
    return name[4:5].upper() + name[5:] if name.startswith("the ") else name


def formula(kind: str) -> str:
    """What one use of a craftsman kind does, e.g. ``1 stone → 2 VP``."""
    spec = D.KINDS[kind]
    ins = [f"{n} {resource_name(D.RESOURCES[r])}" for r, n in enumerate(spec.inputs[:4]) if n]
    if spec.inputs[4]:
        ins.append(_("{n} gold", n=spec.inputs[4]))
    outs = []
    if spec.vp:
        outs.append(_("{n} VP", n=spec.vp))
    if spec.gold:
        outs.append(_("{n} gold", n=spec.gold))
    return " + ".join(ins) + " → " + " + ".join(outs)


def action_label(action: Action) -> str:
    """A button label for a decision, in the current language."""
    verb = action.verb
    arg = str(action.args[0]) if action.args else ""
    if verb == "archbishop":
        if arg == "protect":
            return _("Protection from the event")
        return _("Take 1 {res} from the market", res=resource_name(arg))
    if verb == "play":
        return _("Play it now")
    if verb == "keep":
        return _("Keep it for later")
    if verb in ("lose", "boost", "discard", "craft"):
        return card_name("pillars", arg)
    if verb == "pass":
        return _("Pass")
    if verb == "done":
        return _("Done")
    if verb == "return":
        return _("Give back {cubes}", cubes=sentences.cubes_text(action.args))
    if verb == "redraw":
        return _("Redraw")
    if verb == "draw":
        return _("Draw")
    if verb == "roll":
        return _("Roll")
    if verb == "take" and action.args:
        return card_name("pillars", arg)
    if verb in ("place", "remigius") and action.args:
        return space_name(arg)
    if verb in ("buy", "sell") and len(action.args) == 2:
        return _("{n} {res}", n=int(action.args[1]), res=resource_name(arg))
    if verb == "convert":
        return _("use {uses}", uses=sentences.uses_text(action.args))
    return _("Confirm")


def describe_action(action: Action, state: PillarsState) -> str:
    """A title for the preview of ``action``."""
    verb = action.verb
    arg = str(action.args[0]) if action.args else ""
    if verb in ("privilege", "craftsman", "resource", "event"):
        return _("Revealed: {card}", card=card_name("pillars", arg))
    if verb == "take":
        return _("Take {card}", card=card_name("pillars", arg))
    if verb in ("place", "remigius"):
        return _("Place on {space}", space=space_name(arg))
    if verb == "convert" or verb == "done":
        return _("The cathedral")
    if verb in ("buy", "sell"):
        n = int(action.args[1])
        return (
            _("Buy {n} {res}", n=n, res=resource_name(arg))
            if verb == "buy"
            else _("Sell {n} {res}", n=n, res=resource_name(arg))
        )
    return action_label(action)


class PillarsWords(ModuleWords[PillarsState, Action]):
    """The kiosk's words for The Pillars of the Earth."""

    sentences: ClassVar[ModuleType] = sentences
    refusals: ClassVar[ModuleType] = refusals_words  # tags: docs/pillars.md

    money = "gold"

    def tables(self) -> tuple[Table, ...]:
        return names.tables()

    def english_words(self) -> Iterator[str]:
        yield from names.english_words()

    def area_name(self, area: str) -> str:
        return area_name(area)

    def card_name(self, card_id: str) -> str:
        return pillars_card_name(card_id)

    def short_card_name(self, card_id: str) -> str:
        if card_id in D.CRAFTSMEN:
            return kind_name(D.CRAFTSMEN[card_id].kind)
        return self.card_name(card_id)

    def money_label(self, amount: int) -> str:
        return _("{n} gold", n=amount)

    def source(self, entry: Entry) -> str:
        from .sources import source

        return source(entry)

    def sources(self) -> tuple[str, ...]:
        from .sources import sources

        return sources()

    def chart_title(self) -> str:
        return _("VP by round")

    def leads_to(self, before: PillarsState, seat: int, after: PillarsState) -> str:
        """The seat's holdings changed now, and what its craftsmen make of them at the
        cathedral this round (``leads``)."""
        from .leads import at_the_cathedral, join

        return join(super().leads_to(before, seat, after),
                    at_the_cathedral(before, seat, after))

    def tie_break(self, tied: list[PlayerResult], winners: list[str], top: int) -> str:
        """A tie on VP is broken by gold."""
        if len(winners) == 1:
            w = next(p for p in tied if p.name == winners[0])
            return _(
                "Tie on {points} VP broken by gold: {name} has {gold} gold",
                points=top,
                name=w.name,
                gold=w.money,
            )
        return _("Shared win: the same VP and the same gold")
