"""The Pillars step panels that ask one thing: the card the table revealed (or the virtual
deck's), the draft, the questions of phase III (Archbishop, Thomas, tax exemption, events,
discards) and the tax die."""

from __future__ import annotations

from functools import partial

import pygame

from companion.engine.simulate import sample
from companion.events import Role
from companion.kiosk.api import _, card_name, draw_text, fitted_height, grid, n_, name_of, theme
from companion.pillars import data as D
from companion.pillars.actions import Action
from companion.pillars.state import PillarsState

from .changes import explained
from .names import resource_name
from .panel import PillarsPanel
from .words import (
    action_label,
    step_title,
    without_details,
)


class PickerPanel(PillarsPanel):
    """The cards still possible for the reveal the table is making, and Draw for the table."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        outcomes = [a for a, p in self.game.chance_outcomes(state) if p > 0]
        _area, n, _of = self.game.reveal_slot(state) or ("", 0, 0)
        where = {
            "privilege": _("Privilege card for Kingsbridge space {n}", n=n),
            "craftsman": _("Craftsman for Shiring space {n}", n=n),
            "resource": _("Resource card {n} of 7", n=n),
            "event": _("The event card"),
            "peek": _("The event card (Ellen looks)"),
        }.get(state.step, "")
        body = self.header(surface, area, _("Tap the card the table revealed: {where}",
                                            where=where))
        buttons_r = pygame.Rect(body.x, body.bottom - m.touch, body.width, m.touch)
        cards_r = pygame.Rect(body.x, body.y, body.width, body.height - m.touch - m.gap)
        cards = picker_cards(state, outcomes)
        cols = 2 if len(cards) > 4 else 1
        if len(cards) > 10:
            cols = 3
        cells = grid(cards_r, len(cards), cols, m.gap)
        by_card = {str(a.args[0]): a for a in outcomes}
        for card, cell in zip(cards, cells, strict=True):
            action = by_card.get(card)
            res = D.RESOURCE_CARDS.get(card)
            self.screen.button(
                surface,
                cell,
                card_name(self.game.name, card),
                partial(self.propose, action) if action is not None else lambda: None,
                key=str(action) if action is not None else f"out {card}",
                enabled=action is not None,
                why=partial(self.card_refusal, card),
                size=m.small,
                short=without_details(card_name(self.game.name, card)),
                hold=partial(self.explain_card, card),
                sub=_("{n} workers → {k} {res}", n=res.workers, k=res.yield_,
                      res=resource_name(D.RESOURCES[res.resource])) if res else "",
                short_sub=_("{n} → {k} {res}", n=res.workers, k=res.yield_,
                            res=resource_name(D.RESOURCES[res.resource])) if res else "",
            )
        self.screen.button(
            surface,
            buttons_r,
            _("Draw for the table"),
            self.virtual_one,
            key="virtual draw",
            size=m.text,
        )

    def virtual_one(self) -> None:
        """The companion draws the card for the table: committed before it is shown (as the
        bag and the die), so neither Cancel nor a restart can draw it again."""
        outcome = sample(self.game.chance_outcomes(self.state), self.screen.app.rng)
        before = self.state
        if self.screen.commit(outcome):
            self.screen.show_result(
                _("Drawn for the table: {card}", card=card_name(self.game.name,
                                                                str(outcome.args[0]))),
                explained(self.game, before, self.state),
            )


class DraftPanel(PillarsPanel):
    """Phase I: a card from the pool, or pass."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        s = state.seats[state.turn]
        free = self.game.free_workers(state, state.turn)
        body = self.header(
            surface,
            area,
            n_(
                "{name}: {n} worker free, {gold} gold",
                "{name}: {n} workers free, {gold} gold",
                free,
                name=name_of(state.setup.players[state.turn]),
                gold=s.gold,
            ),
        )
        buttons_r = pygame.Rect(body.x, body.bottom - m.touch, body.width, m.touch)
        cards_r = pygame.Rect(body.x, body.y, body.width, body.height - m.touch - m.gap)
        legal = {str(a) for a in self.game.legal_actions(state)}
        pool = list(state.pool)
        cells = grid(cards_r, len(pool), 3 if len(pool) > 6 else 2, m.gap)
        for card, cell in zip(pool, cells, strict=True):
            action = Action("take", (card,))
            rc = D.RESOURCE_CARDS.get(card)
            short_sub = ""
            if rc is not None:
                res = resource_name(D.RESOURCES[rc.resource])
                sub = _("{n} workers → {k} {res}", n=rc.workers, k=rc.yield_, res=res)
                short_sub = _("{n} → {k} {res}", n=rc.workers, k=rc.yield_, res=res)
            else:
                sub = _("{n} gold", n=D.CRAFTSMEN[card].cost)
            self.screen.action_button(
                surface,
                cell,
                card_name("pillars", card),
                action,
                legal,
                sub=sub,
                size=m.small,
                short=without_details(card_name("pillars", card)),
                short_sub=short_sub,
                hold=partial(self.explain_card, card),
            )
        self.screen.button(
            surface,
            buttons_r,
            _("Pass"),
            lambda: self.propose(Action("pass")),
            key="pass",
            role=Role.PASS,
        )


