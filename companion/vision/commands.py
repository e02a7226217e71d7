"""The camera's commands: ``companion markers`` (printable sticker sheets) and ``companion scan``
(the cards found in image files).  OpenCV and numpy are imported only when one of them runs, so
``companion --help`` works without the ``vision`` extra."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from companion.text import json_text, terminal

NO_OPENCV = ("companion {cmd}: this needs OpenCV and numpy: "
             ".venv/bin/pip install -e '.[vision]' ({error})")


def register(sub: Any) -> None:
    """Add ``markers`` and ``scan`` to the command line's subcommands."""
    mk = sub.add_parser("markers", help="write printable sticker sheets of the card markers")
    from companion.engine.registry import names

    mk.add_argument("--game", choices=(*names(), "table", "all"), default="all",
                    help="whose markers: a game's cards, the table's corner markers, or all "
                         "(default)")
    mk.add_argument("--out", metavar="FILE", required=True,
                    help="FILE.pdf and FILE-1.png, FILE-2.png... (one PNG per page)")
    mk.add_argument("--mode", choices=("reading", "table"), default="reading",
                    help="reading: card stickers for cards held up to the camera (13 mm); "
                         "table: card stickers for an overhead camera (25 mm). The corner "
                         "markers are 40 mm either way")
    mk.add_argument("--size", type=float, default=None, metavar="MM",
                    help="the card markers' side in millimetres (default: 13 for reading, "
                         "25 for table; 8 to 60)")
    mk.add_argument("--corner-size", type=float, default=None, metavar="MM",
                    help="the corner markers' side in millimetres (default 40; 8 to 60)")
    mk.add_argument("--paper", choices=("a4", "letter"), default="a4",
                    help="a4 (default) or letter")
    mk.add_argument("--dpi", type=int, default=300, help="resolution of the PNGs (default 300)")
    mk.set_defaults(run=_markers)
    sc = sub.add_parser("scan", help="print the marked cards found in image files")
    sc.add_argument("images", nargs="+", metavar="IMAGE", help="photos or frames to read")
    sc.add_argument("--json", action="store_true", help="print one JSON object")
    sc.set_defaults(run=_scan)


def _markers(args: argparse.Namespace) -> int:
    try:
        from . import markers as M
    except ImportError as exc:  # pragma: no cover - the registry needs only the engines
        print(NO_OPENCV.format(cmd="markers", error=exc), file=sys.stderr)
        return 2
    if not args.out.strip() or args.out.endswith(("/", os.sep)):
        print("companion markers: --out needs a file name, e.g. --out stickers.pdf",
              file=sys.stderr)
        return 2
    card_mm = args.size if args.size is not None else (
        M.TABLE_CARD_MM if args.mode == "table" else M.READING_MM)
    corner_mm = args.corner_size if args.corner_size is not None else M.CORNER_MM
    for flag, value in (("--size", card_mm), ("--corner-size", corner_mm)):
        if not 8.0 <= value <= 60.0:
            print(f"companion markers: {flag} {value:g} mm is out of range (8 to 60 mm)",
                  file=sys.stderr)
            return 2
    if not 72 <= args.dpi <= 1200:
        print(f"companion markers: --dpi {args.dpi} is out of range (72 to 1200)",
              file=sys.stderr)
        return 2
    items = M.entries(args.game)
    cards = tuple(e for e in items if e.game != "table")
    corners = tuple(e for e in items if e.game == "table")
    from companion.engine.registry import specs

    titles = {s.name: s.title for s in specs()}
    titles |= {"table": "Table corners", "all": "Every game"}
    out = Path(args.out)
    stem = out.with_suffix("") if out.suffix.lower() in (".pdf", ".png") else out
    jobs = []  # (file, stickers, size): cards and corners are printed at their own sizes
    if cards:
        jobs.append((stem, cards, card_mm, f"{titles[args.game]}, {args.mode} mode",
                     M.WHERE[args.mode]))
    if corners:
        where = stem if not cards else stem.with_name(stem.name + "-corners")
        jobs.append((where, corners, corner_mm, "Table corners", M.WHERE["corners"]))
    for path, stickers, size, title, hint in jobs:
        try:
            written = M.write_sheets(path, stickers, size_mm=size, paper=args.paper,
                                     dpi=args.dpi, title=f"companion markers: {title}",
                                     where=hint)
        except ImportError as exc:
            print(NO_OPENCV.format(cmd="markers", error=exc), file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"companion markers: cannot write {path}: {exc}", file=sys.stderr)
            return 2
        pages = len(written) - 1
        print(f"{len(stickers)} markers of {size:g} mm on {pages} page(s) of "
              f"{args.paper.upper()} ({M.DICTIONARY}): {_reach(M, size, stickers[0].game)}")
        for written_path in written:
            print(f"  {written_path}")
    return 0


def _reach(M: Any, size: float, game: str) -> str:
    """How wide the markers look where they are meant to be read."""
    if game == "table" or size >= M.TABLE_CARD_MM:
        lo, hi = M.TABLE_HEIGHT_M
        width, where = M.TABLE_WIDTH_PX, "from a camera"
    else:
        lo, hi = M.READING_DISTANCE_M
        width, where = M.READING_WIDTH_PX, "held"
    near, far = (M.apparent_px(size, d, width) for d in (lo, hi))
    ok = "" if far >= M.READABLE_PX else f"; under {M.READABLE_PX:g} px: some frames miss them"
    return (f"{far:.0f}-{near:.0f} px wide {where} {100 * lo:.0f}-{100 * hi:.0f} cm away at "
            f"{width} px across{ok}")


