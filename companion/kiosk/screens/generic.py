"""The table screen for a registered game that brings no screen of its own.

Any game in the registry can be set up, journaled, played and replayed; this screen lets the
table play one through the engine alone: whose decision it is, the decisions the engine allows
as buttons (paged), what other seats may do out of turn (``Game.out_of_turn``), and at a draw
or reveal the companion's virtual deck or a card shown to the camera.  It takes actions the way
the games' own screens do (``GameScreen.propose`` and ``commit``): a card the camera reads is
the engine's chance outcome for it (``Game.outcome_for_card``), previewed and then confirmed
(the rules applied once: the preview's step is what the journal commits), and what the rules
change by themselves (the ledger's entries the game's words call ``rules``) is handed out one
step at a time, each confirmed and stored, before the next decision or the end screen.  The two
built-in games have screens of their own (their registry records name them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.engine import CHANCE, contract
from companion.engine.simulate import sample
from companion.events import Role
from companion.kiosk import theme
from companion.kiosk.i18n import _
from companion.kiosk.ui import draw_text, grid
from companion.kiosk.words import card_name, name_of, words_for

from .base import GameScreen
from .game import open_game

if TYPE_CHECKING:
    from companion.kiosk.context import Kiosk


class GenericGameScreen(GameScreen[object, object]):
    """Whose turn, and the engine's legal decisions as buttons."""

    def __init__(self, app: Kiosk) -> None:
        super().__init__(app)
        self.page = 0
        self.revealing = False  # the virtual deck's reveals, committed one after another
        self.keys[Role.ROLL] = self.nothing_to_roll  # (a die to roll: its button comes first)

    def on_show(self) -> None:
        self.handout_view.resume()  # a game opened (or reopened after a restart): what is pending

    def preview_title(self, state: object, action: object) -> str:
        """A card revealed (by the camera or the virtual deck) is titled by the card's name."""
        card = self.game.card_of(action)
        if card is None:
            return super().preview_title(state, action)
        return _("Revealed: {card}", card=card_name(self.game.name, card))

    def act(self, action: object) -> None:
        """A tapped decision: through ``propose`` and ``commit``, as the games' own screens
        (the rules applied once; the rules' own changes handed out)."""
        self.propose(action)

    def commit_companion(self, action: object, *, dealt: bool = False) -> None:
        self.commit(action, dealt=dealt)

    def committed(self, before: object, action: object) -> None:
        """After every commit: the first page of choices, the virtual deck's reveals (each
        committed, its hand-outs queued), the end screen once nothing is left to hand out."""
        self.page = 0
        if not self.revealing:
            self.revealing = True
            try:
                while self.app.config.virtual_deck and self.game.current_player(
                        self.state) == CHANCE:
                    if not self.commit(sample(self.game.chance_outcomes(self.state),
                                              self.app.rng), dealt=True):
                        break
            finally:
                self.revealing = False
        self.handouts_done()

    def handouts_done(self) -> None:
        if self.game.is_over(self.state) and self.handouts.current is None:
            open_game(self.app)

    def outcomes(self) -> list[tuple[object, float]]:
        """The chance outcomes of the state on show, checked (``engine.contract``)."""
        return contract.outcomes(self.game, self.game.chance_outcomes(self.state))

    def is_roll(self, outcomes: list[tuple[object, float]]) -> bool:
        """Whether the chance node of ``outcomes`` is a roll of a die (``Game.die_of``)."""
        return bool(outcomes) and all(self.game.die_of(o) is not None for o, _p in outcomes)

    def draw_for_table(self) -> None:
        """The companion draws, reveals or rolls for the table (committed before it is
        shown)."""
        self.commit(sample(self.outcomes(), self.app.rng))

    def nothing_to_roll(self) -> None:
        """ROLL where no die is to be rolled: says so (a draw or a reveal is DRAW's)."""
        self.app.refuse(_("Nothing to roll now"))

    def next_page(self) -> None:
        self.page += 1

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        info, body = self.standard_bar(surface)
        state = self.state
        who = contract.player(self.game, state, self.game.current_player(state))
        players = self.game.setup_of(state).players
        if who == CHANCE:
            rolls = self.is_roll(self.outcomes())
            status = _("The table rolls the die") if rolls else _("The table draws or reveals")
        elif 0 <= who < len(players):
            status = _("{name} decides", name=name_of(players[who]))
        else:
            status = ""
        draw_text(surface, status, info, m.text, theme.TEXT, align="left", bold=True)
        inner = body.inflate(-m.gap * 2, -m.gap * 2)
        if self.handout_panel(surface, inner):  # what the rules changed, one step at a time
            return
        if self.preview is not None:
            from .overlays import draw_preview

            draw_preview(self, surface, inner, self.preview.title, self.preview.lines,
                         self.cancel_preview, self.confirm_preview)
            return
        if who == CHANCE:
            chance = self.chance_choices(surface, inner)
            if chance is None:
                return
            inner, labelled = chance
        elif self.companion_panel(surface, inner):  # the companion's seat decides, or a hint
            return
        else:
            labelled = self.decisions()
        self.choice_buttons(surface, inner, labelled)

    def chance_choices(self, surface: pygame.Surface, inner: pygame.Rect
                       ) -> tuple[pygame.Rect, list[tuple[str, object]]] | None:
        """At a draw or a reveal: DRAW's button, and None (no choices).  At a die
        (``Game.die_of``): ROLL's (DRAW's too), and the area below with a choice for each
        face, for a die the table rolled."""
        m = self.m
        outcomes = self.outcomes()
        if not self.is_roll(outcomes):
            self.button(surface, inner, _("Draw for the table"), self.draw_for_table,
                        key="virtual", role=Role.DRAW)
            return None
        top, below = inner.copy(), inner.copy()
        top.height = m.touch
        below.top, below.height = top.bottom + m.gap, inner.height - m.touch - m.gap
        self.button(surface, top, _("Roll for the table"), self.draw_for_table,
                    key="virtual", role=(Role.ROLL, Role.DRAW))
        words = words_for(self.game.name)
        return below, [(words.action_label(self.state, o), o) for o, p in outcomes if p > 0]

    def decisions(self) -> list[tuple[str, object]]:
        """The legal decisions in the game's words (``GameWords.action_label``), then what
        other seats may do out of turn, each with its label."""
        game, state, words = self.game, self.state, words_for(self.game.name)
        labelled = [(words.action_label(state, a), a)
                    for a in contract.actions(game, game.legal_actions(state))]
        for extra in contract.out_of_turn(game, game.out_of_turn(state)).values():
            labelled += [(words.action_text(state, a), a) for a in extra]  # out of turn
        return labelled

    def choice_buttons(self, surface: pygame.Surface, inner: pygame.Rect,
                       labelled: list[tuple[str, object]]) -> None:
        """A button for each of ``labelled`` in ``inner``, paged (More)."""
        m = self.m
        cols = 2 if m.portrait else 3
        rows = max(1, (inner.height + m.gap) // (m.touch + m.gap))
        per_page = max(1, cols * rows - 1)
        pages = max(1, (len(labelled) + per_page - 1) // per_page)
        self.page %= pages
        shown = labelled[self.page * per_page : (self.page + 1) * per_page]
        cells = grid(inner, len(shown) + (pages > 1), cols, m.gap, m.touch)
        legal = {str(a) for _label, a in labelled}
        for (label, action), cell in zip(shown, cells, strict=False):
            self.action_button(surface, cell, label, action, legal)
        if pages > 1:
            self.button(surface, cells[-1], _("More"), self.next_page, key="next page")

__all__ = ["GenericGameScreen"]
