#!/usr/bin/env python3
"""List the messages a catalogue lacks or leaves untranslated (or fuzzy), with where each is used.

    .venv/bin/python tools/i18n_missing.py            # every language
    .venv/bin/python tools/i18n_missing.py ja         # one language
    .venv/bin/python tools/i18n_missing.py --check    # exit status 1 when something is missing

Each catalogue is checked on its own: the core's (``companion/kiosk/locale``) and each game's
(the folder its spec names as ``locale``, e.g. ``companion/pillars/locale``), each with the
messages that are its own (``i18n.catalogue_messages``).  A message the .po does not have at
all comes first: run ``tools/i18n_update.py`` to add it (untranslated), then fill in its
``msgstr`` in ``<locale>/<lang>/LC_MESSAGES/<domain>.po`` with any PO editor or a text editor.
Each message is printed as its .po entry::

    #: companion/kiosk/app.py:137
    msgid "Undone: {action}"
    msgstr ""

After filling in translations, rebuild the fonts: ``.venv/bin/python tools/build_fonts.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402

from companion.kiosk import catalogue, i18n  # noqa: E402


def _quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\t", "\\t") + '"'


def missing(
    lang: str, cat: catalogue.Catalogue = catalogue.CORE
) -> dict[i18n.MessageKey, tuple[str, list[str]]]:
    """The messages ``lang``'s catalogue ``cat`` lacks: ``{(msgid, msgctxt): (state, where)}``,
    state ``absent`` (not in the .po, or no .po at all), ``untranslated`` or ``fuzzy``."""
    try:
        catalog = catalogue.read(lang, cat.folder, cat.domain)
    except FileNotFoundError:
        catalog = Catalog(locale=lang, domain=cat.domain)
    found: dict[i18n.MessageKey, tuple[str, list[str]]] = {}
    for (msgid, context), where in i18n.catalogue_messages(cat).items():
        message = catalog.get(msgid, context=context)
        if message is None:
            found[(msgid, context)] = ("absent", where)
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            found[(msgid, context)] = ("fuzzy", where)
        elif not all(forms):
            found[(msgid, context)] = ("untranslated", where)
    return found


def entry(msgid: str | tuple[str, str], context: str | None, where: list[str]) -> str:
    lines = [f"#: {where[0]}" + (f" (+{len(where) - 1})" if len(where) > 1 else "")]
    if context:
        lines.append(f"msgctxt {_quoted(context)}")
    if isinstance(msgid, tuple):
        lines += [f"msgid {_quoted(msgid[0])}", f"msgid_plural {_quoted(msgid[1])}"]
        lines.append('msgstr[0] ""')
    else:
        lines += [f"msgid {_quoted(msgid)}", 'msgstr ""']
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("langs", nargs="*", default=list(catalogue.TRANSLATED), help="zh, ja")
    parser.add_argument("--check", action="store_true", help="exit 1 if anything is missing")
    args = parser.parse_args(argv)
    total = 0
    for lang in args.langs:
        if lang not in catalogue.TRANSLATED:
            parser.error(f"unknown language {lang!r}; one of {', '.join(catalogue.TRANSLATED)}")
        for cat in catalogue.catalogues():
            lacking = missing(lang, cat)
            total += len(lacking)
            path = cat.po(lang)
            shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            print(f"# {lang} {cat.domain}: {len(lacking)} missing from {shown}")
            absent = sum(state == "absent" for state, _where in lacking.values())
            if absent:
                print(f"# {absent} not in the file: run .venv/bin/python tools/i18n_update.py")
            for (msgid, context), (state, where) in sorted(
                lacking.items(), key=lambda kv: kv[1][0] != "absent"
            ):
                print(f"# {state}")
                print(entry(msgid, context, where))
                print()
    return 1 if args.check and total else 0


if __name__ == "__main__":
    raise SystemExit(main())
