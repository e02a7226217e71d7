"""The marker registry (one marker per physical card of both games, ids fixed for good) and the
printable sticker sheets: their layout on A4 and US Letter, the PDF, the PNGs, and the round
trip printed sheet -> detector."""

from __future__ import annotations

import hashlib
import re
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.builders import cards as B
from companion.cli import main
from companion.engine.registry import specs
from companion.pillars import data as P
from companion.vision import markers as M
from companion.vision.detect import Detector

PROJECT = ("pillars", "builders", "table")
"""The stickers the project prints (its two games' and the table's corners), pinned below;
an installed game's (tests/thirdgame) come from its own spec, past them."""


def installed_markers() -> int:
    """How many stickers the games installed beside the project's have."""
    return sum(len(s.markers()) for s in specs() if s.name not in PROJECT)


def test_every_physical_card_has_its_own_marker() -> None:
    pillars = [e.card for e in M.entries("pillars")]
    builders = [e.card for e in M.entries("builders")]
    assert sorted(pillars) == sorted([*P.CRAFTSMEN, *P.RESOURCE_CARDS, *P.PRIVILEGES,
                                      *P.EVENTS])
    assert len(pillars) == 71 == len(set(pillars))
    physical = [w.id for w in B.WORKERS for _ in range(w.count)] + list(B.BUILDING)
    assert sorted(builders) == sorted(physical) and len(builders) == 84
    assert M.markers_of("builders", "compagnon-1111") == (160, 161)
    assert [M.REGISTRY[m].copy for m in (160, 161)] == [1, 2]
    assert len(M.REGISTRY) == 71 + 84 + 4 + installed_markers()


def test_ids_fit_the_dictionary_with_room_to_spare() -> None:
    ids = sorted(M.REGISTRY)
    assert ids[-1] < M.DICTIONARY_SIZE
    spare = M.DICTIONARY_SIZE - len(ids)
    assert spare >= 80
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, M.DICTIONARY))
    assert dictionary.bytesList.shape[0] == M.DICTIONARY_SIZE
    assert dictionary.markerSize == M.MARKER_BITS


def test_the_ids_never_change() -> None:
    """Printed stickers outlive the code: the whole assignment is pinned."""
    text = "\n".join(f"{e.marker} {e.game} {e.kind} {e.card} {e.copy}"
                     for e in M.REGISTRY.values() if e.game in PROJECT)
    assert str(M.REGISTRY[0]) == "#0 pillars:madonna"
    assert str(M.REGISTRY[35]) == "#35 pillars:mason1"
    assert str(M.REGISTRY[100]) == "#100 builders:tonnelle"
    assert str(M.REGISTRY[161]) == "#161 builders:compagnon-1111/2"
    assert str(M.REGISTRY[183]) == "#183 builders:maitre-0023"
    assert str(M.REGISTRY[246]) == "#246 table:top-left"
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == "8ac010ee19c6a1ea"


def test_the_text_form_round_trips() -> None:
    for e in M.REGISTRY.values():
        assert M.parse_entry(str(e)) == e
    assert M.parse_entry("#12") == M.REGISTRY[12]
    for bad in ("12", "#x", "#240", "#12 pillars:tom"):
        with pytest.raises(ValueError):
            M.parse_entry(bad)


def test_kinds_and_labels() -> None:
    kinds = {(e.game, e.kind) for e in M.REGISTRY.values() if e.game in PROJECT}
    assert {(e.game, e.kind) for e in M.REGISTRY.values()} - kinds == {
        (s.name, c.kind) for s in specs() if s.name not in PROJECT and s.markers()
        for c in s.cards}
    assert kinds == {("pillars", k) for k in ("privilege", "event", "resource", "craftsman")} | {
        ("builders", k) for k in ("building", "machine", "worker")} | {("table", "corner")}
    labels = [e.label for e in M.REGISTRY.values()]
    assert len(set(labels)) == len(labels), "two stickers would carry the same name"
    assert M.REGISTRY[59].label == "Mortar Mixer (start, red)"
    with pytest.raises(KeyError):
        M.entries("chess")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [10.0, 13.0, 15.0, 25.0])
