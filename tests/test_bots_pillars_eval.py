"""The Pillars' named evaluations: the heuristic's judgement written as a model (the same
decisions, number for number), the ``convertible`` signal, a named evaluation made from the
Pillars' signals, and ``bench_bots.py --try-evaluation`` for a Pillars model."""

from __future__ import annotations

import random

import pytest

from companion.bots import make_bot
from companion.bots.bots import TEMPERATURE, WEIGHTS, HeuristicBot, judge
from companion.bots.evaluation import (
    EVALUATIONS,
    Evaluation,
    bases,
    changed,
    evaluations,
    fitted,
    model_for,
)
from companion.engine import CHANCE, TERMINAL, get_game
from companion.engine.sim import SimState, simulator
from companion.engine.simulate import sample
from companion.pillars import data as D
from companion.pillars.signals import HEURISTIC, SIGNALS
from companion.pillars.sim import PillarsSim
from tests.bots_helpers import bench_bots

PILLARS = get_game("pillars")
BUILDERS = get_game("builders")


def _positions(players: int, seed: int, every: int = 7) -> list[tuple[SimState, int]]:
    """Decisions with a choice from a heuristic game, one in ``every``."""
    rng = random.Random(seed)
    sim = simulator(PILLARS).start(PILLARS.setup(players))
    walker = HeuristicBot()
    out = []
    k = 0
    while sim.current_player() != TERMINAL:
        who = sim.current_player()
        if who == CHANCE:
            sim.apply(sample(sim.chance_outcomes(), rng))
            continue
        if len(sim.legal_actions()) > 1:
            k += 1
            if k % every == 0:
                out.append((sim.copy(), who))
        sim.apply(walker.choose(sim, who, rng))
    return out


def test_the_pillars_signals_are_the_sim_s() -> None:
    assert SIGNALS.names == PillarsSim.SIGNALS and SIGNALS.models == ()
    model = HEURISTIC
    assert SIGNALS.bases == (model,)
    assert model.game == "pillars" and model.signals == PillarsSim.SIGNALS
    weights = dict(zip(model.signals, model.weights, strict=True))
    assert weights["vp"] == WEIGHTS.score and weights["gold"] == WEIGHTS.money
    assert weights["cubes"] == WEIGHTS.goods and weights["craftsmen"] == WEIGHTS.hands
    assert model.scale == TEMPERATURE
    assert model not in fitted() and model in bases()
    assert {m.game for m in bases()} >= {"builders", "pillars"}
    # a bot without an evaluation's name still judges The Pillars by the heuristic itself
    sim = simulator(PILLARS).start(PILLARS.setup(3))
    assert model_for(sim) is None


def test_the_heuristic_as_a_model_judges_every_position_as_the_heuristic() -> None:
    model = HEURISTIC
    for players in (2, 3, 4):
        for sim, _seat in _positions(players, seed=players):
            assert judge(sim, model=model) == judge(sim)  # exactly: whole gold, one division


def test_a_search_by_the_heuristic_as_a_model_decides_as_the_plain_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(EVALUATIONS, "asis", (HEURISTIC,))
    for players in (3, 4):
        positions = _positions(players, seed=10 + players, every=25)[:4]
        assert len(positions) == 4
        for sim, seat in positions:
            plain = make_bot("search@120").rank(sim, seat, random.Random(3), top=4)
            asis = make_bot("search@120+asis").rank(sim, seat, random.Random(3), top=4)
            assert repr(asis) == repr(plain)


def test_convertible_is_what_the_craftsmen_can_still_make_this_round() -> None:
    sim = _positions(3, seed=5, every=3)[0][0]
    assert isinstance(sim, PillarsSim)
    s = sim.seats[0]
    k = PillarsSim.SIGNALS.index("convertible")
    s.cards = ()
    s.res = (0, 0, 0, 0)
    s.gold = 0
    s.craftsmen = ("sculptor4",)  # 1 stone makes 2 VP, twice a round
    s.uses = ()
    s.boost = ""
    assert (D.CRAFTSMEN["sculptor4"].kind, D.CRAFTSMEN["sculptor4"].capacity) == ("sculptor", 2)
    assert sim.signals()[0][k] == 0
    s.res = (1, 0, 0, 0)
    assert sim.signals()[0][k] == 2
    s.res = (5, 3, 0, 0)  # more stone than it can use; wood it cannot use
    assert sim.signals()[0][k] == 4
    s.uses = (("sculptor4", 1),)  # once already this round
    assert sim.signals()[0][k] == 2
    s.uses = (("sculptor4", 2),)
    assert sim.signals()[0][k] == 0
    s.uses = ()
    s.res = (0, 0, 0, 0)
    stone = next(c for c, card in D.RESOURCE_CARDS.items() if card.resource == D.STONE)
    s.cards = (stone,)  # the stone its card will yield this round counts
    assert sim.signals()[0][k] == 4
    s.yield_mod = -D.RESOURCE_CARDS[stone].yield_  # an event that takes the yield
    assert sim.signals()[0][k] == 0


