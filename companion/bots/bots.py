"""The bots: a seat's decision from a state of the simulation path.

A bot sees what any player sees through the public interface of a simulation state
(:class:`companion.engine.sim.SimState`): the legal actions and the seats' holdings
(``features``).  It never draws chance itself; the table (or the arena) does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from math import exp
from typing import Any, Protocol

from companion.engine.core import CHANCE, TERMINAL
from companion.engine.sim import Features, SimState
from companion.engine.simulate import sample

from .evaluation import Evaluation, Model, model_for

WEIGHTS = Features(score=10.0, money=1.0, goods=1.0, hands=5.0, coming=10.0, initiative=1.0)
"""The heuristic's value of one unit of each measure, in money: a point is worth 10 (ten coins
make a point in The Builders), goods what they fetch (the features count them in money
already), a piece working for the seat 5, a point to come as much as a point held (the
features count the work under way in points already), the actions left in one's own turn what
the features say they are worth."""


def value(f: Features, weights: Features = WEIGHTS) -> float:
    """A seat's holdings as one number (see :data:`WEIGHTS`)."""
    return (
        weights.score * f.score
        + weights.money * f.money
        + weights.goods * f.goods
        + weights.hands * f.hands
        + weights.coming * f.coming
        + weights.initiative * f.initiative
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


STALL_ROUNDS = 60
"""Rounds after which the bots play only actions that use something up (a game's
``is_progress``) whenever they have one.  The rules let a game go on for ever while anyone
*could* still progress, and greed alone does (everyone takes coins, turn after turn, in The
Builders); a game of progress alone must end (there are only so many buildings and workers).
Bot games end in far fewer rounds (The Builders: 8 to 30), so the guard changes nothing in a
game that is going somewhere."""


def options(state: SimState) -> list[Any]:
    """The actions a bot chooses from: the legal ones, only the progress among them once the
    game has gone on :data:`STALL_ROUNDS` rounds (a game that says what progress is:
    ``rounds_played`` and ``is_progress``), and when there is none, no detour (``is_detour``:
    an action that only turns coins into AP and back) and no pass (``is_pass``: ending the
    turn) while anything else is left."""
    legal = state.legal_actions()
    rounds: Any = getattr(state, "rounds_played", None)
    if rounds is None or rounds() < STALL_ROUNDS:
        return legal
    is_progress: Any = state.is_progress  # type: ignore[attr-defined]  # rounds_played says it has one
    progress = [a for a in legal if is_progress(a)]
    if progress:
        return progress
    # nothing to use up: no detour either (The Builders: buying AP with the coins a wage
    # needs, turn after turn, kept a greedy seat from ever sending its workers)
    is_detour: Any = getattr(state, "is_detour", None)
    kept = [a for a in legal if is_detour is None or not is_detour(a)]
    # nor a pass while the AP can still buy something (The Builders: two searches with no
    # coins for a wage ended their turns for ever rather than take the coins that would have
    # made them send their workers, which the guard would then have made them do)
    is_pass: Any = getattr(state, "is_pass", None)
    moving = [a for a in kept if is_pass is None or not is_pass(a)]
    return moving or kept or legal


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
    return options(state)


def visible(state: SimState, seat: int) -> SimState:
    """``state`` as ``seat`` may know it: what it cannot see put in one canonical form (a
    determinization with a fixed generator), so that a one-ply bot's choice does not depend on
    what it cannot see (Ellen's event in The Pillars)."""
    return state.determinize(seat, random.Random(0))


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



def one_ply_rank(state: SimState, seat: int, rng: random.Random, top: int,
                 value: Callable[[SimState, int], float]) -> list[Choice]:
    """The ``top`` actions of ``seat`` whose position after it (as the seat sees it) ``value``
    rates best, best first, each with the win chance of :data:`PLAYOUTS` judged playouts."""
    choices = decision(state, seat)
    seen = visible(state, seat)
    worth = []
    for k, action in enumerate(choices):
        after = seen.copy()
        after.apply(action)
        worth.append((-value(after, seat), k))
    worth.sort()
    picks = [choices[k] for _, k in worth[: max(top, 0)]]
    return [Choice(a, playout_win_chance(state, seat, a, rng, PLAYOUTS), PLAYOUTS) for a in picks]


def one_ply_choose(state: SimState, seat: int, rng: random.Random,
                   value: Callable[[SimState, int], float]) -> Any:
    """The action whose position after it ``value`` rates best (ties drawn by ``rng``)."""
    choices = options(state)
    if len(choices) == 1:
        return choices[0]
    seen = visible(state, seat)
    best: list[Any] = []
    top = float("-inf")
    for action in choices:
        after = seen.copy()
        after.apply(action)
        v = value(after, seat)
        if v > top + 1e-9:
            top, best = v, [action]
        elif v > top - 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


class RandomBot:
    """Any legal action, uniformly."""

    name = "random"

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        return rng.choice(options(state))

    def rank(self, state: SimState, seat: int, rng: random.Random, top: int = 3) -> list[Choice]:
        """``top`` actions drawn at random, each with the win chance of judged playouts."""
        options = decision(state, seat)
        picks = rng.sample(options, min(max(top, 0), len(options)))
        return [
            Choice(a, playout_win_chance(state, seat, a, rng, PLAYOUTS), PLAYOUTS) for a in picks
        ]


class HeuristicBot:
    """One ply of greed: the action after which the seat's value most exceeds the best
    opponent's (:func:`value` of ``features``; an opponent's initiative left out, or ending
    one's turn would look like a gift to the next player); ties broken at random."""

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
                others.append(value(f, w) - w.initiative * f.initiative)
        return mine - max(others, default=0.0)

    def scores(self, state: SimState) -> list[float]:
        """:meth:`score` of every seat (the same numbers), each seat's features read once."""
        w = self.weights
        feats = [state.features(i) for i in range(state.seat_count())]
        mine = [value(f, w) for f in feats]
        lean = [v - w.initiative * f.initiative for v, f in zip(mine, feats, strict=True)]
        out = []
        for i, v in enumerate(mine):
            others = [x for j, x in enumerate(lean) if j != i]
            out.append(v - max(others, default=0.0))
        return out

    def rank(self, state: SimState, seat: int, rng: random.Random, top: int = 3) -> list[Choice]:
        """The ``top`` actions worth most to the heuristic (best first), each with the win
        chance of :data:`PLAYOUTS` judged playouts after it (:func:`judged`)."""
        return one_ply_rank(state, seat, rng, top, self.score)

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        return one_ply_choose(state, seat, rng, self.score)


DEPTH = 0
"""Random decisions a judged playout plays before the evaluation judges it (0: the leaf is
judged as it is; see ``docs/notes/bots-lab.md`` for why)."""

TEMPERATURE = 20.0
"""The heuristic's score (in gold) that makes a win 73 % likely in a judged playout (for a
game without a fitted evaluation)."""


def judge(
    sim: SimState,
    heuristic: HeuristicBot | None = None,
    fitted: bool = True,
    model: Model | None = None,
) -> list[float]:
    """Each seat's chance of winning from ``sim`` as it is: the fitted evaluation's
    (:mod:`.evaluation`) where there is one for the state's signals, else the logistic of
    the heuristic's score over :data:`TEMPERATURE`; a finished game its result.  ``model``
    replaces the fitted one (for tuning); ``fitted=False`` judges by the heuristic."""
    if sim.current_player() == TERMINAL:
        return outcome(sim)
    if model is None and fitted:
        model = model_for(sim)
    if model is not None:
        return Evaluation(model).chances(sim)
    out = []
    for score in (heuristic or _JUDGE).scores(sim):
        x = score / TEMPERATURE
        out.append(1.0 / (1.0 + exp(-x)) if x > -60 else 0.0)
    return out


def judged(
    sim: SimState,
    rng: random.Random,
    depth: int = DEPTH,
    temperature: float = TEMPERATURE,
    judge_with: HeuristicBot | None = None,
    fitted: bool = True,
    model: Model | None = None,
) -> list[float]:
    """Each seat's estimated win chance from ``sim`` (which it plays on): ``depth`` random
    decisions (chance drawn with ``rng``), then :func:`judge` (the heuristic's judgement even
    where there is a fitted evaluation, if not ``fitted``); a game that ends on the way scores
    its result (:func:`outcome`).  ``temperature`` applies where the heuristic judges.

    Why not random playouts to the end: in The Builders random players seldom finish a
    building, so such playouts say next to nothing (see ``docs/notes/bots-lab.md``)."""
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
        legal = options(sim)
        sim.apply(legal[rng.randrange(len(legal))])
        k += 1
    if model is not None or (fitted and model_for(sim) is not None) or temperature == TEMPERATURE:
        return judge(sim, judge_with, fitted, model)
    out = []
    for score in (judge_with or _JUDGE).scores(sim):
        x = score / temperature
        out.append(1.0 / (1.0 + exp(-x)) if x > -60 else 0.0)
    return out


_JUDGE = HeuristicBot()


class GreedyBot:
    """One ply of greed by the fitted evaluation: the action after which the seat's predicted
    final score most exceeds the best opponent's (:mod:`.evaluation`; the heuristic's score
    for a game without a fitted evaluation); ties broken at random.  The arena's check that
    the search adds something to its own evaluation: the search must beat it."""

    name = "greedy"

    def __init__(self, model: Model | None = None) -> None:
        self.model = model

    def margin(self, state: SimState, seat: int) -> float:
        """The seat's predicted final score less the best opponent's (a finished game: its
        win share)."""
        if state.current_player() == TERMINAL:
            return 1000.0 * outcome(state)[seat]
        model = self.model or model_for(state)
        if model is None:
            return _JUDGE.score(state, seat)
        return Evaluation(model).margins(state)[seat]

    def rank(self, state: SimState, seat: int, rng: random.Random, top: int = 3) -> list[Choice]:
        """The ``top`` actions with the best margins (best first), each with the win chance
        of :data:`PLAYOUTS` judged playouts after it."""
        return one_ply_rank(state, seat, rng, top, self.margin)

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        return one_ply_choose(state, seat, rng, self.margin)
