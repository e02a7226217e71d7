"""The button panel's pin map: ``hardware/pins.toml``, overridden by the user's config file.

The default map is a documented TOML file in the repository's ``hardware/`` folder; the user's
config file (the kiosk's ``config.toml``) may hold the same ``[panel]`` tables with only the
lines that differ.  Everything is checked when the map is loaded: an unknown name, a value that
is not a GPIO of the 40-pin header, a GPIO used twice or a bad timing raises PinConfigError
naming the file and the line.  Nothing here touches a pin: gpiozero is not imported.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.events import PANEL_ROLES, ROLES, Role

BUTTONS: tuple[Role, ...] = PANEL_ROLES
"""The panel's buttons, by the role they press: the roles ``companion.events.Role`` declares
on the panel (a name in ``[panel.buttons]`` is one of their strings)."""

LEDS = ("red", "blue", "yellow", "green", "status")
"""The panel's lights: one per player colour, and the status light."""

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "hardware" / "pins.toml"
"""The documented default map (``hardware/pins.toml`` of the repository)."""

DEFAULT_PINS: dict[str, dict[str, int]] = {
    "buttons": {"draw": 5, "roll": 6, "confirm": 13, "pass": 26, "undo": 16},
    "leds": {"red": 17, "blue": 27, "yellow": 22, "green": 23, "status": 24},
}
"""The same map as ``hardware/pins.toml`` (a test keeps them equal), used when the file is
not there (an installed package without the repository)."""

DEFAULT_SETTINGS: dict[str, bool | float] = {
    "enabled": True,
    "long_press": 1.0,
    "stuck_after": 5.0,
    "debounce": 0.03,
}

# Seconds: (lowest, highest) for each timing setting.
_LIMITS = {"long_press": (0.2, 5.0), "stuck_after": (1.0, 600.0), "debounce": (0.0, 0.2)}

HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18,
    10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32,
    13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
}  # fmt: skip
"""BCM GPIO number -> physical pin of the 40-pin header (the same on every 40-pin Pi)."""

GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)
"""The header's ground pins (physical numbers)."""

SHARED_USES: dict[int, str] = {
    2: "I2C1 SDA",
    3: "I2C1 SCL",
    4: "the 1-Wire default and GPCLK0",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
    12: "PWM0 (hardware PWM)",
    13: "PWM1 (hardware PWM: a PWM overlay, a fan or audio would take it)",
    14: "the UART's TXD (serial console)",
    15: "the UART's RXD (serial console)",
    16: "SPI1 CE2 (the second SPI bus: free unless dtoverlay=spi1-3cs is on)",
    17: "SPI1 CE1 (the second SPI bus: free unless a spi1 overlay is on)",
    18: "PCM/I2S clock (audio HATs) and SPI1 CE0",
    19: "PCM/I2S frame (audio HATs) and SPI1 MISO",
    20: "PCM/I2S data in (audio HATs) and SPI1 MOSI",
    21: "PCM/I2S data out (audio HATs) and SPI1 SCLK",
}
"""GPIOs that a common interface or HAT also uses: allowed, but ``companion doctor`` notes it."""


class PinConfigError(Exception):
    """The pin map cannot be used; the message names the file and the line at fault."""


@dataclass(frozen=True)
class PinMap:
    """The merged pin map: BCM numbers by button and by light, the timings, and where each
    value was set (``"hardware/pins.toml, line 24"``) for messages."""

    buttons: Mapping[Role, int]
    leds: Mapping[str, int]
    enabled: bool = True
    long_press: float = 1.0
    stuck_after: float = 5.0
    debounce: float = 0.03
    sources: Mapping[str, str] = field(default_factory=dict)

    def pins(self) -> list[tuple[str, str, int]]:
        """Every configured pin as (kind, name, BCM number), buttons first, in map order."""
        return [("button", n, self.buttons[n]) for n in BUTTONS if n in self.buttons] + [
            ("led", n, self.leds[n]) for n in LEDS if n in self.leds
        ]


