"""A player's turn (``builders.md`` §2, §3; rulings B1, B2, B6, B8) and the solo Automa's (B9).

The rules of a turn are written once, over the mutable :class:`Draft`: :func:`legal_actions`
lists the moves, :func:`play` applies a legal move or chance outcome in place (the steps below
and ``chance.deal``), and :func:`check` raises the refusal of an illegal one, with its tag from
:mod:`.refusals`, before anything is edited.  The engine checks then plays on a thawed copy of
its immutable state; the bots' search plays on its own draft unchecked.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.core import CHANCE, TERMINAL

from .actions import (
    BUY_ACTION,
    END_TURN,
    TAKE_COINS,
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
from .cards import BUILDING, BUILDINGS, MACHINE_IDS, WAGE, WORKER, WORKERS
from .chance import card_of, deal, label, refill_buildings, refill_workers
from .checks import NEEDS, SUPPLY, automa_vp, can_progress
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
from .state import BuildersState, Site

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

_SENDABLE = frozenset(WORKER) | MACHINE_IDS

# The catalogue as plain dicts: the steps run in the bots' rollouts, and a dict reads faster
# than the read-only catalogue.
_WAGE = dict(WAGE)
_BUILDING = dict(BUILDING)

_NEW_SITE = {c.id: Site(c.id) for c in BUILDINGS}
"""Each building's site as it is started (nobody on it yet), interned."""

# Interned actions: legal_actions hands out these objects instead of building new ones.
START = {c.id: Start(c.id) for c in BUILDINGS}
RECRUIT = {c.id: Recruit(c.id) for c in WORKERS}
SEND = {(w, s.id): Send(w, s.id) for w in (*WORKER, *MACHINE_IDS) for s in BUILDINGS}


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


def to_act(state: BuildersState | Draft) -> int:
    """The seat to act, CHANCE while a card is to be revealed, TERMINAL when over."""
    if state.over:
        return TERMINAL
    if state.pending:
        return CHANCE
    return state.turn_player


def legal_actions(state: BuildersState | Draft, sent: Mapping[str, int]) -> list[Action]:
    """The decisions open to the player whose turn it is, ``sent`` the workers sent to each
    site this turn; empty at chance and at the end."""
    if state.over or state.pending:
        return []
    me = state.players[state.turn_player]
    ap = state.ap
    coins = me.coins
    actions: list[Action] = []
    if ap >= 1:  # (maps and loops, not comprehensions: no frame to build)
        actions.extend(map(START.__getitem__, state.building_row))
        actions.extend(map(RECRUIT.__getitem__, dict.fromkeys(state.worker_row)))
        if me.sites and me.idle:
            open_sites = []
            for s in me.sites:
                if sent.get(s.card, 0) < ap:
                    open_sites.append(s.card)
            if open_sites:
                for w in dict.fromkeys(me.idle):
                    if _WAGE[w] <= coins:
                        for card in open_sites:
                            actions.append(SEND[w, card])
        if state.cumulative_coins:
            actions.extend(TAKE_COINS[: min(ap, MAX_COIN_AP - state.coin_ap)])
        else:
            actions.extend(TAKE_COINS[: min(ap, MAX_COIN_AP)])
    if coins >= ACTION_PRICE:
        actions.append(BUY_ACTION)
    actions.append(END_TURN)
    return actions


# -- the refusals -------------------------------------------------------------------------
def check(d: Draft, action: Action) -> None:
    """Raise IllegalAction unless ``action`` (of the right form, ``check_form``) is a decision
    the player whose turn it is can take now; edits nothing."""
    kind = type(action)
    if kind is Send:
        _check_send(d, action)  # type: ignore[arg-type]
    elif kind is Start or kind is Recruit:
        _check_take(d, action)  # type: ignore[arg-type]
    elif kind is TakeCoins:
        _check_coins(d, action)  # type: ignore[arg-type]
    elif kind is BuyAction:
        _check_buy(d, action)
    elif kind is not EndTurn:
        refuse(
            action,
            f"No card is being revealed now: it is {who(d)}'s turn to act",
            "chance.none",
            player=d.turn_player,
            card=card_of(action) or "",
        )


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


