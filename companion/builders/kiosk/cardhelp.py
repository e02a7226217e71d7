"""What each card of The Builders does, for a finger held on it (``GameScreen.read``), and
what each choice of the turn costs and gives now (the help panel), in the table's language."""

from __future__ import annotations

from companion.builders import BuildersGame
from companion.builders.cards import BUILDING, OUTPUT, RESOURCES, WAGE, WORKER
from companion.builders.state import BuildersState
from companion.kiosk.api import (
    _,
    card_name,
    resource_name,
    sentences,
)
from companion.kiosk.api import (
    clean_player_name as player_name,
)

from .names import builders_action_help


def amounts(values: tuple[int, ...]) -> str:
    """Resources in words: ``2 stone, 1 wood`` (``nothing`` for none)."""
    parts = [
        _("{n} {res}", n=n, res=resource_name(r))
        for n, r in zip(values, RESOURCES, strict=True)
        if n
    ]
    return _(", ").join(parts) or _("nothing")


def card_help(card: str, state: BuildersState | None = None) -> tuple[str, str]:
    """(title, text): what a building, machine or worker card needs, pays or supplies (and,
    given ``state``, a site's progress).  KeyError for a card the game does not have."""
    name = card_name("builders", card)
    if card in BUILDING:
        c = BUILDING[card]
        if c.is_machine:
            text = _(
                "A machine. To complete it, its site needs {needs}. Completed, it scores {vp} "
                "VP and works for its owner like a worker with no wage, supplying {out}.",
                needs=amounts(c.needs),
                vp=c.vp,
                out=amounts(OUTPUT[card]),
            )
        else:
            text = _(
                "A building. To complete it, its site needs {needs}. Completed, it pays "
                "{coins} coins and scores {vp} VP.",
                needs=amounts(c.needs),
                coins=c.coins,
                vp=c.vp,
            )
        start = _("Starting it costs 1 AP; workers sent to it cost 1 AP for the first this "
                  "turn, 2 for the second, 3 for the third.")
        return name, sentences(text, start, _site(card, state))
    if card in WORKER:
        return name, _(
            "A worker. It supplies {out} to the site it is sent to; each send costs its wage "
            "of {wage} coins and AP (1 for the first worker on a site this turn, 2 for the "
            "second...). Recruiting it costs 1 AP.",
            out=amounts(OUTPUT[card]),
            wage=WAGE[card],
        )
    raise KeyError(f"unknown Builders card {card!r}")


def _site(card: str, state: BuildersState | None) -> str:
    if state is None or state.over:
        return ""
    for seat, p in enumerate(state.players):
        for s in p.sites:
            if s.card == card:
                return _(
                    "{name}'s site has {have} so far.",
                    name=player_name(state.setup, seat),
                    have=amounts(s.supplied),
                )
    return ""


def turn_now(game: BuildersGame, state: BuildersState) -> str:
    """What the turn's choices cost and give now: the player's AP and coins, coins for 1 to 3
    AP, an extra action, and the next send to each site."""
    seat = state.turn_player
    name = player_name(state.setup, seat)
    me = state.players[seat]
    coins = _(", ").join(
        _("{ap} AP: +{n}", ap=k, n=gain)
        for k in (1, 2, 3)
        if (gain := game.coins_for(state, k)) is not None
    ) or _("no more this turn")
    sites = _(", ").join(
        _("{card}: {ap} AP", card=card_name(game.name, s.card), ap=game.send_cost(state, s.card))
        for s in me.sites
    ) or _("no site yet")
    return _(
        "{name} has {ap} AP and {coins} coins. Coins: {take}. An extra action: {price} coins. "
        "The next worker sent: {sites}.",
        name=name,
        ap=state.ap,
        coins=me.coins,
        take=coins,
        price=game.action_price,
        sites=sites,
    )


def turn_help(kind: str) -> str:
    """The rules help of one kind of action (``start``, ``recruit``...)."""
    return builders_action_help(kind)


__all__ = ["amounts", "card_help", "turn_help", "turn_now"]
