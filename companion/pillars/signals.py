"""The Pillars' signals for the companion's search: what its leaves are judged by.

The Pillars measures each seat by :attr:`PillarsSim.SIGNALS <companion.pillars.sim.PillarsSim>`
(VP, gold, cubes, craftsmen, privileges, each of the last four also weighed by the share of the
game still to play, and the VP its craftsmen can still make this round).  It has no fitted
model: a model fitted on self-play lost to the heuristic's judgement in the arena
(``docs/notes/bots-lab.md``), so its search judges its leaves by the heuristic; the heuristic's
judgement written as a model (:data:`HEURISTIC`) is the start of its named evaluation
``convert``, the strong strength's.
"""

from __future__ import annotations

from companion.engine.signals import Model, Signals, changed

NAMES: tuple[str, ...] = (
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
"""The Pillars' signals in their order (``PillarsSim.SIGNALS``, this very tuple, describes
them; ``PillarsSim.signals`` measures them)."""


HEURISTIC = Model("pillars", NAMES, (10.0, 1.0, 1.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 20.0)
"""The heuristic's judgement written as a model, in gold (the bots' ``WEIGHTS``: a VP 10, a
gold and a cube's market price 1, a craftsman 5; no sites or tempo in The Pillars) through the
logistic at the bots' ``TEMPERATURE`` (20 gold): the same margins and the same chances as the
heuristic's judgement, number for number (the scores are whole numbers of gold).  A base, not
a fitted model: a bot without an evaluation's name judges The Pillars by the heuristic
itself."""

SIGNALS = Signals(
    names=NAMES,
    bases=(HEURISTIC,),
    evaluations={
        # the heuristic's judgement (in gold) with the VP the seat's craftsmen can still make
        # this round from its cubes (``convertible``) worth 6 gold a VP, and a cube's market
        # price half its worth (the heuristic counts a cube at its price whether or not a
        # craftsman can use it); tuned in the arena against normal at three and four players,
        # and as strong at two (docs/notes/bots-lab.md)
        "convert": changed({"convertible": 6.0, "cubes": 0.5}, (HEURISTIC,)),
    },
)
"""What :data:`~companion.pillars.spec.SPEC` declares (``GameSpec.signals``)."""
