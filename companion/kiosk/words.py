"""What the kiosk says about each game: its title, its cards, its money and its periods, and
how the winner was decided.

The words come from the game's registry record (``GameSpec``): a game whose record declares
a ``words`` loader gets that subclass of :class:`GameWords`; any other game gets the defaults
here, built from its record and its rules alone (its title, its card catalogue, the period
and the actor its rules state: ``Game.period_of``, ``Game.actor``).  So the kiosk never
compares a game's name, and never reads a state: a state is opaque here (:data:`State`), and
only its game's rules look inside it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import replace
from functools import cache, cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeAlias, TypeVar, cast

from companion.engine.core import Game, Setup
from companion.engine.errors import SetupError
from companion.engine.registry import GameSpec, spec
from companion.engine.summary import Period, PlayerResult, Summary
from companion.journal.names import COLOUR_WORDS, stored_default
from companion.journal.names import is_default_name as _is_default

if TYPE_CHECKING:
    from companion.engine.ledger import Entry

    from .catalogue import Table

from .i18n import LOCALES, _, language, resource_name, translations

# A seat left unnamed is stored as its colour (``companion.journal.names``: the colour's English
# word, the engine's own default) and shown in the table's language of the moment
# (:func:`display_name`); older journals' default names in any language are recognised.

State: TypeAlias = object
"""A game's state, as the kiosk holds it: opaque, read only through its ``Game``."""

Action: TypeAlias = object
"""A game's action, as the kiosk holds it: written with ``Game.format_action``."""

S = TypeVar("S")
"""A game's state type, in its own words (``GameWords``)."""
A = TypeVar("A")
"""A game's action type, in its own words."""


class Seat(Protocol):
    """A seat as the words read it: a set-up's player (``PlayerSpec``) or a summary's
    (``PlayerResult``), with the name it was given and its colour."""

    @property
    def name(self) -> str: ...

    @property
    def colour(self) -> str: ...



def default_name(colour: str) -> str:
    """The name of a player left unnamed, in the current language: ``Red``, ``红方``,
    ``赤``."""
    english = COLOUR_WORDS[colour]
    if language() == "en":
        return english
    return {
        "red": _("Red player"),
        "blue": _("Blue player"),
        "yellow": _("Yellow player"),
        "green": _("Green player"),
    }[colour]


def _catalogue_defaults(colour: str) -> list[str]:
    """The default names of ``colour`` in every catalogue the kiosk has now."""
    english = COLOUR_WORDS[colour]
    names = [f"{english} player"]
    for code in LOCALES:  # (through gettext's compiled catalogues: parsing the .po files
        found = translations(code)  # took a Pi 4 about a second, in a game's first frame)
        for key in (english, f"{english} player"):
            text = found.gettext(key) if found is not None else key
            if text != key:
                names.append(text)
    return names


def is_default_name(name: str, colour: str) -> bool:
    """Whether ``name`` on a seat of ``colour`` is that colour's default (stored as the colour,
    or an older journal's default name in any language), not a name somebody typed."""
    return colour in COLOUR_WORDS and _is_default(name, colour, _catalogue_defaults(colour))


def engine_refusal(rule: str, fields: dict[str, Any], card: str) -> str:
    """The words of the refusals every game shares (``companion.engine.errors``): notation,
    ambiguous readings, undo, set-ups and records, a chance outcome that cannot happen; "not
    allowed now" for any other tag."""
    if rule == "chance.none":
        return _("{card} was shown, but no card is being revealed now", card=card)
    if rule in ("chance", "chance.card"):
        if card:
            return _("{card} cannot be revealed now", card=card)
        return _("That cannot happen now")
    if rule == "notation":
        return _("That is not an action of this game")
    if rule == "ambiguous":
        return _("That reading fits {n} actions: choose one on the screen",
                 n=fields.get("count", 2))
    if rule == "undo.barrier":
        return _("The last draw, roll or reveal stays: undo never becomes a re-roll")
    if rule == "setup.names":
        return _("Two players have the same name: give each one a name of their own")
    if rule.startswith("setup"):
        return _("This table cannot start this game")
    if rule == "record":
        return _("This game record cannot be read")
    return _("That is not allowed now")


