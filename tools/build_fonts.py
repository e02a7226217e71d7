#!/usr/bin/env python3
"""Build the kiosk's font subsets in assets/fonts/ from Debian's Noto Sans CJK collection.

    apt-get install fonts-noto-cjk            # the source: NotoSansCJK-{Regular,Bold}.ttc
    .venv/bin/pip install -e '.[dev]'         # fontTools
    .venv/bin/python tools/build_fonts.py     # writes assets/fonts/*.otf and OFL.txt

Each subset holds: ASCII, Latin-1 and Latin Extended-A, general punctuation, a few symbol
blocks (arrows, Roman numerals, enclosed numbers, shapes), CJK symbols and punctuation,
hiragana, katakana, fullwidth forms, the symbol rows of its national standard, and

* the SC subset: the 3,755 GB2312 level-1 hanzi;
* the JP subset: the 2,965 JIS X 0208 level-1 kanji;

so that player names typed in Chinese or Japanese render too; plus, in both, every character of
every kiosk text in every language (the zh and ja .po catalogues, the English source strings
and the engines' names).  Rebuild after adding translations: tests/test_i18n.py fails when a
catalogue's character is missing from a font.

The output is deterministic: the same source and catalogs give the same files.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset  # type: ignore[import-untyped]
from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.kiosk import catalogue, i18n  # noqa: E402

SOURCE_DIR = Path("/usr/share/fonts/opentype/noto")
OUT_DIR = ROOT / "assets" / "fonts"
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")

FAMILIES = {"sc": "Noto Sans CJK SC", "jp": "Noto Sans CJK JP"}
WEIGHTS = ("Regular", "Bold")

BASE_RANGES = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 supplement
    (0x0100, 0x017F),  # Latin Extended-A (French œ, Œ; names)
    (0x2000, 0x206F),  # general punctuation
    (0x20AC, 0x20AC),  # euro sign
    (0x2100, 0x214F),  # letterlike symbols (№, ℃)
    (0x2150, 0x218F),  # number forms (Roman numerals Ⅰ Ⅱ Ⅲ)
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators (−, ≤, ≥)
    (0x2460, 0x24FF),  # enclosed alphanumerics (①)
    (0x2500, 0x257F),  # box drawing
    (0x25A0, 0x25FF),  # geometric shapes
    (0x2600, 0x26FF),  # miscellaneous symbols (★, ☆)
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x309F),  # hiragana
    (0x30A0, 0x30FF),  # katakana
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xFF00, 0xFFEF),  # halfwidth and fullwidth forms
)


def _decode_rows(codec: str, rows: Iterable[int]) -> set[str]:
    """Every character of the given 94x94 rows of a double-byte EUC-style codec."""
    chars: set[str] = set()
    for row in rows:
        for cell in range(1, 95):
            with contextlib.suppress(UnicodeDecodeError):  # an unassigned code point
                chars.update(bytes((0xA0 + row, 0xA0 + cell)).decode(codec))
    return chars


def gb2312_level1() -> set[str]:
    """The 3,755 level-1 hanzi of GB2312 (rows 16-55)."""
    return _decode_rows("gb2312", range(16, 56))


def gb2312_symbols() -> set[str]:
    """GB2312 rows 1-9: punctuation, symbols, fullwidth forms, kana, Greek, Cyrillic, pinyin."""
    return _decode_rows("gb2312", range(1, 10))


def jis_level1() -> set[str]:
    """The 2,965 level-1 kanji of JIS X 0208 (rows 16-47)."""
    return _decode_rows("euc_jp", range(16, 48))


def jis_symbols() -> set[str]:
    """JIS X 0208 rows 1-8: punctuation, symbols, fullwidth forms, kana, Greek, Cyrillic."""
    return _decode_rows("euc_jp", range(1, 9))


def base_chars() -> set[str]:
    return {chr(c) for lo, hi in BASE_RANGES for c in range(lo, hi + 1)}


def text_chars() -> set[str]:
    """Every character of every text the kiosk shows, in every language."""
    texts: list[str] = [*i18n.english_strings()]
    for lang in catalogue.TRANSLATED:
        for read in catalogue.read_all(lang):  # the core's catalogue and each game's
            texts.extend(catalogue.translated_texts(read))
    return {ch for text in texts for ch in text if ch >= " "}


def charset(family: str) -> set[str]:
    national = (
        gb2312_level1() | gb2312_symbols() if family == "sc" else jis_level1() | jis_symbols()
    )
    return base_chars() | national | text_chars()


def face_index(collection: Path, name: str) -> int:
    """The number of the face called ``name`` (name ID 4) in a .ttc collection."""
    ttc = TTCollection(str(collection), lazy=True)
    names = []
    for i, face in enumerate(ttc.fonts):
        full = face["name"].getDebugName(4)
        names.append(full)
        if full in (name, f"{name} Regular", f"{name} Bold"):
            return i
    raise SystemExit(f"{collection}: no face {name!r} among {names}")


def build(family: str, weight: str, source_dir: Path, out_dir: Path) -> Path:
    collection = source_dir / f"NotoSansCJK-{weight}.ttc"
    if not collection.is_file():
        raise SystemExit(f"{collection} not found: apt-get install fonts-noto-cjk")
    number = face_index(collection, FAMILIES[family])
    font = TTFont(str(collection), fontNumber=number, recalcTimestamp=False)
    options = subset.Options()
    options.name_IDs = ["*"]  # keep the copyright, licence and trademark records
    options.name_languages = ["*"]
    options.notdef_outline = True  # a missing glyph shows as a box, not as nothing
    options.recalc_timestamp = False
    wanted = charset(family)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in wanted))
    subsetter.subset(font)
    out = out_dir / f"NotoSansCJK{family}-Subset-{weight}.otf"
    font.save(str(out))
    cmap = font.getBestCmap()
    covered = len(set(cmap) & {ord(c) for c in wanted})
    lacking = sorted(c for c in text_chars() if ord(c) not in cmap)
    if lacking:
        print(f"warning: {FAMILIES[family]} has no glyph for {''.join(lacking)!r}")
    print(
        f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: face {number} of "
        f"{collection.name}, {covered} characters, {len(font.getGlyphOrder())} glyphs, "
        f"{out.stat().st_size / 1e6:.2f} MB"
    )
    return out


def write_license(source_dir: Path, out_dir: Path) -> None:
    """assets/fonts/OFL.txt: the font's copyright and trademark records, then the OFL 1.1 text
    as Debian ships it with fonts-noto-cjk."""
    face = TTFont(
        str(source_dir / "NotoSansCJK-Regular.ttc"),
        fontNumber=face_index(source_dir / "NotoSansCJK-Regular.ttc", FAMILIES["sc"]),
        lazy=True,
    )
    name = face["name"]
    header = [name.getDebugName(0), name.getDebugName(7), "", name.getDebugName(13)]
    url = name.getDebugName(14)
    if url:
        header.append(f"The license is copied below and is also available at {url}")
    text = DEBIAN_COPYRIGHT.read_text(encoding="utf-8")
    start = text.index("\n\nLicense: SIL-1.1\n") + 2  # the licence paragraph, not a Files one
    body: list[str] = []
    for line in text[start:].splitlines()[1:]:
        if not line.startswith(" "):
            break  # the next paragraph of the copyright file
        line = line[1:]
        body.append("" if line == "." else line)
    (out_dir / "OFL.txt").write_text(
        "\n".join(h for h in header if h is not None) + "\n\n" + "\n".join(body) + "\n",
        encoding="utf-8",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--source", type=Path, default=SOURCE_DIR, help="the .ttc directory")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="the output directory")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for family in FAMILIES:
        for weight in WEIGHTS:
            build(family, weight, args.source, args.out)
    write_license(args.source, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
