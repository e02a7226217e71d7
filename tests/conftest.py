"""Shared test helpers."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# This checkout's Dice Race (tests/thirdgame), whichever checkout's copy the environment
# installed (a worktree shares the main checkout's virtual environment): its entry point is
# the installed distribution's, the code it loads this checkout's.
sys.path.insert(0, str(Path(__file__).resolve().parent / "thirdgame"))

from companion.engine import registry  # noqa: E402


@pytest.fixture
def toy() -> Iterator[registry.GameSpec]:
    """The toy game Sticks (``tests/toygame.py``), registered for one test."""
    from tests.toygame import register_toy, unregister_toy

    spec = register_toy()
    yield spec
    unregister_toy()
