"""Tournaments between bots: seats rotated game by game, win rates with 95 % intervals."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from companion.engine.core import CHANCE, TERMINAL, Game
from companion.engine.sim import simulator
from companion.engine.simulate import sample

from .bots import Bot
from .names import STRENGTHS, arena_bot, make_bot


def wilson(wins: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a win rate ``wins / games``."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class ArenaResult:
    """Wins per name at the table (a shared win split between the winners' bots); ``plays``
    the bot each strength among them played (``{"strong": "search@500o+convert"}``)."""

    game: str
    players: int
    games: int
    wins: dict[str, float] = field(default_factory=dict)
    plays: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        bots: dict[str, Any] = {}
        for name, wins in self.wins.items():
            lo, hi = wilson(wins, self.games)
            bots[name] = {
                "wins": round(wins, 4),
                "win_rate": round(wins / self.games, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
            }
            if name in self.plays:
                bots[name]["bot"] = self.plays[name]
        return {"game": self.game, "players": self.players, "games": self.games, "bots": bots}


def seating(bots: list[str], players: int, k: int) -> list[str]:
    """Game ``k``'s bot per seat: the list rotated by ``k`` (seat 0 starts)."""
    return [bots[(j + k) % len(bots)] for j in range(players)]


MAX_ACTIONS = 20_000
"""A game longer than this is a bot that never ends its game (RuntimeError, not a hang)."""


def play(game: Game[Any, Any], players: int, bots: list[Bot], seed: int) -> list[str]:
    """One game on the simulation path; the winners' names.  Chance from ``seed``, each seat's
    bot with its own generator derived from it (the same seed plays the same game).  Raises
    RuntimeError after :data:`MAX_ACTIONS` actions."""
    setup = game.setup(players)
    sim = simulator(game).start(setup)
    chance = random.Random(seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
    for _ in range(MAX_ACTIONS):
        who = sim.current_player()
        if who == TERMINAL:
            return game.winners(sim.freeze())
        if who == CHANCE:
            action = sample(sim.chance_outcomes(), chance)
        else:
            action = bots[who].choose(sim, who, rngs[who])
        sim.apply(action)
    names = ", ".join(b.name for b in bots)
    raise RuntimeError(f"{game.name} (seed {seed}, {names}): no end after {MAX_ACTIONS} actions")


def arena(
    game: Game[Any, Any], players: int, bots: list[str], games: int, seed: int
) -> ArenaResult:
    """Play ``games`` games with the named bots, seats rotated.  A name is a strength
    (``easy``, ``normal``, ``strong``: the bot the game plays at it with this many players)
    or a bot's own (:func:`.names.make_bot`); ValueError for a name that is neither
    (SetupError for a player count the game does not take)."""
    bot_of = {name: arena_bot(name, game.name, players) for name in dict.fromkeys(bots)}
    game.setup(players)
    result = ArenaResult(
        game.name,
        players,
        games,
        {name: 0.0 for name in bot_of},
        {name: bot for name, bot in bot_of.items() if name in STRENGTHS},
    )
    for k in range(games):
        names = seating(bots, players, k)
        winners = play(game, players, [make_bot(bot_of[n]) for n in names], seed + k)
        seat_names = game.setup(players).names
        for w in winners:
            result.wins[names[seat_names.index(w)]] += 1 / len(winners)
    return result
