"""Are two versions' kiosk pictures the same, pixel for pixel?  For a change that must not
change what the kiosk draws (a cache, a faster drawing: docs/notes/pi-lab.md).

    python tools/same_pictures.py take OUTDIR [--no-glyph-check] [screenshots options]
    python tools/same_pictures.py compare DIR_A DIR_B

``take`` runs ``companion screenshots`` with what differs between two runs held still: the
journal's clock (the history's times, the game's-end QR code), the temporary folders (the
settings' journal path: the same names, under FIXED_ROOT, default /tmp/same-pictures) and the
ids; run it from each clone (``cd CLONE && python ../this/tools/same_pictures.py take A``), the
same FIXED_ROOT for both.  ``--no-glyph-check`` draws as the kiosk does (``companion
screenshots`` checks every text's glyphs, which draws each text the long way).  ``compare``
prints each picture that differs (how many pixels, where) and exits 1 if any does or is
missing on one side.
"""

from __future__ import annotations

import itertools
import os
import shutil
import sys
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def take(args: list[str]) -> int:
    sys.path.insert(0, os.getcwd())  # the clone run from, not this file's
    import companion.journal.journal as journal_mod

    noon = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)
    journal_mod._utc_now = lambda: noon
    root = Path(os.environ.get("FIXED_ROOT", "/tmp/same-pictures"))
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    count = itertools.count()

    def mkdtemp(*_a: Any, **_k: Any) -> str:
        path = root / f"t{next(count)}"
        path.mkdir()
        return str(path)

    class Folder:
        def __init__(self, *_a: Any, **_k: Any) -> None:
            self.name = mkdtemp()

        def __enter__(self) -> str:
            return self.name

        def __exit__(self, *_a: object) -> None:
            shutil.rmtree(self.name, ignore_errors=True)

        def cleanup(self) -> None:
            shutil.rmtree(self.name, ignore_errors=True)

    tempfile.mkdtemp = mkdtemp  # type: ignore[assignment]
    tempfile.TemporaryDirectory = Folder  # type: ignore[assignment,misc]
    ids = itertools.count()
    uuid.uuid4 = lambda: uuid.UUID(int=next(ids))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    if "--no-glyph-check" in args:  # draw as the kiosk does (the check takes other paths)
        args = [a for a in args if a != "--no-glyph-check"]
        from companion.kiosk import screenshots, ui

        real = screenshots.take

        def unchecked(*a: Any, **k: Any) -> Any:
            ui.CHECK_GLYPHS = False
            return real(*a, **k)

        screenshots.take = unchecked
    from companion.cli import main

    return main(["screenshots", *args])


def compare(a: Path, b: Path) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    names = sorted({p.name for p in a.glob("*.png")} | {p.name for p in b.glob("*.png")})
    differ = 0
    for name in names:
        if not (a / name).exists() or not (b / name).exists():
            print(f"{name}: only in {a if (a / name).exists() else b}")
            differ += 1
            continue
        x, y = pygame.image.load(str(a / name)), pygame.image.load(str(b / name))
        bx, by = pygame.image.tobytes(x, "RGB"), pygame.image.tobytes(y, "RGB")
        if x.get_size() == y.get_size() and bx == by:
            continue
        differ += 1
        w = x.get_width()
        spots = [i // 3 for i in range(0, min(len(bx), len(by)), 3) if bx[i:i + 3] != by[i:i + 3]]
        where = (f"x {min(p % w for p in spots)}..{max(p % w for p in spots)}, "
                 f"y {min(p // w for p in spots)}..{max(p // w for p in spots)}") if spots else ""
        print(f"{name}: {len(spots)} pixels differ {where} (sizes {x.get_size()}, {y.get_size()})")
    print(f"{len(names) - differ} of {len(names)} pictures the same")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "take":
        sys.exit(take(sys.argv[2:]))
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    sys.exit(__doc__)
