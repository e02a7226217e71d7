"""The screen base class and the pieces every screen shares (title bar, buttons, help)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import pygame

from companion.engine import CHANCE, Game, RulesError, Step
from companion.kiosk import retained, theme
from companion.kiosk.fonts import font
from companion.kiosk.handout import HandOut, HandOutPlan, HandOutQueue
from companion.kiosk.i18n import _
from companion.kiosk.inputs import ROLES, Card, Hold, Input, Press, Role, Tap
from companion.kiosk.ui import Button, button_inner, draw_text, fits, panel, title_bar_height
from companion.kiosk.words import game_title, words_for

from .ahead import game_frames
from .companion_panel import CompanionPanel
from .game import Preview
from .handout_view import HandOutView
from .read_view import ReadView
from .teach import Teacher

if TYPE_CHECKING:
    from companion.journal import JournaledGame
    from companion.kiosk.context import Kiosk
    from companion.kiosk.lookahead import Ahead
    from companion.kiosk.visit import Visit

S = TypeVar("S")
"""A game screen's state type (the game's own: ``PillarsState``)."""
A = TypeVar("A")
"""A game screen's action type (the game's own: ``pillars.actions.Action``)."""


def face_key(b: Button) -> tuple[object, ...]:
    """Everything a button's face is drawn from (``Button.draw``), for ``retained.pixels``."""
    return (b.label, b.sub, b.short, b.short_sub, b.enabled, b.selected, tuple(b.fill),
            tuple(b.text_colour), b.size, bool(b.extra.get("sub_optional")))


def _with_face(b: Button, surface: pygame.Surface, face: Callable[[], None]) -> None:
    b.draw(surface)
    face()


