"""The bots: a seat's decision from a state of the simulation path.

A bot sees what any player sees through the public interface of a simulation state
(:class:`companion.engine.sim.SimState`): the legal actions and the seats' holdings
(``features``).  It never draws chance itself; the table (or the arena) does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import exp
from typing import Any, Protocol

from companion.engine.core import CHANCE, TERMINAL
from companion.engine.sim import Features, SimState
from companion.engine.simulate import sample

WEIGHTS = Features(vp=10.0, gold=1.0, resources=1.0, craftsmen=5.0, sites=10.0, tempo=1.0)
"""The heuristic's value of one unit of each measure, in gold: a VP is worth 10 gold (ten coins
make a point in The Builders), a cube what the market pays for it, a craftsman (or worker) 5,
a site's VP to come as much as a VP held (the features give sites in VP already), the actions
left in one's own turn what the features say they are worth."""


def value(f: Features, weights: Features = WEIGHTS) -> float:
    """A seat's holdings as one number (see :data:`WEIGHTS`)."""
    return (
        weights.vp * f.vp
        + weights.gold * f.gold
        + weights.resources * f.resources
        + weights.craftsmen * f.craftsmen
        + weights.sites * f.sites
        + weights.tempo * f.tempo
    )


@dataclass(frozen=True)
class Choice:
    """One of a seat's choices as a bot ranks them: the action, the seat's estimated chance
    of winning after it (0 to 1; a shared win counts as its share) and how many playouts the
    estimate rests on."""

    action: Any
    win_chance: float
    visits: int


def outcome(sim: SimState) -> list[float]:
    """Each seat's share of the win in a finished game (nothing for a seat when a game's
    automatic opponent wins)."""
    winners = sim.winners()
    out = [0.0] * sim.seat_count()
    share = 1.0 / len(winners) if winners else 0.0
    for w in winners:
        if w < len(out):
            out[w] = share
    return out


def decision(state: SimState, seat: int) -> list[Any]:
    """The legal actions of ``seat``'s decision in ``state``; ValueError if ``seat`` has none
    (another seat's turn, a chance node, the end)."""
    who = state.current_player()
    if who != seat:
        waits = (
            "a chance outcome (a draw, a reveal or a roll)"
            if who == CHANCE
            else "nobody: the game is over"
            if who == TERMINAL
            else f"seat {who}"
        )
        raise ValueError(f"seat {seat} has no decision here (the state waits for {waits})")
    return state.legal_actions()


def playout_win_chance(
    state: SimState, seat: int, action: Any, rng: random.Random, playouts: int
) -> float:
    """The seat's mean :func:`judged` win chance over ``playouts`` samples after ``action``,
    each from a fresh determinization (nothing the seat cannot see is used)."""
    total = 0.0
    for _ in range(playouts):
        sim = state.determinize(seat, rng)
        sim.apply(action)
        total += judged(sim, rng)[seat]
    return total / playouts


class Bot(Protocol):
    """Chooses one of ``state.legal_actions()`` for ``seat``; ``rng`` breaks ties and is the
    bot's own (seeded by whoever runs it: same seed, same decision)."""

    name: str

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        """One legal action of ``state`` for ``seat`` (the current player)."""

    def rank(self, state: SimState, seat: int, rng: random.Random, top: int = 3) -> list[Choice]:
        """The seat's ``top`` best choices, best first, each with an estimated win chance."""


PLAYOUTS = 64
"""Judged playouts (:func:`judged`) per choice behind the win chances of the random and
heuristic bots."""


class RandomBot:
    """Any legal action, uniformly."""

    name = "random"

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        return rng.choice(state.legal_actions())

    def rank(self, state: SimState, seat: int, rng: random.Random, top: int = 3) -> list[Choice]:
        """``top`` actions drawn at random, each with the win chance of judged playouts."""
        options = decision(state, seat)
        picks = rng.sample(options, min(max(top, 0), len(options)))
        return [
            Choice(a, playout_win_chance(state, seat, a, rng, PLAYOUTS), PLAYOUTS) for a in picks
        ]


