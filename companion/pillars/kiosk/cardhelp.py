"""What each card and space of Pillars does, for a finger held on it (``GameScreen.read``),
and what the step on screen asks with the numbers of this moment (the help panel).

The rules are those of ``docs/pillars.md`` and the reference (``rules/pillars.md`` §3, §7);
every text is in the table's language."""

from __future__ import annotations

from typing import Any

from companion.kiosk.breakdown import player_name, sentences
from companion.kiosk.i18n import _, n_
from companion.kiosk.words import card_name
from companion.pillars import data as D

from .names import area_name, kind_name, resource_name, space_name, step_help
from .words import formula, step_title, without_details


def _privilege(card: str) -> str:
    return {
        "madonna": _("Taken: its owner scores 3 VP at once."),
        "richard": _("Kept for the game: 1 more sand at every production (step 8)."),
        "tom": _("Kept for the game: 1 more stone at every production (step 7)."),
        "aliena": _("Kept for the game: 1 more wood at every production (step 6)."),
        "wollmesse": _("Taken: its owner gets 8 gold at once (at most 30 gold)."),
        "toledo": _("Taken: its owner gets 2 metal at once."),
        "jack": _("Kept for the game: its owner may keep 6 craftsmen instead of 5."),
        "otto": _("Kept for the game: the black worker joins its owner's workers (13)."),
        "francis": _("Kept for the game: its owner's tax is always 2 gold, whatever the die "
                     "shows (none at the King's Court)."),
        "priorphilip": _("Kept for the game: 1 more VP for each of its owner's master "
                         "builders in the Priory."),
        "ellen": _("Kept for the game: at the start of every round its owner alone looks at "
                   "the coming event."),
        "steuerfreiheit": _("Once: after the tax die is rolled, its owner may pay no tax that "
                            "round."),
        "thomas": _("Once: after an event is revealed, its owner may be protected from it."),
        "remigius": _("Once: one of its owner's drawn master builders is placed free."),
        "vollendung": _("Round 6: its owner gets 1 stone and 1 wood at once."),
        "feierlichkeiten": _("Round 6: its owner gets 1 metal at once."),
    }.get(card, "")


def _event(card: str) -> str:
    return {
        "koenig": _("Good: every player gets 5 gold (at most 30)."),
        "william": _("Bad: every player pays 4 gold; gold short costs 1 VP per 2."),
        "richardevent": _("Good: every player gets 1 metal."),
        "konflikt": _("Bad: every player loses 2 VP (never below 0)."),
        "stadtmauer": _("Bad: every player has only 2 master builders next round."),
        "philip": _("Good: every player gets 1 gold per worker in the wool mill, at most 5."),
        "kaltewinter": _("Bad: each resource card yields 1 cube less this round."),
        "freiwilligen": _("Good: each resource card yields 1 cube more this round."),
        "teile": _("Bad: every player gives up one craftsman of their choice (out of the "
                   "game)."),
        "erzbischof": _("Good: every player may have one craftsman work once more this round "
                        "(not the Organ Builder or the Bellmaker)."),
    }.get(card, "")


def _craftsman(card: str) -> str:
    c = D.CRAFTSMEN[card]
    spec = c.spec
    if spec.auto:
        if spec.needs_metal:
            works = _("Works by itself once a round at the cathedral, when its owner has "
                      "metal: +{gold} gold.", gold=spec.gold)
        else:
            works = _("Works by itself once a round at the cathedral: +{vp} VP.", vp=spec.vp)
    else:
        works = _("At the cathedral, up to {n} times a round: {formula}.", n=c.capacity,
                  formula=formula(c.kind))
    if spec.needs_mortar:
        works = sentences(works, _("It scores only if its owner has a Mortar Mixer."))
    hire = (
        _("A starting craftsman.")
        if c.round == 0
        else _("Comes out in round {r}; hiring costs {n} gold.", r=c.round, n=c.cost)
    )
    return sentences(hire, works)


