"""The simulation path: a mutable copy of a game's state, for search and random playouts only.

The immutable rules (:class:`~companion.engine.core.Game`) stay the single source of truth.  A
game's registry record may declare a ``simulator`` (a loader of a :class:`Simulator`): it builds a
:class:`SimState`, a mutable state that applies *legal* actions in place without checking them,
lists the same legal actions and chance outcomes, in the same order, as the rules, and freezes
back into the rules' own immutable state.  :func:`verified_game` plays a random game both ways
and compares every state, every list of legal actions and every chance outcome; the tests run it
on thousands of games.  A game whose record declares none (or a game not registered) gets
:class:`RulesSim`, the immutable rules behind the same interface.

``SimState.random_playout(rng)`` plays to the end exactly like
:func:`companion.engine.simulate.random_game` with the same generator (the same chance draws and
the same decisions), only faster; it is what ``companion simulate`` and the benchmarks time.
"""

from __future__ import annotations

import random
from collections.abc import Container
from dataclasses import dataclass
from typing import Any, Protocol

from .core import CHANCE, TERMINAL, Game, Setup
from .signals import SUMMARY_SIGNALS, Signals, declared_signals, summary_signals
from .simulate import sample
from .summary import Summary


@dataclass(frozen=True, slots=True)
class Features:
    """What a seat holds, in the few measures the heuristic weighs (``companion.bots``), each
    game measuring its own (its simulation path's ``features``; a game without one, from its
    summary: its score and money).

    ``score`` points so far; ``money`` (with income already earned this round); ``goods``
    what else it holds and has coming, in money at what it would fetch; ``hands`` how many
    pieces work for the seat; ``coming`` the points its unfinished work will bring, each piece
    of work counted by how far it is done (0 where a game has none); ``initiative`` what the
    actions left in the seat's own turn are worth in money (0 when it is not the seat's
    turn)."""

    score: float
    money: float
    goods: float
    hands: float
    coming: float
    initiative: float = 0.0


