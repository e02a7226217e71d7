"""What the kiosk says about each game: its title, its cards, its money and its periods, and
how the winner was decided.

The words come from the game's registry record (``GameSpec``): a game whose record names a
``words`` class (``"module:attribute"``) gets that subclass of :class:`GameWords`; any other
game gets the defaults here, built from its record alone (its title and its card catalogue,
through the kiosk's catalogue).  So the kiosk never compares a game's name.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from companion.engine.errors import SetupError
from companion.engine.registry import GameSpec, load_ref, spec

from .i18n import _


class GameWords:
    """The default words of a game, from its registry record."""

    money = "coins"
    """The key of the money in the game's summary (``gold``, ``coins``)."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

    def title(self) -> str:
        """The game's title in the current language."""
        return _(self.spec.title)

    def card_name(self, card_id: str) -> str:
        """A card's name in the current language; KeyError for a card the game does not have."""
        info = self.spec.card(card_id)
        if info is None:
            raise KeyError(f"unknown card {card_id!r} of {self.spec.title}")
        return _(info.name)

    def short_card_name(self, card_id: str) -> str:
        """A card's name without its details, for tight spaces."""
        return self.card_name(card_id)

    def money_label(self, amount: int) -> str:
        """An amount of the game's money, e.g. ``12 coins``, ``1 coin``."""
        from .i18n import n_  # here, not at the top: keeps the import block as it was

        return n_("{n} coin", "{n} coins", amount)

    def player_detail(self, state: Any, player: dict[str, Any]) -> str:
        """A line under a player's final score: their money (``player`` is their entry in the
        game's summary)."""
        return self.money_label(int(player.get(self.money, 0)))

    def chart_title(self) -> str:
        """The title of the end screen's score chart."""
        return _("Points by turn")

    def result(self, summary: dict[str, Any]) -> str:
        """One sentence on how the winner was decided: the top score, or the game's
        tie-break (:meth:`tie_break`)."""
        scores = summary["scores"]
        winners = summary["winners"]
        top = max(scores.values())
        tied = [p for p in summary.get("players", []) if scores.get(p["name"]) == top]
        if len(tied) <= 1 and len(winners) == 1:
            return _("{name} wins with {points} points", name=winners[0], points=top)
        return self.tie_break(tied, winners, top)

    def tie_break(self, tied: list[dict[str, Any]], winners: list[str], top: int) -> str:
        """How a tie on ``top`` points between the ``tied`` players' summaries was broken."""
        if len(winners) == 1:
            return _("{name} wins with {points} points", name=winners[0], points=top)
        return _("Shared win: the same points")

    def refusal(self, error: Exception, state: Any) -> str:
        """A refusal of the engine in the table's language, worded from its rule tag and
        named fields (``error.rule``, ``error.fields``, see :meth:`worded`); the engine's
        English sentence where the game has no words for the tag."""
        rule = getattr(error, "rule", None)
        fields = getattr(error, "fields", {})
        card = str(fields.get("card", ""))
        try:
            name = self.card_name(card)
        except KeyError:
            name = card
        if rule == "chance.none":
            return _("{card} was shown, but no card is being revealed now", card=name)
        worded = self.worded(str(rule), fields, name, state)
        return worded if worded is not None else str(error)

    def worded(self, rule: str, fields: dict[str, Any], card: str, state: Any) -> str | None:
        """A game's words for its rule tags (``card`` is the card's name, if the refusal names
        one), or None."""
        return None

    def option_label(self, name: str) -> str:
        """The name of one of the game's options, in the current language."""
        opt = self.spec.options[name]
        return _(opt.label or name)

    def choice_label(self, name: str, value: Any) -> str:
        """The name of one choice of an option, in the current language."""
        return _(self.spec.options[name].choice_label(value))


@cache
def _words(name: str) -> GameWords:
    game = spec(name)
    if game.words is None:
        return GameWords(game)
    cls = load_ref(game.words)
    words: GameWords = cls(game)
    return words


def words_for(name: str) -> GameWords:
    """The words of the game called ``name`` (SetupError for no such game)."""
    return _words(name)


def card_name(game: str, card_id: str) -> str:
    """The name of a card of ``game`` in the current language; KeyError for an unknown card
    or game."""
    return _known(game).card_name(card_id)


def short_card_name(game: str, card_id: str) -> str:
    """A card's name without its details, for tight spaces (a Pillars craftsman without its
    round, a Builders worker by its rank)."""
    return _known(game).short_card_name(card_id)


def _known(game: str) -> GameWords:
    try:
        return words_for(game)
    except SetupError:
        raise KeyError(f"unknown game {game!r}") from None


def game_title(name: str) -> str:
    """The game's title in the current language (its name if no game has it)."""
    try:
        return words_for(name).title()
    except Exception:  # noqa: BLE001 - an unknown game in an old journal: show its name
        return name


__all__ = ["GameWords", "card_name", "game_title", "short_card_name", "words_for"]