class HeuristicBot:
    """One ply of greed: the action after which the seat's value most exceeds the best
    opponent's (:func:`value` of ``features``; an opponent's tempo left out, or ending one's
    turn would look like a gift to the next player); ties broken at random."""

    name = "heuristic"

    def __init__(self, weights: Features = WEIGHTS) -> None:
        self.weights = weights

    def score(self, state: SimState, seat: int) -> float:
        """The seat's value less the best opponent's."""
        players = range(state.seat_count())
        mine = value(state.features(seat), self.weights)
        w = self.weights
        others = []
        for i in players:
            if i != seat:
                f = state.features(i)
                others.append(value(f, w) - w.tempo * f.tempo)
        return mine - max(others, default=0.0)

    def scores(self, state: SimState) -> list[float]:
        """:meth:`score` of every seat (the same numbers), each seat's features read once."""
        w = self.weights
        feats = [state.features(i) for i in range(state.seat_count())]
        mine = [value(f, w) for f in feats]
        lean = [v - w.tempo * f.tempo for v, f in zip(mine, feats, strict=True)]
        out = []
        for i, v in enumerate(mine):
            others = [x for j, x in enumerate(lean) if j != i]
            out.append(v - max(others, default=0.0))
        return out

    def rank(self, state: SimState, seat: int, rng: random.Random, top: int = 3) -> list[Choice]:
        """The ``top`` actions worth most to the heuristic (best first), each with the win
        chance of :data:`PLAYOUTS` judged playouts after it (:func:`judged`)."""
        options = decision(state, seat)
        worth = []
        for k, action in enumerate(options):
            after = state.copy()
            after.apply(action)
            worth.append((-self.score(after, seat), k))
        worth.sort()
        picks = [options[k] for _, k in worth[: max(top, 0)]]
        return [
            Choice(a, playout_win_chance(state, seat, a, rng, PLAYOUTS), PLAYOUTS) for a in picks
        ]

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        options = state.legal_actions()
        if len(options) == 1:
            return options[0]
        best: list[Any] = []
        top = float("-inf")
        for action in options:
            after = state.copy()
            after.apply(action)
            v = self.score(after, seat)
            if v > top + 1e-9:
                top, best = v, [action]
            elif v > top - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else rng.choice(best)


DEPTH = 4
"""Random decisions a judged playout plays before the heuristic judges it."""

TEMPERATURE = 20.0
"""The heuristic's score (in gold) that makes a win 73 % likely in a judged playout."""


def judged(
    sim: SimState,
    rng: random.Random,
    depth: int = DEPTH,
    temperature: float = TEMPERATURE,
    judge: HeuristicBot | None = None,
) -> list[float]:
    """Each seat's estimated win chance from ``sim`` (which it plays on): ``depth`` random
    decisions (chance drawn with ``rng``), then the heuristic's score of each seat (its value
    less the best opponent's, in gold) through a logistic, ``1 / (1 + exp(-score /
    temperature))``; a game that ends on the way scores its result (:func:`outcome`).

    Why not random playouts to the end: in The Builders random players seldom finish a
    building, so such playouts say next to nothing (see ``docs/bots.md``)."""
    k = 0
    while True:
        who = sim.current_player()
        if who == TERMINAL:
            return outcome(sim)
        if who == CHANCE:
            sim.apply(sample(sim.chance_outcomes(), rng))
            continue
        if k >= depth:
            break
        legal = sim.legal_actions()
        sim.apply(legal[rng.randrange(len(legal))])
        k += 1
    out = []
    for score in (judge or _JUDGE).scores(sim):
        x = score / temperature
        out.append(1.0 / (1.0 + exp(-x)) if x > -60 else 0.0)
    return out


_JUDGE = HeuristicBot()
