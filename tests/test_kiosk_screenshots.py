"""Every screen at 800x480 and 720x1280 in English, Chinese and Japanese: no text overflows
its box and no character lacks a glyph (whole under ``-m full``; the default run samples the
sizes and languages, ``tests/sweeps.py``)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.kiosk import linebreak, ui  # noqa: E402
from companion.kiosk.screenshots import SIZES, take  # noqa: E402
from companion.pillars.rules import STEPS  # noqa: E402
from tests.sweeps import Sample, sweep_params  # noqa: E402
from tests.test_linebreak import final_wraps, line_break_problems  # noqa: E402

LANGUAGES = ("en", "zh", "ja")
SAMPLED = [((800, 480), "ja"), *[(size, lang) for size in SIZES for lang in LANGUAGES
                                 if (size, lang) != ((800, 480), "ja")]]
"""The sample: every screen at 800x480 in Japanese (the longest sentences on the shortest
screen), a share of them in each other size and language."""


@pytest.mark.parametrize("sweep", sweep_params())
def test_every_screen_fits_in_every_language_and_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sweep: str
) -> None:
    sample = Sample(SAMPLED if sweep == "sample" else None).install(monkeypatch)
    ui.OVERFLOWS.clear()
    ui.MISSING_GLYPHS.clear()
    ui.CHECK_GLYPHS = True
    linebreak.RECORD = record = []  # every line break drawn (tests/test_linebreak.py)
    try:
        files = take(tmp_path, languages=LANGUAGES, only=sample, save=False)  # drawn, checked
    finally:
        ui.CHECK_GLYPHS = False
        linebreak.RECORD = None
    assert not ui.OVERFLOWS, sorted(set(ui.OVERFLOWS))[:20]
    assert not ui.MISSING_GLYPHS, sorted(set(ui.MISSING_GLYPHS))[:20]
    assert sum(len(lines) > 1 for _t, _lang, lines in final_wraps(record)) > 100
    broken = line_break_problems(record)
    assert not broken, f"{len(broken)} line breaks inside words: {broken[:20]}"
    names = {f.name.rsplit("-", 2)[0] for f in files}
    for step, _who, _help in STEPS:
        assert f"pillars-{step}" in names, step
    for screen in ("home", "setup", "name", "settings", "history", "error", "pillars-preview",
                   "pillars-tax-result", "pillars-help", "builders-turn", "builders-reveal",
                   "builders-over", "pillars-round-end", "pillars-preview-causes",
                   "pillars-hold-space", "pillars-hold-card", "pillars-help-place",
                   "pillars-log", "builders-hold-card", "builders-log", "safe-mode-journal",
                   "safe-mode-games", "builders-rows-long", "builders-turn-machines",
                   "builders-tableau", "builders-handout-refill", "builders-handout-deal",
                   "builders-companion-turn", "pillars-companion-cathedral"):
        assert screen in names, screen
    if sweep == "full":
        assert len(files) == len(names) * len(SIZES) * 3
    else:  # every screen in the first combination, some in each other
        assert {f.name for f in files} == sample.expected_files()
        assert {n for n, c in sample.drawn if c == SAMPLED[0]} == names
        assert {c for _n, c in sample.drawn} == set(SAMPLED)
    assert not any(f.exists() for f in files)
    monkeypatch.undo()
    saved = take(tmp_path, languages=("ja",), only=lambda name: name == "pillars-market")
    assert [f.name for f in saved] == [f"pillars-market-{w}x{h}-ja.png" for w, h in SIZES]
    for f in saved:
        img = pygame.image.load(str(f))
        assert img.get_size() in SIZES
