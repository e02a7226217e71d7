"""The building row (start: 1 AP) above the worker row (recruit: 1 AP), each with the top of
its deck; a card tapped is taken (after a preview: the next card is revealed), a card held
explains itself."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import pygame

from companion.builders.actions import Recruit, Start
from companion.builders.cards import BUILDING, RESOURCES, WORKER
from companion.kiosk.api import (
    _,
    card_name,
    draw_text,
    fits,
    fitted_height,
    font,
    grid,
    icons,
    min_text,
    retained,
    short_card_name,
    split_v,
    text_height,
    theme,
)

from .base import Panel


@dataclass(frozen=True)
class RowCard:
    """A card of a row as its button shows it: the action taking it, its name, the amounts
    it needs or supplies, its foot (what it pays, or the wage) and a shorter foot."""

    action: Start | Recruit
    name: str
    amounts: tuple[int, ...]
    foot: str
    machine: bool = False
    short_foot: str = ""


HYPHENS = {
    "Apprentice": "Appren-tice",
    "Craftsman": "Crafts-man",
    "Townhouse": "Town-house",
    "Treehouse": "Tree-house",
    "Watchtower": "Watch-tower",
}
"""Where an English name too wide for a narrow card breaks, with a hyphen (the smallest text
a display allows is wider than a fifth of a portrait screen for these words)."""


def card_lines(name: str, width: int, size: int, floor: int) -> str:
    """A card's name as it is drawn on a narrow card: whole when it fits on one line at
    ``size``; else broken before its parenthesis (``Crane / (large)``, ``丸のこ / （大）``), and a
    word too wide even at the smallest size ``floor`` hyphenated where it may break."""
    f = font(max(size, floor))
    if f.size(name)[0] <= width:
        return name
    for mark in ("（", " ("):
        if mark in name:
            head, tail = name.split(mark, 1)
            name = head + "\n" + mark.strip() + tail
    small = font(floor)
    words = []
    for word in name.split(" "):
        core = word.split("\n")
        fixed = [HYPHENS[w].replace("-", "-\n") if w in HYPHENS and small.size(w)[0] > width
                 else w for w in core]
        words.append("\n".join(fixed))
    return " ".join(words)


def need_items(
    needs: tuple[int, ...], have: tuple[int, ...] | None = None
) -> list[tuple[str, int | str]]:
    """Resource icons' items: each resource needed (or held), with ``have/needs`` on a site."""
    shown = [r for r in range(4) if needs[r] or (have is not None and have[r])]
    return [
        (RESOURCES[r], str(needs[r]) if have is None else f"{min(have[r], needs[r])}/{needs[r]}")
        for r in shown
    ]


def row_card(c: str) -> RowCard:
    """Card ``c`` as a row shows it (a building to start, a worker to recruit)."""
    if c in BUILDING:
        return RowCard(
            Start(c),
            card_name("builders", c),
            BUILDING[c].needs,
            _("{coins} coins · {vp} VP", coins=BUILDING[c].coins, vp=BUILDING[c].vp),
            BUILDING[c].is_machine,
            _("{coins}¤ {vp}VP", coins=BUILDING[c].coins, vp=BUILDING[c].vp),
        )
    return RowCard(Recruit(c), short_card_name("builders", c), WORKER[c].output,
                   _("wage {n}", n=WORKER[c].wage))


def card_fill(card: RowCard) -> tuple[int, int, int]:
    """The colour of a card of the rows: machines darker than buildings and workers."""
    return (70, 62, 90) if card.machine else theme.PANEL_HI


