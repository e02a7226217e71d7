"""Where the companion keeps its files: the config file every part reads its table from."""

from __future__ import annotations

import os
from pathlib import Path


def config_path() -> Path:
    """``$XDG_CONFIG_HOME/companion/config.toml`` (platformdirs where available): the kiosk's
    ``[kiosk]``, the panel's ``[panel]`` and the camera's ``[camera]`` tables."""
    try:
        from platformdirs import user_config_dir

        return Path(user_config_dir("companion")) / "config.toml"
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        return Path(base) / "companion" / "config.toml"


__all__ = ["config_path"]
