"""The bots' evaluation: each seat's final score predicted from what it holds now, and its
chance of winning from the margin, by the models each game declares.

A game measures each seat (its simulation path's ``signals()``, named by ``SIGNALS``) and
declares the models that weigh those signals (``GameSpec.signals``: a
:class:`~companion.engine.signals.Signals` of its own package, e.g. The Builders' fitted on
self-play games by ``bench/fit_evaluation.py``); a game that declares none is measured by its
summary (score, money, rank) and weighed by ``signals.SUMMARY_MODEL``.  A :class:`Model` is a
linear prediction of the seat's final score from those signals; the chance of winning is a
logistic of the margin over the best opponent, ``1 / (1 + exp(-margin / scale))``.

A state whose ``SIGNALS`` no model weighs (a game that declared signals without a fitted
model, or signals changed since the fit) gets the heuristic's judgement instead
(:func:`~.bots.judged`'s logistic of the heuristic's score): a model is only ever used on the
signals it was fitted on.  Nothing here names a game: the models come from the registry
(:func:`catalogue`), keyed by their signals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import exp
from typing import Any

from companion.engine import registry
from companion.engine.signals import SUMMARY, Model, Signals, changed
from companion.engine.sim import SimState


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


@dataclass(frozen=True)
class Catalogue:
    """Every registered game's models: ``fitted`` (each game's default judges, one per set
    of signals), ``bases`` (those and the heuristic's judgement as a model where a game has no
    fitted one: what a named evaluation or a tuning changes) and ``named`` (the named
    evaluations, each the models of every game that declares the name)."""

    fitted: tuple[Model, ...]
    bases: tuple[Model, ...]
    named: Mapping[str, tuple[Model, ...]]


def _declared(spec: registry.GameSpec) -> Signals:
    return SUMMARY if spec.signals is None else spec.signals()


def _build() -> Catalogue:
    fitted: dict[tuple[str, ...], tuple[str, Model]] = {}
    bases: list[Model] = []
    named: dict[str, list[Model]] = {}
    for spec in registry.specs():
        declared = _declared(spec)
        for model in declared.models:
            seen = fitted.get(model.signals)
            if seen is not None and seen[1] != model:
                raise ValueError(
                    f"{seen[0]} and {spec.name} declare different models for the same signals "
                    f"({', '.join(model.signals)}): give a game's signals names of its own"
                )
            fitted.setdefault(model.signals, (spec.name, model))
        for name, models in declared.evaluations.items():
            kept = named.setdefault(name, [])
            kept += [m for m in models if m not in kept]
        bases += [m for m in declared.bases if m not in bases]
    models = tuple(m for _game, m in fitted.values())
    return Catalogue(
        models,
        (*models, *(m for m in bases if m not in models)),
        {name: tuple(ms) for name, ms in named.items()},
    )


_built: tuple[int, Catalogue] | None = None


def catalogue() -> Catalogue:
    """The registered games' models (built again whenever a game is registered or
    forgotten)."""
    global _built
    now = registry.generation()
    if _built is None or _built[0] != now:
        _built = (now, _build())
    return _built[1]


def fitted() -> tuple[Model, ...]:
    """Every game's fitted models: the default judges, one per set of signals."""
    return catalogue().fitted


def bases() -> tuple[Model, ...]:
    """What a named evaluation changes: the fitted models, and the heuristic's as a model for
    the games that declare one instead (The Pillars)."""
    return catalogue().bases


EVALUATIONS: dict[str, tuple[Model, ...]] = {}
"""Named evaluations added at run time (``bench/bench_bots.py --try-evaluation``, the tests),
each a set of models by signals; they come before the games' own of the same name."""


def evaluations() -> dict[str, tuple[Model, ...]]:
    """Every named evaluation (a bot's ``+NAME``, e.g. ``search@500+lean``): those the games
    declare (each game's own: the strong strength's in The Builders and The Pillars, and the
    ones tuned on the way to them; ``docs/notes/bots-lab.md``) and :data:`EVALUATIONS`.  A
    game none of a name's models fits is judged as without the name (:func:`model_for`)."""
    out = {name: tuple(models) for name, models in EVALUATIONS.items()}
    for name, models in catalogue().named.items():
        out[name] = (*out.get(name, ()), *(m for m in models if m not in out.get(name, ())))
    return out


def model_for(sim: SimState, models: tuple[Model, ...] | None = None) -> Model | None:
    """The model of ``models`` (one of :func:`evaluations`; None: the fitted ones) made for
    ``sim``'s signals; else the fitted one (:func:`fitted`), or None."""
    names = getattr(sim, "SIGNALS", None)
    if names is None:
        return None
    for m in (*(models or ()), *catalogue().fitted):
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


__all__ = [
    "EVALUATIONS",
    "Catalogue",
    "Evaluation",
    "Model",
    "bases",
    "catalogue",
    "changed",
    "evaluations",
    "fitted",
    "logistic",
    "margins",
    "model_for",
    "signals_of",
]
