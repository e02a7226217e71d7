"""The cards revealed at the start of a round, and phase I (the draft), with their legal
actions and handlers (``cathedral.start_round`` sets up the round).  Handlers take the mutable
draft and an action already checked to be well-formed and of this step's kind."""

from __future__ import annotations

from . import data as D
from . import phase2, phase3
from .actions import DISCARD, PASS, TAKE, Action
from .draft import PillarsDraft, discard, limit, reserve, without
from .refusals import refuse
from .state import PillarsState

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
    if len(d.res_hidden) == len(D.RESOURCE_CARDS) - D.RESOURCE_CARDS_REVEALED:
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


def legal_draft(state: PillarsState) -> list[Action]:
    s = state.seats[state.turn]
    out = []
    free = reserve(s)
    for card in state.pool:
        rc = D.RESOURCE_CARDS.get(card)
        if rc is not None:
            if rc.workers <= free:
                out.append(TAKE[card])
        elif D.CRAFTSMEN[card].cost <= s.gold:
            out.append(TAKE[card])
    out.append(PASS)
    return out


def do_draft(d: PillarsDraft, a: Action) -> None:
    i = d.turn
    s = d.s(i)
    who = d.name(i)
    if a == PASS:
        s.passed = True
        next_draft_turn(d)
        return
    card = str(a.args[0])
    if card not in d.pool:
        raise refuse(
            a, "phase1.pool", f"{D.card_name(card)} is not in the pool", player=i, card=card
        )
    rc = D.RESOURCE_CARDS.get(card)
    if rc is not None:
        free = reserve(s)
        if rc.workers > free:
            raise refuse(
                a,
                "phase1.workers",
                f"{who} cannot take {D.card_name(card)}: it needs {rc.workers} workers, "
                f"{who} has {free}",
                player=i,
                card=card,
                need=rc.workers,
                have=free,
            )
        s.cards = (*s.cards, card)
        d.pool = without(d.pool, card)
        next_draft_turn(d)
        return
    cm = D.CRAFTSMEN[card]
    if cm.cost > s.gold:
        raise refuse(
            a,
            "phase1.gold",
            f"{who} cannot take the {D.card_name(card)}: it costs {cm.cost} gold, {who} has "
            f"{s.gold}",
            player=i,
            card=card,
            cost=cm.cost,
            gold=s.gold,
        )
    s.gold -= cm.cost
    s.craftsmen = (*s.craftsmen, card)
    d.pool = without(d.pool, card)
    if len(s.craftsmen) > limit(s):
        d.step = "draft-discard"
    else:
        next_draft_turn(d)


def next_draft_turn(d: PillarsDraft) -> None:
    d.step = "draft"
    if d.pool:
        n = d.n
        for k in range(1, n + 1):
            i = (d.turn + k) % n
            if not d.s(i).passed:
                d.turn = i
                return
    end_draft(d)


def legal_discard(state: PillarsState) -> list[Action]:
    return [DISCARD[c] for c in state.seats[state.turn].craftsmen]


def do_draft_discard(d: PillarsDraft, a: Action) -> None:
    discard(d, a, "phase1.limit")
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
