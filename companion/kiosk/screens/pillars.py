"""The Pillars of the Earth at the table: one screen that follows the round step by step.

The top bar says the round, the step and whose decision it is; the players' panel shows
everyone's VP, gold, resources, workers and craftsmen; the decision panel offers exactly what
the engine allows now.  Cards the table reveals are tapped in from a picker of the cards still
possible (or drawn by the companion with the virtual deck); DRAW and ROLL replace the bag and
the die.  Anything with effects beyond the tap (a reveal, an event, the end of a round) is
previewed and confirmed before it is committed.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from functools import partial
from typing import Any

import pygame

from companion.engine import CHANCE, RulesError
from companion.engine.simulate import sample
from companion.kiosk import theme
from companion.kiosk.i18n import (
    _,
    area_name,
    card_name,
    resource_name,
    short_card_name,
    space_name,
    step_help,
)
from companion.kiosk.inputs import Card, Input
from companion.kiosk.ui import draw_text, grid, panel, split_h, split_v
from companion.pillars import PillarsGame
from companion.pillars import data as D
from companion.pillars.actions import Action, convert_action, return_action

from .base import GameScreen
from .game import Preview, open_game, pillars_changes, virtual_draw

CARD_STEPS = ("privilege", "craftsman", "resource", "event", "peek")

DRAW_SECONDS = 0.8
ROLL_SECONDS = 1.0


def step_title(step: str) -> str:
    """A short title for each step of the round."""
    return {
        "privilege": _("Reveal privilege cards"),
        "craftsman": _("Reveal craftsmen for Shiring"),
        "resource": _("Reveal resource cards"),
        "peek": _("Ellen sees the coming event"),
        "draft": _("Phase I: take a card or pass"),
        "draft-discard": _("Too many craftsmen: discard one"),
        "draw": _("Phase II: draw a master builder"),
        "place": _("Phase II: place or pass"),
        "parked": _("Phase II: place a passed builder"),
        "event": _("Phase III: the event"),
        "archbishop": _("Archbishop's Office"),
        "thomas": _("Thomas: protection?"),
        "lose": _("Give up a craftsman"),
        "boost": _("A craftsman works once more"),
        "roll": _("King's Court: roll the tax die"),
        "taxfree": _("Tax exemption?"),
        "shiring-discard": _("Too many craftsmen: discard one"),
        "market": _("The market"),
        "cathedral": _("The cathedral"),
        "return": _("Keep at most 5 resources"),
        "over": _("Game over"),
    }[step]


class PillarsScreen(GameScreen):
    """The table screen for a game of Pillars."""

    game: PillarsGame

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.preview: Preview | None = None
        self.result: tuple[str, list[tuple[str, str]]] | None = None
        self.anim: tuple[str, float, Any] | None = None  # kind, time left, value
        self.local_key: tuple[int, str, int] | None = None
        self.qty = {r: 1 for r in D.RESOURCES}
        self.conv: dict[str, int] = {}
        self.ret: dict[str, int] = {}
        self.remigius = False
        self.tax_roll: tuple[Any, int] | None = None

    @property
    def state(self) -> Any:
        return self.session.state

    def on_show(self) -> None:
        self.after_play()

    # -- flow ------------------------------------------------------------------------------
    def after_play(self) -> None:
        """After every committed action: virtual cards, the end, fresh local choices."""
        virtual_draw(self.app, lambda s: s.step in CARD_STEPS)
        self.show_tax()
        if self.game.is_over(self.state) and self.anim is None and self.result is None:
            open_game(self.app)
            return
        key = (self.state.round, self.state.step, self.state.turn)
        if key != self.local_key:
            self.local_key = key
            self.qty = {r: 1 for r in D.RESOURCES}
            self.remigius = False
            self.ret = {}
            if self.state.step == "cathedral":
                self.conv = dict(self.game.best_conversion(self.state).uses)
            else:
                self.conv = {}

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Card):
            self.card_seen(inp)
        else:
            super().handle(inp)

    def card_seen(self, seen: Card) -> None:
        """A card read by the camera: the outcome of the reveal the table is waiting for, or
        refused with the reason."""
        state = self.state
        if seen.game != "pillars":
            self.app.refuse(_("That card belongs to The Builders, not to this game"))
            return
        if self.preview is not None:
            return  # one reveal at a time: the table confirms what it showed first
        if state.step not in CARD_STEPS:
            self.app.refuse(
                _(
                    "{card} was shown, but no card is being revealed now",
                    card=card_name("pillars", seen.card),
                )
            )
            return
        for action, p in self.game.chance_outcomes(state):
            if p > 0 and str(action.args[0]) == seen.card:
                self.propose(action)
                return
        self.app.refuse(why_not_revealed(state, seen.card))

    def act(self, action: Any) -> None:
        self.propose(action)

    def propose(self, action: Action) -> None:
        """Take ``action``; first preview it when it reveals a card or changes more than the
        acting player's own holdings."""
        state = self.state
        try:
            after = self.game.apply(state, action)
        except RulesError as exc:
            self.app.refuse(str(exc))
            return
        chance = self.game.current_player(state) == CHANCE
        changes = pillars_changes(state, after)
        actor = state.setup.players[state.turn].colour if state.turn >= 0 else ""
        others = [c for c in changes if c[0] != actor]
        if chance or others or after.round != state.round or after.over:
            title = describe_action(action, state)
            self.preview = Preview(action, after, title, changes)
            return
        self.commit(action)

    def commit(self, action: Action) -> bool:
        before = self.state
        if not self.app.play(action):
            return False
        self.qty = {r: 1 for r in D.RESOURCES}
        if action.verb == "draw":
            self.app.sounds.play("draw")
        elif action.verb == "roll":
            self.app.sounds.play("roll")
        elif self.state.round != before.round or self.state.over:
            self.app.sounds.play("score")
        self.after_play()
        return True

    def confirm_preview(self) -> None:
        p = self.preview
        self.preview = None
        if p is not None:
            self.commit(p.action)

    def cancel_preview(self) -> None:
        self.preview = None

    def draw_builder(self) -> None:
        """DRAW: the companion's bag.  The draw is committed, then shown with a short
        animation."""
        if self.state.step != "draw":
            return
        outcome = sample(self.game.chance_outcomes(self.state), self.app.rng)
        if self.commit(outcome):
            self.anim = ("draw", DRAW_SECONDS, str(outcome.args[0]))

    def roll_die(self) -> None:
        """ROLL: the tax die, committed, then animated, then who paid what."""
        if self.state.step != "roll":
            return
        before = self.state
        outcome = sample(self.game.chance_outcomes(before), self.app.rng)
        self.tax_roll = (before, int(outcome.args[0]))
        if self.commit(outcome):
            self.anim = ("roll", ROLL_SECONDS, int(outcome.args[0]))
            self.show_tax()
        else:
            self.tax_roll = None

    def show_tax(self) -> None:
        """Who paid what, once the tax is paid (after any exemption card was decided)."""
        if self.tax_roll is None or self.state.step == "taxfree":
            return
        before, value = self.tax_roll
        self.tax_roll = None
        changes = pillars_changes(before, self.state)
        self.result = (_("Tax: the die shows {n}", n=value), changes or [("", _("Nobody pays"))])

    def update(self, dt: float) -> bool:
        if self.anim is None:
            return False
        kind, left, value = self.anim
        left -= dt
        if left <= 0:
            self.anim = None
            if self.game.is_over(self.state) and self.result is None:
                open_game(self.app)
        else:
            self.anim = (kind, left, value)
        return True

    def animating(self) -> bool:
        return self.anim is not None

    def undo(self) -> None:
        self.preview = None
        self.result = None
        self.app.undo()
        self.local_key = None
        self.after_play()

    def back(self) -> None:
        if self.preview is not None:
            self.preview = None
        elif self.help_open:
            self.help_open = False
        elif self.result is not None:
            self.result = None
        else:
            self.home()

    # -- drawing ---------------------------------------------------------------------------
    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        state = self.state
        body = self._top(surface)
        if m.portrait:
            decision, players = split_v(body.inflate(-m.gap * 2, -m.gap * 2), 3, 2, gap=m.gap)
        else:
            players, decision = split_h(body.inflate(-m.gap * 2, -m.gap * 2), 2, 3, gap=m.gap)
        self._players(surface, players)
        if self.anim is not None:
            self._animation(surface, decision)
        elif self.result is not None:
            self._result(surface, decision)
        elif self.preview is not None:
            self._preview(surface, decision)
        elif self.help_open:
            self._help(surface, decision)
        else:
            self._decision(surface, decision, state)
        self.roles.setdefault("undo", self.undo)
        self.roles.setdefault("help", self.toggle_help)

    def _top(self, surface: pygame.Surface) -> pygame.Rect:
        m = self.m
        state = self.state
        left, body = self.standard_bar(surface)
        round_r, step_r = split_h(left, 1, 3, gap=m.gap)
        draw_text(
            surface,
            _("Round {n}", n=state.round),
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
            sub = _("{name}'s decision", name=p.name)
            colour = theme.PLAYER[p.colour]
        elif who == CHANCE:
            sub, colour = _("The table reveals"), theme.MUTED
        else:
            sub, colour = "", theme.MUTED
        t_r, w_r = split_v(step_r, 1, 1)
        draw_text(surface, step_title(state.step), t_r, m.small, theme.TEXT, align="left", lines=1)
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
            panel(surface, cell, theme.PANEL, border=theme.ACCENT if k == who else None, width=3)
            stripe = pygame.Rect(cell.x, cell.y, m.px(8), cell.height)
            pygame.draw.rect(surface, theme.PLAYER[p.colour], stripe, border_radius=4)
            inner = pygame.Rect(
                stripe.right + m.gap,
                cell.y + m.px(2),
                cell.width - stripe.width - m.gap * 2,
                cell.height - m.px(4),
            )
            line1, line2, line3 = split_v(inner, 1, 1, 1.3)
            name_r, vp_r, gold_r = split_h(line1, 4, 3, 4, gap=m.gap)
            star = "① " if k == state.start else ""
            draw_text(
                surface,
                star + p.name,
                name_r,
                m.text,
                theme.PLAYER[p.colour] if p.colour != "blue" else (120, 160, 240),
                bold=True,
                align="left",
                lines=1,
            )
            draw_text(
                surface,
                _("{n} VP", n=s.vp),
                vp_r,
                m.text,
                theme.TEXT,
                bold=True,
                lines=1,
                align="right",
                min_size=m.px(11),
            )
            draw_text(
                surface,
                _("{n} gold", n=s.gold),
                gold_r,
                m.text,
                theme.ACCENT,
                lines=1,
                align="right",
                min_size=m.px(11),
            )
            self._cubes(surface, line2, s)
            crafts = " · ".join(short_craftsman(c) for c in s.craftsmen)
            privs = len(s.privileges)
            text = crafts + (f"  ◆{privs}" if privs else "")
            draw_text(
                surface, text, line3, m.small, theme.MUTED, align="left", lines=2, min_size=m.px(10)
            )

    def _cubes(self, surface: pygame.Surface, area: pygame.Rect, s: Any) -> None:
        m = self.m
        cells = split_h(area, 1, 1, 1, 1, 2, gap=m.gap)
        for r, name in enumerate(D.RESOURCES):
            cell = cells[r]
            sq = min(cell.height - 4, m.px(16))
            box = pygame.Rect(cell.x, cell.centery - sq // 2, sq, sq)
            pygame.draw.rect(surface, theme.RESOURCE[name], box, border_radius=3)
            draw_text(
                surface,
                str(s.res[r]),
                pygame.Rect(box.right + 4, cell.y, cell.width - sq - 4, cell.height),
                m.text,
                theme.TEXT,
                align="left",
                lines=1,
            )
        workers = s.workers + s.gray
        placed = sum(D.RESOURCE_CARDS[c].workers for c in s.cards)
        text = _("workers {free}/{all}", free=workers - placed, all=workers)
        draw_text(surface, text, cells[4], m.small, theme.MUTED, align="right", lines=1)

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
        head = pygame.Rect(area.x, area.y, area.width, m.px(height))
        draw_text(surface, text, head, m.text, colour, align="left", lines=2)
        return pygame.Rect(
            area.x, head.bottom + m.gap, area.width, area.height - head.height - m.gap
        )

    def _card_picker(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        outcomes = [a for a, p in self.game.chance_outcomes(state) if p > 0]
        where = {
            "privilege": _(
                "Privilege card for Kingsbridge space {n}", n=len(state.kingsbridge) + 1
            ),
            "craftsman": _("Craftsman for Shiring space {n}", n=len(state.shiring) + 1),
            "resource": _("Resource card {n} of 7", n=9 - len(state.res_hidden) + 1),
            "event": _("The event card"),
            "peek": _("The event card (Ellen looks)"),
        }[state.step]
        body = self._header(surface, area, _("Tap the card the table revealed") + ": " + where)
        buttons_r = pygame.Rect(body.x, body.bottom - m.touch, body.width, m.touch)
        cards_r = pygame.Rect(body.x, body.y, body.width, body.height - m.touch - m.gap)
        cols = 2 if len(outcomes) > 4 else 1
        if len(outcomes) > 10:
            cols = 3
        cells = grid(cards_r, len(outcomes), cols, m.gap)
        for action, cell in zip(outcomes, cells, strict=True):
            card = str(action.args[0])
            self.button(
                surface,
                cell,
                card_name("pillars", card),
                partial(self.propose, action),
                key=str(action),
                size=m.small,
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
        outcome = sample(self.game.chance_outcomes(self.state), self.app.rng)
        self.propose(outcome)

    def _draft(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        state = self.state
        s = state.seats[state.turn]
        free = s.workers + s.gray - sum(D.RESOURCE_CARDS[c].workers for c in s.cards)
        body = self._header(
            surface,
            area,
            _(
                "{name}: {workers} workers free, {gold} gold",
                name=state.setup.players[state.turn].name,
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
            if rc is not None:
                sub = _(
                    "{n} workers → {k} {res}",
                    n=rc.workers,
                    k=rc.yield_,
                    res=resource_name(D.RESOURCES[rc.resource]),
                )
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
        m = self.m
        state = self.state
        left = sum(state.bag)
        body = self._header(
            surface, area, _("{n} builders in the bag · cost {cost}", n=left, cost=state.cost)
        )
        wool = ", ".join(
            f"{p.name} {s.wool}" for p, s in zip(state.setup.players, state.seats, strict=True)
        )
        wool_r = pygame.Rect(body.x, body.bottom - m.px(30), body.width, m.px(30))
        draw_text(
            surface,
            _("Workers in the wool mill: {list}", list=wool),
            wool_r,
            m.small,
            theme.MUTED,
            lines=1,
        )
        body = pygame.Rect(body.x, body.y, body.width, body.height - wool_r.height)
        self.big_button(
            surface, body.inflate(-m.px(40), -m.px(24)), _("Draw"), self.draw_builder, "draw"
        )

    def _roll(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        court = [self.state.spaces[k] for k in D.AREA_SPACES["court"]]
        exempt = [self.state.setup.players[i].name for i in court if i >= 0]
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
        cost = 0 if parked else state.cost
        head = pygame.Rect(area.x, area.y, area.width, m.px(44))
        panel(surface, head, theme.PLAYER[p.colour])
        label = (
            _("{name}'s passed builder: free", name=p.name)
            if parked
            else _("{name}'s builder · cost {cost}", name=p.name, cost=cost)
            if cost
            else _("{name}'s builder · free", name=p.name)
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
        if "redraw" in legal:
            extra.append((_("Redraw"), lambda: self.propose(Action("redraw")), "redraw"))
        if any(a.startswith("remigius") for a in legal):
            extra.append((_("Remigius: free"), self.toggle_remigius, "remigius"))
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
        for (label_x, tap, key), cell in zip(extra, cells[1:], strict=True):
            self.button(
                surface,
                cell,
                label_x,
                tap,
                key=key,
                size=m.small,
                selected=key == "remigius" and self.remigius,
            )

    def slot_note(self, area: str, slot: int) -> str:
        """What a space gives this round: its privilege card, craftsman, VP or metal."""
        state = self.state
        if area == "kingsbridge" and slot <= len(state.kingsbridge):
            return without_details(card_name("pillars", state.kingsbridge[slot - 1]))
        if area == "shiring" and slot <= len(state.shiring):
            return short_card_name("pillars", state.shiring[slot - 1])
        if area == "priory":
            return _("{n} VP", n=D.PRIORY_VP[slot - 1])
        if area == "court" and slot == 1 and state.court_metal:
            return _("+1 metal")
        return ""

    def toggle_remigius(self) -> None:
        self.remigius = not self.remigius

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
            label = pygame.Rect(box.x + 4, box.y + 2, box.width - 8, m.px(22))
            draw_text(
                surface, board_label(name), label, m.small, theme.MUTED, lines=1, min_size=m.px(10)
            )
            slots = D.AREA_SPACES[name]
            inner = pygame.Rect(
                box.x + 4, label.bottom + 2, box.width - 8, box.bottom - label.bottom - 6
            )
            stacked = not m.portrait and name in ("kingsbridge", "shiring", "priory")
            cells = grid(inner, len(slots), 1 if stacked or len(slots) == 1 else 2, 4)
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
                        sub=self.slot_note(name, D.SPACES[k].slot)
                        if cell.height >= m.px(44)
                        else "",
                    )

    def _choices(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Archbishop, Thomas, tax exemption, events that ask, and discards."""
        m = self.m
        state = self.state
        actions = self.game.legal_actions(state)
        p = state.setup.players[state.turn]
        question = {
            "archbishop": _(
                "{name}: protection from the event, or a cube from the market?", name=p.name
            ),
            "thomas": _("{name}: play Thomas against this event?", name=p.name),
            "taxfree": _("{name}: play the tax exemption this round?", name=p.name),
            "lose": _("{name}: which craftsman leaves the game?", name=p.name),
            "boost": _("{name}: which craftsman works once more this round?", name=p.name),
            "draft-discard": _("{name}: which craftsman is discarded?", name=p.name),
            "shiring-discard": _("{name}: which craftsman is discarded?", name=p.name),
        }.get(state.step, step_title(state.step))
        if state.event and state.step in ("archbishop", "thomas", "lose", "boost"):
            question = card_name("pillars", state.event) + " · " + question
        body = self._header(surface, area, question, theme.TEXT, height=56)
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
            self.button(
                surface,
                cell,
                action_label(action),
                partial(self.propose, action),
                key=str(action),
                size=m.text,
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
            _("{name} trades (market space {n}): one type each turn, or pass", name=p.name, n=slot),
            theme.TEXT,
        )
        rows = split_v(body, 1, 1, 1, 1, 1, gap=m.gap)
        legal = {str(a) for a in self.game.legal_actions(state)}
        for r, (name, row) in enumerate(zip(D.RESOURCES, rows, strict=False)):
            price = D.MARKET_PRICE[r]
            stock = state.market[r] if r < 3 else None
            label_r, minus, qty_r, plus, buy_r, sell_r = split_h(row, 4, 1, 1, 1, 2, 2, gap=m.gap)
            sq = min(label_r.height - 8, m.px(18))
            pygame.draw.rect(
                surface,
                theme.RESOURCE[name],
                (label_r.x, label_r.centery - sq // 2, sq, sq),
                border_radius=3,
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
        s = state.seats[i]
        p = state.setup.players[i]
        usable = [c for c in s.craftsmen if not D.CRAFTSMEN[c].spec.auto]
        vp, gold, left, ok = self.conversion_result()
        summary = (
            _("{name}: +{vp} VP, {gold} gold left", name=p.name, vp=vp, gold=gold)
            if ok
            else _("{name}: not possible with these resources", name=p.name)
        )
        body = self._header(surface, area, summary, theme.ACCENT if ok else theme.BAD)
        foot = pygame.Rect(body.x, body.bottom - m.touch, body.width, m.touch)
        rows_area = pygame.Rect(body.x, body.y, body.width, body.height - m.touch - m.gap)
        n = max(1, len(usable))
        row_h = min(m.touch, (rows_area.height - m.gap * (n - 1)) // n)
        cells = grid(rows_area, len(usable), 1, m.gap, row_h)
        for c, row in zip(usable, cells, strict=True):
            card = D.CRAFTSMEN[c]
            cap = card.capacity + (s.boost == c) - dict(s.uses).get(c, 0)
            name_r, minus, qty_r, plus = split_h(row, 6, 1, 1, 1, gap=m.gap)
            t1, t2 = split_v(name_r, 1, 1)
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
        excess = sum(s.res) - 5
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

    # -- overlays in the decision panel ------------------------------------------------------
    def _lines(
        self, surface: pygame.Surface, area: pygame.Rect, lines: list[tuple[str, str]]
    ) -> None:
        m = self.m
        if not lines:
            return
        row_h = min(m.px(56), area.height // max(1, len(lines)))
        for k, (colour, text) in enumerate(lines):
            r = pygame.Rect(area.x, area.y + k * row_h, area.width, row_h)
            c = theme.PLAYER.get(colour, theme.TEXT)
            if colour:
                pygame.draw.rect(surface, c, (r.x, r.y + 4, m.px(6), r.height - 8))
            draw_text(
                surface,
                text,
                pygame.Rect(r.x + m.px(12), r.y, r.width - m.px(12), r.height),
                m.small,
                theme.TEXT,
                align="left",
                lines=2,
                min_size=m.px(10),
            )

    def _preview(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        p = self.preview
        assert p is not None
        panel(surface, area, theme.PANEL, border=theme.ACCENT)
        inner = area.inflate(-m.gap * 2, -m.gap * 2)
        title_r = pygame.Rect(inner.x, inner.y, inner.width, m.px(56))
        draw_text(surface, p.title, title_r, m.large, theme.ACCENT, bold=True, lines=2)
        foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
        body = pygame.Rect(
            inner.x, title_r.bottom + m.gap, inner.width, foot.y - title_r.bottom - m.gap * 2
        )
        lines = p.lines or [("", _("Nothing else changes"))]
        self._lines(surface, body, lines)
        cancel_r, ok_r = split_h(foot, 1, 1, gap=m.gap)
        self.button(surface, cancel_r, _("Cancel"), self.cancel_preview, key="cancel", role="back")
        self.button(
            surface,
            ok_r,
            _("Confirm"),
            self.confirm_preview,
            key="confirm",
            role="confirm",
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
        )

    def _result(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        assert self.result is not None
        title, lines = self.result
        panel(surface, area, theme.PANEL, border=theme.ACCENT)
        inner = area.inflate(-m.gap * 2, -m.gap * 2)
        title_r = pygame.Rect(inner.x, inner.y, inner.width, m.px(56))
        draw_text(surface, title, title_r, m.large, theme.ACCENT, bold=True, lines=2)
        foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
        body = pygame.Rect(
            inner.x, title_r.bottom + m.gap, inner.width, foot.y - title_r.bottom - m.gap * 2
        )
        self._lines(surface, body, lines)
        self.button(
            surface,
            foot,
            _("Continue"),
            self.dismiss_result,
            key="continue",
            role="confirm",
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
        )

    def dismiss_result(self) -> None:
        self.result = None
        if self.game.is_over(self.state):
            open_game(self.app)

    def _help(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        panel(surface, area, theme.PANEL, border=theme.ACCENT)
        inner = area.inflate(-m.gap * 3, -m.gap * 3)
        title_r = pygame.Rect(inner.x, inner.y, inner.width, m.px(40))
        draw_text(
            surface, step_title(self.state.step), title_r, m.large, theme.ACCENT, bold=True, lines=1
        )
        foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
        body = pygame.Rect(
            inner.x, title_r.bottom + m.gap, inner.width, foot.y - title_r.bottom - m.gap * 2
        )
        draw_text(
            surface,
            step_help(self.state.step),
            body,
            m.text,
            theme.TEXT,
            align="left",
            valign="top",
            lines=10,
            min_size=m.px(12),
        )
        self.help_footer(surface, foot)

    def _animation(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        assert self.anim is not None
        kind, left, value = self.anim
        total = DRAW_SECONDS if kind == "draw" else ROLL_SECONDS
        t = 1 - left / total
        if kind == "draw":
            colour = value
            if t < 0.6:
                wobble = int(math.sin(t * 40) * m.px(10))
                bag = pygame.Rect(0, 0, area.width // 3, area.height // 2)
                bag.center = (area.centerx + wobble, area.centery)
                pygame.draw.ellipse(surface, (120, 90, 60), bag)
                draw_text(surface, _("Drawing…"), area, m.large, theme.TEXT)
            else:
                panel(surface, area, theme.PLAYER[colour])
                name = next(p.name for p in self.state.setup.players if p.colour == colour)
                draw_text(surface, name, area, m.huge, theme.PLAYER_TEXT[colour], bold=True)
        else:
            face = value if t > 0.75 else (2, 3, 4, 5, 3, 4)[int(t * 24) % 6]
            die = pygame.Rect(
                0, 0, min(area.width, area.height) // 2, min(area.width, area.height) // 2
            )
            die.center = area.center
            panel(surface, die, theme.TEXT, radius=die.width // 6)
            draw_text(surface, str(face), die, m.huge * 2, theme.OUTLINE, bold=True)


def short_craftsman(card: str) -> str:
    """A short name for the players' panel."""
    return short_card_name("pillars", card)


def why_not_revealed(state: Any, card: str) -> str:
    """Why a card shown to the camera cannot be the one the table is revealing."""
    name = card_name("pillars", card)
    kinds: dict[str, Collection[str]] = {
        "privilege": D.PRIVILEGES,
        "craftsman": D.CRAFTSMEN,
        "resource": D.RESOURCE_CARDS,
        "event": D.EVENTS,
        "peek": D.EVENTS,
    }
    if card not in kinds[state.step]:
        return _(
            "The table is revealing {what}, not {card}", what=step_title(state.step), card=name
        )
    if state.step == "craftsman" and D.CRAFTSMEN[card].round != state.round:
        return _(
            "{card} is a craftsman of round {r}; this is round {n}",
            card=name,
            r=D.CRAFTSMEN[card].round,
            n=state.round,
        )
    if state.step == "privilege" and state.round < D.ROUNDS and card in D.LAST_ROUND_PRIVILEGES:
        return _("{card} comes out only in round 6", card=name)
    return _("{card} has already been revealed", card=name)


def without_details(name: str) -> str:
    """A card name without its bracketed details: ``Prior Philip (+1 VP ...)`` -> ``Prior
    Philip`` (also with the full-width brackets of Chinese and Japanese)."""
    for bracket in (" (", "（", "("):
        if bracket in name:
            return name.split(bracket)[0].strip()
    return name


def board_label(area: str) -> str:
    """The area's name as a label on the board drawing (no leading article in English)."""
    name = area_name(area)
    return name[4:5].upper() + name[5:] if name.startswith("the ") else name


def formula(kind: str) -> str:
    """What one use of a craftsman kind does, e.g. ``1 stone → 2 VP``."""
    spec = D.KINDS[kind]
    ins = [f"{n} {resource_name(D.RESOURCES[r])}" for r, n in enumerate(spec.inputs[:4]) if n]
    if spec.inputs[4]:
        ins.append(_("{n} gold", n=spec.inputs[4]))
    outs = []
    if spec.vp:
        outs.append(_("{n} VP", n=spec.vp))
    if spec.gold:
        outs.append(_("{n} gold", n=spec.gold))
    return " + ".join(ins) + " → " + " + ".join(outs)


def action_label(action: Action) -> str:
    """A button label for a decision, in the current language."""
    verb = action.verb
    arg = str(action.args[0]) if action.args else ""
    if verb == "archbishop":
        if arg == "protect":
            return _("Protection from the event")
        return _("Take 1 {res} from the market", res=resource_name(arg))
    if verb == "play":
        return _("Play it now")
    if verb == "keep":
        return _("Keep it for later")
    if verb in ("lose", "boost", "discard", "craft"):
        return card_name("pillars", arg)
    if verb == "pass":
        return _("Pass")
    if verb == "done":
        return _("Done")
    return str(action)


def describe_action(action: Action, state: Any) -> str:
    """A title for the preview of ``action``."""
    verb = action.verb
    arg = str(action.args[0]) if action.args else ""
    if verb in ("privilege", "craftsman", "resource", "event"):
        return _("Revealed: {card}", card=card_name("pillars", arg))
    if verb == "take":
        return _("Take {card}", card=card_name("pillars", arg))
    if verb in ("place", "remigius"):
        return _("Place on {space}", space=space_name(arg))
    if verb == "convert" or verb == "done":
        return _("The cathedral")
    if verb in ("buy", "sell"):
        n = int(action.args[1])
        return (
            _("Buy {n} {res}", n=n, res=resource_name(arg))
            if verb == "buy"
            else _("Sell {n} {res}", n=n, res=resource_name(arg))
        )
    return action_label(action)


__all__ = ["PillarsScreen"]
