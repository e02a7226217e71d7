"""Benchmarks of line breaking and translation look-ups; prints its figures.

    .venv/bin/python bench/bench_linebreak.py

- BudouX's parse of one line of Chinese or Japanese (every catalogue translation, each a
  "line"), alone and as ``linebreak.units`` (with the glossary and the kinsoku rules) uncached;
- ``linebreak.wrap`` of a text into a box: uncached (what the first frame showing a text pays)
  and cached (every later frame);
- a whole frame of the busiest screens (the Pillars market, the Builders turn) in Japanese and
  Chinese at 800x480: first frame (cold caches) and later frames;
- ``_()`` and ``n_()`` look-ups in the .mo catalogue, and loading a catalogue from the .mo and
  from the .po (compiled in memory).
Runs on SDL's dummy video driver; on a Pi the same script measures the real thing.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from companion.kiosk import catalogue, fonts, i18n, linebreak  # noqa: E402


def per_call(fn: Callable[[], object], repeat: int = 5) -> float:
    """The best of ``repeat`` runs of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def texts(lang: str) -> list[str]:
    every = (t for c in catalogue.read_all(lang) for t in catalogue.translated_texts(c))
    return [t for t in every if "\n" not in t]


def bench_lang(lang: str) -> None:
    i18n.set_language(lang)
    lines = texts(lang)
    n = len(lines)
    chars = sum(map(len, lines))
    parse = linebreak._parser(linebreak.PARSERS[lang])
    t = per_call(lambda: [parse(line) for line in lines])
    print(f"{lang}: BudouX parse: {t / n * 1e6:.0f} µs a line ({n} lines, {chars / n:.0f} chars)")
    t = per_call(lambda: (linebreak.glossary.cache_clear(), linebreak.glossary(lang)))
    print(f"{lang}: the glossary, built once per language: {t * 1e3:.1f} ms")

    def cold_units() -> None:
        linebreak.units.cache_clear()
        for line in lines:
            linebreak.units(line, lang)

    t = per_call(cold_units)
    print(f"{lang}: linebreak.units uncached: {t / n * 1e6:.0f} µs a line")
    t = per_call(lambda: [linebreak.units(line, lang) for line in lines])
    print(f"{lang}: linebreak.units cached: {t / n * 1e6:.2f} µs a line")
    f = fonts.font(20)

    def cold_wrap() -> None:
        linebreak.clear_cache()
        for line in lines:
            linebreak.wrap(line, f, 240, lang)

    t = per_call(cold_wrap)
    print(f"{lang}: linebreak.wrap uncached, 240 px: {t / n * 1e6:.0f} µs a text")
    t = per_call(lambda: [linebreak.wrap(line, f, 240, lang) for line in lines])
    print(f"{lang}: linebreak.wrap cached: {t / n * 1e6:.2f} µs a text")


def bench_frames() -> None:
    from companion.journal import Journal
    from companion.kiosk.screenshots import _app, scenes

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "journal.sqlite3")
        wanted = {"pillars-market", "builders-turn"}
        found = [(name, enter) for name, enter in scenes(journal) if name in wanted]
        for lang in ("ja", "zh"):
            app = _app((800, 480), journal, lang)
            for name, enter in found:
                enter(app)
                linebreak.clear_cache()
                t = time.perf_counter()
                app.render(force=True)
                first = time.perf_counter() - t
                later = []
                for _ in range(40):
                    t = time.perf_counter()
                    app.render(force=True)
                    later.append(time.perf_counter() - t)
                print(
                    f"frame {name} {lang} 800x480: first {first * 1e3:.1f} ms (cold caches), "
                    f"then best {min(later) * 1e3:.1f} / median "
                    f"{statistics.median(later) * 1e3:.1f} ms"
                )
        journal.close()


def bench_lookups() -> None:
    i18n.set_language("ja")
    k = 10_000
    t = per_call(lambda: [i18n._("Round {n}", n=i) for i in range(k)])
    print(f"_('Round {{n}}', n=...) in ja: {t / k * 1e6:.2f} µs")
    t = per_call(lambda: [i18n.n_("{n} coin", "{n} coins", i) for i in range(k)])
    print(f"n_('{{n}} coin', '{{n}} coins', n) in ja: {t / k * 1e6:.2f} µs")
    catalogue.compile_all()
    t = per_call(lambda: catalogue.load("ja"))
    print(f"load the ja catalogue from its .mo: {t * 1e3:.1f} ms")
    t = per_call(
        lambda: catalogue.compile_catalog(catalogue.read("ja")),
    )
    print(f"compile the ja catalogue from its .po in memory: {t * 1e3:.1f} ms")


def main() -> int:
    pygame.init()
    print(f"python {sys.version.split()[0]}, pygame {pygame.version.ver}")
    for lang in ("ja", "zh"):
        bench_lang(lang)
    bench_frames()
    bench_lookups()
    i18n.set_language("en")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
