"""Issue 25: no id that is not on the table, on every OpenCV version.

The detector corrects exactly ``detect.CORRECTED_BITS`` (2) flipped bits whatever the OpenCV
version says the dictionary allows (``maxCorrectionBits`` is 12 on OpenCV 4.11 and 5 on
OpenCV 5 for the same dictionary); the nearest markers of the other common 6x6 dictionaries
are refused; a marker-shaped icon printed on a board is never reported as a card.  Run on both
OpenCV 5 (the development install) and the Pi's pinned OpenCV 4.11 + numpy 1.x (.ci/run)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import detect, synth
from companion.vision.detect import Detector, Marker
from companion.vision.markers import REGISTRY
from companion.vision.pipeline import CardTracker, Pipeline

STICKERS = sorted(REGISTRY)
SIDE, QUIET = 48, 16


def grid(patterns: list[np.ndarray]) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Marker-shaped squares (6x6 cells, 1 white) with white margins, in rows on white."""
    cell = SIDE + 2 * QUIET
    cols = 16
    rows = -(-len(patterns) // cols)
    img = np.full((rows * cell, cols * cell), 235, np.uint8)
    centres = []
    for k, bits in enumerate(patterns):
        r, c = divmod(k, cols)
        x, y = c * cell + QUIET, r * cell + QUIET
        img[y:y + SIDE, x:x + SIDE] = synth.draw_cells(bits, SIDE, 15, 235).astype(np.uint8)
        centres.append((x + SIDE / 2, y + SIDE / 2))
    return cv2.GaussianBlur(img, (0, 0), 0.6), centres


def test_the_correction_is_the_stated_bits_on_this_opencv() -> None:
    d = detect.dictionary()
    assert detect.CORRECTED_BITS == 2
    assert detect.corrected_bits(d, detect.parameters().errorCorrectionRate) == 2
    for bits in range(int(d.maxCorrectionBits) + 1):
        assert detect.corrected_bits(d, detect.correction_rate(d, bits)) == bits
    with pytest.raises(ValueError, match="cannot correct 13 bits"):
        detect.correction_rate(d, 13)


def foreign_margin(pattern: np.ndarray, marker: int) -> int:
    """How many bits nearer ``marker`` than the nearest of the other dictionaries' markers
    near it (``detect.near_foreign``) ``pattern`` (6x6 cells, 1 white) is; 99 for none."""
    near = detect.near_foreign().get(marker)
    if near is None:
        return 99
    cells = pattern.reshape(-1).astype(np.float32)
    ours = int((cells != synth.marker_cells(marker).reshape(-1)).sum())
    return int((near[0] != cells).sum(axis=1).min()) - ours


@pytest.mark.parametrize("flips", [0, 1, 2, 3, 4])
def test_flipped_bits_on_every_sticker(flips: int) -> None:
    """Every sticker id with ``flips`` bits flipped: read as itself up to the stated bits --
    unless the flips leave it no nearer its id than a marker of another common dictionary:
    refused (one bit nearer: either) -- and refused beyond (never read as another id)."""
    rng = np.random.default_rng(flips)
    patterns = [synth.flipped(synth.marker_cells(m), flips, rng) for m in STICKERS]
    img, centres = grid(patterns)
    found = {(m.id, round(m.centre[0]), round(m.centre[1])) for m in Detector().detect(img)}
    read = {STICKERS[k] for k, (x, y) in enumerate(centres)
            if any(i == STICKERS[k] and abs(fx - x) < 4 and abs(fy - y) < 4
                   for i, fx, fy in found)}
    assert len(found) == len(read)  # nothing read as another id, nothing read twice
    margin = {m: foreign_margin(p, m) for m, p in zip(STICKERS, patterns, strict=True)}
    if flips <= detect.CORRECTED_BITS:
        assert not {m for m in read if margin[m] <= 0}
        assert {m for m in STICKERS if margin[m] >= 2} <= read, sorted(set(STICKERS) - read)
    else:
        assert read == set(), sorted(read)


def nearest(name: str, within: int) -> dict[int, int]:
    """The markers of the OpenCV dictionary ``name`` within ``within`` bits (in any rotation)
    of a marker of ours, with their distances."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
    ours = np.array([[np.rot90(synth.marker_cells(m), k) for k in range(4)]
                     for m in range(250)])
    out = {}
    for i in range(d.bytesList.shape[0]):
        img = cv2.aruco.generateImageMarker(d, i, 8, borderBits=1)
        bits = (img[1:7, 1:7] > 127).astype(np.uint8)
        dist = int((ours != bits).sum(axis=(2, 3)).min())
        if dist <= within:
            out[i] = dist
    return out


def test_the_other_dictionaries_nearest_markers_are_refused() -> None:
    """The audit's list, computed here: ArUco 6X6_1000 #331 is 3 bits from a sticker (#114),
    AprilTag 36h11 #22 and 36h10 #34, #562, #2130, #2147 are 4 bits from one of ours; every
    marker of those dictionaries within 5 bits is rendered and none is read."""
    near = {name: nearest(name, 5) for name in
            ("DICT_6X6_1000", "DICT_APRILTAG_36h11", "DICT_APRILTAG_36h10")}
    assert near["DICT_6X6_1000"][331] == 3
    assert near["DICT_APRILTAG_36h11"][22] == 4
    assert {i for i, d in near["DICT_APRILTAG_36h10"].items() if d == 4} == {34, 562, 2130, 2147}
    assert min(min(v.values()) for v in near.values()) == 3
    patterns = []
    for name, ids in near.items():
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
        for i in ids:
            img = cv2.aruco.generateImageMarker(d, i, 8, borderBits=1)
            patterns.append((img[1:7, 1:7] > 127).astype(np.uint8))
    assert len(patterns) == 21
    img, _ = grid(patterns)
    assert Detector().detect(img) == []
    # before issue 25: OpenCV 5 corrected 3 bits and 4.11 corrected 4, and read some of them
    old = Detector(detect.fixed_rate_parameters(), foreign_check=False).detect(img)
    assert old, "the fixed rate read none of them: this test would not catch it"


def turned_towards(marker: int, family: str, fid: int, flips: int) -> np.ndarray:
    """Our marker's cells with ``flips`` of the cells where the foreign marker differs (in its
    nearest turn) flipped its way."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, family))
    img = cv2.aruco.generateImageMarker(d, fid, 8, borderBits=1)
    theirs = (img[1:7, 1:7] > 127).astype(np.uint8)
    ours = synth.marker_cells(marker)
    turn = min(range(4), key=lambda k: int((np.rot90(theirs, k) != ours).sum()))
    theirs = np.rot90(theirs, turn)
    out = ours.copy()
    for r, c in np.argwhere(theirs != ours)[:flips]:
        out[r, c] = theirs[r, c]
    return out


