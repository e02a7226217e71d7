"""The Pillars board panels of phase II: the draw (the bag and the board at a glance) and the
placement (the board's spaces, Pass, Remigius, the start player's re-draw)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.events import Role
from companion.kiosk.api import (
    _,
    card_name,
    draw_text,
    fits,
    fitted_height,
    grid,
    n_,
    name_of,
    panel,
    retained,
    short_card_name,
    split_h,
    text_height,
    theme,
)
from companion.pillars import data as D
from companion.pillars.actions import Action

from .panel import PillarsPanel
from .words import board_label, without_details

if TYPE_CHECKING:
    from .screen import PillarsScreen


class DrawPanel(PillarsPanel):
    """DRAW: builders left in the bag, the cost, the wool mill, the board at a glance."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:

        m = self.m
        state = self.state
        left = sum(state.bag)
        body = self.header(
            surface,
            area,
            n_(
                "{n} builder in the bag · cost {cost}",
                "{n} builders in the bag · cost {cost}",
                left,
                cost=self.game.cost_marker(state),
            ),
        )
        wool = ", ".join(
            f"{name_of(p)} {s.wool}" for p, s in zip(state.setup.players, state.seats, strict=True)
        )
        wool_text = _("Workers in the wool mill: {list}", list=wool)
        wool_h = fitted_height(surface, wool_text, body.width, m.px(30), m.small)
        wool_r = pygame.Rect(body.x, body.bottom - wool_h, body.width, wool_h)
        draw_text(surface, wool_text, wool_r, m.small, theme.MUTED, lines=2)
        body = pygame.Rect(body.x, body.y, body.width, body.height - wool_r.height)
        # the board stays in view (who is where), and the Draw button below it
        draw_h = m.touch + m.gap
        board = pygame.Rect(body.x, body.y, body.width, body.height - draw_h - m.gap)
        self.board_view(surface, board)
        button = pygame.Rect(body.x, board.bottom + m.gap, body.width, draw_h)
        self.big_button(surface, button, _("Draw"), self.screen.draw_builder, "draw",
                        Role.DRAW)

    def board_view(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The board at a glance, to look at while drawing: each area's spaces, filled with the
        colour of the builder on it."""
        m = self.m
        state = self.state
        areas = list(D.AREA_SPACES)
        cols = 2 if m.portrait else 3
        boxes = grid(area, len(areas), cols, m.gap)
        colours = [p.colour for p in state.setup.players]
        for name, box in zip(areas, boxes, strict=True):
            panel(surface, box, theme.PANEL)
            label_h = fitted_height(surface, board_label(name), box.width - 4,
                                    box.height // 2 - 2, m.small)
            label = pygame.Rect(box.x + 2, box.y + 2, box.width - 4, label_h)
            draw_text(surface, board_label(name), label, m.small, theme.MUTED, lines=2)
            slots = D.AREA_SPACES[name]
            r = max(3, min(box.height // 5, (box.width - 8) // (3 * len(slots))))
            step = (box.width - 8) // len(slots)
            for k, space in enumerate(slots):
                centre = (box.x + 4 + step * k + step // 2, box.y + box.height * 3 // 4)
                seat = state.spaces[space]
                if seat >= 0:
                    pygame.draw.circle(surface, theme.PLAYER[colours[seat]], centre, r)
                else:
                    pygame.draw.circle(surface, theme.MUTED, centre, r, 1)


@dataclass
class PlaceChoice:
    """The placement's choice on screen: Remigius selected (the next space is free)."""

    remigius: bool = False


class PlacePanel(PillarsPanel):
    """Place the drawn builder on a space, or pass; Remigius; the start player's re-draw."""

    def __init__(self, screen: PillarsScreen) -> None:
        super().__init__(screen)
        self.choice = PlaceChoice()

    def reset(self) -> None:
        self.choice = PlaceChoice()

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        parked = state.step == "parked"
        head = pygame.Rect(area.x, area.y, area.width, m.px(44))
        self.head(surface, head)
        legal = {str(a) for a in self.game.legal_actions(state)}
        foot_h = 0 if parked else m.touch + m.gap
        board = pygame.Rect(
            area.x, head.bottom + m.gap, area.width, area.height - head.height - m.gap - foot_h
        )
        verb = "remigius" if self.choice.remigius else "place"
        self.board(surface, board, verb, legal)
        if parked:
            return
        foot = pygame.Rect(area.x, area.bottom - m.touch, area.width, m.touch)
        self.foot(surface, foot, legal)

    def head(self, surface: pygame.Surface, head: pygame.Rect) -> None:
        """Whose builder is placed, in the player's colour, and what it costs."""
        m = self.m
        state = self.state
        p = state.setup.players[state.turn]
        parked = state.step == "parked"
        cost = 0 if parked else self.game.cost_marker(state)
        panel(surface, head, theme.PLAYER[p.colour])
        label = (
            _("{name}'s passed builder: free", name=name_of(p))
            if parked
            else _("{name}'s builder · free with Remigius", name=name_of(p))
            if self.choice.remigius
            else _("{name}'s builder · cost {cost}", name=name_of(p), cost=cost)
            if cost
            else _("{name}'s builder · free", name=name_of(p))
        )
        draw_text(
            surface,
            label,
            head.inflate(-m.gap * 2, 0),
            m.large,
            theme.PLAYER_TEXT[p.colour],
            bold=True,
            lines=1,
        )

    def foot(self, surface: pygame.Surface, foot: pygame.Rect, legal: set[str]) -> None:
        """Pass, and where they apply the start player's re-draw and Remigius."""
        m = self.m
        state = self.state
        p = state.setup.players[state.turn]
        extra = []
        if self.game.start_player_actions(state):
            starter = name_of(state.setup.players[state.start])
            extra.append(
                (
                    _("{start}, the start player: send {name}'s builder back", start=starter,
                      name=name_of(p)),
                    lambda: self.propose(Action("redraw")),
                    "redraw",
                    _("Send back to the bag"),
                )
            )
        if any(a.startswith("remigius") for a in legal):
            extra.append((_("Remigius: free"), self.toggle_remigius, "remigius", ""))
        cells = split_h(foot, *([1] * (1 + len(extra))), gap=m.gap)
        self.screen.button(
            surface,
            cells[0],
            _("Pass"),
            lambda: self.propose(Action("pass")),
            key="pass",
            role=Role.PASS,
            enabled="pass" in legal,
            why=lambda: self.reason(Action("pass")),
        )
        for (label_x, tap, key, short), cell in zip(extra, cells[1:], strict=True):
            self.screen.button(
                surface,
                cell,
                label_x,
                tap,
                key=key,
                size=m.small,
                selected=key == "remigius" and self.choice.remigius,
                short=short,
            )

    def slot_note(self, space: str) -> str:
        """What a space gives this round (the engine's ``space_gives``): its privilege card,
        craftsman, VP or metal."""
        gives = self.game.space_gives(self.state, space)
        card = gives.get("card")
        if card is not None:
            if D.SPACES[D.SPACE_INDEX[space]].area == "kingsbridge":
                return without_details(card_name(self.game.name, card))
            return short_card_name(self.game.name, card)
        if gives.get("vp"):
            return _("{n} VP", n=gives["vp"])
        if gives.get("metal"):
            return _("+1 metal")
        if D.SPACES[D.SPACE_INDEX[space]].area == "cathedral":
            return _("next start player")
        return ""

    def toggle_remigius(self) -> None:
        self.choice.remigius = not self.choice.remigius

    def board(
        self, surface: pygame.Surface, area: pygame.Rect, verb: str, legal: set[str]
    ) -> None:
        """The board's master-builder spaces, area by area, in board order."""
        m = self.m
        areas = list(D.AREA_SPACES)
        cols = 2 if m.portrait else 4
        boxes = grid(area, len(areas), cols, m.gap)
        for name, box in zip(areas, boxes, strict=True):
            self.board_area(surface, box, name, verb, legal)

    def board_area(self, surface: pygame.Surface, box: pygame.Rect, name: str, verb: str,
                   legal: set[str]) -> None:
        """One area of the board: its name, then its spaces; kept whole (``retained``)
        while its spaces' builders, which of them may be taken and what they give are the
        same."""
        state = self.state
        slots = D.AREA_SPACES[name]
        key = (name, verb, state.setup.players, tuple(state.spaces[k] for k in slots),
               tuple(str(Action(verb, (D.SPACES[k].id,))) in legal for k in slots),
               state.kingsbridge, state.shiring, state.court_metal)
        retained.panel(self.screen, surface, box, key,
                       partial(self._board_area, surface, box, name, verb, legal),
                       "pillars board area")

    def _board_area(self, surface: pygame.Surface, box: pygame.Rect, name: str, verb: str,
                    legal: set[str]) -> None:
        m = self.m
        panel(surface, box, theme.PANEL)
        one = min(m.px(22), text_height(surface, m.small))
        text = board_label(name)
        if not fits(surface, text, pygame.Rect(0, 0, box.width - 4, one), m.small, lines=1):
            text = board_label(name, broken=True)  # キングス / ブリッジ
        h = fitted_height(surface, text, box.width - 4, one, m.small)
        label = pygame.Rect(box.x + 2, box.y + 2, box.width - 4, h)
        draw_text(surface, text, label, m.small, theme.MUTED, lines=2)
        slots = D.AREA_SPACES[name]
        inner = pygame.Rect(
            box.x + 4, label.bottom + 2, box.width - 8, box.bottom - label.bottom - 6
        )
        stacked = not m.portrait and name in ("kingsbridge", "shiring", "priory")
        if stacked and (inner.height + 4) // len(slots) - 4 < m.touch:
            stacked = False  # one under another, they would be too low to tap
        # In portrait the areas are wide and low: their spaces side by side, none under
        # another, so each stays a whole touch target.
        cols = 1 if stacked or len(slots) == 1 else len(slots) if m.portrait else 2
        cells = grid(inner, len(slots), cols, 4)
        for k, cell in zip(slots, cells, strict=True):
            self.space(surface, cell, k, verb, legal, several=len(slots) > 1)

    def space(self, surface: pygame.Surface, cell: pygame.Rect, k: int, verb: str,
              legal: set[str], several: bool) -> None:
        """Space ``k``: in the colour of the builder on it, or a button that places there."""
        m = self.m
        state = self.state
        space = D.SPACES[k].id
        who = state.spaces[k]
        action = Action(verb, (space,))
        if who >= 0:
            colour = state.setup.players[who].colour
            self.screen.button(
                surface,
                cell,
                "",
                lambda: None,
                key=f"space {space}",
                enabled=False,
                fill=theme.PLAYER[colour],
                why=partial(self.reason, action),
                hold=partial(self.explain_space, space),
            )
            pygame.draw.rect(surface, theme.PLAYER[colour], cell, border_radius=6)
            return
        slot_label = str(D.SPACES[k].slot) if several else "+"
        self.screen.action_button(
            surface,
            cell,
            slot_label,
            action,
            legal,
            size=m.text,
            hold=partial(self.explain_space, space),
            sub=self.slot_note(D.SPACES[k].id)
            if cell.height >= m.px(44)
            else "",
            # what a space gives is on the board (its privilege or craftsman card
            # lies face up there): a note that does not fit is left out
            sub_optional=True,
        )


__all__ = ["DrawPanel", "PlaceChoice", "PlacePanel"]
