"""The cards revealed at the start of a round, and phase I (the draft), with their legal
actions, checks and handlers (``cathedral.start_round`` sets up the round).  A check refuses an
action the state does not allow; a handler takes the mutable draft and an action already
checked (or taken from the legal actions) and changes the draft, unchecked."""

from __future__ import annotations

from . import data as D
from . import phase2, phase3
from .actions import DISCARD, PASS, TAKE, Action
from .draft import (
    CARD_WORKERS,
    PillarsDraft,
    Table,
    check_discard,
    discard,
    limit,
    note,
    reserve,
    without,
)
from .refusals import refuse
from .state import PillarsState

COST = {c: m.cost for c, m in D.CRAFTSMEN.items()}
"""What each craftsman costs in the draft."""
_UNREVEALED = len(D.RESOURCE_CARDS) - D.RESOURCE_CARDS_REVEALED
"""Resource cards left face down once the pool has its cards."""

# -- round start: the reveals ----------------------------------------------------------------


def reveal_privilege(d: PillarsDraft, a: Action) -> None:
    card = str(a.args[0])
    if d.round < D.ROUNDS:
        d.priv_unseen = without(d.priv_unseen, card)
    d.kingsbridge = (*d.kingsbridge, card)
    if len(d.kingsbridge) == 2:
        d.step = "craftsman"


def reveal_craftsman(d: PillarsDraft, a: Action) -> None:
    card = str(a.args[0])
    d.round_craftsmen = without(d.round_craftsmen, card)
    d.shiring = (*d.shiring, card)
    if len(d.shiring) == 2:
        d.pool = d.round_craftsmen
        d.round_craftsmen = ()
        d.step = "resource"


def reveal_resource(d: PillarsDraft, a: Action) -> None:
    card = str(a.args[0])
    d.res_hidden = without(d.res_hidden, card)
    d.pool = (*d.pool, card)
    if len(d.res_hidden) == _UNREVEALED:
        if d.events_unseen and any("ellen" in s.privileges for s in d.seats):
            d.step = "peek"
        else:
            start_draft(d)


def reveal_peek(d: PillarsDraft, a: Action) -> None:
    phase3.reveal_event_card(d, str(a.args[0]))
    start_draft(d)


# -- phase I: the draft ------------------------------------------------------------------------


def start_draft(d: PillarsDraft) -> None:
    d.step = "draft"
    d.turn = d.start
    if not d.pool:
        end_draft(d)


def legal_draft(t: Table) -> list[Action]:
    s = t.seats[t.turn]
    free = reserve(s)
    gold = s.gold
    out = []
    for card in t.pool:
        need = CARD_WORKERS.get(card)
        if need is not None:
            if need <= free:
                out.append(TAKE[card])
        elif COST[card] <= gold:
            out.append(TAKE[card])
    out.append(PASS)
    return out


def check_draft(state: PillarsState, a: Action) -> None:
    if a == PASS:
        return
    i = state.turn
    s = state.seats[i]
    who = state.setup.players[i].name
    card = str(a.args[0])
    if card not in state.pool:
        raise refuse(
            a, "phase1.pool", f"{D.card_name(card)} is not in the pool", player=i, card=card
        )
    need = CARD_WORKERS.get(card)
    if need is not None:
        free = reserve(s)
        if need > free:
            raise refuse(
                a,
                "phase1.workers",
                f"{who} cannot take {D.card_name(card)}: it needs {need} workers, "
                f"{who} has {free}",
                player=i,
                card=card,
                need=need,
                have=free,
            )
    elif COST[card] > s.gold:
        raise refuse(
            a,
            "phase1.gold",
            f"{who} cannot take the {D.card_name(card)}: it costs {COST[card]} gold, {who} has "
            f"{s.gold}",
            player=i,
            card=card,
            cost=COST[card],
            gold=s.gold,
        )


def do_draft(d: PillarsDraft, a: Action) -> None:
    s = d.s(d.turn)
    if a.verb == "pass":
        s.passed = True
    else:
        card = str(a.args[0])
        d.pool = without(d.pool, card)
        if card in CARD_WORKERS:
            s.cards = (*s.cards, card)
        else:
            cost = COST[card]
            s.gold -= cost
            if s.notes is not None:
                note(s, "gold", -cost, "craftsman", card=card)
            s.craftsmen = (*s.craftsmen, card)
            if len(s.craftsmen) > limit(s):
                d.step = "draft-discard"
                return
    next_draft_turn(d)


def next_draft_turn(d: PillarsDraft) -> None:
    d.step = "draft"
    if d.pool:
        seats = d.seats
        n = len(seats)
        turn = d.turn
        for k in range(1, n + 1):
            i = (turn + k) % n
            if not seats[i].passed:
                d.turn = i
                return
    end_draft(d)


def legal_discard(t: Table) -> list[Action]:
    return [DISCARD[c] for c in t.seats[t.turn].craftsmen]


def check_draft_discard(state: PillarsState, a: Action) -> None:
    check_discard(state, a, "phase1.limit")


def do_draft_discard(d: PillarsDraft, a: Action) -> None:
    discard(d, a)
    next_draft_turn(d)


def end_draft(d: PillarsDraft) -> None:
    for card in d.pool:
        if card in D.CRAFTSMEN:
            d.removed = (*d.removed, card)  # untaken craftsmen leave the game
        else:
            d.res_hidden = (*d.res_hidden, card)  # untaken resource cards wait
    d.pool = ()
    for i in range(d.n):
        s = d.s(i)
        s.wool = reserve(s)
    d.step = "draw"
    d.turn = -1
    if not sum(d.bag):
        phase2.after_builder(d)
