"""A player's turn (``builders.md`` §2, §3; rulings B1, B2, B6, B8) and the solo Automa's (B9).

Each decision edits a :class:`Draft`; a refusal raises IllegalAction with its tag from
:mod:`.refusals` before anything is edited (the draft is thrown away anyway).
"""

from __future__ import annotations

from .actions import (
    Action,
    BuyAction,
    DealApprentice,
    EndTurn,
    Recruit,
    Reveal,
    Send,
    ShowNext,
    Start,
    TakeCoins,
)
from .cards import BUILDING, MACHINE_IDS, OUTPUT, WAGE, WORKER
from .chance import label, refill_buildings, refill_workers, without
from .checks import NEEDS, automa_vp, can_progress, covers
from .constants import (
    ACTION_PRICE,
    AUTOMA,
    AUTOMA_HAND,
    COIN_TABLE,
    END_VP,
    MAX_COIN_AP,
    START_AP,
)
from .draft import Draft
from .refusals import refuse
from .state import PlayerState, Site

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

_SENDABLE = frozenset(WORKER) | MACHINE_IDS


def ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


_BUILDING_KIND = "a building or machine"


def check_form(action: object) -> None:
    """Raise IllegalAction unless ``action`` is an action of the game with cards of the right
    kind and numbers in range: an action built by hand is refused, never applied."""
    kind = type(action)
    if kind is Start:
        _known(action, "start", action.card, BUILDING, _BUILDING_KIND)  # type: ignore[attr-defined]
    elif kind is Recruit:
        _known(action, "recruit", action.card, WORKER, "a worker")  # type: ignore[attr-defined]
    elif kind is Send:
        _known(action, "send", action.worker, _SENDABLE, "a worker or machine")  # type: ignore[attr-defined]
        _known(action, "send … to", action.site, BUILDING, _BUILDING_KIND)  # type: ignore[attr-defined]
    elif kind is TakeCoins:
        ap = action.ap  # type: ignore[attr-defined]
        if type(ap) is not int or not 1 <= ap <= MAX_COIN_AP:
            refuse(
                action,
                f"Taking coins spends 1, 2 or 3 AP, not {_number(ap)}",
                "action.ap",
                ap=_number(ap),
            )
    elif kind is Reveal or kind is ShowNext:
        deck = action.deck  # type: ignore[attr-defined]
        if deck != "building" and deck != "worker":
            refuse(
                action,
                f"A card comes from the building or the worker deck, not from {deck!r}",
                "action.card",
                card=str(deck),
            )
        verb = f"{'reveal' if kind is Reveal else 'next'} {deck}"
        if deck == "building":
            _known(action, verb, action.card, BUILDING, _BUILDING_KIND)  # type: ignore[attr-defined]
        else:
            _known(action, verb, action.card, WORKER, "a worker")  # type: ignore[attr-defined]
    elif kind is DealApprentice:
        _known(action, "deal apprentice", action.card, WORKER, "an Apprentice")  # type: ignore[attr-defined]
    elif kind is not BuyAction and kind is not EndTurn:
        refuse(
            action,
            f"An object of type {kind.__name__} is not a move of The Builders",
            "action.unknown",
            kind=kind.__name__,
        )


def _number(value: object) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**9:
        return value
    return str(value)


def _known(action: object, verb: str, card: object, ids: object, what: str) -> None:
    if type(card) is not str or card not in ids:  # type: ignore[operator]
        refuse(
            action,
            f"{verb} takes {what}, and {label(str(card))} is not one",
            "action.card",
            card=str(card),
        )


def who(d: Draft) -> str:
    return d.setup.players[d.turn_player].name


def need_ap(d: Draft, action: Action, cost: int, doing: str) -> None:
    """Raise turn.ap unless the player has ``cost`` AP left."""
    if d.ap < cost:
        coins = d.players[d.turn_player].coins
        hint = "" if coins < ACTION_PRICE else f" (an extra action costs {ACTION_PRICE} coins)"
        refuse(
            action,
            f"{doing} costs {cost} AP; {who(d)} has {d.ap}{hint}",
            "turn.ap",
            player=d.turn_player,
            cost=cost,
            ap=d.ap,
            coins=coins,
        )


