"""``companion doctor``: each line of the table on fake folders and MockFactory pins."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from gpiozero import LED  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

from companion.cli import main
from companion.doctor import (
    ERROR,
    FONT_FILES,
    MISSING,
    NOTE,
    OK,
    Check,
    check_audio,
    check_fonts,
    check_journal,
    checks,
    format_table,
    run_doctor,
)
from companion.kiosk import fonts


class HeldPin(MockPin):  # type: ignore[misc]
    """A button held down: the pull-up cannot raise the line."""

    def _set_pull(self, value: str) -> None:
        self._pull = value
        self._state = False


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, Any]:
    """Fake probes: a config file, no board, an empty /dev, no sound card."""
    dev = tmp_path / "dev"
    dev.mkdir()
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n", encoding="utf-8")
    return {
        "config_path": tmp_path / "config.toml",
        "model_path": tmp_path / "model",
        "dev_dir": dev,
        "cards": cards,
        "display": False,
    }


def by_what(lines: list[Check]) -> dict[str, Check]:
    return {c.what.strip(): c for c in lines}


def pi(machine: dict[str, Any], model: str = "Raspberry Pi 4 Model B Rev 1.5") -> None:
    machine["model_path"].write_bytes(model.encode() + b"\x00")


def test_off_a_pi_the_panel_lines_are_notes(machine: dict[str, Any]) -> None:
    lines = by_what(checks(**machine))
    assert lines["board"].status == NOTE
    assert lines["pin factory"].status == NOTE
    assert "not a Raspberry Pi" in lines["pin factory"].found
    assert lines["button DRAW"].status == NOTE
    assert lines["button DRAW"].found.startswith("GPIO 5 (pin 29): not checked")
    assert lines["led status"].found.startswith("GPIO 24 (pin 18)")
    assert "camera: picamera2" not in lines  # only asked on a Pi
    assert lines["camera: devices"].status == MISSING
    assert "rpicam-hello" in lines["camera: devices"].fix
    assert lines["audio"].status == MISSING and "sound = false" in lines["audio"].fix
    out = io.StringIO()
    assert run_doctor(out=out, **machine) == 0


def test_on_a_pi_every_pin_is_opened(machine: dict[str, Any]) -> None:
    pi(machine)
    (machine["dev_dir"] / "video0").write_text("")
    factory = MockFactory()
    lines = by_what(checks(pin_factory=factory, **machine))
    assert lines["board"] == Check("board", OK, "Raspberry Pi 4 Model B Rev 1.5")
    assert lines["pin factory"] == Check("pin factory", OK, "MockFactory")
    pins = [c for c in lines.values() if c.what.startswith("  ")]
    assert len(pins) == 10 and all(c.status == OK for c in pins), pins
    assert lines["button UNDO"].found.startswith("GPIO 16 (pin 36); GPIO 16 is also SPI1 CE2")
    assert lines["camera: devices"] == Check("camera: devices", OK, "/dev/video0")
    assert "camera: picamera2" in lines
    if lines["camera: picamera2"].status == MISSING:
        assert "python3-picamera2" in lines["camera: picamera2"].fix
    for gpio in (5, 6, 13, 26, 16, 17, 27, 22, 23, 24):  # every pin closed again: free to open
        LED(gpio, pin_factory=factory).close()


def test_a_held_button_and_a_busy_pin_are_reported(machine: dict[str, Any]) -> None:
    pi(machine)
    factory = MockFactory()
    factory.pin(6, pin_class=HeldPin)  # ROLL is down
    squatter = LED(17, pin_factory=factory)  # someone else drives the red LED's pin
    try:
        lines = by_what(checks(pin_factory=factory, **machine))
    finally:
        squatter.close()
    assert lines["button ROLL"].status == MISSING
    assert "held down now" in lines["button ROLL"].found
    assert "wiring" in lines["button ROLL"].fix
    assert lines["led red"].status == MISSING
    assert "cannot be opened" in lines["led red"].found
    assert lines["button DRAW"].status == OK


def test_a_pi_5_without_lgpio_says_which_package(
    machine: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setitem(__import__("sys").modules, "lgpio", None)
    pi(machine, "Raspberry Pi 5 Model B Rev 1.0")
    line = by_what(checks(**machine))["pin factory"]
    assert line.status == MISSING
    assert "lgpio" in line.found and "sudo apt install python3-lgpio" in line.fix


def test_shared_interface_pins_are_noted(machine: dict[str, Any]) -> None:
    machine["config_path"].write_text("[panel.leds]\nstatus = 18\n", encoding="utf-8")
    line = by_what(checks(**machine))["led status"]
    assert "PCM/I2S" in line.found


def test_the_default_pins_that_share_an_interface_are_noted(machine: dict[str, Any]) -> None:
    lines = by_what(checks(**machine))
    assert "SPI1 CE2" in lines["button UNDO"].found  # GPIO 16
    assert "SPI1 CE1" in lines["led red"].found  # GPIO 17
    assert "PWM1" in lines["button CONFIRM"].found  # GPIO 13
    assert "also" not in lines["button DRAW"].found  # GPIO 5: nothing to say


def test_a_bad_pin_map_is_an_error_with_its_line(machine: dict[str, Any]) -> None:
    machine["config_path"].write_text("[panel.buttons]\nshuffle = 12\n", encoding="utf-8")
    lines = by_what(checks(**machine))
    assert lines["pin map"].status == ERROR
    assert "config.toml, line 2" in lines["pin map"].found
    assert lines["pin factory"].status == NOTE  # still checked
    out = io.StringIO()
    assert run_doctor(out=out, **machine) == 1
    assert "unknown button 'shuffle'" in out.getvalue()


def test_a_bad_kiosk_setting_is_an_error(machine: dict[str, Any]) -> None:
    machine["config_path"].write_text('[kiosk]\nlanguage = "fr"\n', encoding="utf-8")
    lines = by_what(checks(**machine))
    assert lines["config"].status == ERROR and "kiosk.language" in lines["config"].found


def test_a_panel_turned_off(machine: dict[str, Any]) -> None:
    machine["config_path"].write_text("[panel]\nenabled = false\n", encoding="utf-8")
    lines = by_what(checks(**machine))
    assert lines["pin map"].status == NOTE and "turned off" in lines["pin map"].found
    assert lines["pin factory"].found == "not used: the panel is turned off"


def test_fonts(tmp_path: Path) -> None:
    assert check_fonts(fonts.FONT_DIR).status == OK
    assert {f.name for f in fonts.FONT_DIR.glob("*.otf")} >= set(FONT_FILES)
    assert fonts.subset_file("jp").name in FONT_FILES
    none = check_fonts(tmp_path, tmp_path / "no.ttc")
    assert none.status == MISSING and "fonts-noto-cjk" in none.fix
    system = tmp_path / "system.ttc"
    system.write_bytes(b"")
    assert check_fonts(tmp_path, system).status == NOTE


def test_journal(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    path = tmp_path / "data" / "j.sqlite3"
    cfg.write_text(f'[kiosk]\njournal = "{path}"\n', encoding="utf-8")
    line = check_journal(cfg)
    assert line.status == OK and "made at the first game" in line.found
    path.parent.mkdir()
    path.write_bytes(b"x" * 10)
    assert check_journal(cfg) == Check("journal", OK, f"{path} (10 bytes)")


def test_audio(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cards = tmp_path / "cards"
    card = "0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0"
    cards.write_text(f" {card}\n", encoding="utf-8")
    assert check_audio(cfg, cards) == Check("audio", OK, card)
    cfg.write_text("[kiosk]\nsound = false\n", encoding="utf-8")
    assert check_audio(cfg, cards).status == NOTE


def test_the_table_format() -> None:
    text = format_table(
        [Check("board", OK, "Raspberry Pi 5"), Check("audio", MISSING, "none", "plug it in")]
    )
    lines = text.splitlines()
    assert lines[0].split() == ["what", "status", "found"]
    assert lines[2].split() == ["board", "OK", "Raspberry", "Pi", "5"]
    assert lines[4].strip() == "fix: plug it in"
    assert lines[4].index("fix") == lines[3].index("none")


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    cfg = tmp_path / "config.toml"
    assert main(["doctor", "--json", "--config", str(cfg)]) == 0
    rows = json.loads(capsys.readouterr().out)
    what = [r["what"].strip() for r in rows]
    for expected in ("board", "config", "pin map", "display", "pin factory", "button DRAW",
                     "led status", "camera: OpenCV", "camera: devices", "fonts", "journal",
                     "audio"):
        assert expected in what
    display = next(r for r in rows if r["what"] == "display")
    assert display["status"] in (OK, NOTE)
    assert main(["doctor", "--config", str(cfg)]) == 0
    assert "pin factory" in capsys.readouterr().out
