"""The normalised tree (``search@Nn``): UCB over each node's means taken relative to its
children's range, so that the exploration is weighed against how far apart the choices are
and the tree follows its best lines as the iterations grow (``docs/notes/bots-lab.md``,
"Three and four players, and a tree that follows its judge harder")."""

from __future__ import annotations

import random
from math import log, sqrt

import pytest

from companion.bots import SearchBot, make_bot
from companion.bots.bots import options
from companion.bots.search import _Node, _normalized
from tests.bots_helpers import random_positions


def _node(mean: float, visits: int, avail: int) -> _Node:
    node = _Node(2)
    node.visits = visits
    node.reward = [mean * visits, (1 - mean) * visits]
    node.avail = avail
    return node


def test_the_range_not_the_scale_decides() -> None:
    # win chances two hundredths apart: the plain UCB (0.7) visits the poorer, less visited
    # choice again; relative to the range the better one leads by a whole range
    kids: list[_Node | None] = [_node(0.52, 100, 120), _node(0.50, 20, 120)]
    assert _normalized(kids, 0, 0.7) == 0
    plain = [
        k.reward[0] / k.visits + 0.7 * sqrt(log(k.avail) / k.visits) for k in kids if k is not None
    ]
    assert plain[1] > plain[0]  # what the plain UCB would visit
    # the other seat's means are the reverse: its best is the second child
    assert _normalized(kids, 1, 0.7) == 1
    # equal means: only the exploration counts (the less visited first)
    even: list[_Node | None] = [_node(0.5, 100, 120), _node(0.5, 20, 120)]
    assert _normalized(even, 0, 0.7) == 1


def test_n_names() -> None:
    bot = make_bot("search@2000c0.2nt+open")
    assert isinstance(bot, SearchBot) and bot.normalize and bot.settle
    assert (bot.exploration, bot.evaluation, bot.name) == (0.2, "open", "search@2000c0.2nt+open")
    assert make_bot("search@500n").name == "search@500n"
    plain = make_bot("search@500t")
    assert isinstance(plain, SearchBot) and not plain.normalize
    assert SearchBot(think=None, iterations=50, normalize=True, horizon=True).name == (
        "search@50nh"
    )
    for name in ("search@500tn", "search@500nn", "search@500nc0.2", "search@500+openn"):
        with pytest.raises(ValueError, match="unknown (bot|evaluation)"):
            make_bot(name)


@pytest.mark.parametrize(("game", "players"), [("pillars", 2), ("builders", 3)])
def test_a_normalised_tree_follows_its_best_choice_further(game: str, players: int) -> None:
    sims = random_positions(game, players, 5, 4, least=3)
    lead = {False: 0, True: 0}
    for k, sim in enumerate(sims):
        seat = sim.current_player()
        for normalize in (False, True):
            bot = SearchBot(think=None, iterations=600, normalize=normalize)
            ranked = bot.rank(sim, seat, random.Random(k), top=50)
            assert all(c.action in options(sim) for c in ranked)
            lead[normalize] += ranked[0].visits
    assert lead[True] > lead[False]


def test_a_normalised_tree_is_deterministic_and_decides_otherwise() -> None:
    sims = random_positions("pillars", 3, 8, 6, least=3)
    changed = 0
    for k, sim in enumerate(sims):
        seat = sim.current_player()
        first = make_bot("search@300n").rank(sim, seat, random.Random(k), top=3)
        assert first == make_bot("search@300n").rank(sim.copy(), seat, random.Random(k), top=3)
        changed += first != make_bot("search@300").rank(sim, seat, random.Random(k), top=3)
    assert changed > 0
