"""The table reveals a card (a refill of a row, the top of a deck, an Apprentice at set-up):
every card it can be, to tap (or the camera reads it, or the companion draws for the table).
Cards keep their place while a row fills: the cards already dealt into it stay in the list,
refused with the reason, so the set and its order do not change."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.builders.actions import Action
from companion.builders.cards import OUTPUT
from companion.kiosk.api import (
    Card,
    Input,
    _,
    card_name,
    draw_text,
    grid,
    language,
    name_of,
    retained,
    short_card_name,
    text_height,
    theme,
)

from .base import Panel
from .mine import supply_text

if TYPE_CHECKING:
    from ..screen import BuildersScreen


@dataclass
class PickerState:
    """The page of cards shown when not all fit."""

    page: int = 0


@dataclass(frozen=True)
class Entry:
    """A card of the picker: the outcome it stands for, or None when it is already out."""

    card: str
    action: Action | None


class PickerPanel(Panel):
    """The cards the table can reveal now."""

    def __init__(self, screen: BuildersScreen) -> None:
        super().__init__(screen)
        self.s = PickerState()
        self._entries: tuple[tuple[object, str], list[Entry]] | None = None

    def handle(self, inp: Input) -> bool:
        """A card read by the camera: the engine says which reveal it is (or why it cannot
        be); the table confirms it like a tap."""
        if not isinstance(inp, Card):
            return False
        self.screen.card_seen(inp)  # the shared card -> preview -> commit flow
        return True

    def title(self) -> str:
        state = self.state
        step = self.game.waiting_for(state) or ""
        if step == "deal apprentice":
            return _("Tap the Apprentice dealt to {name}",
                     name=name_of(state.setup.players[state.pending_seat]))
        return {
            "reveal building": _("Tap the building card dealt into the row"),
            "next building": _("Tap the building now on top of the deck"),
            "reveal worker": _("Tap the worker card dealt into the row"),
            "next worker": _("Tap the worker now on top of the deck"),
        }.get(step, "")

    def entries(self) -> list[Entry]:
        """The cards the table may reveal now, and those dealt already (worked out once a
        state and language: the frames of one reveal all ask)."""
        key = (self.state, language())
        if self._entries is None or self._entries[0] != key:
            self._entries = (key, self._entries_now())
        return self._entries[1]

    def _entries_now(self) -> list[Entry]:
        state = self.state
        step = self.game.waiting_for(state) or ""
        outcomes = [a for a, p in self.game.chance_outcomes(state) if p > 0]
        dealt = {"reveal building": state.building_row, "reveal worker": state.worker_row}
        out = [Entry(self.game.card_of(a) or "", a) for a in outcomes]
        out += [Entry(c, None) for c in dealt.get(step, ()) if c]
        out.sort(key=lambda e: (card_name(self.game.name, e.card), e.action is None))
        return out

    def next_page(self) -> None:
        self.s.page += 1

    def virtual_one(self) -> None:
        """The companion draws the card for the table (the app's seeded generator); the
        table is told which card to put where, as a hand-out."""
        self.screen.deal()

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        screen = self.screen
        head = pygame.Rect(area.x, area.y, area.width, m.px(32))
        draw_text(surface, self.title(), head, m.text, theme.TEXT, align="left", lines=1)
        foot = pygame.Rect(area.x, area.bottom - m.touch, area.width, m.touch)
        body = pygame.Rect(area.x, head.bottom + m.gap, area.width,
                           foot.y - head.bottom - m.gap * 2)
        entries = self.entries()
        cols = 3 if m.portrait else 4
        row_h = max(m.px(44), m.touch, text_height(surface, m.small, lines=2) + 8)
        fit = max(1, (body.height + m.gap) // (row_h + m.gap)) * cols
        cells = grid(body, fit, cols, m.gap, row_h)
        if len(entries) > fit:
            per = fit - 1
            pages = (len(entries) + per - 1) // per
            self.s.page %= pages
            shown = entries[self.s.page * per : (self.s.page + 1) * per]
        else:
            shown = entries
        retained.panel(screen, surface, body, (tuple(shown), tuple(map(tuple, cells))),
                       partial(self._cards, surface, shown, cells), "builders picker")
        if len(entries) > fit:  # over the last cell, which the cards leave empty
            screen.button(surface, cells[-1], _("More →"), self.next_page, key="more cards",
                          sub=f"{self.s.page + 1}/{pages}", size=m.small)
        screen.button(surface, foot, _("Draw for the table"), self.virtual_one,
                      key="virtual draw")

    def _cards(self, surface: pygame.Surface, shown: list[Entry],
               cells: list[pygame.Rect]) -> None:
        """A button a card: tapped, it is the card revealed."""
        m = self.m
        screen = self.screen
        for e, cell in zip(shown, cells, strict=False):
            screen.button(
                surface, cell, card_name(self.game.name, e.card),
                partial(screen.propose, e.action) if e.action is not None else lambda: None,
                short=_short(e.card),  # 工匠 石1 木1 知1 瓦1: a worker's rank and supply
                key=str(e.action) if e.action is not None else f"out {e.card}",
                enabled=e.action is not None, why=partial(screen.card_refusal, e.card),
                size=m.small, hold=partial(screen.explain, e.card),
            )


def _short(card: str) -> str:
    """A worker's shorter name for a narrow button: its rank and what it supplies; none for a
    building (its name is short enough)."""
    if card not in OUTPUT:
        return ""
    return f"{short_card_name('builders', card)} {supply_text(OUTPUT[card])}"


__all__ = ["Entry", "PickerPanel", "PickerState"]
