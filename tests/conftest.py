"""Shared test helpers, the games the tests know, the markers' rules and where the tests'
files go."""

from __future__ import annotations

import functools
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

# The suite's processes and the commands it runs keep the bytecode they compile (__pycache__,
# ignored by git) even where the machine says not to (PYTHONDONTWRITEBYTECODE): else every
# worker and every command a test runs compiles the project again (17 s of the default run's
# CPU on a fresh clone, 25 s once the caches are there).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# This checkout's Dice Race (tests/thirdgame), whichever checkout's copy the environment
# installed (a worktree shares the main checkout's virtual environment): its entry point is
# the installed distribution's, the code it loads this checkout's.
sys.path.insert(0, str(Path(__file__).resolve().parent / "thirdgame"))

from companion.engine import registry  # noqa: E402

OUR_GAMES = frozenset({"pillars", "builders", "dicerace"})
"""The games the tests know: the project's own and its test game (tests/thirdgame)."""


class _OurGamesOnly:
    """``importlib.metadata`` as the registry sees it in the tests: of the ``companion.games``
    entry points, only our games' (another game a user installed beside the companion is
    its own affair: its words, its catalogue, its screens are not the project's to check)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(metadata, name)

    def entry_points(self, **params: Any) -> Any:
        found = metadata.entry_points(**params)
        if params.get("group") == registry.ENTRY_POINT_GROUP:
            return [ep for ep in found if ep.name in OUR_GAMES]
        return found


registry.metadata = _OurGamesOnly()  # type: ignore[assignment]


@pytest.fixture
def every_installed_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry as a process a test starts sees it: every installed game (for a test
    that checks what such a process did with the games it chose)."""
    saved = dict(registry._specs), dict(registry._problems), registry._loaded
    monkeypatch.setattr(registry, "metadata", metadata)
    registry._specs.clear()
    registry._problems.clear()
    registry._loaded = False
    yield
    registry._specs.clear()
    registry._specs.update(saved[0])
    registry._problems.clear()
    registry._problems.update(saved[1])
    registry._loaded = saved[2]


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """Every test leaves the kiosk's language as it found it, English (a test that set the
    table's language and failed, or forgot, would change what the next test on its worker
    reads)."""
    yield
    i18n = sys.modules.get("companion.kiosk.i18n")  # not imported: nothing was set
    if i18n is not None and i18n.language() != "en":
        i18n.set_language("en")


@pytest.fixture
def toy() -> Iterator[registry.GameSpec]:
    """The toy game Sticks (``tests/toygame.py``), registered for one test."""
    from tests.toygame import register_toy, unregister_toy

    spec = register_toy()
    yield spec
    unregister_toy()


# -- the tests' files in memory -----------------------------------------------------------------
# The journal commits every action with synchronous=FULL: on a disk each commit waits for an
# fsync, which cost the suite most of its wall time and a third of the CPU of the kiosk's tests.
# On Linux the tests' temporary folders (tmp_path) are made on the RAM disk /dev/shm, one folder
# for the run, removed after it; ``--basetemp`` chooses another place.


def _ram_disk() -> Path | None:
    shm = Path("/dev/shm")
    if sys.platform == "linux" and shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        return shm
    return None


_RUN_TMP = pytest.StashKey[Path]()
_SYSTEM_TMP = pytest.StashKey[Path]()


def _compiled_ahead(config: pytest.Config) -> None:
    """On a fresh clone, the project compiled and the test files rewritten (pytest's assertion
    rewriting, cached beside them) once, here, before the workers start: else each worker
    does all of it, side by side (about 6 s of CPU each).  Later runs find it done.  Pytest's
    rewriting is reached through its own private functions: if they change, the workers do it
    as before."""
    import compileall
    import re

    tests = Path(__file__).resolve().parent
    rewritten = re.compile(r"[/\\](test_[^/\\]*|conftest)\.py$")  # pytest's own, below
    for folder in (tests.parent / "companion", tests, tests.parent / "bench"):
        compileall.compile_dir(folder, quiet=2, rx=rewritten)
    try:
        from _pytest.assertion import rewrite

        if config.getoption("assertmode") != "rewrite":
            return
        state = config.stash[rewrite.assertstate_key]
        for fn in sorted(tests.glob("test_*.py")):
            cache = rewrite.get_cache_dir(fn)
            pyc = cache / (fn.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(fn, pyc) is None and rewrite.try_makedirs(cache):
                source_hash, co = rewrite._rewrite_test(fn, config)
                rewrite._write_pyc(state, co, source_hash, pyc)
    except Exception:  # noqa: BLE001 - pytest's internals moved: the workers rewrite
        return


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # xdist's worker: the main process did what follows
        return
    if getattr(config.option, "numprocesses", None) and not sys.dont_write_bytecode:
        _compiled_ahead(config)
    if config.option.basetemp:  # chosen
        return
    shm = _ram_disk()
    if shm is not None:
        base = tempfile.mkdtemp(prefix="companion-tests-", dir=shm)
        config.option.basetemp = base
        config.stash[_RUN_TMP] = Path(base)
        # What the code under test makes in the system's temporary folder (the crash test's
        # journals, the screenshot command's scratch journal), in the workers and in the
        # commands the tests run, goes to the RAM disk too: a folder beside the base one, as
        # pytest empties the base folder when it first makes a folder there; removed once the
        # workers have ended (in one process, -n0, the system's stays: what the tests leave
        # there, multiprocessing's folder for one, is removed as the process exits).
        # (The system's own is kept in COMPANION_TESTS_DISK_TMP, for a test that needs a disk.)
        if not getattr(config.option, "numprocesses", None):
            return
        scratch = tempfile.mkdtemp(prefix="companion-tests-tmp-", dir=shm)
        config.stash[_SYSTEM_TMP] = Path(scratch)
        os.environ["COMPANION_TESTS_DISK_TMP"] = tempfile.gettempdir()
        os.environ["TMPDIR"] = scratch
        tempfile.tempdir = None  # read TMPDIR again


def pytest_unconfigure(config: pytest.Config) -> None:
    for key in (_RUN_TMP, _SYSTEM_TMP):
        made = config.stash.get(key, None)
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


# -- the network marker --------------------------------------------------------------------------


@functools.cache
def _network_problem() -> str | None:
    """None when the package index pip uses answers; else why not."""
    url = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None  # a local index: nothing to reach
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        socket.create_connection((parts.hostname, port), timeout=5).close()
    except OSError as exc:
        return f"no network to {parts.hostname}:{port} ({exc})"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("network") is not None:
        problem = _network_problem()
        if problem is not None:
            pytest.skip(f"needs the network: {problem}")