def test_a_sticker_damaged_towards_a_foreign_marker_is_refused_only_when_near_it() -> None:
    """Sticker #149 is 4 bits from AprilTag 36h11 #22, #114 3 bits from ArUco 6X6_1000 #331.
    One bit flipped their way leaves #149 two bits nearer itself (read) and #114 one bit
    nearer (refused); with two, #149 is as near #22 as itself and #114 nearer #331: both
    refused, though OpenCV corrects 2 bits and reads them."""
    cases = [(149, ("DICT_APRILTAG_36h11", 22)), (114, ("DICT_6X6_1000", 331))]
    for flips, want in ((0, [114, 149]), (1, [149]), (2, [])):
        patterns = [turned_towards(m, f, i, flips) for m, (f, i) in cases]
        img, _ = grid(patterns)
        det = Detector()
        assert sorted(m.id for m in det.detect(img)) == want, flips
        refused = sorted(like for _m, like in det.foreign)
        assert refused == sorted(f for m, f in cases if m not in want)
        raw = Detector(foreign_check=False).detect(img)
        assert sorted(m.id for m in raw) == [114, 149]  # OpenCV alone reads them


def test_board_icons_are_never_reported() -> None:
    """Boards with marker-shaped icons (their own patterns, and near misses 3-4 bits from a
    sticker, which OpenCV 4.11 read as cards before): no card, no stray, on any frame."""
    rng = np.random.default_rng(25)
    before = 0
    for _ in range(4):
        frame, icons = synth.icon_board(rng, STICKERS)
        assert len(icons) == 24 and any(i.mimics is not None for i in icons)
        pipe = Pipeline(tracker=CardTracker(2, 2), skip_still=False)
        for k in range(3):
            step = pipe.step(frame, now=k / 30)
            assert step.markers == () and not step.reading, step
        before += len(Detector(detect.fixed_rate_parameters(), foreign_check=False).detect(frame))
    if detect.dictionary().maxCorrectionBits > 5:  # OpenCV 4.11: 4 bits corrected before
        assert before > 0


def test_an_icon_that_decodes_needs_a_white_margin() -> None:
    """Icons carrying a sticker's exact cells (0-2 bits off: they decode) on the board's
    painted panels: the white-margin check refuses nearly all; a printed sticker passes."""
    rng = np.random.default_rng(7)
    decoded = passed = 0
    for _ in range(6):
        frame, _icons = synth.icon_board(rng, STICKERS, flips=(0, 2))
        markers = Detector().detect(frame)
        decoded += len(markers)
        passed += sum(detect.quiet_zone(frame, m) >= detect.QUIET_SHARE for m in markers)
    assert decoded >= 30
    assert passed <= 0.05 * decoded, (passed, decoded)
    img, _ = grid([synth.marker_cells(m) for m in STICKERS[:16]])
    found = Detector().detect(img)
    assert len(found) == 16
    assert all(detect.quiet_zone(img, m) >= detect.QUIET_SHARE for m in found)


