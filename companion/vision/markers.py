"""Which marker is on which card, and printable sticker sheets of them.

One ArUco dictionary serves both games: ``DICT_ARUCO_MIP_36h12`` (6x6 bits, 250 markers, every
two markers at least 12 bits apart in any of their four rotations, so up to 5 flipped bits are
still corrected and 12 must flip before one marker reads as another).  See docs/camera.md for
the comparison with the other dictionaries.

Marker ids are fixed for good (stickers are printed once): Pillars cards from 0, Builders cards
from 100, 200-245 free, 246-249 the four corner markers of the table mode.  The orders below are
append-only; ``tests/test_vision_markers.py`` pins them.  Each physical card has its own marker,
so the two identical Craftsmen of The Builders have two markers that both read as
``compagnon-1111``.

The registry needs nothing but the engines' data; the sheets import numpy and OpenCV when drawn.
"""

from __future__ import annotations

import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.engine import registry

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

DICTIONARY = "DICT_ARUCO_MIP_36h12"
"""The name of the OpenCV predefined dictionary (``cv2.aruco.<name>``)."""
DICTIONARY_SIZE = 250
MARKER_BITS = 6  # data bits per side; with the black border a marker is 8 cells wide
MARKER_CELLS = MARKER_BITS + 2

CORNER_BASE = 246
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
"""The table mode's corner markers, ids 246-249, clockwise from the top left."""
TABLE = "table"
"""The ``game`` of the corner markers."""


@dataclass(frozen=True, slots=True)
class MarkerEntry:
    """One marker of the registry: the card it is stuck on.

    ``game`` is a registered game's name or "table" (the corner markers); ``kind`` the card's
    kind (privilege, event, resource, craftsman; building, machine, worker; corner);
    ``copy`` counts physical copies of the same card from 1.  ``str`` gives ``#12
    pillars:madonna`` (with ``/2`` for a second copy), which ``parse_entry`` reads back.
    """

    marker: int
    game: str
    kind: str
    card: str
    copy: int = 1

    label: str = ""
    """The card's English name, as printed beside its sticker."""
    printed: str | None = None
    """The name printed on the physical card where it differs (the French edition's)."""
    copies: int = 1
    """How many physical cards share this card id."""

    def __str__(self) -> str:
        more = f"/{self.copy}" if self.copy > 1 else ""
        return f"#{self.marker} {self.game}:{self.card}{more}"


def _build() -> dict[int, MarkerEntry]:
    """Every game's stickers (from the registry: each game's catalogue in marker order) and
    the table's corners; raises ValueError if two games claim one id."""
    out: dict[int, MarkerEntry] = {}
    for spec in registry.specs():
        for marker, card, copy in spec.markers():
            if marker in out or marker >= CORNER_BASE:
                raise ValueError(f"marker {marker} of {spec.name} is taken")
            label = card.name if card.copies == 1 else f"{card.name}, copy {copy}/{card.copies}"
            out[marker] = MarkerEntry(marker, spec.name, card.kind, card.id, copy, label,
                                      card.printed, card.copies)
    for i, corner in enumerate(CORNERS):
        m = CORNER_BASE + i
        out[m] = MarkerEntry(m, TABLE, "corner", corner, label=f"Table corner: {corner}")
    return out


REGISTRY: MappingProxyType[int, MarkerEntry] = MappingProxyType(_build())
"""Every marker in use, by marker id."""

CORNER_MARKERS: tuple[int, ...] = tuple(CORNER_BASE + i for i in range(len(CORNERS)))


def entry(marker: int) -> MarkerEntry | None:
    """The card a marker id is stuck on, or None for a marker of no card."""
    return REGISTRY.get(marker)


def entries(game: str) -> tuple[MarkerEntry, ...]:
    """The markers of ``game`` (a registered game, "table" or "all"), by id; KeyError for
    another name."""
    if game == "all":
        return tuple(REGISTRY.values())
    known = {e.game for e in REGISTRY.values()}
    if game not in known:
        raise KeyError(f"unknown game {game!r}: {', '.join(sorted(known))} or all")
    return tuple(e for e in REGISTRY.values() if e.game == game)


