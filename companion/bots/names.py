"""Bots by name (``companion arena --bots``), and the companion's strengths (the set-up
screen's easy, normal and strong).

Names: ``random``, ``heuristic``, ``greedy`` (one ply of the fitted evaluation), ``search``
(thinks :data:`~.search.DEFAULT_THINK` seconds a decision), ``search:T`` (``T`` seconds a
decision, e.g. ``search:0.5``) and ``search@N`` (``N`` iterations a decision, e.g.
``search@200``: the same decision on any machine, under any load), ``search@NxK`` (K
independent trees of N iterations each, their roots summed: root parallelism over the cores,
the same decision however many there are; e.g. ``search@1000x4``), ``search@NsK`` (the root's
choices dealt among K trees), any ``search@`` name with ``cE`` (UCB's exploration constant
``E`` instead of :data:`.search.EXPLORATION`, e.g. ``search@2000c0.2``), with ``n`` (UCB over
each node's means relative to its children's range, e.g. ``search@2000n``) and with
``t`` (phase-consistent leaves: each leaf played on by the game's cheap ``settle`` to the start
of the seat's next turn before it is judged), ``a`` (the same by the game's ``conclude``: the
others' turns by the rule of ``advance``, not as coins) or ``h`` (as ``t``, and the tree stops
there), with
``o`` (the other seats' turns played by the game's cheap ``advance``, not searched: the tree
holds the seat's own decisions, turn after turn) and with ``+EVALUATION`` (e.g.
``search@500+lean``: leaves judged by that evaluation of :data:`.evaluation.EVALUATIONS`), in
that order (``search@2000c0.2nto+plan``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .bots import Bot, GreedyBot, HeuristicBot, RandomBot
from .evaluation import EVALUATIONS
from .search import EXPLORATION, MAX_EXPLORATION, MAX_ITERATIONS, MAX_THINK, MAX_TREES, SearchBot

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "greedy": GreedyBot,
    "search": lambda: SearchBot(name="search"),
}
"""The bots by plain name; ``search`` also takes a budget (see the module)."""

_THINK = re.compile(r"search:(\d+(?:\.\d*)?|\.\d+)")
_ITERATIONS = re.compile(
    r"search@(\d+)(?:([xs])(\d+))?(?:c(\d+(?:\.\d*)?|\.\d+))?(n)?([tha])?(o)?(?:\+(\w+))?"
)
NAMES_HELP = (
    "random, heuristic, greedy, search, search:SECONDS (e.g. search:0.5), search@ITERATIONS, "
    "search@ITERATIONSxTREES (e.g. search@1000x4), search@ITERATIONSsTREES (e.g. "
    "search@1000s4), each with cEXPLORATION (e.g. search@2000c0.2), n (UCB over each node's "
    "means relative to their range, e.g. search@2000n), t (leaves judged at the start of "
    "the seat's next turn, e.g. search@2000t), a (the same, the others' turns played by "
    "the fixed rule, e.g. search@4000nao+plan) or h (as t, and the tree stops there), o (the "
    "other seats' turns played by a fixed rule, not searched, e.g. search@500nto) and "
    "+EVALUATION (e.g. search@500+lean)"
)


def make_bot(name: str) -> Bot:
    """The bot called ``name``; ValueError saying what is wrong with a name that is none."""
    factory = BOTS.get(name)
    if factory is not None:
        return factory()
    m = _THINK.fullmatch(name)
    if m is not None:
        think = float(m.group(1))
        if not 0 < think <= MAX_THINK:
            raise ValueError(
                f"bot {name!r}: the think time must be above 0 and at most {MAX_THINK:g} s"
            )
        return SearchBot(think=think, name=name)
    m = _ITERATIONS.fullmatch(name)
    if m is not None:
        n = int(m.group(1))
        if not 1 <= n <= MAX_ITERATIONS:
            raise ValueError(f"bot {name!r}: the iterations must be 1 to {MAX_ITERATIONS}")
        trees = int(m.group(3)) if m.group(3) is not None else 1
        if not 1 <= trees <= MAX_TREES:
            raise ValueError(f"bot {name!r}: the trees must be 1 to {MAX_TREES}")
        split = m.group(2) == "s"
        exploration = EXPLORATION if m.group(4) is None else float(m.group(4))
        if not 0 < exploration <= MAX_EXPLORATION:
            raise ValueError(
                f"bot {name!r}: the exploration must be above 0 and at most {MAX_EXPLORATION:g}"
            )
        evaluation = m.group(8)
        if evaluation is not None and evaluation not in EVALUATIONS:
            raise ValueError(
                f"bot {name!r}: unknown evaluation {evaluation!r}; the evaluations are "
                + ", ".join(EVALUATIONS)
            )
        return SearchBot(
            think=None,
            iterations=n,
            name=name,
            trees=trees,
            split=split,
            evaluation=evaluation,
            exploration=exploration,
            settle=m.group(6) == "t",
            horizon=m.group(6) == "h",
            conclude=m.group(6) == "a",
            normalize=m.group(5) == "n",
            others=m.group(7) == "o",
        )
    raise ValueError(f"unknown bot {name!r}; the bots are {NAMES_HELP}")


@dataclass(frozen=True)
class Strength:
    """A strength of the set-up screen: the bot it plays with, and what that is; ``games``
    names the games whose bot at this strength is another (``(game, bot)`` pairs, or
    ``("game/players", bot)`` for one player count, which comes first: a game whose decisions
    are cheaper thinks more within the same time on a Pi)."""

    name: str
    bot: str
    method: str
    games: tuple[tuple[str, str], ...] = ()

    def bot_for(self, game: str | None = None, players: int | None = None) -> str:
        """The bot of this strength in ``game`` with ``players`` players (None: the default
        bot; the game's for any count)."""
        chosen = dict(self.games)
        return chosen.get(f"{game}/{players}", chosen.get(game or "", self.bot))


STRENGTHS: dict[str, Strength] = {
    s.name: s
    for s in (
        Strength("easy", "heuristic", "one ply of greed: the move worth most at once"),
        Strength(
            "normal",
            "search@500",
            "tree search, 500 playouts a decision; four-player Builders: 50 playouts, each "
            "leaf judged at the start of the seat's next turn by the open evaluation",
            games=(("builders/4", "search@50t+open"),),
        ),
        Strength(
            "strong",
            "search@1000s4",
            "tree search, 4000 playouts: the choices dealt among 4 trees, one a core; The "
            "Pillars and The Builders: 500 playouts judged by an evaluation tuned against normal "
            "(The Pillars: a tree of its own decisions, the others' played by a rule)",
            games=(
                ("pillars", "search@500o+convert"),
                ("builders/2", "search@500+lean"),
                ("builders", "search@500+open"),
            ),
        ),
    )
}
"""The strengths, weakest first.  Each is deterministic (iterations, not seconds), so that the
same position and seed give the same decision on any machine and with any number of cores (undo
never changes it).  Strong deals its choices among four trees (root splitting: one tree a core
where the process may fork; each choice searched as deep as in one tree of four times the
iterations): a thousand iterations a tree, in a game the strength does not name (in both
of the companion's games strong is normal's search with a better judge, below).
Think times (``bench/bench_bots.py --think``): normal about 25 ms of CPU here (p95 under 40 ms);
strong a few tenths of a second of CPU of which the longest tree is a quarter to a third: on a
Raspberry Pi 4's four cores, 13 to 16 times slower a core (``docs/pi.md``), the p95 a decision
is in ``docs/bots.md``.

In The Builders more iterations did not make the search stronger: the evaluation is a judge
of the next turn or two, and a deeper tree finds its errors (``docs/bots.md``).  Strong in
two-player Builders is ``search@500+lean``: normal's search with the evaluation tuned against
normal at two players (a worker's resources worth less, so that it does not recruit workers
it cannot pay), which won 0.92 of 48 two-player games against normal at the same 500
iterations (four trees of 1000 with it won 0.06 of 32 against it at 500: more thought is
weaker still).  At three and four players it was no better than normal; there strong is
``search@500+open``, normal's search with open sites not held against the seat, which won
0.54 (three players) and 0.45 (four) of 96 games against normal (even: 0.33 and 0.25).

Normal in four-player Builders is ``search@50t+open``: fifty iterations whose leaves are
played on to the start of the seat's next turn (each turn's AP left taken as coins) and judged
there by the open evaluation; against three heuristics it won 0.625 of 40 held-out games where
``search@500`` won 0.43 of 100, and strong (``search@500+open``) won 0.35 of 96 against three
of it (even: 0.25; ``docs/bots.md``, "Phase-consistent leaves").

In three- and four-player Pillars more iterations were no stronger either (``search@1500s4``
won 0.39 of 64 three-player games against normal, ``search@1000s4`` 0.29 of 55 four-player
ones); strong in The Pillars judges by the heuristic with the VP the seat's craftsmen can
still make this round from its cubes (``+convert``: ``search@500+convert`` won 0.91 of 96
three-player games against normal, 0.80 of 96 four-player ones, 0.97 of 64 at two, and 23
of 24 against ``search@1500s4``, strong before), and since session 16 in a tree of the
seat's own decisions, the others' played by a fixed rule (``o``): ``search@500o+convert``
won 0.71, 0.69 and 0.58 of 24, 26 and 24 games at two, three and four players against
``search@500+convert`` (even: 0.50, 0.33, 0.25), at about twice its CPU a decision, still a
Pi 4's budget (``docs/bots.md``)."""


def strength_bot(strength: str, game: str | None = None, players: int | None = None) -> Bot:
    """The bot that plays at ``strength`` (``easy``, ``normal`` or ``strong``) in the game
    called ``game`` with ``players`` players (None: the strength's default bot)."""
    s = STRENGTHS.get(strength)
    if s is None:
        raise ValueError(f"unknown strength {strength!r}; the strengths are {', '.join(STRENGTHS)}")
    return make_bot(s.bot_for(game, players))
