"""Chance in The Builders: the cards that can come up, dealing them, and why a card cannot.

Every card the table turns over is a chance step of ``BuildersState.pending``: a hidden card
dealt into a row (``reveal``), the new visible top of a deck (``next``), or an Apprentice dealt
at set-up.  Hidden decks are multisets, so a step's outcomes are the distinct cards still
hidden, weighted by their copies.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.errors import IllegalAction

from .actions import Action, DealApprentice, Reveal, ShowNext
from .cards import APPRENTICES, BUILDING, BUILDINGS, ORDER, WORKER, WORKERS
from .constants import AUTOMA
from .draft import Draft
from .refusals import refuse
from .state import (
    DEAL_APPRENTICE,
    NEXT_BUILDING,
    NEXT_WORKER,
    REVEAL_BUILDING,
    REVEAL_WORKER,
    BuildersState,
)

_ORDER = dict(ORDER)
"""The catalogue order as a plain dict (a sort key in the bots' rollouts)."""

STEPS = (REVEAL_BUILDING, NEXT_BUILDING, DEAL_APPRENTICE, REVEAL_WORKER, NEXT_WORKER)
"""The chance steps, by the verb of their outcomes' notation."""

# Interned outcomes: chance_outcomes hands out these objects instead of building new ones.
OUTCOME: dict[str, dict[str, Action]] = {
    REVEAL_BUILDING: {c.id: Reveal("building", c.id) for c in BUILDINGS},
    NEXT_BUILDING: {c.id: ShowNext("building", c.id) for c in BUILDINGS},
    REVEAL_WORKER: {c.id: Reveal("worker", c.id) for c in WORKERS},
    NEXT_WORKER: {c.id: ShowNext("worker", c.id) for c in WORKERS},
    DEAL_APPRENTICE: {a: DealApprentice(a) for a in APPRENTICES},
}


def label(card: str) -> str:
    """A card as messages show it: its English name (the id itself if it is no card)."""
    c = BUILDING.get(card)
    if c is not None:
        return c.display_en
    w = WORKER.get(card)
    return w.display_en if w is not None else repr(card)


def seat_name(state: BuildersState | Draft, seat: int) -> str:
    """The name at ``seat``; the seat after the last one is the solo variant's Automa."""
    return AUTOMA if seat == len(state.players) else state.setup.players[seat].name


def in_setup(state: BuildersState) -> bool:
    """Whether the set-up's chance steps are still being dealt (no card taken yet).

    A refill always follows a card taken by the player whose turn it is, so during the first
    turn that player then holds a site or a second worker; at set-up nobody does."""
    if state.turn != 1 or not state.pending:
        return False
    return all(not p.sites and len(p.idle) <= 1 for p in state.players)


def hidden(state: BuildersState | Draft, step: str) -> Sequence[str]:
    """The cards a chance step draws from, in catalogue order (copies repeated)."""
    if step == DEAL_APPRENTICE:
        return state.apprentices
    if step in (REVEAL_BUILDING, NEXT_BUILDING):
        return state.building_deck
    return state.worker_deck


def outcomes(state: BuildersState | Draft) -> list[tuple[Action, float]]:
    """Every card that can come next with its probability, in catalogue order."""
    if state.over or not state.pending:
        return []
    step = state.pending[0]
    cards = hidden(state, step)
    table = OUTCOME[step]
    total = len(cards)
    out: list[tuple[Action, float]] = []
    prev: str | None = None
    count = 0
    for card in cards:
        if card == prev:
            count += 1
            continue
        if prev is not None:
            out.append((table[prev], count / total))
        prev, count = card, 1
    if prev is not None:
        out.append((table[prev], count / total))
    return out


def card_of(outcome: object) -> str | None:
    """The card a chance outcome shows, None for a decision."""
    if isinstance(outcome, (Reveal, ShowNext, DealApprentice)):
        return outcome.card
    return None


def place_of(state: BuildersState, card: str) -> tuple[str, int | None]:
    """Where a card that is not hidden lies: (place, owner seat or None).

    Places: ``row``, ``deck top``, ``player`` (with the seat), ``automa``, ``set aside``,
    ``apprentices`` (still to be dealt), ``deck`` (hidden) and ``nowhere``."""
    if card in state.building_row or card in state.worker_row:
        return "row", None
    if card in (state.building_next, state.worker_next):
        return "deck top", None
    for seat, p in enumerate(state.players):
        if (
            card in p.idle
            or card in p.finished
            or any(card == s.card or card in s.workers for s in p.sites)
        ):
            return "player", seat
    if card in state.automa_workers or card in state.automa_finished:
        return "automa", None
    if card in state.set_aside:
        return "set aside", None
    if card in state.apprentices:
        return "apprentices", None
    if card in state.building_deck or card in state.worker_deck:
        return "deck", None
    return "nowhere", None


_PLACE_TEXT = {
    "row": "in a row",
    "deck top": "on top of a deck",
    "automa": f"with {AUTOMA}",
    "set aside": "set aside",
    "apprentices": "among the Apprentices to deal",
    "deck": "hidden in the other deck",
    "nowhere": "nowhere on the table",
}


def refuse_card(state: BuildersState, card: object, action: object | None = None) -> IllegalAction:
    """Why ``card`` is not an outcome of the step the table is waiting for (see
    ``docs/builders.md`` for the tags); ``action`` is quoted as the refused input."""
    if not isinstance(card, str):
        card = repr(card)  # a reading that is no card id at all
    shown = card if action is None else action
    try:
        refuse_card_now(state, card, shown)
    except IllegalAction as exc:
        return exc
    # The card can come up: only the written form was wrong.
    step = state.pending[0]
    return IllegalAction(
        shown,
        f"{label(card)} can come up, but the table is waiting for {step} <card>: "
        f"write {step} {card}",
        "chance.step",
        card=card,
        step=step,
    )


def refuse_card_now(state: BuildersState, card: str, shown: object) -> None:
    """Raise the refusal of ``card`` at this state; return if the card can come up."""
    if state.over:
        refuse(
            shown, f"The game is over ({state.end}); no card is revealed", "over", turn=state.turn
        )
    if not state.pending:
        name = state.setup.players[state.turn_player].name
        refuse(
            shown,
            f"{label(card)} was shown, but no card is being revealed now: it is {name}'s turn",
            "chance.none",
            player=state.turn_player,
            card=card,
        )
    if not isinstance(card, str) or (card not in BUILDING and card not in WORKER):
        refuse(
            shown,
            f"{label(str(card))} is not a card of The Builders",
            "chance.unknown",
            card=str(card),
        )
    step = state.pending[0]
    building_side = step in (REVEAL_BUILDING, NEXT_BUILDING)
    if building_side != (card in BUILDING):
        want = "building" if building_side else "worker"
        refuse(
            shown,
            f"The table is dealing a {want} card ({step}), not {label(card)}",
            "chance.deck",
            card=card,
            step=step,
            deck=want,
        )
    if step == DEAL_APPRENTICE and WORKER[card].rank != "apprentice":
        seat = state.pending_seat
        refuse(
            shown,
            f"Only an Apprentice is dealt to {seat_name(state, seat)} now, not {label(card)}",
            "chance.apprentice",
            card=card,
            player=seat,
        )
    if card not in hidden(state, step):
        place, owner = place_of(state, card)
        where = (
            f"with {state.setup.players[owner].name}" if owner is not None else (_PLACE_TEXT[place])
        )
        possible = len(outcomes(state))
        extra = {} if owner is None else {"owner": owner}
        refuse(
            shown,
            f"{label(card)} cannot come up now: it is {where}; {possible} other cards can",
            "chance.revealed",
            card=card,
            place=place,
            possible=possible,
            **extra,
        )


def outcome_for_card(state: BuildersState, card: str) -> Action:
    """The outcome of the current step that shows ``card``; raises its refusal otherwise.

    Never ambiguous: both copies of the all-round Craftsman are one outcome."""
    if not state.over and state.pending and isinstance(card, str):
        outcome = OUTCOME[state.pending[0]].get(card)
        if outcome is not None and card in hidden(state, state.pending[0]):
            return outcome
    raise refuse_card(state, card)


def check_deal(state: BuildersState, action: Action) -> None:
    """Raise IllegalAction unless ``action`` is an outcome of the chance step ``state`` is
    waiting for, saying why it cannot be."""
    step = state.pending[0]
    card = card_of(action)
    if card is None:
        who = state.pending_seat if step == DEAL_APPRENTICE else state.turn_player
        what = (
            f"an Apprentice to be dealt to {seat_name(state, who)}"
            if step == DEAL_APPRENTICE
            else "a card to be revealed"
        )
        refuse(
            action,
            f"Waiting for {what} ({step} <card>), not for {action}",
            "chance.waiting",
            step=step,
        )
    if OUTCOME[step].get(card) != action or card not in hidden(state, step):
        raise refuse_card(state, card, action)


def deal(d: Draft, card: str) -> None:
    """Deal ``card``, an outcome of the chance step the table is waiting for (unchecked)."""
    step = d.pending.pop(0)
    if step == DEAL_APPRENTICE:
        seat = d.pending_seat
        if seat == len(d.players):  # solo: the Automa's Apprentice
            d.automa_workers = [card]
        else:
            d.players[seat].idle += (card,)
        if d.notes is not None:
            d.note(seat, "workers", 1, "apprentice", card=card)
        d.apprentices.remove(card)
        d.taken(card)
        d.pending_seat = seat + 1 if d.solo else (seat + 1) % len(d.players)
        if not d.pending or d.pending[0] != DEAL_APPRENTICE:
            # B4: the Apprentices nobody was dealt are shuffled into the worker deck.
            deck = d.worker_deck + d.apprentices
            deck.sort(key=_ORDER.__getitem__)
            d.worker_deck = deck
            d.apprentices = []
    elif step == REVEAL_BUILDING:
        d.building_deck.remove(card)
        d.building_row.append(card)
    elif step == NEXT_BUILDING:
        d.building_deck.remove(card)
        d.building_next = card
    elif step == REVEAL_WORKER:
        d.worker_deck.remove(card)
        d.worker_row.append(card)
    else:
        d.worker_deck.remove(card)
        d.worker_next = card


def refill_buildings(d: Draft) -> None:
    """A card left the building row: the visible top slides in and the next one shows."""
    if d.building_next is not None:
        d.building_row.append(d.building_next)
        d.building_next = None
        if d.building_deck:
            d.pending.append(NEXT_BUILDING)
    elif d.building_deck:
        d.pending.append(REVEAL_BUILDING)


def refill_workers(d: Draft) -> None:
    """A card left the worker row: a hidden card is revealed (or the visible top slides in)."""
    if d.worker_next is not None:
        d.worker_row.append(d.worker_next)
        d.worker_next = None
        if d.worker_deck:
            d.pending.append(NEXT_WORKER)
    elif d.worker_deck:
        d.pending.append(NEXT_WORKER if d.show_next_worker else REVEAL_WORKER)


def active_seat(state: BuildersState) -> int | None:
    """The seat the table looks at: the player deciding; at a chance step the player it
    concerns: the player dealt an Apprentice, otherwise the player whose turn it is (the first
    player while the set-up deals the rows, the player whose move emptied a row slot, the
    solo player after the Automa's move).  None for the Automa's Apprentice and once the game
    is over."""
    if state.over:
        return None
    if state.pending and state.pending[0] == DEAL_APPRENTICE:
        seat = state.pending_seat
        return seat if seat < len(state.players) else None
    return state.turn_player
