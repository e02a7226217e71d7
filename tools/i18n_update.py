#!/usr/bin/env python3
"""Extract the kiosk's texts with ``pybabel extract`` and bring every .po file up to date.

    .venv/bin/python tools/i18n_update.py            # write the .po files (zh, ja)
    .venv/bin/python tools/i18n_update.py --check    # write nothing; exit 1 if a .po would change
    .venv/bin/python tools/i18n_update.py --pot F    # also keep the template as F

The template comes from ``pybabel extract -F babel.cfg -k n_:1,2`` (babel.cfg maps the
sources: the ``_()``/``n_()`` calls of the kiosk core and of each game's kiosk subpackage, and
the game words from the games' tables and registry records).  It is shared out among the
catalogues (``companion.kiosk.catalogue.catalogues()``: the core's, then each registered
game's, in the folder its spec declares as ``locale``): a message the core uses, or two games
share, goes to the core's; a message only one game uses goes to that game's
(``i18n.catalogue_messages``).  Then, for each catalogue and language, what ``pybabel update
--no-fuzzy-matching`` does, plus:

* a message that comes back after being obsolete gets its old translation back, and a message
  that moves from one catalogue to another takes its translation with it;
* the header dates stay as they are (git keeps the history; changing dates only make merge
  conflicts), and locations are written without line numbers for the same reason.

New messages come in untranslated (``msgstr ""``): fill them in with any PO editor, then run
``make`` (or nothing: the kiosk compiles a stale catalogue in memory).  tests/test_i18n.py fails
while a message is untranslated.
"""

from __future__ import annotations

import argparse
import copy
import io
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.kiosk import catalogue, i18n  # noqa: E402

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


def share(template: Catalog, cat: catalogue.Catalogue) -> Catalog:
    """The part of ``template`` that catalogue ``cat`` translates."""
    keys = set(i18n.catalogue_messages(cat))
    part = Catalog(domain=cat.domain, fuzzy=False)
    for message in template:
        if message.id and (message.id, message.context) in keys:
            part[message.id] = copy.copy(message)
    return part


def update(catalog: Catalog, template: Catalog, moved: dict[object, object] | None = None) -> None:
    """``catalog`` brought up to ``template``: new messages added untranslated (or with the
    translation ``moved`` holds for them, from another catalogue), messages no longer in the
    template made obsolete, obsolete ones that came back revived."""
    for key, message in list(catalog.obsolete.items()):
        if template.get(message.id, context=message.context) is not None:
            del catalog.obsolete[key]
            catalog[message.id] = message
    for message in template:
        found = (moved or {}).get((message.id, message.context))
        if message.id and found is not None and catalog.get(message.id, message.context) is None:
            catalog[message.id] = copy.copy(found)
    created, revised = catalog.creation_date, catalog.revision_date
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalog.creation_date, catalog.revision_date = created, revised


def render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=0, include_lineno=False)
    return out.getvalue()


def _read_or_new(cat: catalogue.Catalogue, lang: str) -> Catalog:
    if cat.po(lang).exists():
        return catalogue.read(lang, cat.folder, cat.domain)
    core = catalogue.read(lang)  # a new catalogue takes the core's header
    new = Catalog(locale=lang, domain=cat.domain, fuzzy=False)
    for attr in (
        "project", "version", "copyright_holder", "language_team", "last_translator",
        "creation_date", "revision_date",
    ):
        setattr(new, attr, getattr(core, attr))
    new.header_comment = core.header_comment.replace("companion", cat.domain, 1)
    return new


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("langs", nargs="*", default=list(catalogue.TRANSLATED))
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on changes")
    parser.add_argument("--pot", type=Path, help="keep the extracted template in this file")
    args = parser.parse_args(argv)
    for lang in args.langs:
        if lang not in catalogue.TRANSLATED:
            parser.error(f"unknown language {lang!r}; one of {', '.join(catalogue.TRANSLATED)}")
    with tempfile.TemporaryDirectory() as tmp:
        pot = args.pot.resolve() if args.pot else Path(tmp) / "companion.pot"
        template = extract(pot)
    cats = catalogue.catalogues()
    changed = []
    for lang in args.langs:
        read = {cat.domain: _read_or_new(cat, lang) for cat in cats}
        # Every translation any catalogue holds, so that a message moving between catalogues
        # keeps it.
        moved = {
            (m.id, m.context): m
            for c in read.values()
            for m in [*c, *c.obsolete.values()]
            if m.id and m.string and not m.fuzzy
        }
        shares = {cat.domain: share(template, cat) for cat in cats}
        for cat in cats:
            update(read[cat.domain], shares[cat.domain], moved)
        live = {(m.id, m.context) for part in shares.values() for m in part if m.id}
        for cat in cats:
            path = cat.po(lang)
            catalog = read[cat.domain]
            for key, message in list(catalog.obsolete.items()):
                if (message.id, message.context) in live:  # it moved to another catalogue
                    del catalog.obsolete[key]
            before = path.read_bytes() if path.exists() else b""
            after = render(catalog)
            untranslated = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
            name = f"{lang} {cat.domain}"
            print(
                f"{name}: {len([m for m in catalog if m.id])} messages, {len(untranslated)} "
                f"untranslated, {len(catalog.obsolete)} obsolete"
            )
            if after != before:
                changed.append(name)
                if not args.check:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(after)
                    print(f"{name}: wrote {path}")
    if args.check and changed:
        print(f"out of date: {', '.join(changed)}; run .venv/bin/python tools/i18n_update.py")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