def markers_of(game: str, card: str) -> tuple[int, ...]:
    """The marker ids stuck on copies of a card (two for ``compagnon-1111``)."""
    return tuple(e.marker for e in REGISTRY.values() if e.game == game and e.card == card)


def parse_entry(text: str) -> MarkerEntry:
    """The entry written as ``#12 pillars:madonna`` (or just ``#12``); ValueError if the text
    names no entry or the id and the card disagree."""
    head, _, rest = text.strip().partition(" ")
    if not head.startswith("#") or not head[1:].isdigit():
        raise ValueError(f"not a marker: {text!r} (expected like '#12 pillars:madonna')")
    found = REGISTRY.get(int(head[1:]))
    if found is None:
        raise ValueError(f"marker {head} is on no card")
    if rest and rest != str(found).partition(" ")[2]:
        raise ValueError(f"marker {head} is {found}, not {rest}")
    return found


# -- sizes: what the camera sees ------------------------------------------------------------------

HFOV_DEG = 66.0
"""The Camera Module 3's horizontal field of view in its full-view sensor modes (2304x1296 and
4608x2592; the 1536x864 mode is cropped to 46.8 degrees)."""
READING_MM = 13.0  # card stickers for reading mode: a card held up at 20-40 cm
TABLE_CARD_MM = 25.0  # card stickers for table mode: cards lying under the camera
CORNER_MM = 40.0  # the table's four corner markers
READING_DISTANCE_M = (0.20, 0.40)  # docs/camera.md
TABLE_HEIGHT_M = (0.70, 0.90)  # docs/camera.md and hardware/camera-mount.md
TABLE_WIDTH_PX = 1920  # table mode analyses a 1920x1080 main stream
READING_WIDTH_PX = 1280  # reading mode analyses the 1280x720 main stream
READABLE_PX = 35.0  # a marker this wide is read in nearly every frame (bench_vision.py)


def apparent_px(size_mm: float, distance_m: float, width_px: int) -> float:
    """How many pixels wide a marker of ``size_mm`` looks from ``distance_m`` straight above,
    on a stream ``width_px`` wide of the full field of view."""
    import math

    seen_mm = 2 * distance_m * 1000 * math.tan(math.radians(HFOV_DEG / 2))
    return size_mm * width_px / seen_mm


# -- sticker sheets ----------------------------------------------------------------------------

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes in millimetres (width, height)."""

MM_PER_PT = 25.4 / 72
CALIBRATION_MM = 30.0
MARGIN_MM = 10.0
HEADER_MM = 36.0
TEXT_MM = 30.0  # the width of the name beside each marker


@dataclass(frozen=True, slots=True)
class Box:
    """A filled rectangle (mm from the top-left corner of the page); ``grey`` 0 is black."""

    x: float
    y: float
    w: float
    h: float
    grey: float = 0.0


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.2  # mm
    dashed: bool = False
    grey: float = 0.0


@dataclass(frozen=True, slots=True)
class Label:
    """Text with its baseline at ``y``; ``size`` in points."""

    x: float
    y: float
    text: str
    size: float
    bold: bool = False
    grey: float = 0.0


Shape = Box | Line | Label


@dataclass(frozen=True, slots=True)
class Page:
    width: float
    height: float
    shapes: tuple[Shape, ...]


def marker_bits(marker: int) -> list[list[bool]]:
    """The marker's cells, border included, row by row from the top: True for black.  Drawn by
    OpenCV's ``generateImageMarker`` at one pixel per cell, so sheets match the detector."""
    import cv2
    import numpy as np

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    img = np.asarray(cv2.aruco.generateImageMarker(dictionary, marker, MARKER_CELLS, borderBits=1))
    return [[bool(v < 128) for v in row] for row in img.tolist()]


