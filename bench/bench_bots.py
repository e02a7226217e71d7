"""Bot strength in the arena; prints its figures (the issue's bar, no assertion).

    .venv/bin/python bench/bench_bots.py [--game pillars|builders|all] [--games 400]
        [--players 2,3,4] [--search search@200] [--pairs A/B,...] [--seed 1] [--progress]

By default, for each game and each player count in ``--players``: the heuristic bot against
random play, and the search bot (``--search``, e.g. ``search@200`` for 200 iterations a
decision, ``search:1`` for one second) against the heuristic.  Two players: one seat each, seats
swapped every game.  Three and four: one seat for the first bot, the others for the second,
rotated every game (an even chance is then 1/3 or 1/4).  Each line: the first bot's win rate
with its Wilson 95 % interval, the time taken and the search's mean iterations a decision.
``--games`` is the number of two-player games; three and four players play a quarter as many
unless ``--multi-games`` says otherwise.  ``--progress`` prints every game as it ends (for long
runs in the background).  ``--rate`` prints only the search's speed (iterations per second of
CPU time, so that a busy machine does not change it much) and the think time of each strength.

The issue's bar (two players, 400 games a pairing): heuristic beats random in >= 90 %, search
at 1 s a decision beats heuristic in >= 60 %.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from companion.bots import STRENGTHS, Bot, Choice, HeuristicBot, SearchBot, make_bot, wilson
from companion.bots.tournament import play, seating
from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.registry import names as game_names
from companion.engine.sim import SimState, simulator
from companion.engine.simulate import sample


def pairing(
    name: str, players: int, first: str, second: str, games: int, seed: int, progress: bool
) -> None:
    """``games`` games of ``first`` (one seat) against ``second`` (the other seats)."""
    game = get_game(name)
    names = list(game.setup(players).names)
    bots = [first] + [second] * (players - 1)
    wins = 0.0
    iterations = decisions = endless = 0
    t0 = time.perf_counter()
    for k in range(games):
        seats = seating(bots, players, k)
        table: list[Bot] = [make_bot(b) for b in seats]
        me = (players - k % players) % players  # the seat ``first`` got in this rotation
        assert seats[me] == first
        bot = table[me]
        counted = _Counting(bot) if isinstance(bot, SearchBot) else None
        if counted is not None:
            table[me] = counted
        try:
            winners = play(game, players, table, seed + k)
        except RuntimeError as exc:  # a game nobody ends (greed that takes coins for ever)
            print(f"  {exc}: counted as lost", flush=True)
            winners = []
            endless += 1
        if names[me] in winners:
            wins += 1 / len(winners)
        if counted is not None:
            iterations += counted.iterations
            decisions += counted.decisions
        if progress:
            lo, hi = wilson(wins, k + 1)
            print(
                f"  {name} {players}p game {k + 1}/{games} seed {seed + k}: {first} in seat {me} "
                f"{'won' if names[me] in winners else 'lost'}; so far {wins:g}/{k + 1} "
                f"[{lo:.1%}, {hi:.1%}] ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
    dt = time.perf_counter() - t0
    lo, hi = wilson(wins, games)
    extra = f", {iterations / decisions:.0f} iterations a decision" if decisions else ""
    if endless:
        extra += f", {endless} without an end counted as lost"
    print(
        f"{name}, {players} players, {first} vs {second}, {games} games ({dt:.0f} s{extra}): "
        f"{first} wins {wins / games:.1%} [{lo:.1%}, {hi:.1%}] (even: {1 / players:.0%})",
        flush=True,
    )


class _Counting:
    """A search bot that counts its decisions and iterations (for the mean a decision)."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.iterations = 0
        self.decisions = 0

    def rank(self, state: SimState, seat: int, rng: random.Random, top: int = 3) -> list[Choice]:
        return self.bot.rank(state, seat, rng, top)

    def choose(self, state: SimState, seat: int, rng: random.Random) -> Any:
        action = self.bot.choose(state, seat, rng)
        if self.bot.last_iterations:
            self.iterations += self.bot.last_iterations
            self.decisions += 1
        return action


def positions(name: str, players: int, count: int, seed: int) -> list[SimState]:
    """``count`` decisions (with a choice) spread over heuristic games."""
    game = get_game(name)
    out: list[SimState] = []
    heuristic = HeuristicBot()
    k = 0
    while len(out) < count:
        rng = random.Random(seed + k)
        sim = simulator(game).start(game.setup(players))
        found: list[SimState] = []
        while sim.current_player() != TERMINAL:
            who = sim.current_player()
            if who == CHANCE:
                sim.apply(sample(sim.chance_outcomes(), rng))
                continue
            if len(sim.legal_actions()) > 1:
                found.append(sim.copy())
            sim.apply(heuristic.choose(sim, who, rng))
        out += found[:: max(1, len(found) // 10)][:10]
        k += 1
    return out[:count]


def rate(name: str, players: int) -> None:
    """The search's iterations per second of CPU time over positions from heuristic games, and
    what each strength then thinks a decision here and on a 3 to 5 times slower Pi."""
    states = positions(name, players, 40, 1)
    bot = SearchBot(think=None, iterations=1000)
    done = 0
    t0 = time.process_time()
    for k, sim in enumerate(states):
        bot.choose(sim, sim.current_player(), random.Random(k))
        done += bot.last_iterations
    per_s = done / (time.process_time() - t0)
    parts = []
    for s in STRENGTHS.values():
        b = make_bot(s.bot)
        if isinstance(b, SearchBot) and b.iterations:
            here = b.iterations / per_s
            parts.append(f"{s.name} {here:.2f} s (Pi {3 * here:.1f}-{5 * here:.1f} s)")
    print(
        f"{name}, {players} players: search {per_s:,.0f} iterations/s of CPU; at most a decision: "
        + ", ".join(parts),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="all", choices=[*game_names(), "all"])
    parser.add_argument("--games", type=int, default=400, help="two-player games a pairing")
    parser.add_argument("--multi-games", type=int, help="three- and four-player games a pairing")
    parser.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    parser.add_argument("--search", default="search@200", help="the search bot's name")
    parser.add_argument(
        "--pairs",
        help="FIRST/SECOND pairings, comma-separated (default heuristic:random and "
        "the search bot against the heuristic)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", action="store_true", help="print every game")
    parser.add_argument(
        "--rate", action="store_true", help="only the search's iterations/s and think times"
    )
    args = parser.parse_args()
    names = game_names() if args.game == "all" else (args.game,)
    try:
        counts = [int(p) for p in args.players.split(",")]
        text = args.pairs or f"heuristic/random,{args.search}/heuristic"
        pairs = [p.split("/") for p in text.split(",")]
        for p in pairs:
            if len(p) != 2:
                raise ValueError(f"a pairing is FIRST/SECOND, not {'/'.join(p)!r}")
            for b in p:
                make_bot(b)
    except ValueError as exc:
        sys.exit(f"bench_bots: {exc}")
    if args.rate:
        for name in names:
            for players in counts:
                rate(name, players)
        return
    for name in names:
        for players in counts:
            games = args.games if players == 2 else (args.multi_games or max(1, args.games // 4))
            for first, second in pairs:
                pairing(name, players, first, second, games, args.seed, args.progress)


if __name__ == "__main__":
    main()
