"""The bots: a seat's decision from a state of the simulation path.

A bot sees what any player sees through the public interface of a simulation state
(:class:`companion.engine.sim.SimState`): the legal actions and the seats' holdings
(``features``).  It never draws chance itself; the table (or the arena) does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from companion.engine.sim import Features, SimState

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


class Bot(Protocol):
    """Chooses one of ``state.legal_actions()`` for ``seat``; ``rng`` breaks ties and is the
    bot's own (seeded by whoever runs it: same seed, same decision)."""

    name: str

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        """One legal action of ``state`` for ``seat`` (the current player)."""


class RandomBot:
    """Any legal action, uniformly."""

    name = "random"

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        return rng.choice(state.legal_actions())


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


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
"""The bots by name, as ``companion arena --bots`` takes them."""


def make_bot(name: str) -> Bot:
    """The bot called ``name``; ValueError naming the bots there are."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}")
    return factory()
