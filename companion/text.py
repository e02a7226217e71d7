"""Text from outside (player names, stored data) made safe to show on a terminal, a screen or
in a QR code.

A name is whatever a person typed or a file held: it may carry control characters (a NUL, an
escape sequence that repaints a terminal, a newline that breaks a table), bidirectional
overrides that turn the text around it, lone surrogates that cannot be encoded, or thousands
of characters.  :func:`clean` keeps what is readable and bounds the length; it is applied where
text is shown, so nothing stored is changed.  :func:`terminal` does the same for longer text,
and :func:`json_text` writes JSON with those characters escaped (``\\u202e``), so the data
comes back whole from ``json.loads``.  What is unsafe is decided in one place, :func:`unsafe`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

NAME_LIMIT = 40
"""How many characters of a name are shown (the set-up screen takes at most this many)."""

ELLIPSIS = "…"

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""The Unicode categories no output carries as they are: controls (C0, DEL, C1 such as the
terminal's CSI, U+009B), format characters (bidirectional marks, embeddings, overrides and
isolates, zero-width characters), lone surrogates, and the line and paragraph separators."""


def unsafe(ch: str) -> bool:
    """True if the character ``ch`` must not reach a terminal, a screen or a file as it is
    (see UNSAFE_CATEGORIES): :func:`clean` and :func:`terminal` remove it, :func:`json_text`
    escapes it."""
    return unicodedata.category(ch) in UNSAFE_CATEGORIES


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
        elif cat == "Co" or unsafe(ch):  # controls, format (bidi, zero-width), private use
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
        elif unicodedata.category(ch) == "Cs":
            out.append("\ufffd")
        elif not unsafe(ch):
            out.append(ch)
    return "".join(out)


_NOT_PLAIN = re.compile(r"[^\x20-\x7e\t\n\r]")
"""Every character a JSON text may hold that is not printable ASCII or JSON's own white space
(which :func:`json.dumps` writes raw only between values, never inside a string)."""


def _escaped(match: re.Match[str]) -> str:
    ch = match.group()
    if not unsafe(ch):
        return ch
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # past the first plane: JSON writes it as a UTF-16 surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_safe(text: str) -> str:
    """The JSON text ``text`` (as :func:`json.dumps` writes it) with every unsafe character
    (see :func:`unsafe`) written as a ``\\uXXXX`` escape: the same JSON value, nothing in it
    a terminal acts on (an escape sequence, U+009B, a bidirectional override).  The other
    characters stay as they are, so names in any script stay readable."""
    return _NOT_PLAIN.sub(_escaped, text)


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON for a terminal or a file: UTF-8 text as it is, every unsafe
    character escaped (:func:`json_safe`); ``json.loads`` gives ``value`` back."""
    return json_safe(json.dumps(value, ensure_ascii=False, indent=indent))
