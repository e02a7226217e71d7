"""The search bot: information-set Monte Carlo tree search over the simulation path.

Why this method.  Both games have chance at every round (cards revealed, builders drawn, a die)
and very little hidden information (The Pillars: the event Ellen's owner looked at; The
Builders: nothing a seat could see and another not).  A tree that branched on every chance
outcome would spread a second of search over thousands of card draws; a determinized search
that fixed one future per tree would trust a future it cannot know.  Single-observer ISMCTS
(Cowling, Powley and Whitehouse, 2012) does neither: every iteration draws one determinization
(:meth:`SimState.determinize`, the seat's hidden information drawn anew) and its chance anew,
and walks one tree whose nodes are the sequences of decisions, so that the statistics of a
decision are shared by every future in which it is legal (each child counts the iterations in
which it was *available*, and UCB weighs it by those).  Forced decisions (one legal action) are
played through without a node.  Each seat at a node picks by its own mean reward (a vector, so
three and four players work as two do).

The leaf's value is :func:`~.bots.judged`: ``depth`` random decisions (0 by default: the leaf
as it is), then each seat's chance of winning by the game's fitted evaluation
(:mod:`.evaluation`; the heuristic's score through a logistic for a game without one); a
finished game scores its result (a win 1, a shared win its share).  ``depth=None`` plays to the
end at random instead (weaker in The Builders, where random players seldom finish a building).
Inside the tree, as at the root, the bot chooses among :func:`~.bots.options` (only progress
once a game has gone on too long: the guard against endless games).  ``model`` replaces the
fitted evaluation (for tuning), ``fitted=False`` judges by the heuristic.
With ``normalize`` (``search@Nn``) UCB weighs each node's means relative to its children's
range.  With ``settle`` (``search@Nt``) every leaf is first played on by the game's cheap
``settle`` (The Builders: each turn's AP left taken as coins) to the start of the searching
seat's next turn, so that all leaves are judged at the same point of the round; with
``conclude`` (``search@Na``) the same by the game's ``conclude`` (The Builders: the seat's own
AP left as coins, the others' turns by the rule of ``advance``); with
``horizon`` (``search@Nh``) the tree also stops there; with ``others`` (``search@Nto``) the
other seats' turns are played on by the game's cheap ``advance`` (The Builders: each builds by a
fixed rule; The Pillars: each crafts all it can, skips the market and decides the rest at
random) instead of searched (``docs/notes/bots-lab.md``).
One legal action is played without a search; the root stops
early when the most visited action can no longer be overtaken in the iterations left.  The tree
is not kept from one decision to the next: a decision would then depend on the searches before
it, and an undo at the table could change it.

Root parallelism (``trees``): ``search@NxK`` grows K independent trees of N iterations each,
over K independent streams of determinizations and chance, and sums their roots' statistics
(visits and rewards per action); the most visited action overall is the decision.  Each
tree's generator is seeded from the bot's ``rng`` before any tree starts, so a tree is a pure
function of the position, the seat, the seed and its index: the trees run on the machine's
cores (:mod:`.parallel`: forked processes where that is safe, up to ``workers``) or one after
another, with the same decision.  A Raspberry Pi 4 has four cores and one strong search used
one of them; four trees of a thousand think as much as one of four thousand in a quarter of
the wall time (``docs/bots.md``).

Budgets: ``think`` seconds a decision (wall clock: results then depend on the machine and its
load) or ``iterations`` (deterministic: the same state, seat and seed give the same decision on
any machine; what the kiosk uses).  The bot never draws or reveals anything for the table: all
its chance is inside its own copies, from its own ``rng``.
"""

from __future__ import annotations

import random
import time
from math import log, sqrt
from operator import is_
from typing import Any

from companion.engine.core import CHANCE, TERMINAL
from companion.engine.sim import SimState
from companion.engine.simulate import sample

from . import parallel
from .bots import DEPTH, TEMPERATURE, Choice, HeuristicBot, decision, judged, options, outcome
from .evaluation import Model, evaluations, model_for

EXPLORATION = 0.7
"""UCB1's exploration constant (rewards are win shares in [0, 1])."""

DEFAULT_THINK = 1.0
"""``search`` alone thinks this many seconds a decision."""

MAX_ITERATIONS = 10_000_000
MAX_THINK = 600.0
MAX_TREES = 64
MAX_EXPLORATION = 10.0

WORKERS: int | None = None
"""Processes a search with several trees may use (None: one per core, up to the trees).  A
benchmark that already runs one game per core sets 1 (the decisions are the same)."""


