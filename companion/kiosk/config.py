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
    setup_guide = true     # the set-up guide when a game starts (a step a page, skippable)
    teach = "first"        # a card on each new kind of step: "first" game of a title, "on", "off"

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
    setup_guide: bool = True
    teach: str = "first"

    def with_(self, **changes: Any) -> Config:
        return replace(self, **changes)


_CHOICES: dict[str, tuple[object, ...]] = {
    "language": ("en", "zh", "ja"),
    "rotation": (0, 90, 180, 270),
    "teach": ("first", "on", "off"),
}
_LIMITS = {"width": (320, 7680), "height": (240, 7680)}


def default_path() -> Path:
    """``$XDG_CONFIG_HOME/companion/config.toml`` (see ``companion.paths``)."""
    return config_path()


def journal_path(config: Config) -> Path | None:
    """The journal file the settings name (``kiosk.journal``, a leading ``~`` being the
    user's home), or None for the default (``companion.journal.default_path``).  The kiosk,
    the safe mode, ``companion doctor`` and the commands that read the journal all take it
    from here, so they use the same file."""
    return Path(config.journal).expanduser() if config.journal else None


MAX_CONFIG_BYTES = 1024 * 1024
"""The largest settings file read (a hand-written one is a few hundred bytes)."""


def read_settings_text(path: Path, limit: int = MAX_CONFIG_BYTES) -> str:
    """The text of the settings file ``path``, read at once and bounded: a FIFO, a device
    (``/dev/zero``), a folder or a file over ``limit`` bytes is refused with ConfigError
    before anything is read, so no settings file can hang or fill the start."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not wait; its type is refused below.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        raise ConfigError(f"{path}: not a regular file (a folder)") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = (
                "a folder" if stat.S_ISDIR(info.st_mode)
                else "a FIFO" if stat.S_ISFIFO(info.st_mode)
                else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                else "a socket" if stat.S_ISSOCK(info.st_mode)
                else "not a file"
            )
            raise ConfigError(f"{path}: not a regular file ({kind})")
        if info.st_size > limit:
            raise ConfigError(
                f"{path}: too large for a settings file ({info.st_size} bytes; at most {limit})"
            )
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=True) as f:
            fd = -1
            data = f.read(limit + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise ConfigError(f"{path}: too large for a settings file (over {limit} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot be read: not UTF-8 text ({exc.reason})") from None


def parse_settings(path: Path, text: str) -> dict[str, Any]:
    """The TOML document ``text`` of the settings file ``path``; ConfigError if it is not
    valid TOML or is nested too deeply for the reader (tomllib recurses)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not usable: arrays or tables nested too deeply") from None


def load(path: Path | None = None) -> Config:
    """The settings in ``path`` (default: the user's); raises ConfigError naming what is bad."""
    path = path or default_path()
    if not os.path.lexists(path):
        return Config()
    data = parse_settings(path, read_settings_text(path))
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
    (the button panel's pins, the camera) and its comments are kept as they were.  Raises
    ConfigError, writing nothing, when the file there cannot be read as settings."""
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
    # A file that is there but cannot be read as settings (not TOML, nested too deeply, not
    # UTF-8, not a regular file, a value refused) is never written over: it holds the
    # table's choices.
    if os.path.lexists(path):
        load(path)  # ConfigError: the file's settings are refused, so it is left alone
        old = read_settings_text(path).splitlines()
    else:
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
