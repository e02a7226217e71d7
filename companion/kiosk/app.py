"""The kiosk application: one window, one main loop, one screen at a time.

Threads stop at the edge: the button panel and the camera post INPUT_EVENT events (pygame's
event queue is thread-safe) and the main loop turns them into the same inputs as touches and
keys.  Time is an input too: ``tick(dt)`` advances animations and messages, so tests step time
instead of sleeping.  The loop waits for events when nothing moves, so the Pi stays idle while
the table thinks.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from companion.engine import RulesError
from companion.journal import JournalError

from . import guard, i18n, theme
from .config import Config, ConfigError
from .config import save as save_config
from .inputs import Input, Press, Tap, translate
from .sound import Sounds
from .theme import Metrics
from .ui import draw_text, panel

if TYPE_CHECKING:
    from companion.journal import Journal, JournaledGame

    from .notify import Notifier
    from .screens.base import Screen

class Device(Protocol):
    """Something at the edge of the kiosk (the button panel, the camera).  Its own threads only
    post inputs (``inputs.post``); the main loop calls ``update`` after handling events, where
    the device reads the app's state (whose turn, the drawn builder) to set its lights."""

    def update(self, app: App) -> None: ...

    def notify(self, event: str, detail: str = "") -> None:
        """Events the device may signal: "refused" (with the reason), "game-over"."""

    def close(self) -> None: ...


LOOP_HZ = 30
TOAST_SECONDS = 4.0


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
        self.notifier: Notifier | None = None  # systemd's notify socket; set for tests
        self.session: JournaledGame | None = None
        self.rng = random.Random(seed)
        self.time = 0.0
        self.dirty = True
        self.running = True
        self._toast: tuple[str, float, bool] | None = None
        self._waiting: list[tuple[str, bool]] = []
        self.typing = False
        self.restart_hook = guard.restart_process  # the fault screen's Restart button
        self.screen: Screen
        from .screens.home import ErrorScreen, HomeScreen

        if config_error is not None:
            self.screen = ErrorScreen(self, config_error)
        else:
            self.screen = HomeScreen(self)
        self.screen.on_show()

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
        try:
            save_config(self.config, self.config_path)
        except OSError as exc:
            self.toast(i18n._("Settings not saved: {error}", error=str(exc)))

    # -- the game session ---------------------------------------------------------------
    def play(self, action: Any) -> bool:
        """Apply an action through the engine and the journal.  A refusal is shown with its
        reason and changes nothing.  True if the action was taken."""
        if self.session is None:
            return False
        try:
            self.session.play(action)
        except RulesError as exc:
            self.refuse(str(exc))
            return False
        except JournalError as exc:  # not saved: the screen stays, the message says what to do
            guard.log(exc, with_traceback=False)
            self.refuse(guard.journal_message(exc))
            return False
        self.dirty = True
        return True

    def undo(self) -> None:
        if self.session is None:
            return
        try:
            action = self.session.undo()
        except RulesError as exc:
            self.refuse(str(exc))
            return
        except JournalError as exc:
            guard.log(exc, with_traceback=False)
            self.refuse(guard.journal_message(exc))
            return
        self.toast(i18n._("Undone: {action}", action=str(action)), good=True, now=True)

    def restart(self) -> None:
        """Start the kiosk anew (the fault screen's Restart button): the devices and the
        journal are closed first, then ``restart_hook`` runs (by default it re-executes the
        process with the same command line)."""
        self.close_devices()
        if self.journal is not None:
            self.journal.close()
        self.running = False
        self.restart_hook()

    def refuse(self, reason: str) -> None:
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
        """Let each device read the state (called by the loop after every batch of events)."""
        for d in self.devices:
            d.update(self)

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
        with guard.protect(self):
            self.screen.handle(inp)
        self.dirty = True

    def handle_event(self, event: Any) -> None:
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
        if inp is not None:
            self.dispatch(inp)

    def tick(self, dt: float) -> None:
        self.time += dt
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
        guard.draw(self, self.surface)  # a screen that fails to draw gives way to the fault screen
        if self._toast is not None:
            rect = self._toast_rect()
            panel(
                self.surface,
                rect,
                theme.BAD if not self._toast[2] else theme.GOOD,
                radius=10,
                border=theme.OUTLINE,
            )
            draw_text(
                self.surface,
                self._toast[0],
                rect.inflate(-16, -8),
                self.metrics.text,
                theme.TEXT,
                lines=4,
            )
        for d in self.devices:
            draw = getattr(d, "draw", None)
            if draw is not None:  # on-screen lights, the camera's status: over everything
                draw(self.surface, self.metrics)
        self.dirty = False
        return True

    def _toast_rect(self) -> pygame.Rect:
        """Messages show over the top of the screen, where the status is read, and leave the
        buttons at the bottom (pass, confirm, end turn) in sight."""
        w, _h = self.size
        m = self.metrics
        return pygame.Rect(m.px(12), m.px(4), w - m.px(24), m.px(88))

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
            notifier.tick()
        notifier.stopping()


def attach_devices(app: App, config_path: Path | None) -> None:
    """The button panel (or its lights on screen) and the camera, each skipped with one
    notice where absent.  A malformed pin map is shown on the error screen; a camera that is
    missing or misconfigured is a notice, and the table taps the cards in."""
    from companion.panel import PinConfigError, open_panel

    from .screens.home import ErrorScreen

    try:
        app.add_device(open_panel(app, config_path))
    except PinConfigError as exc:
        app.show(ErrorScreen(app, str(exc)))
        return
    from companion.vision.device import open_camera

    camera = open_camera(app, config_path)
    if camera is not None:
        app.add_device(camera)


def start(
    config_path: Path | None = None,
    *,
    fullscreen: bool | None = None,
    size: tuple[int, int] | None = None,
) -> int:
    """Open the kiosk: the config, the journal, the window.  A config or journal that cannot
    be opened is shown on screen with the reason, never as a traceback."""
    from . import config as config_mod

    error: str | None = None
    try:
        config = config_mod.load(config_path)
    except ConfigError as exc:
        config, error = Config(), str(exc)
    journal = None
    if error is None:
        try:
            from companion.journal import Journal

            journal = Journal.open(Path(config.journal) if config.journal else None)
        except Exception as exc:  # noqa: BLE001 - any failure becomes a message on screen
            error = i18n._("The journal cannot be opened: {error}", error=str(exc))
    try:
        pygame.display.init()  # not pygame.init(): the mixer starts only if there is sound
        pygame.font.init()
        app = App(config, size=size, fullscreen=fullscreen, journal=journal,
                  config_path=config_path, config_error=error)
    except pygame.error as exc:
        print(f"companion: no screen to open the kiosk on ({exc}). On a desktop, run it in "
              "your graphical session; on the Pi, see the README's Pi guide. Without a "
              "screen, SDL_VIDEODRIVER=dummy runs it off-screen.", file=sys.stderr)
        if journal is not None:
            journal.close()
        pygame.quit()
        return 1
    if journal is not None and journal.notice:
        app.toast(journal.notice)
    if error is None:
        attach_devices(app, config_path)
    try:
        app.run()
    finally:
        app.close_devices()
        if journal is not None:
            journal.close()
    from .fonts import clear_cache

    clear_cache()  # fonts die with pygame.quit(); never reuse them after
    pygame.quit()
    return 0


__all__ = ["App", "Device", "start"]