def test_a_sticker_keeps_counting_when_a_finger_covers_its_margin() -> None:
    img, (centre, *_rest) = grid([synth.marker_cells(STICKERS[3])])
    img = np.ascontiguousarray(img[:, :SIDE + 2 * QUIET])
    pipe = Pipeline(tracker=CardTracker(2, 2), skip_still=False)
    assert [m.id for m in pipe.step(img).markers] == [STICKERS[3]]
    covered = img.copy()
    covered[:, :QUIET] = 90  # a finger over the whole left margin and more
    covered[:QUIET, :] = 90
    (m,) = Detector().detect(covered)
    assert detect.quiet_zone(covered, m) < detect.QUIET_SHARE
    assert [m.id for m in pipe.step(covered).markers] == [STICKERS[3]]  # seen just before
    fresh = Pipeline(tracker=CardTracker(2, 2), skip_still=False)
    assert fresh.step(covered).markers == ()  # first seen like this: not a sticker
    assert Marker(1, ((0, 0), (1, 0), (1, 1), (0, 1))).side == 1.0


# -- issue 50: foreign markers blurred, tilted and small, as a camera sees them ------------------

SEEN = synth.Conditions(size=(640, 360), cards=(1, 1), marker_px=(30.0, 60.0), max_tilt=45.0,
                        blur=(0.6, 1.3), noise=(1.0, 4.0), jpeg=(70, 92), light=(0.7, 1.0),
                        background="plain")
"""The audit's renders: slightly blurred, tilted, 30-60 px."""


def between(ours: int, family: str, fid: int, lean: float) -> synth.Pattern:
    """Our marker's cells with the cells where the foreign marker differs drawn grey, ``lean``
    of the way towards ours: what blur makes of a foreign marker read just across the middle."""
    theirs = turned_towards(ours, family, fid, 8).astype(np.float32)
    cells = synth.marker_cells(ours).astype(np.float32)
    mixed = np.where(theirs != cells, lean * cells + (1 - lean) * theirs, cells)
    return ("between", tuple(tuple(float(v) for v in row) for row in mixed))


def test_a_foreign_marker_read_across_the_middle_is_never_a_card() -> None:
    """AprilTag 36h11 #22 is 4 bits from sticker #149: blur and tilt turn its 4 differing cells
    grey, and OpenCV reads it as #149 (6 of 300 renders in the audit).  Here those cells are
    drawn half way between the two, tilted, blurred and small: OpenCV alone reads #149 in
    most frames; the detector, the reading and the table pipelines never."""
    rng = np.random.default_rng(50)
    pattern = between(149, "DICT_APRILTAG_36h11", 22, 0.5)
    raw = Detector(foreign_check=False)
    frames = [synth.render_scene(rng, [pattern], SEEN).frame for _ in range(12)]
    assert sum(149 in {m.id for m in raw.detect(f)} for f in frames) >= 8
    det = Detector()
    for f in frames:
        assert det.detect(f) == []
        assert [like for _m, like in det.foreign] in ([], [("DICT_APRILTAG_36h11", 22)])
    for table in (False, True):
        pipe = Pipeline(tracker=CardTracker(2, 2, table=table))
        for k, f in enumerate(frames):
            step = pipe.step(f, now=k / 30)
            assert step.markers == () and step.reading.card is None


def test_the_near_foreign_markers_blurred_and_tilted_are_refused_and_ours_read() -> None:
    """Every marker of the other common 6x6 dictionaries within 5 bits of one of ours, and our
    nearest stickers, in the same renders: no foreign one is read as ours, ours are read."""
    near: dict[tuple[str, int], tuple[int, int]] = {}  # foreign marker -> our nearest, bits
    for ours, (theirs, names) in detect.near_foreign().items():
        bits = (theirs != synth.marker_cells(ours).reshape(-1)).sum(axis=1)
        for name, d in zip(names, bits, strict=True):
            if d <= 5 and (name not in near or d < near[name][1]):
                near[name] = (ours, int(d))
    assert len(near) == 21
    rng = np.random.default_rng(51)
    det = Detector()
    own = synth.Score()
    read = 0
    for (family, fid), (ours, _d) in sorted(near.items()):
        scene = synth.render_scene(rng, [(family, fid)], SEEN)
        read += sum(m.id in REGISTRY for m in det.detect(scene.frame))
        scene = synth.render_scene(rng, [ours], SEEN)
        own.add(scene.truth, [(m.id, m.centre) for m in det.detect(scene.frame)])
    assert read == 0
    assert own.wrong == 0 and own.found >= 0.9 * own.total, own.report()