def _check_take(d: Draft, action: Start | Recruit) -> None:
    """A card taken from a row (a building started, a worker recruited): it is in the row, and
    taking it costs 1 AP."""
    card = action.card
    start = type(action) is Start
    row, kind = (d.building_row, "building") if start else (d.worker_row, "worker")
    if card not in row:
        refuse(
            action,
            f"{who(d)} cannot {'start' if start else 'recruit'} {label(card)}: it is not in "
            f"the {kind} row ({', '.join(row) or 'empty'})",
            "row.card",
            player=d.turn_player,
            card=card,
            row=kind,
        )
    need_ap(d, action, 1, f"{'Starting' if start else 'Recruiting'} {label(card)}")


def _check_send(d: Draft, action: Send) -> None:
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
    if all(s.card != card for s in p.sites):
        sites = ", ".join(s.card for s in p.sites) or "none"
        refuse(
            action,
            f"{label(card)} is not an open site of {name} (open sites: {sites})",
            "send.site",
            player=seat,
            site=card,
        )
    nth = d.sent.get(card, 0) + 1
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
    wage = _WAGE[worker]
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


def _check_coins(d: Draft, action: TakeCoins) -> None:
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
    need_ap(d, action, k, f"Taking {coin_gain(d.coin_ap, k, d.cumulative_coins)} coins")


def _check_buy(d: Draft, action: Action) -> None:
    coins = d.players[d.turn_player].coins
    if coins < ACTION_PRICE:
        refuse(
            action,
            f"An extra action costs {ACTION_PRICE} coins; {who(d)} has {coins}",
            "buy.coins",
            player=d.turn_player,
            cost=ACTION_PRICE,
            coins=coins,
        )


# -- the steps ----------------------------------------------------------------------------
def play(d: Draft, action: Action) -> None:
    """Apply a legal action or chance outcome in place (unchecked: see :func:`check` and
    ``chance.check_deal``); the turn ends by itself when nothing but ``end turn`` is left."""
    if d.pending:
        deal(d, action.card)  # type: ignore[union-attr]
    else:
        kind = type(action)  # the most frequent first
        if kind is TakeCoins:
            take_coins(d, action.ap)  # type: ignore[union-attr]
        elif kind is Send:
            send(d, action.worker, action.site)  # type: ignore[union-attr]
        elif kind is BuyAction:
            buy(d)
        elif kind is Start:
            start(d, action.card)  # type: ignore[union-attr]
        elif kind is Recruit:
            recruit(d, action.card)  # type: ignore[union-attr]
        else:
            end_turn(d)
            return
    if not d.pending and not d.over and not can_act(d):
        end_turn(d)


def start(d: Draft, card: str) -> None:
    """Start ``card`` from the building row (1 AP); the row is refilled."""
    d.ap -= 1
    d.players[d.turn_player].sites += (_NEW_SITE[card],)
    d.building_row.remove(card)
    refill_buildings(d)


def recruit(d: Draft, card: str) -> None:
    """Recruit ``card`` from the worker row (1 AP); the row is refilled."""
    d.ap -= 1
    d.players[d.turn_player].idle += (card,)
    if d.notes is not None:
        d.note(d.turn_player, "workers", 1, "recruit", card=card)
    d.worker_row.remove(card)
    d.taken(card)
    refill_workers(d)


def send(d: Draft, worker: str, card: str) -> None:
    """Send ``worker`` to the open site ``card``: n AP for the n-th this turn, and the wage; a
    site whose needs are all met is finished at once (3.1, 3.2)."""
    seat = d.turn_player
    p = d.players[seat]
    sites = p.sites
    index = 0
    while sites[index].card != card:
        index += 1
    site = sites[index]
    sent = d.sent
    nth = sent.get(card, 0) + 1
    d.ap -= nth
    sent[card] = nth
    o = SUPPLY[worker]
    had = site.supplied
    s0, s1, s2, s3 = had[0] + o[0], had[1] + o[1], had[2] + o[2], had[3] + o[3]
    idle = p.idle
    i = idle.index(worker)
    idle = idle[:i] + idle[i + 1 :]
    wage = _WAGE[worker]
    p.coins -= wage
    notes = d.notes is not None
    if wage and notes:
        d.note(seat, "coins", -wage, "send.wage", card=worker, site=card)
    n = NEEDS[card]
    if s0 >= n[0] and s1 >= n[1] and s2 >= n[2] and s3 >= n[3]:
        # Finished: workers go home, the card pays, a machine joins the workers.
        b = _BUILDING[card]
        machine = b.kind == "machine"
        p.idle = idle + site.workers + ((worker, card) if machine else (worker,))
        p.coins += b.coins
        p.sites = sites[:index] + sites[index + 1 :]
        p.finished += (card,)
        p.vp += b.vp
        if notes:
            cause = "complete.machine" if machine else "complete.building"
            d.note(seat, "coins", b.coins, cause, card=card)
            d.note(seat, "vp", b.vp, cause, card=card)
            if machine:
                d.note(seat, "workers", 1, cause, card=card)
    else:
        p.idle = idle
        worked = Site(card, (*site.workers, worker), (s0, s1, s2, s3))
        p.sites = sites[:index] + (worked,) + sites[index + 1 :]


