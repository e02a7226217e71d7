"""The companion's seats and the hint on a table screen: its decisions (one visit at a time),
what the table does for them, and the hint for the person deciding."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import pygame

from companion.kiosk.i18n import _

if TYPE_CHECKING:
    from companion.kiosk.visit import Visit

from .core import A, S, TableScreen


class CompanionSeats(TableScreen[S, A]):
    """The part of a table screen for the companion: its decisions, one visit at a time
    (``same_visit``, ``hint_visit``, ``visit_instruction``), committed as the screen commits
    (``commit_companion``), what the table does for them, and the hint."""

    def hint_visit(self, state: S) -> bool:
        """Whether the hint proposes the whole visit from ``state`` (a market), not one
        action; by default not."""
        return False

    def same_visit(self, before: S, after: S) -> bool:
        """Whether the seat deciding in ``before`` decides again in ``after`` in the same
        visit (one instruction, one confirmation for all); by default never."""
        return False

    @property
    def visit(self) -> Visit[S, A] | None:
        """The companion's decisions of one visit, worked out (``CompanionPanel.visit``)."""
        return self.companion_view.visit

    @visit.setter
    def visit(self, visit: Visit[S, A] | None) -> None:
        self.companion_view.visit = visit

    def companion_decision(self) -> A | None:
        """The companion's decision for the position on the table, as this game's action
        (its rules parsed and checked it), or None while it thinks or when a person decides."""
        return cast("A | None", self.app.companion.ready(self.session))

    def visit_ready(self) -> list[A]:
        """The companion's decisions the table carries out now (its whole visit), or none
        while it still thinks."""
        return self.companion_view.ready()

    def visit_instruction(self, state: S, actions: list[A], states: list[S]) -> str:
        """What the table does for the companion's ``actions`` (``states`` before each and
        after the last), in one instruction; by default each action's, one after another."""
        from companion.kiosk.seats import instruction

        return _("; ").join(instruction(self.game.name, s, a)
                            for s, a in zip(states, actions, strict=False))

    def hint_offered(self) -> bool:
        from companion.kiosk.seats import Companion

        return bool(self.app.config.hint) and Companion.person_decides(self.session, self.state)

    def open_hint(self) -> None:
        self.companion_view.hint_page = 0
        self.app.companion.ask_hint(self.session, self.app.time)
        self.hint_open = self.app.companion.hint is not None

    def close_hint(self) -> None:
        self.app.companion.close_hint()
        self.hint_open = False

    def confirm_companion(self) -> None:
        """The table moved the pieces as told: the companion's action goes through the
        journal like a person's."""
        self.companion_view.confirm()

    def commit_companion(self, action: A, *, dealt: bool = False) -> None:
        """Commit the companion's action the way this screen commits (its sounds and
        animations; ``dealt``: a card its visit dealt); by default through the journal."""
        self.app.play(action, dealt=dealt)

    def companion_panel(self, surface: pygame.Surface, area: pygame.Rect) -> bool:
        """Over ``area``: the companion thinking or what the table does for it, or the hint;
        False (nothing drawn) when neither is due."""
        if not self.companion_view.due():
            return False
        self.companion_view.render(surface, area)
        return True