def physical(bcm: int) -> int:
    """The physical header pin of a BCM GPIO number."""
    return HEADER[bcm]


def describe(kind: str, name: str) -> str:
    """How a message names a pin's device: "the DRAW button", "the red LED"."""
    return f"the {name.upper()} button" if kind == "button" else f"the {name} LED"


# -- reading --------------------------------------------------------------------------------

_TABLE_LINE = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_PART = r"""(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""  # a bare or quoted key
_KEY_LINE = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")


def _dotted(key: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in key.split("."))


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line (1-based) where each table and key of a TOML text is written, by dotted path:
    enough to point at a value in a hand-written config file (tomllib gives no positions)."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for n, line in enumerate(text.splitlines(), 1):
        m = _TABLE_LINE.match(line)
        if m:
            table = _dotted(m.group(1))
            lines.setdefault(table, n)
            continue
        m = _KEY_LINE.match(line)
        if m:
            lines.setdefault(table + _dotted(m.group(1)), n)
    return lines


class _Where:
    """Names a place in one file for messages."""

    def __init__(self, path: Path | None, text: str) -> None:
        self.path = path
        self.lines = key_lines(text) if path is not None else {}

    def __call__(self, *key: str) -> str:
        if self.path is None:
            return "the built-in default pin map"
        for k in range(len(key), 0, -1):
            line = self.lines.get(("panel", *key[:k]))
            if line is not None:
                return f"{self.path}, line {line}"
        return str(self.path)


def _read(path: Path) -> tuple[dict[str, Any], str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PinConfigError(f"{path}: cannot be read: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PinConfigError(f"{path}: not valid TOML: {exc}") from None
    return data, text


def _gpio(value: Any, key: str, where: str) -> int:
    """A BCM GPIO number of the 40-pin header, or PinConfigError saying what is wrong."""
    what = f"{where}: panel.{key} must be a BCM GPIO number from 2 to 27"
    if isinstance(value, str):
        digits = re.sub(r"^\s*(?:GPIO|BCM)\s*", "", value, flags=re.IGNORECASE)
        hint = f" (write {digits} without quotes)" if digits.isdigit() else ""
        raise PinConfigError(f"{what}, not the text {value!r}{hint}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise PinConfigError(f"{what}, not {value!r}")
    if value in (0, 1):
        raise PinConfigError(
            f"{what}: GPIO {value} is kept for the HAT ID EEPROM (ID_SD/ID_SC)"
        )
    if value not in HEADER:
        gpio = {p: g for g, p in HEADER.items()}.get(value)
        hint = (
            f"; the map takes BCM numbers, and physical pin {value} is GPIO {gpio}"
            if gpio is not None
            else ""
        )
        raise PinConfigError(f"{what}, and {value} is not a GPIO of the header{hint}")
    return value


def _timing(value: Any, key: str, where: str) -> float:
    lo, hi = _LIMITS[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PinConfigError(f"{where}: panel.{key} must be a number of seconds, not {value!r}")
    if not lo <= value <= hi:
        raise PinConfigError(
            f"{where}: panel.{key} must be between {lo:g} and {hi:g} seconds, not {value:g}"
        )
    return float(value)


def _layer(
    data: dict[str, Any], where: _Where, out: dict[str, Any], sources: dict[str, str]
) -> set[str]:
    """Check one file's [panel] table and lay its values over ``out``; the keys it set."""
    panel = data.get("panel")
    if panel is None:
        return set()
    done: set[str] = set()
    if not isinstance(panel, dict):
        raise PinConfigError(f"{where('panel')}: panel must be a table ([panel])")
    for key, value in panel.items():
        if key in ("buttons", "leds"):
            names = BUTTONS if key == "buttons" else LEDS
            if not isinstance(value, dict):
                raise PinConfigError(
                    f"{where(key)}: panel.{key} must be a table ([panel.{key}]), not {value!r}"
                )
            for name, number in value.items():
                at = where(key, name)
                if name not in names:
                    kind = "button" if key == "buttons" else "LED"
                    keys_only = key == "buttons" and name in ROLES
                    why = " is a key of the kiosk, not a button of the panel" if keys_only else ""
                    raise PinConfigError(
                        f"{at}: unknown {kind} {name!r}{why} in [panel.{key}] "
                        f"(the {kind}s are {', '.join(names)})"
                    )
                out[f"{key}.{name}"] = _gpio(number, f"{key}.{name}", at)
                sources[f"{key}.{name}"] = at
                done.add(f"{key}.{name}")
        elif key == "enabled":
            if not isinstance(value, bool):
                raise PinConfigError(
                    f"{where(key)}: panel.enabled must be true or false, not {value!r}"
                )
            out[key] = value
            sources[key] = where(key)
            done.add(key)
        elif key in _LIMITS:
            out[key] = _timing(value, key, where(key))
            sources[key] = where(key)
            done.add(key)
        else:
            known = ", ".join([*DEFAULT_SETTINGS, "buttons", "leds"])
            raise PinConfigError(f"{where(key)}: unknown setting panel.{key} (known: {known})")
    return done