class Screen(ABC):
    """One screen.  Screens read state and emit actions through the app; ``draw`` lays out
    and draws the buttons, which ``handle`` then hit-tests, so layout follows any size."""

    title = ""

    def __init__(self, app: Kiosk) -> None:
        self.app = app
        self.buttons: list[Button] = []
        """The touch targets of the last frame drawn, in drawing order (a tap and a press
        of the table's buttons are hit-tested against them)."""
        self.keys: dict[Role, Callable[[], None]] = {}
        """What the table's buttons do on this screen whatever it shows (declared when the
        screen is made: a game screen's UNDO and HELP); a button on screen that carries the
        role comes first."""

    @property
    def session(self) -> JournaledGame:
        """The game being played (game screens only)."""
        assert self.app.session is not None, "a game screen without a game"
        return self.app.session

    @property
    def m(self) -> theme.Metrics:
        return self.app.metrics

    def on_show(self) -> None:  # noqa: B027 - an optional hook
        """Called when the screen becomes current."""

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Tap):
            for b in reversed(self.buttons):
                if b.rect.collidepoint(inp.pos):
                    if b.enabled:
                        b.on_tap()
                    elif b.why is not None:
                        self.app.refuse(b.why())
                    return
        elif isinstance(inp, Press):
            self.press(inp.role)
        elif isinstance(inp, Hold):
            for b in reversed(self.buttons):
                if b.rect.collidepoint(inp.pos):
                    read = b.extra.get("hold")
                    if callable(read):
                        read()  # what the card or space does; its tap is not taken
                    return

    def press(self, role: Role) -> None:
        """A button of the table (the panel's, or its key): the topmost enabled button of the
        last frame that carries ``role`` is tapped (DRAW on the Draw button, CONFIRM on the
        step's main button); with none, what the screen declares for it (``keys``); with
        neither, BACK goes back."""
        for b in reversed(self.buttons):
            if role in b.roles and b.enabled:
                b.on_tap()
                return
        action = self.pressed_keys().get(role)
        if action is not None:
            action()
        elif role == Role.BACK:
            self.back()

    def pressed_keys(self) -> dict[Role, Callable[[], None]]:
        """The declared ``keys`` that answer now (all of them, unless a screen shows
        something that takes every press: a card read by a hold)."""
        return self.keys

    def can_hold(self, pos: tuple[int, int]) -> bool:
        """Whether a finger held at ``pos`` has something to read (the button there has a
        ``hold``)."""
        for b in reversed(self.buttons):
            if b.rect.collidepoint(pos):
                return callable(b.extra.get("hold"))
        return False

    def back(self) -> None:  # noqa: B027 - an optional hook
        """The back key: by default, nothing."""

    def update(self, dt: float) -> bool:
        """Advance animations by ``dt`` seconds; True if the screen must be redrawn."""
        return False

    def animating(self) -> bool:
        return False

    def redraw_part(self) -> Callable[[pygame.Surface], pygame.Rect] | None:
        """After ``update`` said to redraw: when only a part changed, what draws just that part
        over the last frame (and returns where); None to draw the whole screen."""
        return None

    def draw(self, surface: pygame.Surface) -> None:
        self.buttons = []
        self.render(surface)

    @abstractmethod
    def render(self, surface: pygame.Surface) -> None:
        """Lay out and draw the screen (called by ``draw`` with the buttons cleared)."""

    def likely_next(self) -> Iterator[Ahead]:
        """The frames this screen may draw next, drawn ahead in the kiosk's idle time
        (``lookahead``): a game screen's states one action away; the home screen's, the first
        frame of each screen it leads to (``prepare.frames``); none here."""
        return iter(())

    def ui_variants(self) -> Iterator[Callable[[], None]]:
        """What a likely next tap changes on the screen alone (a worker picked, a page turned),
        for a game screen to draw ahead (``screens.ahead``: what it changes in the screen, its
        panels and their state objects is put back after)."""
        return iter(())

    def continue_ahead(self) -> Callable[[], None] | None:
        """What Continue changes on the screen alone while the screen waits for it (a result
        on show: the table's one likely tap), for a game screen to draw ahead instead of its
        other frames (``screens.ahead``); None when nothing waits for it, or when Continue
        leaves the screen.  It must not change a list or a queue in place (drawing ahead
        puts the screen's attributes back, not what is inside them)."""
        return None

    # -- helpers -------------------------------------------------------------------------
    def button(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        label: str,
        on_tap: Callable[[], None],
        *,
        key: str = "",
        enabled: bool = True,
        why: Callable[[], str] | None = None,
        fill: theme.Colour = theme.PANEL_HI,
        text_colour: theme.Colour = theme.TEXT,
        role: Role | tuple[Role, ...] | None = None,
        sub: str = "",
        selected: bool = False,
        size: int | None = None,
        short: str = "",
        short_sub: str = "",
        sub_optional: bool = False,
        hold: Callable[[], None] | None = None,
        face: tuple[Hashable, Callable[[], None]] | None = None,
    ) -> Button:
        """A button drawn now; ``role``: the table's button (or buttons) that press it too;
        ``hold`` is what a finger held on it does (read the card or space it shows) instead of
        its tap; ``face``: what is drawn over it (a card's face: everything it is drawn from,
        and what draws it), kept with it."""
        b = Button(
            rect,
            label,
            on_tap,
            key or label,
            enabled,
            why,
            fill,
            text_colour,
            size or self.m.text,
            sub,
            selected,
            short=short,
            short_sub=short_sub,
            extra={"sub_optional": True} if sub_optional else {},
            roles=() if role is None else (role,) if isinstance(role, Role) else role,
        )
        if hold is not None:
            b.extra["hold"] = hold
        if face is None:
            retained.pixels(surface, rect, face_key(b), partial(b.draw, surface), "button")
        else:
            retained.pixels(surface, rect, (face_key(b), face[0]),
                            partial(_with_face, b, surface, face[1]), "button with a face")
        self.buttons.append(b)
        return b

    def bar_bottom(self) -> int:
        """Where the screen's top bar ends (the title, or whose turn it is)."""
        return self.m.touch + self.m.gap * 2

    def tap_area(self, rect: pygame.Rect, on_tap: Callable[[], None], key: str) -> Button:
        """A touch target over something already drawn (a player's panel): it draws nothing,
        and buttons drawn after it, inside it, take their own taps."""
        b = Button(rect, "", on_tap, key, extra={"area": True})
        self.buttons.append(b)
        return b

    def title_bar(
        self,
        surface: pygame.Surface,
        title: str,
        *,
        back: bool = True,
        right: list[tuple[str, Callable[[], None], str]] | None = None,
    ) -> pygame.Rect:
        """The bar at the top: back, the title, and buttons on the right (label, tap, key: a
        key that is a role's string binds that button of the table too).  Returns the area
        below it."""
        m = self.m
        w, _h = surface.get_size()
        bar = pygame.Rect(0, 0, w, title_bar_height(m))
        panel(surface, bar, theme.PANEL, radius=0)
        x = m.gap
        if back:
            self.button(
                surface,
                pygame.Rect(x, m.gap, m.touch * 2, m.touch),
                _("Back"),
                self.back,
                key="back",
                role=Role.BACK,
            )
            x += m.touch * 2 + m.gap
        rx = w - m.gap
        for label, tap, key in reversed(right or []):
            bw = max(m.touch * 2, m.px(84))
            while bw < w // 3 and not fits(surface, label, button_inner(pygame.Rect(
                    0, 0, bw, m.touch)), m.text):
                bw += m.px(12)  # wide enough for its label, up to a third of the bar
            rx -= bw
            self.button(
                surface, pygame.Rect(rx, m.gap, bw, m.touch), label, tap, key=key,
                role=Role(key) if key in ROLES else None,
            )
            rx -= m.gap
        draw_text(
            surface,
            title,
            pygame.Rect(x, m.gap, rx - x - m.gap, m.touch),
            m.large,
            theme.ACCENT,
            bold=True,
            align="left",
        )
        return pygame.Rect(0, bar.bottom, w, surface.get_height() - bar.bottom)

    def game_bar(
        self, surface: pygame.Surface, buttons: list[tuple[str, Callable[[], None], str, bool]]
    ) -> tuple[pygame.Rect, pygame.Rect]:
        """The bar of a game screen: buttons (label, tap, key, enabled) on the right, or on a
        second row in portrait.  Returns the area for the game's status and the body below."""
        m = self.m
        w = surface.get_width()
        rows = 2 if m.portrait else 1
        bar_h = m.touch * rows + m.gap * (rows + 1)
        panel(surface, pygame.Rect(0, 0, w, bar_h), theme.PANEL, radius=0)
        y = m.gap + (m.touch + m.gap if m.portrait else 0)
        x = w - m.gap
        for label, tap, key, enabled in reversed(buttons):
            # as wide as its word (at least a touch target, wider in landscape): room for the
            # status beside five buttons, and in portrait for the lights at the row's left
            least = m.touch if m.portrait or key in ("help", "log", "hint") else m.touch * 3 // 2
            pad = max(6, m.touch // 6) + m.px(8)
            width = max(least, font(m.small).size(label)[0] + pad)
            x -= width
            self.button(
                surface,
                pygame.Rect(x, y, width, m.touch),
                label,
                tap,
                key=key,
                enabled=enabled,
                role=Role(key) if key in (Role.UNDO, Role.HELP) else None,
                why=lambda: _("Nothing to undo since the last draw, roll or reveal"),
                size=m.small,
            )
            x -= m.gap
        info = (
            pygame.Rect(m.gap, m.gap, w - 2 * m.gap, m.touch)
            if m.portrait
            else pygame.Rect(m.gap, m.gap, x - m.gap, m.touch)
        )
        return info, pygame.Rect(0, bar_h, w, surface.get_height() - bar_h)

    def language_button(self) -> tuple[str, Callable[[], None], str]:
        from companion.kiosk.i18n import LANGUAGE_NAMES, language

        return (LANGUAGE_NAMES[language()], self.app.next_language, "language")


class GameScreen(Screen, Generic[S, A]):
    """What the game screens share: the game session, the bar with undo, help, language and
    menu, the reason the engine gives for a refusal, and the way home.

    Generic over the game's state ``S`` and action ``A`` (``class PillarsScreen(
    GameScreen[PillarsState, Action])``): ``state``, ``game``, the preview and every hook
    (``wants_preview``, ``committed``, ``same_visit``...) are typed with the game's own
    types; the generic screen, which knows no game, is ``GameScreen[object, object]``."""

    def __init__(self, app: Kiosk) -> None:
        super().__init__(app)
        self.ahead_state: S | None = None  # a state drawn ahead (``ahead``), not the table's
        self.game: Game[S, A] = self.session.game
        self.help_open = False
        self.preview: Preview[S, A] | None = None  # an action waiting for Confirm
        self.handout_view = HandOutView(self)  # the rules' own changes, step by step
        self.handouts: HandOutQueue = self.handout_view.queue
        self.companion_view = CompanionPanel(self)  # its visit, instruction, thinking, hint
        self.plan = self.hand_out_plan()
        self.tableau: int | None = None  # the seat whose whole tableau is shown
        self.hint_open = False  # the companion's hint for the person deciding
        self.reader = ReadView(self)  # a card or space read by a hold
        self.teacher: Teacher[S, A] = Teacher(self)  # the help, opened on a new kind of step
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

    def read(self, title: str, text: str) -> None:
        """Show what a card or space does (a finger held on it), until Close."""
        self.reader.show(title, text)

    def close_read(self) -> None:
        self.reader.close()

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

    def show_tableau(self, seat: int) -> None:
        self.tableau = seat

    def close_tableau(self) -> None:
        self.tableau = None

    def card_refusal(self, card: str) -> str:
        """Why ``card`` cannot be the one revealed now, in the table's language (a picker's
        card that is out); empty when it can."""
        try:
            self.game.outcome_for_card(self.state, card)
        except RulesError as exc:
            return words_for(self.game.name).refusal(exc, self.state)
        return ""

    def read_card(self, seen: Card) -> A | None:
        """The chance outcome a card read by the camera stands for (the engine decides), or
        None when it is refused: the reason in the table's language, on the toast and the
        camera's chip."""
        if foreign_card(self.app, self.game.name, seen):
            return None
        try:
            return self.game.outcome_for_card(self.state, seen.card)
        except RulesError as exc:
            reason = words_for(self.game.name).refusal(exc, self.state)
            self.app.refuse(reason)
            self.app.notify("card-refused", reason)
            return None

    @property
    def state(self) -> S:
        """The state of the game on the table (the journal's playthrough's), or the one a
        frame drawn ahead shows (``ahead.drawing_ahead``)."""
        return cast(S, self.session.state if self.ahead_state is None else self.ahead_state)

    def likely_next(self) -> Iterator[Ahead]:
        return game_frames(self)

    def likely_now(self, legal: list[A]) -> list[A]:
        """Of ``legal``, those a first tap narrowed the next to (a worker picked: where it
        may go), drawn ahead before all (``screens.ahead``); none here."""
        return []

    def reason(self, action: A) -> str:
        """Why the engine refuses ``action`` now (shown when a disabled button is tapped)."""
        try:
            self.game.apply(self.state, action)
        except RulesError as exc:
            return words_for(self.game.name).refusal(exc, self.state)
        return ""

    def toggle_help(self) -> None:
        self.help_open = not self.help_open
        self.teacher.closed()

    def teach_kind(self, state: S) -> str:
        """The kind of step ``state`` is, for teach mode (``screens.teach``); "" for none."""
        return ""

    def home(self) -> None:
        """Back to the home screen; the game stays in the journal, to be resumed."""
        self.app.companion.close()
        self.app.session = None
        self.app.go("home")

    def undo(self) -> None:
        """Take back the last action (``HandOutView.undo``; the preview dropped)."""
        self.preview = None
        done = len(self.session.playthrough.actions)
        self.app.undo()
        if len(self.session.playthrough.actions) < done:
            self.handout_view.undo()

    def open_log(self) -> None:
        """The game so far in words (the log screen), closing back to this screen."""
        self.app.go("log", previous=self)

    def bar_bottom(self) -> int:
        """The game bar has a second row of buttons in portrait."""
        rows = 2 if self.m.portrait else 1
        return self.m.touch * rows + self.m.gap * (rows + 1)

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

    # -- the companion's seats and the hint -----------------------------------------------------
    def update(self, dt: float) -> bool:
        """The companion's work (``CompanionPanel.update``), a new kind of step taught
        (``Teacher``); True when it is to be redrawn."""
        return self.companion_view.update() | self.teacher.update()

    def redraw_part(self) -> Callable[[pygame.Surface], pygame.Rect] | None:
        """Only the companion's thinking indicator moved on: just its dots are drawn."""
        held = self.animating() or self.reader.held is not None
        return None if held else self.companion_view.redraw_part()

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

    def can_undo(self) -> bool:
        """Whether Undo is offered (after a frame drawn ahead's action: unless a reveal)."""
        if self.ahead_state is None:
            return self.session.can_undo()
        return self.game.current_player(self.session.state) != CHANCE

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

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Card):
            self.card_seen(inp)
        else:
            super().handle(inp)

    def card_seen(self, seen: Card) -> None:
        """A card read by the camera: the outcome of the reveal the table is waiting for (the
        engine decides), previewed like a tapped one."""
        if self.preview is not None:
            return  # one reveal at a time: the table confirms what it showed first
        outcome = self.read_card(seen)
        if outcome is not None:
            self.propose(outcome)

    def propose(self, action: A) -> None:
        """Take ``action``: the rules apply it once; when ``wants_preview`` says so, the table
        sees what it changes first (Confirm commits that same result), else it is committed."""
        state = self.state
        try:
            step = self.game.step(state, action)  # committed as it is: the rules applied once
        except RulesError as exc:
            self.app.refuse(self.app.refusal(exc))
            return
        after = step.after
        if self.wants_preview(state, action, after):
            self.preview = Preview.of(step, self.preview_title(state, action),
                                      self.preview_lines(state, after))
            return
        self.commit(action, step)

    def wants_preview(self, state: S, action: A, after: S) -> bool:
        """Whether ``action`` is shown before it is committed (by default: a reveal)."""
        from companion.engine import CHANCE

        return bool(self.game.current_player(state) == CHANCE)

    def preview_title(self, state: S, action: A) -> str:
        return words_for(self.game.name).action_text(state, action)

    def preview_lines(self, state: S, after: S) -> list[tuple[str, str]]:
        from companion.kiosk.breakdown import change_lines

        return change_lines(self.game, state, after)

    def confirm_preview(self) -> None:
        """Confirm: the previewed action is committed with the state the preview computed."""
        p = self.preview
        self.preview = None
        if p is not None:
            self.commit(p.action, p.step)

    def cancel_preview(self) -> None:
        self.preview = None

    def commit(self, action: A, after: Step[S, A] | None = None, *, dealt: bool = False
               ) -> bool:
        """Commit ``action`` through the journal (``play``), then queue the hand-out steps of
        what the rules did by themselves and call ``committed``.  True if it was taken."""
        before = self.state
        index = len(self.session.playthrough.actions)
        if not self.play(action, after, dealt=dealt):
            return False
        self.hand_out(index, before, action, self.state)
        self.committed(before, action)
        return True

    def play(self, action: A, after: Step[S, A] | None = None, *, dealt: bool = False
             ) -> bool:
        """The one place a table screen writes to the journal: a :class:`Step` the preview
        made is committed as it is (the journal refuses it if the game moved on since), anything
        else is applied by the journal.  ``dealt``: a card the companion's virtual deck dealt
        (else a chance outcome is the table's own: a tap, a card the camera read)."""
        if isinstance(after, Step):
            return self.app.play(after, dealt=dealt)
        return self.app.play(action, dealt=dealt)

    def committed(self, before: S, action: A) -> None:  # noqa: B027 - an optional hook
        """After a commit (sounds, animations, virtual cards, the end)."""

    # -- hand-outs: the rules' own changes, one step at a time (HandOutView) -------------
    def hand_out_plan(self) -> HandOutPlan[S, A]:
        """How this game splits the rules' own changes into steps (the default: by cause)."""
        return HandOutPlan(self.game)

    def hand_out(self, index: int, before: S, action: A, after: S) -> None:
        """Queue the hand-out steps of the action at ``index``."""
        self.handouts.add(index, self.plan.steps(before, action, after))

    def confirm_handout(self) -> None:
        """The table moved the pieces of the hand-out step on screen."""
        if self.handout_view.confirm():  # stored in the journal first
            self.handouts_done()

    def handouts_done(self) -> None:  # noqa: B027 - an optional hook
        """After a hand-out step is confirmed (the game over: the end screen)."""

    def held_hand_outs(self) -> int:
        """Hand-out steps due that wait outside the queue (behind a result on show)."""
        return 0

    def handout_text(self, step: HandOut) -> str:
        """What the card of a hand-out step does (drawn on it); none by default."""
        return ""

    def handout_panel(self, surface: pygame.Surface, area: pygame.Rect) -> bool:
        """The current hand-out step over ``area``; False when none is due."""
        if self.handouts.current is None:
            return False
        self.handout_view.render(surface, area)
        return True

    def act(self, action: A) -> None:
        """Take ``action`` the way this screen takes actions (directly, or after a preview)."""
        self.app.play(action)

    def action_button(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        label: str,
        action: A,
        legal: set[str],
        *,
        key: str = "",
        **options: Any,
    ) -> None:
        """A button that takes ``action``: enabled when the engine allows it, and when it
        does not, a tap shows the engine's reason."""
        self.button(
            surface,
            rect,
            label,
            partial(self.act, action),
            key=key or str(action),
            enabled=str(action) in legal,
            why=partial(self.reason, action),
            **options,
        )

    def help_footer(self, surface: pygame.Surface, foot: pygame.Rect) -> None:
        """Close the help; the set-up guide, when the game has one; with a camera attached,
        the table check (``overlays.help_buttons``)."""
        from .overlays import help_buttons

        help_buttons(self, surface, foot)


def foreign_card(app: Kiosk, game: str, seen: Card) -> bool:
    """True (and refused with the reason) when the camera read a card of another game than
    ``game``."""
    if seen.game == game:
        return False
    app.refuse(_("That card belongs to {game}, not to this game", game=game_title(seen.game)))
    return True
