"""Three probes of a search's ceiling; print their figures (no assertion).

    .venv/bin/python bench/search_probe.py agree --game builders --players 3 \
        --bot 'search@{n}nto+plan' --runs 500:a,2000:a,2000:b,4000:a,4000:b,16000:a --positions 40
    .venv/bin/python bench/search_probe.py others --players 3 --bot search@500nto+plan --games 3
    .venv/bin/python bench/search_probe.py depth --game builders --players 3 \
        --bot 'search@{n}nto+plan' --budgets 500,2000,4000 --positions 6

``agree``: positions from self-play games of the bot at 500 iterations (every ``--every``-th
decision with three choices or more); at each, the bot at every budget of ``--runs`` (a
budget and a tag: the same budget under two tags is the same search with another seed)
decides, and the probe prints how often each two runs chose the same action.  Two runs of one
budget agree as often as the seeds' noise lets them; a budget that agrees with a far larger
one no more often than a smaller budget does has stopped changing its decisions.

``others``: self-play games of the bot in The Builders; at every decision the probe asks what
the fixed rule that plays the others' turns in a tree of the seat's own decisions
(``search@Nto``: ``BuildersSim.advance``, an action at a time, ``BuildersSim.rule_action``)
would do there, and prints how often the seat's actual action is that one, which actions
the seat played, and the commonest misses (the rule's action, the seat's): how far the
tree's model of the others is from what such seats play.

``depth``: for a search whose others' turns are played by the game's ``advance`` (``o``), how
many of the seat's turns after this one each walk of the tree reached (each call of
``advance`` ends at the start of one), per budget, over positions of one self-play game at
500 iterations (every ninth decision).
"""

from __future__ import annotations

import argparse
import itertools
import random
from collections import Counter
from typing import Any

from companion.bots.bots import options
from companion.bots.names import make_bot
from companion.bots.search import SearchBot
from companion.builders.sim import BuildersSim
from companion.engine.core import CHANCE, TERMINAL
from companion.engine.registry import get_game
from companion.engine.sim import simulator
from companion.engine.simulate import sample


def agreement(
    game_name: str, players: int, family: str, runs: list[str], want: int, every: int
) -> tuple[int, int, list[tuple[str, str, int]]]:
    """The positions, the games they came from, and for each two runs how many times they
    chose the same action."""
    game = get_game(game_name)
    budgets = [(int(run.split(":")[0]), run.split(":")[-1]) for run in runs]
    choices: list[list[Any]] = []
    g = 0
    while len(choices) < want:
        g += 1
        sim = simulator(game).start(game.setup(players))
        chance = random.Random(100 + g)
        player = make_bot(family.format(n=500))
        rng = random.Random(g)
        step = 0
        while sim.current_player() != TERMINAL and len(choices) < want:
            who = sim.current_player()
            if who == CHANCE:
                sim.apply(sample(sim.chance_outcomes(), chance))
                continue
            step += 1
            if step % every == 0 and len(options(sim)) > 2:
                choices.append(
                    [
                        make_bot(family.format(n=n)).choose(
                            sim, who, random.Random(f"{step}/{g}/{tag}")
                        )
                        for n, tag in budgets
                    ]
                )
            sim.apply(player.choose(sim, who, rng))
    pairs = itertools.combinations(range(len(runs)), 2)
    return (
        len(choices),
        g,
        [(runs[i], runs[j], sum(c[i] == c[j] for c in choices)) for i, j in pairs],
    )


def agree(
    game_name: str, players: int, family: str, runs: list[str], want: int, every: int
) -> None:
    n, games, pairs = agreement(game_name, players, family, runs, want, every)
    print(f"{game_name}, {players} players, {family}: {n} positions from {games} games")
    for a, b, same in pairs:
        print(f"  {a:>9} and {b:<9} chose the same {same} of {n} ({same / n:.2f})")


def rule_hits(
    players: int, bot: str, games: int
) -> tuple[int, int, Counter[str], Counter[tuple[str, str]]]:
    """Self-play of ``bot``: the actions that were the rule's, all actions, the actions
    played by kind, and the misses by (the rule's kind, the played kind)."""
    game = get_game("builders")
    hits = total = 0
    played: Counter[str] = Counter()
    misses: Counter[tuple[str, str]] = Counter()
    for g in range(games):
        sim = simulator(game).start(game.setup(players))
        assert isinstance(sim, BuildersSim)
        chance = random.Random(500 + g)
        bots = [make_bot(bot) for _ in range(players)]
        rngs = [random.Random(f"{g}/{s}") for s in range(players)]
        while sim.current_player() != TERMINAL:
            who = sim.current_player()
            if who == CHANCE:
                sim.apply(sample(sim.chance_outcomes(), chance))
                continue
            rule = sim.rule_action()
            action = bots[who].choose(sim, who, rngs[who])
            total += 1
            hits += action == rule
            played[type(action).__name__] += 1
            if action != rule:
                misses[type(rule).__name__, type(action).__name__] += 1
            sim.apply(action)
    return hits, total, played, misses


