"""The Pillars' simulation path: a mutable state for search and random playouts.

``apply`` in the rules copies the state into a mutable draft, checks the action, runs the step's
handler and freezes the draft into the next state.  The simulation path keeps one draft for the
whole game instead: every seat stays thawed (``seats`` and the draft's mutable seats are the
same objects, so the steps read what they wrote), each action runs the step's own handler from
the rules (``STEP_TABLE``) with no check before it and no freeze after it, and :meth:`freeze`
builds the rules' :class:`~companion.pillars.state.PillarsState` on demand.  The hottest lists
(the draft, placing, the market, chance) are mirrored here without building action lists in the
random playout.  ``companion.engine.sim.verified_game`` compares it with the rules at every step
(``tests/test_sim_pillars.py``).
"""

from __future__ import annotations

import random
from typing import Any

from companion.engine.core import CHANCE, TERMINAL, Setup
from companion.engine.draft import thaw

from . import data as D
from .actions import Action
from .chance import CARD_STEPS, DIE_FACES, outcomes, privilege_deck
from .draft import PillarsDraft, SeatDraft
from .state import PillarsState, Seat
from .steps import CHANCE_STEPS, STEP

_HANDLER = {s.name: s.handler for s in STEP.values()}
_LEGAL = {s.name: s.legal for s in STEP.values()}
_CARD_VERB = {step: verb for step, (verb, _kind, _what) in CARD_STEPS.items()}
_OUTCOME: dict[tuple[str, Any], Action] = {}


def _outcome(verb: str, arg: Any) -> Action:
    """The interned chance outcome ``verb arg`` (equal to the rules' own)."""
    a = _OUTCOME.get((verb, arg))
    if a is None:
        a = _OUTCOME[verb, arg] = Action(verb, (arg,))
    return a


_ROLL = [(_outcome("roll", v), D.TAX_DIE.count(v) / 6) for v in DIE_FACES]


class PillarsSim(PillarsDraft):
    """A whole table, mutable, for search (see :class:`companion.engine.sim.SimState`)."""

    __slots__ = ()

    @classmethod
    def thaw(cls, state: PillarsState) -> PillarsSim:
        """A mutable copy of the rules' state ``state``."""
        m: PillarsSim = thaw(state, cls)
        mut = [thaw(s, SeatDraft) for s in state.seats]
        m._mut = mut  # type: ignore[assignment]
        m.seats = mut  # type: ignore[assignment]
        return m

    def freeze(self) -> PillarsState:
        """The rules' immutable state equal to this one."""
        out = object.__new__(PillarsState)
        out.__dict__.update(self.__dict__)
        out.__dict__["seats"] = tuple([m.freeze_as(Seat) for m in self.seats])  # type: ignore[attr-defined]
        return out

    def copy(self) -> PillarsSim:
        """An independent copy."""
        m: PillarsSim = thaw(self, PillarsSim)
        mut = [thaw(s, SeatDraft) for s in self.seats]
        m._mut = mut  # type: ignore[assignment]
        m.seats = mut  # type: ignore[assignment]
        return m

    @property
    def cost(self) -> int:
        """The cost marker, as ``PillarsState.cost``."""
        if self.drawn < 0 and not any(self.bag):
            return 0
        return max(D.FIRST_COST - self.decided, 0)

    # -- the contract -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.step in CHANCE_STEPS:
            return CHANCE
        return self.turn

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        legal = _LEGAL[self.step]
        return [] if legal is None else legal(self)  # type: ignore[arg-type]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.over:
            return []
        return outcomes(self)  # type: ignore[arg-type]

    def apply(self, action: Action) -> None:
        """Apply a legal action or chance outcome in place (unchecked): the step's handler."""
        handler = _HANDLER[self.step]
        assert handler is not None
        handler(self, action)

    # -- the fused random playout -----------------------------------------------------------
    def random_playout(self, rng: random.Random, max_actions: int = 100_000) -> list[Any]:
        """Play to the end exactly as ``random_game`` does with ``rng`` (same draws, same
        choices)."""
        actions: list[Any] = []
        append = actions.append
        rand = rng.random
        below = getattr(rng, "_randbelow", rng.randrange)  # what rng.choice draws with
        handlers = _HANDLER
        legal = _LEGAL
        for _ in range(max_actions):
            if self.over:
                return actions
            step = self.step
            if step in CHANCE_STEPS:
                action = self._sample(step, rand())
            else:
                options = legal[step](self)  # type: ignore[misc, arg-type]
                action = options[below(len(options))]
            handlers[step](self, action)  # type: ignore[misc]
            append(action)
        raise RuntimeError(f"pillars: no end after {max_actions} actions")

    def _sample(self, step: str, x: float) -> Action:
        """``sample(self.chance_outcomes(), rng)`` for a draw ``x`` of ``rng.random()``."""
        if step == "draw":
            bag = self.bag
            total = sum(bag)
            acc = 0.0
            last = -1
            for i, k in enumerate(bag):
                if k:
                    acc += k / total
                    last = i
                    if x < acc:
                        break
            return _outcome("draw", self.setup.players[last].colour)
        if step == "roll":
            acc = 0.0
            for outcome, p in _ROLL:
                acc += p
                if x < acc:
                    return outcome
            return _ROLL[-1][0]
        if step == "privilege":
            cards = privilege_deck(self)  # type: ignore[arg-type]
        elif step == "craftsman":
            cards = self.round_craftsmen
        elif step == "resource":
            cards = self.res_hidden
        else:
            cards = self.events_unseen
        p = 1 / len(cards)
        acc = 0.0
        for card in cards:
            acc += p
            if x < acc:
                return _outcome(_CARD_VERB[step], card)
        return _outcome(_CARD_VERB[step], cards[-1])


class PillarsSimulator:
    """The Pillars' :class:`companion.engine.sim.Simulator`."""

    def start(self, setup: Setup) -> PillarsSim:
        from .rules import PillarsGame

        return PillarsSim.thaw(PillarsGame().initial_state(setup))

    def thaw(self, state: PillarsState) -> PillarsSim:
        return PillarsSim.thaw(state)


SIMULATOR = PillarsSimulator()
"""The simulation path ``companion.engine.sim.simulator`` finds for this game."""
