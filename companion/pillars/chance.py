"""Chance in Pillars: what each reveal, draw and roll can bring, and why an outcome cannot.

:func:`refuse_outcome` is the one place that says why an outcome is impossible (a card of
another kind or round, a last-round privilege early, a card already out, a colour whose
builders are all drawn, a face the die does not have); ``apply``, ``refuse_card`` and
``outcome_for_card`` all use it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from operator import attrgetter

from companion.engine.core import COLOURS, PlayerSpec
from companion.engine.errors import IllegalAction

from . import data as D
from .actions import Action
from .draft import Table
from .refusals import refuse
from .state import PillarsState

CARD_STEPS: dict[str, tuple[str, Collection[str], str]] = {
    # step: (verb, every card of the kind, what the step reveals)
    "privilege": ("privilege", D.PRIVILEGES, "a privilege card for Kingsbridge"),
    "craftsman": ("craftsman", D.CRAFTSMEN, "a craftsman of this round for Shiring"),
    "resource": ("resource", D.RESOURCE_CARDS, "a resource card for the pool"),
    "event": ("event", D.EVENTS, "the event card"),
    "peek": ("event", D.EVENTS, "the event card (Ellen looks)"),
}
CARD_VERBS = frozenset({"privilege", "craftsman", "resource", "event"})
STEP_VERB = {**{s: v for s, (v, _k, _w) in CARD_STEPS.items()}, "draw": "draw", "roll": "roll"}
DIE_FACES = (2, 3, 4, 5)


_REVEAL: dict[str, dict[str, Action]] = {
    verb: {c: Action(verb, (c,)) for c in cards} for verb, cards, _what in CARD_STEPS.values()
}
"""Every card reveal by verb and card, made once (the search draws chance at every step)."""
_UNIFORM = {
    verb: {n: {c: (a, 1 / n) for c, a in reveal.items()} for n in range(1, len(reveal) + 1)}
    for verb, reveal in _REVEAL.items()
}
"""``_UNIFORM[verb][n][card]``: the outcome of revealing ``card`` from a deck of ``n``."""
_ROLL = tuple((Action("roll", (v,)), D.TAX_DIE.count(v) / 6) for v in DIE_FACES)
_DRAW = {c: Action("draw", (c,)) for c in COLOURS}
_DRAWN = {
    total: {c: [(a, k / total) for k in range(total + 1)] for c, a in _DRAW.items()}
    for total in range(1, len(COLOURS) * D.BUILDERS_EACH + 1)
}
"""``_DRAWN[total][colour][k]``: a builder of ``colour`` drawn, ``k`` of the ``total`` in the
bag being its colour's."""


def privilege_deck(t: Table) -> tuple[str, ...]:
    if t.round == D.ROUNDS:
        return tuple(c for c in D.LAST_ROUND_PRIVILEGES if c not in t.kingsbridge)
    return t.priv_unseen


_DECK: dict[str, Callable[[Table], tuple[str, ...]]] = {
    "privilege": privilege_deck,
    "craftsman": attrgetter("round_craftsmen"),
    "resource": attrgetter("res_hidden"),
    "event": attrgetter("events_unseen"),
    "peek": attrgetter("events_unseen"),
}
"""What each reveal step draws from."""
_DECK_OUTCOMES = {step: (_DECK[step], _UNIFORM[kind[0]]) for step, kind in CARD_STEPS.items()}
"""Per reveal step, its deck and its outcomes by deck size."""


def deck(t: Table) -> tuple[str, ...]:
    """The cards the current reveal may show, each equally likely (empty if none)."""
    get = _DECK.get(t.step)
    return () if get is None else get(t)


def outcomes(t: Table) -> list[tuple[Action, float]]:
    """Each outcome of the chance step ``t`` is at with its probability, in the order of the
    deck, the seats or the die's faces (empty at a decision or at the end)."""
    if t.over:
        return []
    step = t.step
    reveal = _DECK_OUTCOMES.get(step)
    if reveal is not None:
        cards = reveal[0](t)
        return list(map(reveal[1][len(cards)].__getitem__, cards))
    if step == "draw":
        return list(_draws(t.setup.players, t.bag))
    if step == "roll":
        return list(_ROLL)
    return []


_Draws = dict[tuple[int, ...], list[tuple[Action, float]]]
_LAST_TABLE: tuple[tuple[PlayerSpec, ...], _Draws] = ((), {})
"""The last table's players and its draws by bag (a search draws at one table only)."""