def refusal_text(error: Exception, game: str | None = None, state: State = None) -> str:
    """Any refusal in the table's language: by ``game``'s words when a game (and the state it
    refused in) is given, else the words every game shares (:func:`engine_refusal`)."""
    if game is not None:
        try:
            return words_for(game).refusal(error, state)
        except SetupError:
            pass
    fields = getattr(error, "fields", {})
    fields = fields if isinstance(fields, dict) else {}
    return engine_refusal(str(getattr(error, "rule", "")), fields, str(fields.get("card", "")))


def colour_word(colour: str) -> str:
    """A colour's name in the current language (``Red``, ``红色``, ``赤``)."""
    return {
        "red": _("Red"),
        "blue": _("Blue"),
        "yellow": _("Yellow"),
        "green": _("Green"),
    }.get(colour, _("that colour"))


def amount_text(what: str, amount: int) -> str:
    """A signed change of ``what`` (``vp``, ``gold``, ``coins``, ``workers`` or a resource):
    ``+2 VP``, ``-4 gold``, ``+1 stone``."""
    n = f"{amount:+d}"
    if what == "vp":
        return _("{n} VP", n=n)
    if what == "gold":
        return _("{n} gold", n=n)
    from .i18n import n_  # here, not at the top: keeps the import block as it was

    if what == "coins":
        return n_("{n} coin", "{n} coins", abs(amount), n=n)
    if what == "workers":
        return n_("{n} worker", "{n} workers", abs(amount), n=n)
    try:
        return _("{n} {res}", n=n, res=resource_name(what))
    except KeyError:
        return f"{n} {what}"


def display_name(name: str, colour: str) -> str:
    """A player's ``name`` as the table reads it: for a seat named after its ``colour`` (the
    default), that colour's default name in the current language (:func:`default_name`).
    Kept by name, colour, language and catalogue (every frame names every seat)."""
    return _kept(_display_names, 1024, (name, colour),
                 lambda: default_name(colour) if is_default_name(name, colour) else name)


_display_names: dict[tuple[object, ...], str] = {}


def _kept(kept: dict[tuple[object, ...], str], most: int, key: tuple[str, str],
          make: Callable[[], str]) -> str:
    """``make()`` kept in ``kept`` by ``key``, the language and its catalogue (emptied past
    ``most`` entries)."""
    lang = language()
    whole = (*key, lang, id(LOCALES.get(lang)))
    found = kept.get(whole)
    if found is None:
        if len(kept) > most:
            kept.clear()
        found = kept[whole] = make()
    return found


COMPANION_MARK = "◆"
"""The companion's mark where its word has no room (``◆ Blue`` on a narrow player panel); the
seat's overlay, opened by a tap on the panel, says it in words."""


def seat_label(player: Seat, companion: bool, short: bool = False) -> str:
    """A seat's name as the table reads it (:func:`name_of`), marked when the companion plays
    it: ``Blue (companion)``, ``蓝方（助手）``, ``青（コンパニオン）``.  Every place that lists
    the seats (panels, the player overlay, home, the end screen, history, the exports) uses it,
    so the table always knows which pieces it moves for the companion."""
    if short and companion:
        return f"{COMPANION_MARK} {name_of(player)}"
    return marked(name_of(player), companion)


def marked(name: str, companion: bool) -> str:
    """``name`` with the companion's mark when ``companion`` (``Blue (companion)``), else as
    it is."""
    return _("{name} (companion)", name=name) if companion else name


def seat_labels(setup: Setup, companions: Collection[int]) -> list[str]:
    """Every seat's :func:`seat_label` of ``setup``, seat order (``companions``: the seats the
    companion plays, e.g. ``JournaledGame.companions``)."""
    return [seat_label(p, i in companions) for i, p in enumerate(setup.players)]


def shown_names(summary: Summary) -> Summary:
    """A game's summary with its players' names (in ``players``, ``scores`` and ``winners``)
    as the table reads them (:func:`display_name`)."""
    names = {p.name: display_name(p.name, p.colour) for p in summary.players}
    if all(k == v for k, v in names.items()):
        return summary
    return replace(
        summary,
        players=tuple(replace(p, name=names[p.name]) for p in summary.players),
        scores={names.get(k, k): v for k, v in summary.scores.items()},
        winners=tuple(names.get(w, w) for w in summary.winners),
    )