class RowsPanel(Panel):
    """The two rows of cards the players take from."""

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Both rows, kept whole (``retained``) while their cards, the tops of the decks and
        which cards may be taken are the same (a move that changes neither blits them)."""
        state, legal = self.state, self.legal()
        taken = tuple(str(Start(c)) in legal for c in state.building_row) + tuple(
            str(Recruit(c)) in legal for c in state.worker_row)
        key = (state.building_row, state.worker_row, state.building_next, state.worker_next,
               len(state.building_deck), len(state.worker_deck), taken)
        retained.panel(self.screen, surface, area, key,
                       partial(self._rows, surface, area, legal), "builders rows")

    def _rows(self, surface: pygame.Surface, area: pygame.Rect, legal: set[str]) -> None:
        state = self.state
        b_area, w_area = split_v(area, *self.least_heights(surface), gap=self.m.gap)
        nb, nw = state.building_next, state.worker_next
        buildings = [row_card(c) for c in state.building_row]
        self._row(
            surface,
            b_area,
            _("Buildings (start: 1 AP) · next: {card}", card=card_name("builders", nb))
            if nb
            else _("Buildings (start: 1 AP) · deck: {n}", n=len(state.building_deck)),
            buildings,
            legal,
        )
        workers = [row_card(c) for c in state.worker_row]
        self._row(
            surface,
            w_area,
            _("Workers (recruit: 1 AP) · next: {card}", card=card_name("builders", nw))
            if nw
            else _("Workers (recruit: 1 AP) · deck: {n}", n=len(state.worker_deck)),
            workers,
            legal,
        )

    def least_heights(self, surface: pygame.Surface) -> tuple[int, int]:
        """The least heights of the building row and the worker row: a building's name on up
        to three lines (Survey Tools (small), word by word), a worker's rank on one; the
        needs on two rows of icons and the foot."""
        m = self.m
        rest = 3 * icons.row_height(m.small, bold=True) + 8 + m.px(22)
        return (text_height(surface, m.px(14), lines=3) + rest,
                text_height(surface, m.px(14), lines=1) + rest)

    def least_height(self, surface: pygame.Surface) -> int:
        """The least height of both rows."""
        return sum(self.least_heights(surface)) + self.m.gap

    def _row(self, surface: pygame.Surface, area: pygame.Rect, label: str,
             cards: list[RowCard], legal: set[str]) -> None:
        """A labelled row of five card buttons."""
        m = self.m
        label_h = m.px(22)
        draw_text(surface, label, pygame.Rect(area.x, area.y, area.width, label_h), m.small,
                  theme.MUTED, align="left", lines=1)
        cells = grid(
            pygame.Rect(area.x, area.y + label_h, area.width, area.height - label_h), 5, 5, m.px(2)
        )
        for card, cell in zip(cards, cells, strict=False):
            self._card_button(surface, cell, card, str(card.action) in legal)

    def _card_button(self, surface: pygame.Surface, cell: pygame.Rect, card: RowCard,
                     enabled: bool) -> None:
        screen = self.screen
        key = str(card.action)
        screen.button(
            surface,
            cell,
            "",
            partial(screen.propose, card.action),
            key=key,
            enabled=enabled,
            why=partial(screen.reason, card.action),
            fill=card_fill(card),
            hold=partial(screen.explain, card.action.card),
            face=((card, enabled), partial(draw_card_face, surface, self.m, cell, card, enabled)),
        )  # the card kept whole with its button


def draw_card_face(surface: pygame.Surface, m: theme.Metrics, cell: pygame.Rect,
                   card: RowCard, enabled: bool = True) -> None:
    """A card's face inside ``cell`` (its background drawn already): its name, the amounts
    it needs or supplies, and its foot, as the rows show it (a hand-out shows a dealt card
    the same way)."""
    inner = cell.inflate(-2, -4)  # the names need the width
    needs_h = icons.amounts_height(need_items(card.amounts), inner.width, m.small, bold=True)
    foot_h = icons.row_height(m.small)
    one_line = pygame.Rect(0, 0, inner.width, foot_h)
    foot = card.foot
    if card.short_foot and not fits(surface, foot, one_line, m.px(13), lines=1):
        foot = card.short_foot
    foot_lines = 1
    if not fits(surface, foot, one_line, m.px(13), lines=1):
        # even the short words need two lines in a narrow card (12コイン / 3点): the coins
        # on one, the VP on the other, never a number apart from its unit
        foot = "\n".join(foot.rsplit(" ", 1))
        foot_lines = 2
        foot_h = fitted_height(surface, foot, inner.width, foot_h, m.px(13), lines=2)
    name_r = pygame.Rect(inner.x, inner.y, inner.width, inner.height - needs_h - foot_h)
    needs_r = pygame.Rect(inner.x, name_r.bottom, inner.width, needs_h)
    foot_r = pygame.Rect(inner.x, needs_r.bottom, inner.width, foot_h)
    name = card_lines(card.name, name_r.width, m.px(14), min_text(surface))
    draw_text(surface, name, name_r, m.px(14), theme.TEXT if enabled else theme.DISABLED,
              lines=3)  # Survey Tools (small), word by word
    icons.amounts(surface, need_items(card.amounts), needs_r, m.small, bold=True)
    draw_text(surface, foot, foot_r, m.px(13), theme.ACCENT, lines=foot_lines)


__all__ = ["HYPHENS", "RowCard", "RowsPanel", "card_fill", "card_lines", "draw_card_face",
           "need_items", "row_card"]
