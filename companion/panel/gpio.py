"""Is there GPIO here, and which gpiozero pin factory drives it (no pygame needed)."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path
from typing import Any

MODEL_FILE = Path("/proc/device-tree/model")
"""Where Linux names the board ("Raspberry Pi 5 Model B Rev 1.0")."""

LGPIO_FIX = (
    "sudo apt install python3-lgpio, and make the venv with --system-site-packages "
    "(or pip install lgpio into it)"
)
GPIOZERO_FIX = "pip install -e '.[panel]' (the panel extra: gpiozero)"

_PI5 = re.compile(r"Raspberry Pi (5|500|Compute Module 5)\b")


class NoGpio(Exception):
    """There is no usable GPIO here: ``reason`` says why, ``fix`` how to get it ("" when the
    machine simply has none)."""

    def __init__(self, reason: str, fix: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.fix = fix


def pi_model(path: Path = MODEL_FILE) -> str | None:
    """The board's model when it is a Raspberry Pi, else None."""
    try:
        model = path.read_bytes().decode("utf-8", "replace").strip("\x00 \n")
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def is_pi5(model: str | None) -> bool:
    """True for the boards with the RP1 chip (Pi 5, Pi 500, CM5), which need lgpio."""
    return model is not None and _PI5.match(model) is not None


def choose_factory(model_path: Path = MODEL_FILE) -> Any:
    """The gpiozero pin factory to use: the one already set (tests set MockFactory), the one
    ``GPIOZERO_PIN_FACTORY`` names, lgpio on a Pi 5, else gpiozero's own choice.  Raises NoGpio
    off a Pi, without gpiozero, or when no pin library loads (with the fix)."""
    try:
        from gpiozero import Device  # type: ignore[import-untyped]
    except ImportError:
        raise NoGpio("gpiozero is not installed", GPIOZERO_FIX) from None
    if Device.pin_factory is not None:
        return Device.pin_factory
    named = os.environ.get("GPIOZERO_PIN_FACTORY")
    model = pi_model(model_path)
    if named is None and model is None:
        raise NoGpio("this is not a Raspberry Pi")
    if named is None and is_pi5(model):
        try:
            from gpiozero.pins.lgpio import LGPIOFactory  # type: ignore[import-untyped]

            Device.pin_factory = LGPIOFactory()
        except Exception as exc:  # noqa: BLE001 - ImportError, or lgpio failing to open the chip
            raise NoGpio(f"a {model} needs the lgpio pin factory ({exc})", LGPIO_FIX) from None
        return Device.pin_factory
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as exc:  # noqa: BLE001 - BadPinFactory, or a named factory failing
            tried = "; ".join(str(w.message) for w in caught)
            reason = f"no gpiozero pin factory loads ({exc}{': ' + tried if tried else ''})"
            raise NoGpio(reason, LGPIO_FIX) from None
    return Device.pin_factory
