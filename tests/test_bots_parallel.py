"""Root parallelism: ``search@NxK`` grows K independent trees and sums their roots, and the
trees run in forked processes or here with the same decision (``companion.bots.parallel``)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from companion.bots import SearchBot, decide, hint, make_bot, parallel, strength_bot
from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.sim import SimState, simulator
from companion.engine.simulate import sample

PILLARS = get_game("pillars")
BUILDERS = get_game("builders")


def _to_decision(sim: SimState, rng: random.Random, skip: int) -> SimState:
    while True:
        who = sim.current_player()
        assert who != TERMINAL
        if who == CHANCE:
            sim.apply(sample(sim.chance_outcomes(), rng))
            continue
        legal = sim.legal_actions()
        if len(legal) > 1 and skip <= 0:
            return sim
        skip -= 1
        sim.apply(rng.choice(legal))


def test_tree_names_set_the_trees() -> None:
    bot = make_bot("search@40x3")
    assert isinstance(bot, SearchBot) and (bot.iterations, bot.trees) == (40, 3)
    assert bot.name == "search@40x3"
    assert SearchBot(think=None, iterations=40, trees=3).name == "search@40x3"
    assert make_bot("search@40").trees == 1  # type: ignore[attr-defined]
    for name, says in [("search@40x0", "trees"), ("search@40x65", "trees"),
                       ("search@40x", "unknown bot"), ("search@x4", "unknown bot")]:
        with pytest.raises(ValueError, match=says):
            make_bot(name)
    with pytest.raises(ValueError, match="iteration budget"):
        SearchBot(think=1.0, trees=2)
    with pytest.raises(ValueError, match="workers"):
        SearchBot(think=None, iterations=10, trees=2, workers=0)


@pytest.mark.parametrize(("game", "players"), [(PILLARS, 3), (BUILDERS, 2), (BUILDERS, 4)])
def test_the_trees_decide_alike_in_one_process_or_several(game: Any, players: int) -> None:
    sim = _to_decision(simulator(game).start(game.setup(players)), random.Random(5), skip=9)
    seat = sim.current_player()
    before = sim.freeze()
    ranks = []
    for workers in (1, 2, 3):
        bot = SearchBot(think=None, iterations=40, trees=3, workers=workers)
        ranks.append(bot.rank(sim, seat, random.Random(11), top=4))
        assert parallel.last.processes == (workers if parallel.can_fork() else 1)
        assert len(parallel.last.piece_cpu) == 3
        assert len(parallel.last.process_cpu) == parallel.last.processes
        assert bot.last_iterations > 40  # the trees' iterations together
    assert ranks[0] == ranks[1] == ranks[2]
    assert sim.freeze() == before
    # the roots are summed: as many visits as the trees' roots had
    assert sum(c.visits for c in ranks[0]) <= 3 * 40
    # another seed, other trees
    other = SearchBot(think=None, iterations=40, trees=3).rank(sim, seat, random.Random(12), top=4)
    assert [c.visits for c in other] != [c.visits for c in ranks[0]] or other != ranks[0]


def test_the_strong_strength_is_root_parallel_and_as_deterministic() -> None:
    strong = strength_bot("strong")
    assert isinstance(strong, SearchBot) and strong.trees == 4
    sim = _to_decision(simulator(BUILDERS).start(BUILDERS.setup(2)), random.Random(3), skip=4)
    state = sim.freeze()
    seat = BUILDERS.current_player(state)
    first = decide(BUILDERS, state, seat, "strong", salt="g")
    assert first in BUILDERS.legal_actions(state)
    shown = hint(BUILDERS, state, seat, top=2, strength="strong", salt="g")
    assert shown == hint(BUILDERS, state, seat, top=2, strength="strong", salt="g")


def test_run_returns_in_order_whatever_the_processes() -> None:
    for workers in (1, 2, 4):
        assert parallel.run(lambda i: i * i, 7, workers) == [i * i for i in range(7)]
    assert parallel.run(lambda i: i, 0, 2) == []
    with pytest.raises(ValueError, match="workers"):
        parallel.run(lambda i: i, 3, 0)


def test_a_child_that_fails_has_its_share_done_here() -> None:
    if not parallel.can_fork():
        pytest.skip("no fork here")
    me = os.getpid()

    def work(i: int) -> int:
        if os.getpid() != me:
            raise RuntimeError("a child fails")
        return i + 100

    assert parallel.run(work, 4, 2) == [100, 101, 102, 103]
    assert parallel.last.process_cpu and len(parallel.last.process_cpu) == 1  # none came back


def test_a_search_whose_parent_has_gone_stops() -> None:
    if not parallel.can_fork():
        pytest.skip("no fork here")
    me = os.getpid()
    sim = _to_decision(simulator(BUILDERS).start(BUILDERS.setup(2)), random.Random(2), skip=3)
    seat = sim.current_player()

    def work(i: int) -> int:
        if os.getpid() != me:
            parallel._PARENT = -1  # as if the kiosk had stopped the worker process
        bot = SearchBot(think=None, iterations=200)
        bot.choose(sim, seat, random.Random(i))
        return bot.last_iterations

    got = parallel.run(work, 2, 2)
    assert all(n > 0 for n in got)
    assert len(parallel.last.process_cpu) == 1  # the child left at its first check
    assert not parallel.abandoned()
