"""Every refusal of The Builders' engine: its stable rule tag, its named fields, its meaning.

``IllegalAction.rule`` is one of the tags of :data:`REFUSALS`; ``IllegalAction.fields`` holds
the fields listed for it (a field ending in ``?`` is present only when it applies).  Field
conventions: ``player`` is a seat index (the Automa of the solo variant is the seat after the
last one), ``card`` and ``site`` are card ids, ``ap``, ``cost``, ``coins`` are numbers, ``step``
is the verb of the chance step the table is waiting for (``reveal building``...).
``docs/builders.md`` shows the same table; a test keeps the two and the engine in step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from companion.engine.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Refusal:
    """One rule the engine can refuse an action by: its fields and an English sentence."""

    tag: str
    fields: tuple[str, ...]
    meaning: str

    @property
    def required(self) -> tuple[str, ...]:
        """The fields every refusal with this tag carries."""
        return tuple(f for f in self.fields if not f.endswith("?"))

    @property
    def optional(self) -> tuple[str, ...]:
        """The fields present only when they apply (written with a ``?``)."""
        return tuple(f[:-1] for f in self.fields if f.endswith("?"))


REFUSALS: dict[str, Refusal] = {
    r.tag: r
    for r in (
        Refusal("over", ("turn",), "The game is over: no action is possible any more."),
        Refusal(
            "action.unknown",
            ("kind",),
            "The object is not an action of The Builders (`kind` is its type's name).",
        ),
        Refusal(
            "action.card",
            ("card",),
            "A hand-built action names something that is not a card of the kind it takes "
            "(a building to start, a worker to recruit, a worker or machine to send...).",
        ),
        Refusal(
            "action.ap",
            ("ap",),
            "Taking coins spends 1, 2 or 3 AP; a hand-built action asked for another amount.",
        ),
        Refusal(
            "chance.waiting",
            ("step",),
            "The table is revealing a card (`step`); no decision can be taken until it is "
            "tapped in or drawn.",
        ),
        Refusal(
            "chance.none",
            ("player", "card"),
            "No card is being revealed now: it is `player`'s turn to decide.",
        ),
        Refusal("chance.unknown", ("card",), "`card` is not a card of The Builders."),
        Refusal(
            "chance.deck",
            ("card", "step", "deck"),
            "The table is dealing a card of the `deck` deck (building or worker), and `card` "
            "is from the other one.",
        ),
        Refusal(
            "chance.apprentice",
            ("card", "player"),
            "At set-up only Apprentices are dealt to the players; `card` is not one "
            "(`player` is the seat being dealt to).",
        ),
        Refusal(
            "chance.revealed",
            ("card", "place", "possible", "owner?"),
            "`card` cannot come up: it is already out, in `place` (`row`, `deck top`, `player` "
            "with `owner` the seat holding it, `automa`, `set aside`, `apprentices`); "
            "`possible` cards can.",
        ),
        Refusal(
            "chance.step",
            ("card", "step"),
            "`card` can come up, but the table is waiting for `step`: the outcome is written "
            "with that step (`next building X`, not `reveal building X`).",
        ),
        Refusal(
            "row.card",
            ("player", "card", "row"),
            "`card` is not in the `row` row (building or worker), so `player` cannot take it.",
        ),
        Refusal(
            "turn.ap",
            ("player", "cost", "ap", "coins"),
            "The action costs `cost` AP and `player` has `ap` left (with `coins` coins: 5 buy "
            "one more AP).",
        ),
        Refusal(
            "send.ap",
            ("player", "site", "cost", "ap", "coins"),
            "The n-th worker sent to the same site in a turn costs n AP: sending one more to "
            "`site` costs `cost` AP and `player` has `ap` left (`coins` coins).",
        ),
        Refusal(
            "send.worker",
            ("player", "card"),
            "`card` is not one of `player`'s idle workers (it is in a row, on a site or "
            "someone else's).",
        ),
        Refusal(
            "send.machine",
            ("player", "card"),
            "`card` is a machine `player` has not finished; only a finished machine works.",
        ),
        Refusal("send.site", ("player", "site"), "`site` is not an open site of `player`."),
        Refusal(
            "send.wage",
            ("player", "card", "cost", "coins"),
            "Sending `card` costs its wage, `cost` coins, and `player` has only `coins`.",
        ),
        Refusal(
            "coins.ap",
            ("player", "ap", "spent"),
            "Cumulative coins (B1): a turn puts at most 3 AP into coins; `player` has spent "
            "`spent` and asked for `ap` more.",
        ),
        Refusal(
            "buy.coins",
            ("player", "cost", "coins"),
            "An extra action costs `cost` coins and `player` has `coins`.",
        ),
    )
}
"""Every rule tag the engine refuses an action with, in the order of ``docs/builders.md``."""


def refuse(action: object, reason: str, rule: str, **fields: Any) -> NoReturn:
    """Raise the IllegalAction for ``rule`` (a tag of :data:`REFUSALS`) with its fields."""
    raise IllegalAction(action, reason, rule, **fields)
