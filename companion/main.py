"""The composition root: the one place that builds the companion from its parts.

It reads the config, opens the journal, opens the window (the kiosk's :class:`App`), and
attaches the button panel and the camera.  Each part knows only the layers below it::

    engine  <-  games  <-  journal  <-  {kiosk, panel, vision}  <-  main, cli

The panel and the camera post plain events and report plain status (``companion.events``);
the kiosk listens for those events and draws the status.  Nothing but this module knows that
the three run together.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from companion.events import Notice

if TYPE_CHECKING:
    from companion.journal import Journal
    from companion.kiosk.app import App
    from companion.kiosk.config import Config


def attach_devices(app: App, config_path: Path | None) -> list[Notice]:
    """The button panel (or its lights on screen) and the camera, added to ``app``; their
    start-up notices.  A malformed pin map is shown on the error screen; a camera that is
    missing or misconfigured is a notice, and the table taps the cards in."""
    from companion.kiosk.config import default_path
    from companion.panel import PinConfigError, open_panel

    path = config_path or app.config_path or default_path()
    try:
        panel, notices = open_panel(path)
    except PinConfigError as exc:
        app.go("error", message=str(exc))
        return []
    app.add_device(panel)
    from companion.vision.device import open_camera

    camera, more = open_camera(path)
    if camera is not None:
        app.add_device(camera)
    return notices + more


KIOSK_BUSY_TIMEOUT = 0.05
"""Seconds the kiosk waits for a journal another program holds, per open, read or write: at
most a frame or two of the main loop (30 a second), never long enough to freeze it.  A busy
journal is a message on screen (and, at start, tried again every few seconds)."""


def open_journal(config: Config) -> Journal:
    """The journal the settings name (or the default), opened as the kiosk uses it: waiting
    at most KIOSK_BUSY_TIMEOUT for another program's lock."""
    from companion.journal import Journal
    from companion.kiosk.config import journal_path

    return Journal.open(journal_path(config), busy_timeout=KIOSK_BUSY_TIMEOUT)


SAFE_MODE_GAMES = 5
"""How many of the journal's games the safe mode lists (unfinished first, then the latest)."""


def run_safe_mode(
    config_path: Path | None = None,
    *,
    fullscreen: bool | None = None,
    size: tuple[int, int] | None = None,
    endings: Sequence[tuple[int, str]] = (),
) -> int:
    """The kiosk in safe mode (after repeated failures; see ``companion/session.py``): what
    failed (``endings``: the kiosk's exit status and last words, each time it failed) and
    the journal's games, read-only, with no panel and no camera; 0 when it ends (Start
    normally, or its time is up), so the next start is a normal one."""
    import pygame

    from companion.journal import Journal, JournalError
    from companion.kiosk import config as config_mod
    from companion.kiosk import inputs
    from companion.kiosk.app import App
    from companion.kiosk.config import ConfigError, journal_path
    from companion.kiosk.safemode import Ending, SafeModeScreen

    problems: list[str] = []
    try:
        config = config_mod.load(config_path)
    except ConfigError as exc:
        config = config_mod.Config()
        problems.append(str(exc))
    games = []
    try:
        with Journal.open(journal_path(config), read_only=True,
                          busy_timeout=KIOSK_BUSY_TIMEOUT) as journal:
            page = journal.page(None, 0, SAFE_MODE_GAMES)
            games, problems = page.games, problems + page.problems
    except JournalError as exc:
        problems.append(str(exc))
    try:
        pygame.display.init()
        pygame.font.init()
        app = App(config.with_(sound=False), size=size, fullscreen=fullscreen, journal=None,
                  config_path=config_path)
    except pygame.error as exc:
        print(f"companion: no screen to open the safe mode on ({exc})", file=sys.stderr)
        pygame.quit()
        return 1
    app.show(SafeModeScreen(app, [Ending(status, fault) for status, fault in endings], games,
                            problems))
    inputs.listen()
    try:
        app.run()
    finally:
        inputs.stop_listening()
    from companion.kiosk.fonts import clear_cache

    clear_cache()
    pygame.quit()
    return 0


def open_config_and_journal(
    config_path: Path | None,
) -> tuple[Config, Journal | None, str | None, Callable[[], Journal] | None]:
    """The kiosk's config and journal, or why not: (config, journal or None, the message to
    show or None, the journal's opener to try again while another program holds it or its
    card is read-only).  A config that cannot be read gives the defaults and its error; the
    journal is then not opened."""
    from companion.kiosk import config as config_mod
    from companion.kiosk import i18n
    from companion.kiosk.config import ConfigError
    from companion.kiosk.faults import is_retried, retried_at_start_message
    from companion.kiosk.journal_watch import JOURNAL_RETRY_SECONDS

    try:
        config = config_mod.load(config_path)
    except ConfigError as exc:
        return config_mod.Config(), None, str(exc), None
    i18n.set_language(config.language)  # the messages below in the table's language
    try:
        return config, open_journal(config), None, None
    except Exception as exc:  # noqa: BLE001 - any failure becomes a message on screen
        from companion.journal import JournalError

        if isinstance(exc, JournalError) and is_retried(exc):
            print(f"companion: {exc}; trying again every {JOURNAL_RETRY_SECONDS:g} s",
                  file=sys.stderr)
            return config, None, retried_at_start_message(exc), partial(open_journal, config)
        return config, None, i18n._("The journal cannot be opened: {error}", error=str(exc)), None


def run_kiosk(
    config_path: Path | None = None,
    *,
    fullscreen: bool | None = None,
    size: tuple[int, int] | None = None,
) -> int:
    """Open the companion: the config, the journal, the window, the devices.  A config or
    journal that cannot be opened is shown on screen with the reason, never as a traceback;
    a journal another program holds, or on a read-only card, is tried again until it opens."""
    import pygame

    from companion.kiosk import inputs
    from companion.kiosk.app import App
    from companion.kiosk.devices import notice_text

    config, journal, error, opener = open_config_and_journal(config_path)
    try:
        pygame.display.init()  # not pygame.init(): the mixer starts only if there is sound
        pygame.font.init()
        app = App(config, size=size, fullscreen=fullscreen, journal=journal,
                  config_path=config_path, config_error=error, journal_opener=opener)
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
    if journal is not None:  # the companion's fork server, before its game is resumed
        from companion.kiosk.seats import start_for_journal

        start_for_journal(journal, app.companion.mode)
    inputs.listen()
    if error is None or opener is not None:
        for notice in attach_devices(app, config_path):
            app.toast(notice_text(notice), good=notice.good)
    try:
        app.run()
    finally:
        app.journal_errors.ended(", until the kiosk ended")
        inputs.stop_listening()
        app.close_devices()
        if app.journal is not None:
            app.journal.close()
    from companion.kiosk.fonts import clear_cache

    clear_cache()  # fonts die with pygame.quit(); never reuse them after
    pygame.quit()
    return 0


__all__ = ["KIOSK_BUSY_TIMEOUT", "attach_devices", "open_journal", "run_kiosk", "run_safe_mode"]
