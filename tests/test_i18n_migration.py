"""The migration of the dict catalogues (companion/kiosk/locale/zh.py, ja.py) to the .po files,
tools/po_from_dicts.py: re-runnable, keeps the .po's translations, and while the dict modules
exist, nothing in them is missing from the .po files.

Delete this file together with the dict modules once the migration is over (docs/i18n.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog

from companion.kiosk import catalogue

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import po_from_dicts  # noqa: E402

sys.path.remove(str(ROOT / "tools"))


def _module(**tables: dict[str, str]) -> ModuleType:
    module = ModuleType("fake")
    for table in catalogue.tables().values():
        setattr(module, table.name, {})
    module.CATALOG = {}
    for name, entries in tables.items():
        setattr(module, name, entries)
    return module


def test_dict_entries_become_messages() -> None:
    module = _module(
        CATALOG={"Undone: {action}": "已撤销：{action}", "Last round: {n} turns left": "还剩{n}"},
        PILLARS_KINDS={"mason": "泥瓦匠"},
        BUILDERS_CARDS={"grue-2": "起重机（大）"},
        RESOURCES={"coins": "金币"},
    )
    found = po_from_dicts.dict_messages(module, "zh.py")
    assert found[("Undone: {action}", None)] == "已撤销：{action}"
    assert found[(("Last round: {n} turn left", "Last round: {n} turns left"), None)] == "还剩{n}"
    assert found[("Mason", "pillars craftsman")] == "泥瓦匠"
    assert found[("Crane (large)", "builders card")] == "起重机（大）"
    assert found[("coins", "resource")] == "金币"


def test_an_unknown_key_is_named_and_nothing_is_written() -> None:
    with pytest.raises(SystemExit, match=r"zh.py: BUILDERS_CARDS has 'nope'"):
        po_from_dicts.dict_messages(_module(BUILDERS_CARDS={"nope": "不"}), "zh.py")


def test_an_unknown_table_is_named() -> None:
    with pytest.raises(SystemExit, match=r"ja.py: LOG_WORDS is a table this script does not know"):
        po_from_dicts.dict_messages(_module(LOG_WORDS={"x": "y"}), "ja.py")


def test_merge_adds_fills_and_keeps() -> None:
    catalog = Catalog(locale="zh", fuzzy=False)
    catalog.add("Kept", "旧")
    catalog.add("Empty", "")
    catalog.add("Once singular", "一")
    plural = ("Once singular", "Once plurals")
    messages = {
        ("Kept", None): "新",
        ("Empty", None): "填",
        ("New", "ctx"): "加",
        (plural, None): "复",
        ("Unused", None): "不用",
    }
    used = {k for k in messages if k != ("Unused", None)}
    report = po_from_dicts.merge(catalog, messages, False, used)
    assert catalog.get("Kept").string == "旧"  # type: ignore[union-attr]
    assert any(line.startswith("kept 'Kept'") for line in report)
    assert catalog.get("Empty").string == "填"  # type: ignore[union-attr]
    assert catalog.get("New", context="ctx").string == "加"  # type: ignore[union-attr]
    assert catalog.get(plural).string == ("复",)  # type: ignore[union-attr]
    assert catalog.get("Unused") is None
    again = po_from_dicts.merge(catalog, messages, True, used)
    assert catalog.get("Kept").string == "新"  # type: ignore[union-attr]
    assert again == ["changed 'Kept': '旧' -> '新'"]
    assert po_from_dicts.merge(catalog, messages, True, used) == []  # re-runnable


def test_the_dicts_are_all_in_the_po_files(capsys: pytest.CaptureFixture[str]) -> None:
    """While the dict modules exist (until the migration's last run), the .po files hold every
    used entry of theirs with the same translation: run tools/po_from_dicts.py."""
    assert po_from_dicts.main(["--check"]) == 0
    out = capsys.readouterr().out
    assert " kept " not in out and "\nkept" not in out, out