def test_sheets_fit_the_paper(paper: str, size: float) -> None:
    pages = M.sheet_pages(M.entries("all"), size_mm=size, paper=paper)
    width, height = M.PAPERS[paper]
    stickers = 0
    for page in pages:
        assert (page.width, page.height) == (width, height)
        for s in page.shapes:
            if isinstance(s, M.Box):
                assert s.x >= 5 and s.x + s.w <= width - 5 and 5 <= s.y <= height - 5, s
            elif isinstance(s, M.Line):
                assert min(s.x1, s.x2) >= 5 and max(s.x1, s.x2) <= width - 5, s
                assert max(s.y1, s.y2) <= height - 5, s
            elif s.text.endswith("#0") or re.search(r"  #\d+$", s.text):
                stickers += 1
    assert stickers == len(M.REGISTRY)


def test_bad_sheet_requests_are_refused() -> None:
    with pytest.raises(ValueError):
        M.sheet_pages(M.entries("table"), paper="a3")
    with pytest.raises(ValueError):
        M.sheet_pages(M.entries("table"), size_mm=5)


def test_a_printed_sheet_reads_back(tmp_path: Path) -> None:
    """Every marker of a rendered page is found with its own id, at its printed size, and the
    calibration square measures 30 mm."""
    items = M.entries("builders")[:40]
    page = M.sheet_pages(items, size_mm=13.0, paper="a4")[0]
    img = M.render_page(page, dpi=200)
    found = Detector().detect(img)
    assert sorted(m.id for m in found) == sorted(e.marker for e in items)
    px_per_mm = 200 / 25.4
    for m in found:
        assert m.side == pytest.approx(13.0 * px_per_mm, rel=0.03)
    # the calibration square: the outer black frame at the top right
    left = round((M.PAPERS["a4"][0] - M.MARGIN_MM - M.CALIBRATION_MM - 2) * px_per_mm)
    row = img[round((M.MARGIN_MM + 15) * px_per_mm), left:]
    dark = np.flatnonzero(row < 128)
    assert (dark[-1] - dark[0] + 1) / px_per_mm == pytest.approx(M.CALIBRATION_MM, abs=0.3)


def test_the_pdf_is_well_formed() -> None:
    pages = M.sheet_pages(M.entries("pillars"), size_mm=13.0, paper="letter")
    data = M.pdf_bytes(pages)
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert data.count(b"/Type /Page ") == len(pages) == 2
    assert b"/MediaBox [0 0 612.00 792.00]" in data
    start = int(data.rsplit(b"startxref", 1)[1].split()[0])
    assert data[start:start + 4] == b"xref"
    # every offset in the cross-reference table points at its object
    rows = data[start:].split(b"\n")[3:3 + data.count(b" obj\n")]
    for n, row in enumerate(rows, 1):
        off = int(row.split()[0])
        assert data[off:].startswith(b"%d 0 obj" % n)
    # the first page's drawing holds its 52 markers' names in the printer's Helvetica
    stream = data.split(b"stream\n", 1)[1].split(b"\nendstream", 1)[0]
    text = zlib.decompress(stream)
    assert b"(The Weeping Madonna \\(+3) Tj" in text and b"(VP\\)) Tj" in text
    assert text.count(b"Tj") > 52


