"""The bots' evaluation: each seat's final score predicted from what it holds now, fitted on
self-play games (``bench/fit_evaluation.py``), and its chance of winning from the margin.

A game's simulation path measures each seat (``signals()``, named by ``SIGNALS``: VP, coins,
how far the open sites are supplied by the workers on them, the workforce, the AP left, each
also weighed by how far the end is…).  A :class:`Model` is a linear prediction of the seat's
final score (The Builders: VP and a point per 10 coins; The Pillars: VP) from those signals,
least squares over positions sampled from self-play games, checked on games held out of the
fit (the figures are in ``docs/bots.md``).  The chance of winning is a logistic of the margin
over the best opponent, ``1 / (1 + exp(-margin / scale))``, ``scale`` fitted by likelihood on
the same games.

A state whose ``SIGNALS`` no model was fitted on (a game without them, or signals changed
since the fit) gets the heuristic's judgement instead (:func:`~.bots.judged`'s logistic of
the heuristic's score): a model is only ever used on the signals it was fitted on.  The
Pillars has no fitted model; its named evaluations (``convert``) change the heuristic's
judgement written as a model (:data:`HEURISTIC_MODELS`, in gold: a VP is 10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from math import exp
from typing import Any

from companion.engine.sim import SimState


@dataclass(frozen=True)
class Model:
    """A fitted prediction of each seat's final score: ``weights`` per signal (named by
    ``signals``, the simulation path's ``SIGNALS``), and the margin ``scale`` (in points) that
    makes a win 73 % likely."""

    game: str
    signals: tuple[str, ...]
    weights: tuple[float, ...]
    scale: float

    @cached_property
    def unweighed(self) -> frozenset[str]:
        """The signals this model gives no weight (a simulation may skip measuring them)."""
        return frozenset(n for n, w in zip(self.signals, self.weights, strict=True) if not w)

    def predict(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """The predicted final score of each seat from its signals."""
        w = self.weights
        return [sum(x * y for x, y in zip(w, row, strict=True)) for row in rows]


def margins(scores: Sequence[float]) -> list[float]:
    """Each seat's score less the best other seat's (0 for a seat alone)."""
    if len(scores) < 2:
        return [0.0] * len(scores)
    first = max(scores)
    k = scores.index(first)
    second = max(s for i, s in enumerate(scores) if i != k)
    return [s - (second if i == k else first) for i, s in enumerate(scores)]


def logistic(x: float) -> float:
    """``1 / (1 + exp(-x))``, safe for any ``x``."""
    if x < -60:
        return 0.0
    if x > 60:
        return 1.0
    return 1.0 / (1.0 + exp(-x))


# Fitted by ``bench/fit_evaluation.py`` (see docs/bots.md for the data, the held-out test and
# the command).  Refit whenever a game's SIGNALS change: a model is keyed by its signals.
MODELS: tuple[Model, ...] = (
    # The Builders: the score's own terms fixed (a VP 1, a coin 0.1); the rest tuned in the
    # arena on self-play (a linear fit of the final score on the same signals valued coins
    # at 0.4 a coin and a site's progress at a tenth of its worth: a search that followed it
    # took coins for ever and won 0 of 24 games; see docs/bots.md).
    Model(
        "builders",
        (
            "vp",
            "coins",
            "sites",
            "reach",
            "open",
            "workforce",
            "machines",
            "ap",
            "left*sites",
            "left*reach",
            "left*workforce",
            "left*machines",
            "left*coins",
            "tempo",
            "crew",
            "left*crew",
            "plan",
        ),
        (1.0, 0.1, 0.8, 0.1, -0.3, 0.0, 0.0, 0.3, 0.0, 0.0, 0.15, 1.5, 0.05, 0.0, 0.0, 0.0, 0.0),
        2.0,
    ),
)


PILLARS_SIGNALS = (
    "vp",
    "gold",
    "cubes",
    "craftsmen",
    "privileges",
    "left*gold",
    "left*cubes",
    "left*craftsmen",
    "left*privileges",
    "convertible",
)
"""``PillarsSim.SIGNALS`` (this package imports no game; a test checks they are the same)."""

HEURISTIC_MODELS: tuple[Model, ...] = (
    # The Pillars: the heuristic's value in gold (``bots.WEIGHTS``: a VP 10, a gold and a
    # cube's market price 1, a craftsman 5; no sites or tempo in The Pillars) through the
    # logistic at ``bots.TEMPERATURE`` (20 gold): the same margins and the same chances as
    # the heuristic's judgement, number for number (the scores are whole numbers of gold)
    Model("pillars", PILLARS_SIGNALS, (10.0, 1.0, 1.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 20.0),
)
"""The heuristic's judgement written as a model, for the games it judges (no model of
:data:`MODELS` fits them): the start of a named evaluation of such a game (:data:`BASES`).
Not in :data:`MODELS`: a bot without a name judges these games by the heuristic itself."""

BASES: tuple[Model, ...] = (*MODELS, *HEURISTIC_MODELS)
"""What a named evaluation changes: the fitted models, and the heuristic's as a model for the
games that have none (The Pillars)."""


def changed(
    changes: dict[str, float], scale: float | None = None, bases: tuple[Model, ...] = BASES
) -> tuple[Model, ...]:
    """Each model of ``bases`` that weighs every signal of ``changes``, weighing them as
    ``changes`` says (and its margin scale ``scale``, if given); ValueError when no model
    weighs them all (a signal of no game, or of two games at once)."""
    out = []
    for model in bases:
        if all(name in model.signals for name in changes):
            weights = dict(zip(model.signals, model.weights, strict=True))
            weights.update(changes)
            out.append(
                replace(
                    model,
                    weights=tuple(weights[s] for s in model.signals),
                    scale=model.scale if scale is None else scale,
                )
            )
    if not out:
        raise ValueError(
            f"no model weighs all of {', '.join(changes)}; the signals are "
            + "; ".join(f"{m.game}: {', '.join(m.signals)}" for m in bases)
        )
    return tuple(out)


def _changed(changes: dict[str, float]) -> tuple[Model, ...]:
    """Each model of :data:`MODELS` that weighs every signal of ``changes`` (The Builders'),
    weighing them as ``changes`` says."""
    return changed(changes, bases=MODELS)


EVALUATIONS: dict[str, tuple[Model, ...]] = {
    # a worker's resources worth less while the end is far (``left*workforce`` 0.04, not
    # 0.15): the default model, followed by a search, recruits more workers than its coins
    # can pay at two players; this one, tuned in the arena against the default, does not
    "lean": _changed({"left*workforce": 0.04}),
    # an open site not held against the seat (``open`` 0, not -0.3): at three and four
    # players it measured stronger (at two, no better; docs/bots.md)
    "open": _changed({"open": 0.0}),
    # the AP still to spend in the round (``tempo``, the same at any phase of it) in place of
    # the turn player's AP alone (``ap``), an AP worth 0.1 (not 0.3: an AP valued above what
    # an action gains at once makes a deep tree prefer handing the turn over), a coin worth
    # less while the end is far, an open site -0.15, a worker's resources as ``lean``: with
    # it a deep tree spends its turn where ``lean``'s hands it over (docs/bots.md)
    "tempo": _changed(
        {"tempo": 0.1, "ap": 0.0, "open": -0.15, "left*coins": -0.05, "left*workforce": 0.04}
    ),
    # the open sites the seat can finish with its idle workers and coins (``plan``, each
    # worker and coin used once) worth a fifth of what they bring, its five most supplying
    # workers in place of all of them (``left*crew`` for ``left*workforce``) and no
    # ``reach``: a worker, a coin and a site count together, not each alone, so that a tree
    # that follows its judge harder (``search@Nnt+plan``) builds rather than piling up
    # workers or sites; the first Builders judge with which more thought measured stronger
    # (docs/bots.md)
    "plan": _changed({"reach": 0.0, "plan": 0.2, "left*workforce": 0.0, "left*crew": 0.15}),
    # The Pillars: the heuristic's judgement (in gold) with the VP the seat's craftsmen can
    # still make this round from its cubes (``convertible``) worth 6 gold a VP, and a cube's
    # market price half its worth (the heuristic counts a cube at its price whether or not a
    # craftsman can use it); tuned in the arena against normal at three and four players,
    # and as strong at two (docs/bots.md)
    "convert": changed({"convertible": 6.0, "cubes": 0.5}, bases=HEURISTIC_MODELS),
}
"""Other evaluations by name (a bot's ``+NAME``, e.g. ``search@500+lean``), each a set of
models by signals like :data:`MODELS`; a game none of them fits is judged as without the name
(:func:`model_for`).  The strong strength's in The Builders (``docs/bots.md``, each tuned in
the arena against normal at normal's 500 iterations): ``lean`` at two players, ``open`` at
three and four; in The Pillars at every size: ``convert`` (a change of the heuristic's
judgement written as a model, :data:`HEURISTIC_MODELS`).  ``tempo`` is no
strength's: with it 2 000 iterations hold even with 500 in two-player Builders (with
``lean`` they lose), but are not stronger.  Nor is ``plan``: the curve's judge, with which a
tree that follows it (``search@Nnt+plan``) measured above its 500 iterations at 2 000 in
two-player Builders, and even at 4 000; with the others' turns played by a rule
(``search@Nnto+plan``) the two-player curve rises over 50 to 4 000 iterations
(docs/bots.md)."""


def model_for(sim: SimState, models: tuple[Model, ...] | None = None) -> Model | None:
    """The model of ``models`` (one of :data:`EVALUATIONS`; None: :data:`MODELS`) made for
    ``sim``'s signals; else the one of :data:`MODELS`, or None."""
    names = getattr(sim, "SIGNALS", None)
    if names is None:
        return None
    for m in (*(models or ()), *MODELS):
        if m.signals == names:
            return m
    return None


def signals_of(sim: SimState, skip: frozenset[str] = frozenset()) -> list[list[float]] | None:
    """Each seat's signals, or None for a state that measures none; those in ``skip`` (no
    weight in the judge asking) may be left at 0."""
    measure: Any = getattr(sim, "signals", None)
    if measure is None:
        return None
    rows: list[list[float]] = measure(skip) if skip else measure()
    return rows


class Evaluation:
    """Predicted scores and win chances of every seat of a state, by the model fitted on its
    signals (:func:`model_for`)."""

    def __init__(self, model: Model) -> None:
        self.model = model

    def scores(self, sim: SimState) -> list[float]:
        """Each seat's predicted final score."""
        rows = signals_of(sim, self.model.unweighed)
        assert rows is not None
        return self.model.predict(rows)

    def margins(self, sim: SimState) -> list[float]:
        """Each seat's predicted score less the best other seat's."""
        return margins(self.scores(sim))

    def chances(self, sim: SimState) -> list[float]:
        """Each seat's chance of winning: the logistic of its margin over ``scale``."""
        scale = self.model.scale
        return [logistic(m / scale) for m in self.margins(sim)]
