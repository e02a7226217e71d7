"""Settings are written atomically: a temporary file, fsync, rename; a failure leaves the old
file as it was, and no value can break the TOML."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.kiosk import config as config_mod
from companion.kiosk.config import Config


def test_the_file_is_fsynced_before_it_replaces_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[kiosk]\nlanguage = \"zh\"\n\n[panel]\ndraw = 5\n", encoding="utf-8")
    os.chmod(path, 0o640)
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(
        os, "replace", lambda a, b: (calls.append(f"replace {Path(b).name}"), real_replace(a, b))[1]
    )
    config_mod.save(Config(language="ja"), path)
    assert calls[:2] == ["fsync", "replace config.toml"]  # the data is on disk before the rename
    assert calls[2:] == ["fsync"]  # then the folder, so the rename itself is durable
    assert config_mod.load(path).language == "ja"
    assert "[panel]\ndraw = 5" in path.read_text(encoding="utf-8")
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "config.toml"
    old = "[kiosk]\nlanguage = \"zh\"\n"
    path.write_text(old, encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        config_mod.save(Config(language="ja"), path)
    assert path.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


@pytest.mark.parametrize(
    "journal", ['a"b', "back\\slash", "new\nline", "nul\x00tab\t", "del\x7f", "\ud800", "日本"]
)
def test_any_value_round_trips_through_the_file(tmp_path: Path, journal: str) -> None:
    path = tmp_path / "config.toml"
    config_mod.save(Config(journal=journal), path)
    expected = journal.replace("\ud800", "\ufffd")
    assert config_mod.load(path).journal == expected
