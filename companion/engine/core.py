"""The engine core shared by both games: Game, set-up, chance, and the contract of a rules engine.

A game's rules are a :class:`Game` object; one playthrough is an immutable state; one move is an
action with a text notation.  Chance is an explicit player: when ``current_player(state)`` is
:data:`CHANCE`, ``chance_outcomes(state)`` lists ``(outcome, probability)`` and the chosen outcome
is applied like any other action.  Nothing here draws a random number.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from .errors import (
    AmbiguousAction,
    ContractError,
    IllegalAction,
    MalformedAction,
    SetupError,
    not_a_state,
)
from .ledger import POINTS, Entry
from .summary import Period, PlayerResult, Summary, ranks

CHANCE = -1
"""``current_player`` at a chance node: a draw, a reveal or a roll."""

TERMINAL = -2
"""``current_player`` once the game is over."""

COLOURS = ("red", "blue", "yellow", "green")
"""Player colours, in the order offered by default."""


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A seat at the table: a display name and a colour."""

    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything a game needs before the first action: players in seat order, start, options.

    ``players`` is the seat order (clockwise); ``start_player`` the seat that begins.
    ``options`` holds the table's choices among the documented options of the game.
    """

    game: str
    players: tuple[PlayerSpec, ...]
    start_player: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)

    def check(self) -> None:
        """Raise SetupError unless names and colours are set and distinct and the start
        player is a seat: the checks every game shares."""
        n = len(self.players)
        if not 1 <= n <= len(COLOURS):
            raise SetupError(f"the companion's games are for 2 to {len(COLOURS)} players, not {n}")
        names = [p.name for p in self.players]
        if any(not name.strip() for name in names):
            raise SetupError("every player needs a name")
        if len(set(names)) != n:
            raise SetupError(f"player names must differ: {', '.join(names)}", "setup.names")
        colours = [p.colour for p in self.players]
        for c in colours:
            if c not in COLOURS:
                raise SetupError(f"unknown colour {c!r}; the colours are {', '.join(COLOURS)}")
        if len(set(colours)) != n:
            raise SetupError(f"player colours must differ: {', '.join(colours)}")
        if not 0 <= self.start_player < n:
            raise SetupError(f"start player {self.start_player} is not a seat of {n} players")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": [{"name": p.name, "colour": p.colour} for p in self.players],
            "start_player": self.start_player,
            "options": dict(self.options),
        }

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        """Build a set-up from its JSON form; raises SetupError naming what is wrong."""
        if not isinstance(data, dict):
            raise SetupError("the set-up must be a JSON object")
        game = data.get("game")
        if not isinstance(game, str):
            raise SetupError("the set-up has no game name")
        players = data.get("players")
        if not isinstance(players, list) or not players:
            raise SetupError("the set-up needs a list of players")
        specs = []
        for i, p in enumerate(players, 1):
            if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not isinstance(
                p.get("colour"), str
            ):
                raise SetupError(f"player {i} needs a name and a colour")
            specs.append(PlayerSpec(p["name"], p["colour"]))
        start = data.get("start_player", 0)
        if not isinstance(start, int) or isinstance(start, bool):
            raise SetupError("start_player must be a seat number")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise SetupError("options must be a JSON object")
        setup = cls(game, tuple(specs), start, dict(options))
        setup.check()
        return setup


@dataclass(frozen=True, slots=True)
class Option:
    """A documented table option: its default, the values allowed and what it means.

    ``label`` names the option and ``labels`` its choices, in English, for a set-up screen to
    translate and show (a screen shows any game's options from these alone)."""

    default: Any
    choices: tuple[Any, ...]
    help: str
    label: str = ""
    labels: tuple[str, ...] = ()

    def choice_label(self, value: Any) -> str:
        """The English label of one choice (its value written out where none is given)."""
        if value in self.choices and len(self.labels) == len(self.choices):
            return self.labels[self.choices.index(value)]
        return str(value)


S = TypeVar("S")
A = TypeVar("A")
S_co = TypeVar("S_co", covariant=True)
A_co = TypeVar("A_co", covariant=True)


@dataclass(frozen=True, slots=True)
class Step(Generic[S_co, A_co]):
    """An action applied to a state, kept with both states: made by :meth:`Game.step` (the
    rules applied once), shown as a preview, then committed as it is (``Playthrough.play``,
    ``JournaledGame.play``) without applying the rules again.  ``before`` is the very state
    it was applied to: a step is only played on that state."""

    before: S_co
    action: A_co
    after: S_co


class Game(ABC, Generic[S, A]):
    """The rules of one game.  Stateless: every method takes the state it works on.

    States are immutable; ``apply`` returns a new state and leaves its argument unchanged, also
    when it raises.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[Mapping[str, Option]] = {}

    # -- set-up ---------------------------------------------------------------------------
    def setup(
        self,
        players: int | Sequence[str | PlayerSpec],
        start_player: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> Setup:
        """A set-up for ``players`` (a count, or names/specs in seat order); validated."""
        if isinstance(players, int):
            specs: list[PlayerSpec] = [
                PlayerSpec(c.capitalize(), c) for c in COLOURS[: max(players, 0)]
            ]
            if players < 0 or players > len(COLOURS):
                raise SetupError(
                    f"{self.title} is for {self.min_players} to {self.max_players} players, "
                    f"not {players}"
                )
        else:
            specs = []
            for i, p in enumerate(players):
                if isinstance(p, PlayerSpec):
                    specs.append(p)
                else:
                    specs.append(PlayerSpec(p, COLOURS[i % len(COLOURS)]))
        s = Setup(self.name, tuple(specs), start_player, dict(options or {}))
        self.validate_setup(s)
        return s

    def validate_setup(self, setup: Setup) -> None:
        """Raise SetupError unless ``setup`` is a legal set-up for this game."""
        n = len(setup.players)
        if setup.game != self.name:
            raise SetupError(f"this set-up is for {setup.game!r}, not {self.name!r}")
        if not self.min_players <= n <= self.max_players:
            raise SetupError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {n}"
            )
        setup.check()
        for key, value in setup.options.items():
            opt = self.options.get(key)
            if opt is None:
                known = ", ".join(self.options) or "none"
                raise SetupError(f"unknown option {key!r} for {self.title} (options: {known})")
            if value not in opt.choices:
                allowed = ", ".join(map(repr, opt.choices))
                raise SetupError(f"option {key!r} cannot be {value!r}; allowed: {allowed}")

    def option(self, setup: Setup, name: str) -> Any:
        """The value of a documented option in ``setup``, or its default."""
        return setup.options.get(name, self.options[name].default)

    @abstractmethod
    def initial_state(self, setup: Setup) -> S:
        """The state before the first action; raises SetupError on a bad set-up."""

    # -- the contract ---------------------------------------------------------------------
    @abstractmethod
    def current_player(self, state: S) -> int:
        """The seat to act, CHANCE at a chance node, TERMINAL when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[A]:
        """The decisions open to the current player; empty at chance and terminal nodes."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> list[tuple[A, float]]:
        """At a chance node, every outcome with its probability (summing to 1); else empty."""

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """The state after ``action``; raises IllegalAction (state unchanged) if not allowed."""

    def step(self, state: S, action: A) -> Step[S, A]:
        """``action`` applied to ``state`` once, kept as a :class:`Step` to preview and then
        commit; raises IllegalAction (state unchanged) like :meth:`apply`, and
        ``contract.ContractError`` naming the game when ``apply`` returns no state of the kind
        it was given (the table's pace: the search calls ``apply`` itself)."""
        after = self.apply(state, action)
        problem = not_a_state(after, state)
        if problem is not None:
            raise ContractError(self.name, "apply()", problem)
        return Step(state, action, after)

    def is_over(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def active_seat(self, state: S) -> int | None:
        """The seat the table should look at: the player deciding, or at a chance node the
        player the draw or reveal concerns; None when it concerns the whole table (a round's
        cards revealed) or the game is over.  Lamps and the screen's banner follow it."""
        player = self.current_player(state)
        return player if player >= 0 else None

    # -- cards seen by the camera ---------------------------------------------------------
    def card_of(self, outcome: A) -> str | None:
        """The card id a chance outcome reveals (the sticker the camera would read), or None
        for an outcome that is not a card (a die roll, a builder drawn from the bag)."""
        return None

    def die_of(self, outcome: A) -> int | None:
        """The face a chance outcome shows when it is a roll of a die (the table's ROLL button
        rolls it: the generic screen rolls any die a game declares here), else None."""
        return None

    def refuse_card(self, state: S, card: str) -> IllegalAction:
        """Why ``card`` is not an outcome of the reveal the table is waiting for: an
        IllegalAction with the rule and its numbers.  Games override it to say more (a card
        already out, a craftsman of another round)."""
        if self.current_player(state) != CHANCE:
            return IllegalAction(
                card, f"{card} was shown, but no card is being revealed now", "chance.none",
                card=card,
            )
        return IllegalAction(
            card, f"{card} cannot be revealed now", "chance.card", card=card
        )

    def outcome_for_card(self, state: S, card: str) -> A:
        """The chance outcome that revealing ``card`` stands for.

        Raises IllegalAction (rule and numbers from :meth:`refuse_card`) when the card cannot be
        the one revealed now, and AmbiguousAction when two possible outcomes show that card."""
        matches = [
            outcome
            for outcome, p in self.chance_outcomes(state)
            if p > 0 and self.card_of(outcome) == card
        ]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise AmbiguousAction(card, [self.format_action(m) for m in matches])
        raise self.refuse_card(state, card)

    @abstractmethod
    def scores(self, state: S) -> dict[str, int]:
        """Each player's points by name (final scores once the game is over)."""

    @abstractmethod
    def winners(self, state: S) -> list[str]:
        """The names of the winners of a finished game (several on a shared win)."""

    @abstractmethod
    def setup_of(self, state: S) -> Setup:
        """The set-up the state was started from."""

    # -- notation -------------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written ``text``; raises MalformedAction naming what is wrong."""

    def format_action(self, action: A) -> str:
        return str(action)

    def notation(self, action: A) -> str:
        """The text to store for ``action`` (the journal's entries, records): its notation,
        checked to parse back to an action equal to it, in its one canonical form.

        Raises MalformedAction when no text reads back as ``action`` (a hand-built action
        holding a look-alike the notation cannot write, e.g. a count of ``2.5``): such an
        action is never stored, since the game could not be read back from it."""
        text = self.format_action(action)
        try:
            back = self.parse_action(text)
        except MalformedAction:
            back = None
        if back is None or back != action:
            raise MalformedAction(
                text[:80], "no notation reads back as this action, so it cannot be kept"
            )
        canonical = self.format_action(back)
        if canonical != text and self.parse_action(canonical) != action:  # pragma: no cover
            raise MalformedAction(text[:80], "its notation does not read back the same")
        return canonical

    def apply_text(self, state: S, text: str) -> S:
        """Parse then apply; raises MalformedAction or IllegalAction."""
        return self.apply(state, self.parse_action(text))

    # -- what the table is told: whose, when, and the out-of-turn window ------------------
    def period_of(self, state: S) -> Period:
        """The round, turn or phase ``state`` is in, as the log and the screens word it
        (``Round 3``, ``Turn 7: Blue``); games override it.  Its ``number`` is the period of
        the journal's charts (everyone's score is kept each time it changes) and of the
        ledger's entries.  A game that does not override it has a turn per seat, counted
        along the game by :meth:`period_after` (a state alone says nothing of its turn: this
        default is round 0)."""
        return Period(0)

    def own_periods(self) -> bool:
        """Whether the game states its periods (overrides :meth:`period_of`)."""
        return type(self).period_of is not Game.period_of

    def period_after(self, period: Period | None, state: S) -> Period:
        """The period of ``state``, the state after one in ``period`` (None: ``state`` is
        the first of the game).  A game that overrides :meth:`period_of` gets its own; for
        one that does not, a turn per seat: ``Set-up`` (0) until a seat is to act
        (``active_seat``), then ``Turn 1: Red``, and the next turn each time the seat to act
        changes (a draw or a roll for the whole table stays in the turn it is in)."""
        if self.own_periods():
            return self.period_of(state)
        seat = self.active_seat(state)
        if period is None:
            return Period(0 if seat is None else 1, "turn", seat)
        if seat is None or seat == period.seat:
            return period
        return Period(period.number + 1, "turn", seat)

    def periods(self, states: Sequence[S], first: int = 0) -> list[Period]:
        """The periods of ``states[first:]``, where ``states`` are a game's from its first
        (:meth:`period_after`): a game with periods of its own reads only those asked for."""
        if self.own_periods():
            return [self.period_of(s) for s in states[first:]]
        out: list[Period] = []
        period: Period | None = None
        for i, s in enumerate(states):
            period = self.period_after(period, s)
            if i >= first:
                out.append(period)
        return out

    def actor(self, state: S, action: A) -> int:
        """The seat that takes ``action`` in ``state`` (CHANCE for a chance outcome): the
        current player, or the seat an out-of-turn action belongs to (:meth:`out_of_turn`)."""
        for seat, actions in self.out_of_turn(state).items():
            if action in actions:
                return seat
        return self.current_player(state)

    def out_of_turn(self, state: S) -> dict[int, list[A]]:
        """The out-of-turn window: what seats other than the current player may do now, by
        seat (Pillars' start player's re-draw while a drawn builder waits); the actions are
        applied like any other.  Empty for most states and most games."""
        return {}

    def money(self, state: S, seat: int) -> int | None:
        """Seat ``seat``'s money (gold, coins) where the game has money, else None."""
        return None

    def rank_key(self, state: S, seat: int) -> tuple[int, ...]:
        """What seat ``seat`` is ranked by at the end, highest best: its score, then its money
        (the usual tie-break) where the game has money; games with another tie-break say it."""
        score = self.scores(state).get(self.setup_of(state).players[seat].name, 0)
        money = self.money(state, seat)
        return (score,) if money is None else (score, money)

    def ledger(self, state: S) -> tuple[Entry, ...]:
        """Every change of points and holdings so far, with its cause (``engine/ledger.py``);
        empty for a game that keeps none."""
        return ()

    def holdings(self, state: S) -> dict[tuple[int, str], int]:
        """What the ledger adds up to, by (seat, what): each player's points and holdings the
        ledger accounts for; empty for a game that keeps no ledger."""
        return {}

    # -- checks and summaries -------------------------------------------------------------
    def invariants(self, state: S) -> list[str]:
        """Conservation checks: a list of what is wrong, empty when all totals hold."""
        return []

    def summary(self, state: S) -> Summary:
        """The playthrough at a glance (:class:`~companion.engine.summary.Summary`): scores,
        winners, each seat's rank, money and points by source where the game has them; games
        add their own details with :meth:`summary_with`."""
        return self.summary_with(state)

    def summary_with(
        self,
        state: S,
        details: Mapping[str, Any] | None = None,
        players: Sequence[Mapping[str, Any]] | None = None,
        winners: Sequence[str] | None = None,
    ) -> Summary:
        """The default summary of ``state`` with the game's own JSON-ready ``details`` and,
        for each seat in order, its ``players`` details (without ``name`` and ``colour``);
        ``winners`` replaces the finished game's winners (a game that names them earlier)."""
        setup = self.setup_of(state)
        scores = self.scores(state)
        over = self.is_over(state)
        won = tuple(winners) if winners is not None else (
            tuple(self.winners(state)) if over else ()
        )
        seats = range(len(setup.players))
        keys = [(p.name in won, *self.rank_key(state, k)) for k, p in enumerate(setup.players)]
        ledger = self.ledger(state)
        results = []
        for k, p, rank in zip(seats, setup.players, ranks(keys), strict=True):
            sources: dict[str, int] | None = None
            if ledger:
                sources = {}
                for e in ledger:
                    if e.player == k and e.what == POINTS:
                        sources[e.cause] = sources.get(e.cause, 0) + e.amount
            extra = {
                key: value
                for key, value in (players[k] if players is not None else {}).items()
                if key not in ("name", "colour")
            }
            results.append(
                PlayerResult(
                    k, p.name, p.colour, scores.get(p.name, 0), p.name in won, rank,
                    self.money(state, k), sources, extra,
                )
            )
        body = {
            key: value
            for key, value in (details or {}).items()
            if key not in ("game", "players", "over", "scores", "winners")
        }
        return Summary(self.name, over, tuple(results), scores, won, body)

    def describe(self, state: S) -> str:
        """A few lines of plain text describing the state."""
        return "\n".join(f"{k}: {v}" for k, v in self.summary(state).to_json().items())

    # -- helpers for implementations ------------------------------------------------------
    def check_chance(self, state: S, action: A) -> None:
        """Raise IllegalAction unless ``action`` is one of the chance outcomes of ``state``."""
        for outcome, p in self.chance_outcomes(state):
            if outcome == action and p > 0:
                return
        possible = ", ".join(str(o) for o, p in self.chance_outcomes(state) if p > 0)
        raise IllegalAction(
            action, f"{action} cannot happen now; the possible outcomes are: {possible}", "chance"
        )