def coin_gain(spent: int, ap: int, cumulative: bool) -> int:
    """Coins for ``ap`` more AP on coins when ``spent`` AP went to coins this turn (B1)."""
    if cumulative:
        return COIN_TABLE[spent + ap] - COIN_TABLE[spent]
    return COIN_TABLE[ap]


def take_coins(d: Draft, k: int) -> None:
    """Take coins with ``k`` AP (B1)."""
    gain = coin_gain(d.coin_ap, k, d.cumulative_coins)
    d.ap -= k
    d.coin_ap += k
    d.players[d.turn_player].coins += gain
    if d.notes is not None:
        d.note(d.turn_player, "coins", gain, "coins.take", ap=k)


def buy(d: Draft) -> None:
    """Buy one more AP for 5 coins."""
    d.ap += 1
    d.players[d.turn_player].coins -= ACTION_PRICE
    if d.notes is not None:
        d.note(d.turn_player, "coins", -ACTION_PRICE, "action.buy")


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
    if not p.sites or not any(_WAGE[w] <= p.coins for w in p.idle):
        return False
    sent = d.sent
    return any(sent.get(s.card, 0) < ap for s in p.sites)


def end_turn(d: Draft) -> None:
    """Close the turn: end trigger (3.3, B6), then the next player or the end."""
    n = len(d.players)
    seat = d.turn_player
    if d.end is None:
        vp = d.players[seat].vp
        if vp >= END_VP:
            d.end = f"{who(d)} reached {vp} VP"
        elif not can_progress(d, d.shared()):
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
    d.sent = {}
    d.coin_ap = 0
    if last:
        d.over = True
        if d.notes is not None:
            # Final score: 1 VP per full 10 coins (3.4); the coins stay for the tie-break.
            for i, p in enumerate(d.players):
                d.note(i, "vp", p.coins // 10, "end.coins", coins=p.coins)
        d.pending = []
        d.ap = 0
        return
    d.turn_player = (seat + 1) % n
    d.ap = START_AP
    d.turn += 1


def automa_turn(d: Draft) -> None:
    """The solo opponent's turn (B9, fan variant): take the dearest worker in the row, the
    rightmost on a tie; holding 3 workers, complete the row's building with the most VP,
    the rightmost on a tie, and set it aside with the 3 oldest workers.  No coins."""
    row = d.worker_row
    if row:
        i = max(range(len(row)), key=lambda k: (_WAGE[row[k]], k))
        card = row.pop(i)
        d.automa_workers.append(card)
        if d.notes is not None:
            d.note(len(d.players), "workers", 1, "automa.recruit", card=card)
        d.taken(card)
        refill_workers(d)
    brow = d.building_row
    if len(d.automa_workers) >= AUTOMA_HAND and brow:
        i = max(range(len(brow)), key=lambda k: (_BUILDING[brow[k]].vp, k))
        card = brow.pop(i)
        d.automa_finished.append(card)
        if d.notes is not None:
            automa = len(d.players)
            d.note(automa, "vp", _BUILDING[card].vp, "automa.complete", card=card)
            d.note(automa, "workers", -AUTOMA_HAND, "automa.aside", card=card)
        d.set_aside += d.automa_workers[:AUTOMA_HAND]
        del d.automa_workers[:AUTOMA_HAND]
        refill_buildings(d)
