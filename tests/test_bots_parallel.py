"""Root parallelism: ``search@NxK`` grows K independent trees and sums their roots, and the
trees run in forked processes or here with the same decision (``companion.bots.parallel``)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from companion.bots import SearchBot, decide, hint, make_bot, parallel, strength_bot
from companion.engine import get_game
from companion.engine.sim import simulator

from .test_bots_search import _to_decision

PILLARS = get_game("pillars")
BUILDERS = get_game("builders")

NEEDS_FORK = pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")


def _fork_even_with_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Take the forking path even when an earlier test in this worker left a thread running
    (the product's guard would then run everything here, and the test would prove nothing)."""
    monkeypatch.setattr(parallel, "can_fork", lambda: True)


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
    assert isinstance(strong, SearchBot) and strong.trees == 4 and strong.split
    # strong's four trees in a game it does not name; in both of the companion's games it is
    # one tree judged by a named evaluation, as deterministic through decide and hint
    bot = strength_bot("strong", "dicerace")
    assert isinstance(bot, SearchBot) and bot.trees == 4 and bot.split
    sim = _to_decision(simulator(PILLARS).start(PILLARS.setup(4)), random.Random(3), skip=4)
    state = sim.freeze()
    seat = PILLARS.current_player(state)
    pillars = strength_bot("strong", "pillars", 4)
    assert isinstance(pillars, SearchBot) and pillars.evaluation == "convert"
    first = decide(PILLARS, state, seat, "strong", salt="g")
    assert first in PILLARS.legal_actions(state)
    assert decide(PILLARS, state, seat, "strong", salt="g") == first
    shown = hint(PILLARS, state, seat, top=2, strength="strong", salt="g")
    assert shown == hint(PILLARS, state, seat, top=2, strength="strong", salt="g")


def test_run_returns_in_order_whatever_the_processes() -> None:
    for workers in (1, 2, 4):
        assert parallel.run(lambda i: i * i, 7, workers) == [i * i for i in range(7)]
    assert parallel.run(lambda i: i, 0, 2) == []
    with pytest.raises(ValueError, match="workers"):
        parallel.run(lambda i: i, 3, 0)


@NEEDS_FORK
def test_a_child_that_fails_has_its_share_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    _fork_even_with_threads(monkeypatch)
    me = os.getpid()

    def work(i: int) -> int:
        if os.getpid() != me:
            raise RuntimeError("a child fails")
        return i + 100

    assert parallel.run(work, 4, 2) == [100, 101, 102, 103]
    assert parallel.last.process_cpu and len(parallel.last.process_cpu) == 1  # none came back


@NEEDS_FORK
def test_a_search_whose_parent_has_gone_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    _fork_even_with_threads(monkeypatch)
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


def _trees_in_this_process(game: str, players: int) -> tuple[int, Any]:
    """A tiny root-parallel search where it runs (the kiosk's worker process): how many
    processes it used, and its ranking."""
    g = get_game(game)
    sim = _to_decision(simulator(g).start(g.setup(players)), random.Random(6), skip=5)
    ranked = SearchBot(think=None, iterations=30, trees=4).rank(
        sim, sim.current_player(), random.Random(9), top=3
    )
    return parallel.last.processes, ranked


def test_the_kiosk_s_worker_process_runs_the_trees_on_the_cores() -> None:
    """The kiosk's worker process (a child of the fork server, one thread) may fork: the
    trees use the cores there, with the ranking of one process."""
    import time

    from companion.kiosk import seats

    worker = seats.Worker(_trees_in_this_process, ("builders", 3), "process")
    deadline = time.monotonic() + 60
    while (outcome := worker.poll()) is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert outcome[0] == "ok", outcome
    processes, ranked = outcome[1]
    assert processes == min(4, parallel.cores())
    here = SearchBot(think=None, iterations=30, trees=4, workers=1)
    g = get_game("builders")
    sim = _to_decision(simulator(g).start(g.setup(3)), random.Random(6), skip=5)
    assert ranked == here.rank(sim, sim.current_player(), random.Random(9), top=3)


def test_the_hint_s_rounds_are_the_same_on_any_number_of_processes() -> None:
    from companion.bots.seat import weigh

    sim = _to_decision(simulator(PILLARS).start(PILLARS.setup(3)), random.Random(4), skip=6)
    seat = sim.current_player()
    actions = sim.legal_actions()[:3]
    got = [
        list(weigh(sim, seat, actions, random.Random(2), rounds=3, batch=4, workers=w))
        for w in (1, 2, 3)
    ]
    assert got[0] == got[1] == got[2]
    assert len(got[0]) == 3 and all(len(r) == 3 for r in got[0])
    assert all(0.0 <= s <= 4.0 and 0.0 <= q <= s for r in got[0] for s, q in r)
    # a caller that stops early sees the same first rounds
    first = next(iter(weigh(sim, seat, actions, random.Random(2), rounds=3, batch=4)))
    assert first == got[0][0]


def test_runs_are_recorded_with_their_critical_path() -> None:
    with parallel.recording() as runs:
        parallel.run(lambda i: i, 3, 2)
        parallel.run(lambda i: -i, 2, 1)
    assert [len(r.piece_cpu) for r in runs] == [3, 2]
    assert parallel.Run(2, [1.0, 2.0, 3.0, 4.0, 5.0], [9.0, 6.0]).critical(4) == 6.0
    assert parallel.Run(1, [1.0, 2.0, 3.0], [6.0]).critical(2) == 4.0
    parallel.run(lambda i: i, 1, 1)  # nothing recorded outside the block
    assert len(runs) == 2


@pytest.mark.parametrize(("game", "players"), [(PILLARS, 2), (BUILDERS, 3)])
def test_root_splitting_deals_the_choices_and_decides_alike_anywhere(
    game: Any, players: int
) -> None:
    bot = make_bot("search@40s3")
    assert isinstance(bot, SearchBot) and bot.split and bot.trees == 3
    assert bot.name == "search@40s3"
    sim = _to_decision(simulator(game).start(game.setup(players)), random.Random(8), skip=7)
    seat = sim.current_player()
    legal = sim.legal_actions()
    ranks = []
    for workers in (1, 2):
        split = SearchBot(think=None, iterations=40, trees=3, split=True, workers=workers)
        ranks.append(split.rank(sim, seat, random.Random(5), top=len(legal)))
        assert split.last_iterations == 40 * min(3, len(legal))  # no early stop
    assert ranks[0] == ranks[1]
    got = ranks[0]
    assert sorted(map(str, (c.action for c in got))) == sorted(map(str, legal))
    # each tree's well-searched choices first, by mean: the first has the best mean of them
    assert got[0].win_chance == max(c.win_chance for c in got if c.visits * 2 >= got[0].visits)
    assert bot.choose(sim, seat, random.Random(5)) == got[0].action
