"""The kiosk application: one window, one main loop, one screen at a time.

Threads stop at the edge: the button panel and the camera post plain events
(``companion.events``), which reach the main loop as INPUT_EVENT events (pygame's event queue is
thread-safe) and become the same inputs as touches and keys.  The app is built by the
composition root, ``companion.main``.  Time is an input too: ``tick(dt)`` advances
animations and messages, so tests step time instead of sleeping.  The loop waits for events
when nothing moves, so the Pi stays idle while the table thinks.
"""

from __future__ import annotations

import queue
import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from companion.engine import RulesError, Step
from companion.events import CameraState, Card, Device, Lights
from companion.journal import JournalError

from . import guard, i18n, theme, ui
from .config import Config, ConfigError
from .config import load as load_config
from .config import save as save_config
from .devices import draw_device, notice_text, table_view
from .faults import is_busy, journal_message
from .gestures import Gestures
from .inputs import Hold, Input, Pointer, Press, Tap, translate
from .seats import Companion
from .sound import Sounds
from .theme import Metrics
from .ui import draw_text, panel
from .words import refusal_text, words_for

if TYPE_CHECKING:
    from companion.journal import Journal, JournaledGame

    from .notify import Notifier
    from .screens.base import Screen

LOOP_HZ = 30
TOAST_SECONDS = 4.0
JOURNAL_RETRY_SECONDS = 2.0
"""How often a journal another program held at start is tried again."""


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
        self.devices: list[Device] = []
        self._card: Card | None = None  # the camera's card being handled, if any
        self._device_views: dict[int, Any] = {}
        self._devices_shown: list[object] = []
        self.notifier: Notifier | None = None  # systemd's notify socket; set for tests
        self.session: JournaledGame | None = None
        self.companion = Companion()  # the companion's seats: its decisions, the hint
        self.rng = random.Random(seed)
        self.time = 0.0
        self.dirty = True
        self.running = True
        self._toast: tuple[str, float, bool] | None = None
        self._toast_at: pygame.Rect | None = None  # where the message was last drawn
        self._waiting: list[tuple[str, bool]] = []
        self.typing = False
        self.gestures = Gestures(slop=self.metrics.px(12))  # holds, drags and flicks
        self.restart_hook = guard.restart_process  # the fault screen's Restart button
        # Settings the companion could not read are never written over (they hold the
        # table's rotation, journal and sound): a change made now lasts until the next start.
        self.settings_unreadable = config_error is not None and not _readable(config_path)
        # A journal another program held at start: tried again every few seconds from the
        # main loop (each try waits a fraction of a second at most), never a dead end.
        self._journal_opener = journal_opener if journal is None else None
        self._journal_retry_at = JOURNAL_RETRY_SECONDS
        # The journal's whole-file check runs in a thread once the first frame is on screen
        # (opening checks only what the start needs): its result comes back here.
        self._check_started = False
        self._check_results: queue.SimpleQueue[list[str]] = queue.SimpleQueue()
        self.screen: Screen
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

    def show(self, screen: Screen) -> None:
        self.screen = screen
        self.typing = False
        screen.on_show()
        self.dirty = True

    def go(self, name: str, /, **kwargs: Any) -> Screen:
        """Show the screen called ``name`` (see ``routes.py``), made with ``kwargs``."""
        from .routes import screen_class

        screen: Screen = screen_class(name)(self, **kwargs)
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
        if session.game.is_over(session.state):
            self.go("end", game_id=session.id)
            return
        load = spec(session.game.name).screen
        if load is None:
            self.go("generic-game")
        else:
            self.show(load()(self))

    def toast(self, message: str, good: bool = False, now: bool = False) -> None:
        """Show a message for a few seconds.  Notices wait their turn behind the message on
        screen (at start-up the journal, the panel and the camera may each have one); with
        ``now`` (a refusal) the message replaces the one on screen at once."""
        if self._toast is not None and not now:
            if message != self._toast[0] and (message, good) not in self._waiting:
                self._waiting.append((message, good))
            return
        self._toast = (message, self.time + TOAST_SECONDS, good)
        self.dirty = True

    def _next_toast(self) -> None:
        self._toast = None
        if self._waiting:
            message, good = self._waiting.pop(0)
            self._toast = (message, self.time + TOAST_SECONDS, good)
        self.dirty = True

    @property
    def toast_text(self) -> str | None:
        return self._toast[0] if self._toast else None

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

    def play(self, action: object) -> bool:
        """Apply an action (or commit a :meth:`preview`'s step) through the engine and the
        journal.  A refusal is shown with its reason and changes nothing.  True if the action
        was taken."""
        if self.session is None:
            return False
        try:
            self.session.play(action)
        except RulesError as exc:
            self.refuse(self.refusal(exc))
            return False
        except JournalError as exc:  # not saved: the screen stays, the message says what to do
            guard.log(exc, with_traceback=False)
            self.refuse(journal_message(exc))
            return False
        self.dirty = True
        return True

    def undo(self) -> None:
        if self.session is None:
            return
        if not self.session.playthrough.actions:
            self.refuse(i18n._("Nothing to undo"))
            return
        try:
            action = self.session.undo()
        except RulesError as exc:
            self.refuse(self.refusal(exc))
            return
        except JournalError as exc:
            guard.log(exc, with_traceback=False)
            self.refuse(journal_message(exc))
            return
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
    def add_device(self, device: Device) -> None:
        self.devices.append(device)

    def notify(self, event: str, detail: str = "") -> None:
        for d in self.devices:
            d.notify(event, detail)

    def update_devices(self) -> None:
        """Let each device read the table (called by the loop after every batch of events),
        and show its news."""
        if not self.devices:
            return
        view = table_view(self.session)
        for d in self.devices:
            for notice in d.update(view, self.time):
                self.toast(notice_text(notice), good=notice.good, now=True)
        if self._devices_changed():
            self.dirty = True

    def _devices_changed(self) -> bool:
        """True when what the devices show on screen changed since the last frame."""
        shown: list[object] = []
        for d in self.devices:
            lights = getattr(d, "lights", None)
            if isinstance(lights, Lights):
                shown.append((tuple(sorted(lights.lit.items())), lights.visible))
            state_of = getattr(d, "state", None)
            state = state_of() if callable(state_of) else None
            if isinstance(state, CameraState):
                frames = state.frames if state.live_view else 0
                shown.append((state.online, state.last_game, state.last_card, state.refused,
                              frames))
        changed = shown != self._devices_shown
        self._devices_shown = shown
        return changed

    def close_devices(self) -> None:
        for d in self.devices:
            d.close()
        self.devices = []

    # -- the loop -----------------------------------------------------------------------
    def dispatch(self, inp: Input) -> None:
        if isinstance(inp, Press) and inp.role == "language":
            self.next_language()
            return
        if (
            isinstance(inp, Tap)
            and self._toast is not None
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
        """Try again to open the journal another program held at start (every
        JOURNAL_RETRY_SECONDS); once it opens, the home screen.  Another fault is shown
        instead, and not tried again."""
        if self._journal_opener is None or self.time < self._journal_retry_at:
            return
        self._journal_retry_at = self.time + JOURNAL_RETRY_SECONDS
        try:
            journal = self._journal_opener()
        except JournalError as exc:
            if is_busy(exc):
                return
            self._journal_opener = None
            self.go("error", message=i18n._("The journal cannot be opened: {error}",
                                            error=str(exc)))
            return
        self._journal_opener = None
        self.journal = journal
        self.go("home")
        self.toast(i18n._("The journal is free again."), good=True)
        if journal.notice:
            self.toast(journal.notice)

    def start_journal_check(self) -> None:
        """Check the whole journal file in a thread of its own (``Journal.check``, on a
        connection of its own); damage found is shown when the main loop next ticks."""
        journal = self.journal
        if journal is None or self._check_started:
            return
        self._check_started = True
        results = self._check_results

        def check() -> None:
            try:
                results.put(journal.check())
            except JournalError as exc:  # busy, or gone: nothing to say about damage
                print(f"companion: the journal's check did not run: {exc}", file=sys.stderr)

        threading.Thread(target=check, name="journal-check", daemon=True).start()

    def _journal_checked(self) -> None:
        try:
            problems = self._check_results.get_nowait()
        except queue.Empty:
            return
        if not problems:
            return
        print(f"companion: the journal's check found damage: {'; '.join(problems[:3])}",
              file=sys.stderr)
        self.toast(i18n._(
            "The journal's check found damage: some games may not be readable. Copy the "
            "journal off the SD card now; at the next start the damaged file is set aside "
            "and a new journal begun."
        ), now=True)

    def tick(self, dt: float) -> None:
        self.time += dt
        self.retry_journal()
        self._journal_checked()
        for hold in self.gestures.tick(self.time):
            if isinstance(hold, Hold) and self.screen.can_hold(hold.pos):
                self.dispatch(hold)
            else:  # nothing to read there: a slow press is still a tap
                self.gestures.keep_tap()
        with guard.protect(self):
            if self.screen.update(dt):
                self.dirty = True
        if self._toast is not None and self.time >= self._toast[1]:
            self._next_toast()

    @property
    def animating(self) -> bool:
        return self.screen.animating()

    def render(self, force: bool = False) -> bool:
        """Draw the screen if something changed; True if it drew."""
        if not (self.dirty or force):
            return False
        drawn, start = ui.DRAWN, len(ui.DRAWN or [])
        if self._toast is not None and drawn is None:
            ui.DRAWN = []  # where the screen's texts are, for the message to keep off them
        try:
            guard.draw(self, self.surface)  # a screen that fails to draw: the fault screen
            under = [d for d in (ui.DRAWN or [])[start:] if isinstance(d, ui.Drawn)]
        finally:
            ui.DRAWN = drawn
        if self._toast is not None:
            self._toast_at = place_toast(self.screen, self.size, self.metrics, under)
            rect = self._toast_rect()
            panel(
                self.surface,
                rect,
                theme.TOAST_BAD if not self._toast[2] else theme.TOAST_GOOD,
                radius=10,
                border=theme.OUTLINE,
            )
            draw_text(
                self.surface,
                self._toast[0],
                rect.inflate(-16, -8),
                self.metrics.text,
                theme.TOAST_TEXT,
                lines=4,
            )
        for d in self.devices:  # on-screen lights, the camera's status: over everything
            draw_device(self.surface, self.metrics, d, self._device_views)
        self.dirty = False
        return True

    def _toast_rect(self) -> pygame.Rect:
        """Where the message shows: below the screen's bar (never over whose turn it is), where
        it covers the least of the screen's texts and buttons (``place_toast``: never the
        title of the next instruction, Resume or Confirm when there is room elsewhere)."""
        if self._toast_at is not None:
            return self._toast_at
        w, _h = self.size
        m = self.metrics
        top = self.screen.bar_bottom() + m.px(4)
        return pygame.Rect(m.px(12), top, w - m.px(24), m.px(88))

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
        first = True
        while self.running and (max_passes is None or passes < max_passes):
            passes += 1
            with guard.protect(self):
                events = pygame.event.get()
                for event in events:
                    self.handle_event(event)
                self.tick(clock.tick(LOOP_HZ) / 1000)
                self.update_devices()
                if self.render():
                    self.present()
            if first:
                notifier.ready()
                first = False
                self.start_journal_check()
            notifier.tick()
        self.companion.close()
        notifier.stopping()


def place_toast(
    screen: Any, size: tuple[int, int], m: Any, texts: list[ui.Drawn]
) -> pygame.Rect:
    """The message's place on ``screen``: full width, below its bar, at the height where it
    covers the least of the texts just drawn (``texts``, weighted most: a title or an
    instruction under a message cannot be read) and of the buttons (a whole-panel tap area
    counts for little); the highest such place on a tie."""
    w, h = size
    height = m.px(88)
    top = screen.bar_bottom() + m.px(4)
    bottom = h - height - m.px(4)
    if bottom <= top:
        return pygame.Rect(m.px(12), top, w - m.px(24), height)
    steps = 12
    best: tuple[float, int] | None = None
    for k in range(steps + 1):
        y = top + (bottom - top) * k // steps
        r = pygame.Rect(m.px(12), y, w - m.px(24), height)
        cost = 0.0
        for d in texts:
            c = r.clip(d.rect)
            cost += 4.0 * c.width * c.height
        for b in screen.buttons:
            c = r.clip(b.rect)
            cost += (0.1 if b.extra.get("area") else 1.0) * c.width * c.height
        if best is None or cost < best[0]:
            best = (cost, y)
    assert best is not None
    return pygame.Rect(m.px(12), best[1], w - m.px(24), height)


__all__ = ["App", "place_toast", "unrotate"]
