"""The kiosk application: one window, one main loop, one screen at a time.

Threads stop at the edge: the button panel and the camera post plain events
(``companion.events``), which reach the main loop as INPUT_EVENT events (pygame's event queue is
thread-safe) and become the same inputs as touches and keys.  The app is built by the
composition root, ``companion.main``.  Time is an input too: ``tick(dt)`` advances
animations and messages, so tests step time instead of sleeping.  The loop waits for events
when nothing moves, so the Pi stays idle while the table thinks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from companion.engine import CHANCE, RulesError, Step
from companion.events import Card, Device, Role
from companion.journal import JournalError

from . import guard, i18n, memory, retained, ui
from .config import Config, ConfigError
from .config import load as load_config
from .config import save as save_config
from .devices import DeviceHub, notice_text
from .gestures import Gestures
from .inputs import Hold, Input, Pointer, Press, Tap, translate
from .journal_watch import JOURNAL_RETRY_SECONDS, JournalWatch
from .lookahead import LookAhead
from .routes import screen_class
from .seats import Companion
from .sound import Sounds
from .theme import Metrics
from .toasts import TOAST_SECONDS, Toasts, place_toast
from .words import refusal_text, words_for

if TYPE_CHECKING:
    from companion.journal import Journal, JournaledGame

    from .context import View
    from .notify import Notifier

LOOP_HZ = 30


def unrotate(pos: tuple[int, int], display: tuple[int, int], rotation: int) -> tuple[int, int]:
    """Where a touch at ``pos`` on the display lands on the picture that was turned
    ``rotation`` degrees clockwise to fill it."""
    x, y = pos
    w, h = display
    if rotation == 90:
        return (y, w - 1 - x)
    if rotation == 180:
        return (w - 1 - x, h - 1 - y)
    if rotation == 270:
        return (h - 1 - y, x)
    return (x, y)


def _readable(path: Path | None) -> bool:
    """True if the settings file at ``path`` (or the user's) can be read (or is not there)."""
    try:
        load_config(path)
    except ConfigError:
        return False
    return True


class App:
    """The kiosk: the window, the screens, the game session and the journal."""

    def __init__(
        self,
        config: Config,
        *,
        size: tuple[int, int] | None = None,
        fullscreen: bool | None = None,
        journal: Journal | None = None,
        config_path: Path | None = None,
        config_error: str | None = None,
        seed: int | None = None,
        journal_opener: Callable[[], Journal] | None = None,
    ) -> None:
        self.config = config
        self.config_path = config_path
        i18n.set_language(config.language)
        full = config.fullscreen if fullscreen is None else fullscreen
        flags = pygame.FULLSCREEN if full else pygame.RESIZABLE
        want = (0, 0) if full else (size or (config.width, config.height))
        self.rotation = config.rotation
        self.display = pygame.display.set_mode(want, flags)
        self.surface = self._logical_surface()
        pygame.display.set_caption("companion")
        self.metrics = Metrics(*self.surface.get_size())
        self.sounds = Sounds(config.sound)
        self.journal = journal
        self.hub = DeviceHub()  # the panel and the camera: their news, their lights
        self._card: Card | None = None  # the camera's card being handled, if any
        self.notifier: Notifier | None = None  # systemd's notify socket; set for tests
        self.session: JournaledGame | None = None
        self.companion = Companion()  # the companion's seats: its decisions, the hint
        self.rng = random.Random(seed)
        self.time = 0.0
        self.dirty = True
        self.parts: list[Callable[[pygame.Surface], pygame.Rect]] = []  # see render
        self.running = True
        self.toasts = Toasts()  # the message on screen, and those waiting their turn
        self.ahead = LookAhead(screen_class)  # the likely next frames, drawn in the idle time
        self.typing = False
        self.gestures = Gestures(slop=self.metrics.px(12))  # holds, drags and flicks
        self.restart_hook = guard.restart_process  # the fault screen's Restart button
        self.journal_errors = guard.JournalErrorLog()  # the same error again: counted
        # Settings the companion could not read are never written over (they hold the
        # table's rotation, journal and sound): a change made now lasts until the next start.
        self.settings_unreadable = config_error is not None and not _readable(config_path)
        # A journal another program held at start: tried again every few seconds from the
        # main loop (each try waits a fraction of a second at most), never a dead end; and
        # the journal's whole-file check, in a thread once the first frame is on screen.
        self.journal_watch = JournalWatch(self, journal_opener if journal is None else None)
        self.screen: View
        if config_error is not None:
            self.go("error", message=config_error)
        else:
            self.go("home")

    # -- screens and messages -----------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """The size the screens lay out for (the display's, turned by the rotation)."""
        return self.surface.get_size()

    def _logical_surface(self) -> pygame.Surface:
        """The display itself, or with a rotation a surface of the turned size that
        ``present`` turns onto the display."""
        if not self.rotation:
            return self.display
        w, h = self.display.get_size()
        return pygame.Surface((h, w) if self.rotation in (90, 270) else (w, h))

    def present(self) -> None:
        """Show the last frame: turned by the rotation (clockwise), then flipped."""
        if self.rotation:
            self.display.blit(pygame.transform.rotate(self.surface, -self.rotation), (0, 0))
        pygame.display.flip()

    def show(self, screen: View) -> None:
        self.screen = screen
        self.typing = False
        screen.on_show()
        self.dirty = True

    def go(self, name: str, /, **kwargs: Any) -> View:
        """Show the screen called ``name`` (see ``routes.py``), made with ``kwargs``."""
        from .prepared import made

        screen = made(self, name, kwargs)  # the one made ahead (``prepared``), if it was
        self.show(screen)
        return screen

    def open_game(self) -> None:
        """Show the session's game: its table screen (the one its registry record names), or
        its end screen once it is over."""
        from companion.engine.registry import spec

        session = self.session
        if session is None:
            self.go("home")
            return
        from .screens.game import hand_outs_due

        if session.game.is_over(session.state) and not hand_outs_due(session):
            self.go("end", game_id=session.id)
            return
        load = spec(session.game.name).screen
        if load is None:
            self.go("generic-game")
            return
        from .screens.base import GameScreen

        screen = load()(self)
        if not isinstance(screen, GameScreen):
            raise TypeError(f"the {session.game.name} spec's screen loader made {screen!r}, "
                            "not a GameScreen")
        self.show(screen)

    def toast(self, message: str, good: bool = False, now: bool = False) -> None:
        """Show a message for a few seconds.  Notices wait their turn behind the message on
        screen (at start-up the journal, the panel and the camera may each have one); with
        ``now`` (a refusal) the message replaces the one on screen at once."""
        if self.toasts.show(message, good, now, self.time):
            self.dirty = True

    def _next_toast(self) -> None:
        self.toasts.next(self.time)
        self.dirty = True

    @property
    def toast_text(self) -> str | None:
        return self.toasts.text

    def set_language(self, code: str) -> None:
        i18n.set_language(code)
        self.config = self.config.with_(language=code)
        self.save_config()
        self.dirty = True

    def set_rotation(self, degrees: int) -> None:
        """Turn the picture (and the touches) by ``degrees`` clockwise, now and at the next
        start."""
        self.rotation = degrees
        self.surface = self._logical_surface()
        self.metrics = Metrics(*self.surface.get_size())
        self.config = self.config.with_(rotation=degrees)
        self.save_config()
        self.dirty = True

    def next_language(self) -> None:
        codes = list(i18n.LANGUAGES)
        self.set_language(codes[(codes.index(i18n.language()) + 1) % len(codes)])

    def save_config(self) -> None:
        if self.settings_unreadable:
            self.toast(i18n._(
                "Settings not saved: the settings file could not be read, so it is kept as it "
                "is. Correct it (see the message), then restart."
            ), now=True)
            return
        try:
            save_config(self.config, self.config_path)
        except (OSError, ConfigError) as exc:
            self.toast(i18n._("Settings not saved: {error}", error=str(exc)))

    # -- the game session ---------------------------------------------------------------
    def preview(self, action: object) -> Step[object, object] | None:
        """``action`` applied once to the game on the table (``Game.step``), for the table to
        confirm; ``play`` then commits that step without applying the rules again.  None, the
        refusal shown with its reason, when the rules refuse it."""
        if self.session is None:
            return None
        try:
            step: Step[object, object] = self.session.game.step(self.session.state, action)
        except RulesError as exc:
            self.refuse(self.refusal(exc))
            return None
        return step

    def play(self, action: object, *, dealt: bool = False) -> bool:
        """Apply an action (or commit a :meth:`preview`'s step) through the engine and the
        journal.  A refusal is shown with its reason and changes nothing.  True if the action
        was taken.  A chance outcome is journaled as dealt by the virtual deck (``dealt``)
        or by the table (a tap, a card the camera read, the bag, the die)."""
        session = self.session
        if session is None:
            return False
        chance = session.game.current_player(session.state) == CHANCE
        try:
            session.play(action, dealt=dealt if chance else None)
        except RulesError as exc:
            self.refuse(self.refusal(exc))
            return False
        except JournalError as exc:  # not saved: the screen stays, the message says what to do
            self.refuse(self.journal_errors.message(exc))
            return False
        self.journal_errors.ended()
        self.dirty = True
        return True

    def undo(self) -> None:
        if self.session is None:
            return
        if not self.session.playthrough.actions:
            self.refuse(i18n._("Nothing to undo"))
            return
        session = self.session
        try:
            action = session.undo(instructed=instructed(session))
        except RulesError as exc:
            self.refuse(self.refusal(exc))
            return
        except JournalError as exc:
            self.refuse(self.journal_errors.message(exc))
            return
        self.journal_errors.ended()
        # The state before the action is the one undo went back to.
        done = words_for(self.session.game.name).action_text(self.session.state, action)
        self.toast(i18n._("Undone: {action}", action=done), good=True, now=True)

    def refusal(self, error: Exception) -> str:
        """A refusal of the game being played, in the table's language (from its rule tag and
        fields, never the engine's English)."""
        if self.session is None:
            return refusal_text(error)
        return words_for(self.session.game.name).refusal(error, self.session.state)

    def restart(self) -> None:
        """Start the kiosk anew (the fault screen's Restart button): the devices and the
        journal are closed first, then ``restart_hook`` runs (by default it re-executes the
        process with the same command line)."""
        self.close_devices()
        self.companion.close()
        if self.journal is not None:
            self.journal.close()
        self.running = False
        self.restart_hook()

    def refuse(self, reason: str) -> None:
        """Say why something was refused; for a card the camera read, tell the camera too (its
        chip says "refused"), and say nothing when it was the last card read, shown again."""
        card = self._card
        if card is not None:
            self.notify("card-refused", reason)
            if card.again:
                return
        self.toast(reason, now=True)
        self.sounds.play("refuse")
        self.notify("refused", reason)

    # -- devices ----------------------------------------------------------------------------
    @property
    def devices(self) -> list[Device]:
        return self.hub.devices

    def add_device(self, device: Device) -> None:
        self.hub.add(device)

    def notify(self, event: str, detail: str = "") -> None:
        self.hub.notify(event, detail)

    def update_devices(self) -> None:
        """Let each device read the table (called by the loop after every batch of events),
        and show its news."""
        if not self.hub.devices:
            return
        for notice in self.hub.update(self.session, self.time):
            self.toast(notice_text(notice), good=notice.good, now=True)
        if self.hub.changed():
            self.dirty = True

    def close_devices(self) -> None:
        self.hub.close()

    # -- the loop -----------------------------------------------------------------------
    def dispatch(self, inp: Input) -> None:
        if isinstance(inp, Press) and inp.role == Role.LANGUAGE:
            self.next_language()
            return
        if (
            isinstance(inp, Tap)
            and self.toasts.current is not None
            and self._toast_rect().collidepoint(inp.pos)
        ):
            self._next_toast()  # a tap on the message closes it, and still reaches the screen
        self._card = inp if isinstance(inp, Card) else None
        try:
            with guard.protect(self):
                self.screen.handle(inp)
        finally:
            self._card = None
        self.dirty = True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.display = pygame.display.get_surface()
            self.surface = self._logical_surface()
            self.metrics = Metrics(*self.surface.get_size())
            self.dirty = True
            return
        if event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self.dirty = True
            return
        inp = translate(event, self.display.get_size(), self.typing)
        if isinstance(inp, Tap) and self.rotation:
            inp = Tap(unrotate(inp.pos, self.display.get_size(), self.rotation))
        if isinstance(inp, Pointer) and self.rotation:
            inp = Pointer(inp.kind, unrotate(inp.pos, self.display.get_size(), self.rotation))
        if inp is not None:
            for gesture in self.gestures.feed(inp, self.time):
                self.dispatch(gesture)

    def retry_journal(self) -> None:
        """Try again to open a journal another program held at start (``JournalWatch``)."""
        self.journal_watch.retry()

    def start_journal_check(self) -> None:
        """Check the whole journal file off the main loop (``JournalWatch``)."""
        self.journal_watch.start_check()

    def tick(self, dt: float) -> None:
        self.time += dt
        self.journal_watch.retry()
        self.journal_watch.checked()
        for hold in self.gestures.tick(self.time):
            if isinstance(hold, Hold) and self.screen.can_hold(hold.pos):
                self.dispatch(hold)
            else:  # nothing to read there: a slow press is still a tap
                self.gestures.keep_tap()
        with guard.protect(self):
            if self.screen.update(dt):
                part = self.screen.redraw_part()  # only a part changed (an indicator)?
                if part is None:
                    self.dirty = True
                else:
                    self.parts = [part]  # (it draws the part as it is at the next frame)
        if self.toasts.expired(self.time):
            self._next_toast()

    @property
    def animating(self) -> bool:
        return self.screen.animating()

    def render(self, force: bool = False) -> bool:
        """Draw the screen if something changed; True if it drew.  When only parts changed
        (``Screen.redraw_part``: the companion's thinking indicator), only they are drawn,
        over the last frame, unless a message or a device's drawing is over them."""
        parts, self.parts = self.parts, []
        if not (self.dirty or force):
            return bool(parts) and draw_parts(self, parts)
        areas = ui.AREAS  # where the screen's texts are, for the message to keep off them
        ui.AREAS = [] if self.toasts.current is not None else None
        retained.begin(self.surface)  # parts drawn with the same inputs are blitted
        try:
            guard.draw(self, self.surface)  # a screen that fails to draw: the fault screen
            under = ui.AREAS or []
        finally:
            retained.end()
            ui.AREAS = areas
        self.toasts.draw(self.surface, self.screen, self.metrics, under)
        self.hub.draw(self.surface, self.metrics)  # lights, the camera's chip: over all
        self.dirty = False
        self.ahead.reset()
        return True

    def _toast_rect(self) -> pygame.Rect:
        """Where the message shows: below the screen's bar (never over whose turn it is), where
        it covers the least of the screen's texts and buttons (``place_toast``: never the
        title of the next instruction, Resume or Confirm when there is room elsewhere)."""
        return self.toasts.rect(self.screen, self.size, self.metrics)

    def run(self, max_passes: int | None = None) -> None:
        """The main loop.  It sleeps between passes (``Clock.tick`` sleeps, it does not spin):
        30 passes a second, drawing only when something changed.  SDL's own event wait polls
        every millisecond on some video drivers, which costs more than this on a Pi.  Every
        pass pings systemd's watchdog (when run by systemd), so a frozen loop is restarted."""
        from .notify import Notifier

        notifier = self.notifier if self.notifier is not None else Notifier()
        clock = pygame.time.Clock()
        clock.tick()
        passes = 0
        thresholds = memory.take_over()
        try:
            while self.running and (max_passes is None or passes < max_passes):
                passes += 1
                with guard.protect(self):
                    one_pass(self, clock)
                if passes == 1:
                    notifier.ready()
                    memory.settle()  # (what the start loaded: out of the collector's sight)
                    self.journal_watch.start_check()
                notifier.tick()
        finally:
            memory.give_back(thresholds)
        self.companion.close()
        notifier.stopping()


def one_pass(app: App, clock: pygame.time.Clock) -> None:
    """One pass of the main loop: the events, the time and the devices; the frame if
    anything changed, else the frames ahead (idle: the bots' processes keep the cores while
    they think); and the collector's older generations in the idle time (``memory``)."""
    events = pygame.event.get()
    for event in events:
        app.handle_event(event)
    app.tick(clock.tick(LOOP_HZ) / 1000)
    app.update_devices()
    idle = False
    if app.render():
        app.present()
    elif not events and not app.companion.thinking:
        app.ahead.run(app.screen, app.surface)
        idle = not pygame.event.peek()
    memory.collect(idle, done=idle and app.ahead.done)


def draw_parts(app: App, parts: list[Callable[[pygame.Surface], pygame.Rect]]) -> bool:
    """Draw ``parts`` over the last frame (``App.render``); the whole frame instead when a
    message is shown or what a part drew is under a device's lights or chip."""
    if app.toasts.current is not None:
        return app.render(force=True)
    areas = app.hub.areas(app.metrics)
    with guard.protect(app) as caught:
        for part in parts:
            if pygame.Rect(part(app.surface)).collidelist(areas) >= 0:
                return app.render(force=True)
    if caught.caught:
        return app.render(force=True)
    return True


def instructed(session: JournaledGame) -> bool:
    """Whether the last action was the companion's (the table moved its pieces as the
    instruction said): undone, they are put back."""
    states, actions = session.playthrough.states, session.playthrough.actions
    if not actions:
        return False
    return session.game.actor(states[-2], actions[-1]) in session.companions


__all__ = ["JOURNAL_RETRY_SECONDS", "LOOP_HZ", "TOAST_SECONDS", "App", "one_pass", "place_toast",
           "unrotate"]