def others(players: int, bot: str, games: int) -> None:
    hits, total, played, misses = rule_hits(players, bot, games)
    print(
        f"builders, {players} players, {bot}, {games} games: the rule's action played "
        f"{hits} of {total} ({hits / total:.2f})"
    )
    print("  played:", ", ".join(f"{k} {v}" for k, v in played.most_common()))
    print(
        "  misses (the rule's, played):",
        ", ".join(f"{r}/{a} {v}" for (r, a), v in misses.most_common(8)),
    )


def depth(
    game_name: str, players: int, family: str, budgets: list[int], want: int
) -> dict[int, Counter[int]]:
    """Per budget, the walks by how many of the seat's later turns they reached (printed)."""
    game = get_game(game_name)
    sim = simulator(game).start(game.setup(players))
    kind = type(sim)
    advance = kind.advance
    calls = [0]

    def counted(self: Any, seat: int, rng: random.Random) -> None:
        calls[0] += 1
        advance(self, seat, rng)

    walks: dict[int, Counter[int]] = {n: Counter() for n in budgets}
    iterate = SearchBot._iterate
    budget = [0]

    def walk(self: SearchBot, *args: Any) -> None:
        calls[0] = 0
        iterate(self, *args)
        if budget[0]:  # (not the self-play's own searches)
            walks[budget[0]][calls[0]] += 1

    kind.advance = counted
    SearchBot._iterate = walk  # type: ignore[method-assign]
    try:
        chance = random.Random(7)
        player = make_bot(family.format(n=500))
        rng = random.Random(1)
        seen = step = 0
        while sim.current_player() != TERMINAL and seen < want:
            who = sim.current_player()
            if who == CHANCE:
                sim.apply(sample(sim.chance_outcomes(), chance))
                continue
            step += 1
            if step % 9 == 0:
                for n in budgets:
                    budget[0] = n
                    make_bot(family.format(n=n)).choose(sim, who, random.Random(step))
                seen += 1
            budget[0] = 0
            sim.apply(player.choose(sim, who, rng))
    finally:
        kind.advance = advance
        SearchBot._iterate = iterate  # type: ignore[method-assign]
    print(f"{game_name}, {players} players, {family}, {seen} positions: walks by the seat's")
    print("turns after this one they reached")
    for n in budgets:
        c = walks[n]
        total = sum(c.values())
        shares = ", ".join(f"{k}: {v} ({v / total:.2f})" for k, v in sorted(c.items()))
        print(f"  {n:>6}: {total} walks; {shares}")
    return walks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="probe", required=True)
    a = sub.add_parser("agree")
    a.add_argument("--game", default="builders")
    a.add_argument("--players", type=int, default=3)
    a.add_argument("--bot", default="search@{n}nto+plan")
    a.add_argument("--runs", default="500:a,2000:a,2000:b,4000:a,4000:b,16000:a")
    a.add_argument("--positions", type=int, default=40)
    a.add_argument("--every", type=int, default=7)
    o = sub.add_parser("others")
    o.add_argument("--players", type=int, default=3)
    o.add_argument("--bot", default="search@500nto+plan")
    o.add_argument("--games", type=int, default=3)
    d = sub.add_parser("depth")
    d.add_argument("--game", default="builders")
    d.add_argument("--players", type=int, default=3)
    d.add_argument("--bot", default="search@{n}nto+plan")
    d.add_argument("--budgets", default="500,2000,4000")
    d.add_argument("--positions", type=int, default=6)
    args = parser.parse_args()
    if args.probe == "depth":
        budgets = [int(b) for b in args.budgets.split(",")]
        depth(args.game, args.players, args.bot, budgets, args.positions)
    elif args.probe == "agree":
        agree(args.game, args.players, args.bot, args.runs.split(","), args.positions, args.every)
    else:
        others(args.players, args.bot, args.games)


if __name__ == "__main__":
    main()
