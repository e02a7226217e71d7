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


# -- issue 24, items 2, 3 and 7: settings that cannot be read -------------------------------

DEEP = "[kiosk]\nlanguage = " + "[" * 600 + "]" * 600 + "\n"
"""An array nested 600 deep: tomllib gives up with RecursionError."""


def test_settings_nested_too_deep_are_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(DEEP, encoding="utf-8")
    with pytest.raises(config_mod.ConfigError, match="nested too deeply"):
        config_mod.load(path)


def test_settings_nested_too_deep_are_the_error_screen_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.kiosk import app as app_mod
    from companion.main import run_kiosk

    seen: dict[str, object] = {}

    def fake_run(self: app_mod.App) -> None:
        self.render(force=True)
        seen["message"] = getattr(self.screen, "message", None)

    monkeypatch.setattr(app_mod.App, "run", fake_run)
    path = tmp_path / "config.toml"
    path.write_text(DEEP, encoding="utf-8")
    assert run_kiosk(path, size=(800, 480)) == 0
    assert "nested too deeply" in str(seen["message"])


def test_doctor_reports_settings_nested_too_deep(tmp_path: Path) -> None:
    import io

    from companion.doctor import run_doctor

    path = tmp_path / "config.toml"
    path.write_text(DEEP, encoding="utf-8")
    dev = tmp_path / "dev"
    dev.mkdir()
    out = io.StringIO()
    status = run_doctor(
        path, out=out, model_path=tmp_path / "model", dev_dir=dev, cards=tmp_path / "cards",
        display=False,
    )
    assert status == 1
    assert "nested too deeply" in out.getvalue()


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda p: os.mkfifo(p), id="fifo"),
        pytest.param(lambda p: p.mkdir(), id="folder"),
    ],
)
def test_settings_that_are_not_a_file_are_refused_at_once(tmp_path: Path, make: object) -> None:
    import time

    path = tmp_path / "config.toml"
    make(path)  # type: ignore[operator]
    t0 = time.monotonic()
    with pytest.raises(config_mod.ConfigError, match="not a regular file"):
        config_mod.load(path)
    assert time.monotonic() - t0 < 1.0


def test_dev_zero_as_settings_is_refused_at_once() -> None:
    import time

    t0 = time.monotonic()
    with pytest.raises(config_mod.ConfigError, match="not a regular file"):
        config_mod.load(Path("/dev/zero"))
    assert time.monotonic() - t0 < 1.0


def test_a_huge_settings_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    with path.open("wb") as f:
        f.truncate(config_mod.MAX_CONFIG_BYTES + 1)
    with pytest.raises(config_mod.ConfigError, match="too large"):
        config_mod.load(path)


@pytest.mark.parametrize(
    "text",
    [
        '[kiosk]\nlanguage = "fr"\nrotation = 90\njournal = "/data/j.sqlite3"\nsound = false\n',
        "[kiosk\nrotation = 90\n",
        DEEP,
        "\xff\xfe not utf-8",
    ],
)
def test_a_file_that_could_not_be_read_is_never_written_over(tmp_path: Path, text: str) -> None:
    """save() refuses to replace a settings file it cannot read: the table's rotation, its
    journal and its sound are in there."""
    path = tmp_path / "config.toml"
    path.write_bytes(text.encode("utf-8", "surrogateescape") if text[0] != "\xff" else
                     b"\xff\xfe not utf-8")
    before = path.read_bytes()
    with pytest.raises(config_mod.ConfigError):
        config_mod.save(Config(language="ja"), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


def test_the_language_key_on_the_settings_error_screen_keeps_the_file(tmp_path: Path) -> None:
    """The audit's case: "The companion cannot start", L pressed: the file is left as it was
    (the language changes on screen only) and the screen says the settings were not saved."""
    import pygame

    from companion.kiosk.app import App
    from companion.kiosk.config import ConfigError
    from tests.kiosk_helpers import press

    path = tmp_path / "config.toml"
    text = '[kiosk]\nlanguage = "fr"\nrotation = 90\njournal = "/data/j.sqlite3"\nsound = false\n'
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        config_mod.load(path)
    pygame.init()
    app = App(Config(), size=(800, 480), fullscreen=False, config_path=path,
              config_error=str(caught.value))
    app.render(force=True)
    press(app, "language")
    app.render(force=True)
    assert app.config.language == "zh"  # on screen
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]
    assert app.toast_text is not None and app.toast_text.startswith("设置未保存")  # in Chinese
    app.set_rotation(180)
    assert path.read_text(encoding="utf-8") == text
