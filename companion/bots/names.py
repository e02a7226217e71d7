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
``search@500+lean``: leaves judged by that named evaluation of the games',
:func:`.evaluation.evaluations`), in
that order (``search@2000c0.2nto+plan``).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.engine import registry
from companion.engine.errors import SetupError

from .bots import Bot, GreedyBot, HeuristicBot, RandomBot
from .evaluation import evaluations
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
        if evaluation is not None and evaluation not in (known := evaluations()):
            raise ValueError(
                f"bot {name!r}: unknown evaluation {evaluation!r}; the evaluations are "
                + ", ".join(known)
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
    """A strength of the set-up screen: the bot it plays with where a game declares no other
    (``GameSpec.strengths``), and what that is."""

    name: str
    bot: str
    method: str

    def bot_for(self, game: str | None = None, players: int | None = None) -> str:
        """The bot of this strength in the game called ``game`` with ``players`` players: what
        the game's registry record declares for this strength at that size, else for this
        strength, else the default bot (also for None or a game not registered)."""
        if game is None:
            return self.bot
        try:
            chosen = registry.spec(game).strengths
        except SetupError:
            return self.bot
        return chosen.get(f"{self.name}/{players}", chosen.get(self.name, self.bot))


STRENGTHS: dict[str, Strength] = {
    s.name: s
    for s in (
        Strength("easy", "heuristic", "one ply of greed: the move worth most at once"),
        Strength("normal", "search@500", "tree search, 500 playouts a decision"),
        Strength(
            "strong",
            "search@1000s4",
            "tree search, 4000 playouts: the choices dealt among 4 trees, one a core",
        ),
    )
}
"""The strengths, weakest first, with their default bots; a game declares where it plays
another (``GameSpec.strengths``: the companion's own games' are in their specs, with the
measurements behind them, and ``docs/bots.md`` has the table).  Each is deterministic
(iterations, not seconds), so that the same position and seed give the same decision on any
machine and with any number of cores (undo never changes it).  Strong by default deals its
choices among four trees (root splitting: one tree a core where the process may fork; each
choice searched as deep as in one tree of four times the iterations): a thousand iterations a
tree.  Think times (``bench/bench_bots.py --think``): normal about 25 ms of CPU here (p95 under
40 ms); strong a few tenths of a second of CPU of which the longest tree is a quarter to a
third: on a Raspberry Pi 4's four cores, 13 to 16 times slower a core (``docs/pi.md``), the
p95 a decision is in ``docs/bots.md``."""


def arena_bot(name: str, game: str | None = None, players: int | None = None) -> str:
    """The bot that sits for ``name`` at an arena's table: a strength (``easy``, ``normal``,
    ``strong``) is the bot the game called ``game`` plays at it with ``players`` players (see
    :meth:`Strength.bot_for`); any other name is a bot's own (``heuristic``, ``search@500``...),
    returned as it is.  ValueError for a name that is neither: one that reads as a search bot
    gets :func:`make_bot`'s reason, anything else is named as a strength that is none."""
    strength = STRENGTHS.get(name)
    if strength is not None:
        return strength.bot_for(game, players)
    try:
        make_bot(name)
    except ValueError:
        if name.startswith("search"):
            raise
        raise ValueError(
            f"unknown strength {name!r}: the strengths are {', '.join(STRENGTHS)} (or a "
            f"research bot: {', '.join(BOTS)}, search@ITERATIONS..., see companion arena --help)"
        ) from None
    return name


def strengths_help(games: Iterable[str], width: int = 88) -> str:
    """What each strength plays in each of ``games`` (the arena's help), a game a paragraph,
    with the player counts a game declares another bot for."""
    lines = []
    for game in games:
        try:
            declared = registry.spec(game).strengths
        except SetupError:
            declared = {}
        parts = []
        for s in STRENGTHS.values():
            sizes = sorted(int(k.split("/")[1]) for k in declared if k.startswith(f"{s.name}/"))
            where = "".join(f", {n} players: {s.bot_for(game, n)}" for n in sizes)
            parts.append(f"{s.name} {s.bot_for(game)}" + (f" ({where[2:]})" if where else ""))
        lines.append(
            textwrap.fill(f"{game}: " + "; ".join(parts), width, initial_indent="  ",
                          subsequent_indent="    ", break_on_hyphens=False)
        )
    return "\n".join(lines)


def strength_bot(strength: str, game: str | None = None, players: int | None = None) -> Bot:
    """The bot that plays at ``strength`` (``easy``, ``normal`` or ``strong``) in the game
    called ``game`` with ``players`` players, as the game declares (None: the strength's
    default bot)."""
    s = STRENGTHS.get(strength)
    if s is None:
        raise ValueError(f"unknown strength {strength!r}; the strengths are {', '.join(STRENGTHS)}")
    return make_bot(s.bot_for(game, players))