class _Node:
    """The statistics of one sequence of decisions: visits, reward per seat, and how often
    the decision leading here was available (ISMCTS)."""

    __slots__ = ("children", "visits", "reward", "avail", "keys", "kids")

    def __init__(self, seats: int) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.reward = [0.0] * seats
        self.avail = 1
        self.keys: list[Any] | None = None
        """The legal actions the node last saw, and ``kids`` each one's child (None: not
        tried): the next visit that sees the same action objects (the games' actions are
        mostly shared constants) skips a dictionary look-up an action (a hash in Python)."""
        self.kids: list[_Node | None] = []


class SearchBot:
    """Information-set MCTS (see the module); ``think`` seconds or ``iterations`` a decision
    (an iteration budget, when given, wins: deterministic)."""

    def __init__(
        self,
        think: float | None = DEFAULT_THINK,
        iterations: int | None = None,
        exploration: float = EXPLORATION,
        name: str | None = None,
        depth: int | None = DEPTH,
        temperature: float = TEMPERATURE,
        fitted: bool = True,
        model: Model | None = None,
        trees: int = 1,
        workers: int | None = None,
        split: bool = False,
        evaluation: str | None = None,
        settle: bool = False,
        horizon: bool = False,
        normalize: bool = False,
        others: bool = False,
        conclude: bool = False,
    ) -> None:
        if iterations is None and think is None:
            raise ValueError("a search needs a think time or an iteration budget")
        if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"iterations must be 1 to {MAX_ITERATIONS}, not {iterations}")
        if think is not None and not 0 < think <= MAX_THINK:
            raise ValueError(f"think time must be above 0 and at most {MAX_THINK:g} s, not {think}")
        if not 1 <= trees <= MAX_TREES:
            raise ValueError(f"trees must be 1 to {MAX_TREES}, not {trees}")
        if trees > 1 and iterations is None:
            raise ValueError("several trees need an iteration budget (a tree each)")
        if not 0 < exploration <= MAX_EXPLORATION:
            raise ValueError(
                f"exploration must be above 0 and at most {MAX_EXPLORATION:g}, not {exploration}"
            )
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        known = evaluations() if evaluation is not None else {}
        if evaluation is not None and evaluation not in known:
            raise ValueError(
                f"unknown evaluation {evaluation!r}; the evaluations are {', '.join(known)}"
            )
        self.think = think
        self.iterations = iterations
        self.trees = trees
        self.workers = workers
        self.split = split and trees > 1
        self.exploration = exploration
        self.depth = depth
        self.temperature = temperature
        self.fitted = fitted
        self.model = model
        self.evaluation = evaluation
        self.horizon = horizon
        """The tree stops at the start of the searching seat's next turn (``search@Nh``, which
        settles its leaves too): more iterations search the round better, never deeper."""
        self.settle = settle or horizon or conclude
        """Phase-consistent leaves (``search@Nt``): a leaf is played on by the game's cheap
        ``settle`` (The Builders: each turn's AP left taken as coins) to the start of the
        searching seat's next turn before it is judged, so that every leaf is judged at the
        same point of the round; a game without ``settle`` judges its leaves as they are."""
        self.conclude = conclude and not horizon
        """Leaves played on as with ``settle``, but by the game's ``conclude`` (The Builders:
        the seat's own AP left taken as coins, every other seat's turn by the rule of
        ``advance``; ``search@Na``, with ``o`` ``search@Nao``): the leaf's others play as the
        walks' others of an ``o`` tree do, not as coins; a game without ``conclude`` judges its
        leaves as they are."""
        self.normalize = normalize
        """UCB over each node's means taken relative to its children's range (``search@Nn``):
        ``(mean - lowest) / (highest - lowest)``, so that the exploration is weighed against
        how far apart the choices are (win chances a few hundredths apart under the plain
        UCB's 0.7), and the tree follows its best lines deeper as the iterations grow."""
        self.others = others
        """The other seats' turns played by the game's cheap ``advance`` (The Builders: each
        builds by a fixed rule, ``search@Nto``; The Pillars: each crafts all it can, skips the
        market and decides the rest at random, ``search@No``), not searched: the tree holds the
        searching seat's own decisions, turn after turn, and more iterations plan its own
        turns further; a game without ``advance`` searches them as usual."""
        self.models = known[evaluation] if evaluation is not None else None
        """The named evaluation's models (None: the fitted ones, :func:`.evaluation.fitted`)."""
        self._judge = HeuristicBot()
        if name is None:
            if iterations is None:
                name = f"search:{think:g}"
            else:
                way = "s" if split else "x"
                name = f"search@{iterations}" + (f"{way}{trees}" if trees > 1 else "")
                if exploration != EXPLORATION:
                    name += f"c{exploration:g}"
                if normalize:
                    name += "n"
                if horizon:
                    name += "h"
                elif conclude:
                    name += "a"
                elif settle:
                    name += "t"
                if others:
                    name += "o"
            if evaluation is not None:
                name += f"+{evaluation}"
        self.name = name
        self.last_iterations = 0
        """How many iterations the last decision ran, all trees together (for benchmarks)."""

    # -- the Bot interface ------------------------------------------------------------------
    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        choices = options(state)
        if len(choices) == 1:
            self.last_iterations = 0
            return choices[0]
        return self.rank(state, seat, rng, top=1)[0].action

    def rank(self, state: SimState, seat: int, rng: random.Random, top: int = 3) -> list[Choice]:
        """The seat's ``top`` choices, best (most visited) first, with their estimated win
        chances.  ``state`` is not changed."""
        choices = decision(state, seat)
        if self.split:
            return self._split(state, seat, rng, choices)[: max(top, 0)]
        if self.trees == 1:
            root = self._search(state, seat, rng, choices)
            stats = {a: (n.visits, n.reward[seat]) for a, n in root.children.items()}
        else:
            stats = self._forest(state, seat, rng, choices)
        ranked = sorted(
            ((a, stats[a]) for a in choices if a in stats),
            key=lambda item: (-item[1][0], -item[1][1]),
        )
        return [
            Choice(a, reward / visits if visits else 0.0, visits)
            for a, (visits, reward) in ranked[: max(top, 0)]
        ]

    def _split(
        self, state: SimState, seat: int, rng: random.Random, choices: list[Any]
    ) -> list[Choice]:
        """Root splitting: the root's choices dealt among :attr:`trees` trees (choice ``j`` to
        tree ``j mod trees``), each tree :attr:`iterations` deep over its own share with its
        own generator (seeded from ``rng`` first), in up to :attr:`workers` processes.  Each
        choice's subtree grows as it would in one tree of ``trees`` times the iterations (a
        share of the choices, a share of the iterations); the trees' visit counts are not
        comparable, so the choices are ranked by mean reward, each tree's well-searched
        choices (at least half its leader's visits) before the rest."""
        trees = min(self.trees, len(choices))
        seeds = [rng.getrandbits(64) for _ in range(trees)]

        def tree(i: int) -> tuple[int, list[tuple[Any, int, float]]]:
            mine = choices[i::trees]
            root = self._search(state, seat, random.Random(seeds[i]), mine, split=True)
            return self.last_iterations, [
                (a, n.visits, n.reward[seat]) for a, n in root.children.items()
            ]

        workers = self.workers or WORKERS or parallel.cores()
        ranked: list[tuple[bool, float, int, Choice]] = []
        done = 0
        for iterations, children in parallel.run(tree, trees, workers):
            done += iterations
            lead = max((v for a, v, _ in children if a in choices), default=0)
            for a, visits, reward in children:
                if a not in choices:  # legal in some determinization only
                    continue
                mean = reward / visits if visits else 0.0
                ranked.append(
                    (2 * visits < lead, -mean, choices.index(a), Choice(a, mean, visits))
                )
        self.last_iterations = done
        ranked.sort(key=lambda item: item[:3])
        return [item[3] for item in ranked]

    def _forest(
        self, state: SimState, seat: int, rng: random.Random, choices: list[Any]
    ) -> dict[Any, tuple[int, float]]:
        """Root parallelism: :attr:`trees` independent trees, each seeded from ``rng`` first,
        run in up to :attr:`workers` processes; each root action's visits and the seat's reward
        summed over the trees in tree order (the same floats however they ran)."""
        seeds = [rng.getrandbits(64) for _ in range(self.trees)]

        def tree(i: int) -> tuple[int, list[tuple[Any, int, float]]]:
            root = self._search(state, seat, random.Random(seeds[i]), choices)
            return self.last_iterations, [
                (a, n.visits, n.reward[seat]) for a, n in root.children.items()
            ]

        workers = self.workers or WORKERS or parallel.cores()
        stats: dict[Any, tuple[int, float]] = {}
        done = 0
        for iterations, children in parallel.run(tree, self.trees, workers):
            done += iterations
            for a, visits, reward in children:
                v, r = stats.get(a, (0, 0.0))
                stats[a] = (v + visits, r + reward)
        self.last_iterations = done
        return stats

    # -- the search -------------------------------------------------------------------------
    def _search(
        self,
        state: SimState,
        seat: int,
        rng: random.Random,
        choices: list[Any],
        split: bool = False,
    ) -> _Node:
        """One tree; with ``split``, its root considers only ``choices`` (a share of the
        seat's) and never stops early (its choices' means are what counts)."""
        seats = state.seat_count()
        only = set(choices) if split else None
        root = _Node(seats)
        budget = self.iterations
        deadline = None
        start = time.perf_counter()
        if budget is None:
            assert self.think is not None
            deadline = start + self.think
        c = self.exploration
        done = 0
        while True:
            if budget is not None:
                if done >= budget:
                    break
                left = budget - done
            else:
                assert deadline is not None
                now = time.perf_counter()
                if now >= deadline:
                    break
                rate = done / (now - start) if now > start else 0.0
                left = int(rate * (deadline - now)) + 1
            if only is None and done >= len(choices) and _decided(root, left):
                break
            if not done % 64 and parallel.abandoned():  # the kiosk cancelled the decision
                parallel.leave()
            self._iterate(state, seat, rng, root, c, only)
            done += 1
        self.last_iterations = done
        return root

    def _iterate(
        self,
        state: SimState,
        seat: int,
        rng: random.Random,
        root: _Node,
        c: float,
        only: set[Any] | None = None,
    ) -> None:
        sim = state.determinize(seat, rng)
        node = root
        path = [root]
        seats = len(root.reward)
        mover = -1  # the seat of the walk's last decision (-1: none yet)
        while True:
            who = sim.current_player()
            if who == TERMINAL:
                break
            if who == CHANCE:
                sim.apply(sample(sim.chance_outcomes(), rng))
                continue
            if self.horizon and who == seat and mover not in (-1, seat):
                break  # the seat's next turn: judged here, not searched
            if who != seat and self.others:
                advance: Any = getattr(sim, "advance", None)
                if advance is not None:  # the others' turns played on, not searched
                    advance(seat, rng)
                    mover = who
                    continue
            legal = options(sim)
            at_root = only is not None and node is root
            if only is not None and node is root:  # root splitting: this tree's share
                legal = [a for a in legal if a in only]  # (a node even for one choice)
                if not legal:  # none of it in this determinization: judge the root
                    break
            mover = who
            if len(legal) == 1 and not at_root:
                sim.apply(legal[0])
                continue
            children = node.children
            keys = node.keys
            if keys is not None and len(keys) == len(legal) and all(map(is_, keys, legal)):
                kids = node.kids
            else:  # other actions (or equal ones, not the same objects): look them up
                kids = node.kids = [children.get(a) for a in legal]
                node.keys = legal
            untried: list[int] = []
            best = 0
            top = -1.0
            plain = not self.normalize  # (a normalised tree ranks its children below)
            for i, child in enumerate(kids):
                if child is None:
                    untried.append(i)
                    continue
                child.avail += 1
                if plain and not untried:  # UCB1 over the available children (ISMCTS)
                    visits = child.visits
                    u = child.reward[who] / visits + c * sqrt(log(child.avail) / visits)
                    if u > top:
                        top, best = u, i
            if untried:
                i = untried[rng.randrange(len(untried))]
                action = legal[i]
                child = children[action] = kids[i] = _Node(seats)
                sim.apply(action)
                path.append(child)
                break
            if not plain:
                best = _normalized(kids, who, c)
            node = kids[best]  # type: ignore[assignment]  # a tried child: not None
            sim.apply(legal[best])
            path.append(node)
        if self.settle and not (mover >= 0 and mover != seat == sim.current_player()):
            way = "conclude" if self.conclude else "settle"
            settle: Any = getattr(sim, way, None)  # not at a turn of the seat just begun
            if settle is not None:
                settle(seat, rng)
        reward = self._leaf(sim, rng)
        for n in path:
            n.visits += 1
            r = n.reward
            for i in range(seats):
                r[i] += reward[i]

    def _leaf(self, sim: SimState, rng: random.Random) -> list[float]:
        """The leaf's reward per seat: the outcome of a random playout to the end, or with
        ``depth`` set, of ``depth`` random decisions and then the heuristic's judgement."""
        depth = self.depth
        if depth is None:
            if sim.current_player() != TERMINAL:
                sim.random_playout(rng)
            return outcome(sim)
        model = self.model
        if model is None and self.models is not None and self.fitted:
            model = model_for(sim, self.models)
        return judged(sim, rng, depth, self.temperature, self._judge, self.fitted, model)


def _normalized(kids: list[_Node | None], who: int, c: float) -> int:
    """UCB1 over ``kids`` (every one tried, their ``avail`` counted) for the seat ``who``, each
    mean taken relative to the children's range: the index of the best (the first of equals)."""
    nodes = [k for k in kids if k is not None]  # all of them: every one tried
    means = [k.reward[who] / k.visits for k in nodes]
    low = min(means)
    span = max(means) - low or 1.0
    best = 0
    top = -1.0
    for i, k in enumerate(nodes):
        u = (means[i] - low) / span + c * sqrt(log(k.avail) / k.visits)
        if u > top:
            top, best = u, i
    return best


def _decided(root: _Node, left: int) -> bool:
    """Whether the most visited child can no longer be overtaken in ``left`` iterations."""
    first = second = 0
    for n in root.children.values():
        v = n.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left
