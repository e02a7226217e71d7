#!/usr/bin/env python3
"""Print the kiosk's ``_("...")`` strings that a catalog lacks, as lines to paste into it.

    .venv/bin/python tools/i18n_missing.py            # every language
    .venv/bin/python tools/i18n_missing.py ja         # one language
    .venv/bin/python tools/i18n_missing.py --check    # exit status 1 when something is missing

For each language, the missing strings come out as ready-to-paste lines of the ``CATALOG``
dict of ``companion/kiosk/locale/<lang>.py``, with an empty translation to fill in (an empty
translation shows the English text, and tests/test_i18n.py fails on it), and where the string
is used::

    "Undone: {action}": "",  # companion/kiosk/app.py:137

Then catalog entries no longer used by any ``_("...")`` call are listed as comments (they may
be kept: the composed names in i18n.py and strings for screens to come are among them).
After filling in translations, rebuild the fonts: ``.venv/bin/python tools/build_fonts.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.kiosk import i18n  # noqa: E402


def _literal(text: str) -> str:
    """A double-quoted Python string literal for ``text``, CJK kept readable."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\t", "\\t") + '"'


def missing(lang: str) -> dict[str, list[str]]:
    """The source strings ``lang``'s catalog lacks (or has empty), with where they are used."""
    catalog = i18n.LOCALES[lang].catalog
    return {s: where for s, where in i18n.source_strings().items() if not catalog.get(s)}


def unused(lang: str) -> list[str]:
    used = i18n.source_strings()
    return [s for s in i18n.LOCALES[lang].catalog if s not in used]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("langs", nargs="*", default=list(i18n.LOCALES), help="zh, ja")
    parser.add_argument("--check", action="store_true", help="exit 1 if anything is missing")
    parser.add_argument("--no-unused", action="store_true", help="don't list unused entries")
    args = parser.parse_args(argv)
    total = 0
    for lang in args.langs:
        if lang not in i18n.LOCALES:
            parser.error(f"unknown language {lang!r}; one of {', '.join(i18n.LOCALES)}")
        lacking = missing(lang)
        total += len(lacking)
        print(f"# {lang}: {len(lacking)} missing from companion/kiosk/locale/{lang}.py CATALOG")
        for text, where in lacking.items():
            more = f" (+{len(where) - 1})" if len(where) > 1 else ""
            print(f'    {_literal(text)}: "",  # {where[0]}{more}')
        if not args.no_unused:
            stale = unused(lang)
            if stale:
                print(f"# {lang}: {len(stale)} catalog entries not used by any _() call:")
                for text in stale:
                    print(f"#   {_literal(text)}")
        print()
    return 1 if args.check and total else 0


if __name__ == "__main__":
    raise SystemExit(main())
