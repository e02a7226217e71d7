"""Shared test helpers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.engine import registry


@pytest.fixture
def toy() -> Iterator[registry.GameSpec]:
    """The toy game Sticks (``tests/toygame.py``), registered for one test."""
    from tests.toygame import register_toy, unregister_toy

    spec = register_toy()
    yield spec
    unregister_toy()
