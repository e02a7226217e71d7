"""The companion's visit planner (``companion.kiosk.visit``) is game-neutral: a game brings only
its hook (``Visiting``), as the third game does here, written outside the project."""

from __future__ import annotations

import random
from typing import Any

from companion.engine import CHANCE, get_game
from companion.engine.simulate import sample
from companion.kiosk.visit import MOST, Visit, Visiting, deal_seed, start

GAME = get_game("dicerace")


def deciding() -> Any:
    """A Dice Race with seat 0 to decide (its wind and die revealed)."""
    state = GAME.initial_state(GAME.setup(2))
    for text in ("wind calm", "roll 3"):
        state = GAME.apply_text(state, text)
    assert GAME.current_player(state) == 0
    return state


def same_turn(before: Any, after: Any) -> bool:
    return bool(after.turn == before.turn)


def test_a_visit_deals_the_chance_nodes_inside_it_seeded_by_its_position() -> None:
    """With ``deals``, the cards and dice after a decision are dealt in the plan, each from
    ``deal_seed`` of its index: the same position plans the same outcomes."""
    state = deciding()
    hook = Visiting(same_turn, deals=lambda s: True)
    visit = start(GAME, 7, 12, state, 0, GAME.parse_action("move"), hook)
    assert visit.done  # the other seat's turn: the visit is over
    assert [s.dealt for s in visit.steps] == [False, True, True]  # its wind, its die
    assert visit.decisions == 1
    after = GAME.apply(state, visit.actions[0])
    for k, step in enumerate(visit.steps[1:], 1):
        expected = sample(GAME.chance_outcomes(after), random.Random(deal_seed(7, 12 + k)))
        assert step.before == after and step.action == expected
        after = GAME.apply(after, expected)
    assert visit.at == after and visit.states == [s.before for s in visit.steps] + [after]
    assert visit.afters() == visit.states[1:]
    again = start(GAME, 7, 12, state, 0, GAME.parse_action("move"), hook)
    assert again.actions == visit.actions
    assert visit.about(7, 12, state) and not visit.about(7, 13, state)


def test_without_deals_a_visit_ends_where_the_table_reveals() -> None:
    visit = start(GAME, 1, 2, deciding(), 0, GAME.parse_action("hold"), Visiting(same_turn))
    assert visit.done and [s.dealt for s in visit.steps] == [False]
    assert GAME.current_player(visit.at) == CHANCE


def test_a_visit_always_ends() -> None:
    """A hook that never ends the visit still stops at ``MOST`` decisions."""
    visit: Visit[Any, Any] = Visit(1, 0, deciding(), 0, Visiting(lambda b, a: True,
                                                                  deals=lambda s: True))
    while not visit.done:
        visit.add(GAME, GAME.parse_action("hold"))
    assert visit.decisions == MOST


class _Answered:
    """A worker that has thought out ``text``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def poll(self) -> tuple[str, Any]:
        return ("ok", self.text)

    def cancel(self) -> None:
        pass


def test_a_decision_the_rules_refuse_ends_the_visit_with_the_steps_so_far() -> None:
    state = deciding()
    visit: Visit[Any, Any] = Visit(1, 0, state, 0, Visiting(lambda b, a: True))
    visit.add(GAME, GAME.parse_action("hold"))  # now the other seat's wind is to come
    assert not visit.done
    visit.worker = _Answered("move")  # type: ignore[assignment]
    assert visit.collect(GAME)
    assert visit.done and visit.error is not None and "move" in visit.error
    assert [str(a) for a in visit.actions] == ["hold"]
