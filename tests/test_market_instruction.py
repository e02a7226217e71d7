"""A market visit told in an order the table can follow: the sales before the purchases they
pay for, so that read from the first word to the last, every step is affordable when it is
read (the table never runs out of gold before the metal is sold)."""

from __future__ import annotations

import random
import re

from companion.engine import CHANCE, get_game
from companion.engine.simulate import sample
from companion.pillars import data as D
from companion.pillars.actions import Action
from companion.pillars.kiosk.sentences import visit_instruction

GAME = get_game("pillars")


def _visits(seeds: int = 30) -> list[tuple[list, list[Action]]]:
    """Market visits of several trades by one seat (the others passing), in seeded games:
    the states before each action and the actions, the purchases first where the rules let
    them (the order the table cannot follow when read as it was played)."""
    found = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = GAME.initial_state(GAME.setup(3))
        while not GAME.is_over(state) and state.step != "market":
            if GAME.current_player(state) == CHANCE:
                action = sample(GAME.chance_outcomes(state), rng)
            else:
                action = rng.choice(GAME.legal_actions(state))
            state = GAME.apply(state, action)
        if GAME.is_over(state):
            continue
        seat = state.turn
        states, actions = [state], []
        for _k in range(6):
            legal = [a for a in GAME.legal_actions(state) if a.verb in ("buy", "sell")]
            if not legal or state.step != "market" or state.turn != seat:
                break
            legal.sort(key=lambda a: (a.verb != "buy", -int(a.args[1])))  # buys first
            action = legal[0] if rng.random() < 0.7 else rng.choice(legal)
            actions.append(action)
            state = GAME.apply(state, action)
            states.append(state)
        if len(actions) >= 2 and {a.verb for a in actions} == {"buy", "sell"}:
            found.append((states, actions))
    return found


def test_a_visit_lists_its_sales_before_its_purchases_and_each_is_affordable() -> None:
    visits = _visits()
    assert len(visits) >= 3, len(visits)
    price = dict(zip(D.RESOURCES, D.MARKET_PRICE, strict=False))
    for states, actions in visits:
        text = visit_instruction(states, actions)
        seat = states[0].turn
        gold = states[0].seats[seat].gold
        steps = re.findall(r"(buys|sells) (\d+) (\w+) for (\d+) gold", text)
        assert len(steps) == len({(a.verb, a.args[0]) for a in actions}), (text, actions)
        verbs = [v for v, *_r in steps]
        assert verbs == sorted(verbs, key=lambda v: v == "buys"), text  # sales first
        for verb, n, res, paid in steps:  # read in order: never more gold than there is
            assert int(paid) == int(n) * price[res]
            gold += int(paid) if verb == "sells" else -int(paid)
            assert gold >= 0, (text, gold)
