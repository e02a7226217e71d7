"""The Pillars of the Earth at the table: one screen that follows the round step by step.

The top bar says the round, the step and whose decision it is; the players' panel shows
everyone's VP, gold, resources, workers and craftsmen; the decision panel offers exactly what
the engine allows now.  Cards the table reveals are tapped in from a picker of the cards still
possible (or drawn by the companion with the virtual deck); DRAW and ROLL replace the bag and
the die.  Anything with effects beyond the tap (a reveal, an event, the end of a round) is
previewed and confirmed before it is committed.

This module is the flow (inputs, previews, commits, animations); the step panels are in
``panels.py`` and the words in ``words.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from companion.engine import CHANCE
from companion.engine.simulate import sample
from companion.events import Role
from companion.kiosk.api import (
    Breakdown,
    Card,
    GameScreen,
    HandOut,
    StepPanel,
    _,
    draw_breakdown,
    draw_preview,
    draw_result,
    fitting,
    handout_fits,
    help_frame,
    lines_fit,
    name_of,
    open_game,
    paged_help,
    period_table,
    split_h,
    split_v,
    theme,
)
from companion.pillars import PillarsGame
from companion.pillars.actions import Action
from companion.pillars.state import PillarsState

from .board import DrawPanel, PlacePanel
from .cardhelp import card_help, space_help, step_text
from .changes import explained
from .choices import ChoicesPanel, DraftPanel, PickerPanel, RollPanel
from .handouts import PillarsHandOuts, dealt_step
from .moments import DRAW_SECONDS, ROLL_SECONDS, Animation, AnimationPanel, EllenPanel
from .players import PlayersPanel
from .sentences import visit_instruction
from .trade import CathedralPanel, MarketPanel, ReturnPanel
from .words import CARD_STEPS, describe_action, step_title

if TYPE_CHECKING:
    from companion.kiosk.api import Kiosk

VISITS = ("market", "cathedral")
"""The steps where one seat decides several times in a row, in one visit."""



class PillarsScreen(GameScreen[PillarsState, Action]):
    """The table screen for a game of Pillars: the top bar and the players, and over the
    decision area one step panel at a time (or a hand-out step, a preview, a result)."""

    game: PillarsGame

    def __init__(self, app: Kiosk) -> None:
        super().__init__(app)
        self.players = PlayersPanel(self)
        self.market = MarketPanel(self)
        self.cathedral = CathedralPanel(self)
        self.returns = ReturnPanel(self)
        self.place = PlacePanel(self)
        self.picker = PickerPanel(self)
        self.draw_panel = DrawPanel(self)
        self.roll_panel = RollPanel(self)
        self.draft = DraftPanel(self)
        self.choices = ChoicesPanel(self)
        self.step_panels: dict[str, StepPanel[PillarsScreen]] = {
            **{step: self.picker for step in CARD_STEPS},
            "draft": self.draft, "draw": self.draw_panel, "place": self.place,
            "parked": self.place, "roll": self.roll_panel, "market": self.market,
            "cathedral": self.cathedral, "return": self.returns,
        }
        self.result: tuple[str, list[tuple[str, str]]] | None = None
        self.result_table: Breakdown | None = None  # the result is a round's breakdown
        self.waiting: list[tuple[str, list[tuple[str, str]], Breakdown | None]] = []
        self.anim: Animation | None = None  # a draw or a roll on show
        self.local_key: tuple[int, str, int] | None = None
        self.after_result: list[tuple[int, HandOut]] = []  # hand-outs shown after the result
        self.ellen = EllenPanel(self)  # Ellen's early look, for her owner alone
        self.animation = AnimationPanel(self)

    def panel_for(self, step: str) -> StepPanel[PillarsScreen]:
        """The step panel of ``step`` (the questions' panel for the others)."""
        return self.step_panels.get(step, self.choices)

    def explain_card(self, card: str) -> None:
        """A finger held on a card: what it does."""
        self.read(*card_help(card))

    def explain_space(self, space: str) -> None:
        """A finger held on a board space: what it gives and costs now, who is on it."""
        self.read(*space_help(self.game, self.state, space))

    def draw_builder(self) -> None:
        """DRAW: the companion's bag.  The draw is committed, then shown with a short
        animation."""
        state = self.state
        if state.step != "draw":
            return
        outcome = sample(self.game.chance_outcomes(state), self.app.rng)
        if self.commit(outcome):
            self.anim = Animation("draw", DRAW_SECONDS, str(outcome.args[0]))

    def hand_out_plan(self) -> PillarsHandOuts:
        return PillarsHandOuts(self.game)

    def on_show(self) -> None:
        self.handout_view.resume()  # a game opened (or reopened after a restart): what is pending
        self.after_play()

    # -- flow ------------------------------------------------------------------------------
    def after_play(self) -> None:
        """After every committed action: virtual cards, the end, fresh local choices."""
        self.deal_virtual()
        if self.finished():
            open_game(self.app)
            return
        state = self.state
        key = (state.round, state.step, state.turn)
        if key != self.local_key:  # a new step or turn: every panel's choices afresh
            self.local_key = key
            for panel_ in {id(p): p for p in self.step_panels.values()}.values():
                panel_.reset()

    def finished(self) -> bool:
        """The game is over and nothing is left to show or hand out: the end screen."""
        return bool(self.game.is_over(self.state) and self.anim is None and self.result is None
                    and self.handouts.current is None)

    def deal_one(self) -> bool:
        """The companion turns over the card the table would: committed before it is shown,
        its hand-out steps queued."""
        before = self.state
        index = len(self.session.playthrough.actions)
        outcome = sample(self.game.chance_outcomes(before), self.app.rng)
        if not self.play(outcome, dealt=True):
            return False
        self.hand_out(index, before, outcome, self.state)
        return True

    def deal_virtual(self) -> None:
        """With the virtual deck, deal the cards the table would turn over, each committed
        before it is shown; then hand out what was dealt at the start of a round (so the
        board matches), and keep Ellen's early look for her owner alone."""
        if not self.app.config.virtual_deck:
            return
        before = self.state
        index = len(self.session.playthrough.actions)

        def dealing() -> bool:
            s = self.state
            return bool(self.game.current_player(s) == CHANCE and s.step in CARD_STEPS
                        and s.step != "peek")

        while dealing() and self.deal_one():
            pass
        state = self.state
        if state.step == "peek":
            seat = self.game.active_seat(state)
            outcome = sample(self.game.chance_outcomes(state), self.app.rng)
            if self.play(outcome, dealt=True) and seat is not None:
                if seat in self.session.companions:  # the companion looked; nobody else may
                    self.app.toast(_("{name} has seen the coming event; it stays secret until "
                                     "phase III", name=name_of(state.setup.players[seat])),
                                   good=True, now=True)
                else:
                    self.ellen.keep(seat, str(outcome.args[0]))
            while dealing() and self.deal_one():
                pass
        if before.step in ("privilege", "craftsman", "resource") and self.state is not before:
            last = len(self.session.playthrough.actions) - 1
            if self.result is not None:  # the round's breakdown first, then the new round
                self.after_result.append((max(index, last), dealt_step(self.state)))
            else:
                self.handouts.add(max(index, last), [dealt_step(self.state)])

    def card_seen(self, seen: Card) -> None:
        """A card read by the camera: the outcome of the reveal the table is waiting for (the
        engine decides), previewed; Ellen's early look is recorded without showing it."""
        if self.preview is not None:
            return  # one reveal at a time: the table confirms what it showed first
        outcome = self.read_card(seen)
        if outcome is None:
            return
        if self.state.step == "peek" and not self.ellen.private_open:
            self.commit(outcome)  # the owner showed it to the camera: the screen keeps it
            return
        self.propose(outcome)

    def act(self, action: Action) -> None:
        self.propose(action)

    def wants_preview(self, state: PillarsState, action: Action, after: PillarsState) -> bool:
        """A reveal, or an action that changes more than the acting player's own holdings."""
        actor = state.setup.players[state.turn].colour if state.turn >= 0 else ""
        others = [c for c in explained(self.game, state, after) if c[0] != actor]
        chance = self.game.current_player(state) == CHANCE
        return bool(chance or others or after.round != state.round or after.over)

    def preview_title(self, state: PillarsState, action: Action) -> str:
        return describe_action(action, state)

    def preview_lines(self, state: PillarsState, after: PillarsState) -> list[tuple[str, str]]:
        return explained(self.game, state, after)

    def committed(self, before: PillarsState, action: Action) -> None:
        """Sounds, Ellen's secret, the round's breakdown, then the next step's choices."""
        if before.step == "peek":
            self.ellen.reset()
            seat = self.game.active_seat(before)
            if seat is not None:
                self.app.toast(
                    _("{name} has seen the coming event; it stays secret until phase III",
                      name=name_of(before.setup.players[seat])),
                    good=True,
                    now=True,
                )
        self.market.reset()
        after = self.state
        if action.verb == "draw":
            self.app.sounds.play("draw")
        elif action.verb == "roll":
            self.app.sounds.play("roll")
        elif after.round != before.round or after.over:
            self.app.sounds.play("score")
        if after.round != before.round or (after.over and not before.over):
            self.show_round_end(before.round)
        self.after_play()

    def commit_companion(self, action: Action, *, dealt: bool = False) -> None:
        self.commit(action, dealt=dealt)

    def handout_text(self, step: HandOut) -> str:
        """What the card on a hand-out step does (the event's card text)."""
        return card_help(step.card)[1] if step.card else ""

    def same_visit(self, before: PillarsState, after: PillarsState) -> bool:
        """A market visit and the craftsmen's uses at the cathedral are one visit: the same
        seat, still at the same step of the same round."""
        return bool(before.step in VISITS and after.step == before.step
                    and after.round == before.round and after.turn == before.turn
                    and not after.over)

    def visit_instruction(self, state: PillarsState, actions: list[Action],
                          states: list[PillarsState]) -> str:
        return visit_instruction(states, actions)

    def show_result(
        self, title: str, lines: list[tuple[str, str]], table: Breakdown | None = None
    ) -> None:
        """Show what happened (with Continue); one result at a time, the others wait."""
        if self.result is not None:
            self.waiting.append((title, lines, table))
            return
        self.result = (title, lines)
        self.result_table = table

    def show_round_end(self, round_no: int) -> None:
        """The end of a round: each player's VP and gold of the round by source (the Priory,
        the event, tax, the cathedral, the market...) and where they stand, shown before the
        next round begins, until the table dismisses it."""
        table = period_table(
            self.game, self.state, round_no, _("Round {n}: points and gold", n=round_no)
        )
        self.show_result(table.title, table.lines(), table)

    def roll_die(self) -> None:
        """ROLL: the tax die, committed, then animated; then who paid what (a hand-out)."""
        if self.state.step != "roll":
            return
        outcome = sample(self.game.chance_outcomes(self.state), self.app.rng)
        if self.commit(outcome):
            self.anim = Animation("roll", ROLL_SECONDS, int(outcome.args[0]))

    def handouts_done(self) -> None:
        if self.finished():
            open_game(self.app)

    def hint_visit(self, state: PillarsState) -> bool:
        """A market hint proposes the whole visit: the sales and purchases, then done."""
        return state.step == "market"

    def held_hand_outs(self) -> int:
        """The new round's cards, dealt while the round's breakdown is on show."""
        return len(self.after_result)

    def teach_kind(self, state: PillarsState) -> str:
        """The step of the round (teach mode; not Ellen's look, whose owner alone may read
        the screen then)."""
        return "" if state.over or state.step == "peek" else str(state.step)

    def update(self, dt: float) -> bool:
        companion = super().update(dt)
        if self.anim is None:
            return companion
        self.anim.left -= dt
        if self.anim.left <= 0:
            self.anim = None
            if self.finished():
                open_game(self.app)
        return True

    def animating(self) -> bool:
        return self.anim is not None

    def undo(self) -> None:
        self.result = None
        self.result_table = None
        self.waiting = []
        self.after_result = []
        super().undo()
        self.local_key = None
        self.after_play()

    def back(self) -> None:
        if self.close_overlay():
            return
        if self.result is not None:
            self.dismiss_result()
        else:
            self.home()

    # -- drawing ---------------------------------------------------------------------------
    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        state = self.state
        body = self.players.top(surface)
        if m.portrait:
            decision, players = split_v(body.inflate(-m.gap * 2, -m.gap * 2), 2, 1, gap=m.gap)
        else:
            players, decision = split_h(body.inflate(-m.gap * 2, -m.gap * 2), 2, 3, gap=m.gap)
        handout = self.handouts.current
        if self.anim is None and handout is not None:
            whole = body.inflate(-m.gap * 2, -m.gap * 2)
            if not handout_fits(self, surface, decision, handout, self.game.name):
                decision = whole
            else:
                self.players.render(surface, players)
        elif self.anim is None and (
            self.preview is not None or self.result is not None or self.help_open
        ):
            # what an action changes, by cause, and the help need the width: the players wait
            decision = body.inflate(-m.gap * 2, -m.gap * 2)
        else:
            self.players.render(surface, players)
        if self.anim is None and handout is None and self.result is not None and (
                self.result_table is not None):
            self._round_end(surface, body.inflate(-m.gap * 2, -m.gap * 2))
        elif self.help_open and self.anim is None and self.result is None and handout is None and (
            self.preview is None and self.tableau is None and not self.ellen.due()
        ):
            self._help(surface, body.inflate(-m.gap * 2, -m.gap * 2))  # room for the numbers
        elif self.anim is not None:
            self.animation.render(surface, decision)
        elif handout is not None:
            self.handout_panel(surface, decision)
        elif self.result is not None:  # over the players too when it needs the room
            whole = body.inflate(-m.gap * 2, -m.gap * 2)
            fit = lines_fit(self, decision, self.result[1])
            self._result(surface, decision if fit else whole)
        elif self.preview is not None:
            whole = body.inflate(-m.gap * 2, -m.gap * 2)
            fit = lines_fit(self, decision, self.preview.lines)
            self._preview(surface, decision if fit else whole)
        elif self.tableau is not None:
            self.players.render_tableau(surface, decision)
        elif self.ellen.due():
            self.ellen.render(surface, decision)
        elif self.help_open:
            self._help(surface, decision)
        elif not self.companion_panel(surface, decision):
            self.panel_for(state.step).render(surface, decision)

    # -- overlays in the decision panel ------------------------------------------------------
    def _preview(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        p = self.preview
        assert p is not None
        draw_preview(self, surface, area, p.title, p.lines, self.cancel_preview,
                     self.confirm_preview)

    def _result(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        assert self.result is not None
        title, lines = self.result
        draw_result(self, surface, area, title, lines, self.dismiss_result)

    def _round_end(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """A round's breakdown over the whole body, with Continue."""
        assert self.result is not None and self.result_table is not None
        body, foot = help_frame(self, surface, area, self.result[0])
        draw_breakdown(surface, self.m, body, self.result_table)
        self.button(surface, foot, _("Continue"), self.dismiss_result, key="continue",
                    role=Role.CONFIRM, fill=theme.ACCENT, text_colour=theme.OUTLINE)

    def dismiss_result(self) -> None:
        """Continue: the next result waiting, else the hand-outs that waited for it, else
        the game (its end screen once it is over)."""
        if not self._next_result() and self.finished():
            open_game(self.app)

    def _next_result(self) -> bool:
        """The result on show put away, the hand-outs that waited for it queued and the next
        result waiting shown: True if there was one.  (No list is changed in place but the
        queue's, which ``continue_ahead`` copies first.)"""
        self.result = None
        self.result_table = None
        for index, step in self.after_result:
            self.handouts.add(index, [step])
        self.after_result = []
        if self.waiting:
            (title, lines, table), self.waiting = self.waiting[0], self.waiting[1:]
            self.show_result(title, lines, table)
            return True
        return False

    def continue_ahead(self) -> Callable[[], None] | None:
        """Continue on the result on show, for a frame drawn ahead; None when no result is
        on show (under a hand-out step or the die) or when Continue ends the game."""
        if self.result is None or self.anim is not None or self.handouts.current is not None:
            return None
        if not self.waiting and not self.after_result and self.game.is_over(self.state):
            return None  # the end screen: another screen
        return self._continued_ahead

    def _continued_ahead(self) -> None:
        self.handouts = self.handout_view.queue = self.handouts.copy()
        self._next_result()

    def _help(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        title = step_title(self.state.step)
        if self.teacher.teaching:  # (the step's name alone where "New:" does not fit)
            title = fitting(surface, pygame.Rect(0, 0, area.width - self.m.gap * 6,
                                                 self.m.px(40)),
                            self.m.large, _("New: {step}", step=title), title, bold=True)
        body, foot = help_frame(self, surface, area, title)
        paged_help(self, surface, body, foot, [(step_text(self.game, self.state), theme.TEXT)])


__all__ = ["PillarsScreen", "dealt_step"]