def name_of(player: Seat) -> str:
    """A seat's name (a set-up's player: ``name`` and ``colour``) as the table reads it
    (:func:`display_name`): a default name follows the language, a typed one stays."""
    return display_name(str(player.name), str(player.colour))


def player_name(setup: Setup, seat: int) -> str:
    """Seat ``seat``'s name as the table reads it: the name the players typed, or for a seat
    named after its colour (the default) that colour's default name in the current language
    (:func:`default_name`)."""
    p = setup.players[seat]
    return display_name(str(p.name), str(p.colour))


class GameWords(Generic[S, A]):
    """The default words of a game, from its registry record and its rules.

    Generic over the game's state ``S`` and action ``A``: a game's words are typed with its own
    (``class PillarsWords(ModuleWords[PillarsState, A])``); the kiosk core, which knows no
    game, holds them as ``GameWords[Any, Any]`` (``words_for``)."""

    money: str | None = None
    """What the game's money is called in its ledger (``gold``, ``coins``; ``Entry.what``),
    None for a game without money."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

    @cached_property
    def game(self) -> Game[S, A]:
        """The game's rules: what the words ask about a state (its set-up, period, actor)."""
        return cast("Game[S, A]", self.spec.game())

    def title(self) -> str:
        """The game's title in the current language."""
        return _(self.spec.title)

    def tables(self) -> tuple[Table, ...]:
        """The game's tables of names and help, each translated under its own context in the
        game's catalogue (none by default: card names are plain messages)."""
        return ()

    def english_words(self) -> Iterator[str]:
        """Every English name the game can show besides its ``_()`` texts (for the fonts)."""
        for card in self.spec.cards:
            yield card.name
            if card.printed:
                yield card.printed

    def area_name(self, area: str) -> str:
        """The name of a place on the game's board (a table zone's ``area``)."""
        return _(area)

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

    def source(self, entry: Entry) -> str:
        """The source a ledger entry counts under in a breakdown by source (the Priory, tax,
        buildings...), in the table's language."""
        return _("Other")

    def sources(self) -> tuple[str, ...]:
        """The sources of points a game's breakdown always lists, in this order (as
        :meth:`source` words them), even at 0; others follow as they come."""
        return ()

    def player_detail(self, state: S, player: PlayerResult) -> str:
        """A line under a player's final score: their money, or nothing for a game without
        money (``player`` is their entry in the game's summary)."""
        return self.money_label(player.money) if player.money is not None else ""

    def chart_title(self) -> str:
        """The title of the end screen's score chart."""
        return _("Points by turn")

    def result(self, summary: Summary) -> str:
        """One sentence on how the winner was decided: the top score, or the game's
        tie-break (:meth:`tie_break`)."""
        summary = shown_names(summary)
        scores = summary.scores
        winners = list(summary.winners)
        top = max(scores.values())
        tied = [p for p in summary.players if scores.get(p.name) == top]
        if len(tied) <= 1 and len(winners) == 1:
            return _("{name} wins with {points} points", name=winners[0], points=top)
        return self.tie_break(tied, winners, top)

    def tie_break(self, tied: list[PlayerResult], winners: list[str], top: int) -> str:
        """How a tie on ``top`` points between the ``tied`` players' summaries was broken."""
        if len(winners) == 1:
            return _("{name} wins with {points} points", name=winners[0], points=top)
        return _("Shared win: the same points")

    def refusal(self, error: Exception, state: S) -> str:
        """A refusal of the engine in the table's language, worded from its rule tag and
        named fields (``error.rule``, ``error.fields``, see :meth:`worded`), never from its
        English sentence: a tag the game has no words for gets the engine's words
        (:func:`engine_refusal`), and any other a plain "not allowed now"."""
        rule = str(getattr(error, "rule", ""))
        fields = getattr(error, "fields", {})
        if not isinstance(fields, dict):
            fields = {}
        card = str(fields.get("card", ""))
        try:
            name = self.card_name(card)
        except KeyError:
            name = card
        worded = self.worded(rule, fields, name, state)
        if worded is None:
            worded = engine_refusal(rule, fields, name)
        return worded

    def worded(self, rule: str, fields: dict[str, Any], card: str, state: S) -> str | None:
        """A game's words for its rule tags (``card`` is the card's name, if the refusal names
        one), or None."""
        return None

    def player_name(self, state: S, seat: int) -> str:
        """Seat ``seat``'s name in ``state`` as the table reads it (:func:`player_name`)."""
        return player_name(self.game.setup_of(state), seat)

    def seat_name(self, state: S, seat: int) -> str:
        """The name of ``seat`` in ``state``, also for a seat the table has not (the solo
        Automa sits after the last player)."""
        return self.seat_name_of(self.game.setup_of(state), seat)

    def seat_name_of(self, setup: Setup, seat: int) -> str:
        """The name of ``seat`` of ``setup`` (:func:`player_name`; ``the Automa`` after the
        last player)."""
        if 0 <= seat < len(setup.players):
            return player_name(setup, seat)
        return _("the Automa")

    def period_heading(self, state: S, period: Period | None = None) -> str:
        """The heading of the round or turn ``state`` is in, for the action log: ``Round
        3``, ``Turn 7: Blue``, ``Set-up`` before the first; ``period`` is the state's
        (``Game.periods``: the turns of a game that states none are counted along the game),
        else the rules' ``period_of``."""
        if period is None:
            period = self.game.period_of(state)
        if period.number < 1:
            return _("Set-up")
        if period.kind == "turn" and period.seat is not None:
            return _("Turn {n}: {name}", n=period.number,
                     name=self.seat_name(state, period.seat))
        if period.kind == "turn":
            return _("Turn {n}", n=period.number)
        if period.kind == "phase":
            return _("Phase {n}", n=period.number)
        return _("Round {n}", n=period.number)

    def change_text(self, entry: Entry) -> str:
        """One ledger entry in words, without the player: ``+2 VP (the Priory, space 1)``."""
        return _("{change} ({cause})", change=amount_text(entry.what, entry.amount),
                 cause=self.cause_text(entry))

    def cause_text(self, entry: Entry) -> str:
        """Why a ledger entry happened, in words (``the Priory, space 1``, ``tax: the die
        shows 4``); games word each of their cause tags."""
        return str(entry.cause)

    def ledger_role(self, state: S, action: A, entry: Entry) -> str:
        """How the log shows ledger ``entry``, written by ``action`` in ``state``: ``said``
        when the action's sentence already says it (the gold paid for a craftsman: left out),
        ``action`` for another change the action itself made, ``rules`` for what the rules
        did by themselves after it (the Priory's VP, the tax, the final count)."""
        return "action"

    def aftermath(self, before: S, action: A, after: S) -> list[str]:
        """What the rules did by themselves after ``action`` besides changing holdings, in
        words, for the action log (a turn that ended by itself, the end of the game being
        triggered); empty by default."""
        return []

    def leads_to(self, before: S, seat: int, after: S) -> str:
        """What a choice of the hint leads to for ``seat`` (``before`` to ``after``: one
        action, or a whole visit): by default what it changes of the seat's holdings now
        (``+3 wood, -12 gold``); a game says more (what its craftsmen make of it)."""
        from companion.engine.ledger import totals

        game = self.game
        new = game.ledger(after)[len(game.ledger(before)):]
        changes = [amount_text(what, n) for (who, what), n in totals(new).items()
                   if who == seat and n]
        return _(", ").join(changes)

    def action_text(self, state: S, action: A) -> str:
        """What ``action`` did, naming the player, in the current language (``state`` is the
        rules state before the action): ``Red took the quarry with 8 workers``.  The default
        names the seat that took it (``Game.actor``) and the action's notation (``The table:``
        for a draw, a roll or a reveal); games word every action."""
        game = self.game
        text = game.format_action(action)
        seat = game.actor(state, action)
        if 0 <= seat < len(game.setup_of(state).players):
            return _("{name}: {action}", name=self.player_name(state, seat), action=text)
        return _("The table: {action}", action=text)

    def action_label(self, state: S, action: A) -> str:
        """The words on a button that takes ``action`` in ``state`` (the generic screen's):
        the game's own sentence for it (:meth:`action_text`, in the table's language) where
        the game words its actions, else the action's notation (the status line already
        names who decides)."""
        if type(self).action_text is GameWords.action_text:
            return self.game.format_action(action)
        return self.action_text(state, action)

    def instruction(self, state: S, action: A) -> str:
        """What the table does with the pieces for ``action`` (imperative, current language;
        ``state`` before the action): ``take the quarry, put 8 of Green's workers on it``.
        The default is the action's notation; games word every action."""
        return self.game.format_action(action)

    def option_label(self, name: str) -> str:
        """The name of one of the game's options, in the current language."""
        opt = self.spec.options[name]
        return _(opt.label or name)

    def choice_label(self, name: str, value: object) -> str:
        """The name of one choice of an option, in the current language."""
        return _(self.spec.options[name].choice_label(value))

    def option_help(self, name: str, value: Any = None) -> str:
        """What option ``name`` decides (``value`` None) or what its choice ``value`` means, in
        the current language, for a hold on the set-up screen: a game words each of its
        options (the default names the option and its choices)."""
        labels = _(", ").join(self.choice_label(name, v) for v in self.spec.options[name].choices)
        if value is None:
            return _("{option}: one of {choices}", option=self.option_label(name), choices=labels)
        return _("{option}: {choice}", option=self.option_label(name),
                 choice=self.choice_label(name, value))


