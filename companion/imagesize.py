"""The size of an image read from its header, before anything decodes it.

A 16000×16000 photo decodes to 256 million pixels (a quarter of a gigabyte in grey, three
times that in colour) before a program can look at it; on a Pi that is the end of the process.
:func:`check` refuses such a file from the few bytes of its header (PNG, JPEG, BMP, GIF, WebP);
OpenCV's own limit (``CV_IO_MAX_IMAGE_PIXELS``, set by :func:`limit_opencv`) covers the formats
not read here.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

MAX_PIXELS = 100_000_000
"""The largest image accepted: 100 megapixels (a 64 MP camera photo is 9248×6944)."""

MAX_BYTES = 200 * 1024 * 1024
"""The largest image file accepted, whatever its format."""


class ImageTooLarge(ValueError):
    """The image is larger than the companion decodes; the message names its size."""


def limit_opencv() -> None:
    """Make OpenCV refuse to decode more than MAX_PIXELS (its default is 2^30): call before
    the first ``cv2.imread``."""
    os.environ.setdefault("CV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))


def header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the first bytes of a PNG, BMP, GIF or WebP file; None if the
    format is not one of these (JPEG is read by :func:`image_size`, its size may be far in)."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR" and len(head) >= 24:
        w, h = struct.unpack(">II", head[16:24])
        return int(w), int(h)
    if head.startswith(b"BM") and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        return abs(int(w)), abs(int(h))
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        w, h = struct.unpack("<HH", head[6:10])
        return int(w), int(h)
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP" and len(head) >= 30:
        chunk = head[12:16]
        if chunk == b"VP8X":
            w = int.from_bytes(head[24:27], "little") + 1
            h = int.from_bytes(head[27:30], "little") + 1
            return w, h
        if chunk == b"VP8L":
            bits = int.from_bytes(head[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8 ":
            w, h = struct.unpack("<HH", head[26:30])
            return int(w) & 0x3FFF, int(h) & 0x3FFF
    return None


_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header (SOFn), walking the marker segments."""
    if not data.startswith(b"\xff\xd8"):
        return None
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if marker in _SOF and i + 9 <= len(data):
            h = int.from_bytes(data[i + 5 : i + 7], "big")
            w = int.from_bytes(data[i + 7 : i + 9], "big")
            return w, h
        if length < 2:
            return None
        i += 2 + length
    return None


def image_size(path: str | Path) -> tuple[int, int] | None:
    """The image's (width, height) from its header; None for a format not read here."""
    with open(path, "rb") as f:
        head = f.read(64)
        size = header_size(head)
        if size is not None or not head.startswith(b"\xff\xd8"):
            return size
        f.seek(0)
        return jpeg_size(f.read(1024 * 1024))  # the frame header comes before the picture


def check(path: str | Path) -> None:
    """Refuse an image too large to decode: ImageTooLarge naming its size, OSError if it
    cannot be read."""
    bytes_ = os.stat(path).st_size
    if bytes_ > MAX_BYTES:
        raise ImageTooLarge(
            f"the file is {bytes_ / 1024 / 1024:.0f} MB; images up to "
            f"{MAX_BYTES // 1024 // 1024} MB are read"
        )
    size = image_size(path)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageTooLarge(
            f"the image is {size[0]}×{size[1]} pixels ({size[0] * size[1] / 1e6:.0f} MP); "
            f"images up to {MAX_PIXELS // 1_000_000} MP are read"
        )