def _resource_card(card: str) -> str:
    rc = D.RESOURCE_CARDS[card]
    return _(
        "Phase I: take it with {n} workers. At production it yields {k} {res}; the workers "
        "come back after the round.",
        n=rc.workers,
        k=rc.yield_,
        res=resource_name(D.RESOURCES[rc.resource]),
    )


def card_help(card: str) -> tuple[str, str]:
    """(title, text): what ``card`` (a privilege, an event, a craftsman or a resource card)
    does.  KeyError for a card the game does not have."""
    name = card_name("pillars", card)
    if card in D.CRAFTSMEN:
        return name, _craftsman(card)
    if card in D.RESOURCE_CARDS:
        return name, _resource_card(card)
    if card in D.PRIVILEGE_NAMES:
        return without_details(name), _privilege(card)
    if card in D.EVENT_NAMES:
        return without_details(name), _event(card)
    raise KeyError(f"unknown Pillars card {card!r}")


def _area(area: str) -> str:
    return {
        "archbishop": _("Phase III, step 2: protection from this round's bad event, or 1 "
                        "stone, wood or sand from the market."),
        "kingsbridge": _("Step 4: the privilege card on this space."),
        "priory": _("Step 5: 2 VP on space 1, 1 VP on space 2."),
        "court": _("Step 9: no tax this round; space 1 also takes the court's metal."),
        "shiring": _("Step 10: the craftsman on this space, free (no hiring cost)."),
        "castle": _("Step 11: 2 gray workers for the next round."),
        "market": _("Step 12: trade at the market, space 1 first; others may only trade "
                    "after."),
        "cathedral": _("Step 14: its owner becomes the next start player."),
    }[area]


def space_help(game: Any, state: Any, space: str) -> tuple[str, str]:
    """(title, text): what ``space`` gives, what it costs now and who is on it."""
    sp = D.SPACES[D.SPACE_INDEX[space]]
    parts = [_area(sp.area)]  # sentences
    gives = game.space_gives(state, space)
    card = gives.get("card")
    if card:
        title, text = card_help(str(card))
        parts.append(_("This round: {card}. {text}", card=title, text=text))
    who = state.spaces[D.SPACE_INDEX[space]]
    if who >= 0:
        parts.append(_("{name}'s master builder is here.",
                       name=player_name(state.setup, who)))
    elif state.step in ("place", "parked") and state.turn >= 0:
        cost = game.placement_cost(state, state.turn, space)
        if cost is not None:
            parts.append(_("Placing {name}'s builder here costs {n} gold now.",
                           name=player_name(state.setup, state.turn), n=cost))
    return space_name(space), sentences(*parts)


