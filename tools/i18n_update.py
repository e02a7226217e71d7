#!/usr/bin/env python3
"""Extract the kiosk's texts with ``pybabel extract`` and bring every .po file up to date.

    .venv/bin/python tools/i18n_update.py            # write the .po files (zh, ja)
    .venv/bin/python tools/i18n_update.py --check    # write nothing; exit 1 if a .po would change
    .venv/bin/python tools/i18n_update.py --pot F    # also keep the template as F

The template comes from ``pybabel extract -F babel.cfg -k n_:1,2`` (babel.cfg maps the
sources: the ``_()``/``n_()`` calls of companion/kiosk, and the game words from the engines'
data).  Then, for each language, what ``pybabel update --no-fuzzy-matching`` does, plus:

* a message that comes back after being obsolete gets its old translation back;
* the header dates stay as they are (git keeps the history; changing dates only make merge
  conflicts), and locations are written without line numbers for the same reason.

New messages come in untranslated (``msgstr ""``): fill them in with any PO editor, then run
``make`` (or nothing: the kiosk compiles a stale catalogue in memory).  tests/test_i18n.py fails
while a message is untranslated.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.kiosk import catalogue  # noqa: E402

EXTRACT = ["extract", "-F", "babel.cfg", "-k", "n_:1,2", "--sort-by-file", "--no-wrap"]
"""pybabel's arguments (run in the repository's root), less the output file."""


def extract(pot: Path) -> Catalog:
    """The template of every text, written to ``pot`` by ``pybabel extract``."""
    import os

    here = Path.cwd()
    os.chdir(ROOT)
    try:
        CommandLineInterface().run(["pybabel", "--quiet", *EXTRACT, "-o", str(pot), "."])
    finally:
        os.chdir(here)
    with pot.open("rb") as f:
        return read_po(f)


def update(catalog: Catalog, template: Catalog) -> None:
    """``catalog`` brought up to ``template``: new messages added untranslated, messages no
    longer in the template made obsolete, obsolete ones that came back revived."""
    for key, message in list(catalog.obsolete.items()):
        if template.get(message.id, context=message.context) is not None:
            del catalog.obsolete[key]
            catalog[message.id] = message
    created, revised = catalog.creation_date, catalog.revision_date
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalog.creation_date, catalog.revision_date = created, revised


def render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=0, include_lineno=False)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("langs", nargs="*", default=list(catalogue.TRANSLATED))
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on changes")
    parser.add_argument("--pot", type=Path, help="keep the extracted template in this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        pot = args.pot.resolve() if args.pot else Path(tmp) / "companion.pot"
        template = extract(pot)
    changed = []
    for lang in args.langs:
        if lang not in catalogue.TRANSLATED:
            parser.error(f"unknown language {lang!r}; one of {', '.join(catalogue.TRANSLATED)}")
        path = catalogue.po_path(lang)
        catalog = catalogue.read(lang)
        before = path.read_bytes()
        update(catalog, template)
        after = render(catalog)
        untranslated = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
        print(
            f"{lang}: {len([m for m in catalog if m.id])} messages, {len(untranslated)} "
            f"untranslated, {len(catalog.obsolete)} obsolete"
        )
        if after != before:
            changed.append(lang)
            if not args.check:
                path.write_bytes(after)
                print(f"{lang}: wrote {path.relative_to(ROOT)}")
    if args.check and changed:
        print(f"out of date: {', '.join(changed)}; run .venv/bin/python tools/i18n_update.py")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
