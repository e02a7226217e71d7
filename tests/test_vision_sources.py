"""The camera sources behind one interface, and the ``[camera]`` settings.  picamera2 cannot be
installed off a Raspberry Pi, so its adapter runs against a fake module with the same calls."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.engine.registry import specs
from companion.vision.markers import markers_of
from companion.vision.sources import (
    READ_TIMEOUT,
    CameraConfig,
    CameraConfigError,
    CameraError,
    CameraLibraryError,
    FileSource,
    OpenCVSource,
    PiCamera2Source,
    SyntheticSource,
    full_view_mode,
    load_config,
    open_source,
    parse_config,
)
from companion.vision.synth import card_frame

TOM = markers_of("pillars", "tom")[0]


# -- settings ----------------------------------------------------------------------------------


def test_settings_from_the_kiosk_config_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert load_config(path, env={}) == CameraConfig()  # no file: no camera
    path.write_text('[kiosk]\nlanguage = "ja"\n\n[camera]\nsource = "opencv"\ndevice = 1\n'
                    'rate = 15\nlive_view = true\n\n[camera.zones]\nshiring = [0.6, 0, 1, 0.3]\n',
                    encoding="utf-8")
    cfg = load_config(path, env={})
    assert (cfg.source, cfg.device, cfg.rate, cfg.live_view) == ("opencv", 1, 15.0, True)
    assert cfg.zones == {"shiring": (0.6, 0.0, 1.0, 0.3)}
    assert load_config(path, env={"COMPANION_CAMERA": "synthetic"}).source == "synthetic"
    with pytest.raises(CameraConfigError, match="COMPANION_CAMERA"):
        load_config(path, env={"COMPANION_CAMERA": "kinect"})


@pytest.mark.parametrize(("table", "message"), [
    ({"source": "kinect"}, "camera.source must be one of"),
    ({"sorce": "opencv"}, "unknown setting camera.sorce"),
    ({"rate": "fast"}, "camera.rate must be float"),
    ({"rate": 500}, "camera.rate must be between"),
    ({"show_frames": 0}, "camera.show_frames must be between"),
    ({"files": "a.png"}, "camera.files must be a list"),
    ({"lores_width": 2000}, "must not exceed"),
    ({"zones": {"shiring": [1, 0, 0, 1]}}, "u0 < u1"),
    ({"zones": {"shiring": "left"}}, r"\[u0, v0, u1, v1\]"),
    ({"zones": []}, "must be a table"),
    ({"mode": "overhead"}, "camera.mode must be one of reading, table"),
    ({"focus": "auto"}, "camera.focus must be one of fixed, once"),
    ({"distance": 0.05}, "at least 0.1 m"),
    ({"distance": "30cm"}, "camera.distance must be float"),
    ({"exposure_us": -5}, "camera.exposure_us must be between"),
    ({"gone_seconds": 100}, "camera.gone_seconds must be between"),
])
def test_bad_settings_are_named(table: dict[str, Any], message: str) -> None:
    with pytest.raises(CameraConfigError, match=message):
        parse_config(table)


def test_a_malformed_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[camera\nsource=", encoding="utf-8")
    with pytest.raises(CameraConfigError, match="not valid TOML"):
        load_config(path, env={})
    path.write_text("camera = 3\n", encoding="utf-8")
    with pytest.raises(CameraConfigError, match=r"\[camera\] must be a table"):
        load_config(path, env={})


# -- picamera2, against a fake module --------------------------------------------------------


IMX708_MODES = [  # Camera Module 3's modes as picamera2 lists them (size, crop on the sensor)
    {"size": (1536, 864), "bit_depth": 10, "fps": 120.13, "crop_limits": (768, 432, 3072, 1728)},
    {"size": (2304, 1296), "bit_depth": 10, "fps": 56.03, "crop_limits": (0, 0, 4608, 2592)},
    {"size": (4608, 2592), "bit_depth": 10, "fps": 14.35, "crop_limits": (0, 0, 4608, 2592)},
]


class FakePicamera2:
    """The calls of picamera2.Picamera2 the source makes, recording the configuration and every
    control asked for, with YUV420 arrays of the real layout: ``height * 3 / 2`` rows, the Y
    plane first.  ``autofocus`` False is a fixed-focus module (no AfMode control)."""

    instances: list[FakePicamera2] = []
    fail_open = False
    autofocus = True
    hang = False

    def __init__(self) -> None:
        if FakePicamera2.fail_open:
            raise IndexError("list index out of range")  # what picamera2 raises with no camera
        self.config: dict[str, Any] = {}
        self.calls: list[str] = []
        self.controls: dict[str, Any] = {}
        self.waits: list[Any] = []
        self.sensor_modes = IMX708_MODES
        self.camera_controls = {"ExposureTime": (29, 66666666, 20000),
                                "AnalogueGain": (1.0, 16.0, 1.0)}
        if FakePicamera2.autofocus:
            self.camera_controls |= {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        return kwargs

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config
        self.controls |= config.get("controls", {})
        self.calls.append("configure")

    def stream_configuration(self, name: str) -> dict[str, Any]:
        return {"size": self.config[name]["size"], "stride": self.config[name]["size"][0]}

    def start(self) -> None:
        self.calls.append("start")

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls |= controls
        self.calls.append("set_controls")

    def autofocus_cycle(self, wait: Any = None) -> bool:
        self.calls.append("autofocus_cycle")
        self.controls["AfMode"] = 1
        self.lens = 2.7  # where the scan stopped
        return True

    def capture_metadata(self, wait: Any = None) -> dict[str, Any]:
        return {"LensPosition": getattr(self, "lens", self.controls.get("LensPosition", 1.0))}

    def capture_array(self, name: str, wait: Any = None) -> np.ndarray:
        self.waits.append(wait)
        if FakePicamera2.hang:
            raise TimeoutError("timed out")  # what picamera2 raises when ``wait`` runs out
        w, h = self.config[name]["size"]
        y = np.asarray(card_frame(TOM, 1, (w, h)))
        chroma = np.full((h // 2, w), 128, np.uint8)
        return np.vstack([y, chroma])

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def fake_module() -> types.SimpleNamespace:
    FakePicamera2.instances = []
    FakePicamera2.fail_open = False
    FakePicamera2.autofocus = True
    FakePicamera2.hang = False
    return types.SimpleNamespace(Picamera2=FakePicamera2)


def test_picamera2_gives_the_grey_low_resolution_frame() -> None:
    module = fake_module()
    src = PiCamera2Source((1280, 720), (640, 360), "lores", module=module)
    cam = FakePicamera2.instances[0]
    assert cam.config["main"] == {"size": (1280, 720), "format": "YUV420"}
    assert cam.config["queue"] is False  # each read waits for a frame exposed after it
    assert cam.config["lores"] == {"size": (640, 360), "format": "YUV420"}
    frame = src.read()
    assert frame is not None and frame.shape == (360, 640) and frame.dtype == np.uint8
    assert frame.flags["C_CONTIGUOUS"]
    assert cam.waits == [READ_TIMEOUT]  # a read never waits for ever
    from companion.vision.detect import detect

    assert [m.id for m in detect(frame)] == [TOM]
    src.close()
    assert cam.calls == ["configure", "start", "stop", "close"]
    main = PiCamera2Source((1280, 720), (640, 360), "main", module=module)
    grey = main.read()
    assert grey is not None and grey.shape == (720, 1280)


def test_picamera2_asks_for_the_full_view_a_focused_lens_and_a_short_exposure() -> None:
    module = fake_module()
    PiCamera2Source((1280, 720), (640, 360), module=module, config=CameraConfig())
    cam = FakePicamera2.instances[-1]
    # the whole sensor, 2x2 binned: not the cropped 1536x864 picamera2 picks for 1280x720
    assert cam.config["sensor"] == {"output_size": (2304, 1296), "bit_depth": 10}
    # reading mode: the lens set for 30 cm (1 / 0.30 m in dioptres), held; 3 ms exposure
    assert cam.controls == {"AfMode": 0, "LensPosition": 3.333, "ExposureTime": 3000}
    PiCamera2Source((1920, 1080), (640, 360), module=module,
                    config=CameraConfig(mode="table", distance=0.6))
    cam = FakePicamera2.instances[-1]
    assert cam.config["sensor"]["output_size"] == (2304, 1296)
    assert cam.controls == {"AfMode": 0, "LensPosition": 1.667}  # automatic exposure
    src = PiCamera2Source(module=module, config=CameraConfig(focus="once", exposure_us=-1))
    cam = FakePicamera2.instances[-1]
    assert cam.calls == ["configure", "start", "autofocus_cycle", "set_controls"]
    assert cam.controls == {"AfMode": 0, "LensPosition": 2.7}  # focused once, then held
    assert (src.focus, src.lens) == ("once", 2.7)
    FakePicamera2.autofocus = False  # Camera Module 2 or HQ: no focus control to send
    src = PiCamera2Source(module=module, config=CameraConfig())
    assert "AfMode" not in FakePicamera2.instances[-1].controls and src.focus == "none"


def test_the_full_view_mode() -> None:
    assert full_view_mode(IMX708_MODES, (1280, 720))["size"] == (2304, 1296)  # type: ignore[index]
    assert full_view_mode(IMX708_MODES, (3840, 2160))["size"] == (4608, 2592)  # type: ignore[index]
    imx219 = [{"size": (640, 480), "bit_depth": 10, "crop_limits": (1000, 752, 1280, 960)},
              {"size": (1640, 1232), "bit_depth": 10, "crop_limits": (0, 0, 3280, 2464)},
              {"size": (1920, 1080), "bit_depth": 10, "crop_limits": (680, 692, 1920, 1080)},
              {"size": (3280, 2464), "bit_depth": 10, "crop_limits": (0, 0, 3280, 2464)}]
    assert full_view_mode(imx219, (1280, 720))["size"] == (1640, 1232)  # type: ignore[index]
    assert full_view_mode([{"size": (640, 480)}], (640, 480)) is None  # no crop said: no choice


def test_picamera2_missing_camera_is_a_camera_error() -> None:
    module = fake_module()
    FakePicamera2.fail_open = True
    with pytest.raises(CameraError, match="no Raspberry Pi camera"):
        PiCamera2Source(module=module)


@pytest.mark.parametrize(("error", "says"), [
    (ModuleNotFoundError("No module named 'picamera2'", name="picamera2"),
     "camera library missing.*apt install python3-picamera2"),
    (ModuleNotFoundError("No module named 'libcamera'", name="libcamera"),
     "camera library missing.*system-site-packages"),
    (ValueError("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 "
                "from C header, got 88 from PyObject"),
     "camera library broken.*dtype size changed.*constraints-pi.txt"),
    (ImportError("A module that was compiled using NumPy 1.x cannot be run in NumPy 2.4.6"),
     "camera library broken.*NumPy 1.x.*numpy<2"),
    (AttributeError("module 'libcamera' has no attribute 'Transform'"),
     "camera library broken.*AttributeError.*--reinstall python3-picamera2"),
    (OSError("libcamera.so.0.3: cannot open shared object file"),
     "camera library broken.*OSError.*--reinstall"),
])
def test_any_import_failure_of_picamera2_is_said_with_the_fix(
        monkeypatch: pytest.MonkeyPatch, error: Exception, says: str) -> None:
    import companion.vision.sources as sources

    def broken(name: str) -> Any:
        raise error

    monkeypatch.setattr(sources.importlib, "import_module", broken)
    with pytest.raises(CameraLibraryError, match=says):
        open_source(CameraConfig(source="picamera2"))


# -- the other sources ---------------------------------------------------------------------------


def test_files_play_images_and_videos_in_order(tmp_path: Path) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.jpg"
    cv2.imwrite(str(a), card_frame(TOM, 1))
    cv2.imwrite(str(b), cv2.cvtColor(card_frame(None, 2), cv2.COLOR_GRAY2BGR))
    video = tmp_path / "c.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 360))
    for _ in range(3):
        writer.write(cv2.cvtColor(card_frame(TOM, 3), cv2.COLOR_GRAY2BGR))
    writer.release()
    src = FileSource([a, b, video], loop=False)
    frames = [src.read() for _ in range(6)]
    assert [f is None for f in frames] == [False] * 5 + [True]
    assert all(f.shape == (360, 640) for f in frames[:5] if f is not None)
    src.close()
    looped = FileSource([a, b], loop=True)
    assert all(looped.read() is not None for _ in range(5))
    with pytest.raises(CameraError, match="no such file"):
        FileSource([tmp_path / "gone.png"])
    with pytest.raises(CameraError, match="empty"):
        FileSource([])
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a png")
    with pytest.raises(CameraError, match="not an image"):
        FileSource([bad]).read()


def test_the_synthetic_source_follows_its_script() -> None:
    from companion.vision.detect import detect

    src = SyntheticSource([TOM, None], frames_each=2, loop=False)
    frames = [src.read() for _ in range(5)]
    assert frames[4] is None
    assert [[m.id for m in detect(f)] for f in frames[:4] if f is not None] == [
        [TOM], [TOM], [], []]
    demo = SyntheticSource()
    stickers = sum(len(s.markers()) for s in specs())  # every installed game's
    assert len(demo.script) == 2 * stickers and stickers >= 155


def test_a_webcam_that_is_not_there_is_a_camera_error() -> None:
    with pytest.raises(CameraError, match="no camera at 63"):
        OpenCVSource(63)


def test_open_source_chooses_by_config(tmp_path: Path) -> None:
    assert isinstance(open_source(CameraConfig(source="synthetic")), SyntheticSource)
    img = tmp_path / "a.png"
    cv2.imwrite(str(img), card_frame(None, 1))
    assert isinstance(open_source(CameraConfig(source="files", files=(str(img),))), FileSource)
    with pytest.raises(CameraError):
        open_source(CameraConfig(source="opencv", device=63))
    with pytest.raises(ValueError):
        open_source(CameraConfig())


# -- what the doctor says about the Pi camera ------------------------------------------------


def test_the_doctor_reports_the_lens_and_the_sensor_mode(tmp_path: Path) -> None:
    from companion.vision.diagnose import picamera2_lines

    module = fake_module()
    module.__version__ = "0.3.25"  # type: ignore[attr-defined]
    config = tmp_path / "config.toml"
    config.write_text('[camera]\nsource = "picamera2"\n', encoding="utf-8")
    rows = picamera2_lines(config, module=module, env={})
    assert rows[0] == ("camera: picamera2", "OK", "picamera2 0.3.25 imports", "")
    assert rows[1] == ("camera: lens", "OK", "3.33 dioptres (sharp at 30 cm), focus fixed; "
                       "sensor mode 2304x1296 (full view)", "")
    assert FakePicamera2.instances[-1].calls[-2:] == ["stop", "close"]  # let go at once
    config.write_text('[camera]\nsource = "picamera2"\nfocus = "once"\n', encoding="utf-8")
    assert picamera2_lines(config, module=module, env={})[1][2].startswith(
        "2.70 dioptres (sharp at 37 cm), focus once")
    FakePicamera2.fail_open = True  # the kiosk holds the camera
    what, status, found, fix = picamera2_lines(config, module=module, env={})[1]
    assert status == "NOTE" and "no Raspberry Pi camera found" in found and "kiosk" in fix
    config.write_text('[camera]\nsource = "opencv"\n', encoding="utf-8")
    assert picamera2_lines(config, module=module, env={})[1] == (
        "camera: lens", "NOTE", "not checked: the camera source is 'opencv'", "")


def test_the_doctor_says_why_picamera2_does_not_load(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.vision.sources as sources
    from companion.vision.diagnose import picamera2_lines

    def broken(name: str) -> Any:
        raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    monkeypatch.setattr(sources.importlib, "import_module", broken)
    (row,) = picamera2_lines(env={})
    assert row[:2] == ("camera: picamera2", "ERROR")
    assert row[2].startswith("camera library broken: picamera2 fails to import (ValueError")
    assert "constraints-pi.txt" in row[3]

    def missing(name: str) -> Any:
        raise ModuleNotFoundError("No module named 'picamera2'", name="picamera2")

    monkeypatch.setattr(sources.importlib, "import_module", missing)
    (row,) = picamera2_lines(env={})
    assert row[:2] == ("camera: picamera2", "MISSING") and "python3-picamera2" in row[3]
