"""The kiosk's settings: a TOML file in the user's config directory.

    [kiosk]
    language = "en"        # en, zh or ja
    fullscreen = false     # true on the Pi
    width = 800            # window size when not full screen
    height = 480
    virtual_deck = false   # the companion draws the cards instead of the table
    sound = true
    journal = ""           # path of the journal; empty for the default
    rotation = 0           # 0, 90, 180 or 270: turn the picture (and the touches) clockwise
    hint = false           # a Hint button on a person's decision: the companion's top choices

A missing file means the defaults.  A malformed file is an error that names the key or the
line; the kiosk shows it on screen instead of starting a game.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from companion.paths import config_path


class ConfigError(Exception):
    """The config file cannot be read or has a bad value; the message names it."""


@dataclass(frozen=True)
class Config:
    language: str = "en"
    fullscreen: bool = False
    width: int = 800
    height: int = 480
    virtual_deck: bool = False
    sound: bool = True
    journal: str = ""
    rotation: int = 0
    hint: bool = False

    def with_(self, **changes: Any) -> Config:
        return replace(self, **changes)


_CHOICES: dict[str, tuple[object, ...]] = {
    "language": ("en", "zh", "ja"),
    "rotation": (0, 90, 180, 270),
}
_LIMITS = {"width": (320, 7680), "height": (240, 7680)}


def default_path() -> Path:
    """``$XDG_CONFIG_HOME/companion/config.toml`` (see ``companion.paths``)."""
    return config_path()


def load(path: Path | None = None) -> Config:
    """The settings in ``path`` (default: the user's); raises ConfigError naming what is bad."""
    path = path or default_path()
    if not path.exists():
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from None
    table = data.get("kiosk", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [kiosk] must be a table")
    known = {f.name: f for f in fields(Config)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        f = known.get(key)
        if f is None:
            raise ConfigError(f"{path}: unknown setting kiosk.{key} (known: {', '.join(known)})")
        want = type(getattr(Config(), key))
        if type(value) is not want:
            raise ConfigError(
                f"{path}: kiosk.{key} must be {want.__name__}, not {type(value).__name__} "
                f"({value!r})"
            )
        if key in _CHOICES and value not in _CHOICES[key]:
            allowed = ", ".join(str(c) for c in _CHOICES[key])
            raise ConfigError(f"{path}: kiosk.{key} must be one of {allowed}")
        if key in _LIMITS and not _LIMITS[key][0] <= value <= _LIMITS[key][1]:
            lo, hi = _LIMITS[key]
            raise ConfigError(f"{path}: kiosk.{key} must be between {lo} and {hi}, not {value}")
        values[key] = value
    return Config(**values)


def save(config: Config, path: Path | None = None) -> None:
    """Write the settings into the [kiosk] table, atomically; every other table of the file
    (the button panel's pins, the camera) and its comments are kept as they were."""
    path = path or default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["[kiosk]"]
    for key, value in asdict(config).items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, int):
            lines.append(f"{key} = {value}")
        else:
            lines.append(f"{key} = {toml_string(str(value))}")
    before: list[str] = []
    after: list[str] = []
    try:
        old = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        old = []
    inside = False
    seen = False
    for line in old:
        header = line.strip()
        if header.startswith("[") and not header.startswith("[["):
            inside = header.replace(" ", "") == "[kiosk]"
            seen = seen or inside
        if inside:
            continue
        (after if seen else before).append(line)
    text = "\n".join([*before, *lines, *([""] if after and after[0].strip() else []), *after])
    write_atomically(path, text.rstrip("\n") + "\n")


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string: quotes, backslashes and every control character
    escaped, so no value can end the line or the string early."""
    out = ['"']
    for ch in value:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        elif 0xD800 <= ord(ch) <= 0xDFFF:  # a lone surrogate cannot be written as UTF-8
            out.append("\\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a power cut leaves the old file or the new one,
    never a mix: a temporary file in the same folder, written and fsynced, renamed over the
    old one, then the folder fsynced.  The old file's permissions are kept; on any error the
    temporary file is removed and the old file is left as it was."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    with contextlib.suppress(OSError):  # not every file system lets a folder be fsynced
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
