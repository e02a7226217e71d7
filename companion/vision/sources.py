"""Where frames come from: one small ``Camera`` interface and its sources, chosen in the config.

* ``PiCamera2Source``: the Raspberry Pi camera through picamera2 (imported only when used; it
  needs libcamera from Raspberry Pi OS), grey frames straight from the Y plane of its YUV420
  low-resolution stream (or of the main stream);
* ``OpenCVSource``: a USB webcam through ``cv2.VideoCapture``;
* ``FileSource``: image files or videos, for replays and tests;
* ``SyntheticSource``: generated frames of cards, for tests and a camera-less demo.

The settings are the ``[camera]`` table of the kiosk's config file (the kiosk itself reads only
``[kiosk]``)::

    [camera]
    source = "picamera2"   # none, picamera2, opencv, files or synthetic
    stream = "main"        # picamera2: analyse the main stream, or "lores" (a quarter of the
                           # pixels: 13 mm stickers then read only within about 20 cm)
    width = 1280           # the main stream (picamera2) or the capture size (opencv)
    height = 720
    lores_width = 640      # picamera2's low-resolution stream
    lores_height = 360
    device = 0             # opencv: the webcam's index
    files = []             # files: images or videos, played in order
    loop = true            # files: start again after the last
    rate = 30.0            # frames looked at per second (a still view is not analysed again)
    show_frames = 2        # frames in a row before a card counts as shown
    gone_frames = 2        # frames in a row without it, and
    gone_seconds = 2.0     # seconds without it, before it counts as gone
    live_view = false      # a small picture of what the camera sees, markers outlined
    mode = "reading"       # reading (cards held up) or table (an overhead camera)
    focus = "fixed"        # picamera2: fixed (the lens set for `distance`) or once (autofocus
                           # once each time the camera opens)
    distance = 0.0         # metres from the lens to the cards; 0: the mode's (0.30 or 0.75)
    exposure_us = 0        # picamera2: exposure in microseconds; 0: the mode's (reading 3000,
                           # table automatic); -1: automatic
    stale_seconds = 3.0    # no frame for this long: the camera counts as offline

The environment variable ``COMPANION_CAMERA`` overrides ``source`` (as gpiozero's pin factory
can be chosen).  Every value is checked; a bad one is a ``CameraConfigError`` naming it.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # numpy and OpenCV are imported when a source opens, not to read the settings
    from .detect import Grey

SOURCES = ("none", "picamera2", "opencv", "files", "synthetic")
MODES = ("reading", "table")
FOCUS = ("fixed", "once")
MODE_DISTANCE = {"reading": 0.30, "table": 0.75}  # metres, the middle of docs/camera.md's range
MODE_EXPOSURE_US = {"reading": 3000, "table": 0}  # 0: automatic
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm")
ENV = "COMPANION_CAMERA"


class CameraError(Exception):
    """A camera that cannot be opened or read; the message says which and why."""


class CameraLibraryError(CameraError):
    """The camera library itself cannot be loaded (picamera2 missing, or broken by another
    numpy): no retry mends it.  The message says why and how to fix it."""


class CameraConfigError(Exception):
    """The ``[camera]`` settings are malformed; the message names the key."""


class Camera(Protocol):
    """A source of grey frames.  ``read`` gives the next frame, or None when there is none
    (a dropped frame, the end of the files); it may raise when the camera fails."""

    def read(self) -> Grey | None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class CameraConfig:
    source: str = "none"
    stream: str = "main"
    width: int = 1280
    height: int = 720
    lores_width: int = 640
    lores_height: int = 360
    device: int = 0
    files: tuple[str, ...] = ()
    loop: bool = True
    rate: float = 30.0
    show_frames: int = 2
    gone_frames: int = 2
    gone_seconds: float = 2.0
    live_view: bool = False
    mode: str = "reading"
    focus: str = "fixed"
    distance: float = 0.0
    exposure_us: int = 0
    stale_seconds: float = 3.0
    zones: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    """Table mode: zone id -> (u0, v0, u1, v1) in the corner markers' coordinates, replacing
    the default layout's rectangle for that zone (``[camera.zones]``)."""

    @property
    def lens_distance(self) -> float:
        """Metres from the lens to the cards: ``distance``, or the mode's."""
        return self.distance or MODE_DISTANCE[self.mode]

    @property
    def exposure(self) -> int:
        """The exposure time asked of picamera2 in microseconds; 0 for automatic."""
        if self.exposure_us < 0:
            return 0
        return self.exposure_us or MODE_EXPOSURE_US[self.mode]


