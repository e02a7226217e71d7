"""``companion doctor``: a table of what the companion finds on this machine, each line OK or
what is missing and how to fix it.

The lines: the board, the config file, the pin map, the display, the pin factory and each
configured pin, the camera, the fonts, the journal and audio.  Every probe is a small function
with its paths injectable, so the tests run them on fake folders; none needs the others, and
none imports pygame, gpiozero or cv2 until it checks for it.  The exit status is 1 only when
something would stop the kiosk (a config file or pin map it refuses), else 0: on a laptop the
missing GPIO is a note, not a failure.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from companion.panel.pins import SHARED_USES, PinConfigError, PinMap, describe, load_pins, physical
from companion.text import json_text

OK = "OK"
NOTE = "NOTE"
MISSING = "MISSING"
ERROR = "ERROR"

FONT_DIR = Path(__file__).resolve().parents[1] / "assets" / "fonts"  # the clone's assets/
FONT_FILES = tuple(
    f"NotoSansCJK{family}-Subset-{weight}.otf"
    for family in ("jp", "sc")
    for weight in ("Regular", "Bold")
)
SYSTEM_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


@dataclass(frozen=True)
class Check:
    """One line of the table: what was checked, its status (OK, NOTE, MISSING or ERROR), what
    was found, and how to fix it."""

    what: str
    status: str
    found: str
    fix: str = ""


# -- the probes --------------------------------------------------------------------------------


def check_board(model_path: Path) -> Check:
    from companion.panel.gpio import pi_model

    model = pi_model(model_path)
    if model is None:
        return Check("board", NOTE, "not a Raspberry Pi: no panel, the keyboard stands in")
    return Check("board", OK, model)


def check_config(config_path: Path) -> Check:
    from companion.kiosk.config import ConfigError, load

    if not os.path.lexists(config_path):
        return Check("config", OK, f"{config_path} (not there: the defaults)")
    try:
        load(config_path)
    except ConfigError as exc:
        return Check("config", ERROR, str(exc), "correct the line named, or delete the file")
    return Check("config", OK, str(config_path))


def check_pin_map(config_path: Path, default_path: Path | None) -> tuple[Check, PinMap | None]:
    try:
        pins = load_pins(config_path, default_path)
    except PinConfigError as exc:
        return Check("pin map", ERROR, str(exc), "correct the line named"), None
    files = sorted({s.split(", line")[0] for s in pins.sources.values()})
    found = " + ".join(files)
    if not pins.enabled:
        return Check("pin map", NOTE, f"{found}: the panel is turned off (enabled = false)"), pins
    return Check("pin map", OK, found), pins


def check_display() -> Check:
    try:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame
    except ImportError:
        return Check("display", MISSING, "pygame is not installed", "pip install -e '.[kiosk]'")
    already = pygame.display.get_init()  # the kiosk's own display, in tests: leave it open
    try:
        pygame.display.init()
        try:
            driver = pygame.display.get_driver()
            sizes = pygame.display.get_desktop_sizes()
        finally:
            if not already:
                pygame.display.quit()
    except pygame.error as exc:
        return Check(
            "display",
            MISSING,
            f"no screen to open ({exc})",
            "run it in the desktop session, or on the Pi from the console (see the README's "
            "Pi guide); SDL_VIDEODRIVER=dummy runs the kiosk off-screen",
        )
    screens = ", ".join(f"{w}x{h}" for w, h in sizes) or "no screen size"
    if driver in ("dummy", "offscreen"):
        return Check("display", NOTE, f"{driver} driver: off-screen ({screens})")
    return Check("display", OK, f"{driver}, {screens}")


def check_gpio(
    pins: PinMap | None, model_path: Path, pin_factory: Any = None
) -> list[Check]:
    """The pin factory, then one line per configured pin (opened and closed again when there
    is a factory: a pin another program holds, or a button held down now, is reported)."""
    from companion.panel.gpio import NoGpio, choose_factory

    lines: list[Check] = []
    factory = None
    if pins is not None and not pins.enabled:
        lines.append(Check("pin factory", NOTE, "not used: the panel is turned off"))
    else:
        try:
            factory = pin_factory if pin_factory is not None else choose_factory(model_path)
        except NoGpio as exc:
            off_pi = not exc.fix
            status = NOTE if off_pi else MISSING
            found = exc.reason + (": the lights are drawn on screen" if off_pi else "")
            lines.append(Check("pin factory", status, found, exc.fix))
        else:
            name = type(factory).__name__
            fix = ""
            status = OK
            if name == "NativeFactory":
                status, fix = NOTE, "the lgpio factory is better: sudo apt install python3-lgpio"
            lines.append(Check("pin factory", status, name, fix))
    if pins is None:
        return lines
    for kind, name, gpio in pins.pins():
        what = f"  {kind} {name.upper() if kind == 'button' else name}"
        where = f"GPIO {gpio} (pin {physical(gpio)})"
        also = f"; GPIO {gpio} is also {SHARED_USES[gpio]}" if gpio in SHARED_USES else ""
        if factory is None:
            lines.append(Check(what, NOTE, f"{where}: not checked (no GPIO){also}"))
            continue
        lines.append(_open_pin(what, kind, name, gpio, factory, where + also))
    return lines


def _open_pin(what: str, kind: str, name: str, gpio: int, factory: Any, where: str) -> Check:
    from gpiozero import LED, Button  # type: ignore[import-untyped]

    try:
        device = (
            Button(gpio, pull_up=True, pin_factory=factory)
            if kind == "button"
            else LED(gpio, pin_factory=factory)
        )
    except Exception as exc:  # noqa: BLE001 - busy, or refused by the pin library
        return Check(
            what,
            MISSING,
            f"{where}: cannot be opened ({exc})",
            "is the kiosk (or another program) using it? close it, or choose another pin",
        )
    try:
        if kind == "button" and device.is_pressed:
            return Check(
                what,
                MISSING,
                f"{where}: held down now",
                f"release {describe(kind, name)}, or check its wiring (GPIO to one contact, "
                "ground to the other)",
            )
    finally:
        device.close()
    return Check(what, OK, where)


def check_camera(model_path: Path, dev_dir: Path, config_path: Path | None = None) -> list[Check]:
    """OpenCV, picamera2 on a Pi (it loads, or why not; the lens), and the video devices."""
    from companion.panel.gpio import pi_model

    lines: list[Check] = []
    try:
        cv2 = importlib.import_module("cv2")
        lines.append(Check("camera: OpenCV", OK, f"cv2 {cv2.__version__}"))
    except ImportError:
        lines.append(
            Check("camera: OpenCV", MISSING, "cv2 cannot be imported", "pip install -e '.[vision]'")
        )
    if pi_model(model_path) is not None:
        from companion.vision.diagnose import picamera2_lines

        lines += [Check(*row) for row in picamera2_lines(config_path)]
    videos = sorted(p.name for p in dev_dir.glob("video*"))
    if videos:
        lines.append(Check("camera: devices", OK, ", ".join(f"/dev/{v}" for v in videos)))
    else:
        lines.append(
            Check(
                "camera: devices",
                MISSING,
                f"no {dev_dir}/video*",
                "connect the Camera Module's ribbon (power off first) or a USB camera; on the "
                "Pi, rpicam-hello --list-cameras shows what the system sees",
            )
        )
    return lines


def check_fonts(font_dir: Path = FONT_DIR, system_font: Path = SYSTEM_FONT) -> Check:
    missing = [name for name in FONT_FILES if not (font_dir / name).exists()]
    if not missing:
        return Check("fonts", OK, f"{font_dir} (Noto Sans CJK subsets)")
    if system_font.exists():
        return Check(
            "fonts", NOTE, f"missing {', '.join(missing)}: the system's {system_font} stands in"
        )
    return Check(
        "fonts",
        MISSING,
        f"missing {', '.join(missing)} in {font_dir}, and no {system_font}",
        "restore assets/fonts from the repository (tools/build_fonts.py rebuilds them), or "
        "sudo apt install fonts-noto-cjk",
    )


def check_games() -> list[Check]:
    """The games installed: those that load, and each that cannot, by name, with what is
    wrong (MISSING: the kiosk starts without it and every other game works)."""
    from companion.engine.registry import names, problems

    lines = [Check("games", OK, ", ".join(names()) or "none")]
    lines += [Check(f"game {name}", MISSING, why,
                    "update or reinstall the game's package, or uninstall it")
              for name, why in sorted(problems().items())]
    return lines


def check_journal(config_path: Path) -> Check:
    from companion.journal import default_path
    from companion.kiosk.config import Config, ConfigError, journal_path, load

    try:
        config = load(config_path)
    except ConfigError:
        config = Config()
    path = journal_path(config) or default_path()
    if path.exists():
        if os.access(path, os.W_OK):
            return Check("journal", OK, f"{path} ({path.stat().st_size} bytes)")
        return Check("journal", MISSING, f"{path} is read-only", f"chmod u+w {path}")
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if os.access(parent, os.W_OK):
        return Check("journal", OK, f"{path} (made at the first game)")
    return Check(
        "journal",
        MISSING,
        f"{path} cannot be made: {parent} is not writable",
        "choose another path with journal = \"...\" in [kiosk]",
    )


def check_audio(config_path: Path, cards: Path) -> Check:
    from companion.kiosk.config import ConfigError, load

    try:
        sound = load(config_path).sound
    except ConfigError:
        sound = True
    if not sound:
        return Check("audio", NOTE, "sound is off in the settings")
    try:
        listing = cards.read_text(encoding="utf-8")
    except OSError:
        listing = ""
    if not listing.strip() or "no soundcards" in listing:
        return Check(
            "audio",
            MISSING,
            "no sound card (the kiosk stays silent)",
            "connect HDMI audio or a USB speaker, or set sound = false in [kiosk]",
        )
    first = listing.strip().splitlines()[0].strip()
    return Check("audio", OK, first)


def checks(
    config_path: Path | None = None,
    *,
    default_pins: Path | None = None,
    model_path: Path | None = None,
    dev_dir: Path = Path("/dev"),
    cards: Path = Path("/proc/asound/cards"),
    font_dir: Path = FONT_DIR,
    display: bool = True,
    pin_factory: Any = None,
) -> list[Check]:
    """Every line of the table, in order (``display=False`` skips opening the display)."""
    from companion.kiosk.config import default_path
    from companion.panel.gpio import MODEL_FILE

    config_path = config_path or default_path()
    model_path = model_path or MODEL_FILE
    config_line = check_config(config_path)
    lines = [check_board(model_path), config_line]
    if config_line.status == ERROR:
        # Not read again by the panel or the camera: a file the settings refuse (a FIFO, a
        # device, nesting too deep) would hang or fail them the same way.
        pin_line, pins = Check("pin map", NOTE, "not read: the config file is refused above"), None
        camera_config: Path | None = None
    else:
        pin_line, pins = check_pin_map(config_path, default_pins)
        camera_config = config_path
    lines.append(pin_line)
    if display:
        lines.append(check_display())
    lines += check_gpio(pins, model_path, pin_factory)
    lines += check_camera(model_path, dev_dir, camera_config)
    lines.append(check_fonts(font_dir))
    lines += check_games()
    lines.append(check_journal(config_path))
    lines.append(check_audio(config_path, cards))
    return lines


def format_table(lines: Iterable[Check]) -> str:
    """The table as text: what, status, what was found, and the fix on its own line."""
    rows = list(lines)
    width = max(len(c.what) for c in rows) + 2
    out = [f"{'what':<{width}}{'status':<9}found", f"{'-' * (width - 2):<{width}}{'-' * 7:<9}-----"]
    for c in rows:
        out.append(f"{c.what:<{width}}{c.status:<9}{c.found}")
        if c.fix:
            out.append(f"{'':<{width}}{'':<9}fix: {c.fix}")
    return "\n".join(out)


def run_doctor(
    config_path: Path | None = None,
    *,
    as_json: bool = False,
    out: TextIO | None = None,
    **probes: Any,
) -> int:
    """Print the table (or a JSON array with ``as_json``); 1 if the config file or pin map
    would stop the kiosk, else 0.  ``probes`` go to :func:`checks`."""
    out = out or sys.stdout
    lines = checks(config_path, **probes)
    if as_json:
        print(json_text([asdict(c) for c in lines], indent=2), file=out)
    else:
        print(format_table(lines), file=out)
    return 1 if any(c.status == ERROR for c in lines) else 0


def _run(args: argparse.Namespace) -> int:
    config = Path(args.config) if getattr(args, "config", None) else None
    return run_doctor(config, as_json=args.json)


def register(sub: Any) -> None:
    """Add the ``doctor`` subcommand to the CLI's subparsers."""
    doc = sub.add_parser(
        "doctor",
        help="check the display, pins, camera, fonts, journal and audio, and say how to fix "
        "what is missing",
    )
    doc.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                     help="the config file (default: the user's)")
    doc.add_argument("--json", action="store_true", help="print one JSON array")
    doc.set_defaults(run=_run)