def step_now(game: Any, state: Any) -> str:
    """What the step on screen asks, with the numbers of this moment: who decides, what each
    choice costs and gives."""
    step = state.step
    names = [player_name(state.setup, k) for k in range(len(state.setup.players))]
    turn = state.turn if 0 <= state.turn < len(names) else None
    name = names[turn] if turn is not None else ""
    s = state.seats[turn] if turn is not None else None
    if step == "draft" and s is not None:
        offers = []
        for c in state.pool:
            if c in D.RESOURCE_CARDS:
                rc = D.RESOURCE_CARDS[c]
                offers.append(_("{card}: {n} workers for {k} {res}", card=card_name("pillars", c),
                                n=rc.workers, k=rc.yield_,
                                res=resource_name(D.RESOURCES[rc.resource])))
            else:
                offers.append(_("{card}: {n} gold", card=card_name("pillars", c),
                                n=D.CRAFTSMEN[c].cost))
        return n_("{name} has {n} worker free and {gold} gold. In the pool: {offers}.",
                  "{name} has {n} workers free and {gold} gold. In the pool: {offers}.",
                  game.free_workers(state, turn), name=name, gold=s.gold,
                  offers=_(", ").join(offers) or _("none"))
    if step == "draw":
        return _("{n} master builders are in the bag; the next one drawn costs {cost} gold "
                 "to place.", n=sum(state.bag), cost=game.cost_marker(state))
    if step in ("place", "parked") and s is not None:
        cost = 0 if step == "parked" else game.cost_marker(state)
        free = sum(1 for k in state.spaces if k < 0)
        return _("{name}'s builder costs {cost} gold now; {name} has {gold} gold. {n} spaces "
                 "are free; hold one to read what it gives.", name=name, cost=cost,
                 gold=s.gold, n=free)
    if step == "roll":
        exempt = [names[i] for i in game.tax_exempt(state)]
        due = _("The die decides everyone's tax, in gold; at the King's Court: {names}.",
                names=_(", ").join(exempt) or _("nobody"))
        return due
    if step == "taxfree":
        due = game.tax_due(state)
        return _("The die shows {n}. Tax due: {list}.", n=state.tax,
                 list=_(", ").join(_("{name} {n} gold", name=names[k], n=v)
                                   for k, v in sorted(due.items())))
    if step == "market" and s is not None:
        prices = game.market_prices()
        rows = _(", ").join(
            _("{res} {price} gold (market {m}, {name} {k})", res=resource_name(r),
              price=prices[r], m=state.market[i] if i < 3 else "—", name=name, k=s.res[i])
            for i, r in enumerate(D.RESOURCES)
        )
        return _("{name} has {gold} gold. One kind a turn, buying or selling: {rows}.",
                 name=name, gold=s.gold, rows=rows)
    if step == "cathedral" and s is not None:
        uses = game.cathedral_uses(state, turn)
        rows = _(", ").join(
            _("{card}: {formula}, {n} left", card=kind_name(D.CRAFTSMEN[c].kind),
              formula=formula(D.CRAFTSMEN[c].kind), n=n)
            for c, n in uses.items()
        )
        best = game.best_conversion(state)
        return _("{name}'s craftsmen: {rows}. The best conversion scores {vp} VP.",
                 name=name, rows=rows or _("none"), vp=best_vp(game, state, best))
    if step == "return" and s is not None:
        return _("{name} keeps at most 5 resources and gives back {n}.", name=name,
                 n=game.excess(state, turn))
    event = without_details(card_name("pillars", state.event)) if state.event else ""
    if step == "archbishop" and s is not None:
        stock = _(", ").join(_("{n} {res}", n=state.market[r], res=resource_name(D.RESOURCES[r]))
                             for r in range(3))
        return _("{name} chooses: protection from {event}, or 1 cube from the market (it "
                 "has {stock}).", name=name, event=event, stock=stock)
    if step == "thomas" and s is not None:
        return sentences(_("{name} may play Thomas once: protection from {event}.",
                           name=name, event=event), _event(state.event))
    if step in ("lose", "boost", "draft-discard", "shiring-discard") and s is not None:
        crafts = _(", ").join(card_name("pillars", c) for c in s.craftsmen)
        return _("{name}'s craftsmen: {list}. Hold one to read what it does.", name=name,
                 list=crafts or _("none"))
    if step in ("privilege", "craftsman", "resource", "event", "peek"):
        return _("Tap the card the table revealed, or let the companion draw it; hold a card "
                 "to read it.")
    return ""


def best_vp(game: Any, state: Any, conversion: Any) -> int:
    """The VP the best conversion scores (applied on the rules state, nothing committed)."""
    from companion.pillars.actions import Action, convert_action

    uses = dict(conversion.uses)
    action = convert_action(uses) if any(uses.values()) else Action("done")
    try:
        after = game.apply(state, action)
    except Exception:  # noqa: BLE001 - a help text never takes the screen down
        return 0
    return int(after.seats[state.turn].vp - state.seats[state.turn].vp)


def step_text(game: Any, state: Any) -> str:
    """The help of the step on screen: what it does (the rules help), then what it asks now
    with this moment's numbers."""
    now = step_now(game, state)
    text = step_help(state.step)
    return text + ("\n" + _("Now: {text}", text=now) if now else "")


__all__ = ["card_help", "space_help", "step_now", "step_text", "step_title", "area_name"]
