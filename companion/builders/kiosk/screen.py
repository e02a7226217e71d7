"""The Builders: Middle Ages at the table: one screen for a turn, composed of step panels.

A large action-point counter; the building and worker rows with the visible top of the
building deck (``RowsPanel``); the active player's sites with what each has against what it
needs and the AP the next worker sent there would cost, and the idle workers and machines
(``MinePanel``); the turn's actions (``ActionsPanel``); coins and VP for everyone
(``ScoresPanel``).  Every action shows its cost before it is taken; a refusal shows the
engine's reason.  Cards the table turns over to refill a row are tapped in (``PickerPanel``) or
drawn by the companion; the companion's turn is one instruction beside the board
(``CompanionTurnPanel``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.builders import BuildersGame
from companion.builders.actions import END_TURN, Action, Recruit, Send, Start
from companion.builders.state import BuildersState
from companion.engine import CHANCE
from companion.engine.simulate import sample
from companion.kiosk.api import (
    GameScreen,
    Input,
    _,
    card_name,
    change_lines,
    draw_preview,
    draw_text,
    handout_fits,
    n_,
    name_of,
    open_game,
    panel,
    retained,
    split_h,
    split_v,
    theme,
)

from .cardhelp import card_help
from .handouts import BuildersHandOuts, deal_line, deal_step
from .panels import (
    ActionsPanel,
    Celebration,
    CelebrationPanel,
    CompanionTurnPanel,
    HelpPanel,
    MinePanel,
    PickerPanel,
    RowsPanel,
    ScoresPanel,
    TableauPanel,
)
from .panels.mine import supply_text
from .turnend import turn_ended_by_itself

if TYPE_CHECKING:
    from companion.kiosk.api import Kiosk


def screen_key(state: BuildersState) -> str:
    """Which kind of screen a state shows (for screenshots)."""
    if state.over:
        return "over"
    if state.pending:
        return "reveal"
    p = state.players[state.turn_player]
    if state.end:
        return "last-round"
    if len(p.sites) >= 2 and len(set(p.idle)) >= 5:
        return "turn-crowded"
    if p.sites and p.idle:
        return "turn-sites"
    return "turn"


class BuildersScreen(GameScreen[BuildersState, Action]):
    """The table screen for a game of The Builders: the panels, the way an action is taken
    (a preview first when undo could not take it back), and the commit."""

    game: BuildersGame

    def __init__(self, app: Kiosk) -> None:
        super().__init__(app)
        self.rows = RowsPanel(self)
        self.mine = MinePanel(self)
        self.actions = ActionsPanel(self)
        self.scores = ScoresPanel(self)
        self.picker = PickerPanel(self)
        self.companion_turn = CompanionTurnPanel(self)
        self.helper = HelpPanel(self)
        self.tableau_panel = TableauPanel(self)
        self.celebration = CelebrationPanel(self)
        self.body: pygame.Rect | None = None  # the area below the bar, as last drawn
        self.in_plan = False  # committing the companion's planned turn, step by step

    @property
    def selected(self) -> str | None:
        """The idle worker picked to be sent, if any."""
        return self.mine.s.selected

    @property
    def celebrate(self) -> Celebration | None:
        """The completion being celebrated, if any."""
        return self.celebration.now

    def on_show(self) -> None:
        self.handout_view.resume()  # a game opened (or reopened after a restart): what is pending
        self.after_play()

    def after_play(self) -> None:
        """After a commit (or an undo): the virtual deck's cards, the end screen once the game
        is over and everything is handed out, a picked worker no longer idle forgotten."""
        self.deal_virtual()
        self.picker.s.page = 0
        if self.finished():
            open_game(self.app)
            return
        self.mine.drop_gone()

    def finished(self) -> bool:
        """The game is over, celebrated and handed out: the end screen is next."""
        return (self.game.is_over(self.state) and self.celebration.now is None
                and self.handouts.current is None)

    def deal_virtual(self) -> None:
        """With the virtual deck, deal the cards the table would turn over (each committed
        before it is shown), then hand them out as one step: which card goes where."""
        if self.app.config.virtual_deck:
            self.deal(every=True)

    def deal(self, every: bool = False) -> None:
        """The companion deals for the table (one card, or ``every`` card due), each
        committed before it is shown; then one hand-out step: which card goes where."""
        index = len(self.session.playthrough.actions)
        lines = []
        while self.game.current_player(self.state) == CHANCE:
            before = self.state
            outcome = sample(self.game.chance_outcomes(before), self.app.rng)
            if not self.play(outcome, dealt=True):
                break
            lines.append(deal_line(before, outcome))
            if not every:
                break
        if lines:
            self.handouts.add(index, [deal_step(lines)])
        if not every:
            self.after_play()

    def handle(self, inp: Input) -> None:
        if self.handouts.current is None and self.companion_turn.due():
            if self.companion_turn.handle(inp):
                return
        elif self.game.current_player(self.state) == CHANCE and self.picker.handle(inp):
            return
        super().handle(inp)

    # -- an action: the shared card -> preview -> commit flow ---------------------------------
    def hand_out_plan(self) -> BuildersHandOuts:
        return BuildersHandOuts(self.game)

    def act(self, action: Action) -> None:
        self.propose(action)

    def wants_preview(self, state: BuildersState, action: Action, after: BuildersState) -> bool:
        """Undo could not take it back: a card taken from a row (the next card is
        revealed), a card tapped in for a reveal, the end of the turn that ends the game."""
        return self.irreversible(action, state, after) is not None

    def preview_title(self, state: BuildersState, action: Action) -> str:
        return self.irreversible(action, state, self.game.apply(state, action)) or ""

    def preview_lines(self, state: BuildersState, after: BuildersState) -> list[tuple[str, str]]:
        return self.changes(state, after)

    def irreversible(self, action: Action, state: BuildersState,
                     after: BuildersState) -> str | None:
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

    def take(self, action: Action) -> None:
        """Commit ``action`` now (no preview: a button whose cost it shows)."""
        self.commit(action)

    def commit_companion(self, action: Action, *, dealt: bool = False) -> None:
        self.commit(action, dealt=dealt)

    def commit_plan(self, actions: list[Action]) -> None:
        """The companion's turn, confirmed once: each step committed in order through the
        journal (a refusal stops there), the cards it deals among them, then what follows."""
        self.in_plan = True
        try:
            for action in actions:  # a card among them: the virtual deck dealt it
                dealt = self.game.current_player(self.state) == CHANCE
                if not self.commit(action, dealt=dealt):
                    break
        finally:
            self.in_plan = False
        self.after_play()

    def committed(self, before: BuildersState, action: Action) -> None:
        """Celebrate what the action completed, say what the rules did by themselves (the end
        triggered, a turn that ended with nothing left to do), then deal and go on."""
        after = self.state
        done = [
            _("{name} completes {card}: +{coins} coins, +{vp} VP",
              name=name_of(before.setup.players[c.seat]) if c.seat < len(before.setup.players)
              else _("the Automa"),
              card=card_name(self.game.name, c.card), coins=c.coins, vp=c.vp)
            for c in self.game.completions(before, after)
        ]
        if done:
            self.celebration.start(done)
            self.app.sounds.play("score")
        if self.game.end_reason(after) and not self.game.end_reason(before):
            self.app.toast(self.end_notice(), good=True, now=True)
        ended = turn_ended_by_itself(self.game, before, after, action)
        if ended:
            self.app.toast(ended, good=True, now=not self.game.end_reason(after))
        self.mine.s.selected = None
        if not self.in_plan:
            self.after_play()

    def handouts_done(self) -> None:
        if self.finished():
            open_game(self.app)

    def turns_left(self) -> int:
        """Turns still to play in the last round, the current one included."""
        return self.game.turns_left(self.state) or 0

    def end_notice(self) -> str:
        return n_("17 VP reached: the round is completed, {n} more turn",
                  "17 VP reached: the round is completed, {n} more turns", self.turns_left())

    def thinking(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The companion's thinking indicator in ``area`` (its turn's panel, still thinking)."""
        self.companion_view.thinking(surface, area)

    def explain(self, card: str) -> None:
        """A finger held on a card: what it needs, pays or supplies."""
        self.read(*card_help(card, self.state))

    def likely_now(self, legal: list[Action]) -> list[Action]:
        """Once a worker is picked, the table's next tap likely sends it: its sends."""
        picked = self.mine.s.selected
        return [a for a in legal if isinstance(a, Send) and a.worker == picked]

    def ui_variants(self) -> Iterator[Callable[[], None]]:
        """Each idle worker picked (the first tap of a send), on a person's turn."""
        if self.companion_turn.due() or self.game.current_player(self.state) < 0:
            return iter(())
        me = self.state.players[self.state.turn_player]
        return (partial(self.mine.select, w) for w in dict.fromkeys(me.idle))

    # -- time, undo, back ---------------------------------------------------------------------
    def teach_kind(self, state: BuildersState) -> str:
        """A turn and the last round (teach mode; the cards the table turns over are asked
        for by the picker itself, which the help would not cover)."""
        kind = screen_key(state)
        return "turn" if kind.startswith("turn") else "last-round" if kind == "last-round" else ""

    def update(self, dt: float) -> bool:
        changed = super().update(dt)
        if self.companion_turn.update():
            self.companion_view.only_indicator = False  # more than the indicator changed
            changed = True
        if self.celebration.now is None:
            return changed
        if self.celebration.step(dt) and self.finished():
            open_game(self.app)
        return True

    def animating(self) -> bool:
        return self.celebration.now is not None

    def undo(self) -> None:
        self.mine.s.selected = None
        super().undo()
        self.after_play()

    def back(self) -> None:
        if self.close_overlay():
            return
        if self.mine.s.selected is not None:
            self.mine.s.selected = None
        else:
            self.home()

    # -- drawing ------------------------------------------------------------------------------
    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        body = self._top(surface).inflate(-m.gap * 2, -m.gap * 2)
        self.body = body
        if self.preview is not None:
            p = self.preview
            draw_preview(self, surface, body, p.title, p.lines, self.cancel_preview,
                         self.confirm_preview)
        elif self.tableau is not None:
            self.tableau_panel.render(surface, body)
        elif self.handouts.current is not None:
            self._beside_board(surface, body, self._handout)
        elif self.game.current_player(self.state) == CHANCE:
            self.picker.render(surface, body)
        elif self.help_open:
            self.helper.render(surface, body)
        elif self.companion_turn.due():
            self._beside_board(surface, body, self.companion_turn.render)
        else:
            self._board(surface, body)
        self.celebration.render(surface, body)

    def _board(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        """A person's turn: the rows, the player's sites and workers, the actions, the
        scores."""
        m = self.m
        if m.portrait:  # the player's panel as tall as its sites and workers need, within reason
            rows_r, mine_r, actions_r, others_r = split_v(body, 11, 6, 2, 2, gap=m.gap)
            least = self.rows.least_height(surface)
            grow = min(self.mine.wanted_height(surface, mine_r.width) - mine_r.height,
                       rows_r.height - least)
            if grow > 0:
                rows_r.height -= grow
                mine_r.y -= grow
                mine_r.height += grow
        else:
            left, right = split_h(body, 13, 7, gap=m.gap)  # the rows' names need the width
            rows_r, actions_r = split_v(left, 6, 1, gap=m.gap)
            mine_r, others_r = split_v(right, 5, 2, gap=m.gap)
        self.rows.render(surface, rows_r)
        self.mine.render(surface, mine_r)
        self.actions.render(surface, actions_r)
        self.scores.render(surface, others_r)

    def _beside_board(self, surface: pygame.Surface, body: pygame.Rect,
                      draw: Callable[[pygame.Surface, pygame.Rect], None]) -> None:
        """A step the table follows on the board (the companion's turn, a hand-out) in a
        panel beside the rows, which stay in view: the table takes and deals cards there."""
        m = self.m
        if self.hint_open and self.app.companion.hint is not None:  # a person's choice
            panel_r, others_r = split_v(body, 6, 1, gap=m.gap)
            draw(surface, panel_r)
            self.scores.render(surface, others_r)
            return
        if m.portrait:  # the rows as tall as their cards need, the scores one line
            rows_h = self.rows.least_height(surface)
            scores_h = m.touch
            rows_r = pygame.Rect(body.x, body.y, body.width, rows_h)
            panel_r = pygame.Rect(body.x, rows_r.bottom + m.gap, body.width,
                                  body.height - rows_h - scores_h - m.gap * 2)
            others_r = pygame.Rect(body.x, body.bottom - scores_h, body.width, scores_h)
            self.scores.render(surface, others_r)
        else:  # the rows as wide as on a person's turn (their names need it), the panel beside
            rows_r, panel_r = split_h(body, 13, 7, gap=m.gap)
        self.rows.render(surface, rows_r)
        draw(surface, panel_r)

    def _handout(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The hand-out step due, beside the rows, or over the whole body when it needs it."""
        step = self.handouts.current
        assert step is not None
        body = self.body if self.body is not None else area
        if not handout_fits(self, surface, area, step, self.game.name):
            area = body
            pygame.draw.rect(surface, theme.BG, area)
        self.handout_panel(surface, area)

    def _top(self, surface: pygame.Surface) -> pygame.Rect:
        """The bar: the round, whose turn it is and the AP left (or that the table reveals);
        the body below it."""
        bar = pygame.Rect(0, 0, surface.get_width(), self.bar_bottom())
        return retained.panel(self, surface, bar, top_key(self), partial(self._draw_top, surface),
                              "builders bar")

    def _draw_top(self, surface: pygame.Surface) -> pygame.Rect:
        m = self.m
        state = self.state
        left, body = self.standard_bar(surface)
        round_no = (state.turn - 1) // len(state.players) + 1
        if self.game.current_player(state) == CHANCE:
            draw_text(surface, _("Round {n}", n=round_no) + " · " + _("The table reveals"), left,
                      m.text, theme.MUTED, align="left", lines=1)
            return body
        info_r, ap_r = split_h(left, 3, 2, gap=m.gap)
        p = state.setup.players[state.turn_player]
        t1, t2 = split_v(info_r, 1, 1)
        first = (
            n_("Last round: {n} turn left", "Last round: {n} turns left", self.turns_left())
            if state.end
            else _("Round {n}", n=round_no)
        )
        draw_text(surface, first, t1, m.small, theme.BAD_TEXT if state.end else theme.ACCENT,
                  align="left", lines=1, bold=bool(state.end))
        draw_text(surface, _("{name}'s turn", name=name_of(p)), t2, m.text,
                  theme.PLAYER_INK[p.colour], align="left", bold=True, lines=1)
        panel(surface, ap_r, theme.ACCENT)
        draw_text(surface, _("{n} AP", n=state.ap), ap_r, m.large, theme.OUTLINE, bold=True,
                  lines=1)
        return body


def top_key(screen: BuildersScreen) -> tuple[object, ...]:
    """Everything the bar is drawn from (``BuildersScreen._top``): the turn, whose it is, the
    AP left, the last round's turns, the hint and undo offered."""
    state = screen.state
    chance = screen.game.current_player(state) == CHANCE
    return (chance, state.turn, len(state.players), state.end,
            screen.turns_left() if state.end else 0, state.turn_player,
            state.setup.players[state.turn_player], state.ap, screen.hint_offered(),
            screen.can_undo())


__all__ = ["BuildersScreen", "screen_key", "supply_text", "top_key"]
