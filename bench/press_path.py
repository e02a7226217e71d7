"""The path of one DRAW press through the project's code, from the kiosk's dispatch to the
journal's commit and back: which files it passes through, how often it moves from one file to
another, and how often it comes back to a file it had left (a measure of how straight the
walk of ``docs/architecture.md`` is).

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/press_path.py            # the figures
    SDL_VIDEODRIVER=dummy .venv/bin/python bench/press_path.py --files    # and the walk

A four-player Pillars game at its first draw of master builders, on the 800x480 screen, with
its opening hand-out steps confirmed; the press is the panel's DRAW (its keyboard stand-in,
Space), traced with ``sys.setprofile`` over the project's own files (the standard library,
pygame and SQLite are inside the calls they are made from).  The frame drawn after the press
is not part of it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from companion.events import Press, Role  # noqa: E402
from tests.kiosk_helpers import enter, make_app, position  # noqa: E402

PACKAGE = str(ROOT / "companion")


def _at_first_draw(app: Any) -> None:
    setup, actions, _draw = position("pillars", lambda state, _a, _n: state.step == "draw")
    enter(app, setup, actions)
    assert app.session.state.step == "draw", app.session.state.step


def trace(press: Press, app: Any) -> list[str]:
    """The project's files the press runs in, one entry per call or return that changes
    file."""
    walk: list[str] = []

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event not in ("call", "return"):
            return
        name = frame.f_code.co_filename
        if not name.startswith(PACKAGE):
            return
        rel = os.path.relpath(name, ROOT)
        if not walk or walk[-1] != rel:
            walk.append(rel)

    sys.setprofile(profile)
    try:
        app.dispatch(press)
    finally:
        sys.setprofile(None)
    return walk


def kiosk_only(walk: list[str]) -> list[str]:
    """The walk through the kiosk's files alone (the core's and the games' kiosks): the
    engine's and the journal's calls folded into the kiosk file that made them."""
    out: list[str] = []
    for step in walk:
        if "/kiosk/" in step and (not out or out[-1] != step):
            out.append(step)
    return out


def figures(walk: list[str]) -> dict[str, int]:
    left: set[str] = set()
    returns = 0
    for before, now in zip(walk, walk[1:], strict=False):
        left.add(before)
        if now in left:
            returns += 1
    return {"files": len(set(walk)), "moves": max(0, len(walk) - 1), "returns": returns}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", action="store_true", help="print the walk, file by file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp))
        _at_first_draw(app)
        before = len(app.session.playthrough.actions)
        walk = trace(Press(Role.DRAW), app)
        assert len(app.session.playthrough.actions) == before + 1, "the press drew nothing"
        app.journal.close()
    pygame.quit()
    for what, steps in (("every file", walk), ("the kiosk's files", kiosk_only(walk))):
        f = figures(steps)
        print(f"a DRAW press, {what}: {f['files']} files, {f['moves']} moves between files, "
              f"{f['returns']} returns to a file already left")
    if args.files:
        for step in kiosk_only(walk):
            print("  ", step)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
