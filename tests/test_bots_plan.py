"""The Builders' signals that count together what only works together: ``crew`` (the five most
supplying workers, not all of them) and ``plan`` (the open sites the idle workers and the coins
can finish, each worker and coin used once), the ``plan`` judge that weighs them, and a judge
that gives a signal no weight not paying to measure it."""

from __future__ import annotations

import pytest

from companion.bots import make_bot
from companion.bots.evaluation import Evaluation, evaluations, model_for
from companion.builders.actions import Start
from companion.builders.checks import NEEDS
from companion.builders.signals import MODEL
from companion.builders.sim import _WORTH, CREW, BuildersSim
from companion.builders.state import Site

from .bots_helpers import random_positions
from .test_bots_eval import _builders, _sig


def _seat() -> tuple[BuildersSim, int]:
    sim = _builders()
    return sim, sim.current_player()


def _hold(sim: BuildersSim, seat: int, coins: int, idle: list[str],
          sites: list[tuple[str, list[int]]]) -> None:
    p = sim.players[seat]
    p.coins = coins
    p.idle = tuple(idle)
    p.sites = tuple(Site(card, (), (s[0], s[1], s[2], s[3])) for card, s in sites)


# lavoir needs (0, 1, 0, 2) and brings 1 VP and 6 coins; the two apprentices supply (0, 1, 0,
# 1) and (0, 0, 1, 1) for a wage of 2 each; the saw (a machine) supplies (0, 2, 0, 0), no wage
LAVOIR = "lavoir"
PAIR = ["apprenti-0101", "apprenti-0011"]


def test_the_data_the_plan_tests_rest_on() -> None:
    assert NEEDS[LAVOIR] == (0, 1, 0, 2) and _WORTH[LAVOIR] == pytest.approx(1.6)
    assert NEEDS["grue-1"] == (0, 1, 0, 1) and _WORTH["grue-1"] == pytest.approx(1.0)


def test_a_site_the_idle_workers_and_the_coins_can_finish_counts_what_it_still_brings() -> None:
    sim, seat = _seat()
    _hold(sim, seat, 4, PAIR, [(LAVOIR, [0, 0, 0, 0])])
    assert _sig(sim, seat, "plan") == pytest.approx(1.6)
    _hold(sim, seat, 4, PAIR, [(LAVOIR, [0, 1, 0, 0])])  # a third already supplied
    assert _sig(sim, seat, "plan") == pytest.approx(1.6 * 2 / 3)


def test_a_site_counts_nothing_when_the_coins_cannot_pay_the_wages() -> None:
    sim, seat = _seat()
    _hold(sim, seat, 3, PAIR, [(LAVOIR, [0, 0, 0, 0])])  # one wage of the two
    assert _sig(sim, seat, "plan") == 0.0
    assert _sig(sim, seat, "reach") > 0.0  # (reach counts the workers without their wages)


def test_a_worker_finishes_one_site_not_two() -> None:
    # grue-1, nearer to done, takes apprenti-0101; lavoir is left apprenti-0011 alone
    sim, seat = _seat()
    _hold(sim, seat, 10, PAIR, [(LAVOIR, [0, 0, 0, 0]), ("grue-1", [0, 0, 0, 0])])
    assert _sig(sim, seat, "plan") == pytest.approx(1.0)
    assert _sig(sim, seat, "reach") == pytest.approx(2.6)  # each site with all the workers
    _hold(sim, seat, 10, PAIR * 2, [(LAVOIR, [0, 0, 0, 0]), ("grue-1", [0, 0, 0, 0])])
    assert _sig(sim, seat, "plan") == pytest.approx(2.6)
    _hold(sim, seat, 5, PAIR * 2, [(LAVOIR, [0, 0, 0, 0]), ("grue-1", [0, 0, 0, 0])])
    assert _sig(sim, seat, "plan") == pytest.approx(1.0)  # three wages, five coins


def test_a_machine_works_for_no_wage() -> None:
    sim, seat = _seat()
    _hold(sim, seat, 0, ["scie-circulaire-1"], [(LAVOIR, [0, 0, 0, 2])])
    assert _sig(sim, seat, "plan") == pytest.approx(1.6 / 3)
    _hold(sim, seat, 0, ["apprenti-0101"], [(LAVOIR, [0, 0, 0, 2])])
    assert _sig(sim, seat, "plan") == 0.0


def test_the_crew_counts_the_most_supplying_workers_and_no_machine() -> None:
    sim, seat = _seat()
    few = ["maitre-2300", "apprenti-0101", "scie-circulaire-1"]
    _hold(sim, seat, 0, few, [])
    assert _sig(sim, seat, "crew") == _sig(sim, seat, "workforce") == 7
    many = ["apprenti-0101", "maitre-2300", "compagnon-2200", "apprenti-0011", "maitre-2003",
            "compagnon-2020", "apprenti-1100", "scie-circulaire-2"]
    _hold(sim, seat, 0, many, [])
    assert CREW == 5
    assert _sig(sim, seat, "crew") == 5 + 5 + 4 + 4 + 2  # the two other apprentices aside
    assert _sig(sim, seat, "workforce") == 5 + 5 + 4 + 4 + 2 * 3
    assert _sig(sim, seat, "left*crew") == _sig(sim, seat, "crew")  # nobody has VP yet
    sim.players[1 - seat].vp = 17
    assert _sig(sim, seat, "left*crew") == 0.0


def test_starting_a_site_the_seat_can_finish_raises_its_plan_and_one_it_cannot_does_not() -> None:
    sim, seat = _seat()
    _hold(sim, seat, 4, PAIR, [])
    assert LAVOIR in sim.building_row and "aqueduc" in sim.building_row  # (seed 1's row)
    finishable = sim.copy()
    finishable.apply(Start(LAVOIR))
    assert _sig(finishable, seat, "plan") == pytest.approx(1.6)
    too_big = sim.copy()
    too_big.apply(Start("aqueduc"))  # needs (5, 2, 5, 0)
    assert _sig(too_big, seat, "plan") == 0.0


def test_a_judge_that_gives_plan_no_weight_does_not_measure_it_and_predicts_the_same() -> None:
    default = MODEL
    assert "plan" in default.unweighed and "vp" not in default.unweighed
    judged = [m for m in evaluations()["plan"] if m.game == "builders"][0]
    assert "plan" not in judged.unweighed and "crew" in judged.unweighed
    measured = 0
    for sim in random_positions("builders", 3, 4, 30):
        full = sim.signals()
        lean = sim.signals(skip=default.unweighed)
        k = BuildersSim.SIGNALS.index("plan")
        assert all(row[k] == 0.0 for row in lean)
        measured += any(row[k] for row in full)
        assert default.predict(lean) == default.predict(full)
        assert Evaluation(default).scores(sim) == default.predict(full)
        assert Evaluation(judged).scores(sim) == judged.predict(full)
    assert measured  # (some of the positions have a site their seat can finish)


def test_the_plan_judge_by_name() -> None:
    bot = make_bot("search@500nt+plan")
    sim, _seat_ = _seat()
    model = model_for(sim, evaluations()["plan"])
    assert model is not None and bot.name == "search@500nt+plan"
    weights = dict(zip(model.signals, model.weights, strict=True))
    assert weights["plan"] == 0.2 and weights["left*crew"] == 0.15
    assert weights["left*workforce"] == 0.0 and weights["reach"] == 0.0
    assert weights["open"] == -0.3  # the fitted model's, kept
