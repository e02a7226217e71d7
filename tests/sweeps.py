"""The screen sweeps (``companion.kiosk.screenshots.take``: every screen in every size and
language), whole under ``-m full`` and sampled in the default run (``ScreenSample``); the
parametrized walks (``sampled``, ``covered``) and the property tests (``examples``) alike.
Deterministic: the same cases every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from companion.kiosk import screenshots
from companion.kiosk.measure import Summary

Combination = tuple[tuple[int, int], str]


def sweep_params() -> list[Any]:
    """``sweep`` of a parametrized test: ``sample`` in the default run, ``full`` under the
    marker."""
    return [pytest.param("sample"), pytest.param("full", marks=pytest.mark.full)]


def sampled(params: Sequence[Any], keep: Sequence[int]) -> list[Any]:
    """The cases of a parametrized sweep, those at the indexes ``keep`` in the default run and
    the others marked ``full`` (run with ``-m full``); each case keeps its id."""
    out = []
    for k, case in enumerate(params):
        values = case if isinstance(case, tuple) else (case,)
        marks = () if k in keep else (pytest.mark.full,)
        out.append(pytest.param(*values, marks=marks))
    return out


def covered(cases: Sequence[tuple[Any, ...]]) -> list[Any]:
    """The cases of a grid (each a tuple: one value of each axis), sampled so that the default
    run still meets every value of every axis (as few cases as the greedy choice finds, the
    first one first), the others marked ``full``: ``sampled`` with those indexes."""
    seen: list[set[str]] = [set() for _ in cases[0]] if cases else []  # values' reprs
    keep: list[int] = []
    while True:
        gains = [sum(repr(v) not in seen[i] for i, v in enumerate(case)) for case in cases]
        best = max(range(len(cases)), key=lambda k: (gains[k], -k), default=None)
        if best is None or gains[best] == 0:
            return sampled(cases, keep)
        keep.append(best)
        for i, v in enumerate(cases[best]):
            seen[i].add(repr(v))


def ids(value: Any) -> str | None:
    """Ids of a sampled grid's values: a display size as ``800x480``, others as pytest names
    them (``parametrize(..., ids=ids)``)."""
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]}x{value[1]}"
    return None


# -- the screens, drawn once for the overflow and glyph checks and the measurements ----------

LANGUAGES = ("en", "zh", "ja")
FIRST: Combination = ((800, 480), "ja")
"""The longest sentences on the shortest screen."""


class ScreenSample:
    """The default run's sample of the screens (``only`` for ``take``; ``install`` it first:
    it follows which combination ``take`` is drawing): every screen drawn once, the sizes
    taking turns; at 800x480 every other one in the ``FIRST`` combination (the longest
    sentences on the shortest screen) and the rest in English or Chinese in turn; at 720x1280
    the languages in turn.  Every screen is drawn and measured, and every combination draws
    screens from the whole list (``-m full`` draws every screen in every combination)."""

    def __init__(self) -> None:
        self.now: Combination | None = None
        self.order: dict[str, int] = {}  # each screen's place in the list, as first asked
        self.drawn: set[tuple[str, Combination]] = set()

    def install(self, monkeypatch: pytest.MonkeyPatch) -> ScreenSample:
        made = screenshots._app

        def app(size: tuple[int, int], journal: Any, language: str) -> Any:
            self.now = (tuple(size), language)  # type: ignore[assignment]
            return made(size, journal, language)

        monkeypatch.setattr(screenshots, "_app", app)
        return self

    def wanted(self, name: str, combination: Combination) -> bool:
        k = self.order.setdefault(name, len(self.order))
        sizes = screenshots.SIZES
        size, lang = combination
        if size != sizes[k % len(sizes)]:
            return False
        k //= len(sizes)  # the screen's place among those drawn in this size
        if size != FIRST[0]:
            return lang == LANGUAGES[k % len(LANGUAGES)]
        if k % 2 == 0:
            return lang == FIRST[1]
        others = [other for other in LANGUAGES if other != FIRST[1]]
        return lang == others[k // 2 % len(others)]

    def __call__(self, name: str) -> bool:
        assert self.now is not None, "install the sample before take"
        if not self.wanted(name, self.now):
            return False
        self.drawn.add((name, self.now))
        return True

    def expected_files(self) -> set[str]:
        """The names of the files ``take`` returns for the sample."""
        return {f"{name}-{w}x{h}-{lang}.png" for name, ((w, h), lang) in self.drawn}


@dataclass(frozen=True)
class ScreenSweep:
    """What ``take`` drew in a sweep: the files it would have written, each size's and
    language's measurements, the texts that overflowed their box, the characters that lacked
    a glyph and every line break drawn (``linebreak.RECORD``); the sample (None: every screen
    in every size and language)."""

    files: list[Path]
    summaries: list[Summary]
    overflows: list[str]
    missing_glyphs: list[str]
    record: list[tuple[str, str, int, list[str]]]
    sample: ScreenSample | None


def screen_sweep(sweep: str, outdir: Path) -> ScreenSweep:
    """Every screen drawn once in each size and language of the sweep (``ScreenSample`` for
    ``sample``, everything for ``full``), measured as it is drawn and checked for overflows and
    missing glyphs: one drawing for the checks of ``tests/test_kiosk_screenshots.py`` and the
    measurements of ``tests/test_kiosk_measure.py``."""
    from companion.kiosk import linebreak, ui

    sample = ScreenSample() if sweep == "sample" else None
    summaries: list[Summary] = []
    ui.OVERFLOWS.clear()
    ui.MISSING_GLYPHS.clear()
    ui.CHECK_GLYPHS = True
    linebreak.RECORD = record = []
    try:
        with pytest.MonkeyPatch.context() as patch:
            if sample is not None:
                sample.install(patch)
            files = screenshots.take(outdir, languages=LANGUAGES, only=sample, save=False,
                                     summaries=summaries, scratch=outdir)
        return ScreenSweep(files, summaries, list(ui.OVERFLOWS), list(ui.MISSING_GLYPHS),
                           record, sample)
    finally:
        ui.CHECK_GLYPHS = False
        linebreak.RECORD = None
        ui.OVERFLOWS.clear()
        ui.MISSING_GLYPHS.clear()


def examples(sweep: str, thorough: int) -> settings:
    """The settings of a property test (hypothesis) run in a ``sweep`` of ``sweep_params``:
    ``thorough`` examples in the complete one (``-m full``), a tenth of them (at least 10) in
    the default run's sample, new ones each run; no deadline (machines differ in speed).

    The test draws its examples inside::

        @pytest.mark.parametrize("sweep", sweep_params())
        def test_property(sweep: str) -> None:
            @examples(sweep, 400)
            @given(...)
            def check(...) -> None: ...

            check()
    """
    return settings(max_examples=thorough if sweep == "full" else max(10, thorough // 10),
                    deadline=None)
