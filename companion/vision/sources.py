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
    stream = "lores"       # picamera2: analyse the low-resolution stream, or "main"
    width = 1280           # the main stream (picamera2) or the capture size (opencv)
    height = 720
    lores_width = 640      # picamera2's low-resolution stream
    lores_height = 360
    device = 0             # opencv: the webcam's index
    files = []             # files: images or videos, played in order
    loop = true            # files: start again after the last
    rate = 10.0            # frames analysed per second
    show_frames = 3        # frames in a row before a card counts as shown
    gone_frames = 5        # frames in a row without it before it counts as gone
    live_view = false      # a small picture of what the camera sees, markers outlined

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
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm")
ENV = "COMPANION_CAMERA"


class CameraError(Exception):
    """A camera that cannot be opened or read; the message says which and why."""


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
    stream: str = "lores"
    width: int = 1280
    height: int = 720
    lores_width: int = 640
    lores_height: int = 360
    device: int = 0
    files: tuple[str, ...] = ()
    loop: bool = True
    rate: float = 10.0
    show_frames: int = 3
    gone_frames: int = 5
    live_view: bool = False
    zones: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    """Table mode: zone id -> (u0, v0, u1, v1) in the corner markers' coordinates, replacing
    the default layout's rectangle for that zone (``[camera.zones]``)."""


_CHOICES = {"source": SOURCES, "stream": ("lores", "main")}
_LIMITS: dict[str, tuple[float, float]] = {
    "width": (64, 4096), "height": (64, 4096), "lores_width": (64, 4096),
    "lores_height": (64, 4096), "device": (0, 63), "rate": (0.5, 60.0),
    "show_frames": (1, 30), "gone_frames": (1, 100),
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


class PiCamera2Source:
    """The Pi's camera: a YUV420 main stream and a smaller YUV420 low-resolution one; the grey
    frame is the Y plane (the first ``height`` rows of ``capture_array``), so no colour
    conversion is ever made.  ``module`` stands in for ``picamera2`` in tests."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 720),
        lores: tuple[int, int] = (640, 360),
        stream: str = "lores",
        module: ModuleType | Any | None = None,
    ) -> None:
        if module is None:
            try:
                module = importlib.import_module("picamera2")
            except ImportError as exc:
                raise CameraError(
                    "picamera2 is not installed (on Raspberry Pi OS: sudo apt install "
                    f"python3-picamera2, and a venv made with --system-site-packages): {exc}"
                ) from None
        try:
            self.cam = module.Picamera2()
        except Exception as exc:  # noqa: BLE001 - no camera raises IndexError or RuntimeError
            raise CameraError(f"no Raspberry Pi camera found: {exc}") from None
        self.stream = stream
        try:
            config = self.cam.create_video_configuration(
                main={"size": size, "format": "YUV420"},
                lores={"size": lores, "format": "YUV420"},
                buffer_count=4,
            )
            self.cam.configure(config)
            w, h = self.cam.stream_configuration(stream)["size"]
            self.size = (int(w), int(h))
            self.cam.start()
        except Exception as exc:  # noqa: BLE001
            self.close()
            raise CameraError(f"the Raspberry Pi camera cannot be started: {exc}") from None

    def read(self) -> Grey | None:
        import numpy as np

        w, h = self.size
        yuv = np.asarray(self.cam.capture_array(self.stream))
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
    unplugged, picamera2 missing), ValueError for ``none``."""
    kind = config.source
    if kind == "picamera2":
        return PiCamera2Source((config.width, config.height),
                               (config.lores_width, config.lores_height), config.stream)
    if kind == "opencv":
        return OpenCVSource(config.device, (config.width, config.height))
    if kind == "files":
        return FileSource(config.files, config.loop)
    if kind == "synthetic":
        return SyntheticSource(size=(config.lores_width, config.lores_height), loop=config.loop)
    raise ValueError(f"camera source {kind!r} opens no camera")
