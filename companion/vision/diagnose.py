"""What ``companion doctor`` says about the Pi camera: whether picamera2 loads (and if not,
why and the fix), and where the lens is focused.

``picamera2_lines`` returns plain ``(what, status, found, fix)`` rows (status OK, NOTE,
MISSING or ERROR, as the doctor's table has them), so the doctor stays independent of the camera
code and the camera code of the doctor.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from .sources import (
    CameraConfig,
    CameraConfigError,
    CameraError,
    CameraLibraryError,
    PiCamera2Source,
    import_picamera2,
    load_config,
)

Row = tuple[str, str, str, str]


def _split(message: str) -> tuple[str, str]:
    """A CameraLibraryError's message as (what was found, the fix)."""
    found, sep, fix = message.partition("; fix: ")
    return (found, fix) if sep else (message, "")


def lens_text(dioptres: float | None) -> str:
    """A lens position in words: ``3.33 dioptres (sharp at 30 cm)``."""
    if dioptres is None:
        return "unknown"
    if dioptres <= 0.01:
        return f"{dioptres:.2f} dioptres (sharp at infinity)"
    return f"{dioptres:.2f} dioptres (sharp at {100 / dioptres:.0f} cm)"


def picamera2_lines(config_path: Path | None = None, *, module: ModuleType | Any | None = None,
                    env: dict[str, str] | None = None) -> list[Row]:
    """The picamera2 rows of the doctor's table: the library, then the lens (opened for a
    moment when the config uses the Pi camera and nothing else holds it)."""
    try:
        mod = module if module is not None else import_picamera2()
    except CameraLibraryError as exc:
        found, fix = _split(str(exc))
        status = "MISSING" if found.startswith("camera library missing") else "ERROR"
        return [("camera: picamera2", status, found, fix)]
    version = getattr(mod, "__version__", "")
    rows: list[Row] = [("camera: picamera2", "OK", f"picamera2 {version}".strip() + " imports", "")]
    try:
        config = load_config(config_path, env=env)
    except CameraConfigError as exc:
        return [*rows, ("camera: lens", "NOTE", f"not checked: {exc}", "")]
    if config.source != "picamera2":
        return [*rows, ("camera: lens", "NOTE",
                        f"not checked: the camera source is {config.source!r}", "")]
    return [*rows, lens_row(config, mod)]


def lens_row(config: CameraConfig, module: ModuleType | Any) -> Row:
    """Open the camera as the kiosk does, read where the lens is, close it."""
    want = 1.0 / config.lens_distance
    try:
        src = PiCamera2Source((config.width, config.height),
                              (config.lores_width, config.lores_height), config.stream,
                              module=module, config=config)
    except CameraError as exc:
        return ("camera: lens", "NOTE",
                f"not read ({exc}); the config asks for {config.focus} focus, "
                f"{lens_text(want) if config.focus == 'fixed' else 'found once at start'}",
                "close the kiosk (it holds the camera) and run the doctor again")
    try:
        lens: float | None = None
        try:
            meta = src.cam.capture_metadata(wait=2.0)
            value = meta.get("LensPosition") if isinstance(meta, dict) else None
            lens = float(value) if isinstance(value, (int, float)) else src.lens
        except Exception:  # noqa: BLE001 - a camera that gives no metadata: what was asked
            lens = src.lens
    finally:
        src.close()
    if src.focus == "none":
        return ("camera: lens", "NOTE", "a fixed-focus module (no autofocus control)", "")
    found = f"{lens_text(lens)}, focus {src.focus}"
    if src.sensor is not None:
        w, h = src.sensor["output_size"]
        found += f"; sensor mode {w}x{h} (full view)"
    if src.focus == "fixed" and lens is not None and abs(lens - want) > 0.25:
        return ("camera: lens", "MISSING", f"{found}, but {lens_text(want)} was asked",
                "check [camera] distance, or try focus = \"once\"")
    return ("camera: lens", "OK", found, "")
