"""Text from outside (player names, stored data) made safe to show on a terminal, a screen or
in a QR code.

A name is whatever a person typed or a file held: it may carry control characters (a NUL, an
escape sequence that repaints a terminal, a newline that breaks a table), bidirectional
overrides that turn the text around it, lone surrogates that cannot be encoded, or thousands
of characters.  :func:`clean` keeps what is readable and bounds the length; it is applied where
text is shown, so nothing stored is changed.
"""

from __future__ import annotations

import unicodedata

NAME_LIMIT = 40
"""How many characters of a name are shown (the set-up screen takes at most this many)."""

ELLIPSIS = "…"


def clean(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` without control or format characters (C0 and C1 controls, NUL, bidirectional
    overrides and isolates, zero-width and private-use characters), lone surrogates replaced
    by U+FFFD, runs of white space made one space, and at most ``limit`` characters (the last
    one an ellipsis when cut).  An empty result is "?"."""
    if len(text) > limit * 4:  # enough to fill ``limit`` after removals, without reading MBs
        text = text[: limit * 4]
        cut = True
    else:
        cut = False
    out: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cs":
            out.append("\ufffd")
        elif ch.isspace() or cat in ("Zl", "Zp"):
            if out and out[-1] != " ":
                out.append(" ")
        elif cat in ("Cc", "Cf", "Co"):  # controls, format (bidi, zero-width), private use
            continue
        else:
            out.append(ch)
    result = "".join(out).strip()
    if cut or len(result) > limit:
        result = result[: max(0, limit - 1)].rstrip() + ELLIPSIS
    return result or "?"


def terminal(text: str) -> str:
    """``text`` safe to print on a terminal: line breaks and tabs kept, every other control or
    format character (escape sequences, NUL, bidirectional overrides) removed and lone
    surrogates replaced by U+FFFD, so a name cannot repaint, reorder or break the output."""
    out: list[str] = []
    for ch in text:
        if ch in "\n\t":
            out.append(ch)
            continue
        cat = unicodedata.category(ch)
        if cat == "Cs":
            out.append("\ufffd")
        elif cat not in ("Cc", "Cf"):
            out.append(ch)
    return "".join(out)
