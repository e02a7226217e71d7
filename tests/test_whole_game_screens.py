"""Every screen of a real game measured, not only the fixed scenes: the walk tools
(``tools/pillars_handout_walk.py``, ``tools/builders_handout_walk.py``) play a game with
companion seats through the kiosk's input layer, read the teaching cards, hand out every step
and measure each screen as ``companion screenshots`` does (no amount hidden behind "…", no
number split from its unit, no text cut, no glyph missing, the touch targets and the text
sizes).  The default run walks the opening of a game of each title on the small screen in
Japanese (the language whose sentences are the longest there); ``-m slow`` walks whole games
in every language at both sizes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def _tool(name: str) -> ModuleType:
    """``tools/NAME.py`` as a module (the walk tools import ``walk_common`` beside them)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("tool", ["pillars_handout_walk", "builders_handout_walk"])
def test_the_opening_of_a_game_hides_nothing(tool: str, tmp_path: Path) -> None:
    tally = _tool(tool).walk("ja", "800x480", tmp_path, 3, steps=60)
    assert tally.problems == []
    assert tally.taught >= 1  # the table's first game: the first steps were taught


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["pillars_handout_walk", "builders_handout_walk"])
@pytest.mark.parametrize("run", ["en:800x480", "zh:800x480", "ja:800x480", "en:720x1280",
                                 "zh:720x1280", "ja:720x1280"])
def test_a_whole_game_hides_nothing(tool: str, run: str, tmp_path: Path) -> None:
    language, _sep, size = run.partition(":")
    tally = _tool(tool).walk(language, size, tmp_path, 3)
    assert tally.problems == []
    assert tally.instructions == tally.confirmations