def start(d: Draft, action: Start) -> None:
    card = action.card
    if card not in d.building_row:
        refuse(
            action,
            f"{who(d)} cannot start {label(card)}: it is not in the building row "
            f"({', '.join(d.building_row) or 'empty'})",
            "row.card",
            player=d.turn_player,
            card=card,
            row="building",
        )
    need_ap(d, action, 1, f"Starting {label(card)}")
    d.ap -= 1
    p = d.players[d.turn_player]
    d.players[d.turn_player] = PlayerState(
        p.coins, p.idle, p.sites + (Site(card),), p.finished, p.vp
    )
    d.building_row = without(d.building_row, card)
    refill_buildings(d)


def recruit(d: Draft, action: Recruit) -> None:
    card = action.card
    if card not in d.worker_row:
        refuse(
            action,
            f"{who(d)} cannot recruit {label(card)}: it is not in the worker row "
            f"({', '.join(d.worker_row) or 'empty'})",
            "row.card",
            player=d.turn_player,
            card=card,
            row="worker",
        )
    need_ap(d, action, 1, f"Recruiting {label(card)}")
    d.ap -= 1
    p = d.players[d.turn_player]
    d.players[d.turn_player] = PlayerState(p.coins, p.idle + (card,), p.sites, p.finished, p.vp)
    d.worker_row = without(d.worker_row, card)
    refill_workers(d)


def send(d: Draft, action: Send) -> None:
    seat = d.turn_player
    p = d.players[seat]
    worker, card = action.worker, action.site
    name = who(d)
    if worker not in p.idle:
        if worker in MACHINE_IDS and worker not in p.finished:
            refuse(
                action,
                f"{label(worker)} is not a finished machine of {name}",
                "send.machine",
                player=seat,
                card=worker,
            )
        free = ", ".join(p.idle) or "none"
        refuse(
            action,
            f"{name} has no idle {label(worker)} (idle: {free})",
            "send.worker",
            player=seat,
            card=worker,
        )
    index = -1
    for i, s in enumerate(p.sites):
        if s.card == card:
            index = i
            break
    if index < 0:
        sites = ", ".join(s.card for s in p.sites) or "none"
        refuse(
            action,
            f"{label(card)} is not an open site of {name} (open sites: {sites})",
            "send.site",
            player=seat,
            site=card,
        )
    sent = dict(d.sent)
    nth = sent.get(card, 0) + 1
    if d.ap < nth:
        doing = (
            f"Sending the {ordinal(nth)} worker to {label(card)} this turn"
            if nth > 1
            else f"Sending a worker to {label(card)}"
        )
        hint = "" if p.coins < ACTION_PRICE else f" (an extra action costs {ACTION_PRICE} coins)"
        refuse(
            action,
            f"{doing} costs {nth} AP; {name} has {d.ap}{hint}",
            "send.ap",
            player=seat,
            site=card,
            cost=nth,
            ap=d.ap,
            coins=p.coins,
        )
    wage = WAGE[worker]
    if wage > p.coins:
        refuse(
            action,
            f"Sending {label(worker)} costs a wage of {wage} coins; {name} has {p.coins}",
            "send.wage",
            player=seat,
            card=worker,
            cost=wage,
            coins=p.coins,
        )
    d.ap -= nth
    sent[card] = nth
    d.sent = tuple(sent.items())
    site = p.sites[index]
    o = OUTPUT[worker]
    had = site.supplied
    supplied = (had[0] + o[0], had[1] + o[1], had[2] + o[2], had[3] + o[3])
    idle = without(p.idle, worker)
    coins = p.coins - wage
    if covers(supplied, NEEDS[card]):
        # Finished: workers go home, the card pays, a machine joins the workers (3.1, 3.2).
        b = BUILDING[card]
        idle += site.workers + (worker,)
        if b.kind == "machine":
            idle += (card,)
        d.players[seat] = PlayerState(
            coins + b.coins,
            idle,
            p.sites[:index] + p.sites[index + 1 :],
            p.finished + (card,),
            p.vp + b.vp,
        )
    else:
        worked = Site(card, site.workers + (worker,), supplied)
        d.players[seat] = PlayerState(
            coins, idle, p.sites[:index] + (worked,) + p.sites[index + 1 :], p.finished, p.vp
        )


