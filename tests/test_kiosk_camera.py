"""The camera as a kiosk device: opened from the config, its readings reaching the game screen,
its notices (several cards, offline, back online), the status chip and the live view.  The
camera's loop is stepped by hand (``thread.cycle``) so nothing sleeps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest

from companion.events import CameraState
from companion.kiosk.devices import chip_rect, chip_text, notice_text, thumbnail
from companion.kiosk.inputs import INPUT_EVENT, Card, Input
from companion.pillars.kiosk import PillarsScreen
from companion.vision.device import CameraDevice, live_picture, open_camera
from companion.vision.markers import markers_of
from companion.vision.sources import CameraConfig, CameraError
from companion.vision.synth import Conditions, card_frame, render_scene
from tests.kiosk_helpers import make_app, tap, wait

MADONNA = markers_of("pillars", "madonna")[0]
TOM = markers_of("pillars", "tom")[0]


class Frames:
    """A source playing a list of frames, then failing when ``fail`` is set."""

    def __init__(self, frames: Iterator[np.ndarray]) -> None:
        self.frames = frames
        self.fail = False

    def read(self) -> np.ndarray | None:
        if self.fail:
            raise OSError("device disconnected")
        return next(self.frames, None)

    def close(self) -> None:
        pass


def two_cards() -> np.ndarray:
    cond = Conditions(size=(640, 360), cards=(2, 2), marker_px=(55.0, 60.0), max_tilt=10.0,
                      blur=(0.0, 0.3), noise=(1.0, 2.0), light=(0.8, 1.0), jpeg=(90, 95))
    return render_scene(np.random.default_rng(4), [TOM, MADONNA], cond).frame


def start_pillars(app: Any) -> None:
    tap(app, "new")
    tap(app, "players 2")
    tap(app, "start")
    assert isinstance(app.screen, PillarsScreen)
    assert app.session.state.step == "privilege"


def handler(app: Any) -> Any:
    def post(inp: Input) -> None:
        app.handle_event(pygame.event.Event(INPUT_EVENT, input=inp))
        app.render()
    return post


def opened(app: Any, path: Path) -> CameraDevice | None:
    """``open_camera`` as ``companion.main`` calls it: the notices shown on ``app``."""
    device, notices = open_camera(path)
    for notice in notices:
        app.toast(notice_text(notice), good=notice.good)
    return device


def test_no_camera_configured_is_one_notice(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    assert opened(app, tmp_path / "none.toml") is None
    assert app.toast_text == "No camera configured: cards are tapped in"
    (tmp_path / "bad.toml").write_text('[camera]\nsource = "kinect"\n', encoding="utf-8")
    assert opened(app, tmp_path / "bad.toml") is None
    wait(app, 4.5)  # the second notice waits for the first to go
    assert app.toast_text is not None and "camera.source must be one of" in app.toast_text


def test_a_configured_camera_starts_and_stops(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    path = tmp_path / "config.toml"
    path.write_text('[camera]\nsource = "synthetic"\nrate = 30\n', encoding="utf-8")
    device = opened(app, path)
    assert isinstance(device, CameraDevice)
    try:
        assert device.thread._thread is not None and device.thread._thread.is_alive()
    finally:
        device.close()
    assert device.thread._thread is None


def test_a_card_shown_to_the_camera_is_proposed_and_confirmed(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    start_pillars(app)
    action = next(a for a, p in app.session.game.chance_outcomes(app.session.state) if p > 0)
    marker = markers_of("pillars", str(action.args[0]))[0]
    frames = [card_frame(None, 1)] * 2 + [card_frame(marker, 2)] * 4
    device = CameraDevice(CameraConfig(source="synthetic", show_frames=3),
                          open_source=lambda: Frames(iter(frames)), post=handler(app),
                          start=False)
    app.add_device(device)
    for _ in range(6):
        device.thread.cycle()
        app.update_devices()
    assert app.screen.preview is not None  # the reveal waits for CONFIRM
    assert app.screen.preview.action == action
    assert chip_text(device.state()).startswith("Camera read ")
    app.render(force=True)


def test_several_cards_together_ask_for_one_at_a_time(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    start_pillars(app)
    posted: list[Input] = []
    frames = [card_frame(None, 1)] * 2 + [two_cards()] * 5
    device = CameraDevice(CameraConfig(source="synthetic", show_frames=2),
                          open_source=lambda: Frames(iter(frames)), post=posted.append,
                          start=False)
    app.add_device(device)
    for _ in range(7):
        device.thread.cycle()
        app.update_devices()
    assert posted == []
    assert app.toast_text == "Several cards seen: show one at a time"
    assert app.screen.preview is None


def test_offline_then_online_again(tmp_path: Path) -> None:
    app = make_app(tmp_path, language="ja")
    source = Frames(iter([card_frame(None, 1)] * 100))
    opened: list[int] = []

    def opener() -> Frames:
        opened.append(1)
        if len(opened) == 1:
            raise CameraError("no camera at 0")
        return source

    device = CameraDevice(CameraConfig(source="opencv"), open_source=opener, post=lambda i: None,
                          start=False)
    app.add_device(device)
    device.thread.cycle()
    app.update_devices()
    assert not device.online and app.toast_text == (
        "カメラがオフラインです：カードはタップで入力してください（再接続を試みます）")
    assert chip_text(device.state()) == "カメラオフライン"
    device.thread.cycle()
    app.update_devices()
    assert device.online and app.toast_text == "カメラが再接続されました"
    assert chip_text(device.state()) == "カメラ作動中"
    source.fail = True
    for _ in range(3):
        device.thread.cycle()
    app.tick(10.0)  # the old message times out
    app.update_devices()
    assert not device.online and app.toast_text is not None
    app.render(force=True)


def test_the_chip_and_the_live_view_are_drawn(tmp_path: Path) -> None:
    app = make_app(tmp_path, size=(720, 1280))
    frames = iter([card_frame(TOM, 1)] * 10)
    device = CameraDevice(CameraConfig(source="synthetic", live_view=True, show_frames=1),
                          open_source=lambda: Frames(frames), post=lambda i: None, start=False)
    app.add_device(device)
    device.thread.cycle()
    app.update_devices()
    assert app.dirty
    app.render()
    chip = chip_rect(app.metrics, chip_text(device.state()))
    bar_h = app.metrics.touch + 2 * app.metrics.gap
    assert chip.x < app.metrics.gap and chip.bottom <= bar_h  # bottom left of the title bar
    dot = app.surface.get_at((chip.x + chip.height // 2, chip.centery))
    assert tuple(dot)[:3] == (92, 176, 96)  # green: online
    assert chip_text(device.state()) == "Camera read Tom Builder"
    live = pygame.Rect(chip.x, chip.bottom + app.metrics.px(4), app.metrics.px(160),
                       app.metrics.px(90))
    inside = [tuple(app.surface.get_at((x, live.centery)))[:3]
              for x in range(live.x + 2, live.right - 2, 3)]
    assert any(c == (92, 176, 96) for c in inside) or len(set(inside)) > 5  # a picture


def test_thumbnail_outlines_markers() -> None:
    from companion.vision.detect import detect

    pygame.init()
    frame = card_frame(TOM, 1)
    picture, outlines = live_picture(frame, tuple(detect(frame)))
    surf = thumbnail(CameraState(True, live_view=True, frame=picture, markers=outlines), (160, 120))
    assert surf.get_size() == (160, 120)
    greens = sum(1 for x in range(160) for y in range(120)
                 if tuple(surf.get_at((x, y)))[:3] == (92, 176, 96))
    assert greens > 20


@pytest.mark.parametrize("card", [Card("pillars", "madonna")])
def test_reading_inputs_are_cards(card: Card) -> None:
    from companion.vision.markers import REGISTRY
    from companion.vision.pipeline import Reading

    assert Reading(REGISTRY[MADONNA]).inputs() == [card]
    assert Reading().inputs() == [] and not Reading()


def test_without_the_vision_extra_the_kiosk_and_the_command_line_still_start(
        tmp_path: Path) -> None:
    """numpy and OpenCV made unimportable: ``companion --help`` works, the camera settings are
    read, and a configured camera is one notice instead of a crash."""
    import subprocess
    import sys

    config = tmp_path / "config.toml"
    config.write_text('[camera]\nsource = "synthetic"\n', encoding="utf-8")
    code = f"""
