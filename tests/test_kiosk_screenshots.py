"""Every screen at 800x480 and 720x1280 in English, Chinese and Japanese: no text overflows
its box and no character lacks a glyph, and every screen meets the limits measured on the
displays (``tests/test_kiosk_measure.py``): one drawing of the screens for both (whole under
``-m full``; the default run samples the sizes and languages, ``tests/sweeps.py``)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.kiosk.screenshots import SIZES, take  # noqa: E402
from companion.pillars.rules import STEPS  # noqa: E402
from tests.sweeps import FIRST, LANGUAGES, screen_sweep, sweep_params  # noqa: E402
from tests.test_kiosk_measure import assert_the_limits_are_met  # noqa: E402
from tests.test_linebreak import final_wraps, line_break_problems  # noqa: E402


@pytest.mark.parametrize("sweep", sweep_params())
def test_every_screen_fits_and_meets_the_limits_in_every_language_and_size(
    tmp_path: Path, sweep: str
) -> None:
    drawn = screen_sweep(sweep, tmp_path)  # drawn, checked and measured; no file written
    files = drawn.files
    assert not drawn.overflows, sorted(set(drawn.overflows))[:20]
    assert not drawn.missing_glyphs, sorted(set(drawn.missing_glyphs))[:20]
    assert sum(len(lines) > 1 for _t, _lang, lines in final_wraps(drawn.record)) > 100
    broken = line_break_problems(drawn.record)
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
    if drawn.sample is None:
        assert len(files) == len(names) * len(SIZES) * len(LANGUAGES)
    else:  # every screen once, every combination drawing some (the first most)
        sample = drawn.sample
        assert {f.name for f in files} == sample.expected_files()
        assert len(files) == len(names) == len(sample.drawn) and names == set(sample.order)
        drawn_in = Counter(c for _n, c in sample.drawn)
        assert set(drawn_in) == {(s, lang) for s in SIZES for lang in LANGUAGES}
        assert drawn_in.most_common(1)[0][0] == FIRST
    assert not any(f.exists() for f in files)
    for size in SIZES:
        assert_the_limits_are_met(drawn, size)
    saved = take(tmp_path, languages=("ja",), only=lambda name: name == "pillars-market")
    assert [f.name for f in saved] == [f"pillars-market-{w}x{h}-ja.png" for w, h in SIZES]
    for f in saved:
        img = pygame.image.load(str(f))
        assert img.get_size() in SIZES