class SimState(Protocol):
    """A mutable state of one game.  ``apply`` trusts its action to be legal (the rules check;
    the simulation path does not), so a bot gives it only actions from ``legal_actions`` or
    ``chance_outcomes``.

    What the bots judge a position by is the game's: ``features`` (the heuristic's measures)
    and ``SIGNALS``, the names of what ``signals`` measures of each seat (the search's leaves,
    weighed by the models the game declares: ``companion.engine.signals``)."""

    @property
    def SIGNALS(self) -> tuple[str, ...]:  # noqa: N802  (a game's sim holds it as a constant)
        """The names of :meth:`signals`' measures, in order."""

    def signals(self, skip: Container[str] = ()) -> list[list[float]]:
        """Each seat's signals, in seat order; those named in ``skip`` (no weight in the
        judge asking) may be left at 0 where they cost time."""

    def current_player(self) -> int:
        """The seat to act, CHANCE at a chance node, TERMINAL when the game is over."""

    def legal_actions(self) -> list[Any]:
        """The rules' legal actions, in the rules' order (equal objects)."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """The rules' chance outcomes with their probabilities, in the rules' order."""

    def apply(self, action: Any) -> None:
        """Apply a legal action or chance outcome in place (unchecked)."""

    def copy(self) -> SimState:
        """An independent copy (for a search's determinization or a rollout)."""

    def freeze(self) -> Any:
        """The rules' immutable state equal to this one (``==``)."""

    def random_playout(self, rng: random.Random, max_actions: int = 100_000) -> list[Any]:
        """Play to the end as ``random_game`` does with ``rng``; every action applied."""

    def features(self, seat: int) -> Features:
        """The seat's holdings in the measures a bot's value function weighs."""

    def seat_count(self) -> int:
        """How many seats the table has."""

    def winners(self) -> list[int]:
        """The winning seats of a finished game (several for a shared win; none for a seat
        when a game's automatic opponent wins), as ``game.winners`` says of ``freeze()``."""

    def determinize(self, seat: int, rng: random.Random) -> SimState:
        """A copy in which everything ``seat`` cannot see is drawn anew with ``rng``,
        consistently with what it has seen (a search's sample of the positions the seat may
        be in).  Two states that differ only in what the seat cannot see give the same copy
        for the same ``rng``: the hidden part is put in a canonical form before it is drawn."""


class Simulator(Protocol):
    """A game's simulation path: mutable states from a set-up or from a rules state."""

    def start(self, setup: Setup) -> SimState:
        """The mutable state before the first action (as ``game.initial_state(setup)``)."""

    def thaw(self, state: Any) -> SimState:
        """A mutable copy of the rules' immutable ``state``."""


class RulesSim:
    """The immutable rules behind the :class:`SimState` interface (for a game without a
    simulation path of its own): correct by construction, as fast as the rules.  It measures
    the signals the game declares (``GameSpec.signals``; none: its summary's score, money and
    rank) and the heuristic's features from the summary (``given``: the declaration, for a copy
    or a game measured otherwise than its registry record says)."""

    __slots__ = ("_judged", "_summary", "declared", "game", "state")

    def __init__(self, game: Game[Any, Any], state: Any, given: Signals | None = None) -> None:
        self.game = game
        self.state = state
        self.declared = declared_signals(game) if given is None else given
        self._judged: Any = None
        self._summary: Summary | None = None

    def current_player(self) -> int:
        return self.game.current_player(self.state)

    def legal_actions(self) -> list[Any]:
        return self.game.legal_actions(self.state)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return self.game.chance_outcomes(self.state)

    def apply(self, action: Any) -> None:
        self.state = self.game.apply(self.state, action)

    def copy(self) -> RulesSim:
        return RulesSim(self.game, self.state, self.declared)

    def freeze(self) -> Any:
        return self.state

    def random_playout(self, rng: random.Random, max_actions: int = 100_000) -> list[Any]:
        return playout(self, rng, max_actions)

    def seat_count(self) -> int:
        return len(self.game.setup_of(self.state).players)

    def winners(self) -> list[int]:
        names = [p.name for p in self.game.setup_of(self.state).players]
        return [names.index(w) for w in self.game.winners(self.state) if w in names]

    def determinize(self, seat: int, rng: random.Random) -> RulesSim:
        """A copy: a game without a simulation path of its own declares nothing hidden (its
        chance is drawn at chance nodes, never held in the state)."""
        return RulesSim(self.game, self.state, self.declared)

    def summary(self) -> Summary:
        """The rules' summary of the state (kept until the state changes: the heuristic asks
        it for every seat)."""
        if self._summary is None or self._judged is not self.state:
            self._summary = self.game.summary(self.state)
            self._judged = self.state
        return self._summary

    def features(self, seat: int) -> Features:
        """The seat's score and money from the rules' summary (slow; a game's own path
        measures its state)."""
        p = self.summary().players[seat]
        return Features(score=float(p.score), money=float(p.money or 0), goods=0.0, hands=0.0,
                        coming=0.0)

    @property
    def SIGNALS(self) -> tuple[str, ...]:  # noqa: N802  (the SimState's name)
        return self.declared.names

    def signals(self, skip: Container[str] = ()) -> list[list[float]]:
        """Each seat's declared signals: by the declaration's ``measure``, else the summary's,
        else (a game with a simulation path of its own, here behind the rules) by that path;
        all of them (``skip`` is for a simulation path's costly ones)."""
        declared = self.declared
        if declared.measure is not None:
            return [[float(x) for x in row] for row in declared.measure(self.state)]
        if declared.names == SUMMARY_SIGNALS:
            return summary_signals(self.summary())
        own = simulator(self.game)
        if isinstance(own, RulesSimulator):
            raise TypeError(
                f"{self.game.name}: signals {', '.join(declared.names)} need a measure of "
                "the rules' state or a simulation path of the game's own"
            )
        return own.thaw(self.state).signals()


class RulesSimulator:
    """:class:`Simulator` over the immutable rules."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.declared = declared_signals(game)

    def start(self, setup: Setup) -> SimState:
        return RulesSim(self.game, self.game.initial_state(setup), self.declared)

    def thaw(self, state: Any) -> SimState:
        return RulesSim(self.game, state, self.declared)


def simulator(game: Game[Any, Any]) -> Simulator:
    """The game's simulation path: what its registry record's ``simulator`` loads, or
    :class:`RulesSimulator` when the record declares none (or the game is not registered)."""
    from .errors import SetupError
    from .registry import spec

    try:
        load = spec(game.name).simulator
    except SetupError:
        load = None
    return RulesSimulator(game) if load is None else load()


def playout(sim: SimState, rng: random.Random, max_actions: int = 100_000) -> list[Any]:
    """The generic random playout through the :class:`SimState` interface (the reference the
    games' own fused playouts match): chance sampled, decisions ``rng.choice``."""
    actions: list[Any] = []
    for _ in range(max_actions):
        who = sim.current_player()
        if who == TERMINAL:
            return actions
        if who == CHANCE:
            action = sample(sim.chance_outcomes(), rng)
        else:
            action = rng.choice(sim.legal_actions())
        sim.apply(action)
        actions.append(action)
    raise RuntimeError(f"no end after {max_actions} actions")


class Mismatch(AssertionError):
    """The simulation path and the rules disagree (a bug in the simulation path)."""


def verified_game(
    game: Game[Any, Any],
    setup: Setup,
    rng: random.Random,
    sim: Simulator | None = None,
    max_actions: int = 100_000,
) -> tuple[Any, list[Any]]:
    """Play one random game on the simulation path and the rules side by side, comparing at
    every step the frozen state, the current player, the legal actions and the chance outcomes;
    raise :class:`Mismatch` naming the step and what differs.  Returns what ``random_game``
    returns (the final rules state and the actions), and the same game for the same ``rng``."""
    path = sim if sim is not None else simulator(game)
    fast = path.start(setup)
    state = game.initial_state(setup)
    actions: list[Any] = []
    for _ in range(max_actions):
        where = f"{game.name}: after {len(actions)} actions"
        if fast.freeze() != state:
            raise Mismatch(f"{where}: the states differ ({_diff(fast.freeze(), state)})")
        who = game.current_player(state)
        if fast.current_player() != who:
            raise Mismatch(f"{where}: current player {fast.current_player()} != {who}")
        if who == TERMINAL:
            return state, actions
        if who == CHANCE:
            outcomes = game.chance_outcomes(state)
            if fast.chance_outcomes() != outcomes:
                raise Mismatch(f"{where}: chance outcomes {fast.chance_outcomes()} != {outcomes}")
            if fast.legal_actions():
                raise Mismatch(f"{where}: legal actions at a chance node")
            action = sample(outcomes, rng)
        else:
            legal = game.legal_actions(state)
            if fast.legal_actions() != legal:
                raise Mismatch(f"{where}: legal actions {fast.legal_actions()} != {legal}")
            if fast.chance_outcomes():
                raise Mismatch(f"{where}: chance outcomes at a decision")
            action = rng.choice(legal)
        state = game.apply(state, action)
        fast.apply(action)
        actions.append(action)
    raise RuntimeError(f"{game.name}: no end after {max_actions} actions")


def _diff(a: Any, b: Any) -> str:
    """The names of the fields where two states differ (for a readable Mismatch)."""
    names = getattr(type(a), "__dataclass_fields__", {})
    out = [k for k in names if getattr(a, k) != getattr(b, k)]
    return ", ".join(f"{k}: {getattr(a, k)!r} != {getattr(b, k)!r}"[:300] for k in out) or "?"