import sys
sys.modules["cv2"] = None
sys.modules["numpy"] = None
from pathlib import Path
from companion.cli import build_parser
assert "markers" in build_parser().format_help()
from companion.vision.device import open_camera
device, notices = open_camera(Path({str(config)!r}))
assert device is None, "no camera without OpenCV"
print([n.code for n in notices])
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], check=False)
    assert out.returncode == 0, out.stderr
    assert "camera.no-opencv" in out.stdout


def test_nothing_is_said_before_the_camera_has_reported(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    device = CameraDevice(CameraConfig(source="opencv"), open_source=lambda: Frames(iter([])),
                          post=lambda i: None, start=False)
    app.add_device(device)
    app.update_devices()
    assert app.toast_text is None and chip_text(device.state()) == "Camera offline"


# -- issue 16: refused cards, re-reads, duplicates, strays; issue 15: a camera that hangs -------


def test_a_refused_card_is_said_on_the_chip_and_its_re_read_is_silent(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    start_pillars(app)  # the table reveals privilege cards: an event card is refused
    event = markers_of("pillars", "koenig")[0]
    empty, card = card_frame(None, 1), card_frame(event, 2)
    frames = [empty] * 2 + [card] * 3 + [empty] * 3 + [card] * 3
    device = CameraDevice(CameraConfig(source="synthetic", show_frames=2, gone_frames=2,
                                       gone_seconds=0.0),
                          open_source=lambda: Frames(iter(frames)), post=handler(app),
                          start=False)
    app.add_device(device)
    for _ in range(5):
        device.thread.cycle()
        app.update_devices()
    first = app.toast_text
    assert first is not None and "King" in first
    chip = chip_text(device.state())
    assert chip.startswith("Camera saw ") and f"(refused: {first})" in chip
    app.tick(10.0)  # the message times out
    assert app.toast_text is None
    for _ in range(6):  # taken away, shown again: the same card, the same answer
        device.thread.cycle()
        app.update_devices()
    assert app.toast_text is None  # not said again
    assert device.status.last_again and "(refused:" in chip_text(device.state())
    app.render(force=True)


def test_duplicate_stickers_and_stray_markers_are_said_once(tmp_path: Path) -> None:
    make_app(tmp_path)  # the kiosk's language and catalogue
    cond = Conditions(size=(640, 360), cards=(2, 2), marker_px=(50.0, 55.0), max_tilt=10.0,
                      blur=(0.0, 0.3), noise=(1.0, 2.0), light=(0.8, 1.0), jpeg=(90, 95))
    twice = render_scene(np.random.default_rng(4), [TOM, TOM], cond).frame
    strays = render_scene(np.random.default_rng(5), [240, 246], cond).frame
    corners = render_scene(np.random.default_rng(6), [246, 247], cond).frame
    posted: list[Input] = []
    device = CameraDevice(
        CameraConfig(source="synthetic", show_frames=2),
        open_source=lambda: Frames(iter([twice] * 4 + [strays] * 4 + [corners] * 4)),
        post=posted.append, start=False)
    said: list[str] = []
    for _ in range(12):
        device.thread.cycle()
        said += [notice_text(n) for n in device.update(app_view(), 0.0)]
    assert posted == []  # two stickers with one id are not one card
    assert said == [
        f"Two stickers with the same marker (#{TOM}): show one card at a time, and check the "
        "stickers",
        "The camera sees a marker that is on no card (#240, #246)",
        "The camera sees the table's corner markers (#247): they are for table mode, not for "
        "reading cards",
    ]


def app_view() -> Any:
    from companion.events import TableView

    return TableView()


def test_a_camera_that_stops_answering_goes_offline_and_shows_no_card(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    now = [100.0]
    device = CameraDevice(CameraConfig(source="synthetic", show_frames=1, stale_seconds=2.0),
                          open_source=lambda: Frames(iter([card_frame(TOM, 1)] * 10)),
                          post=lambda i: None, start=False)
    device.thread.clock = lambda: now[0]
    app.add_device(device)
    device.thread.cycle()
    app.update_devices()
    assert chip_text(device.state()) == "Camera read Tom Builder"
    now[0] += 2.5  # the read in progress never returns
    app.update_devices()
    state = device.state()
    assert not state.online and state.last_card is None and chip_text(state) == "Camera offline"
    assert app.toast_text == "Camera offline: no picture for 2 s; tap the cards in"
    assert device.markers() == ()
    device.thread.cycle()  # it answers again
    app.update_devices()
    assert device.online and app.toast_text == "Camera online again"


def test_a_broken_camera_library_is_one_notice_with_the_fix(tmp_path: Path) -> None:
    from companion.vision.sources import CameraLibraryError

    app = make_app(tmp_path, language="zh")
    tries: list[int] = []

    def opener() -> Frames:
        tries.append(1)
        raise CameraLibraryError("camera library broken: picamera2 fails to import (ValueError:"
                                 " numpy.dtype size changed); fix: run install-pi.sh again")

    device = CameraDevice(CameraConfig(source="picamera2"), open_source=opener,
                          post=lambda i: None, start=False)
    app.add_device(device)
    for _ in range(5):
        device.thread.cycle()
        app.update_devices()
    assert len(tries) == 1
    said = app.toast_text
    assert said is not None and said.startswith("摄像头库已损坏：camera library broken")
    assert "numpy.dtype size changed" in said


def test_a_card_moving_too_fast_and_a_glint_are_said_in_the_tables_language(
        tmp_path: Path) -> None:
    """Issue 25: the camera's advice reaches the kiosk as notices, worded in every language."""
    from companion.kiosk import i18n
    from companion.vision.detect import Detector

    make_app(tmp_path)
    rng = np.random.default_rng(3)
    empty = card_frame(None, 1, (1280, 720))
    smeared = [render_scene(np.random.default_rng(k), [TOM], Conditions(
        cards=(1, 1), marker_px=(50.0, 50.0), max_tilt=10.0, blur=(0.0, 0.3),
        noise=(2.0, 2.0), background="plain", motion=(30.0, 30.0))).frame for k in range(10)]
    glints: list[np.ndarray] = []
    while len(glints) < 4:
        frame = render_scene(rng, [TOM], Conditions(
            cards=(1, 1), glare=1.0, marker_px=(50.0, 50.0), max_tilt=10.0, light=(0.9, 1.0),
            background="plain")).frame
        if not Detector().detect(frame):
            glints.append(frame)
    device = CameraDevice(
        CameraConfig(source="synthetic", show_frames=2),
        open_source=lambda: Frames(iter([empty] + smeared + [empty] * 8 + glints)),
        post=lambda card: None, start=False)
    notices = []
    for _ in range(1 + len(smeared) + 8 + len(glints)):
        device.thread.cycle()
        notices += device.update(app_view(), 0.0)
    codes = [n.code for n in notices if n.code in ("camera.hold-still", "camera.glare")]
    assert codes == ["camera.hold-still", "camera.glare"]
    said = {lang: [] for lang in ("en", "zh", "ja")}
    for lang in said:
        i18n.set_language(lang)
        said[lang] = [notice_text(n) for n in notices if n.code in codes]
    i18n.set_language("en")
    assert said["en"] == ["Hold the card still: the camera cannot read it while it moves",
                          "Tilt the card: a light is reflected in its sticker"]
    for lang in ("zh", "ja"):
        assert all(t not in said["en"] for t in said[lang]), said[lang]
