"""The step panels of the Pillars screen: the top bar, the players, and one panel per step of
the round (the draft, the draw and the board, the market, the cathedral...), with the small
choices each panel holds (quantities, the conversion, cubes to give back)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion.engine import CHANCE, RulesError
from companion.engine.simulate import sample
from companion.kiosk import icons, theme
from companion.kiosk.fonts import font
from companion.kiosk.i18n import _
from companion.kiosk.screens.base import GameScreen
from companion.kiosk.screens.game import Preview
from companion.kiosk.screens.overlays import draw_tableau
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
from companion.kiosk.words import card_name, name_of, short_card_name
from companion.pillars import PillarsGame
from companion.pillars import data as D
from companion.pillars.actions import Action, convert_action, return_action

from .cardhelp import card_help, space_help
from .changes import explained
from .names import resource_name
from .words import (
    CARD_STEPS,
    action_label,
    board_label,
    formula,
    short_craftsman,
    step_title,
    without_details,
)


class PillarsPanels(GameScreen):
    """The drawing half of :class:`~companion.pillars.kiosk.screen.PillarsScreen`."""

    game: PillarsGame
    preview: Preview | None
    result: tuple[str, list[tuple[str, str]]] | None
    anim: tuple[str, float, Any] | None
    qty: dict[str, int]
    conv: dict[str, int]
    ret: dict[str, int]
    remigius: bool

    @property
    def state(self) -> Any:
        return self.session.state

    if TYPE_CHECKING:  # the flow half (screen.py) provides these

        def draw_builder(self) -> None: ...

        def roll_die(self) -> None: ...

        def show_result(self, title: str, lines: list[tuple[str, str]]) -> None: ...

    def _top(self, surface: pygame.Surface) -> pygame.Rect:
        m = self.m
        state = self.state
        left, body = self.standard_bar(surface)
        round_text = _("Round {n}", n=state.round)
        round_w = min(left.width // 3, font(m.text, True).size(round_text)[0] + m.px(4))
        round_r = pygame.Rect(left.x, left.y, round_w, left.height)
        step_r = pygame.Rect(round_r.right + m.gap, left.y, left.right - round_r.right - m.gap,
                             left.height)
        draw_text(
            surface,
            round_text,
            round_r,
            m.text,
            theme.ACCENT,
            bold=True,
            lines=1,
            align="left",
        )
        who = self.game.current_player(state)
        if who >= 0:
            p = state.setup.players[who]
            sub = _("{name}'s decision", name=name_of(p))
            colour = theme.PLAYER_INK[p.colour]
        elif who == CHANCE:
            sub, colour = _("The table reveals"), theme.MUTED
        else:
            sub, colour = "", theme.MUTED
        t_r, w_r = split_v(step_r, 1, 1)
        title = step_title(state.step)
        if not fits(surface, title, t_r, m.small, lines=1):  # without its phase
            title = title.replace("：", ": ").split(": ", 1)[-1]
        draw_text(surface, title, t_r, m.small, theme.TEXT, align="left", lines=1)
        draw_text(surface, sub, w_r, m.small, colour, align="left", lines=1, bold=True)
        return body

    def _players(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        n = len(state.seats)
        cols = 2 if m.portrait else 1
        cells = grid(area, n, cols, m.gap)
        who = self.game.current_player(state)
        order = [(state.start + k) % n for k in range(n)]
        for k, cell in zip(order, cells, strict=True):
            p, s = state.setup.players[k], state.seats[k]
            self.tap_area(cell, partial(self.show_tableau, k), f"tableau {k}")
            panel(surface, cell, theme.PANEL, border=theme.ACCENT if k == who else None, width=3)
            stripe = pygame.Rect(cell.x, cell.y, m.px(8), cell.height)
            pygame.draw.rect(surface, theme.PLAYER[p.colour], stripe, border_radius=4)
            inner = pygame.Rect(
                stripe.right + m.gap,
                cell.y + m.px(2),
                cell.width - stripe.width - m.gap * 2,
                cell.height - m.px(4),
            )
            line1, line2, line3 = split_v(inner, 1, 1, 1.6)
            name_r, vp_r, gold_r = split_h(line1, 5, 3, 3, gap=m.gap)
            star = "① " if k == state.start else ""
            draw_text(
                surface,
                star + name_of(p),
                name_r,
                m.text,
                theme.PLAYER_INK[p.colour],
                bold=True,
                align="left",
                lines=1,
            )
            vp = _("{n} VP", n=s.vp)
            if not fits(surface, vp, vp_r, m.text, bold=True, lines=1, min_size=m.px(11)):
                vp = _("{n}VP", n=s.vp)
            draw_text(
                surface,
                vp,
                vp_r,
                m.text,
                theme.TEXT,
                bold=True,
                lines=1,
                align="right",
                min_size=m.px(11),
            )
            icons.amounts(surface, [("gold", s.gold)], gold_r, m.text, theme.ACCENT, align="right")
            self._cubes(surface, line2, s, k)
            workers = _(
                "workers {free}/{all}",
                free=self.game.free_workers(state, k),
                all=self.game.workers(state, k),
            )
            crafts = " · ".join(short_craftsman(c) for c in s.craftsmen)
            privs = f"  ◆{len(s.privileges)}" if s.privileges else ""
            text = (f"{workers} · {crafts}" if crafts else workers) + privs
            if not fits(surface, text, line3, m.small, lines=2):  # the tableau has them all
                text = _("{workers} · {n} craftsmen", workers=workers, n=len(s.craftsmen)) + privs
            draw_text(surface, text, line3, m.small, theme.MUTED, align="left", lines=2)

    def explain_card(self, card: str) -> None:
        """A finger held on a card: what it does."""
        self.read(*card_help(card))

    def explain_space(self, space: str) -> None:
        """A finger held on a board space: what it gives and costs now, who is on it."""
        self.read(*space_help(self.game, self.state, space))

    def tableau_rows(self, seat: int) -> list[tuple[str, str]]:
        """A player's whole tableau in words: VP and gold, cubes (owed ones said), workers,
        craftsmen with their uses left, privileges by name."""
        from companion.kiosk.i18n import n_  # here: keeps the import block as it was

        state = self.state
        s = state.seats[seat]
        name = self.game.name
        cubes = _(", ").join(
            _("{n} {res}", n=s.res[r], res=resource_name(res))
            + (_(" ({n} owed)", n=s.owed[r]) if s.owed[r] else "")
            for r, res in enumerate(D.RESOURCES)
        )
        crafts = _(", ").join(
            n_("{card}: {n} use left", "{card}: {n} uses left", self.game.uses_left(state, seat, c),
               card=card_name(name, c))
            if not D.CRAFTSMEN[c].spec.auto
            else card_name(name, c)
            for c in s.craftsmen
        )
        privileges = _(", ").join(card_name(name, c) for c in s.privileges) or _("none")
        return [
            (_("Points"), _("{vp} VP, {gold} gold", vp=s.vp, gold=s.gold)),
            (_("Resources"), cubes),
            (_("Workers"), _("{free} free of {all}", free=self.game.free_workers(state, seat),
                             all=self.game.workers(state, seat))),
            (_("Craftsmen"), crafts or _("none")),
            (_("Privileges"), privileges),
        ]

    def _tableau(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        assert self.tableau is not None
        seat = self.tableau
        title = name_of(self.state.setup.players[seat])
        draw_tableau(self, surface, area, title, self.tableau_rows(seat), self.close_tableau)

    def _cubes(self, surface: pygame.Surface, area: pygame.Rect, s: Any, seat: int) -> None:
        m = self.m
        cells = split_h(area, 1, 1, 1, 1, gap=m.gap)
        for r, name in enumerate(D.RESOURCES):
            cell = cells[r]
            sq = min(cell.height - 4, m.px(16))
            box = pygame.Rect(cell.x, cell.centery - sq // 2, sq, sq)
            icons.resource_icon(surface, name, box, cell)
            draw_text(
                surface,
                str(s.res[r]),
                pygame.Rect(box.right + 4, cell.y, cell.width - sq - 4, cell.height),
                m.text,
                theme.TEXT,
                align="left",
                lines=1,
                min_size=m.px(10),  # two-digit counts (10+ cubes before the cathedral)
            )

    # -- the decision panel ----------------------------------------------------------------
    def _decision(self, surface: pygame.Surface, area: pygame.Rect, state: Any) -> None:
        step = state.step
        if step in CARD_STEPS:
            self._card_picker(surface, area)
        elif step == "draft":
            self._draft(surface, area)
        elif step == "draw":
            self._draw(surface, area)
        elif step in ("place", "parked"):
            self._place(surface, area)
        elif step == "roll":
            self._roll(surface, area)
        elif step == "market":
            self._market(surface, area)
        elif step == "cathedral":
            self._cathedral(surface, area)
        elif step == "return":
            self._return(surface, area)
        else:
            self._choices(surface, area)

    def _header(
        self,
        surface: pygame.Surface,
        area: pygame.Rect,
        text: str,
        colour: theme.Colour = theme.MUTED,
        height: int = 34,
    ) -> pygame.Rect:
        m = self.m
        h = fitted_height(surface, text, area.width, m.px(height), m.text, lines=2)
        head = pygame.Rect(area.x, area.y, area.width, h)
        draw_text(surface, text, head, m.text, colour, align="left", lines=2)
        return pygame.Rect(
            area.x, head.bottom + m.gap, area.width, area.height - head.height - m.gap
        )

    def _card_picker(self, surface: pygame.Surface, area: pygame.Rect) -> None:
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
        body = self._header(surface, area, _("Tap the card the table revealed") + ": " + where)
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
            self.button(
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
        self.button(
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
        outcome = sample(self.game.chance_outcomes(self.state), self.app.rng)
        before = self.state
        if self.commit(outcome):
            self.show_result(
                _("Drawn for the table: {card}", card=card_name(self.game.name,
                                                                str(outcome.args[0]))),
                explained(self.game, before, self.state),
            )

    def _draft(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        s = state.seats[state.turn]
        free = self.game.free_workers(state, state.turn)
        body = self._header(
            surface,
            area,
            _(
                "{name}: {workers} workers free, {gold} gold",
                name=name_of(state.setup.players[state.turn]),
                workers=free,
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
            self.action_button(
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
        self.button(
            surface,
            buttons_r,
            _("Pass"),
            lambda: self.propose(Action("pass")),
            key="pass",
            role="pass",
        )

    def _draw(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        from companion.kiosk.i18n import n_  # here: keeps the import block as it was

        m = self.m
        state = self.state
        left = sum(state.bag)
        body = self._header(
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
        self._board_view(surface, board)
        button = pygame.Rect(body.x, board.bottom + m.gap, body.width, draw_h)
        self.big_button(surface, button, _("Draw"), self.draw_builder, "draw")

    def _roll(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        exempt = [name_of(self.state.setup.players[i]) for i in self.game.tax_exempt(self.state)]
        text = (
            _("Exempt: {names}", names=", ".join(exempt))
            if exempt
            else _("Nobody is at the King's Court")
        )
        body = self._header(surface, area, text)
        self.big_button(
            surface, body.inflate(-m.px(40), -m.px(40)), _("Roll"), self.roll_die, "roll"
        )

    def _place(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        i = state.turn
        p = state.setup.players[i]
        parked = state.step == "parked"
        cost = 0 if parked else self.game.cost_marker(state)
        head = pygame.Rect(area.x, area.y, area.width, m.px(44))
        panel(surface, head, theme.PLAYER[p.colour])
        label = (
            _("{name}'s passed builder: free", name=name_of(p))
            if parked
            else _("{name}'s builder · free with Remigius", name=name_of(p))
            if self.remigius
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
        legal = {str(a) for a in self.game.legal_actions(state)}
        foot_h = 0 if parked else m.touch + m.gap
        board = pygame.Rect(
            area.x, head.bottom + m.gap, area.width, area.height - head.height - m.gap - foot_h
        )
        verb = "remigius" if self.remigius else "place"
        self._board(surface, board, verb, legal)
        if parked:
            return
        foot = pygame.Rect(area.x, area.bottom - m.touch, area.width, m.touch)
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
        self.button(
            surface,
            cells[0],
            _("Pass"),
            lambda: self.propose(Action("pass")),
            key="pass",
            role="pass",
            enabled="pass" in legal,
            why=lambda: self.reason(Action("pass")),
        )
        for (label_x, tap, key, short), cell in zip(extra, cells[1:], strict=True):
            self.button(
                surface,
                cell,
                label_x,
                tap,
                key=key,
                size=m.small,
                selected=key == "remigius" and self.remigius,
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
        self.remigius = not self.remigius

    def _board_view(self, surface: pygame.Surface, area: pygame.Rect) -> None:
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

    def _board(
        self, surface: pygame.Surface, area: pygame.Rect, verb: str, legal: set[str]
    ) -> None:
        """The board's master-builder spaces, area by area, in board order."""
        m = self.m
        state = self.state
        areas = list(D.AREA_SPACES)
        cols = 2 if m.portrait else 4
        boxes = grid(area, len(areas), cols, m.gap)
        for name, box in zip(areas, boxes, strict=True):
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
                space = D.SPACES[k].id
                who = state.spaces[k]
                action = Action(verb, (space,))
                if who >= 0:
                    colour = state.setup.players[who].colour
                    self.button(
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
                else:
                    slot_label = str(D.SPACES[k].slot) if len(slots) > 1 else "+"
                    self.action_button(
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

    def _choices(self, surface: pygame.Surface, area: pygame.Rect) -> None:
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
        body = self._header(surface, area, question, theme.TEXT, height=56)
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
            self.button(
                surface,
                cell,
                action_label(action),
                partial(self.propose, action),
                key=str(action),
                size=m.text,
                hold=partial(self.explain_card, arg) if arg in D.CRAFTSMEN else None,
            )

    def _market(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        i = state.turn
        s = state.seats[i]
        p = state.setup.players[i]
        slot = D.SPACES[state.market_slot].slot if state.market_slot >= 0 else 0
        body = self._header(
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
            price = prices[name]
            stock = state.market[r] if r < 3 else None
            # − and + are whole touch targets; the name, Buy and Sell share the rest.
            steppers = m.touch * 2 + m.touch * 4 // 5
            rest = row.width - steppers - 5 * m.gap
            label_r, minus, qty_r, plus, buy_r, sell_r = split_h(  # in fifths of the width
                row, rest * 3, m.touch * 5, m.touch * 4, m.touch * 5, rest, rest, gap=m.gap
            )
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
            q = self.qty[name]
            self.button(
                surface,
                minus,
                "−",
                partial(self.change_qty, name, -1),
                key=f"less {name}",
                size=m.text,
            )
            draw_text(surface, str(q), qty_r, m.large, theme.TEXT, lines=1)
            self.button(
                surface,
                plus,
                "+",
                partial(self.change_qty, name, 1),
                key=f"more {name}",
                size=m.text,
            )
            if r < 3:
                buy = Action("buy", (name, q))
                self.action_button(
                    surface,
                    buy_r,
                    _("Buy"),
                    buy,
                    legal,
                    key=f"buy {name}",
                    sub=_("{n} gold", n=q * price),
                    short_sub=_("{n} g", n=q * price),
                    size=m.small,
                )
            sell = Action("sell", (name, q))
            self.action_button(
                surface,
                sell_r,
                _("Sell"),
                sell,
                legal,
                key=f"sell {name}",
                sub=_("{n} gold", n=q * price),
                short_sub=_("{n} g", n=q * price),
                size=m.small,
            )
        self.button(
            surface,
            rows[4],
            _("Pass: done trading"),
            lambda: self.propose(Action("pass")),
            key="pass",
            role="pass",
        )

    def change_qty(self, name: str, delta: int) -> None:
        self.qty[name] = max(1, min(20, self.qty[name] + delta))

    def _cathedral(self, surface: pygame.Surface, area: pygame.Rect) -> None:
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
        body = self._header(surface, area, summary, theme.ACCENT if ok else theme.BAD_TEXT)
        foot = pygame.Rect(body.x, body.bottom - m.touch, body.width, m.touch)
        rows_area = pygame.Rect(body.x, body.y, body.width, body.height - m.touch - m.gap)
        n = max(1, len(usable))
        row_h = min(m.touch, (rows_area.height - m.gap * (n - 1)) // n)
        cells = grid(rows_area, len(usable), 1, m.gap, row_h)
        for c, row in zip(usable, cells, strict=True):
            card = D.CRAFTSMEN[c]
            cap = uses_left[c]
            name_r, minus, qty_r, plus = split_h(row, 6, 1, 1, 1, gap=m.gap)
            t1, t2 = split_v(name_r, 1, 1)
            read = self.tap_area(name_r, lambda: None, f"craftsman {c}")
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
            self.button(
                surface,
                minus,
                "−",
                partial(self.change_conv, c, -1),
                key=f"less {c}",
                enabled=self.conv.get(c, 0) > 0,
                size=m.text,
            )
            draw_text(surface, str(self.conv.get(c, 0)), qty_r, m.large, theme.TEXT, lines=1)
            self.button(
                surface,
                plus,
                "+",
                partial(self.change_conv, c, 1, cap),
                key=f"more {c}",
                enabled=self.conv.get(c, 0) < cap,
                size=m.text,
            )
        best_r, ok_r = split_h(foot, 1, 1, gap=m.gap)
        self.button(surface, best_r, _("Best conversion"), self.best, key="best", size=m.small)
        action = convert_action(self.conv) if any(self.conv.values()) else Action("done")
        self.button(
            surface,
            ok_r,
            _("Confirm"),
            lambda: self.propose(action),
            key="confirm",
            role="confirm",
            enabled=ok,
            why=lambda: self.reason(action),
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
        )

    def conversion_result(self) -> tuple[int, int, int, bool]:
        """VP gained, gold after, resources left, and whether the chosen uses are possible."""
        state = self.state
        action = convert_action(self.conv) if any(self.conv.values()) else Action("done")
        i = state.turn
        try:
            after = self.game.apply(state, action)
        except RulesError:
            return 0, state.seats[i].gold, sum(state.seats[i].res), False
        a, b = state.seats[i], after.seats[i]
        return b.vp - a.vp, b.gold, sum(b.res), True

    def change_conv(self, card: str, delta: int, cap: int = 99) -> None:
        self.conv[card] = max(0, min(cap, self.conv.get(card, 0) + delta))

    def best(self) -> None:
        self.conv = dict(self.game.best_conversion(self.state).uses)

    def _return(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        s = state.seats[state.turn]
        excess = self.game.excess(state, state.turn)
        chosen = sum(self.ret.values())
        body = self._header(
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
            self.button(
                surface,
                minus,
                "−",
                partial(self.change_ret, name, -1),
                key=f"less {name}",
                enabled=self.ret.get(name, 0) > 0,
            )
            draw_text(surface, str(self.ret.get(name, 0)), qty_r, m.large, theme.TEXT, lines=1)
            self.button(
                surface,
                plus,
                "+",
                partial(self.change_ret, name, 1, s.res[r]),
                key=f"more {name}",
                enabled=self.ret.get(name, 0) < s.res[r],
            )
        action = return_action(self.ret)
        self.button(
            surface,
            rows[4],
            _("Confirm"),
            lambda: self.propose(action),
            key="confirm",
            role="confirm",
            enabled=chosen == excess,
            why=lambda: self.reason(action),
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
        )

    def change_ret(self, name: str, delta: int, cap: int = 99) -> None:
        self.ret[name] = max(0, min(cap, self.ret.get(name, 0) + delta))


def picker_cards(state: Any, outcomes: list[Action]) -> list[str]:
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