MAX_IMAGE_BYTES = 64 * 1024 * 1024


def _read_image(name: str, cv2: Any, np: Any) -> tuple[Any, str]:
    """The grey image in file ``name``, or None and why not in one line (read by Python and
    decoded from memory, so OpenCV prints no warning of its own)."""
    path = Path(name)
    try:
        if not path.is_file():
            return None, "no such file" if not path.exists() else "not a file"
        if path.stat().st_size > MAX_IMAGE_BYTES:
            return None, f"larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB: not a photo"
        data = path.read_bytes()
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE) if data else None
    except cv2.error as exc:  # e.g. a header past OpenCV's pixel limit (CV_IO_MAX_IMAGE_PIXELS)
        if "CV_IO_MAX_IMAGE_PIXELS" in str(exc):
            return None, "too large: its header says more pixels than OpenCV decodes here"
        return None, "not an image OpenCV can read"
    if image is None:
        return None, "not an image OpenCV can read"
    return np.asarray(image, dtype=np.uint8), ""


def _warnings(found: Any, table: bool, corner_base: int, corner_names: Any) -> list[str]:
    """What is odd about one image's markers: one id on two stickers, some of the table's
    corners but not all, or nothing at all (and what to try)."""
    from collections import Counter

    out = []
    counts = Counter(m.id for m in found)
    for mid, n in sorted(counts.items()):
        if n > 1:
            out.append(f"marker #{mid} is on {n} stickers in view: each card needs its own "
                       "marker (print it again with companion markers)")
    corners = [corner_base + i for i in range(len(corner_names))]
    seen = [c for c in corners if c in counts]
    missing = [f"{corner_names[c - corner_base]} (#{c})" for c in corners if c not in counts]
    if seen and (not table or missing):
        if missing:
            what = ("table coordinates from the other three" if table else
                    "no table coordinates (three are needed)")
            out.append(f"table corners: {len(seen)} of 4 in view, missing "
                       f"{', '.join(missing)}: {what}")
        else:
            out.append("table corners: all 4 in view but not in their order (top-left, "
                       "top-right, bottom-right, bottom-left clockwise): no table coordinates")
    if not found:
        out.append("no marker found: hold the card closer (a marker at least 35 pixels wide), "
                   "check the focus (lens position in companion doctor), and light it evenly "
                   "without glare")
    return out


def _scan(args: argparse.Namespace) -> int:
    from companion import imagesize

    imagesize.limit_opencv()
    try:
        import cv2
        import numpy as np

        from .detect import Detector, cards
        from .table import homography, to_table
    except ImportError as exc:
        print(NO_OPENCV.format(cmd="scan", error=exc), file=sys.stderr)
        return 2
    from .markers import CORNER_BASE, CORNERS, DICTIONARY

    detector = Detector()
    results: list[dict[str, Any]] = []
    status = 0
    for name in args.images:
        if not Path(name).is_file():  # a FIFO or a device would hang the header's read
            problem = "no such file" if not Path(name).exists() else "not a file"
            print(f"companion scan: {terminal(name)}: {problem}", file=sys.stderr)
            status = 1
            continue
        try:
            imagesize.check(name)  # the pixels, from the header: before anything decodes it
        except imagesize.ImageTooLarge as exc:
            print(f"companion scan: {terminal(name)}: {exc}", file=sys.stderr)
            status = 1
            continue
        except OSError:
            pass  # a missing or unreadable file: _read_image says so
        grey, problem = _read_image(name, cv2, np)
        if grey is None:
            print(f"companion scan: {terminal(name)}: {problem}", file=sys.stderr)
            status = 1
            continue
        found = detector.detect(grey)
        h = homography(found)
        on_cards = {m.id: e for m, e in cards(found)}
        rows: list[dict[str, Any]] = []
        lines = []
        for m in found:
            e = on_cards.get(m.id)
            corners = [[round(x, 1), round(y, 1)] for x, y in m.corners]
            row: dict[str, Any] = {
                "marker": m.id,
                "game": e.game if e else None,
                "kind": e.kind if e else None,
                "card": e.card if e else None,
                "copy": e.copy if e else None,
                "name": e.label if e else None,
                "corners": corners,
            }
            where = " ".join(f"({x:.0f},{y:.0f})" for x, y in m.corners)
            table = ""
            if h is not None:
                u, v = to_table(h, m.centre)
                row["table"] = [round(u, 3), round(v, 3)]
                table = f"  table ({u:.3f}, {v:.3f})"
            rows.append(row)
            what = f"{e}  {e.label}".partition(" ")[2] if e else "on no card of the registry"
            lines.append(f"  #{m.id:<3} {what}  corners {where}{table}")
        warnings = _warnings(found, h is not None, CORNER_BASE, CORNERS)
        for m, (family, fid) in detector.foreign:
            x, y = m.centre
            warnings.append(f"a marker at ({x:.0f},{y:.0f}) reads as #{m.id} but looks more like "
                            f"#{fid} of {family.removeprefix('DICT_')}, another set's: left "
                            "out (not one of our stickers)")
        results.append({"image": name, "size": [grey.shape[1], grey.shape[0]],
                        "markers": rows, "warnings": warnings})
        if not args.json:
            print(f"{terminal(name)}: {len(rows)} marker(s)")
            for line in lines:
                print(line)
            for warning in warnings:
                print(f"  warning: {warning}")
    if args.json:
        print(json_text({"dictionary": DICTIONARY, "images": results}))
    return status