class ModuleWords(GameWords[S, A]):
    """A game's words from two modules of its kiosk package: ``sentences`` (``action_text``,
    ``instruction``, ``cause_text``, ``ledger_role``, ``period_heading``, ``aftermath``) and
    ``refusals`` (``worded``, every refusal by rule tag)."""

    sentences: ClassVar[ModuleType]
    refusals: ClassVar[ModuleType]

    def worded(self, rule: str, fields: dict[str, Any], card: str, state: S) -> str | None:
        worded: str | None = self.refusals.worded(rule, fields, card, state)
        return worded

    def action_text(self, state: S, action: A) -> str:
        try:
            return str(self.sentences.action_text(state, action))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return _("That is not an action of this game")  # built by hand, not legal

    def instruction(self, state: S, action: A) -> str:
        try:
            return str(self.sentences.instruction(state, action))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return _("That is not an action of this game")

    def cause_text(self, entry: Entry) -> str:
        return str(self.sentences.cause_text(entry))

    def ledger_role(self, state: S, action: A, entry: Entry) -> str:
        return str(self.sentences.ledger_role(state, action, entry))

    def period_heading(self, state: S, period: Period | None = None) -> str:
        return str(self.sentences.period_heading(state))

    def aftermath(self, before: S, action: A, after: S) -> list[str]:
        return list(self.sentences.aftermath(before, action, after))


