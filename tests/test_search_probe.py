"""The search probes of ``bench/search_probe.py``: what they count is what happened."""

from __future__ import annotations

from types import ModuleType

import pytest

from companion.bots.search import SearchBot
from tests.bots_helpers import bench_script


def probe() -> ModuleType:
    return bench_script("search_probe")


@pytest.mark.full  # the bench tool's searches (1.4 s of CPU): -m full
def test_two_runs_of_one_search_and_seed_always_agree() -> None:
    n, games, pairs = probe().agreement(
        "builders", 2, "search@{n}", ["20:a", "20:a", "20:b", "60:a"], 4, 5
    )
    assert n == 4 and games >= 1
    same = {(a, b): k for a, b, k in pairs}
    assert len(pairs) == 6
    assert same["20:a", "20:a"] == 4  # the same budget and seed: the same decision
    assert all(0 <= k <= 4 for k in same.values())


def test_the_rule_s_hits_and_misses_count_every_action() -> None:
    hits, total, played, misses = probe().rule_hits(2, "random", 1)
    assert total == sum(played.values()) > 0
    assert hits + sum(misses.values()) == total
    assert hits < total  # random play is not the rule


@pytest.mark.full  # the bench tool's searches: -m full
def test_the_walks_of_a_tree_of_the_seat_s_own_decisions_reach_its_later_turns() -> None:
    iterate = SearchBot._iterate
    module = probe()
    own = module.depth("builders", 2, "search@{n}nto+plan", [60], 1)[60]
    assert sum(own.values()) > 0 and any(k >= 1 for k in own)
    searched = module.depth("builders", 2, "search@{n}nt+plan", [60], 1)[60]
    assert sum(searched.values()) > 0 and set(searched) == {0}  # no advance: no count
    assert SearchBot._iterate is iterate  # the probe leaves the search as it found it
