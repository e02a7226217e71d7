"""The Builders' signals for the companion's search: what its leaves are judged by.

The Builders measures each seat by :attr:`BuildersSim.SIGNALS
<companion.builders.sim.BuildersSim>` (VP, coins, the open sites and how far they are
supplied, the workforce, the AP left, each also weighed by how far the end is...).
:data:`MODEL` predicts each seat's final score from them: the search's default judge, fitted
by ``bench/fit_evaluation.py`` on self-play games and tuned in the arena (``docs/notes/bots-lab.md``
has the data, the held-out test and the command).  Refit it whenever the signals change: a
model is used only on the signals it was fitted on.  The named evaluations change it: ``lean``
and ``open`` are the strong strength's (``spec.STRENGTHS``).
"""

from __future__ import annotations

from companion.engine.signals import Model, Signals, changed

NAMES: tuple[str, ...] = (
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
)
"""The signals, in the order ``BuildersSim.signals`` measures them (``BuildersSim.SIGNALS`` is
this tuple and says what each is).  Declared here, apart from the simulation path, so that the
bots read every game's models without importing the sims."""


# The score's own terms fixed (a VP 1, a coin 0.1); the rest tuned in the arena on self-play
# (a linear fit of the final score on the same signals valued coins at 0.4 a coin and a
# site's progress at a tenth of its worth: a search that followed it took coins for ever and
# won 0 of 24 games; see docs/notes/bots-lab.md).
MODEL = Model(
    "builders",
    NAMES,
    (1.0, 0.1, 0.8, 0.1, -0.3, 0.0, 0.0, 0.3, 0.0, 0.0, 0.15, 1.5, 0.05, 0.0, 0.0, 0.0, 0.0),
    2.0,
)
"""Each seat's final score predicted from :attr:`BuildersSim.SIGNALS`, in their order: ``vp``
1, ``coins`` 0.1, ``sites`` 0.8, ``reach`` 0.1, ``open`` -0.3, ``ap`` 0.3, ``left*workforce``
0.15, ``left*machines`` 1.5, ``left*coins`` 0.05, the rest 0; a margin of 2 points makes a win
73 % likely."""


def _changed(changes: dict[str, float]) -> tuple[Model, ...]:
    return changed(changes, (MODEL,))


SIGNALS = Signals(
    names=NAMES,
    models=(MODEL,),
    evaluations={
        # a worker's resources worth less while the end is far (``left*workforce`` 0.04, not
        # 0.15): the default model, followed by a search, recruits more workers than its coins
        # can pay at two players; this one, tuned in the arena against the default, does not
        "lean": _changed({"left*workforce": 0.04}),
        # an open site not held against the seat (``open`` 0, not -0.3): at three and four
        # players it measured stronger (at two, no better; docs/notes/bots-lab.md)
        "open": _changed({"open": 0.0}),
        # the AP still to spend in the round (``tempo``, the same at any phase of it) in place
        # of the turn player's AP alone (``ap``), an AP worth 0.1 (not 0.3: an AP valued above
        # what an action gains at once makes a deep tree prefer handing the turn over), a coin
        # worth less while the end is far, an open site -0.15, a worker's resources as
        # ``lean``: with it a deep tree spends its turn where ``lean``'s hands it over
        # (docs/notes/bots-lab.md); no strength's: 2 000 iterations with it hold even with 500 in
        # two-player games (with ``lean`` they lose), but are not stronger
        "tempo": _changed(
            {"tempo": 0.1, "ap": 0.0, "open": -0.15, "left*coins": -0.05, "left*workforce": 0.04}
        ),
        # the open sites the seat can finish with its idle workers and coins (``plan``, each
        # worker and coin used once) worth a fifth of what they bring, its five most supplying
        # workers in place of all of them (``left*crew`` for ``left*workforce``) and no
        # ``reach``: a worker, a coin and a site count together, not each alone, so that a
        # tree that follows its judge harder (``search@Nnt+plan``) builds rather than piling
        # up workers or sites; the first judge with which more thought measured stronger
        # (docs/notes/bots-lab.md); no strength's
        "plan": _changed({"reach": 0.0, "plan": 0.2, "left*workforce": 0.0, "left*crew": 0.15}),
    },
)
"""What :data:`~companion.builders.spec.SPEC` declares (``GameSpec.signals``)."""
