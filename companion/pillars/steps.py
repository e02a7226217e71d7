"""The round of The Pillars of the Earth as a table: each step with who acts, the rulebook's
words, the verbs it takes, its legal actions, its check and its handler (read it like the
rulebook); and the contract's answers both the rules and the simulation path give from it.

Each rule is written once, over the mutable draft (``draft.py``) or anything that reads like a
state (``Table``): the legal actions and chance outcomes read a state or the simulation path's
draft; a handler changes a draft, unchecked.  The rules' ``apply`` runs the step's check on the
immutable state (refusals with rule tags and numbers), then the handler on a draft thawed for
the action, and freezes it; the simulation path (``sim.py``) runs the same handler on its one
long-lived draft."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.engine.core import CHANCE, TERMINAL

from . import cathedral, market, phase1, phase2, phase3
from .actions import Action
from .draft import PillarsDraft, Table
from .state import PillarsState

Handler = Callable[[PillarsDraft, Action], None]
Legal = Callable[[Table], list[Action]]
Check = Callable[[PillarsState, Action], None]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the round: its ``name`` (``state.step``), who acts (chance, player, end),
    the rulebook's words, the verbs it takes, its handler, its legal actions and its check
    (raises the refusal of an action of its verbs the state does not allow; chance outcomes
    are checked by ``chance.refuse_outcome``)."""

    name: str
    who: str
    help: str
    verbs: frozenset[str]
    handler: Handler | None = None
    legal: Legal | None = None
    check: Check | None = None


def _v(*verbs: str) -> frozenset[str]:
    return frozenset(verbs)


# fmt: off
STEP_TABLE: tuple[Step, ...] = (
    Step("privilege", "chance", "Round start: reveal a privilege card onto each Kingsbridge space",
         _v("privilege"), phase1.reveal_privilege),
    Step("craftsman", "chance", "Round start: reveal a craftsman onto each Shiring space",
         _v("craftsman"), phase1.reveal_craftsman),
    Step("resource", "chance", "Round start: reveal 7 of the 9 resource cards into the pool",
         _v("resource"), phase1.reveal_resource),
    Step("peek", "chance", "Round start (Ellen): the coming event is revealed early",
         _v("event"), phase1.reveal_peek),
    Step("draft", "player", "Phase I: take a card from the pool or pass",
         _v("take", "pass"), phase1.do_draft, phase1.legal_draft,
         phase1.check_draft),
    Step("draft-discard", "player", "Phase I: over the craftsman limit, discard one",
         _v("discard"), phase1.do_draft_discard, phase1.legal_discard,
         phase1.check_draft_discard),
    Step("draw", "chance", "Phase II: draw a master builder from the bag",
         _v("draw"), phase2.reveal_builder),
    Step("place", "player", "Phase II: place the drawn builder, or pass",
         _v("place", "remigius", "pass", "redraw"), phase2.do_place, phase2.legal_place,
         phase2.check_place),
    Step("parked", "player", "Phase II: place a passed builder, free",
         _v("place"), phase2.do_parked, phase2.legal_parked,
         phase2.check_parked),
    Step("event", "chance", "Phase III step 1: reveal the event card",
         _v("event"), phase3.reveal_event),
    Step("archbishop", "player", "Step 2: Archbishop's Office: protection or a market cube",
         _v("archbishop"), phase3.do_archbishop, phase3.legal_archbishop,
         phase3.check_archbishop),
    Step("thomas", "player", "Step 1: play Thomas against this negative event?",
         _v("play", "keep"), phase3.do_thomas, phase3.legal_thomas,
         phase3.check_thomas),
    Step("lose", "player", "Step 1 (event): give up one craftsman",
         _v("lose"), phase3.do_lose, phase3.legal_lose, phase3.check_lose),
    Step("boost", "player", "Step 1 (event): one craftsman gets +1 capacity this round",
         _v("boost"), phase3.do_boost, phase3.legal_boost, phase3.check_boost),
    Step("roll", "chance", "Step 9: King's Court: roll the tax die",
         _v("roll"), phase3.reveal_roll),
    Step("taxfree", "player", "Step 9: play the tax exemption this round?",
         _v("play", "keep"), phase3.do_taxfree, phase3.legal_taxfree,
         phase3.check_taxfree),
    Step("shiring-discard", "player", "Step 10: over the craftsman limit, discard one",
         _v("discard"), phase3.do_shiring_discard, phase1.legal_discard,
         phase3.check_shiring_discard),
    Step("market", "player", "Step 12: the market: buy or sell one resource type, or pass",
         _v("buy", "sell", "pass"), market.do_market, market.legal_market,
         market.check_market),
    Step("cathedral", "player", "Step 13: the cathedral: use your craftsmen",
         _v("craft", "convert", "done"), cathedral.do_cathedral, cathedral.legal_cathedral,
         cathedral.check_cathedral),
    Step("return", "player", "Step 13: keep at most 5 resources; give back the rest",
         _v("return"), cathedral.do_return, cathedral.legal_return,
         cathedral.check_return),
    Step("over", "end", "The game is over", _v()),
)
# fmt: on
STEP = {s.name: s for s in STEP_TABLE}
STEPS: tuple[tuple[str, str, str], ...] = tuple((s.name, s.who, s.help) for s in STEP_TABLE)
"""The round as (step, who, what) rows, for the kiosk's help and the tests."""
STEP_HELP = {s.name: s.help for s in STEP_TABLE}
CHANCE_STEPS = frozenset(s.name for s in STEP_TABLE if s.who == "chance")


def current_player(t: Table) -> int:
    """TERMINAL at the end, CHANCE at a chance step, else the seat to decide."""
    if t.over:
        return TERMINAL
    if t.step in CHANCE_STEPS:
        return CHANCE
    return t.turn


def legal_actions(t: Table) -> list[Action]:
    """The decisions of the seat to act, in the step's order (empty at chance and the end)."""
    if t.over:
        return []
    legal = STEP[t.step].legal
    return [] if legal is None else legal(t)
