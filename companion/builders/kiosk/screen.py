"""The Builders: Middle Ages at the table: one screen for a turn.

A large action-point counter; the building and worker rows with the visible top of the
building deck; the active player's sites with what each has against what it needs, and the AP
the next worker sent there would cost; the idle workers and finished machines; coins and VP for
everyone.  Every action shows its cost before it is taken; a refusal shows the engine's reason.
Cards the table turns over to refill a row are tapped in (or drawn by the companion).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import pygame

from companion.builders import BuildersGame
from companion.builders.actions import (
    BUY_ACTION,
    END_TURN,
    Recruit,
    Send,
    Start,
    TakeCoins,
)
from companion.builders.cards import BUILDING, OUTPUT, RESOURCES, WORKER
from companion.builders.state import BuildersState
from companion.engine import CHANCE, RulesError
from companion.engine.simulate import sample
from companion.kiosk import icons, theme
from companion.kiosk.breakdown import change_lines
from companion.kiosk.i18n import _, resource_name
from companion.kiosk.inputs import Card, Input
from companion.kiosk.screens.base import GameScreen
from companion.kiosk.screens.game import Preview, open_game, virtual_draw
from companion.kiosk.screens.overlays import draw_preview, draw_tableau, help_frame
from companion.kiosk.ui import (
    draw_text,
    fits,
    fitted_height,
    grid,
    panel,
    split_h,
    split_v,
    text_height,
)
from companion.kiosk.words import card_name, name_of, short_card_name, words_for

from .cardhelp import card_help, turn_now
from .names import builders_action_help
from .turnend import turn_ended_by_itself

CELEBRATE_SECONDS = 1.5


def screen_key(state: BuildersState) -> str:
    """Which kind of screen a state shows (for screenshots)."""
    if state.over:
        return "over"
    if state.pending:
        return "reveal"
    p = state.players[state.turn_player]
    if state.end:
        return "last-round"
    if p.sites and p.idle:
        return "turn-sites"
    return "turn"


class BuildersScreen(GameScreen):
    """The table screen for a game of The Builders."""

    game: BuildersGame

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.selected: str | None = None  # an idle worker picked to be sent

        self.celebrate: tuple[float, list[str]] | None = None
        self.site_page = 0
        self.idle_page = 0
        self.pick_page = 0

    @property
    def state(self) -> BuildersState:
        return self.session.state  # type: ignore[no-any-return]

    def on_show(self) -> None:
        self.after_play()

    def after_play(self) -> None:
        virtual_draw(self.app, lambda s: True)
        self.pick_page = 0
        if self.game.is_over(self.state) and self.celebrate is None:
            open_game(self.app)
            return
        if self.selected is not None:
            me = self.state.players[self.state.turn_player]
            if self.selected not in me.idle:
                self.selected = None

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Card):
            self.card_seen(inp)
        else:
            super().handle(inp)

    def card_seen(self, seen: Card) -> None:
        """A card read by the camera: the engine says which reveal it is (or why it cannot
        be); the table confirms it like a tap."""
        outcome = self.read_card(seen)
        if outcome is not None and self.preview is None:  # one reveal at a time
            self.propose(outcome)

    def act(self, action: Any) -> None:
        self.propose(action)

    def propose(self, action: Any) -> None:
        """Take ``action``; first preview it when undo could not take it back: a card taken
        from a row (the next card is revealed), a card tapped in for a reveal, and the end of
        the turn that ends the game."""
        state = self.state
        try:
            after = self.game.apply(state, action)
        except RulesError as exc:
            self.app.refuse(words_for(self.game.name).refusal(exc, state))
            return
        title = self.irreversible(action, state, after)
        if title is None:
            self.take(action)
            return
        self.preview = Preview(action, after, title, self.changes(state, after))

    def irreversible(self, action: Any, state: BuildersState, after: BuildersState) -> str | None:
        """The preview's title for an action undo cannot take back, or None."""
        name = self.game.name
        if self.game.current_player(state) == CHANCE:
            card = self.game.card_of(action) or ""
            return _("Revealed: {card}", card=card_name(name, card))
        if isinstance(action, Start):
            return _("Take {card} to build: the next card is revealed",
                     card=card_name(name, action.card))
        if isinstance(action, Recruit):
            return _("Recruit {card}: the next card is revealed", card=card_name(name, action.card))
        if action == END_TURN and self.game.is_over(after):
            return _("End the turn: the game ends")
        return None

    def changes(self, before: BuildersState, after: BuildersState) -> list[tuple[str, str]]:
        """What an action changes for the players, each change with its cause (the ledger),
        and the winners when it ends the game."""
        out = change_lines(self.game, before, after)
        if self.game.is_over(after):
            winners = ", ".join(self.game.winners(after))
            out.append(("", _("Winner: {names}", names=winners)))
        return out

    def tableau_rows(self, seat: int) -> list[tuple[str, str]]:
        """A player's whole tableau in words: points by source and coins, finished buildings
        and machines, sites with what they have against what they need, idle workers with what
        they supply."""
        state = self.state
        name = self.game.name
        p = state.players[seat]
        vp = self.game.vp_breakdown(state, seat)
        done = [c for c in p.finished if not BUILDING[c].is_machine]
        machines = [c for c in p.finished if BUILDING[c].is_machine]
        sites = [
            _("{card} {have}/{need}", card=card_name(name, s.card), have=sum(s.supplied),
              need=sum(s.needs))
            for s in self.game.sites(state, seat)
        ]
        idle = [
            card_name(name, w.card) + (f" ×{w.count}" if w.count > 1 else "")
            for w in self.game.idle_workers(state, seat)
        ]
        none = _("none")
        return [
            (_("Points"), _("{vp} VP (buildings {b}, machines {m}), {coins} coins",
                            vp=p.vp, b=vp["buildings"], m=vp["machines"], coins=p.coins)),
            (_("Buildings"), _(", ").join(card_name(name, c) for c in done) or none),
            (_("Machines"), _(", ").join(card_name(name, c) for c in machines) or none),
            (_("Sites"), _(", ").join(sites) or none),
            (_("Idle workers"), _(", ").join(idle) or none),
        ]

    def confirm_preview(self) -> None:
        p = self.preview
        self.preview = None
        if p is not None:
            self.take(p.action)

    def cancel_preview(self) -> None:
        self.preview = None

    def take(self, action: Any) -> None:
        before = self.state
        if not self.app.play(action):
            return
        after = self.state
        done = [
            _(
                "{name} completes {card}: +{coins} coins, +{vp} VP",
                name=name_of(before.setup.players[c.seat])
                if c.seat < len(before.setup.players)
                else _("the Automa"),
                card=card_name(self.game.name, c.card),
                coins=c.coins,
                vp=c.vp,
            )
            for c in self.game.completions(before, after)
        ]
        if done:
            self.celebrate = (CELEBRATE_SECONDS, done)
            self.app.sounds.play("score")
        if self.game.end_reason(after) and not self.game.end_reason(before):
            self.app.toast(self.end_notice(), good=True, now=True)
        ended = turn_ended_by_itself(self.game, before, after, action)
        if ended:
            self.app.toast(ended, good=True, now=not self.game.end_reason(after))
        self.selected = None
        self.after_play()

    def turns_left(self) -> int:
        """Turns still to play in the last round, the current one included."""
        return self.game.turns_left(self.state) or 0

    def end_notice(self) -> str:
        from companion.kiosk.i18n import n_  # here: keeps the import block as it was

        return n_(
            "17 VP reached: the round is completed, {n} more turn",
            "17 VP reached: the round is completed, {n} more turns",
            self.turns_left(),
        )

    def update(self, dt: float) -> bool:
        companion = super().update(dt)
        if self.celebrate is None:
            return companion
        left, lines = self.celebrate
        left -= dt
        if left <= 0:
            self.celebrate = None
            if self.game.is_over(self.state):
                open_game(self.app)
        else:
            self.celebrate = (left, lines)
        return True

    def animating(self) -> bool:
        return self.celebrate is not None

    def undo(self) -> None:
        self.selected = None
        self.preview = None
        self.app.undo()
        self.after_play()

    def back(self) -> None:
        if self.close_overlay():
            return
        if self.selected is not None:
            self.selected = None
        else:
            self.home()

    # -- drawing -----------------------------------------------------------------------------
    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        body = self._top(surface).inflate(-m.gap * 2, -m.gap * 2)
        if self.preview is not None:
            p = self.preview
            draw_preview(self, surface, body, p.title, p.lines, self.cancel_preview,
                         self.confirm_preview)
        elif self.tableau is not None:
            draw_tableau(self, surface, body, name_of(self.state.setup.players[self.tableau]),
                         self.tableau_rows(self.tableau), self.close_tableau)
        elif self.game.current_player(self.state) == CHANCE:
            self._picker(surface, body)
        elif self.help_open:
            self._help(surface, body)
        elif self._companion(surface, body):
            pass
        elif m.portrait:
            rows_r, mine_r, actions_r, others_r = split_v(body, 11, 6, 2, 2, gap=m.gap)
            self._rows(surface, rows_r)
            self._mine(surface, mine_r)
            self._actions(surface, actions_r)
            self._others(surface, others_r)
        else:
            left, right = split_h(body, 13, 7, gap=m.gap)  # the rows' names need the width
            rows_r, actions_r = split_v(left, 6, 1, gap=m.gap)
            mine_r, others_r = split_v(right, 5, 2, gap=m.gap)
            self._rows(surface, rows_r)
            self._actions(surface, actions_r)
            self._mine(surface, mine_r)
            self._others(surface, others_r)
        if self.celebrate is not None:
            self._celebration(surface, body)
        self.roles.setdefault("undo", self.undo)
        self.roles.setdefault("help", self.toggle_help)

    def commit_companion(self, action: Any) -> None:
        self.take(action)

    def _companion(self, surface: pygame.Surface, body: pygame.Rect) -> bool:
        """The companion's turn or the hint, above everyone's scores; False when neither."""
        m = self.m
        panel_r, others_r = split_v(body, 6, 1, gap=m.gap)
        if not self.companion_panel(surface, panel_r):
            return False
        self._others(surface, others_r)
        return True

    def _top(self, surface: pygame.Surface) -> pygame.Rect:
        m = self.m
        state = self.state
        left, body = self.standard_bar(surface)
        n = len(state.players)
        round_no = (state.turn - 1) // n + 1
        info_r, ap_r = split_h(left, 3, 2, gap=m.gap)
        if self.game.current_player(state) == CHANCE:
            draw_text(
                surface,
                _("Round {n}", n=round_no) + " · " + _("The table reveals"),
                left,
                m.text,
                theme.MUTED,
                align="left",
                lines=1,
            )
            return body
        p = state.setup.players[state.turn_player]
        t1, t2 = split_v(info_r, 1, 1)
        from companion.kiosk.i18n import n_  # here: keeps the import block as it was

        first = (
            n_("Last round: {n} turn left", "Last round: {n} turns left", self.turns_left())
            if state.end
            else _("Round {n}", n=round_no)
        )
        draw_text(
            surface,
            first,
            t1,
            m.small,
            theme.BAD_TEXT if state.end else theme.ACCENT,
            align="left",
            lines=1,
            bold=bool(state.end),
        )
        draw_text(
            surface,
            _("{name}'s turn", name=name_of(p)),
            t2,
            m.text,
            theme.PLAYER_INK[p.colour],
            align="left",
            bold=True,
            lines=1,
        )
        panel(surface, ap_r, theme.ACCENT)
        draw_text(
            surface, _("{n} AP", n=state.ap), ap_r, m.large, theme.OUTLINE, bold=True, lines=1
        )
        return body

    def _needs(
        self,
        surface: pygame.Surface,
        area: pygame.Rect,
        needs: tuple[int, ...],
        have: tuple[int, ...] | None = None,
    ) -> None:
        """Resource icons with their counts (``have/needs`` on a site), left to right on as
        many rows as they need."""
        icons.amounts(surface, self._need_items(needs, have), area, self.m.small, bold=True)

    @staticmethod
    def _need_items(
        needs: tuple[int, ...], have: tuple[int, ...] | None = None
    ) -> list[tuple[str, int | str]]:
        shown = [r for r in range(4) if needs[r] or (have is not None and have[r])]
        return [
            (
                RESOURCES[r],
                str(needs[r]) if have is None else f"{min(have[r], needs[r])}/{needs[r]}",
            )
            for r in shown
        ]

    def _rows(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The building row (start: 1 AP) above the worker row (recruit: 1 AP)."""
        state = self.state
        legal = {str(a) for a in self.game.legal_actions(state)}
        b_area, w_area = split_v(area, 4, 3, gap=self.m.gap)
        nb, nw = state.building_next, state.worker_next
        self._row(
            surface,
            b_area,
            _("Buildings (start: 1 AP) · next: {card}", card=card_name("builders", nb))
            if nb
            else _("Buildings (start: 1 AP) · deck: {n}", n=len(state.building_deck)),
            [
                (
                    Start(c),
                    card_name("builders", c),
                    BUILDING[c].needs,
                    _("{coins} coins · {vp} VP", coins=BUILDING[c].coins, vp=BUILDING[c].vp),
                    BUILDING[c].is_machine,
                    _("{coins}¤ {vp}VP", coins=BUILDING[c].coins, vp=BUILDING[c].vp),
                )
                for c in state.building_row
            ],
            legal,
        )
        self._row(
            surface,
            w_area,
            _("Workers (recruit: 1 AP) · next: {card}", card=card_name("builders", nw))
            if nw
            else _("Workers (recruit: 1 AP) · deck: {n}", n=len(state.worker_deck)),
            [
                (
                    Recruit(c),
                    short_card_name("builders", c),
                    WORKER[c].output,
                    _("wage {n}", n=WORKER[c].wage),
                    False,
                    "",
                )
                for c in state.worker_row
            ],
            legal,
        )

    def _row(
        self,
        surface: pygame.Surface,
        area: pygame.Rect,
        label: str,
        cards: list[tuple[Any, str, tuple[int, ...], str, bool, str]],
        legal: set[str],
    ) -> None:
        """A labelled row of five card buttons: (action, name, amounts, foot, machine, the foot
        shorter)."""
        m = self.m
        label_h = m.px(22)
        draw_text(
            surface,
            label,
            pygame.Rect(area.x, area.y, area.width, label_h),
            m.small,
            theme.MUTED,
            align="left",
            lines=1,
        )
        cells = grid(
            pygame.Rect(area.x, area.y + label_h, area.width, area.height - label_h), 5, 5, m.px(2)
        )
        for (action, name, amounts, foot, machine, short), cell in zip(cards, cells, strict=False):
            self._card_button(
                surface,
                cell,
                name,
                amounts,
                foot,
                partial(self.propose, action),
                str(action),
                str(action) in legal,
                machine=machine,
                short_foot=short,
                hold=partial(self.explain, action.card),
            )

    def _card_button(
        self,
        surface: pygame.Surface,
        cell: pygame.Rect,
        name: str,
        amounts: tuple[int, ...],
        foot: str,
        tap: Callable[[], None],
        key: str,
        enabled: bool,
        machine: bool = False,
        short_foot: str = "",
        hold: Callable[[], None] | None = None,
    ) -> None:
        m = self.m
        fill = (70, 62, 90) if machine else theme.PANEL_HI
        self.button(
            surface,
            cell,
            "",
            tap,
            key=key,
            enabled=enabled,
            why=lambda: self.reason(self.game.parse_action(key)),
            fill=fill,
            hold=hold,
        )
        inner = cell.inflate(-2, -4)  # the names need the width
        needs_h = icons.amounts_height(self._need_items(amounts), inner.width, m.small, bold=True)
        foot_h = icons.row_height(m.small)
        one_line = pygame.Rect(0, 0, inner.width, foot_h)
        if short_foot and not fits(surface, foot, one_line, m.px(13), lines=1):
            foot = short_foot
        foot_lines = 1
        if not fits(surface, foot, one_line, m.px(13), lines=1):
            # even the short words need two lines in a narrow card (12コイン / 3点)
            foot_lines = 2
            foot_h = fitted_height(surface, foot, inner.width, foot_h, m.px(13), lines=2)
        name_r = pygame.Rect(inner.x, inner.y, inner.width, inner.height - needs_h - foot_h)
        needs_r = pygame.Rect(inner.x, name_r.bottom, inner.width, needs_h)
        foot_r = pygame.Rect(inner.x, needs_r.bottom, inner.width, foot_h)
        draw_text(
            surface,
            name,
            name_r,
            m.px(14),
            theme.TEXT if enabled else theme.DISABLED,
            lines=3,  # Survey Tools (small), word by word
        )
        self._needs(surface, needs_r, amounts)
        draw_text(surface, foot, foot_r, m.px(13), theme.ACCENT, lines=foot_lines)

    def _mine(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        i = state.turn_player
        me = state.players[i]
        spec = state.setup.players[i]
        panel(surface, area, theme.PANEL, border=theme.PLAYER[spec.colour], width=2)
        inner = area.inflate(-m.gap * 2, -m.gap * 2)
        head_h = m.px(24)
        draw_text(
            surface,
            _("{name}: {coins} coins, {vp} VP", name=name_of(spec), coins=me.coins, vp=me.vp),
            pygame.Rect(inner.x, inner.y, inner.width, head_h),
            m.text,
            theme.TEXT,
            align="left",
            bold=True,
            lines=1,
        )
        idle_h = m.touch
        idle_label = _("Idle workers: tap one, then a site")
        label_h = min(m.px(22), text_height(surface, m.small))
        if not fits(surface, idle_label, pygame.Rect(0, 0, inner.width, label_h), m.small,
                    lines=1):
            idle_label = _("Idle workers")
        sites_r = pygame.Rect(
            inner.x,
            inner.y + head_h + m.gap,
            inner.width,
            inner.height - head_h - idle_h - label_h - m.gap * 3,
        )
        legal = {str(a) for a in self.game.legal_actions(state)}
        # A site: its name and what the next worker costs side by side, or one under the
        # other when the panel is narrow; its resources below.
        stack = True
        line_h = text_height(surface, m.small)
        # as tall as a site's four resources need beside the pager (two thirds of the width)
        most = [(r, "0/0") for r in RESOURCES]
        needs_h = icons.amounts_height(most, (inner.width - 8) * 2 // 3, m.small, bold=True)
        row_h = max(m.touch, (2 if stack else 1) * line_h + needs_h + 8)
        fit = max(1, (sites_r.height + m.gap) // (row_h + m.gap))
        sites = list(me.sites)
        if len(sites) > fit:
            per = max(1, fit - 1)
            pages = (len(sites) + per - 1) // per
            self.site_page %= pages
            shown = sites[self.site_page * per : (self.site_page + 1) * per]
            cells = grid(sites_r, fit, 1, m.gap, row_h)
            if fit == 1:  # room for one site only: the pager goes beside it
                site_r, pager_r = split_h(cells[0], 2, 1, gap=m.gap)
                cells = [site_r, pager_r]
            first = self.site_page * per + 1
            self.button(
                surface,
                cells[-1],
                _("Sites {a}–{b} of {n} →", a=first, b=first + len(shown) - 1, n=len(sites)),
                self.next_site_page,
                key="more sites",
                size=m.small,
                short=f"{first}/{len(sites)} →",
            )
            cells = cells[: len(shown)]
        else:
            shown = sites
            cells = grid(sites_r, len(shown), 1, m.gap, row_h)
        if not me.sites:
            draw_text(
                surface,
                _("No site yet: start a construction from the row"),
                sites_r,
                m.small,
                theme.MUTED,
                lines=2,
            )
        for site, cell in zip(shown, cells, strict=True):
            cost = self.game.send_cost(state, site.card)
            if self.selected is not None:
                action = Send(self.selected, site.card)
                wage = self.game.wage(self.selected)
                self.action_button(
                    surface,
                    cell,
                    "",
                    action,
                    legal,
                    fill=theme.PANEL_HI,
                    selected=True,
                    hold=partial(self.explain, site.card),
                )
                hint = _("send: {ap} AP, {wage} coins", ap=cost, wage=wage)
                short_hint = _("{n} AP", n=cost) + f" · {wage}¤"
            else:
                pygame.draw.rect(surface, theme.PANEL_HI, cell, border_radius=6)
                area_b = self.tap_area(cell, lambda: None, f"site {site.card}")
                area_b.extra["hold"] = partial(self.explain, site.card)
                hint = _("next worker: {ap} AP", ap=cost)
                short_hint = _("{n} AP", n=cost)
            box = cell.inflate(-8, -4)
            needs_r = pygame.Rect(box.x, box.bottom - needs_h, box.width, needs_h)
            top = pygame.Rect(box.x, box.y, box.width, box.height - needs_h)
            if stack:
                name_r, hint_r = split_v(top, 1, 1)
            else:
                name_r, hint_r = split_h(top, 1, 1, gap=m.gap)
            draw_text(
                surface,
                card_name("builders", site.card),
                name_r,
                m.px(14),
                theme.TEXT,
                align="left",
                lines=1,
                min_size=m.px(9),
            )
            draw_text(
                surface,
                hint if fits(surface, hint, hint_r, m.px(13), lines=1) else short_hint,
                hint_r,
                m.px(13),
                theme.ACCENT,
                align="left" if stack else "right",
                lines=1,
                min_size=m.px(9),
            )
            self._needs(surface, needs_r, BUILDING[site.card].needs, site.supplied)
        label_r = pygame.Rect(
            inner.x, inner.bottom - idle_h - label_h - m.gap, inner.width, label_h
        )
        draw_text(
            surface,
            idle_label,
            label_r,
            m.small,
            theme.MUTED,
            align="left",
            lines=1,
        )
        idle_r = pygame.Rect(inner.x, inner.bottom - idle_h, inner.width, idle_h)
        idle = list(dict.fromkeys(me.idle))
        per_row = 4 if m.portrait else 2  # the landscape panel is narrow
        if len(idle) > per_row:
            per = per_row - 1
            pages = (len(idle) + per - 1) // per
            self.idle_page %= pages
            shown_idle = idle[self.idle_page * per : (self.idle_page + 1) * per]
            cells = grid(idle_r, per_row, per_row, m.gap)
            self.button(
                surface,
                cells[-1],
                _("More →"),
                self.next_idle_page,
                key="more workers",
                size=m.small,
                sub=f"{self.idle_page + 1}/{pages}",
            )
        else:
            shown_idle = idle
            cells = grid(idle_r, per_row, per_row, m.gap)
        for w, cell in zip(shown_idle, cells, strict=False):
            count = me.idle.count(w)
            label = short_card_name("builders", w) + (f" ×{count}" if count > 1 else "")
            self.button(
                surface,
                cell,
                label,
                partial(self.select, w),
                key=f"select {w}",
                selected=self.selected == w,
                size=m.px(13),
                hold=partial(self.explain, w),
                sub=supply_text(OUTPUT[w]),  # the wage shows once it is picked
            )

    def explain(self, card: str) -> None:
        """A finger held on a card: what it needs, pays or supplies."""
        self.read(*card_help(card, self.state))

    def next_site_page(self) -> None:
        self.site_page += 1

    def next_idle_page(self) -> None:
        self.idle_page += 1

    def select(self, worker: str) -> None:
        self.selected = None if self.selected == worker else worker

    def _actions(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        legal = {str(a) for a in self.game.legal_actions(state)}
        cells = split_h(area, 1, 1, 1, 1.4, 1.2, gap=m.gap)
        for k, cell in zip((1, 2, 3), cells, strict=False):
            action = TakeCoins(k)
            gain = self.game.coins_for(state, k)
            self.action_button(
                surface,
                cell,
                _("+{n} coins", n=gain) if gain is not None else _("{n} AP", n=k),
                action,
                legal,
                sub=_("{n} AP", n=k),
                size=m.small,
                short=f"+{gain}¤" if gain is not None else "",
            )
        self.button(
            surface,
            cells[3],
            _("Buy an action"),
            lambda: self.take(BUY_ACTION),
            key="buy action",
            enabled="buy action" in legal,
            why=lambda: self.reason(BUY_ACTION),
            sub=_("{n} coins", n=self.game.action_price),
            size=m.small,
            short=_("+1 AP"),
        )
        self.button(
            surface,
            cells[4],
            _("End turn"),
            lambda: self.propose(END_TURN),
            key="end turn",
            role="confirm",
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
            size=m.small,
        )

    def _others(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        n = len(state.players)
        low = area.height < 2 * m.touch + m.gap  # one row, side by side
        cells = grid(area, n, n if low or n <= 2 or (m.portrait and n <= 4) else 2, m.gap)
        for k, cell in enumerate(cells):
            spec, p = state.setup.players[k], state.players[k]
            self.tap_area(cell, partial(self.show_tableau, k), f"tableau {k}")
            panel(
                surface,
                cell,
                theme.PLAYER[spec.colour],
                border=theme.ACCENT if k == state.turn_player else None,
                width=3,
            )
            fg = theme.PLAYER_TEXT[spec.colour]
            r1, r2 = split_v(cell.inflate(-6, -4), 1, 1)
            draw_text(surface, name_of(spec), r1, m.small, fg, bold=True, lines=1)
            stats = _("{vp}/{goal} VP · {coins} coins", vp=p.vp, goal=self.game.end_vp,
                      coins=p.coins)
            goal = self.game.end_vp
            if not fits(surface, stats, r2, m.small, lines=1):
                stats = _("{vp}/{goal} VP · {coins}¤", vp=p.vp, goal=goal, coins=p.coins)
            if not fits(surface, stats, r2, m.small, lines=1):
                stats = f"{p.vp}/{goal} · {p.coins}¤"
            draw_text(surface, stats, r2, m.small, fg, lines=1)

    def _picker(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        step = self.game.waiting_for(state) or ""
        title = {
            "reveal building": _("Tap the building card dealt into the row"),
            "next building": _("Tap the building now on top of the deck"),
            "reveal worker": _("Tap the worker card dealt into the row"),
            "next worker": _("Tap the worker now on top of the deck"),
            "deal apprentice": _(
                "Tap the Apprentice dealt to {name}",
                name=name_of(state.setup.players[state.pending_seat]),
            ),
        }.get(step, "")
        outcomes = [a for a, p in self.game.chance_outcomes(state) if p > 0]
        card_of = self.game.card_of
        head = pygame.Rect(area.x, area.y, area.width, m.px(32))
        draw_text(surface, title, head, m.text, theme.TEXT, align="left", lines=1)
        foot = pygame.Rect(area.x, area.bottom - m.touch, area.width, m.touch)
        body = pygame.Rect(
            area.x, head.bottom + m.gap, area.width, foot.y - head.bottom - m.gap * 2
        )
        # Cards keep their place while a row fills: the cards already dealt into it stay in
        # the list (refused with the reason), so the set, and its order, do not change.
        dealt = {"reveal building": state.building_row, "reveal worker": state.worker_row}
        entries: list[tuple[str, Any]] = [(card_of(a) or "", a) for a in outcomes]
        entries += [(c, None) for c in dealt.get(step, ()) if c]
        entries.sort(key=lambda e: (card_name(self.game.name, e[0]), e[1] is None))
        cols = 3 if m.portrait else 4
        row_h = max(m.px(44), m.touch, text_height(surface, m.small, lines=2) + 8)
        fit = max(1, (body.height + m.gap) // (row_h + m.gap)) * cols
        if len(entries) > fit:
            per = fit - 1
            pages = (len(entries) + per - 1) // per
            self.pick_page %= pages
            shown = entries[self.pick_page * per : (self.pick_page + 1) * per]
            cells = grid(body, fit, cols, m.gap, row_h)
            self.button(
                surface,
                cells[-1],
                _("More →"),
                self.next_pick_page,
                key="more cards",
                sub=f"{self.pick_page + 1}/{pages}",
                size=m.small,
            )
        else:
            shown = entries
            cells = grid(body, fit, cols, m.gap, row_h)
        for (card, action), cell in zip(shown, cells, strict=False):
            self.button(
                surface,
                cell,
                card_name(self.game.name, card),
                partial(self.propose, action) if action is not None else lambda: None,
                key=str(action) if action is not None else f"out {card}",
                enabled=action is not None,
                why=partial(self.card_refusal, card),
                size=m.small,
                hold=partial(self.explain, card),
            )
        self.button(surface, foot, _("Draw for the table"), self.virtual_one, key="virtual draw")

    def next_pick_page(self) -> None:
        self.pick_page += 1

    def virtual_one(self) -> None:
        self.take(sample(self.game.chance_outcomes(self.state), self.app.rng))

    def _help(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        body, foot = help_frame(self, surface, area)
        kinds = ("start", "recruit", "send", "coins", "buy action", "end turn")
        now = _("Now: {text}", text=turn_now(self.game, self.state))
        now_h = fitted_height(surface, now, body.width, 1, m.small, lines=6)
        now_r = pygame.Rect(body.x, body.y, body.width, now_h)
        draw_text(surface, now, now_r, m.small, theme.ACCENT, align="left", valign="top", lines=6)
        body = pygame.Rect(body.x, now_r.bottom + m.gap, body.width,
                           body.bottom - now_r.bottom - m.gap)
        texts = [builders_action_help(kind) for kind in kinds]
        needs = [fitted_height(surface, t, body.width, 1, m.small, lines=5) for t in texts]
        rows = split_v(body, *needs, gap=m.gap)  # each as tall as its text needs
        for text, row in zip(texts, rows, strict=True):
            draw_text(surface, text, row, m.small, theme.TEXT, align="left", lines=5)
        self.help_footer(surface, foot)

    def _celebration(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The finished card flips to its completed side, then the coins and VP it pays."""
        m = self.m
        assert self.celebrate is not None
        left, lines = self.celebrate
        t = 1 - left / CELEBRATE_SECONDS
        box = area.inflate(-area.width // 6, -area.height // 3)
        if t < 0.35:
            squeeze = abs(math.cos(t / 0.35 * math.pi))
            card = box.inflate(-int(box.width * (1 - squeeze)), 0)
            colour = theme.PANEL_HI if t < 0.175 else theme.ACCENT
            panel(surface, card, colour, border=theme.OUTLINE, width=3)
            return
        panel(surface, box, theme.ACCENT, border=theme.OUTLINE, width=3)
        draw_text(
            surface,
            " · ".join(lines),
            box.inflate(-m.gap * 4, -m.gap * 4),
            m.large,
            theme.OUTLINE,
            bold=True,
            lines=4,
        )


def supply_text(amounts: tuple[int, ...]) -> str:
    """What a worker or machine supplies, compact: each resource's initial in the table's
    language and its amount (``S2 W1``, ``石2 木1``), so idle cards say what they bring."""
    return " ".join(
        f"{resource_name(r)[:1].upper()}{n}" for n, r in zip(amounts, RESOURCES, strict=True) if n
    )


__all__ = ["BuildersScreen", "screen_key", "supply_text"]
