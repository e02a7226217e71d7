"""The camera's commands: ``companion markers`` (printable sticker sheets) and ``companion scan``
(the cards found in image files).  OpenCV and numpy are imported only when one of them runs, so
``companion --help`` works without the ``vision`` extra."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

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
    mk.add_argument("--size", type=float, default=13.0, metavar="MM",
                    help="the marker's side in millimetres (default 13; 8 to 60)")
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
    if not 8.0 <= args.size <= 60.0:
        print(f"companion markers: --size {args.size:g} mm is out of range (8 to 60 mm)",
              file=sys.stderr)
        return 2
    if not 72 <= args.dpi <= 1200:
        print(f"companion markers: --dpi {args.dpi} is out of range (72 to 1200)",
              file=sys.stderr)
        return 2
    items = M.entries(args.game)
    from companion.engine.registry import specs

    titles = {s.name: s.title for s in specs()}
    titles |= {"table": "Table corners", "all": "Every game and the table corners"}
    try:
        written = M.write_sheets(Path(args.out), items, size_mm=args.size, paper=args.paper,
                                 dpi=args.dpi, title=f"companion markers: {titles[args.game]}")
    except ImportError as exc:
        print(NO_OPENCV.format(cmd="markers", error=exc), file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion markers: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    pages = len(written) - 1
    print(f"{len(items)} markers of {args.size:g} mm on {pages} page(s) of {args.paper.upper()}"
          f" ({M.DICTIONARY}):")
    for path in written:
        print(f"  {path}")
    return 0


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
    from .markers import DICTIONARY

    detector = Detector()
    results: list[dict[str, Any]] = []
    status = 0
    for name in args.images:
        try:
            imagesize.check(name)  # before decoding: a huge image would exhaust the memory
        except imagesize.ImageTooLarge as exc:
            print(f"companion scan: {name}: {exc}", file=sys.stderr)
            status = 1
            continue
        except OSError:
            pass  # a missing or unreadable file: OpenCV says so below
        image = cv2.imread(name, cv2.IMREAD_GRAYSCALE)
        if image is None:
            print(f"companion scan: {name}: not an image OpenCV can read", file=sys.stderr)
            status = 1
            continue
        grey = np.asarray(image, dtype=np.uint8)
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
        results.append({"image": name, "size": [grey.shape[1], grey.shape[0]],
                        "markers": rows})
        if not args.json:
            print(f"{name}: {len(rows)} marker(s)")
            for line in lines:
                print(line)
    if args.json:
        print(json.dumps({"dictionary": DICTIONARY, "images": results}, ensure_ascii=False))
    return status
