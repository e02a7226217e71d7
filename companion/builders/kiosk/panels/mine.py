"""The player whose turn it is: coins and VP, the open sites with what each has against what
it needs and the AP the next worker sent there costs, and the idle workers and machines.  A
worker tapped is picked; a site tapped then receives it.  The idle workers take the rows the
sites leave, all of them shown when there is room (a pager only when there is not)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.builders.actions import Send
from companion.builders.cards import BUILDING, OUTPUT, RESOURCES
from companion.builders.state import Site
from companion.kiosk.api import (
    _,
    card_name,
    draw_text,
    fits,
    grid,
    icons,
    n_,
    name_of,
    panel,
    resource_name,
    retained,
    short_card_name,
    split_h,
    split_v,
    text_height,
    theme,
)

from .base import Panel
from .rows import need_items

if TYPE_CHECKING:
    from ..screen import BuildersScreen


@dataclass
class MineState:
    """The worker picked to be sent (None: none), and the pages of sites and idle workers
    shown when not all fit."""

    selected: str | None = None
    site_page: int = 0
    idle_page: int = 0


def supply_text(amounts: tuple[int, ...]) -> str:
    """What a worker or machine supplies, compact: each resource's initial in the table's
    language and its amount (``S2 W1``, ``石2 木1``), so idle cards say what they bring (a
    hold on the card, or the help, spells it out)."""
    return " ".join(
        f"{resource_name(r)[:1].upper()}{n}" for n, r in zip(amounts, RESOURCES, strict=True) if n
    )


@dataclass(frozen=True)
class Layout:
    """How the panel's height is shared: the sites' area and row height, the idle workers'
    columns and rows."""

    sites: pygame.Rect
    site_h: int
    label: pygame.Rect
    idle: pygame.Rect
    cols: int
    rows: int


class MinePanel(Panel):
    """The active player's sites and idle workers."""

    def __init__(self, screen: BuildersScreen) -> None:
        super().__init__(screen)
        self.s = MineState()

    # -- what a tap does ---------------------------------------------------------------------
    def select(self, worker: str) -> None:
        self.s.selected = None if self.s.selected == worker else worker

    def drop_gone(self) -> None:
        """Forget a picked worker that is no longer idle (sent, or undone)."""
        me = self.state.players[self.state.turn_player]
        if self.s.selected is not None and self.s.selected not in me.idle:
            self.s.selected = None

    def next_site_page(self) -> None:
        self.s.site_page += 1

    def next_idle_page(self) -> None:
        self.s.idle_page += 1

    # -- drawing -----------------------------------------------------------------------------
    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The player's panel, kept whole (``retained``) while what it shows is the same."""
        retained.panel(self.screen, surface, area, self.mine_key(),
                       partial(self._render, surface, area), "builders mine")

    def mine_key(self) -> tuple[object, ...]:
        """Everything the player's panel is drawn from: the seat and its player (coins, VP,
        sites, idle workers), the worker picked (its wage; which sites it may go to) and
        each site's next cost, the pages shown."""
        state = self.state
        k, picked, legal = state.turn_player, self.s.selected, self.legal()
        me = state.players[k]
        sends = tuple((self.game.send_cost(state, site.card),
                       picked is not None and str(Send(picked, site.card)) in legal)
                      for site in me.sites)
        return (k, state.setup.players[k], me, picked,
                self.game.wage(picked) if picked is not None else None, sends,
                self.s.site_page, self.s.idle_page)

    def _render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        me = state.players[state.turn_player]
        spec = state.setup.players[state.turn_player]
        panel(surface, area, theme.PANEL, border=theme.PLAYER[spec.colour], width=2)
        inner = area.inflate(-m.gap * 2, -m.gap * 2)
        head_h = m.px(24)
        draw_text(
            surface,
            n_("{name}: {n} coin, {vp} VP", "{name}: {n} coins, {vp} VP", me.coins,
               name=name_of(spec), vp=me.vp),
            pygame.Rect(inner.x, inner.y, inner.width, head_h),
            m.text, theme.TEXT, align="left", bold=True, lines=1,
        )
        body = pygame.Rect(inner.x, inner.y + head_h + m.gap, inner.width,
                           inner.height - head_h - m.gap)
        idle = list(dict.fromkeys(me.idle))
        lay = self.layout(surface, body, len(me.sites), len(idle))
        self._sites(surface, lay, list(me.sites))
        label = _("Idle workers: tap one, then a site")
        if not fits(surface, label, lay.label, m.small, lines=1):
            label = _("Idle workers")
        draw_text(surface, label, lay.label, m.small, theme.MUTED, align="left", lines=1)
        self._idle(surface, lay, idle, list(me.idle))

    def wanted_height(self, surface: pygame.Surface, width: int) -> int:
        """The height that shows every site and every idle worker of the player whose turn
        it is (the screen gives it when it can)."""
        m = self.m
        me = self.state.players[self.state.turn_player]
        cols = 3 if m.portrait else 2
        rows = max(1, -(-len(set(me.idle)) // cols))
        site_h = self._site_height(surface, width - m.gap * 2)
        sites = (len(me.sites) * (site_h + m.gap) - m.gap if me.sites
                 else 2 * text_height(surface, m.small))
        label_h = min(m.px(22), text_height(surface, m.small))
        idle_h = rows * m.touch + (rows - 1) * m.gap
        return m.px(24) + sites + label_h + idle_h + m.gap * 8

    @staticmethod
    def no_site() -> str:
        return _("No site yet: start a construction from the row")

    def _wide(self, width: int) -> bool:
        """Whether a site's name and its next worker's cost go side by side (a wide panel)."""
        return width >= self.m.px(360)

    def _site_height(self, surface: pygame.Surface, width: int) -> int:
        m = self.m
        line_h = text_height(surface, m.small)
        most = [(r, "0/0") for r in RESOURCES]  # a site's four resources beside the pager
        needs_h = icons.amounts_height(most, (width - 8) * 2 // 3, m.small, bold=True)
        return max(m.touch, (1 if self._wide(width) else 2) * line_h + needs_h + 8)

    def layout(self, surface: pygame.Surface, body: pygame.Rect, sites: int,
               idle: int) -> Layout:
        """Share ``body`` between the sites (above) and the idle workers (below): the idle
        workers get every row they need while at least one site (or the line saying there is
        none) keeps its room; the sites the rest."""
        m = self.m
        cols = 3 if m.portrait else 2  # a Craftsman's four supplies need the width
        label_h = min(m.px(22), text_height(surface, m.small))
        site_h = self._site_height(surface, body.width)
        none_h = self.text_block(surface, self.no_site(), body.width, m.small)[0]
        least_sites = site_h if sites else none_h
        room = body.height - label_h - m.gap * 2 - least_sites
        fit_rows = max(1, (room + m.gap) // (m.touch + m.gap))
        rows = max(1, min(fit_rows, -(-idle // cols)))
        idle_h = rows * m.touch + (rows - 1) * m.gap
        # the sites take what they need of the rest, the idle workers follow right below
        all_sites = sites * (site_h + m.gap) - m.gap if sites else none_h
        sites_h = min(all_sites, body.height - label_h - idle_h - m.gap * 2)
        if sites_h < all_sites:  # the sites that fit (and the pager), the workers right below
            fit = max(1, (sites_h + m.gap) // (site_h + m.gap))
            sites_h = fit * (site_h + m.gap) - m.gap
        sites_r = pygame.Rect(body.x, body.y, body.width, sites_h)
        label_r = pygame.Rect(body.x, sites_r.bottom + m.gap, body.width, label_h)
        idle_r = pygame.Rect(body.x, label_r.bottom + m.gap, body.width, idle_h)
        return Layout(sites_r, site_h, label_r, idle_r, cols, rows)

    def _sites(self, surface: pygame.Surface, lay: Layout, sites: list[Site]) -> None:
        m = self.m
        if not sites:
            _h, size, rows = self.text_block(surface, self.no_site(), lay.sites.width, m.small)
            draw_text(surface, self.no_site(), lay.sites, size, theme.MUTED, lines=rows,
                      min_size=size)
            return
        fit = max(1, (lay.sites.height + m.gap) // (lay.site_h + m.gap))
        if len(sites) <= fit:
            shown = sites
            cells = grid(lay.sites, len(shown), 1, m.gap, lay.site_h)
        else:
            per = max(1, fit - 1)
            pages = (len(sites) + per - 1) // per
            self.s.site_page %= pages
            shown = sites[self.s.site_page * per : (self.s.site_page + 1) * per]
            cells = grid(lay.sites, fit, 1, m.gap, lay.site_h)
            if fit == 1:  # room for one site only: the pager goes beside it
                cells = split_h(cells[0], 2, 1, gap=m.gap)
            first = self.s.site_page * per + 1
            self.screen.button(
                surface, cells[-1],
                _("Sites {a}–{b} of {n} →", a=first, b=first + len(shown) - 1, n=len(sites)),
                self.next_site_page, key="more sites", size=m.small,
                short=f"{first}/{len(sites)} →",
            )
            cells = cells[: len(shown)]
        legal = self.legal()
        for site, cell in zip(shown, cells, strict=True):
            retained.panel(self.screen, surface, cell, self.site_key(site, legal, lay),
                           partial(self._site, surface, cell, site, legal, lay), "builders site")

    def site_key(self, site: Site, legal: set[str], lay: Layout) -> tuple[object, ...]:
        """Everything a site's button is drawn from (``_site``): the site, the next worker's
        AP, the worker picked (its wage, whether it may go there) and the panel's width."""
        picked = self.s.selected
        sent = (picked, self.game.wage(picked), str(Send(picked, site.card)) in legal
                ) if picked is not None else None
        return (site, self.game.send_cost(self.state, site.card), sent, lay.sites.width)

    def _site(self, surface: pygame.Surface, cell: pygame.Rect, site: Site, legal: set[str],
              lay: Layout) -> None:
        m = self.m
        screen = self.screen
        cost = self.game.send_cost(self.state, site.card)
        if self.s.selected is not None:
            wage = self.game.wage(self.s.selected)
            screen.action_button(surface, cell, "", Send(self.s.selected, site.card), legal,
                                 fill=theme.PANEL_HI, selected=True,
                                 hold=partial(screen.explain, site.card))
            hint = _("send: {ap} AP, {wage} coins", ap=cost, wage=wage)
            short_hint = _("{ap} AP · {wage}¤", ap=cost, wage=wage)
        else:
            pygame.draw.rect(surface, theme.PANEL_HI, cell, border_radius=6)
            area_b = screen.tap_area(cell, lambda: None, f"site {site.card}")
            area_b.extra["hold"] = partial(screen.explain, site.card)
            hint = _("next worker: {ap} AP", ap=cost)
            short_hint = _("{n} AP", n=cost)
        box = cell.inflate(-8, -4)
        wide = self._wide(lay.sites.width)
        needs_h = box.height - (1 if wide else 2) * text_height(surface, m.small)
        needs_r = pygame.Rect(box.x, box.bottom - needs_h, box.width, needs_h)
        top = pygame.Rect(box.x, box.y, box.width, box.height - needs_h)
        name_r, hint_r = split_h(top, 1, 1, gap=m.gap) if wide else split_v(top, 1, 1)
        draw_text(surface, card_name("builders", site.card), name_r, m.px(14), theme.TEXT,
                  align="left", lines=1, min_size=m.px(9))
        draw_text(surface, hint if fits(surface, hint, hint_r, m.px(13), lines=1) else short_hint,
                  hint_r, m.px(13), theme.ACCENT, align="right" if wide else "left", lines=1,
                  min_size=m.px(9))
        icons.amounts(surface, need_items(BUILDING[site.card].needs, site.supplied), needs_r,
                      m.small, bold=True)

    def _idle(self, surface: pygame.Surface, lay: Layout, idle: list[str],
              held: list[str]) -> None:
        m = self.m
        fit = lay.cols * lay.rows
        cells = grid(lay.idle, fit, lay.cols, m.gap, m.touch)
        if len(idle) > fit:
            per = fit - 1
            pages = (len(idle) + per - 1) // per
            self.s.idle_page %= pages
            shown = idle[self.s.idle_page * per : (self.s.idle_page + 1) * per]
            self.screen.button(surface, cells[-1], _("More →"), self.next_idle_page,
                               key="more workers", size=m.small,
                               sub=f"{self.s.idle_page + 1}/{pages}")
        else:
            shown = idle
        for w, cell in zip(shown, cells, strict=False):
            count = held.count(w)
            times = f" ×{count}" if count > 1 else ""
            name = short_card_name("builders", w)
            # a machine's size too (Circular Saw (small)) where it fits; what it supplies
            # tells the two apart below, and a hold names it in full
            plain = name.split(" (")[0].split("（")[0]
            self.screen.button(
                surface, cell, name + times, partial(self.select, w), key=f"select {w}",
                selected=self.s.selected == w, size=m.px(13),
                hold=partial(self.screen.explain, w),
                sub=supply_text(OUTPUT[w]),  # the wage shows once it is picked
                short=plain + times if plain != name else "",
            )


__all__ = ["Layout", "MinePanel", "MineState", "supply_text"]
