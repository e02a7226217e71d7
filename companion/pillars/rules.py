"""The rules of The Pillars of the Earth: set-up, the round as a table of steps, the end.

The round is :data:`STEP_TABLE` (``steps.py``), read like the rulebook: each step names who
acts, what it is, which verbs it takes, its legal actions, its check and its handler.  ``apply``
checks the action (well-formed, of this step, possible: the step's check), copies the state
into a mutable draft, runs the step's handler (which runs every automatic step up to the next
decision or chance node) and freezes the draft into the next state.  The state given to
``apply`` is never modified, also when the action is refused.  The simulation path
(``sim.py``) runs the same legal actions, chance outcomes and handlers in place.  The steps
live in ``phase1``, ``phase2``, ``phase3``, ``market`` and ``cathedral`` (modules that call
only forward, so none imports another in a circle); chance in ``chance``; the refusals' tags
in ``refusals``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.core import CHANCE, Game, Setup
from companion.engine.draft import thaw
from companion.engine.errors import IllegalAction, SetupError
from companion.engine.ledger import Entry, Ledger
from companion.engine.summary import Period, Summary

from . import chance, market, phase2, phase3
from . import data as D
from .actions import DONE, REDRAW, Action, canonical, convert_action, parse_action
from .cathedral import hand_uses, mortar, winning_seats
from .conversion import Conversion, best_conversion
from .draft import PillarsDraft, SeatDraft, capacity, reserve, used
from .invariants import holdings, invariants
from .position import build
from .refusals import refuse
from .state import PillarsState, Seat
from .steps import (
    CHANCE_STEPS,
    STEP,
    STEP_HELP,
    STEP_TABLE,
    STEPS,
    Step,
    current_player,
    legal_actions,
)

_START_SEAT = Seat(
    gold=20,
    vp=D.START_VP,
    res=(0, 0, 0, 0),
    owed=(0, 0, 0, 0),
    craftsmen=(),
    workers=D.OWN_WORKERS,
    gray=0,
    gray_next=0,
    cards=(),
    wool=0,
    privileges=(),
    spent=(),
    passed=False,
    drawn=0,
    walled=False,
    walled_next=False,
    protected=False,
    taxfree=False,
    yield_mod=0,
    boost="",
    bought=0,
    sold=0,
    uses=(),
)
"""A seat at the start of the game; each seat's gold and starting craftsmen are its own."""


