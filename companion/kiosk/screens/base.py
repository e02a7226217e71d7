"""The table screen a game subclasses: :class:`GameScreen`, made of parts, each in its own
module over ``core.TableScreen`` (the game on the table, commits, undo, the hooks):

- ``previews.Previews``: an action proposed, previewed and confirmed (a tap, a camera card, an
  action button with the engine's reason when it refuses);
- ``companion_seats.CompanionSeats``: the companion's decisions and the hint;
- ``handouts.HandOuts``: the rules' own changes handed out step by step;
- ``covers.Covers``: the help, a tableau, a card read by a hold.

``GameScreen`` makes the sections those parts drive (``HandOutView``, ``CompanionPanel``,
``ReadView``, ``Teacher``), draws the bar, and routes the table's inputs.  A game's screen
subclasses it and overrides the hooks it needs (the list in ``docs/architecture.md``, "Write a
game's screen").  ``Screen`` (every screen's base) is in ``screens.screen``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pygame

from companion.kiosk.i18n import _
from companion.kiosk.inputs import Card, Input, Role

from .ahead import game_frames
from .companion_panel import CompanionPanel
from .companion_seats import CompanionSeats
from .core import A, S
from .covers import Covers
from .handout_view import HandOutView
from .handouts import HandOuts
from .previews import Previews
from .read_view import ReadView
from .screen import Screen
from .teach import Teacher

if TYPE_CHECKING:
    from companion.kiosk.context import Kiosk
    from companion.kiosk.lookahead import Ahead


class GameScreen(Previews[S, A], CompanionSeats[S, A], HandOuts[S, A], Covers[S, A]):
    """What the game screens share: the game session, the bar with undo, help, language and
    menu, the reason the engine gives for a refusal, and the way home.

    Generic over the game's state ``S`` and action ``A`` (``class PillarsScreen(
    GameScreen[PillarsState, Action])``): ``state``, ``game``, the preview and every hook
    (``wants_preview``, ``committed``, ``same_visit``...) are typed with the game's own
    types; the generic screen, which knows no game, is ``GameScreen[object, object]``."""

    def __init__(self, app: Kiosk) -> None:
        super().__init__(app)
        self.ahead_state = None  # a state drawn ahead (``ahead``), not the table's
        self.game = self.session.game
        self.help_open = False
        self.preview = None  # an action waiting for Confirm
        self.handout_view = HandOutView(self)  # the rules' own changes, step by step
        self.handouts = self.handout_view.queue
        self.companion_view = CompanionPanel(self)  # its visit, instruction, thinking, hint
        self.plan = self.hand_out_plan()
        self.tableau = None  # the seat whose whole tableau is shown
        self.hint_open = False  # the companion's hint for the person deciding
        self.reader = ReadView(self)  # a card or space read by a hold
        self.teacher = Teacher(self)  # the help, opened on a new kind of step
        self.keys.update({Role.UNDO: self.undo, Role.HELP: self.toggle_help})

    def pressed_keys(self) -> dict[Role, Callable[[], None]]:
        """While a card is read (a hold), only its Close answers the table's buttons."""
        return {} if self.reader.held is not None else self.keys

    def draw(self, surface: pygame.Surface) -> None:
        self.companion_view.dots = None  # set again if this frame shows the indicator
        super().draw(surface)
        if self.reader.held is not None:  # over everything, and the only thing to tap
            self.companion_view.dots = None
            self.buttons = []
            top = self.bar_bottom()
            self.reader.render(surface, pygame.Rect(0, top, surface.get_width(),
                                                    surface.get_height() - top))

    def close_overlay(self) -> bool:
        """Back: close what a hold shows, the preview, a tableau or the help, in that order;
        False if none was open."""
        if self.reader.held is not None:
            self.reader.close()
        elif self.preview is not None:
            self.preview = None
        elif self.hint_open:
            self.close_hint()
        elif self.tableau is not None:
            self.tableau = None
        elif self.help_open:
            self.help_open = False
        else:
            return False
        return True

    def likely_next(self) -> Iterator[Ahead]:
        return game_frames(self)

    def standard_bar(self, surface: pygame.Surface) -> tuple[pygame.Rect, pygame.Rect]:
        """The game bar with undo, help, language and menu (and the hint, when the table
        wants one and a person decides); (status area, body)."""
        lang = self.language_button()
        hint = [(_("Hint"), self.open_hint, "hint", True)] if self.hint_offered() else []
        return self.game_bar(
            surface,
            [
                *hint,
                (_("Undo"), self.undo, "undo", self.can_undo()),
                ("?", self.toggle_help, "help", True),
                (_("Log"), self.open_log, "log", True),
                (lang[0], lang[1], lang[2], True),
                (_("Menu"), self.home, "menu", True),
            ],
        )

    def update(self, dt: float) -> bool:
        """The companion's work (``CompanionPanel.update``), a new kind of step taught
        (``Teacher``); True when it is to be redrawn."""
        return self.companion_view.update() | self.teacher.update()

    def redraw_part(self) -> Callable[[pygame.Surface], pygame.Rect] | None:
        """Only the companion's thinking indicator moved on: just its dots are drawn."""
        held = self.animating() or self.reader.held is not None
        return None if held else self.companion_view.redraw_part()

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Card):
            self.card_seen(inp)
        else:
            super().handle(inp)



__all__ = ["GameScreen", "Screen"]
