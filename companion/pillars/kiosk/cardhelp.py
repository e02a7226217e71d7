"""What each card and space of Pillars does, for a finger held on it (``GameScreen.read``),
and what the step on screen asks with the numbers of this moment (the help panel).

The rules are those of ``docs/pillars.md`` and the reference (``rules/pillars.md`` §3, §7);
every text is in the table's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.kiosk.api import _, card_name, n_, sentences
from companion.kiosk.api import clean_player_name as player_name
from companion.pillars import PillarsGame
from companion.pillars import data as D
from companion.pillars.conversion import Conversion
from companion.pillars.state import PillarsState, Seat

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


def space_help(game: PillarsGame, state: PillarsState, space: str) -> tuple[str, str]:
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


@dataclass(frozen=True)
class _Now:
    """The moment the help speaks of: the rules, the state, the players' names and the seat
    deciding (``turn`` None, ``seat`` None and ``name`` empty when none does)."""

    game: PillarsGame
    state: PillarsState
    names: list[str]
    turn: int | None
    name: str

    @classmethod
    def of(cls, game: PillarsGame, state: PillarsState) -> _Now:
        names = [player_name(state.setup, k) for k in range(len(state.setup.players))]
        turn = state.turn if 0 <= state.turn < len(names) else None
        return cls(game, state, names, turn, names[turn] if turn is not None else "")

    @property
    def i(self) -> int:
        """The seat deciding (only asked of a step that has one)."""
        assert self.turn is not None
        return self.turn

    @property
    def seat(self) -> Seat:
        return self.state.seats[self.i]

    @property
    def event(self) -> str:
        state = self.state
        return without_details(card_name("pillars", state.event)) if state.event else ""


def _now_draft(w: _Now) -> str:
    offers = []
    for c in w.state.pool:
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
              w.game.free_workers(w.state, w.i), name=w.name, gold=w.seat.gold,
              offers=_(", ").join(offers) or _("none"))


def _now_draw(w: _Now) -> str:
    return _("{n} master builders are in the bag; the next one drawn costs {cost} gold "
             "to place.", n=sum(w.state.bag), cost=w.game.cost_marker(w.state))


def _now_place(w: _Now) -> str:
    cost = 0 if w.state.step == "parked" else w.game.cost_marker(w.state)
    free = sum(1 for k in w.state.spaces if k < 0)
    return _("{name}'s builder costs {cost} gold now; {name} has {gold} gold. {n} spaces "
             "are free; hold one to read what it gives.", name=w.name, cost=cost,
             gold=w.seat.gold, n=free)


def _now_roll(w: _Now) -> str:
    exempt = [w.names[i] for i in w.game.tax_exempt(w.state)]
    return _("The die decides everyone's tax, in gold; at the King's Court: {names}.",
             names=_(", ").join(exempt) or _("nobody"))


def _now_taxfree(w: _Now) -> str:
    due = w.game.tax_due(w.state)
    return _("The die shows {n}. Tax due: {list}.", n=w.state.tax,
             list=_(", ").join(_("{name} {n} gold", name=w.names[k], n=v)
                               for k, v in sorted(due.items())))


def _now_market(w: _Now) -> str:
    prices = w.game.market_prices()
    rows = _(", ").join(
        _("{res} {price} gold (market {m}, {name} {k})", res=resource_name(r),
          price=prices[r], m=w.state.market[i] if i < 3 else "—", name=w.name,
          k=w.seat.res[i])
        for i, r in enumerate(D.RESOURCES)
    )
    return _("{name} has {gold} gold. One kind a turn, buying or selling: {rows}.",
             name=w.name, gold=w.seat.gold, rows=rows)


def _now_cathedral(w: _Now) -> str:
    uses = w.game.cathedral_uses(w.state, w.i)
    rows = _(", ").join(
        _("{card}: {formula}, {n} left", card=kind_name(D.CRAFTSMEN[c].kind),
          formula=formula(D.CRAFTSMEN[c].kind), n=n)
        for c, n in uses.items()
    )
    best = w.game.best_conversion(w.state)
    return _("{name}'s craftsmen: {rows}. The best conversion scores {vp} VP.",
             name=w.name, rows=rows or _("none"), vp=best_vp(w.game, w.state, best))


def _now_archbishop(w: _Now) -> str:
    stock = _(", ").join(_("{n} {res}", n=w.state.market[r], res=resource_name(D.RESOURCES[r]))
                         for r in range(3))
    return _("{name} chooses: protection from {event}, or 1 cube from the market (it "
             "has {stock}).", name=w.name, event=w.event, stock=stock)


def _now_thomas(w: _Now) -> str:
    return sentences(_("{name} may play Thomas once: protection from {event}.",
                       name=w.name, event=w.event), _event(w.state.event))


def _now_craftsmen(w: _Now) -> str:
    crafts = _(", ").join(card_name("pillars", c) for c in w.seat.craftsmen)
    return _("{name}'s craftsmen: {list}. Hold one to read what it does.", name=w.name,
             list=crafts or _("none"))


def _now_reveal(w: _Now) -> str:
    return _("Tap the card the table revealed, or let the companion draw it; hold a card "
             "to read it.")


_STEPS: dict[str, tuple[bool, Callable[[_Now], str]]] = {
    "draft": (True, _now_draft),
    "draw": (False, _now_draw),
    "place": (True, _now_place),
    "parked": (True, _now_place),
    "roll": (False, _now_roll),
    "taxfree": (False, _now_taxfree),
    "market": (True, _now_market),
    "cathedral": (True, _now_cathedral),
    "return": (True, lambda w: _("{name} keeps at most 5 resources and gives back {n}.",
                                 name=w.name, n=w.game.excess(w.state, w.i))),
    "archbishop": (True, _now_archbishop),
    "thomas": (True, _now_thomas),
    **{step: (True, _now_craftsmen)
       for step in ("lose", "boost", "draft-discard", "shiring-discard")},
    **{step: (False, _now_reveal) for step in ("privilege", "craftsman", "resource", "event",
                                               "peek")},
}
"""What each step asks now: (whether it speaks of the seat deciding, the words)."""


def step_now(game: PillarsGame, state: PillarsState) -> str:
    """What the step on screen asks, with the numbers of this moment: who decides, what each
    choice costs and gives ("" for a step with nothing to add)."""
    entry = _STEPS.get(state.step)
    if entry is None:
        return ""
    needs_seat, words = entry
    now = _Now.of(game, state)
    return "" if needs_seat and now.turn is None else words(now)


def best_vp(game: PillarsGame, state: PillarsState, conversion: Conversion) -> int:
    """The VP the best conversion scores (applied on the rules state, nothing committed)."""
    from companion.pillars.actions import Action, convert_action

    uses = dict(conversion.uses)
    action = convert_action(uses) if any(uses.values()) else Action("done")
    try:
        after = game.apply(state, action)
    except Exception:  # noqa: BLE001 - a help text never takes the screen down
        return 0
    return int(after.seats[state.turn].vp - state.seats[state.turn].vp)


def step_text(game: PillarsGame, state: PillarsState) -> str:
    """The help of the step on screen: what it does (the rules help), then what it asks now
    with this moment's numbers."""
    now = step_now(game, state)
    text = step_help(state.step)
    return text + ("\n" + _("Now: {text}", text=now) if now else "")


__all__ = ["card_help", "space_help", "step_now", "step_text", "step_title", "area_name"]
