"""The physical build's documents: the wiring diagram carries its colours inline (every
renderer draws the same), and the LED table's arithmetic is right."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def test_the_wiring_diagram_has_no_css_and_every_shape_its_own_fill() -> None:
    text = (ROOT / "hardware" / "wiring.svg").read_text(encoding="utf-8")
    assert "<style" not in text and "class=" not in text
    tree = ET.fromstring(text)
    shapes = [e for e in tree.iter() if e.tag in (SVG + "circle", SVG + "rect", SVG + "path")]
    assert len(shapes) > 100
    for e in shapes:
        assert "fill" in e.attrib, ET.tostring(e)[:120]
    pins = [e for e in tree.iter(SVG + "circle") if e.get("r") == "7"]
    fills = {e.get("fill") for e in pins}
    # white, LED gold, button blue, ground black, 5 V red, 3.3 V purple
    assert {"#ffffff", "#e0b44a", "#5aa0e6", "#222222", "#d9443a", "#9a6fc0"} <= fills
    assert "TBD62003APG" in text and "pin 4 · 5 V" in text


def test_the_led_table_adds_up() -> None:
    text = (ROOT / "hardware" / "leds.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| [a-z: ]+\(.*?\) \| ([0-9.]+) V \| ([0-9.]+) V / 5 mA = (\d+) Ω \| \*\*(\d+) Ω\*\* "
        r"\| ([0-9.]+) / \d+ = ([0-9.]+) mA \|",
        text,
        flags=re.M,
    )
    assert len(rows) == 5
    for vf, headroom, r_exact, r_chosen, _h, current in rows:
        assert abs(5.0 - float(vf) - 0.1 - float(headroom)) < 1e-9
        assert abs(float(headroom) / 0.005 - int(r_exact)) < 1
        assert abs(float(headroom) / int(r_chosen) * 1000 - float(current)) < 0.06
    # the old 220 Ω range, corrected: V_f 1.9-2.2 V from 3.3 V
    assert f"{(3.3 - 2.2) / 220 * 1000:.1f} mA" in text
    assert f"{(3.3 - 1.9) / 220 * 1000:.1f} mA" in text
    # the spread of the InGaN lights through 390 Ω at 5.0 V
    assert f"{(5.0 - 3.1 - 0.2) / 390 * 1000:.1f} mA" in text
    assert f"{(5.0 - 2.7) / 390 * 1000:.1f} mA" in text
