"""The Pillars step panels of the round's end: the market (buy or sell with quantities), the
cathedral (the craftsmen's uses, the best conversion) and the cubes given back (at most 5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.engine import RulesError
from companion.events import Role
from companion.kiosk.api import (
    _,
    card_name,
    draw_text,
    fits,
    grid,
    icons,
    name_of,
    retained,
    split_h,
    split_v,
    theme,
)
from companion.pillars import data as D
from companion.pillars.actions import Action, convert_action, return_action

from .names import resource_name
from .panel import PillarsPanel
from .words import formula

if TYPE_CHECKING:
    from .screen import PillarsScreen


@dataclass
class MarketChoice:
    """How many cubes of each resource the next buy or sell moves."""

    qty: dict[str, int] = field(default_factory=lambda: {r: 1 for r in D.RESOURCES})


class MarketPanel(PillarsPanel):
    """Buy or sell one resource type, or pass."""

    def __init__(self, screen: PillarsScreen) -> None:
        super().__init__(screen)
        self.choice = MarketChoice()

    def reset(self) -> None:
        self.choice = MarketChoice()

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        i = state.turn
        p = state.setup.players[i]
        slot = D.SPACES[state.market_slot].slot if state.market_slot >= 0 else 0
        body = self.header(
            surface,
            area,
            _(
                "{name} trades (market space {n}): one type each turn, or pass",
                name=name_of(p),
                n=slot,
            ),
            theme.TEXT,
        )
        rows = split_v(body, 1, 1, 1, 1, 1, gap=m.gap)
        legal = {str(a) for a in self.game.legal_actions(state)}
        prices = self.game.market_prices()
        for r, (name, row) in enumerate(zip(D.RESOURCES, rows, strict=False)):
            q = self.choice.qty[name]
            key = (r, prices[name], q, state.market[r] if r < 3 else None, state.seats[i].res[r],
                   str(Action("buy", (name, q))) in legal, str(Action("sell", (name, q))) in legal)
            # (kept a pixel wider: a resource's icon may reach a pixel left of its box)
            retained.panel(self.screen, surface, row.inflate(2, 2), key,
                           partial(self.resource_row, surface, row, r, name, legal),
                           "pillars market row")
        self.screen.button(
            surface,
            rows[4],
            _("Pass: done trading"),
            lambda: self.propose(Action("pass")),
            key="pass",
            role=Role.PASS,
        )

    def resource_row(self, surface: pygame.Surface, row: pygame.Rect, r: int, name: str,
                     legal: set[str]) -> None:
        """One resource: its price and stock, the quantity, Buy (not metal) and Sell."""
        m = self.m
        price = self.game.market_prices()[name]
        # − and + are whole touch targets; the name, Buy and Sell share the rest.
        steppers = m.touch * 2 + m.touch * 4 // 5
        rest = row.width - steppers - 5 * m.gap
        label_r, minus, qty_r, plus, buy_r, sell_r = split_h(  # in fifths of the width
            row, rest * 3, m.touch * 5, m.touch * 4, m.touch * 5, rest, rest, gap=m.gap
        )
        self.resource_label(surface, label_r, r, name, price)
        q = self.choice.qty[name]
        self.stepper(surface, (minus, qty_r, plus), name, q, partial(self.change_qty, name),
                     size=m.text)
        trades = [("buy", _("Buy"), buy_r)] if r < 3 else []
        for verb, label, rect in [*trades, ("sell", _("Sell"), sell_r)]:
            self.screen.action_button(
                surface,
                rect,
                label,
                Action(verb, (name, q)),
                legal,
                key=f"{verb} {name}",
                sub=_("{n} gold", n=q * price),
                short_sub=_("{n} g", n=q * price),
                size=m.small,
            )

    def resource_label(self, surface: pygame.Surface, label_r: pygame.Rect, r: int, name: str,
                       price: int) -> None:
        """A resource's icon, name and price, the market's stock and the player's cubes."""
        m = self.m
        state = self.state
        s = state.seats[state.turn]
        stock = state.market[r] if r < 3 else None
        sq = min(label_r.height - 8, m.px(18))
        icons.resource_icon(
            surface, name, pygame.Rect(label_r.x, label_r.centery - sq // 2, sq, sq), label_r
        )
        info = _("{res} · {price} gold", res=resource_name(name), price=price)
        stock_text = (
            _("market {n}, has {k}", n=stock, k=s.res[r])
            if stock is not None
            else _("has {k}", k=s.res[r])
        )
        t1, t2 = split_v(
            pygame.Rect(label_r.x + sq + 6, label_r.y, label_r.width - sq - 6, label_r.height),
            1,
            1,
        )
        if not fits(surface, info, t1, m.small, lines=1):
            info = resource_name(name) + " · " + _("{n} g", n=price)
        draw_text(surface, info, t1, m.small, theme.TEXT, align="left", lines=1)
        draw_text(surface, stock_text, t2, m.small, theme.MUTED, align="left", lines=1)

    def change_qty(self, name: str, delta: int) -> None:
        self.choice.qty[name] = max(1, min(20, self.choice.qty[name] + delta))


@dataclass
class CathedralChoice:
    """The uses of each craftsman chosen for the cathedral (filled with the best)."""

    uses: dict[str, int] = field(default_factory=dict)


class CathedralPanel(PillarsPanel):
    """The craftsmen's uses at the cathedral, what they make, the best conversion."""

    def __init__(self, screen: PillarsScreen) -> None:
        super().__init__(screen)
        self.choice = CathedralChoice()
        self._result: tuple[object, tuple[tuple[str, int], ...],
                            tuple[int, int, int, bool]] | None = None

    def reset(self) -> None:
        state = self.state
        uses = dict(self.game.best_conversion(state).uses) if state.step == "cathedral" else {}
        self.choice = CathedralChoice(uses)

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        i = state.turn
        p = state.setup.players[i]
        uses_left = self.game.cathedral_uses(state, i)
        usable = list(uses_left)
        vp, gold, left, ok = self.conversion_result()
        summary = (
            _("{name}: +{vp} VP, {gold} gold left", name=name_of(p), vp=vp, gold=gold)
            if ok
            else _("{name}: not possible with these resources", name=name_of(p))
        )
        body = self.header(surface, area, summary, theme.ACCENT if ok else theme.BAD_TEXT)
        foot = pygame.Rect(body.x, body.bottom - m.touch, body.width, m.touch)
        rows_area = pygame.Rect(body.x, body.y, body.width, body.height - m.touch - m.gap)
        n = max(1, len(usable))
        row_h = min(m.touch, (rows_area.height - m.gap * (n - 1)) // n)
        cells = grid(rows_area, len(usable), 1, m.gap, row_h)
        for c, row in zip(usable, cells, strict=True):
            self.craftsman_row(surface, row, c, uses_left[c])
        best_r, ok_r = split_h(foot, 1, 1, gap=m.gap)
        self.screen.button(surface, best_r, _("Best conversion"), self.best, key="best",
                           size=m.small)
        uses = self.choice.uses
        action = convert_action(uses) if any(uses.values()) else Action("done")
        self.screen.button(
            surface,
            ok_r,
            _("Confirm"),
            lambda: self.propose(action),
            key="confirm",
            role=Role.CONFIRM,
            enabled=ok,
            why=lambda: self.reason(action),
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
        )

    def craftsman_row(self, surface: pygame.Surface, row: pygame.Rect, c: str, cap: int) -> None:
        """A craftsman (held: its card), what it makes and its uses left, and its uses; kept
        whole (``retained``) while they are the same."""
        retained.panel(self.screen, surface, row, (c, cap, self.choice.uses.get(c, 0)),
                       partial(self._craftsman_row, surface, row, c, cap), "pillars craftsman")

    def _craftsman_row(self, surface: pygame.Surface, row: pygame.Rect, c: str,
                       cap: int) -> None:
        m = self.m
        card = D.CRAFTSMEN[c]
        name_r, minus, qty_r, plus = split_h(row, 6, 1, 1, 1, gap=m.gap)
        t1, t2 = split_v(name_r, 1, 1)
        read = self.screen.tap_area(name_r, lambda: None, f"craftsman {c}")
        read.extra["hold"] = partial(self.explain_card, c)  # a held name reads the card
        draw_text(
            surface, card_name("pillars", c), t1, m.small, theme.TEXT, align="left", lines=1
        )
        draw_text(
            surface,
            formula(card.kind) + " · " + _("up to {n}", n=cap),
            t2,
            m.px(13),
            theme.MUTED,
            align="left",
            lines=1,
            min_size=m.px(9),
        )
        used = self.choice.uses.get(c, 0)
        self.stepper(surface, (minus, qty_r, plus), c, used, partial(self.change_conv, c, cap=cap),
                     can=(used > 0, used < cap), size=m.text)

    def conversion_result(self) -> tuple[int, int, int, bool]:
        """VP gained, gold after, resources left, and whether the chosen uses are possible
        (worked out once for a state and the uses chosen: every frame asks)."""
        state, uses = self.state, tuple(sorted(self.choice.uses.items()))
        if self._result is None or self._result[0] is not state or self._result[1] != uses:
            self._result = (state, uses, self._conversion_result())
        return self._result[2]

    def _conversion_result(self) -> tuple[int, int, int, bool]:
        state = self.state
        uses = self.choice.uses
        action = convert_action(uses) if any(uses.values()) else Action("done")
        i = state.turn
        try:
            after = self.game.apply(state, action)
        except RulesError:
            return 0, state.seats[i].gold, sum(state.seats[i].res), False
        a, b = state.seats[i], after.seats[i]
        return b.vp - a.vp, b.gold, sum(b.res), True

    def change_conv(self, card: str, delta: int, cap: int = 99) -> None:
        self.choice.uses[card] = max(0, min(cap, self.choice.uses.get(card, 0) + delta))

    def best(self) -> None:
        self.choice.uses = dict(self.game.best_conversion(self.state).uses)


@dataclass
class ReturnChoice:
    """The cubes of each resource chosen to give back."""

    cubes: dict[str, int] = field(default_factory=dict)


class ReturnPanel(PillarsPanel):
    """Keep at most 5 resources: choose the cubes to give back."""

    def __init__(self, screen: PillarsScreen) -> None:
        super().__init__(screen)
        self.choice = ReturnChoice()

    def reset(self) -> None:
        self.choice = ReturnChoice()

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        s = state.seats[state.turn]
        excess = self.game.excess(state, state.turn)
        chosen = sum(self.choice.cubes.values())
        body = self.header(
            surface, area, _("Give back {n} resources ({k} chosen)", n=excess, k=chosen), theme.TEXT
        )
        rows = split_v(body, 1, 1, 1, 1, 1, gap=m.gap)
        for r, (name, row) in enumerate(zip(D.RESOURCES, rows, strict=False)):
            label_r, minus, qty_r, plus = split_h(row, 4, 1, 1, 1, gap=m.gap)
            draw_text(
                surface,
                _("{res}: has {k}", res=resource_name(name), k=s.res[r]),
                label_r,
                m.text,
                theme.TEXT,
                align="left",
                lines=1,
            )
            given = self.choice.cubes.get(name, 0)
            self.stepper(surface, (minus, qty_r, plus), name, given,
                         partial(self.change_ret, name, cap=s.res[r]),
                         can=(given > 0, given < s.res[r]))
        action = return_action(self.choice.cubes)
        self.screen.button(
            surface,
            rows[4],
            _("Confirm"),
            lambda: self.propose(action),
            key="confirm",
            role=Role.CONFIRM,
            enabled=chosen == excess,
            why=lambda: self.reason(action),
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
        )

    def change_ret(self, name: str, delta: int, cap: int = 99) -> None:
        self.choice.cubes[name] = max(0, min(cap, self.choice.cubes.get(name, 0) + delta))


__all__ = ["CathedralChoice", "CathedralPanel", "MarketChoice", "MarketPanel", "ReturnChoice",
           "ReturnPanel"]
