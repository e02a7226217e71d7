"""What a game tells the companion's search about a position: each seat's signals, and the
models that weigh them into a judgement of the search's leaves.

A game declares its :class:`Signals` in its spec (``GameSpec.signals``, a zero-argument
loader, as it declares its screen and its words): the names of what it measures of each seat,
how it measures them where it has no simulation path of its own (``measure``, of the rules'
state; a game with one measures its :class:`~companion.engine.sim.SimState` itself:
``SIGNALS`` and ``signals()``), the :class:`Model`\\ s fitted on them (each seat's final score
predicted from its signals: the search's default judge) and its named evaluations (a bot's
``+NAME``, e.g. ``search@500+lean``).  A game that declares none is measured by its summary:
each seat's score, money (0 for a game without) and rank (:data:`SUMMARY_SIGNALS`), weighed by
:data:`SUMMARY_MODEL`.

Nothing here names a game: a model is keyed by the signals it was fitted on, and the bots
(``companion/bots/evaluation.py``) use a model only on a state that measures exactly those.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .summary import Summary

if TYPE_CHECKING:
    from .core import Game


@dataclass(frozen=True)
class Model:
    """A prediction of each seat's final score: ``weights`` per signal (named by ``signals``,
    the signals a game measures), and the margin ``scale`` (in points) that makes a win 73 %
    likely.  ``game`` names whose model it is (for messages and the benchmarks)."""

    game: str
    signals: tuple[str, ...]
    weights: tuple[float, ...]
    scale: float

    def __post_init__(self) -> None:
        if len(self.signals) != len(self.weights):
            raise ValueError(
                f"{self.game}: {len(self.weights)} weights for {len(self.signals)} signals"
            )

    @cached_property
    def unweighed(self) -> frozenset[str]:
        """The signals this model gives no weight (a simulation may skip measuring them)."""
        return frozenset(n for n, w in zip(self.signals, self.weights, strict=True) if not w)

    def predict(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """The predicted final score of each seat from its signals."""
        w = self.weights
        return [sum(x * y for x, y in zip(w, row, strict=True)) for row in rows]


def changed(
    changes: Mapping[str, float], bases: Sequence[Model], scale: float | None = None
) -> tuple[Model, ...]:
    """Each model of ``bases`` that weighs every signal of ``changes``, weighing them as
    ``changes`` says (and with the margin scale ``scale``, if given): how a game writes a
    named evaluation.  ValueError when no model weighs them all (a signal of no model, or of
    two games' models at once)."""
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


SUMMARY_SIGNALS: tuple[str, ...] = ("score", "money", "rank")
"""The signals of a game that declares none, from its summary (``Game.summary``): each seat's
score, its money (0 for a game without) and its rank (1 for the leader: the game's own order,
its tie-break included)."""

SUMMARY_MODEL = Model("summary", SUMMARY_SIGNALS, (1.0, 0.1, -0.5), 2.0)
"""The judgement of a game that declares no signals: its score, a coin a tenth of a point (the
heuristic's value: a point is worth ten coins) and half a point a place in the ranking; a
margin of two points makes a win 73 % likely (the heuristic's 20 coins)."""


def summary_signals(summary: Summary) -> list[list[float]]:
    """Each seat's :data:`SUMMARY_SIGNALS` in a game's ``summary``, in seat order."""
    return [[float(p.score), float(p.money or 0), float(p.rank)] for p in summary.players]


@dataclass(frozen=True)
class Signals:
    """What a game gives the companion's search to judge its positions by (see the module).

    ``names``: the signals measured of each seat, in order.  ``measure``: each seat's signals
    from the rules' state, in seat order, for a game without a simulation path of its own
    (None: its simulation path measures them, ``SimState.signals``; a game without one
    declares :data:`SUMMARY_SIGNALS`, which its summary gives).  ``models``: the models
    fitted on them, the search's default judge (none: the heuristic judges).  ``bases``:
    where no model was fitted, the heuristic's judgement written as a model, the start of
    named evaluations and of tuning (``bench/bench_bots.py --try-evaluation``).
    ``evaluations``: the named evaluations, each a set of models as ``models`` (made with
    :func:`changed`)."""

    names: tuple[str, ...] = SUMMARY_SIGNALS
    measure: Callable[[Any], Sequence[Sequence[float]]] | None = None
    models: tuple[Model, ...] = ()
    bases: tuple[Model, ...] = ()
    evaluations: Mapping[str, tuple[Model, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        named = [m for models in self.evaluations.values() for m in models]
        for model in (*self.models, *self.bases, *named):
            if model.signals != self.names:
                raise ValueError(
                    f"the model {model.game!r} weighs {', '.join(model.signals)}, not the "
                    f"signals declared ({', '.join(self.names)})"
                )


SUMMARY = Signals(models=(SUMMARY_MODEL,))
"""The signals of a game that declares none: its summary's, weighed by :data:`SUMMARY_MODEL`."""


def declared_signals(game: Game[Any, Any]) -> Signals:
    """What ``game``'s registry record declares (its spec's ``signals`` loader), or
    :data:`SUMMARY` for a game that declares none (or is not registered)."""
    from .errors import SetupError
    from .registry import spec

    try:
        load = spec(game.name).signals
    except SetupError:
        load = None
    return SUMMARY if load is None else load()


__all__ = [
    "SUMMARY",
    "SUMMARY_MODEL",
    "SUMMARY_SIGNALS",
    "Model",
    "Signals",
    "changed",
    "declared_signals",
    "summary_signals",
]