def test_the_markers_and_scan_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    out = tmp_path / "sheets" / "table.pdf"
    assert main(["markers", "--game", "table", "--out", str(out), "--paper", "letter",
                 "--corner-size", "20", "--dpi", "150"]) == 0
    printed = capsys.readouterr().out
    assert "4 markers of 20 mm on 1 page(s) of LETTER" in printed
    png = tmp_path / "sheets" / "table-1.png"
    assert out.exists() and png.exists()
    assert b"pHYs" in png.read_bytes()[:64]
    assert main(["scan", str(png), str(tmp_path / "nothing.png")]) == 1
    captured = capsys.readouterr()
    assert "4 marker(s)" in captured.out and "#246 table:top-left" in captured.out
    assert "table (" not in captured.out  # corners in a row on the sheet: no table in view
    assert "nothing.png: no such file" in captured.err
    assert main(["scan", "--json", str(png)]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["dictionary"] == M.DICTIONARY
    assert [m["marker"] for m in data["images"][0]["markers"]] == [246, 247, 248, 249]
    assert main(["markers", "--out", str(out), "--size", "4"]) == 2


# -- issue 16: stickers for both uses ------------------------------------------------------------


@pytest.mark.parametrize("size", [8.0, 13.0, 25.0, 40.0, 60.0])
def test_the_name_is_at_least_one_cell_from_the_marker(size: float) -> None:
    for page in M.sheet_pages(M.entries("all")[::7], size_mm=size):
        boxes = [s for s in page.shapes if isinstance(s, M.Box) and s.y > M.MARGIN_MM + 30]
        labels = [s for s in page.shapes if isinstance(s, M.Label) and s.y > M.MARGIN_MM + 30]
        cell = size / M.MARKER_CELLS
        for label in labels:
            row = [b for b in boxes if b.y - cell < label.y < b.y + size + 2 * cell
                   and b.x < label.x]
            assert row, label
            right = max(b.x + b.w for b in row)  # the marker's right edge on that row
            assert label.x - right >= cell - 1e-9, (label, right, cell)


def test_the_sizes_read_where_they_are_meant_to() -> None:
    """The arithmetic of docs/camera.md: 13 mm is 27 px at 70 cm on a 1920 px full view, 25 mm
    about 61 px at 60 cm; the table stickers are wide enough at the documented heights."""
    assert M.apparent_px(13, 0.70, 1920) == pytest.approx(27.4, abs=0.1)
    assert M.apparent_px(25, 0.60, 1920) == pytest.approx(61.6, abs=0.1)
    far = M.TABLE_HEIGHT_M[1]
    assert M.apparent_px(M.TABLE_CARD_MM, far, M.TABLE_WIDTH_PX) >= M.READABLE_PX
    assert M.apparent_px(M.CORNER_MM, far, M.TABLE_WIDTH_PX) >= 1.5 * M.READABLE_PX
    assert M.apparent_px(M.READING_MM, 0.30, M.READING_WIDTH_PX) >= M.READABLE_PX


def test_table_stickers_read_back_from_the_documented_height() -> None:
    """A printed table-mode page and the corner page, shrunk to what a 1920 px full view sees
    from 90 cm (the top of the documented range), blurred a little: every marker is read."""
    import cv2

    scale = M.apparent_px(1.0, M.TABLE_HEIGHT_M[1], M.TABLE_WIDTH_PX)  # pixels per mm
    dpi = 150
    for items, size in ((M.entries("builders")[:20], M.TABLE_CARD_MM),
                        (M.entries("table"), M.CORNER_MM)):
        page = M.render_page(M.sheet_pages(items, size_mm=size)[0], dpi=dpi)
        f = scale * 25.4 / dpi
        seen = cv2.resize(page, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        seen = cv2.GaussianBlur(seen, (0, 0), 0.8)
        found = Detector().detect(np.asarray(seen, np.uint8))
        assert sorted(m.id for m in found) == sorted(e.marker for e in items)


def test_markers_in_table_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    assert main(["markers", "--game", "all", "--mode", "table", "--out", str(out),
                 "--dpi", "72"]) == 0
    printed = capsys.readouterr().out
    assert f"{155 + installed_markers()} markers of 25 mm" in printed
    assert "4 markers of 40 mm" in printed
    assert "41-53 px wide from a camera 70-90 cm away at 1920 px across" in printed
    assert (tmp_path / "t.pdf").exists() and (tmp_path / "t-corners.pdf").exists()
    assert main(["markers", "--game", "table", "--out", str(out), "--corner-size", "70"]) == 2
    assert "--corner-size 70 mm is out of range" in capsys.readouterr().err


def test_scan_warns_and_says_what_to_try(tmp_path: Path, capfd: pytest.CaptureFixture[str]
                                         ) -> None:
    import cv2

    from companion.vision import synth

    tom = M.markers_of("pillars", "tom")[0]
    cond = synth.Conditions(size=(960, 540), cards=(5, 5), marker_px=(50.0, 55.0),
                            max_tilt=5.0, blur=(0.0, 0.3), noise=(1.0, 2.0), light=(0.8, 1.0),
                            jpeg=(90, 95))
    scene = synth.render_scene(np.random.default_rng(8), [tom, tom, 246, 247, 248], cond)
    busy = tmp_path / "busy.png"
    cv2.imwrite(str(busy), scene.frame)
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), synth.card_frame(None, 3))
    code = main(["scan", str(busy), str(empty), str(tmp_path / "gone.jpg"), str(tmp_path)])
    out, err = capfd.readouterr()
    assert code == 1
    assert (f"warning: marker #{tom} is on 2 stickers in view: each card needs its own marker"
            in out)
    assert ("warning: table corners: 3 of 4 in view, missing bottom-left (#249): table "
            "coordinates from the other three") in out
    assert "warning: no marker found: hold the card closer" in out and "focus" in out
    assert err.splitlines() == [f"companion scan: {tmp_path / 'gone.jpg'}: no such file",
                                f"companion scan: {tmp_path}: not a file"]  # nothing of OpenCV's