class ChoicesPanel(PillarsPanel):
    """Archbishop, Thomas, tax exemption, events that ask, and discards."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Archbishop, Thomas, tax exemption, events that ask, and discards."""
        m = self.m
        state = self.state
        actions = self.game.legal_actions(state)
        p = state.setup.players[state.turn]
        question = {
            "archbishop": _(
                "{name}: protection from the event, or a cube from the market?", name=name_of(p)
            ),
            "thomas": _("{name}: play Thomas against this event?", name=name_of(p)),
            "taxfree": _(
                "{name}: the die shows {n}. Play the tax exemption this round?",
                name=name_of(p),
                n=state.tax,
            ),
            "lose": _("{name}: which craftsman leaves the game?", name=name_of(p)),
            "boost": _("{name}: which craftsman works once more this round?", name=name_of(p)),
            "draft-discard": _("{name}: which craftsman is discarded?", name=name_of(p)),
            "shiring-discard": _("{name}: which craftsman is discarded?", name=name_of(p)),
        }.get(state.step, step_title(state.step))
        if state.event and state.step in ("archbishop", "thomas", "lose", "boost"):
            question = card_name("pillars", state.event) + " · " + question
        body = self.header(surface, area, question, theme.TEXT, height=56)
        if state.step == "taxfree":  # what each would pay, and the decider without the card
            due = self.game.tax_due(state)
            names = state.setup.names
            line = " · ".join(
                _("{name} pays {n}", name=names[k], n=due[k]) for k in sorted(due)
            )
            strip_h = fitted_height(surface, line, body.width, m.px(40), m.small)
            strip = pygame.Rect(body.x, body.y, body.width, strip_h)
            draw_text(surface, line, strip, m.small, theme.MUTED, lines=2)
            body = pygame.Rect(body.x, strip.bottom + m.gap, body.width,
                               body.height - strip.height - m.gap)
        cols = 2 if len(actions) > 3 else 1
        cells = grid(
            body,
            len(actions),
            cols,
            m.gap,
            min(
                m.touch * 2, (body.height - m.gap * 3) // max(1, (len(actions) + cols - 1) // cols)
            ),
        )
        for action, cell in zip(actions, cells, strict=True):
            arg = str(action.args[0]) if action.args else ""
            self.screen.button(
                surface,
                cell,
                action_label(action),
                partial(self.propose, action),
                key=str(action),
                size=m.text,
                hold=partial(self.explain_card, arg) if arg in D.CRAFTSMEN else None,
            )


class RollPanel(PillarsPanel):
    """The King's Court: who is exempt, and ROLL."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        exempt = [name_of(self.state.setup.players[i]) for i in self.game.tax_exempt(self.state)]
        text = (
            _("Exempt: {names}", names=", ".join(exempt))
            if exempt
            else _("Nobody is at the King's Court")
        )
        body = self.header(surface, area, text)
        self.big_button(
            surface, body.inflate(-m.px(40), -m.px(40)), _("Roll"), self.screen.roll_die, "roll",
            Role.ROLL,
        )


def picker_cards(state: PillarsState, outcomes: list[Action]) -> list[str]:
    """The cards a picker shows, in a fixed order, so a button keeps its place between the
    picks of one reveal: the cards still possible and those already revealed this round at this
    step (shown, but refused with the reason), in catalogue order."""
    possible = [str(a.args[0]) for a in outcomes]
    shown: tuple[str, ...] = ()
    if state.step == "privilege":
        shown = tuple(state.kingsbridge)
    elif state.step == "craftsman":
        shown = tuple(state.shiring)
    elif state.step == "resource":
        shown = tuple(c for c in state.pool if c in D.RESOURCE_CARDS)
    order = {c: k for k, c in enumerate((*D.PRIVILEGES, *D.EVENTS, *D.RESOURCE_CARDS,
                                         *D.CRAFTSMEN))}
    return sorted(dict.fromkeys((*possible, *(c for c in shown if c))),
                  key=lambda c: order.get(c, len(order)))


__all__ = ["ChoicesPanel", "DraftPanel", "PickerPanel", "RollPanel", "picker_cards"]