@cache
def _words(name: str) -> GameWords[Any, Any]:
    game = spec(name)
    if game.words is None:
        return GameWords[Any, Any](game)
    words = game.words()(game)
    if not isinstance(words, GameWords):
        raise TypeError(f"the {name} spec's words loader made {words!r}, not GameWords")
    return words


def words_for(name: str) -> GameWords[Any, Any]:
    """The words of the game called ``name`` (SetupError for no such game)."""
    return _words(name)


def card_name(game: str, card_id: str) -> str:
    """The name of a card of ``game`` in the current language; KeyError for an unknown card
    or game.  Kept by game, card, language and catalogue (a frame names dozens of cards)."""
    return _kept(_card_names, 4096, (game, card_id), lambda: _known(game).card_name(card_id))


_card_names: dict[tuple[object, ...], str] = {}


def short_card_name(game: str, card_id: str) -> str:
    """A card's name without its details, for tight spaces (a Pillars craftsman without its
    round, a Builders worker by its rank)."""
    return _known(game).short_card_name(card_id)


def _known(game: str) -> GameWords[object, object]:
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


__all__ = [
    "COLOUR_WORDS",
    "COMPANION_MARK",
    "amount_text",
    "colour_word",
    "GameWords",
    "card_name",
    "default_name",
    "display_name",
    "is_default_name",
    "marked",
    "seat_label",
    "seat_labels",
    "stored_default",
    "engine_refusal",
    "game_title",
    "player_name",
    "refusal_text",
    "short_card_name",
    "shown_names",
    "words_for",
]
