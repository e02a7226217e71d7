#!/usr/bin/env python3
"""Write the old dict catalogues (companion/kiosk/locale/zh.py, ja.py) into the .po files.

    .venv/bin/python tools/po_from_dicts.py                  # zh and ja: add what the .po lacks
    .venv/bin/python tools/po_from_dicts.py --prefer-dicts   # ... and take the dicts' changes
    .venv/bin/python tools/po_from_dicts.py --check          # exit 1 if a .po would change

The migration from Python dicts to gettext, re-runnable: it reads each dict module (by path, so
it works while the package no longer imports it) and merges it into
``companion/kiosk/locale/<lang>/LC_MESSAGES/companion.po``:

* ``CATALOG`` entries become messages without context; an entry whose key is one of the two
  texts of an ``n_(singular, plural, n)`` call becomes that plural message (Chinese and Japanese
  have one plural form);
* the tables of names and help (``PILLARS_CARDS``, ``BUILDERS_CARDS``, ``STEP_HELP``...) become
  messages with the table's ``msgctxt``, the English name or text as ``msgid``
  (:data:`companion.kiosk.catalogue.tables`);
* a message the .po lacks, or has untranslated or fuzzy, is added or filled in;
* a message the .po translates differently is kept as the .po has it and listed, unless
  ``--prefer-dicts`` is given (then the dict's translation replaces it, and is listed);
* a dict entry that no ``_()`` call uses (nor the tables, nor the registry) is left out;
* nothing is removed: ``tools/i18n_update.py`` (``pybabel extract`` and update) marks messages
  no longer used as obsolete, and adds each message's locations.

Keys of a table that the engines do not know are an error (the file and key are named) and
nothing is written.  After the last run, delete the dict modules (see docs/i18n.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import sys
from collections.abc import Collection
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.kiosk import catalogue, i18n  # noqa: E402

DICT_DIR = ROOT / "companion" / "kiosk" / "locale"
FIXED_DATE = datetime(2026, 12, 1, tzinfo=timezone.utc)  # noqa: UP017
"""The header dates of a new catalogue (git keeps the real history; a date that changed on
every run would only make merge conflicts)."""


def load_dicts(lang: str, folder: Path = DICT_DIR) -> ModuleType:
    path = folder / f"{lang}.py"
    spec = importlib.util.spec_from_file_location(f"_old_catalogue_{lang}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def new_catalog(lang: str) -> Catalog:
    return Catalog(
        locale=lang,
        domain=catalogue.DOMAIN,
        project="companion",
        version="0.1.0",
        copyright_holder="the companion's authors",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
    )


Key = tuple[str | tuple[str, str], str | None]  # (msgid or (singular, plural), msgctxt)


def dict_messages(module: ModuleType, where: str) -> dict[Key, str]:
    """The messages of one dict module: ``{(msgid, msgctxt): translation}``."""
    plurals: dict[str, tuple[str, str]] = {}
    for pair in i18n.source_plurals():
        plurals[pair[0]] = plurals[pair[1]] = pair
    found: dict[Key, str] = {}
    for key, value in module.CATALOG.items():
        found[(key, None)] = value  # made obsolete by tools/i18n_update.py if no _() uses it
        if key in plurals:
            found[(plurals[key], None)] = value
    errors = []
    known = {"CATALOG", *catalogue.tables()}
    for name, value in vars(module).items():
        if name.isupper() and isinstance(value, dict) and name not in known:
            errors.append(
                f"{where}: {name} is a table this script does not know: give it a context in "
                "companion/kiosk/catalogue.py tables() (and its look-up in i18n.py) first"
            )
    for table in catalogue.tables().values():
        for key, value in getattr(module, table.name).items():
            if key not in table.english:
                errors.append(f"{where}: {table.name} has {key!r}, which the engines do not know")
                continue
            found[(table.english[key], table.context)] = value
    if errors:
        raise SystemExit("\n".join(errors))
    return found


def _forms(catalog: Catalog, value: str, msgid: str | tuple[str, str]) -> str | tuple[str, ...]:
    return (value,) * catalog.num_plurals if isinstance(msgid, tuple) else value


def _text(string: str | tuple[str, ...] | None) -> str:
    if isinstance(string, tuple):
        return string[0] if string else ""
    return string or ""


def merge(
    catalog: Catalog, messages: dict[Key, str], prefer_dicts: bool, used: Collection[Key]
) -> list[str]:
    """Merge ``messages`` into ``catalog``; returns a line per change or disagreement.  Only
    ``used`` messages (what the code shows, :func:`companion.kiosk.i18n.catalogue_messages`)
    are merged: a dict entry no ``_()`` uses stays out (or obsolete) until one does."""
    report = []
    for (msgid, context), value in messages.items():
        if not value or (msgid, context) not in used:
            continue  # an untranslated or unused dict entry adds nothing
        shown = msgid[0] if isinstance(msgid, tuple) else msgid
        label = f"[{context}] {shown!r}" if context else repr(shown)
        old = catalog.get(msgid, context=context)  # a plural message is keyed by its singular
        if old is not None and isinstance(msgid, tuple) != isinstance(old.id, tuple):
            catalog.delete(old.id, context=context)  # a singular message becomes plural
            old = None
        if old is None:
            catalog.add(msgid, _forms(catalog, value, msgid), context=context)
            report.append(f"added {label}")
        elif not _text(old.string) or old.fuzzy:
            old.string = _forms(catalog, value, msgid)
            old.flags.discard("fuzzy")
            report.append(f"filled {label}")
        elif _text(old.string) != value:
            if prefer_dicts:
                report.append(f"changed {label}: {_text(old.string)!r} -> {value!r}")
                old.string = _forms(catalog, value, msgid)
            else:
                report.append(f"kept {label}: .po {_text(old.string)!r}, dict {value!r}")
    return report


def render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=0, include_lineno=False)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("langs", nargs="*", default=list(catalogue.TRANSLATED))
    parser.add_argument("--prefer-dicts", action="store_true", help="the dicts' texts win")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on changes")
    args = parser.parse_args(argv)
    changed = False
    for lang in args.langs:
        if lang not in catalogue.TRANSLATED:
            parser.error(f"unknown language {lang!r}; one of {', '.join(catalogue.TRANSLATED)}")
        source = DICT_DIR / f"{lang}.py"
        if not source.is_file():
            parser.error(f"{source} does not exist (the dicts are gone: nothing to migrate)")
        messages = dict_messages(load_dicts(lang), str(source.relative_to(ROOT)))
        path = catalogue.po_path(lang)
        catalog = catalogue.read(lang) if path.is_file() else new_catalog(lang)
        before = render(catalog) if path.is_file() else b""
        used = i18n.catalogue_messages()
        report = merge(catalog, messages, args.prefer_dicts, used)
        after = render(catalog)
        for line in report:
            print(f"{lang}: {line}")
        kept = sum(line.startswith("kept ") for line in report)
        unused = sum(key not in used for key in messages)
        print(
            f"{lang}: {len(messages)} dict entries ({unused} used by no _() call: left out), "
            f"{len(report) - kept} changes, {kept} kept"
        )
        if after != before:
            changed = True
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(after)
                print(f"{lang}: wrote {path.relative_to(ROOT)}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
