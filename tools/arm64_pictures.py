#!/usr/bin/env python3
"""The arm64 proof's picture work (tools/arm64_proof.sh), run with the clone's .venv:

    arm64_pictures.py compare DIR_A DIR_B     # the same screens drawn on two machines
    arm64_pictures.py photo SHEET.png OUT.jpg # a sticker sheet as a phone would photograph it
    arm64_pictures.py ids A.json B.json       # the ids two `companion scan --json` runs found

``compare`` prints, over the PNGs both folders hold, how many are identical pixel for pixel,
and for the others the share of pixels that differ at all and by more than 48 levels in some
channel (the Cage proof's measure) and where, worst first.  ``photo`` tilts the page in perspective,
lights it unevenly, blurs it a little, adds sensor noise and saves a JPEG of quality 85, from a
fixed seed: the same photo every run.  Exit status 1 when the two sides disagree.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np


def compare(a_dir: Path, b_dir: Path) -> int:
    a_files = {p.relative_to(a_dir) for p in a_dir.rglob("*.png")}
    b_files = {p.relative_to(b_dir) for p in b_dir.rglob("*.png")}
    both = sorted(a_files & b_files)
    only = sorted(a_files ^ b_files)
    identical = 0
    differing: list[tuple[float, float, int, str]] = []
    for rel in both:
        a = cv2.imread(str(a_dir / rel), cv2.IMREAD_COLOR)
        b = cv2.imread(str(b_dir / rel), cv2.IMREAD_COLOR)
        if a is None or b is None or a.shape != b.shape:
            differing.append((1.0, 1.0, 255, f"{rel} (sizes {None if a is None else a.shape} "
                                               f"and {None if b is None else b.shape})"))
            continue
        diff = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
        if not diff.any():
            identical += 1
            continue
        ys, xs = np.nonzero(diff)
        where = f"{rel} (in x {xs.min()}-{xs.max()}, y {ys.min()}-{ys.max()})"
        differing.append((float((diff > 0).mean()), float((diff > 48).mean()), int(diff.max()),
                          where))
    print(f"{len(both)} screens on both sides: {identical} identical pixel for pixel, "
          f"{len(differing)} differ; {len(only)} on one side only")
    for name in only[:10]:
        print(f"  only on one side: {name}")
    differing.sort(reverse=True)
    for any_share, big_share, biggest, name in differing[:15]:
        print(f"  {name}: {any_share:.4%} of the pixels differ, {big_share:.4%} by more than "
              f"48 levels (largest {biggest})")
    if differing:
        worst = max(d[1] for d in differing)
        print(f"  worst share differing by more than 48 levels: {worst:.4%}")
    return 0 if not only and all(d[1] < 0.02 for d in differing) else 1


def photo(sheet: Path, out: Path) -> int:
    page = cv2.imread(str(sheet), cv2.IMREAD_GRAYSCALE)
    if page is None:
        print(f"photo: {sheet} is not an image", file=sys.stderr)
        return 2
    rng = np.random.default_rng(26)
    h, w = page.shape
    scale = 1400 / h  # the page about 1400 px tall in a 1920x1440 photo
    pw, ph = w * scale, h * scale
    cx, cy = 960, 720
    # a page seen from above and a little to the side: the far edge narrower, turned 6 degrees
    corners = np.array([[-pw / 2 + 60, -ph / 2], [pw / 2 - 40, -ph / 2 + 20],
                        [pw / 2 + 20, ph / 2], [-pw / 2 - 10, ph / 2 - 15]], np.float64)
    turn = np.deg2rad(6)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    dst = (corners @ rot.T + (cx, cy)).astype(np.float32)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    table = np.full((1440, 1920), 90, np.float32)  # a darker table around the page
    warped = cv2.warpPerspective(page.astype(np.float32), hom, (1920, 1440),
                                 flags=cv2.INTER_AREA, borderValue=-1)
    img = np.where(warped >= 0, warped, table)
    y = np.linspace(0, 1, 1440, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, 1920, dtype=np.float32)[None, :]
    img = img * (0.65 + 0.35 * (0.6 * x + 0.4 * (1 - y)))  # light from one side
    img = cv2.GaussianBlur(img, (0, 0), 1.1)
    img = img + rng.normal(0, 4.0, img.shape).astype(np.float32)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), np.clip(img, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 85])
    print(f"photo {out}: 1920x1440 JPEG of {sheet.name} ({w}x{h}), tilted, turned 6 degrees, "
          "lit from one side, blurred, noisy")
    return 0


def ids(a_path: Path, b_path: Path) -> int:
    def read(path: Path) -> dict[int, list[list[float]]]:
        data = json.loads(path.read_text())
        return {int(m["marker"]): m["corners"]
                for image in data["images"] for m in image["markers"]}

    a, b = read(a_path), read(b_path)
    print(f"{a_path.name}: {len(a)} markers, ids {sorted(a)}")
    print(f"{b_path.name}: {len(b)} markers, ids {sorted(b)}")
    if sorted(a) != sorted(b):
        print(f"DIFFERENT: only in the first {sorted(set(a) - set(b))}, only in the second "
              f"{sorted(set(b) - set(a))}")
        return 1
    gap = max((abs(p - q) for m in a for pa, pb in zip(a[m], b[m], strict=True)
               for p, q in zip(pa, pb, strict=True)), default=0.0)
    print(f"the same {len(a)} ids on both; corners differ by at most {gap:.1f} px")
    return 0 if a else 1


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] in ("compare", "photo", "ids"):
        run = {"compare": compare, "photo": photo, "ids": ids}[argv[0]]
        return run(Path(argv[1]), Path(argv[2]))
    print((__doc__ or "").strip().splitlines()[2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