def test_named_pillars_evaluations_change_only_what_they_name() -> None:
    (base,) = changed({"convertible": 6.0, "cubes": 0.5}, bases())
    assert base.game == "pillars" and base.scale == TEMPERATURE
    model = HEURISTIC
    diff = {
        n: w for n, w, b in zip(base.signals, base.weights, model.weights, strict=True) if w != b
    }
    assert diff == {"convertible": 6.0, "cubes": 0.5}
    both = changed({"vp": 10.0}, bases(), scale=3.0)  # a signal of both games: both models
    assert {m.game for m in both} == {"builders", "pillars"} and all(m.scale == 3 for m in both)
    with pytest.raises(ValueError, match="no model weighs all of nosuch"):
        changed({"nosuch": 1.0}, bases())
    with pytest.raises(ValueError, match="no model weighs all of open, convertible"):
        changed({"open": 0.0, "convertible": 1.0}, bases())  # a Builders and a Pillars signal


def test_try_evaluation_makes_a_pillars_model(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = bench_bots()
    monkeypatch.setattr(bench.evaluation, "EVALUATIONS", dict(EVALUATIONS))
    bench.try_evaluation("px@pillars:convertible=6,scale=30")
    (model,) = bench.evaluation.EVALUATIONS["px"]
    assert model.game == "pillars" and model.scale == 30.0
    assert dict(zip(model.signals, model.weights, strict=True))["convertible"] == 6.0
    sim = simulator(PILLARS).start(PILLARS.setup(3))
    assert model_for(sim, bench.evaluation.EVALUATIONS["px"]) is model
    assert Evaluation(model).chances(sim) == judge(sim, model=model)
    # a Builders spec makes no Pillars model, as before
    bench.try_evaluation("bx:left*workforce=0.08")
    assert [m.game for m in bench.evaluation.EVALUATIONS["bx"]] == ["builders"]


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("px@chess:vp=1", "no model of a game 'chess'"),
        ("px@pillars:open=0", "no model weighs all of open"),
        ("px@pillars:vp=ten", "'ten' is not a number"),
        ("px@pillars:scale=0", "the scale must be above 0"),
        ("px@pil-lars:vp=1", "NAME\\[@GAME\\]:SIGNAL=W"),
        ("px", "NAME\\[@GAME\\]:SIGNAL=W"),
    ],
)
def test_try_evaluation_refuses_what_is_no_evaluation(
    spec: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = bench_bots()
    before = dict(EVALUATIONS)
    monkeypatch.setattr(bench.evaluation, "EVALUATIONS", dict(EVALUATIONS))
    with pytest.raises(ValueError, match=says):
        bench.try_evaluation(spec)
    assert before == bench.evaluation.EVALUATIONS  # nothing registered


# -- the convert evaluation (the strong strength's in three- and four-player Pillars) ---------


def test_the_convert_evaluation_weighs_the_convertible_vp_and_a_cube_less() -> None:
    sim = simulator(PILLARS).start(PILLARS.setup(3))
    model = model_for(sim, evaluations()["convert"])
    base = HEURISTIC
    assert model is not None and model.game == "pillars" and model.scale == base.scale
    diff = {
        n: w for n, w, b in zip(model.signals, model.weights, base.weights, strict=True) if w != b
    }
    assert diff == {"convertible": 6.0, "cubes": 0.5}
    assert make_bot("search@500+convert").name == "search@500+convert"
    # The Builders has no convert model: there search@N+convert judges as search@N
    builders = simulator(BUILDERS).start(BUILDERS.setup(2))
    while builders.current_player() == CHANCE:
        builders.apply(sample(builders.chance_outcomes(), random.Random(1)))
    assert model_for(builders, evaluations()["convert"]) is model_for(builders)
    seat = builders.current_player()
    plain = make_bot("search@60").rank(builders, seat, random.Random(2), top=3)
    assert make_bot("search@60+convert").rank(builders, seat, random.Random(2), top=3) == plain


def test_greedy_by_the_convert_evaluation_drafts_what_its_craftsmen_can_use() -> None:
    # where the heuristic's greed and the convert evaluation's differ in the draft, the
    # latter's pick leaves the seat more VP its craftsmen can make this round
    from companion.bots import GreedyBot

    model = evaluations()["convert"][0]
    k = PillarsSim.SIGNALS.index("convertible")
    differ = 0
    for players in (3, 4):
        for sim, seat in _positions(players, seed=20 + players, every=1):
            assert isinstance(sim, PillarsSim)
            if sim.step != "draft":
                continue
            mine = GreedyBot(model).choose(sim, seat, random.Random(1))
            theirs = HeuristicBot().choose(sim, seat, random.Random(1))
            if mine == theirs:
                continue
            differ += 1
            after = []
            for a in (mine, theirs):
                s = sim.copy()
                s.apply(a)
                after.append(s.signals()[seat][k])
            assert after[0] >= after[1]
    assert differ >= 3
