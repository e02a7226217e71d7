"""What a frame costs on a Pi (docs/pi.md, bench/bench_pi.py): the kiosk's hot paths do no file
system work per text drawn."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def test_the_font_file_is_looked_up_once_not_for_every_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every text drawn asks for its font's file; a stat each time was a third of the busiest
    screen's render (230 stats a frame), which put a Pi 4's frame past 16 ms."""
    from companion.kiosk import fonts

    calls = []
    real = Path.is_file

    def counting(self: Path) -> bool:
        calls.append(self)
        return real(self)

    first = fonts.font_path("ja", bold=True)
    monkeypatch.setattr(Path, "is_file", counting)
    for _ in range(100):
        assert fonts.font_path("ja", bold=True) == first
        fonts.font_path("zh")
    assert len(calls) <= 2  # at most the first look-up of the zh subset


def test_a_moved_font_folder_is_looked_up_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from companion.kiosk import fonts

    bundled = fonts.font_path("en")
    assert bundled is not None and bundled.parent == fonts.FONT_DIR
    monkeypatch.setattr(fonts, "FONT_DIR", tmp_path)
    monkeypatch.setattr(fonts, "SYSTEM_FONT_DIR", tmp_path)
    assert fonts.font_path("en") is None  # neither there: pygame's default font
    monkeypatch.undo()
    assert fonts.font_path("en") == bundled
