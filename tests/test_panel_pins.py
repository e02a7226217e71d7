"""The pin map: the documented default, the user's overrides, and an error naming the file and
line for every kind of mistake."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.panel.pins import (
    BUTTONS,
    DEFAULT_FILE,
    DEFAULT_PINS,
    DEFAULT_SETTINGS,
    GROUND_PINS,
    HEADER,
    LEDS,
    SHARED_USES,
    PinConfigError,
    key_lines,
    load_pins,
)


def user(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_documented_default_is_the_built_in_one() -> None:
    data = tomllib.loads(DEFAULT_FILE.read_text(encoding="utf-8"))["panel"]
    assert data["buttons"] == DEFAULT_PINS["buttons"]
    assert data["leds"] == DEFAULT_PINS["leds"]
    assert {k: data[k] for k in DEFAULT_SETTINGS} == DEFAULT_SETTINGS
    # the comments give each pin's physical number: they must agree with the header table
    for line in DEFAULT_FILE.read_text(encoding="utf-8").splitlines():
        if "# physical pin" in line and not line.startswith("#"):
            gpio = int(line.split("=")[1].split("#")[0])
            assert line.rstrip().endswith(f"physical pin {HEADER[gpio]}"), line


def test_the_default_map_avoids_the_shared_interfaces() -> None:
    pins = load_pins(None)
    assert set(pins.buttons) == set(BUTTONS)
    assert set(pins.leds) == set(LEDS)
    used = [g for _k, _n, g in pins.pins()]
    assert len(used) == len(set(used)) == 10
    # only the second SPI bus (16, 17: off by default) and PWM1 (13), which doctor notes
    assert set(used) & set(SHARED_USES) == {13, 16, 17}
    assert pins.enabled and pins.long_press == 1.0 and pins.stuck_after == 5.0


def test_the_header_table_is_the_40_pin_header() -> None:
    assert sorted(HEADER) == list(range(28))
    phys = sorted(HEADER.values())
    assert len(set(phys)) == 28
    power = {1, 2, 4, 17}
    assert set(phys) | set(GROUND_PINS) | power == set(range(1, 41))


def test_without_the_file_the_built_in_map_is_used(tmp_path: Path) -> None:
    pins = load_pins(None, default_path=tmp_path / "absent.toml")
    assert dict(pins.buttons) == DEFAULT_PINS["buttons"]
    assert pins.sources["buttons.draw"] == "the built-in default pin map"


def test_the_users_lines_override_single_pins(tmp_path: Path) -> None:
    cfg = user(
        tmp_path,
        '[kiosk]\nlanguage = "ja"\n\n[panel.buttons]\nundo = 12  # moved\n\n[panel]\n'
        "long_press = 1.5\n",
    )
    pins = load_pins(cfg)
    assert pins.buttons["undo"] == 12
    assert pins.buttons["draw"] == DEFAULT_PINS["buttons"]["draw"]
    assert pins.long_press == 1.5
    assert pins.sources["buttons.undo"] == f"{cfg}, line 5"
    assert pins.sources["buttons.draw"].startswith(str(DEFAULT_FILE))


def test_dotted_and_inline_keys_are_read(tmp_path: Path) -> None:
    cfg = user(tmp_path, "[panel]\nbuttons.pass = 12\nleds = { status = 25 }\n")
    pins = load_pins(cfg)
    assert pins.buttons["pass"] == 12 and pins.leds["status"] == 25
    assert pins.sources["buttons.pass"] == f"{cfg}, line 2"
    assert pins.sources["leds.status"] == f"{cfg}, line 3"


def test_the_panel_can_be_turned_off(tmp_path: Path) -> None:
    assert not load_pins(user(tmp_path, "[panel]\nenabled = false\n")).enabled


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("[panel.buttons]\nshuffle = 12\n", 2, ["unknown button 'shuffle'", "draw, roll"]),
        ("[panel.buttons]\nback = 12\n", 2, ["'back' is a key of the kiosk, not a button"]),
        ("[panel.leds]\npurple = 12\n", 2, ["unknown LED 'purple'", "red, blue"]),
        ("[panel]\nbounce = 0.1\n", 2, ["unknown setting panel.bounce"]),
        ("\n[panel.buttons]\ndraw = \"GPIO12\"\n", 3, ["BCM GPIO number", "write 12"]),
        ("[panel.buttons]\ndraw = 29\n", 2, ["physical pin 29 is GPIO 5"]),
        ("[panel.buttons]\ndraw = 40\n", 2, ["not a GPIO of the header"]),
        ("[panel.buttons]\ndraw = 1\n", 2, ["HAT ID EEPROM"]),
        ("[panel.buttons]\ndraw = -3\n", 2, ["from 2 to 27"]),
        ("[panel.buttons]\ndraw = true\n", 2, ["from 2 to 27, not True"]),
        ("[panel.buttons]\ndraw = 12.0\n", 2, ["from 2 to 27, not 12.0"]),
        ("[panel]\nbuttons = 5\n", 2, ["must be a table"]),
        ("[panel]\nenabled = \"yes\"\n", 2, ["true or false"]),
        ("[panel]\nlong_press = 0.05\n", 2, ["between 0.2 and 5 seconds"]),
        ("[panel]\ndebounce = \"fast\"\n", 2, ["number of seconds"]),
        ("[panel]\nstuck_after = 2\nlong_press = 3\n", 2, ["longer than panel.long_press"]),
    ],
)
def test_a_bad_line_is_named(tmp_path: Path, text: str, line: int, words: list[str]) -> None:
    cfg = user(tmp_path, text)
    with pytest.raises(PinConfigError) as err:
        load_pins(cfg)
    message = str(err.value)
    assert message.startswith(f"{cfg}, line {line}: "), message
    for w in words:
        assert w in message, message


def test_a_pin_used_twice_names_both_places(tmp_path: Path) -> None:
    cfg = user(tmp_path, "[panel.buttons]\nroll = 5\n")  # GPIO 5 is DRAW's by default
    with pytest.raises(PinConfigError) as err:
        load_pins(cfg)
    message = str(err.value)
    draw_line = key_lines(DEFAULT_FILE.read_text(encoding="utf-8"))[("panel", "buttons", "draw")]
    assert message.startswith(f"{cfg}, line 2: GPIO 5 is used twice"), message
    assert "the ROLL button here" in message
    assert f"the DRAW button ({DEFAULT_FILE}, line {draw_line})" in message


def test_a_pin_used_twice_in_one_file(tmp_path: Path) -> None:
    cfg = user(tmp_path, "[panel.leds]\nred = 12\nblue = 12\n")
    with pytest.raises(PinConfigError, match=r"line 3: GPIO 12 is used twice: by the blue LED"):
        load_pins(cfg)


def test_moving_two_pins_at_once_is_fine(tmp_path: Path) -> None:
    cfg = user(tmp_path, "[panel.buttons]\ndraw = 6\nroll = 5\n")
    pins = load_pins(cfg)
    assert (pins.buttons["draw"], pins.buttons["roll"]) == (6, 5)


def test_invalid_toml_is_named(tmp_path: Path) -> None:
    cfg = user(tmp_path, "[panel.buttons\ndraw = 5\n")
    with pytest.raises(PinConfigError, match=r"not valid TOML.*line 1"):
        load_pins(cfg)


def test_key_lines_follow_tables_and_skip_comments() -> None:
    text = '# [panel]\n[panel]\n  "long_press" = 1\n[panel.leds] # lights\nred=3\n'
    lines = key_lines(text)
    assert lines[("panel",)] == 2
    assert lines[("panel", "long_press")] == 3
    assert lines[("panel", "leds", "red")] == 5