def _wrap(text: str, size_pt: float, width_mm: float) -> list[str]:
    """Wrap ``text`` to lines of about ``width_mm`` in Helvetica at ``size_pt`` (an average
    glyph width of 0.5 em: names are short, and a line slightly long only nears the cut)."""
    per_line = max(4, int(width_mm / (size_pt * MM_PER_PT * 0.5)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > per_line:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:per_line])
            word = word[per_line:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= per_line:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


WHERE = {
    "reading": "Stick it on the face of the card, away from where the fingers hold it.",
    "table": "Stick it in the top-left corner of the card's face, 2 mm from both edges: fanned "
             "or overlapping cards keep that corner in view.",
    "corners": "One on each corner of the board (or play area), the same way up as the sheet: "
               "top-left, top-right, bottom-right, bottom-left.",
}
"""Where to stick the stickers, printed in each sheet's header (by sheet kind)."""


def sheet_pages(
    items: Sequence[MarkerEntry], *, size_mm: float = 13.0, paper: str = "a4", title: str = "",
    where: str = "",
) -> list[Page]:
    """Lay out stickers: each marker in its white margin with its card's name beside it, dashed
    cut lines between stickers, and on every page a calibration square to check the scale."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: {', '.join(PAPERS)}")
    if not 8.0 <= size_mm <= 60.0:
        raise ValueError(f"a marker size of {size_mm} mm is out of range (8 to 60 mm)")
    width, height = PAPERS[paper]
    quiet = max(2.0, size_mm / MARKER_CELLS * 1.25)  # white margin: more than one cell
    cell_w = size_mm + 2 * quiet + TEXT_MM
    cell_h = size_mm + 2 * quiet
    cols = max(1, int((width - 2 * MARGIN_MM) // cell_w))
    rows = max(1, int((height - 2 * MARGIN_MM - HEADER_MM) // cell_h))
    x0 = (width - cols * cell_w) / 2
    y0 = MARGIN_MM + HEADER_MM
    per_page = cols * rows
    chunks = [items[i : i + per_page] for i in range(0, len(items), per_page)] or [items[:0]]
    pages: list[Page] = []
    for n, chunk in enumerate(chunks, 1):
        shapes: list[Shape] = []
        shapes += _header(width, title, n, len(chunks), size_mm, where)
        for k, item in enumerate(chunk):
            r, c = divmod(k, cols)
            shapes += _sticker(item, x0 + c * cell_w, y0 + r * cell_h, size_mm, quiet)
        edges: set[tuple[float, float, float, float]] = set()
        for k in range(len(chunk)):  # dashed cut lines around every sticker, each edge once
            r, c = divmod(k, cols)
            x, y = x0 + c * cell_w, y0 + r * cell_h
            edges |= {(x, y, x + cell_w, y), (x, y + cell_h, x + cell_w, y + cell_h),
                      (x, y, x, y + cell_h), (x + cell_w, y, x + cell_w, y + cell_h)}
        shapes += [Line(*e, 0.15, True, 0.45) for e in sorted(edges)]
        pages.append(Page(width, height, tuple(shapes)))
    return pages


def _header(width: float, title: str, page: int, pages: int, size_mm: float,
            where: str = "") -> list[Shape]:
    top = MARGIN_MM
    out: list[Shape] = [
        Label(MARGIN_MM, top + 6, title or "companion: card markers", 12, bold=True),
        Label(MARGIN_MM, top + 12, f"{DICTIONARY}, markers {size_mm:g} mm, page {page} of "
              f"{pages}", 8, grey=0.25),
        Label(MARGIN_MM, top + 17, "Print at 100 % (actual size, no fit to page). The square "
              f"on the right must measure {CALIBRATION_MM:g} mm.", 8, grey=0.25),
        Label(MARGIN_MM, top + 22, "Cut along the dashed lines; stick each marker on the face "
              "of its card, flat and uncovered.", 8, grey=0.25),
    ]
    for k, line in enumerate(_wrap(where, 8, width - 2 * MARGIN_MM - CALIBRATION_MM - 5)[:2]):
        out.append(Label(MARGIN_MM, top + 27 + 4 * k, line, 8, grey=0.25))
    s = CALIBRATION_MM
    x, y = width - MARGIN_MM - s, top
    t = 0.3
    out += [Box(x, y, s, t), Box(x, y + s - t, s, t), Box(x, y, t, s), Box(x + s - t, y, t, s)]
    for i in range(1, int(s // 10)):  # a tick every 10 mm along two sides
        out.append(Line(x + i * 10, y + s, x + i * 10, y + s - 3, 0.25))
        out.append(Line(x, y + i * 10, x + 3, y + i * 10, 0.25))
    out.append(Label(x + 5, y + s / 2 + 1.5, f"{s:g} mm", 10, bold=True))
    return out


def _sticker(item: MarkerEntry, x: float, y: float, size: float, quiet: float) -> list[Shape]:
    out: list[Shape] = []
    bits = marker_bits(item.marker)
    cell = size / MARKER_CELLS
    mx, my = x + quiet, y + quiet
    for r, row in enumerate(bits):
        c = 0
        while c < len(row):  # one box per run of black cells
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            out.append(Box(mx + start * cell, my + r * cell, (c - start) * cell, cell))
    tx = x + size + 2 * quiet  # the name a whole margin (more than a cell) from the marker
    text_w = TEXT_MM - 1.5
    name_pt = 6.5
    lines = _wrap(item.label, name_pt, text_w)[:3]
    line_h = name_pt * MM_PER_PT * 1.15
    ty = y + quiet + name_pt * MM_PER_PT
    for i, line in enumerate(lines):
        out.append(Label(tx, ty + i * line_h, line, name_pt, bold=True))
    small = 5.0
    extra = []
    if item.printed:
        extra += _wrap(item.printed, small, text_w)[: 4 - len(lines)]
    extra.append(f"{item.game} {item.kind}  #{item.marker}")
    sy = ty + len(lines) * line_h + small * MM_PER_PT * 0.3
    for i, line in enumerate(extra):
        out.append(Label(tx, sy + i * small * MM_PER_PT * 1.2, line, small, grey=0.35))
    return out


# -- PDF (vector, exact scale) ------------------------------------------------------------------

_PT_PER_MM = 72 / 25.4


def _pdf_text(text: str) -> bytes:
    """A PDF string literal in WinAnsi (cp1252); characters outside it are spelt without
    their accents."""
    raw = text.encode("cp1252", errors="replace")
    if b"?" in raw and "?" not in text:
        raw = _ascii(text).encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _ascii(text: str) -> str:
    text = text.replace("œ", "oe").replace("Œ", "OE")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _page_stream(page: Page) -> bytes:
    h = page.height
    ops: list[str] = []

    def pt(v: float) -> str:
        return f"{v * _PT_PER_MM:.3f}"

    for s in page.shapes:
        if isinstance(s, Box):
            ops.append(f"{s.grey:.2f} g {pt(s.x)} {pt(h - s.y - s.h)} {pt(s.w)} {pt(s.h)} re f")
        elif isinstance(s, Line):
            dash = "[1.5 1.5] 0 d" if s.dashed else "[] 0 d"
            ops.append(f"{s.grey:.2f} G {pt(s.width)} w {dash} {pt(s.x1)} {pt(h - s.y1)} m "
                       f"{pt(s.x2)} {pt(h - s.y2)} l S")
        else:
            font = "/F2" if s.bold else "/F1"
            ops.append(f"BT {s.grey:.2f} g {font} {s.size:.2f} Tf {pt(s.x)} {pt(h - s.y)} Td "
                       + _pdf_text(s.text).decode("latin-1") + " Tj ET")
    return "\n".join(ops).encode("latin-1")


def pdf_bytes(pages: Sequence[Page]) -> bytes:
    """A PDF of the pages: vector shapes, so markers print sharp at the exact size, and the
    printer's own Helvetica (no font is embedded)."""
    objects: list[bytes] = []  # object n is objects[n - 1]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in below, once the pages object is known
    pages_obj = add(b"")
    f1 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
             b"/Encoding /WinAnsiEncoding >>")
    f2 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold "
             b"/Encoding /WinAnsiEncoding >>")
    kids = []
    for page in pages:
        data = zlib.compress(_page_stream(page))
        stream = add(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data
                     + b"\nendstream")
        w, h = page.width * _PT_PER_MM, page.height * _PT_PER_MM
        kids.append(add(
            b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.2f %.2f] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> >> >>"
            % (pages_obj, w, h, stream, f1, f2)
        ))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj
    objects[pages_obj - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, catalog, xref)
    return bytes(out)


