"""On the Pi: the display turned by the rotation setting with touches turned to match, and the
systemd watchdog pinged from the main loop."""

from __future__ import annotations

import socket
from pathlib import Path

import pygame
import pytest

from companion.kiosk.app import App, unrotate
from companion.kiosk.config import Config
from companion.kiosk.notify import Notifier
from tests.kiosk_helpers import find, make_app


def rotate_forward(pos: tuple[int, int], logical: tuple[int, int], rotation: int
                   ) -> tuple[int, int]:
    """Where a point of the picture ends up on the display after turning it clockwise."""
    x, y = pos
    w, h = logical
    if rotation == 90:
        return (h - 1 - y, x)
    if rotation == 180:
        return (w - 1 - x, h - 1 - y)
    if rotation == 270:
        return (y, w - 1 - x)
    return (x, y)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_touches_follow_the_rotation(tmp_path: Path, rotation: int) -> None:
    from companion.journal import Journal

    pygame.init()
    display = (480, 800) if rotation in (90, 270) else (800, 480)
    app = App(Config(sound=False, rotation=rotation), size=display, journal=Journal.open(
        tmp_path / "j.sqlite3"), config_path=tmp_path / "c.toml")
    app.render(force=True)
    app.present()
    assert app.size == (800, 480)  # the screens lay out landscape whatever the display
    settings = find(app, "settings")
    # the pixel at the button's centre is where the display shows it after turning
    logical = settings.rect.center
    physical = rotate_forward(logical, app.size, rotation)
    assert unrotate(physical, display, rotation) == logical
    assert app.display.get_at(physical) == app.surface.get_at(logical)
    w, h = display
    app.handle_event(pygame.event.Event(pygame.FINGERUP, x=physical[0] / w, y=physical[1] / h,
                                        touch_id=1, finger_id=0))
    app.render()
    from companion.kiosk.screens.settings import SettingsScreen

    assert isinstance(app.screen, SettingsScreen)


def test_rotation_is_checked_in_the_config(tmp_path: Path) -> None:
    from companion.kiosk import config as config_mod
    from companion.kiosk.config import ConfigError

    path = tmp_path / "c.toml"
    path.write_text("[kiosk]\nrotation = 45\n")
    with pytest.raises(ConfigError, match="kiosk.rotation must be one of 0, 90, 180, 270"):
        config_mod.load(path)


def test_the_main_loop_pings_the_watchdog(tmp_path: Path) -> None:
    sock_path = str(tmp_path / "notify.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(sock_path)
    server.settimeout(1.0)
    now = [0.0]
    notifier = Notifier({"NOTIFY_SOCKET": sock_path, "WATCHDOG_USEC": "2000000"},
                        clock=lambda: now[0])
    app = make_app(tmp_path)
    app.notifier = notifier

    original_tick = app.tick

    def tick(dt: float) -> None:  # each pass of the loop: one second of the fake clock
        now[0] += 1.0
        original_tick(dt)

    app.tick = tick  # type: ignore[method-assign]
    app.run(max_passes=5)
    got = []
    server.settimeout(0.2)
    while True:
        try:
            got.append(server.recv(256).decode())
        except OSError:
            break
    server.close()
    assert got[0].startswith("READY=1")
    # WatchdogSec=2 s: a ping every second of the (fake) clock, one per pass
    assert got.count("WATCHDOG=1") == 5
    assert got[-1] == "STOPPING=1"


def test_no_notify_socket_no_messages() -> None:
    n = Notifier({})
    assert not n.active
    n.ready()
    n.tick()
    assert n.sent == []


def test_rotation_from_the_settings_screen(tmp_path: Path) -> None:
    from companion.kiosk import config as config_mod

    app = make_app(tmp_path, size=(480, 800))  # a portrait display
    assert app.size == (480, 800)
    from tests.kiosk_helpers import tap

    tap(app, "settings")
    tap(app, "rotation 90")
    assert app.size == (800, 480)  # now laid out landscape, turned onto the display
    assert config_mod.load(tmp_path / "config.toml").rotation == 90
    app.render(force=True)
    app.present()
    # the next tap lands through the rotation: "rotation 0" is found where it is shown
    b = find(app, "rotation 0")
    physical = rotate_forward(b.rect.center, app.size, 90)
    w, h = app.display.get_size()
    app.handle_event(pygame.event.Event(pygame.FINGERUP, x=physical[0] / w,
                                        y=physical[1] / h, touch_id=1, finger_id=0))
    assert app.rotation == 0 and app.size == (480, 800)