def _draws(players: tuple[PlayerSpec, ...], bag: tuple[int, ...]) -> list[tuple[Action, float]]:
    """A builder of each colour with some in the bag, by how many are its colour's (made once
    per bag at the last table)."""
    global _LAST_TABLE
    last = _LAST_TABLE  # read once: the players and their draws always go together
    if last[0] is not players:
        last = _LAST_TABLE = (players, {})
    by_bag = last[1]
    got = by_bag.get(bag)
    if got is None:
        drawn = _DRAWN[sum(bag)]
        got = by_bag[bag] = [drawn[p.colour][k] for p, k in zip(players, bag, strict=True) if k]
    return got


def card_of(action: object) -> str | None:
    """The card a reveal shows, or None for a draw, a roll or a decision."""
    if isinstance(action, Action) and action.verb in CARD_VERBS and len(action.args) == 1:
        return str(action.args[0])
    return None


def refuse_card(state: PillarsState, card: str) -> IllegalAction:
    """Why ``card`` cannot be the card revealed now (see the module)."""
    step = state.step
    if step not in CARD_STEPS or state.over:
        return refuse(
            card,
            "chance.none",
            f"{card} was shown, but no card is being revealed now",
            card=card,
            step=step,
        )
    verb, kind, what = CARD_STEPS[step]
    name = D.card_name(card) if card in D.CRAFTSMEN or card in D.PRIVILEGES else card
    if card not in kind:
        return refuse(
            card,
            "chance.step",
            f"the table is revealing {what}, not {name}",
            step=step,
            card=card,
        )
    if step == "craftsman" and D.CRAFTSMEN[card].round != state.round:
        r = D.CRAFTSMEN[card].round
        return refuse(
            card,
            "chance.round",
            f"{name} is a craftsman of {'the start' if r == 0 else f'round {r}'}; "
            f"this is round {state.round}",
            card=card,
            card_round=r,
            round=state.round,
        )
    if step == "privilege":
        last = card in D.LAST_ROUND_PRIVILEGES
        if last and state.round < D.ROUNDS:
            return refuse(
                card,
                "chance.lastround",
                f"{name} comes out only in round 6; this is round {state.round}",
                card=card,
                round=state.round,
            )
        if not last and state.round == D.ROUNDS:
            return refuse(
                card,
                "chance.round6",
                f"round 6 reveals the two last-round privilege cards, not {name}",
                card=card,
            )
    return refuse(card, "chance.revealed", f"{name} has already been revealed", card=card)


def refuse_outcome(state: PillarsState, action: Action) -> IllegalAction | None:
    """None if ``action`` is a possible outcome of the chance step ``state`` is at, else the
    refusal saying why not."""
    step = state.step
    verb = STEP_VERB[step]
    why = _refuse_outcome(state, action, verb)
    if why is None:
        return None
    # Said of the outcome, the way a record's reader sees it.
    return refuse(action, why.rule, f"{action} cannot happen now: {why.reason}", **why.fields)


def _refuse_outcome(state: PillarsState, action: Action, verb: str) -> IllegalAction | None:
    step = state.step
    if action.verb != verb:
        return refuse(
            action,
            "turn",
            f"the table waits for {_waiting(step)}",
            step=step,
            player=-1,
        )
    if len(action.args) != 1:
        return refuse(action, "action", f"{verb} takes one argument", verb=verb)
    arg = action.args[0]
    if step in CARD_STEPS:
        if isinstance(arg, str) and arg in deck(state):
            return None
        return refuse_card(state, str(arg))
    if step == "draw":
        colours = [p.colour for p in state.setup.players]
        if arg not in colours:
            return refuse(
                action,
                "chance.colour",
                f"no player at this table plays {arg}; the colours are {', '.join(colours)}",
                colour=str(arg),
            )
        i = colours.index(str(arg))
        if not state.bag[i]:
            return refuse(
                action,
                "chance.bag",
                f"all of {state.setup.players[i].name}'s master builders are out of the bag",
                colour=str(arg),
                player=i,
            )
        return None
    if isinstance(arg, int) and not isinstance(arg, bool) and arg in DIE_FACES:
        return None
    return refuse(
        action,
        "chance.die",
        f"the tax die shows 2, 3, 3, 4, 4 or 5, not {str(arg)[:12]}",
        value=arg if isinstance(arg, int) and abs(arg) < 10**6 else -1,
    )


def _waiting(step: str) -> str:
    if step in CARD_STEPS:
        return CARD_STEPS[step][2]
    return "a master builder drawn from the bag" if step == "draw" else "the tax die"