# -- PNG (raster, for a quick look or printing from an image viewer) ------------------------------


def render_page(page: Page, dpi: int = 300) -> npt.NDArray[np.uint8]:
    """The page as a grey image at ``dpi``."""
    import cv2
    import numpy as np

    scale = dpi / 25.4
    img = np.full((round(page.height * scale), round(page.width * scale)), 255, np.uint8)

    def px(v: float) -> int:
        return round(v * scale)

    for s in page.shapes:
        grey = round(255 * s.grey)
        if isinstance(s, Box):
            img[px(s.y) : px(s.y + s.h), px(s.x) : px(s.x + s.w)] = grey
        elif isinstance(s, Line):
            thick = max(1, px(s.width))
            if s.dashed:
                _dashed(img, (s.x1, s.y1), (s.x2, s.y2), scale, thick, grey)
            else:
                cv2.line(img, (px(s.x1), px(s.y1)), (px(s.x2), px(s.y2)), grey, thick)
        else:
            height_px = s.size * MM_PER_PT * scale * 0.72  # cap height of the Hershey font
            font_scale = height_px / 22
            thick = max(1, round(font_scale * (2.2 if s.bold else 1.4)))
            cv2.putText(img, _ascii(s.text), (px(s.x), px(s.y)), cv2.FONT_HERSHEY_SIMPLEX,
                        font_scale, grey, thick, cv2.LINE_AA)
    return img


