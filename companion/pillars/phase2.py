"""Phase II: the master builders drawn from the bag, placed or passed, and the start player's
once-a-round re-draw.

The re-draw belongs to the start player.  After a draw the owner of the drawn builder decides
(``current_player``, ``legal_actions``: place, pass, Remigius); *alongside* that decision, and
before it, the start player may send the builder back (``redraw``), which is offered by
:func:`start_player_actions`, never among the owner's own choices, and attributed to the start
player (``PillarsGame.actor``).  No tap is added at the table: when nobody re-draws, the owner
simply decides.
"""

from __future__ import annotations

from . import data as D
from . import phase3
from .actions import PASS, PLACE, REDRAW, REMIGIUS, Action
from .draft import PillarsDraft, Table, add, note, put, without
from .refusals import refuse
from .state import PillarsState

_PLACE = tuple(PLACE[sp.id] for sp in D.SPACES)
_REMIGIUS = tuple(REMIGIUS[sp.id] for sp in D.SPACES)


def _on_free(actions: tuple[Action, ...], spaces: tuple[int, ...]) -> list[Action]:
    """The actions (one per space, in space order) of the spaces no builder holds."""
    return [a for a, who in zip(actions, spaces, strict=True) if who < 0]


def reveal_builder(d: PillarsDraft, a: Action) -> None:
    """A builder of colour ``a.args[0]`` drawn from the bag."""
    colour = a.args[0]
    i = 0
    for p in d.setup.players:
        if p.colour == colour:
            break
        i += 1
    d.bag = add(d.bag, i, -1)
    s = d.s(i)
    if s.walled and s.drawn >= 2:
        # Ruling P6: this colour's third builder is set aside; draw another.
        d.aside = add(d.aside, i, 1)
        after_builder(d)
        return
    s.drawn += 1
    d.drawn = i
    d.turn = i
    d.step = "place"


def legal_place(t: Table) -> list[Action]:
    """Place the drawn builder where it is free, if its owner can pay; while placing costs
    gold, pass too, and with Remigius place it free."""
    cost = D.FIRST_COST - t.decided
    if cost <= 0:
        return _on_free(_PLACE, t.spaces)
    s = t.seats[t.turn]
    out = _on_free(_PLACE, t.spaces) if s.gold >= cost else []
    out.append(PASS)
    if "remigius" in s.privileges:
        out += _on_free(_REMIGIUS, t.spaces)
    return out


def start_player_actions(state: PillarsState) -> list[Action]:
    """The start player's re-draw, when it is open: a builder waits for its owner's decision
    and the start player has not re-drawn this round."""
    if state.step == "place" and not state.redraw_used and not state.over:
        return [REDRAW]
    return []


def legal_parked(t: Table) -> list[Action]:
    return _on_free(_PLACE, t.spaces)


def check_space(state: PillarsState, a: Action) -> None:
    k = D.SPACE_INDEX[str(a.args[0])]
    owner = state.spaces[k]
    if owner >= 0:
        raise refuse(
            a,
            "phase2.space",
            f"{D.space_name(D.SPACES[k].id)} is taken by {state.setup.players[owner].name}'s "
            "builder; each space holds one master builder",
            player=state.turn,
            space=D.SPACES[k].id,
            owner=owner,
        )


def check_place(state: PillarsState, a: Action) -> None:
    i = state.turn
    who = state.setup.players[i].name
    if a == REDRAW:
        if state.redraw_used:
            start = state.start
            raise refuse(
                a,
                "phase2.redraw",
                f"{state.setup.players[start].name}, the start player, has already re-drawn "
                "this round",
                player=start,
            )
        return
    s = state.seats[i]
    cost = max(D.FIRST_COST - state.decided, 0)
    if a == PASS:
        if cost == 0:
            raise refuse(
                a,
                "phase2.pass",
                f"placement is free now, so {who}'s builder must be placed",
                player=i,
            )
        return
    check_space(state, a)
    if a.verb == "remigius":
        if "remigius" not in s.privileges:
            raise refuse(a, "phase2.remigius", f"{who} does not hold Remigius", player=i)
        if cost == 0:
            raise refuse(
                a,
                "phase2.remigius.free",
                "placement is free already; keep Remigius",
                player=i,
            )
    elif cost > s.gold:
        raise refuse(
            a,
            "phase2.cost",
            f"{who} cannot place a builder for {cost} gold: {who} has {s.gold}; "
            f"{who} must pass",
            player=i,
            cost=cost,
            gold=s.gold,
        )


def redraw(d: PillarsDraft) -> None:
    """The start player sends the drawn builder back into the bag; the cost does not move."""
    i = d.turn
    d.redraw_used = True
    d.bag = add(d.bag, i, 1)
    d.s(i).drawn -= 1
    d.drawn = -1
    d.step = "draw"
    d.turn = -1


def do_place(d: PillarsDraft, a: Action) -> None:
    verb = a.verb
    if verb == "redraw":
        redraw(d)
        return
    i = d.turn
    if verb == "pass":
        d.parked = (*d.parked, i)
    else:
        space = str(a.args[0])
        if verb == "remigius":
            s = d.s(i)
            s.privileges = without(s.privileges, "remigius")
            s.spent = (*s.spent, "remigius")
        else:
            cost = D.FIRST_COST - d.decided
            if cost > 0:
                s = d.s(i)
                s.gold -= cost
                if s.notes is not None:
                    note(s, "gold", -cost, "builder", space=space)
        k = D.SPACE_INDEX[space]
        d.spaces = put(d.spaces, k, i)
    d.decided += 1
    d.drawn = -1
    after_builder(d)


def after_builder(d: PillarsDraft) -> None:
    if sum(d.bag):
        d.step = "draw"
        d.turn = -1
    elif d.parked:
        d.step = "parked"
        d.turn = d.parked[0]
    else:
        phase3.start(d)


def check_parked(state: PillarsState, a: Action) -> None:
    check_space(state, a)


def do_parked(d: PillarsDraft, a: Action) -> None:
    k = D.SPACE_INDEX[str(a.args[0])]
    d.spaces = put(d.spaces, k, d.turn)
    d.parked = d.parked[1:]
    after_builder(d)
