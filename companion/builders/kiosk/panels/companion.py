"""The companion's turn, beside the board: everything the table does for it, step by step, and
one confirmation for the whole turn (or for the steps up to a card the table must tap in).
Its first decision comes from the kiosk's companion (thinking, a failure and deciding by hand
are shown as for every game); the panel thinks out the rest of the turn (``plan.TurnPlan``,
the kiosk's visit with The Builders' hook)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from companion.events import Role
from companion.kiosk.api import (
    Companion,
    Input,
    Press,
    _,
    draw_piece,
    draw_text,
    fitting,
    name_of,
    pages,
    panel,
    text_height,
    theme,
    titled,
)

from ..plan import PlanLine, TurnPlan, plan_lines
from .base import Panel


@dataclass
class TurnView:
    """The page of steps shown (a long turn on a small screen takes more than one) and how
    many pages the last drawing had."""

    page: int = 0
    pages: int = 1

    @property
    def last(self) -> bool:
        return self.page >= self.pages - 1

if TYPE_CHECKING:
    from ..screen import BuildersScreen


class CompanionTurnPanel(Panel):
    """The companion's whole turn as one instruction (``plan``: None until its first decision
    is ready, or when no companion's seat decides)."""

    def __init__(self, screen: BuildersScreen) -> None:
        super().__init__(screen)
        self.plan: TurnPlan | None = None
        self.view = TurnView()

    # -- the plan ------------------------------------------------------------------------------
    def due(self) -> bool:
        """Whether the panel is on the table: the companion's seat decides, or the hint is
        open."""
        if self.screen.hint_open and self.app.companion.hint is not None:
            return True
        session = self.screen.session
        return Companion.seat_to_decide(session) is not None and not self.app.companion.by_hand(
            session)

    def _about(self, plan: TurnPlan) -> bool:
        session = self.screen.session
        return plan.about(session.id, len(session.playthrough.actions), session.state)

    def _standing(self) -> bool:
        """Whether the plan still holds: about the position on the table, on the companion's
        first decision (dropped, failed or handed to a person: it does not)."""
        session = self.screen.session
        companion = self.app.companion
        return (self.plan is not None and self._about(self.plan)
                and companion.ready(session) is not None and not companion.by_hand(session))

    def update(self) -> bool:
        """Start, extend or drop the plan as the table and the companion move on (the next
        decision thought out off the main loop); True when what the panel shows changed."""
        changed = self._sync()
        plan = self.plan
        if plan is None:
            return changed
        strength = self.screen.session.companions[plan.seat]
        return plan.advance(self.game, strength, self.app.companion.mode) or changed

    def _sync(self) -> bool:
        """Drop a plan that no longer holds, start one on the companion's first decision;
        True when that changed the plan."""
        session = self.screen.session
        companion = self.app.companion
        seat = Companion.seat_to_decide(session)
        changed = False
        first = self.screen.companion_decision()
        if self.plan is not None and (seat is None or first is None or not self._about(self.plan)
                                      or companion.by_hand(session)):
            self.plan.cancel()
            self.plan = None
            self.view = TurnView()
            changed = True
        if seat is None or first is None:
            return changed
        if self.plan is None:
            self.plan = TurnPlan(session.id, len(session.playthrough.actions), self.state, seat,
                                 virtual_deck=bool(self.app.config.virtual_deck))
            self.plan.add(self.game, first)  # the companion had the rules check it
            changed = True
        return changed

    def confirm(self) -> None:
        """The table moved the pieces for the whole plan: each step goes through the journal,
        one after another, as if confirmed one by one."""
        plan = self.plan
        if plan is None or not plan.complete or not self._standing():
            return
        self.plan = None
        self.view = TurnView()
        self.app.companion.taken()
        self.screen.commit_plan(plan.actions)

    def next_page(self) -> None:
        self.view.page = min(self.view.page + 1, self.view.pages - 1)

    def press_confirm(self) -> None:
        """CONFIRM: the next page of steps, then (all read, all thought out) the commit."""
        if self.view.last:
            self.confirm()
        else:
            self.next_page()

    def handle(self, inp: Input) -> bool:
        if isinstance(inp, Press) and inp.role == Role.CONFIRM and self._standing():
            self.press_confirm()
            return True
        return False

    # -- drawing -------------------------------------------------------------------------------
    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        self._sync()  # drawn before the frame's update took the decision
        plan = self.plan if self._standing() else None
        if plan is None or (self.screen.hint_open and self.app.companion.hint is not None):
            self.screen.companion_panel(surface, area)  # thinking, failed, the hint
            return
        m = self.m
        player = self.state.setup.players[plan.seat]
        panel(surface, area, theme.PANEL, border=theme.PLAYER[player.colour], width=4)
        stripe = pygame.Rect(area.x, area.y, m.px(10), area.height)
        pygame.draw.rect(surface, theme.PLAYER[player.colour], stripe, border_radius=6)
        inner = pygame.Rect(stripe.right + m.gap * 2, area.y + m.gap,
                            area.width - stripe.width - m.gap * 4, area.height - m.gap * 2)
        title = _("{name}, the companion:", name=name_of(player))
        if plan.steps and self.screen.companion_view.same_move_again(plan.steps[0].action):
            title = fitting(surface, pygame.Rect(0, 0, inner.width, 1), m.text,
                            _("{name}, the companion, plays the same move again:",
                              name=name_of(player)),
                            _("{name}: the same move again", name=name_of(player)), title)
        foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
        places = [p for step in plan.steps
                  for p in self.screen.plan.action_places(step.before, step.action)]
        if places:
            head = titled(self.screen, surface, inner, title, self.screen.plan.board(self.state),
                          tuple(dict.fromkeys(places)))
        else:
            head = pygame.Rect(inner.x, inner.y, inner.width,
                               text_height(surface, m.text, bold=True))
            draw_text(surface, title, head, m.text, theme.ACCENT, bold=True, align="left",
                      lines=1)
        body = pygame.Rect(inner.x, head.bottom + m.gap, inner.width,
                           foot.y - head.bottom - m.gap * 2)
        used = self._lines(surface, body, plan_lines(self.game, plan.steps))
        if not plan.complete and self.view.last:
            rest = pygame.Rect(body.x, used, body.width, body.bottom - used)
            if rest.height >= m.px(24):
                self.screen.thinking(surface, rest)
        if not self.view.last:
            self.screen.button(surface, foot, _("More steps →"), self.next_page,
                               key="companion more", role=Role.CONFIRM, sub_optional=True,
                               sub=f"{self.view.page + 1}/{self.view.pages}")
            return
        if plan.complete:
            self.screen.tap_area(area, self.confirm, "companion done")
        label = _("Done: the pieces are moved") if plan.complete else _("Still thinking…")
        self.screen.button(surface, foot, label, self.confirm, key="companion confirm",
                           role=Role.CONFIRM, enabled=plan.complete, fill=theme.ACCENT,
                           text_colour=theme.OUTLINE,
                           why=lambda: _("The companion is still thinking out its turn"))

    def _lines(self, surface: pygame.Surface, body: pygame.Rect, lines: list[PlanLine]) -> int:
        """The numbered steps of the page shown, the cards the deck deals marked as
        hand-outs (as after anyone's move); the y below them."""
        m = self.m
        numbered = [(f"{k}. " if len(lines) > 1 else "") + line.text
                    for k, line in enumerate(lines, 1)]
        mark = m.px(8)
        width = body.width - mark - m.gap
        for size in (m.text, m.small):  # the larger size when the whole turn fits a page
            laid = pages(surface, numbered, width, size, body.height, m.gap)
            if len(laid) == 1:
                break
        self.view.pages = len(laid)
        self.view.page = min(self.view.page, len(laid) - 1)
        y = body.y
        for piece in laid[self.view.page]:  # a step too long for a page goes on the next
            row = pygame.Rect(body.x, y, body.width, piece.height)
            dealt = lines[piece.index].dealt
            if dealt:
                pygame.draw.rect(surface, theme.ACCENT, (row.x, row.y + 2, mark, row.height - 4),
                                 border_radius=3)
            draw_piece(surface, piece, pygame.Rect(row.x + mark + m.gap, row.y, width,
                                                   row.height), size,
                       theme.ACCENT if dealt else theme.TEXT)
            y = row.bottom + m.gap
        return y


__all__ = ["CompanionTurnPanel", "TurnView"]
