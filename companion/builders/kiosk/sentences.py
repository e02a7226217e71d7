"""Builders moves in words: what was done (:func:`action_text`) and what the table does with
the cards (:func:`instruction`), in the current language, from the rules state before the
move.  Card names come from the catalogues, never ids."""

from __future__ import annotations

from companion.builders.actions import (
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
from companion.builders.cards import BUILDING, OUTPUT, WAGE
from companion.builders.constants import ACTION_PRICE, END_VP
from companion.builders.state import BuildersState
from companion.builders.turn import coin_gain
from companion.engine.ledger import Entry
from companion.kiosk.api import _, player_name

from .names import builders_card_name


def who(state: BuildersState, seat: int) -> str:
    """The name of ``seat`` (the Automa past the last seat), in the table's language."""
    if 0 <= seat < len(state.setup.players):
        return player_name(state.setup, seat)
    return _("the Automa")


def _card(card: str) -> str:
    try:
        return builders_card_name(card)
    except KeyError:  # an action built by hand: never show what is not a card's name
        return _("that card")


def coins_text(n: int) -> str:
    """An amount of coins: ``1 coin``, ``6 coins``."""
    return _("1 coin") if n == 1 else _("{n} coins", n=n)


def completes(state: BuildersState, action: Send) -> bool:
    """Whether sending ``action.worker`` finishes ``action.site`` (``state`` before the move)."""
    me = state.players[state.turn_player]
    site = next((s for s in me.sites if s.card == action.site), None)
    if site is None or action.site not in BUILDING or action.worker not in OUTPUT:
        return False
    out = OUTPUT[action.worker]
    need = BUILDING[action.site].needs
    return all(site.supplied[k] + out[k] >= need[k] for k in range(4))


def send_ap(state: BuildersState, action: Send) -> int:
    """The AP a send costs: one more for each worker already sent to that site this turn."""
    return dict(state.sent).get(action.site, 0) + 1


def _gain(state: BuildersState, action: TakeCoins) -> int:
    return coin_gain(state.coin_ap, action.ap, state.cumulative_coins)


def action_text(state: BuildersState, action: Action) -> str:
    """What ``action`` did in ``state``, naming the player: ``Blue recruited Master (3 stone,
    2 wood)``.  ``state`` is the state before the move."""
    name = who(state, state.turn_player)
    if isinstance(action, Start):
        return _("{name} started {card}", name=name, card=_card(action.card))
    if isinstance(action, Recruit):
        return _("{name} recruited {card}", name=name, card=_card(action.card))
    if isinstance(action, Send):
        worker, site = _card(action.worker), _card(action.site)
        wage = WAGE.get(action.worker, 0)
        ap = send_ap(state, action)
        if wage:
            text = _("{name} sent {worker} to {site}: {ap} AP, wage {wage}", name=name,
                     worker=worker, site=site, ap=ap, wage=coins_text(wage))
        else:
            text = _("{name} sent {worker} to {site}: {ap} AP", name=name, worker=worker,
                     site=site, ap=ap)
        if completes(state, action):
            b = BUILDING[action.site]
            if b.coins:
                text += _("; it is complete: +{vp} VP, +{coins}", vp=b.vp,
                          coins=coins_text(b.coins))
            else:
                text += _("; it is complete: +{vp} VP", vp=b.vp)
        return text
    if isinstance(action, TakeCoins):
        return _("{name} took {coins} for {ap} AP", name=name,
                 coins=coins_text(_gain(state, action)), ap=action.ap)
    if isinstance(action, BuyAction):
        return _("{name} bought an extra action for {coins}", name=name,
                 coins=coins_text(ACTION_PRICE))
    if isinstance(action, EndTurn):
        return _("{name} ended the turn", name=name)
    if isinstance(action, Reveal):
        if action.deck == "building":
            return _("The table dealt {card} into the building row", card=_card(action.card))
        return _("The table dealt {card} into the worker row", card=_card(action.card))
    if isinstance(action, ShowNext):
        if action.deck == "building":
            return _("The top of the building deck is {card}", card=_card(action.card))
        return _("The top of the worker deck is {card}", card=_card(action.card))
    return _("{name} was dealt {card}", name=who(state, state.pending_seat),
             card=_card(action.card))


def instruction(state: BuildersState, action: Action) -> str:
    """What the table does with the pieces for ``action`` and what it yields (imperative):
    ``send the Master to the Castle: 2 AP, Blue pays 3 coins to the bank``; ``state`` is the
    state before the move."""
    name = who(state, state.turn_player)
    if isinstance(action, Start):
        if state.building_next is not None:  # the face-up top slides into the row
            return _("take {card} from the building row to {name}'s sites, {next} "
                     "from the deck into the row: 1 AP", card=_card(action.card), name=name,
                     next=_card(state.building_next))
        return _("take {card} from the building row to {name}'s sites: 1 AP",
                 card=_card(action.card), name=name)
    if isinstance(action, Recruit):
        if state.worker_next is not None:
            return _("take {card} from the worker row to {name}'s workers, {next} "
                     "from the deck into the row: 1 AP", card=_card(action.card), name=name,
                     next=_card(state.worker_next))
        return _("take {card} from the worker row to {name}'s workers: 1 AP",
                 card=_card(action.card), name=name)
    if isinstance(action, Send):
        return _send_instruction(state, action, name)
    if isinstance(action, TakeCoins):
        return _("{name} takes {coins} from the bank: {ap} AP", name=name,
                 coins=coins_text(_gain(state, action)), ap=action.ap)
    if isinstance(action, BuyAction):
        return _("{name} pays {coins} to the bank for an extra action: +1 AP", name=name,
                 coins=coins_text(ACTION_PRICE))
    if isinstance(action, EndTurn):
        return _("{name} ends the turn", name=name)
    if isinstance(action, Reveal):
        if action.deck == "building":
            return _("deal {card} into the building row", card=_card(action.card))
        return _("deal {card} into the worker row", card=_card(action.card))
    if isinstance(action, ShowNext):
        if action.deck == "building":
            return _("turn up {card} on the building deck", card=_card(action.card))
        return _("turn up {card} on the worker deck", card=_card(action.card))
    return _("give {card} to {name}", card=_card(action.card),
             name=who(state, state.pending_seat))


def _send_instruction(state: BuildersState, action: Send, name: str) -> str:
    """A worker sent: the AP, the wage paid to the bank, and a completion's VP and coins."""
    worker, site = _card(action.worker), _card(action.site)
    wage = WAGE.get(action.worker, 0)
    ap = send_ap(state, action)
    if wage:
        text = _("send {worker} to {site}: {ap} AP, {name} pays {wage} to the bank",
                 worker=worker, site=site, ap=ap, name=name, wage=coins_text(wage))
    else:
        text = _("send {worker} to {site}: {ap} AP", worker=worker, site=site, ap=ap)
    if not completes(state, action):
        return text
    b = BUILDING[action.site]
    if b.is_machine:
        return text + _("; the machine is complete: it goes with the workers to {name}, "
                        "+{vp} VP", name=name, vp=b.vp)
    if b.coins:
        return text + _("; it is complete: turn it over, the workers go back to {name}, "
                        "+{vp} VP, the bank pays {coins}", name=name, vp=b.vp,
                        coins=coins_text(b.coins))
    return text + _("; it is complete: turn it over, the workers go back to {name}, +{vp} VP",
                    name=name, vp=b.vp)


def cause_text(entry: Entry) -> str:
    """Why a Builders ledger entry happened (its cause tag and detail, ``docs/builders.md``),
    in the current language: ``Castle completed``, ``wage of Master (...)``."""
    cause = entry.cause
    card = _card(str(entry.get("card", "")))
    if cause == "start":
        return _("the start of the game")
    if cause == "apprentice":
        return _("{card} dealt at the start", card=card)
    if cause == "recruit":
        return _("{card} recruited", card=card)
    if cause == "send.wage":
        return _("wage of {card}", card=card)
    if cause == "coins.take":
        return _("coins taken for {ap} AP", ap=entry.get("ap", 0))
    if cause == "action.buy":
        return _("an extra action bought")
    if cause in ("complete.building", "complete.machine", "automa.complete"):
        return _("{card} completed", card=card)
    if cause == "end.coins":
        return _("1 VP per 10 coins at the end: {coins}", coins=coins_text(
            int(entry.get("coins", 0))))
    if cause == "automa.recruit":
        return _("{card} taken by the Automa", card=card)
    if cause == "automa.aside":
        return _("workers set aside with {card}", card=card)
    if cause == "position":
        return _("the position set up by hand")
    return cause


_SAID = {
    Recruit: ("recruit",),
    Send: ("send.wage", "complete.building", "complete.machine"),
    TakeCoins: ("coins.take",),
    BuyAction: ("action.buy",),
    DealApprentice: ("apprentice",),
}
"""The causes a move's sentence already tells (the wage of a worker sent)."""


def ledger_role(state: BuildersState, action: Action, entry: Entry) -> str:
    """``said``, ``action`` or ``rules`` (see ``GameWords.ledger_role``) for a Builders entry:
    the final count of coins and the Automa's moves are the rules'."""
    if entry.cause in _SAID.get(type(action), ()):
        return "said"
    if entry.cause.startswith("automa.") or entry.cause == "end.coins":
        return "rules"
    return "action"


def period_heading(state: BuildersState) -> str:
    """The log's heading for the turn of ``state``: ``Turn 7: Blue``."""
    if state.turn < 1:
        return _("Set-up")
    return _("Turn {n}: {name}", n=state.turn, name=who(state, state.turn_player))


def _end_reason(state: BuildersState) -> str:
    """Why the end of the game was triggered in ``state`` (``state.end`` is set)."""
    best = max(range(len(state.players)), key=lambda k: state.players[k].vp)
    if state.players[best].vp >= END_VP:
        return _("{name} reached {vp} VP", name=who(state, best), vp=state.players[best].vp)
    automa = sum(BUILDING[c].vp for c in state.automa_finished)
    if state.solo and automa >= END_VP:
        return _("{name} reached {vp} VP", name=_("the Automa"), vp=automa)
    return _("no player can finish a site any more")


def aftermath(before: BuildersState, action: Action, after: BuildersState) -> list[str]:
    """What the rules did after ``action`` besides the ledger's changes: the turn that ended
    by itself (no action left), the end of the game triggered or reached."""
    out = []
    if not isinstance(action, EndTurn) and (after.turn != before.turn or after.over):
        out.append(
            _("{name}'s turn ended by itself: no action was left",
              name=who(before, before.turn_player))
        )
    if before.end is None and after.end is not None and not after.over:
        out.append(_("The end is triggered: {why}; the round is played to its end",
                     why=_end_reason(after)))
    if after.over and not before.over:
        out.append(_("The game is over: {why}", why=_end_reason(after)))
    return out