def coin_gain(spent: int, ap: int, cumulative: bool) -> int:
    """Coins for ``ap`` more AP on coins when ``spent`` AP went to coins this turn (B1)."""
    if cumulative:
        return COIN_TABLE[spent + ap] - COIN_TABLE[spent]
    return COIN_TABLE[ap]


def take_coins(d: Draft, action: TakeCoins) -> None:
    k = action.ap
    if d.cumulative_coins and d.coin_ap + k > MAX_COIN_AP:
        refuse(
            action,
            f"{who(d)} has spent {d.coin_ap} AP on coins this turn; with cumulative coins "
            f"a turn converts at most 3 AP (6 coins), so {k} more is too many",
            "coins.ap",
            player=d.turn_player,
            ap=k,
            spent=d.coin_ap,
        )
    gain = coin_gain(d.coin_ap, k, d.cumulative_coins)
    need_ap(d, action, k, f"Taking {gain} coins")
    d.ap -= k
    d.coin_ap += k
    p = d.players[d.turn_player]
    d.players[d.turn_player] = PlayerState(p.coins + gain, p.idle, p.sites, p.finished, p.vp)


def buy(d: Draft, action: Action) -> None:
    p = d.players[d.turn_player]
    if p.coins < ACTION_PRICE:
        refuse(
            action,
            f"An extra action costs {ACTION_PRICE} coins; {who(d)} has {p.coins}",
            "buy.coins",
            player=d.turn_player,
            cost=ACTION_PRICE,
            coins=p.coins,
        )
    d.ap += 1
    d.players[d.turn_player] = PlayerState(
        p.coins - ACTION_PRICE, p.idle, p.sites, p.finished, p.vp
    )


def can_act(d: Draft) -> bool:
    """Whether the player has any move besides ``end turn``."""
    p = d.players[d.turn_player]
    if p.coins >= ACTION_PRICE:
        return True
    ap = d.ap
    if ap == 0:
        return False
    if not d.cumulative_coins or d.coin_ap < MAX_COIN_AP or d.building_row or d.worker_row:
        return True
    if not p.sites or not any(WAGE[w] <= p.coins for w in p.idle):
        return False
    sent = dict(d.sent)
    return any(sent.get(s.card, 0) < ap for s in p.sites)


def end_turn(d: Draft) -> None:
    """Close the turn: end trigger (3.3, B6), then the next player or the end."""
    n = len(d.players)
    seat = d.turn_player
    if d.end is None:
        if d.players[seat].vp >= END_VP:
            d.end = f"{who(d)} reached {d.players[seat].vp} VP"
        elif not can_progress(d):
            d.end = "no player can finish a site any more"
    if d.solo:
        # The Automa plays after every turn, and once more after the player reached 17.
        automa_turn(d)
        vp = automa_vp(d)
        if d.end is None and vp >= END_VP:
            d.end = f"{AUTOMA} reached {vp} VP"
        last = d.end is not None
    else:
        last = d.end is not None and seat == (d.setup.start_player - 1) % n
    if last:
        d.over = True
        d.pending = ()
        d.ap = 0
        d.sent = ()
        d.coin_ap = 0
        return
    d.turn_player = (seat + 1) % n
    d.ap = START_AP
    d.sent = ()
    d.coin_ap = 0
    d.turn += 1


def automa_turn(d: Draft) -> None:
    """The solo opponent's turn (B9, fan variant): take the dearest worker in the row, the
    rightmost on a tie; holding 3 workers, complete the row's building with the most VP,
    the rightmost on a tie, and set it aside with the 3 oldest workers.  No coins."""
    row = d.worker_row
    if row:
        i = max(range(len(row)), key=lambda k: (WAGE[row[k]], k))
        d.automa_workers += (row[i],)
        d.worker_row = row[:i] + row[i + 1 :]
        refill_workers(d)
    brow = d.building_row
    if len(d.automa_workers) >= AUTOMA_HAND and brow:
        i = max(range(len(brow)), key=lambda k: (BUILDING[brow[k]].vp, k))
        d.automa_finished += (brow[i],)
        d.set_aside += d.automa_workers[:AUTOMA_HAND]
        d.automa_workers = d.automa_workers[AUTOMA_HAND:]
        d.building_row = brow[:i] + brow[i + 1 :]
        refill_buildings(d)