_CHOICES = {"source": SOURCES, "stream": ("lores", "main"), "mode": MODES, "focus": FOCUS}
_LIMITS: dict[str, tuple[float, float]] = {
    "width": (64, 4096), "height": (64, 4096), "lores_width": (64, 4096),
    "lores_height": (64, 4096), "device": (0, 63), "rate": (0.5, 60.0),
    "show_frames": (1, 30), "gone_frames": (1, 100), "gone_seconds": (0.0, 60.0),
    "distance": (0.0, 5.0), "exposure_us": (-1, 100000), "stale_seconds": (0.5, 60.0),
}


def parse_config(table: Any, where: str = "camera") -> CameraConfig:
    """A CameraConfig from the ``[camera]`` table; CameraConfigError naming a bad key."""
    if not isinstance(table, dict):
        raise CameraConfigError(f"[{where}] must be a table")
    known = {f.name for f in fields(CameraConfig)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in known:
            raise CameraConfigError(
                f"unknown setting {where}.{key} (known: {', '.join(sorted(known))})")
        if key == "files":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise CameraConfigError(f"{where}.files must be a list of file names")
            values[key] = tuple(value)
            continue
        if key == "zones":
            values[key] = _zones(value, where)
            continue
        want = type(getattr(CameraConfig(), key))
        if want is float and type(value) is int:
            value = float(value)
        if type(value) is not want:
            raise CameraConfigError(
                f"{where}.{key} must be {want.__name__}, not {type(value).__name__} ({value!r})")
        if key in _CHOICES and value not in _CHOICES[key]:
            raise CameraConfigError(f"{where}.{key} must be one of {', '.join(_CHOICES[key])}")
        if key in _LIMITS and not _LIMITS[key][0] <= value <= _LIMITS[key][1]:
            lo, hi = _LIMITS[key]
            raise CameraConfigError(f"{where}.{key} must be between {lo:g} and {hi:g}, "
                                    f"not {value}")
        values[key] = value
    cfg = CameraConfig(**values)
    if 0 < cfg.distance < 0.1:
        raise CameraConfigError(f"{where}.distance must be 0 (the mode's) or at least 0.1 m "
                                f"(the Camera Module 3 focuses from 10 cm), not {cfg.distance}")
    if cfg.lores_width > cfg.width or cfg.lores_height > cfg.height:
        raise CameraConfigError(f"{where}.lores_width and lores_height must not exceed width "
                                "and height")
    return cfg


def _zones(value: Any, where: str) -> dict[str, tuple[float, float, float, float]]:
    if not isinstance(value, dict):
        raise CameraConfigError(f"[{where}.zones] must be a table")
    out = {}
    for name, rect in value.items():
        if (not isinstance(rect, list) or len(rect) != 4
                or not all(type(v) in (int, float) for v in rect)):
            raise CameraConfigError(f"{where}.zones.{name} must be [u0, v0, u1, v1]")
        u0, v0, u1, v1 = (float(v) for v in rect)
        if not (u0 < u1 and v0 < v1):
            raise CameraConfigError(f"{where}.zones.{name}: u0 < u1 and v0 < v1 are needed")
        out[str(name)] = (u0, v0, u1, v1)
    return out


def load_config(path: Path | None = None, env: dict[str, str] | None = None) -> CameraConfig:
    """The ``[camera]`` table of the kiosk's config file (default: the user's); no file or no
    table means no camera.  ``COMPANION_CAMERA`` in ``env`` overrides the source."""
    from companion.paths import config_path

    env = dict(os.environ) if env is None else env
    path = path or config_path()
    table: Any = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CameraConfigError(f"{path}: not valid TOML: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CameraConfigError(f"{path}: cannot be read: {exc}") from None
        table = data.get("camera", {})
    try:
        cfg = parse_config(table)
    except CameraConfigError as exc:
        raise CameraConfigError(f"{path}: {exc}") from None
    override = env.get(ENV, "").strip()
    if override:
        if override not in SOURCES:
            raise CameraConfigError(f"{ENV}={override!r}: must be one of {', '.join(SOURCES)}")
        from dataclasses import replace

        cfg = replace(cfg, source=override)
    return cfg


# -- the sources -------------------------------------------------------------------------------


AF_MANUAL, AF_AUTO = 0, 1  # libcamera's AfModeEnum.Manual and .Auto
READ_TIMEOUT = 2.0  # seconds picamera2 may take to give a frame before the read fails
AF_TIMEOUT = 5.0  # seconds an autofocus cycle may take
FIX_NUMPY = ("the venv has its own numpy, not the one apt's picamera2 was built with: "
             "run systemd/install-pi.sh again (it installs with systemd/constraints-pi.txt), "
             "or {pip} install 'numpy<2' on Bookworm")
FIX_MISSING = ("on Raspberry Pi OS: sudo apt install python3-picamera2, and a venv made with "
               "--system-site-packages (systemd/install-pi.sh does both)")
FIX_BROKEN = "sudo apt install --reinstall python3-picamera2 python3-libcamera"


def import_picamera2() -> ModuleType:
    """picamera2, or CameraLibraryError saying why it cannot be loaded and the fix: not
    installed, or broken (any exception while importing it: a numpy built for another ABI
    raises ValueError "numpy.dtype size changed", a libcamera of another version ImportError
    or AttributeError...)."""
    import sys

    try:
        return importlib.import_module("picamera2")
    except ModuleNotFoundError as exc:
        if exc.name in ("picamera2", "libcamera"):
            raise CameraLibraryError(f"camera library missing: {exc}; fix: {FIX_MISSING}"
                                     ) from None
        why, fix = f"{type(exc).__name__}: {exc}", FIX_BROKEN
    except Exception as exc:  # noqa: BLE001 - whatever a broken install raises
        why, fix = f"{type(exc).__name__}: {exc}", FIX_BROKEN
    if "numpy" in why.lower() or "dtype size changed" in why:
        fix = FIX_NUMPY.format(pip=f"{sys.prefix}/bin/pip")
    raise CameraLibraryError(f"camera library broken: picamera2 fails to import ({why}); "
                             f"fix: {fix}")


def full_view_mode(modes: Sequence[dict[str, Any]], size: tuple[int, int]
                   ) -> dict[str, Any] | None:
    """The sensor mode that sees the whole field of view and is the smallest at least ``size``
    (else the largest whole-field one): on the Camera Module 3, 2304x1296 (2x2 binned) for a
    1280x720 or 1920x1080 stream, where picamera2 would choose the cropped 1536x864.  None when
    the modes do not say their crop."""
    limits = [m for m in modes if isinstance(m.get("crop_limits"), (tuple, list))
              and isinstance(m.get("size"), (tuple, list))]
    if not limits:
        return None
    widest = max(int(m["crop_limits"][2]) for m in limits)
    tallest = max(int(m["crop_limits"][3]) for m in limits)
    full = [m for m in limits if int(m["crop_limits"][2]) >= widest
            and int(m["crop_limits"][3]) >= tallest * 0.98]
    if not full:
        return None
    big = [m for m in full if m["size"][0] >= size[0] and m["size"][1] >= size[1]]
    if big:
        return min(big, key=lambda m: (m["size"][0] * m["size"][1], -int(m.get("bit_depth", 0))))
    return max(full, key=lambda m: m["size"][0] * m["size"][1])


class PiCamera2Source:
    """The Pi's camera: a YUV420 main stream and a smaller YUV420 low-resolution one; the grey
    frame is the Y plane (the first ``height`` rows of ``capture_array``), so no colour
    conversion is ever made.  ``module`` stands in for ``picamera2`` in tests.

    What it asks of picamera2 (``docs/camera.md``): the sensor mode that sees the whole field
    of view (``sensor={"output_size", "bit_depth"}``); the lens focused for the cards, either
    set once from ``distance`` (``LensPosition`` = 1 / distance, in dioptres, with ``AfMode``
    manual) or by one autofocus cycle each time the camera opens, then held; in reading mode a
    short exposure (``ExposureTime``, the gain left automatic) so a card moved by hand does not
    smear; and a frame within ``READ_TIMEOUT`` seconds, else the read fails."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 720),
        lores: tuple[int, int] = (640, 360),
        stream: str = "lores",
        module: ModuleType | Any | None = None,
        config: CameraConfig | None = None,
    ) -> None:
        config = config or CameraConfig(source="picamera2")
        if module is None:
            module = import_picamera2()
        try:
            self.cam = module.Picamera2()
        except Exception as exc:  # noqa: BLE001 - no camera raises IndexError or RuntimeError
            raise CameraError(f"no Raspberry Pi camera found: {exc}") from None
        self.stream = stream
        self.focus = "none"  # what was done: fixed, once, or none (a fixed-focus lens)
        self.lens: float | None = None  # dioptres, when known
        self.sensor: dict[str, Any] | None = None
        try:
            has = dict(getattr(self.cam, "camera_controls", {}) or {})
            controls: dict[str, Any] = {}
            if config.exposure:
                controls["ExposureTime"] = config.exposure
            if "AfMode" in has and config.focus == "fixed":
                self.lens = round(1.0 / config.lens_distance, 3)
                controls |= {"AfMode": AF_MANUAL, "LensPosition": self.lens}
                self.focus = "fixed"
            mode = full_view_mode(list(getattr(self.cam, "sensor_modes", []) or []), size)
            extra: dict[str, Any] = {}
            if mode is not None:
                self.sensor = {"output_size": tuple(mode["size"]),
                               "bit_depth": int(mode.get("bit_depth", 10))}
                extra["sensor"] = self.sensor
            config_ = self.cam.create_video_configuration(
                main={"size": size, "format": "YUV420"},
                lores={"size": lores, "format": "YUV420"},
                buffer_count=4,
                controls=controls,
                queue=False,  # the next frame, not one kept from before the read (a frame older)
                **extra,
            )
            self.cam.configure(config_)
            w, h = self.cam.stream_configuration(stream)["size"]
            self.size = (int(w), int(h))
            self.cam.start()
            if "AfMode" in has and config.focus == "once":
                self._autofocus()
        except Exception as exc:  # noqa: BLE001
            self.close()
            raise CameraError(f"the Raspberry Pi camera cannot be started: {exc}") from None

    def _autofocus(self) -> None:
        """One autofocus cycle, then the lens held where it stopped."""
        self.cam.autofocus_cycle(wait=AF_TIMEOUT)
        lens = self.cam.capture_metadata(wait=READ_TIMEOUT).get("LensPosition")
        if isinstance(lens, (int, float)):
            self.lens = round(float(lens), 3)
            self.cam.set_controls({"AfMode": AF_MANUAL, "LensPosition": self.lens})
        self.focus = "once"

    def read(self) -> Grey | None:
        import numpy as np

        w, h = self.size
        yuv = np.asarray(self.cam.capture_array(self.stream, wait=READ_TIMEOUT))
        return np.ascontiguousarray(yuv[:h, :w], dtype=np.uint8)

    def close(self) -> None:
        for method in ("stop", "close"):
            with contextlib.suppress(Exception):  # closing a camera that is gone
                getattr(self.cam, method)()


class OpenCVSource:
    """A webcam through OpenCV's ``VideoCapture`` (V4L2 on Linux)."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] = (1280, 720)) -> None:
        import cv2

        self.cap = cv2.VideoCapture(device)
        if not self.cap.isOpened():
            self.cap.release()
            raise CameraError(f"no camera at {device!r} (cv2.VideoCapture could not open it)")
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> Grey | None:
        from .detect import as_grey

        ok, frame = self.cap.read()
        if not ok or frame is None:
            return None
        return as_grey(frame)

    def close(self) -> None:
        self.cap.release()


class FileSource:
    """Image files and videos, in order (each image is one frame); again from the first after
    the last when ``loop``, else None from then on.  A file that cannot be read raises
    CameraError when it is reached."""

    def __init__(self, paths: Sequence[str | Path], loop: bool = True) -> None:
        if not paths:
            raise CameraError("no files to play (camera.files is empty)")
        self.paths = [Path(p) for p in paths]
        missing = [str(p) for p in self.paths if not p.exists()]
        if missing:
            raise CameraError(f"no such file: {', '.join(missing)}")
        self.loop = loop
        self.index = 0
        self._video: Any = None
        self._images: dict[Path, Grey] = {}

    def read(self) -> Grey | None:
        import cv2
        import numpy as np

        from .detect import as_grey

        for _ in range(len(self.paths) + 1):
            if self.index >= len(self.paths):
                if not self.loop:
                    return None
                self.index = 0
            path = self.paths[self.index]
            if path.suffix.lower() in IMAGE_SUFFIXES:
                self.index += 1
                if path not in self._images:
                    img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
                    if img is None:
                        raise CameraError(f"{path}: not an image OpenCV can read")
                    self._images[path] = np.asarray(img, dtype=np.uint8)
                return self._images[path]
            if self._video is None:
                self._video = cv2.VideoCapture(str(path))
                if not self._video.isOpened():
                    self._video = None
                    raise CameraError(f"{path}: not a video OpenCV can read")
            ok, frame = self._video.read()
            if ok and frame is not None:
                return as_grey(frame)
            self._video.release()
            self._video = None
            self.index += 1
        return None

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None


class SyntheticSource:
    """Generated frames: each item of ``script`` (a marker id, or None for the empty table)
    shown for ``frames_each`` frames, then the next; again from the start when ``loop``.
    The default script shows every card of the registry in turn, the table between them."""

    def __init__(
        self,
        script: Sequence[int | None] | None = None,
        frames_each: int = 5,
        size: tuple[int, int] = (640, 360),
        loop: bool = True,
        seed: int = 0,
    ) -> None:
        if script is None:
            from .markers import REGISTRY

            script = [x for m in REGISTRY if REGISTRY[m].game != "table" for x in (m, None)]
        self.script = list(script)
        self.frames_each = frames_each
        self.size = size
        self.loop = loop
        self.seed = seed
        self.count = 0
        self._cache: dict[int | None, Grey] = {}

    def read(self) -> Grey | None:
        from .synth import card_frame

        i = self.count // self.frames_each
        if i >= len(self.script):
            if not self.loop or not self.script:
                return None
            i %= len(self.script)
        self.count += 1
        item = self.script[i]
        if item not in self._cache:
            self._cache[item] = card_frame(item, self.seed + (item or 0), self.size)
        return self._cache[item]

    def close(self) -> None:
        self._cache.clear()


def open_source(config: CameraConfig) -> Camera:
    """The source the config names; CameraError when it cannot be opened now (no camera,
    unplugged), CameraLibraryError when picamera2 is missing or broken, ValueError for
    ``none``."""
    kind = config.source
    if kind == "picamera2":
        return PiCamera2Source((config.width, config.height),
                               (config.lores_width, config.lores_height), config.stream,
                               config=config)
    if kind == "opencv":
        return OpenCVSource(config.device, (config.width, config.height))
    if kind == "files":
        return FileSource(config.files, config.loop)
    if kind == "synthetic":
        return SyntheticSource(size=(config.lores_width, config.lores_height), loop=config.loop)
    raise ValueError(f"camera source {kind!r} opens no camera")
