"""How long the action log takes for whole games; prints its figures (no assertion).

    .venv/bin/python bench/bench_gamelog.py [--games 5] [--players 4] [--lang ja]

For each game: seeded random games played to the end, then ``log_entries`` (the screen's call:
the actions replayed, every action and ledger entry worded, newest first) and ``log_text`` (the
command line's), the median time per game and the number of actions.  The log screen builds
its entries when opened, so this is the wait a player sees on the table's computer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from companion.engine import CHANCE, Playthrough, get_game
from companion.engine.registry import names as game_names
from companion.kiosk import i18n
from companion.kiosk.gamelog import log_entries, log_text


def played(name: str, players: int, seed: int) -> Playthrough[Any, Any]:
    game = get_game(name)
    pt: Playthrough[Any, Any] = Playthrough(game, game.setup(players), seed)
    rng = random.Random(seed)
    while not game.is_over(pt.state):
        state = pt.state
        if game.current_player(state) == CHANCE:
            outs = game.chance_outcomes(state)
            pt.play(rng.choices([o for o, _p in outs], [p for _o, p in outs])[0])
        else:
            pt.play(rng.choice(game.legal_actions(state)))
    return pt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lang", default="ja", choices=i18n.LANGUAGES)
    args = parser.parse_args()
    i18n.set_language(args.lang)
    for name in game_names():
        if name not in ("pillars", "builders"):
            continue
        screen: list[float] = []
        text: list[float] = []
        actions: list[int] = []
        for seed in range(args.games):
            pt = played(name, args.players, seed)
            t0 = time.perf_counter()
            log_entries(pt.game, pt.setup, pt.actions)
            t1 = time.perf_counter()
            log_text(pt.game, pt.record())
            t2 = time.perf_counter()
            screen.append(t1 - t0)
            text.append(t2 - t1)
            actions.append(len(pt.actions))
        print(
            f"{name}, {args.players} players, {args.games} games, {args.lang}: "
            f"{statistics.median(actions):.0f} actions (median); log_entries "
            f"{statistics.median(screen) * 1000:.0f} ms, log_text "
            f"{statistics.median(text) * 1000:.0f} ms (median per game; max "
            f"{max(screen) * 1000:.0f} / {max(text) * 1000:.0f} ms)"
        )


if __name__ == "__main__":
    main()