def _dashed(img: Any, a: tuple[float, float], b: tuple[float, float], scale: float,
            thick: int, grey: int) -> None:
    import cv2

    (x1, y1), (x2, y2) = a, b
    length = max(abs(x2 - x1), abs(y2 - y1))
    steps = int(length // 1.5)
    for i in range(0, steps, 2):
        t0, t1 = i * 1.5 / length, min(1.0, (i + 1) * 1.5 / length)
        p = (round((x1 + (x2 - x1) * t0) * scale), round((y1 + (y2 - y1) * t0) * scale))
        q = (round((x1 + (x2 - x1) * t1) * scale), round((y1 + (y2 - y1) * t1) * scale))
        cv2.line(img, p, q, grey, thick)


def png_bytes(image: npt.NDArray[np.uint8], dpi: int) -> bytes:
    """A PNG of a grey image that says its resolution (a pHYs chunk), so that image viewers
    print it at its real size."""
    import struct

    import cv2

    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("the page could not be encoded as PNG")
    data = buf.tobytes()
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 8 + 13 + 4  # signature, IHDR length and type, IHDR data, CRC
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def write_sheets(
    out: Path,
    items: Iterable[MarkerEntry],
    *,
    size_mm: float = 13.0,
    paper: str = "a4",
    dpi: int = 300,
    title: str = "",
    where: str = "",
) -> list[Path]:
    """Write ``out`` with the suffix .pdf and one PNG per page beside it (``out-1.png``...);
    returns the files written.  ``where`` is a line saying where on the card to stick them
    (``WHERE``)."""
    pages = sheet_pages(list(items), size_mm=size_mm, paper=paper, title=title, where=where)
    stem = out.with_suffix("") if out.suffix.lower() in (".pdf", ".png") else out
    stem.parent.mkdir(parents=True, exist_ok=True)
    pdf = stem.with_name(stem.name + ".pdf")
    pdf.write_bytes(pdf_bytes(pages))
    written = [pdf]
    for n, page in enumerate(pages, 1):
        png = stem.with_name(f"{stem.name}-{n}.png")
        png.write_bytes(png_bytes(render_page(page, dpi), dpi))
        written.append(png)
    return written
