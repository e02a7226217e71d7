"""Helpers for the bots' tests: positions with a choice, from a game of random play; the
arena script as a module."""

from __future__ import annotations

import functools
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.sim import SimState, simulator
from companion.engine.simulate import sample


def random_positions(
    game: str, players: int, seed: int, count: int, least: int = 2
) -> list[SimState]:
    """``count`` copies of positions with at least ``least`` legal actions, taken at random
    (three in ten) from a game of random play on the simulation path, seeded by ``seed``."""
    rules = get_game(game)
    rng = random.Random(seed)
    sim = simulator(rules).start(rules.setup(players))
    out: list[SimState] = []
    while len(out) < count and sim.current_player() != TERMINAL:
        if sim.current_player() == CHANCE:
            sim.apply(sample(sim.chance_outcomes(), rng))
            continue
        legal = sim.legal_actions()
        if len(legal) >= least and rng.random() < 0.3:
            out.append(sim.copy())
        sim.apply(rng.choice(legal))
    assert len(out) == count
    return out


@functools.cache
def bench_script(name: str) -> ModuleType:
    """``bench/NAME.py`` as a module (a script, not a package), loaded once: the same module
    as ``sys.modules[NAME]`` for every test."""
    path = Path(__file__).resolve().parent.parent / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def bench_bots() -> ModuleType:
    """``bench/bench_bots.py`` as a module (:func:`bench_script`)."""
    return bench_script("bench_bots")
