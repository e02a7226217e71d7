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

from typing import TYPE_CHECKING

import pygame

from companion.builders import BuildersGame
from companion.builders.actions import END_TURN, Action, Recruit, Start
from companion.builders.state import BuildersState
from companion.engine import CHANCE, RulesError
from companion.kiosk import theme
from companion.kiosk.breakdown import change_lines
from companion.kiosk.i18n import _, n_
from companion.kiosk.inputs import Card, Input
from companion.kiosk.screens.base import GameScreen
from companion.kiosk.screens.game import Preview, open_game, virtual_draw
from companion.kiosk.screens.overlays import draw_preview
from companion.kiosk.ui import draw_text, panel, split_h, split_v
from companion.kiosk.words import card_name, name_of, words_for

from .cardhelp import card_help
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
    from companion.kiosk.app import App


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


class BuildersScreen(GameScreen):
    """The table screen for a game of The Builders: the panels, the way an action is taken
    (a preview first when undo could not take it back), and the commit."""

    game: BuildersGame

    def __init__(self, app: App) -> None:
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

    @property
    def state(self) -> BuildersState:
        return self.session.state  # type: ignore[no-any-return]

    @property
    def selected(self) -> str | None:
        """The idle worker picked to be sent, if any."""
        return self.mine.s.selected

    @property
    def celebrate(self) -> Celebration | None:
        """The completion being celebrated, if any."""
        return self.celebration.now

    def on_show(self) -> None:
        self.after_play()

    def after_play(self) -> None:
        """After a commit (or an undo): the virtual deck's cards, the end screen once the game
        is over, and a picked worker no longer idle forgotten."""
        virtual_draw(self.app, lambda s: True)
        self.picker.s.page = 0
        if self.game.is_over(self.state) and self.celebration.now is None:
            open_game(self.app)
            return
        self.mine.drop_gone()

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Card):
            self.picker.handle(inp)
        elif not (self.companion_turn.due() and self.companion_turn.handle(inp)):
            super().handle(inp)

    # -- an action: preview, then commit ------------------------------------------------------
    def act(self, action: Action) -> None:
        self.propose(action)

    def propose(self, action: Action) -> None:
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

    def confirm_preview(self) -> None:
        p = self.preview
        self.preview = None
        if p is not None:
            self.take(p.action)

    def cancel_preview(self) -> None:
        self.preview = None

    def take(self, action: Action) -> None:
        self.commit([action])

    def commit_companion(self, action: Action) -> None:
        self.take(action)

    def commit(self, actions: list[Action]) -> None:
        """Commit ``actions`` one after another through the journal (a refusal stops there),
        then celebrate what they completed and say what the rules did by themselves."""
        before = self.state
        ended: list[str] = []
        for action in actions:
            at = self.state
            if not self.app.play(action):
                break
            ended.append(turn_ended_by_itself(self.game, at, self.state, action))
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
        for notice in filter(None, ended):
            self.app.toast(notice, good=True, now=not self.game.end_reason(after))
        self.mine.s.selected = None
        self.after_play()

    def turns_left(self) -> int:
        """Turns still to play in the last round, the current one included."""
        return self.game.turns_left(self.state) or 0

    def end_notice(self) -> str:
        return n_("17 VP reached: the round is completed, {n} more turn",
                  "17 VP reached: the round is completed, {n} more turns", self.turns_left())

    def thinking(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The companion's thinking indicator in ``area`` (its turn's panel, still thinking)."""
        self._thinking(surface, area)

    def explain(self, card: str) -> None:
        """A finger held on a card: what it needs, pays or supplies."""
        self.read(*card_help(card, self.state))

    # -- time, undo, back ---------------------------------------------------------------------
    def update(self, dt: float) -> bool:
        changed = super().update(dt)
        changed = self.companion_turn.update() or changed
        if self.celebration.now is None:
            return changed
        if self.celebration.step(dt) and self.game.is_over(self.state):
            open_game(self.app)
        return True

    def animating(self) -> bool:
        return self.celebration.now is not None

    def undo(self) -> None:
        self.mine.s.selected = None
        self.preview = None
        self.app.undo()
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
        if self.preview is not None:
            p = self.preview
            draw_preview(self, surface, body, p.title, p.lines, self.cancel_preview,
                         self.confirm_preview)
        elif self.tableau is not None:
            self.tableau_panel.render(surface, body)
        elif self.game.current_player(self.state) == CHANCE:
            self.picker.render(surface, body)
        elif self.help_open:
            self.helper.render(surface, body)
        elif self.companion_turn.due():
            self._beside_board(surface, body)
        else:
            self._board(surface, body)
        self.celebration.render(surface, body)
        self.roles.setdefault("undo", self.undo)
        self.roles.setdefault("help", self.toggle_help)

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

    def _beside_board(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        """The companion's turn (or the hint) in a panel beside the rows, which stay in view:
        the table takes and deals cards there while it follows the instruction."""
        m = self.m
        if self.hint_open and self.app.companion.hint is not None:  # a person's choice
            panel_r, others_r = split_v(body, 6, 1, gap=m.gap)
            self.companion_turn.render(surface, panel_r)
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
        self.companion_turn.render(surface, panel_r)

    def _top(self, surface: pygame.Surface) -> pygame.Rect:
        """The bar: the round, whose turn it is and the AP left (or that the table reveals);
        the body below it."""
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


__all__ = ["BuildersScreen", "screen_key", "supply_text"]