def load_pins(config_path: Path | None = None, default_path: Path | None = None) -> PinMap:
    """The default map (``hardware/pins.toml``) with the ``[panel]`` tables of the user's
    config file laid over it.  A missing config file means the defaults.  Raises
    PinConfigError naming the file and line of an unknown name, a bad number or value, or a
    GPIO used twice."""
    default_path = DEFAULT_FILE if default_path is None else default_path
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    from_user: set[str] = set()
    if default_path.exists():
        data, text = _read(default_path)
        _layer(data, _Where(default_path, text), values, sources)
    else:
        builtin = {"panel": {**DEFAULT_SETTINGS, **DEFAULT_PINS}}
        _layer(builtin, _Where(None, ""), values, sources)
    if config_path is not None and config_path.exists():
        data, text = _read(config_path)
        from_user = _layer(data, _Where(config_path, text), values, sources)
    settings = {k: values.get(k, v) for k, v in DEFAULT_SETTINGS.items()}
    if settings["stuck_after"] <= settings["long_press"]:
        raise PinConfigError(
            f"{sources.get('stuck_after', sources.get('long_press', 'the pin map'))}: "
            f"panel.stuck_after ({settings['stuck_after']:g} s) must be longer than "
            f"panel.long_press ({settings['long_press']:g} s)"
        )
    # The defaults first: a clash is reported at the line of the user's that made it.
    order = [
        (kind, name, f"{group}.{name}")
        for kind, group, names in (("button", "buttons", BUTTONS), ("led", "leds", LEDS))
        for name in names
        if f"{group}.{name}" in values
    ]
    order.sort(key=lambda item: item[2] in from_user)
    taken: dict[int, tuple[str, str, str]] = {}  # gpio -> kind, name, key
    for kind, name, key in order:
        gpio = values[key]
        if gpio in taken:
            other_kind, other_name, other_key = taken[gpio]
            raise PinConfigError(
                f"{sources[key]}: GPIO {gpio} is used twice: by {describe(kind, name)} "
                f"here and by {describe(other_kind, other_name)} ({sources[other_key]})"
            )
        taken[gpio] = (kind, name, key)
    return PinMap(
        buttons={n: values[f"buttons.{n}"] for n in BUTTONS if f"buttons.{n}" in values},
        leds={n: values[f"leds.{n}"] for n in LEDS if f"leds.{n}" in values},
        enabled=bool(settings["enabled"]),
        long_press=float(settings["long_press"]),
        stuck_after=float(settings["stuck_after"]),
        debounce=float(settings["debounce"]),
        sources=sources,
    )