class PillarsGame(Game[PillarsState, Action]):
    """The Pillars of the Earth (Kosmos 2006 / Mayfair 2007), base game, 2 to 4 players."""

    name = "pillars"
    title = "The Pillars of the Earth"
    min_players = 2
    max_players = 4

    # -- set-up ---------------------------------------------------------------------------
    def initial_state(self, setup: Setup) -> PillarsState:
        """Round 1 before the first reveal; raises SetupError on a bad set-up."""
        self.validate_setup(setup)
        n = len(setup.players)
        seats = []
        for k in range(n):
            s: SeatDraft = thaw(_START_SEAT, SeatDraft)
            s.gold = 20 + (k - setup.start_player) % n  # 20, 21, 22, 23 from the start player
            s.craftsmen = D.START_IDS[setup.players[k].colour]
            seats.append(s.freeze_as(Seat))
        supply = (
            D.CUBES[0] - D.MARKET_STOCK,
            D.CUBES[1] - D.MARKET_STOCK,
            D.CUBES[2] - D.MARKET_STOCK,
            D.CUBES[3] - 1,
        )
        return PillarsState(
            setup=setup,
            round=1,
            step="privilege",
            turn=-1,
            queue=(),
            start=setup.start_player,
            seats=tuple(seats),
            supply=supply,
            market=(D.MARKET_STOCK,) * 3,
            court_metal=1,
            castle_gray=D.GRAY_WORKERS,
            round_craftsmen=D.ROUND_IDS[0],
            shiring=(),
            pool=(),
            res_hidden=D.RESOURCE_CARD_IDS,
            priv_unseen=D.SHUFFLED_PRIVILEGES,
            kingsbridge=(),
            priv_out=(),
            events_unseen=tuple(D.EVENTS),
            event="",
            events_done=(),
            removed=(),
            bag=(D.BUILDERS_EACH,) * n,
            aside=(0,) * n,
            spaces=(-1,) * len(D.SPACES),
            parked=(),
            decided=0,
            drawn=-1,
            redraw_used=False,
            tax=0,
            market_live=(),
            market_slot=-1,
            over=False,
            ledger=Ledger(
                tuple(
                    Entry(1, i, what, amount, "start")
                    for i, s in enumerate(seats)
                    for what, amount in (("vp", s.vp), ("gold", s.gold), ("workers", s.workers))
                )
            ),
        )

    def setup_of(self, state: PillarsState) -> Setup:
        return state.setup

    def position(
        self,
        base: Setup | PillarsState,
        seats: Mapping[int, Mapping[str, Any]] | None = None,
        spaces: Mapping[str, int] | None = None,
        **fields: Any,
    ) -> PillarsState:
        """A position for tests and tutorials: ``base`` (a set-up or a state) with the named
        seat fields, builders on spaces and state fields changed, the bookkeeping derived;
        raises SetupError naming what is impossible (see :mod:`companion.pillars.position`)."""
        return build(self, base, seats or {}, spaces or {}, fields)

    # -- the contract ---------------------------------------------------------------------
    def current_player(self, state: PillarsState) -> int:
        return current_player(state)

    def active_seat(self, state: PillarsState) -> int | None:
        """The seat the table looks at.  A decision: the player deciding (after a draw, the
        drawn builder's owner; the start player's re-draw is offered beside it).  Ellen's early
        look at the event: Ellen's owner.  The bag, the die, the round's cards and the event:
        None (the companion draws and rolls with DRAW and ROLL, and nobody decides there; the
        cards concern everyone).  None once the game is over."""
        if state.over:
            return None
        step = state.step
        if step == "peek":
            owners = [i for i, s in enumerate(state.seats) if "ellen" in s.privileges]
            return owners[0] if owners else None
        if step in CHANCE_STEPS:
            return None
        return state.turn

    def chance_outcomes(self, state: PillarsState) -> list[tuple[Action, float]]:
        return chance.outcomes(state)

    def card_of(self, outcome: Action) -> str | None:
        return chance.card_of(outcome)

    def refuse_card(self, state: PillarsState, card: str) -> IllegalAction:
        return chance.refuse_card(state, card)

    def legal_actions(self, state: PillarsState) -> list[Action]:
        return legal_actions(state)

    def start_player_actions(self, state: PillarsState) -> list[Action]:
        """What the start player may do out of turn now: the once-a-round ``redraw`` while a
        drawn builder waits for its owner (see ``docs/pillars.md``, "The re-draw")."""
        return phase2.start_player_actions(state)

    def out_of_turn(self, state: PillarsState) -> dict[int, list[Action]]:
        """The start player's re-draw (:meth:`start_player_actions`), when it is open."""
        extra = self.start_player_actions(state)
        return {state.start: extra} if extra else {}

    def actor(self, state: PillarsState, action: Action) -> int:
        """The seat that takes ``action`` in ``state``: the start player for ``redraw``, CHANCE
        at a chance step, else the current player (for the record's and the log's words)."""
        if action == REDRAW and state.step == "place":
            return state.start
        return self.current_player(state)

    def log_line(self, state: PillarsState, action: Action) -> str:
        """One English line for a log or a record's reader: who takes ``action`` in ``state``
        and the notation ("Red, the start player: redraw (Blue's builder back into the bag)")."""
        who = self.actor(state, action)
        names = state.setup.names
        if who == CHANCE:
            return f"the table: {action}"
        if who < 0:
            return str(action)
        if action == REDRAW:
            owner = names[state.drawn] if state.drawn >= 0 else "the drawn"
            return f"{names[who]}, the start player: redraw ({owner}'s builder back into the bag)"
        return f"{names[who]}: {action}"

    def apply(self, state: PillarsState, action: Action) -> PillarsState:
        """The next state; raises IllegalAction with the rule tag and the numbers (and
        nothing else, whatever ``action`` holds)."""
        if state.over:
            raise refuse(action, "over", f"{str(action)[:40]}: the game is over")
        step = STEP[state.step]
        if not isinstance(action, Action):
            raise refuse(action, "action", f"{action!r} is not an action of {self.title}", verb="?")
        if not isinstance(action.verb, str) or not isinstance(action.args, tuple):
            raise refuse(action, "action", f"{action!r} is not a well-formed action", verb="?")
        if step.who == "chance":
            why = chance.refuse_outcome(state, action)
            if why is not None:
                raise why
        a = canonical(action)
        if a is None:
            raise refuse(
                action,
                "action",
                f"{action!r} is not a well-formed action in its canonical notation",
                verb=action.verb,
            )
        if a.verb not in step.verbs:
            who = "the table" if state.turn < 0 else state.setup.players[state.turn].name
            raise refuse(
                a,
                "turn",
                f"{a} is not part of this step ({step.help}); it is {who}'s turn",
                step=step.name,
                player=self.current_player(state),
            )
        if step.check is not None:
            step.check(state, a)
        assert step.handler is not None
        d = PillarsDraft(state)
        step.handler(d, a)
        return d.freeze()

    def scores(self, state: PillarsState) -> dict[str, int]:
        return {p.name: s.vp for p, s in zip(state.setup.players, state.seats, strict=True)}

    def winners(self, state: PillarsState) -> list[str]:
        """Most VP, then most gold; still tied: a shared win (ruling P14)."""
        return [state.setup.players[i].name for i in winning_seats(state)]

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        """The notation of ``action`` in its canonical form: a hand-built look-alike (a count
        of ``True`` or ``2.0``, an id in capitals) is written as the action it equals."""
        a = canonical(action)
        return str(a if a is not None else action)

    def period_of(self, state: PillarsState) -> Period:
        """Round 1 to 6, at its step (``place``, ``market``...)."""
        return Period(state.round, "round", phase=state.step, last=D.ROUNDS)

    def money(self, state: PillarsState, seat: int) -> int:
        """Gold."""
        return state.seats[seat].gold

    def invariants(self, state: PillarsState) -> list[str]:
        return invariants(state)

    def ledger(self, state: PillarsState) -> tuple[Entry, ...]:
        """Every change of VP, gold, cubes and workers so far with its cause, in order, from
        the starting amounts on (see ``docs/pillars.md``, "The ledger")."""
        return state.ledger.entries()

    def holdings(self, state: PillarsState) -> dict[tuple[int, str], int]:
        """What the ledger adds up to, by (seat, what): ``vp``, ``gold``, each resource
        (owed cubes included, ruling P16) and ``workers`` (own, gray, and gray taken at
        Shiring Castle for next round); zeros left out."""
        return holdings(state)

    # -- queries: what a screen shows, stated by the rules ---------------------------------
    def workers(self, state: PillarsState, seat: int) -> int:
        """The workers a seat has this round: own (13 with Otto) and gray."""
        s = state.seats[seat]
        return s.workers + s.gray

    def free_workers(self, state: PillarsState, seat: int) -> int:
        """Workers not on a resource card this round (in phase I; afterwards the wool mill)."""
        return reserve(state.seats[seat])

    def uses_left(self, state: PillarsState, seat: int, card: str) -> int:
        """How many more times craftsman ``card`` works this round (capacity, +1 when boosted,
        minus the uses made); 0 for the Tool Maker and Architect, which work by themselves."""
        s = state.seats[seat]
        if card not in s.craftsmen or D.CRAFTSMEN[card].spec.auto:
            return 0
        return max(0, capacity(s, card) - used(s, card))

    def cathedral_uses(self, state: PillarsState, seat: int) -> dict[str, int]:
        """The seat's craftsmen that are used by hand at the cathedral (not the Tool Maker or
        Architect), each with its uses left this round, in the seat's order."""
        s = state.seats[seat]
        return {
            c: self.uses_left(state, seat, c) for c in s.craftsmen if not D.CRAFTSMEN[c].spec.auto
        }

    def cost_marker(self, state: PillarsState) -> int:
        """The cost marker: what placing the next (or the waiting) drawn builder costs."""
        return state.cost

    def placement_cost(self, state: PillarsState, seat: int, space: str) -> int | None:
        """What placing ``seat``'s builder on ``space`` costs now (0 for a passed builder or
        with Remigius offered separately), or None if that builder cannot go there now (no
        builder of the seat waiting, or the space taken)."""
        k = D.SPACE_INDEX.get(space)
        if k is None or state.spaces[k] >= 0 or state.turn != seat:
            return None
        if state.step == "parked":
            return 0
        if state.step != "place":
            return None
        return state.cost

    def market_prices(self) -> dict[str, int]:
        """Gold per cube at the market, buying or selling (metal is only sold)."""
        return dict(zip(D.RESOURCES, D.MARKET_PRICE, strict=True))

    def can_trade(self, state: PillarsState, seat: int) -> dict[str, dict[str, bool]]:
        """Per resource, whether ``seat`` may buy / sell it this round at all (P13, and not
        both ways in one round); counts and gold are checked by the market actions."""
        s = state.seats[seat]
        return {
            name: {"buy": r < 3 and market.can_buy(s, r), "sell": market.can_sell(s, r)}
            for r, name in enumerate(D.RESOURCES)
        }

    def tax_exempt(self, state: PillarsState) -> list[int]:
        """Seats with a builder at the King's Court (exempt from this round's tax)."""
        return sorted(phase3.tax_exempt(state.spaces))

    def tax_due(self, state: PillarsState, roll: int | None = None) -> dict[int, int]:
        """Per seat, the tax for ``roll`` (default: this round's roll): 0 at the King's Court
        or with the exemption played, 2 with Brother Francis (P9), else the roll."""
        value = state.tax if roll is None else roll
        exempt = phase3.tax_exempt(state.spaces)
        return {i: phase3.tax_due(s, i in exempt, value) for i, s in enumerate(state.seats)}

    def production(self, state: PillarsState, seat: int) -> dict[str, int]:
        """The cubes ``seat``'s resource cards and privileges yield at this round's production
        (with this round's event), before the supply is checked."""
        s = state.seats[seat]
        return {D.RESOURCES[r]: phase3.production(s, r) for r in (D.STONE, D.WOOD, D.SAND)}

    def owed(self, state: PillarsState, seat: int) -> dict[str, int]:
        """Cubes of ``seat`` still owed by the general supply (ruling P16: already his)."""
        return {n: k for n, k in zip(D.RESOURCES, state.seats[seat].owed, strict=True) if k}

    def excess(self, state: PillarsState, seat: int) -> int:
        """Cubes ``seat`` holds above the 5 kept after the cathedral (0 if none)."""
        return max(0, sum(state.seats[seat].res) - 5)

    def space_gives(self, state: PillarsState, space: str) -> dict[str, Any]:
        """What a space gives this round: ``card`` (Kingsbridge's privilege, Shiring's
        craftsman), ``vp`` (the Priory), ``metal`` (the first King's Court space while the
        court has its metal), ``gray`` (Shiring Castle); empty when nothing is known yet."""
        sp = D.SPACES[D.SPACE_INDEX[space]]
        slot = sp.slot
        if sp.area == "kingsbridge" and slot <= len(state.kingsbridge):
            return {"card": state.kingsbridge[slot - 1]}
        if sp.area == "shiring" and slot <= len(state.shiring):
            return {"card": state.shiring[slot - 1]}
        if sp.area == "priory":
            return {"vp": D.PRIORY_VP[slot - 1]}
        if sp.area == "court" and slot == 1 and state.court_metal:
            return {"metal": 1}
        if sp.area == "castle":
            return {"gray": min(2, state.castle_gray)}
        return {}

    def reveal_slot(self, state: PillarsState) -> tuple[str, int, int] | None:
        """Where the card being revealed goes: (area, number, of), e.g. ("kingsbridge", 1, 2),
        ("resource", 3, 7), ("event", 1, 1); None when no card is being revealed."""
        step = state.step
        if step == "privilege":
            return ("kingsbridge", len(state.kingsbridge) + 1, 2)
        if step == "craftsman":
            return ("shiring", len(state.shiring) + 1, 2)
        if step == "resource":
            done = len(D.RESOURCE_CARDS) - len(state.res_hidden)
            return ("resource", done + 1, D.RESOURCE_CARDS_REVEALED)
        if step in ("event", "peek"):
            return ("event", 1, 1)
        return None

    def best_conversion(self, state: PillarsState, seat: int | None = None) -> Conversion:
        """The cathedral conversion giving the most VP for ``seat`` (default: the one to act)."""
        i = state.turn if seat is None else seat
        s = state.seats[i]
        return best_conversion(
            [(D.CRAFTSMEN[c], k) for c, k in hand_uses(s)], s.res, s.gold, mortar(s)
        )

    def best_convert_action(self, state: PillarsState) -> Action:
        """The ``convert`` action of the best conversion (``done`` when nothing converts)."""
        conv = self.best_conversion(state)
        return convert_action(conv.uses) if conv.uses else DONE

    # -- summaries ------------------------------------------------------------------------
    def summary(self, state: PillarsState) -> Summary:
        """The whole table; its JSON (``to_json``) has every key listed in
        ``docs/pillars.md``."""
        from .summary import summary

        return summary(self, state)

    def describe(self, state: PillarsState) -> str:
        """A few readable lines: the round and step, then one line per player."""
        info = self.summary(state).to_json()
        head = "Game over" if state.over else f"Round {state.round}: {STEP_HELP[state.step]}"
        lines = [head]
        for p in info["players"]:
            res = ", ".join(f"{k} {v}" for k, v in p["resources"].items() if v) or "no resources"
            crafts = ", ".join(D.card_name(c) for c in p["craftsmen"])
            lines.append(
                f"  {p['name']} ({p['colour']}): {p['vp']} VP, {p['gold']} gold, {res}; {crafts}"
            )
        if state.over:
            lines.append("Won by " + " and ".join(info["winners"]))
        return "\n".join(lines)


__all__ = ["STEPS", "STEP_HELP", "STEP_TABLE", "PillarsGame", "SetupError", "Step"]
