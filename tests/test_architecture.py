"""The shape of the code: layers that only point down, no game named outside its package, and a
third game that plugs in without any other file changing.

The layers::

    engine, events, paths  <-  games  <-  journal, bots  <-  {kiosk, panel, vision}
        <-  main, doctor  <-  cli  <-  __main__

Read from the source with ``ast``: every ``import`` counts, at module level or inside a
function, except those under ``if TYPE_CHECKING:`` (types only, never run).
"""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine import registry

ROOT = Path(__file__).resolve().parents[1] / "companion"

GAME_PACKAGES = ("pillars", "builders")

LAYERS: dict[str, float] = {
    "engine": 0,
    "events": 0,
    "paths": 0,
    "text": 0,
    "imagesize": 0,
    "pillars": 1,
    "builders": 1,
    "journal": 2,
    "bots": 2,
    "kiosk": 3,
    "pillars.kiosk": 3.5,
    "builders.kiosk": 3.5,
    "panel": 3,
    "vision": 3,
    "main": 4,
    "session": 4,
    "doctor": 4,
    "cli": 5,
    "__main__": 6,
    "__init__": 0,
}
"""The layer of each top-level package or module of ``companion``."""


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import that runs, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def walk(node: ast.AST) -> Iterator[ast.AST]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    yield other
                    yield from walk(other)
                continue
            yield child
            yield from walk(child)

    for node in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # "from companion import events" imports a module
                named = f"{target}.{alias.name}"
                yield (named if known_module(named) else target), node.lineno


def top(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "companion":
        return None
    if len(parts) > 2 and parts[2] == "kiosk" and parts[1] in GAME_PACKAGES:
        return f"{parts[1]}.kiosk"
    return parts[1] if len(parts) > 1 else "__init__"


def known_module(name: str) -> bool:
    rel = Path(*name.split("."))
    return (ROOT.parent / rel).with_suffix(".py").exists() or (
        ROOT.parent / rel / "__init__.py"
    ).exists()


def test_every_package_has_a_layer() -> None:
    tops = {top(m) for m, _ in modules()}
    assert tops <= set(LAYERS), f"give these a layer: {tops - set(LAYERS)}"


def test_layers_only_point_down() -> None:
    wrong = []
    for module, path in modules():
        mine = top(module)
        assert mine is not None
        for target, line in imports(module, path):
            theirs = top(target)
            if theirs is None or theirs == mine or not known_module(target):
                continue
            if LAYERS[theirs] >= LAYERS[mine]:
                wrong.append(f"{path.relative_to(ROOT.parent)}:{line} {module} -> {target}")
    assert not wrong, "imports that point up or sideways:\n" + "\n".join(wrong)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_circle_between_modules() -> None:
    """Inside a package too (the kiosk's screens navigate by name, never by import)."""
    names = {m for m, _ in modules()}
    graph: dict[str, set[str]] = {}
    for module, path in modules():
        for target, _line in imports(module, path):
            if target in names and target != module and not module.startswith(target + "."):
                graph.setdefault(module, set()).add(target)
    cycle = _cycle(graph)
    assert cycle is None, "an import circle: " + " -> ".join(cycle or [])


def test_the_engine_core_imports_no_game() -> None:
    for module, path in modules():
        if top(module) != "engine":
            continue
        for target, line in imports(module, path):
            assert top(target) in (None, "engine"), f"{module}:{line} imports {target}"


def _game_names() -> set[str]:
    return {s.name for s in registry.specs()}


def test_no_comparison_with_a_game_name_outside_the_games() -> None:
    """Everything outside a game's own package asks the registry; nothing branches on a
    game's name (``== "pillars"``, ``in ("pillars", ...)``, a dict keyed by game names)."""
    games = _game_names()
    assert {"pillars", "builders"} <= games
    allowed = {ROOT / g for g in games} | {ROOT / "engine" / "registry.py"}
    found = []
    for _module, path in modules():
        if any(path == a or a in path.parents for a in allowed):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            consts: list[ast.expr] = []
            if isinstance(node, ast.Compare):
                consts = [node.left, *node.comparators]
                for c in list(consts):
                    if isinstance(c, (ast.Tuple, ast.List, ast.Set)):
                        consts += c.elts
            elif isinstance(node, ast.Dict):
                consts = [k for k in node.keys if k is not None]
            elif isinstance(node, ast.MatchValue):
                consts = [node.value]
            for c in consts:
                if isinstance(c, ast.Constant) and c.value in games:
                    found.append(f"{path.relative_to(ROOT.parent)}:{c.lineno} {c.value!r}")
    assert not found, "branches on a game's name:\n" + "\n".join(found)


def test_the_comparison_check_can_fail(tmp_path: Path) -> None:
    """The scan above sees the forms it looks for."""
    code = 'if game == "pillars":\n    pass\nx = {"builders": 1}\ny = g in ("pillars", "z")\n'
    tree = ast.parse(code)
    seen = [
        c.value
        for node in ast.walk(tree)
        for c in (
            [node.left, *node.comparators, *[e for x in node.comparators
                                             if isinstance(x, ast.Tuple) for e in x.elts]]
            if isinstance(node, ast.Compare)
            else [k for k in node.keys if k is not None] if isinstance(node, ast.Dict) else []
        )
        if isinstance(c, ast.Constant) and c.value in _game_names()
    ]
    assert seen == ["pillars", "builders", "pillars"]


def test_the_devices_import_nothing_of_the_kiosk() -> None:
    for module, path in modules():
        if top(module) not in ("panel", "vision"):
            continue
        for target, line in imports(module, path):
            assert top(target) != "kiosk", f"{module}:{line} imports {target}"
            assert not target.startswith("pygame"), f"{module}:{line} imports pygame"


# -- a third game, registered only here ---------------------------------------------------------


@pytest.fixture
def toy() -> Iterator[registry.GameSpec]:
    from tests.toygame import register_toy, unregister_toy

    spec = register_toy()
    yield spec
    unregister_toy()


def test_a_toy_game_plays_through_the_engine_contract(toy: registry.GameSpec) -> None:
    import random

    from companion.engine import get_game, replay
    from companion.engine.simulate import random_game
    from tests.conformance import check_playthrough

    game = get_game("sticks")
    assert toy.name in registry.names() and registry.names()[:2] == ("pillars", "builders")
    setup = game.setup(3, options={"sticks": 10})
    state, actions = random_game(game, setup, random.Random(2))
    assert game.is_over(state) and len(game.winners(state)) == 1
    assert registry.spec("sticks").game().setup(3).game == "sticks"  # the spec builds it
    assert check_playthrough(game, 2, seed=5).actions  # the conformance test, unchanged
    from companion.engine import Record

    again = replay(game, Record(setup, tuple(str(a) for a in actions)))
    assert game.scores(again) == game.scores(state)
    assert game.outcome_for_card(game.initial_state(setup), "double").arg == "double"


def test_a_toy_game_gets_a_setup_screen_a_journal_entry_a_record_and_a_replay(
    toy: registry.GameSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.cli import main
    from companion.engine import get_game, replay
    from companion.kiosk.screens.end import EndScreen
    from companion.kiosk.screens.generic import GenericGameScreen
    from companion.kiosk.screens.setup import SetupScreen
    from tests.kiosk_helpers import keys, make_app, press, tap

    app = make_app(tmp_path)
    tap(app, "new")
    assert isinstance(app.screen, SetupScreen)
    assert "game sticks" in keys(app)
    tap(app, "game sticks")
    assert "players 4" not in keys(app)  # Sticks is for 2 or 3
    assert "sticks 10" in keys(app)  # its option, from the registry record
    tap(app, "players 2")
    tap(app, "sticks 10")
    tap(app, "start")
    assert isinstance(app.screen, GenericGameScreen)
    assert app.session is not None and app.session.game.name == "sticks"
    game_id = app.session.id
    for _ in range(60):
        if isinstance(app.screen, EndScreen):
            break
        if "virtual" in keys(app):
            press(app, "draw")
        else:
            tap(app, next(k for k in keys(app) if k.startswith("take ")))
    assert isinstance(app.screen, EndScreen)
    assert app.journal is not None
    record = app.journal.record(game_id)
    assert record.setup.game == "sticks" and record.setup.options == {"sticks": 10}
    final = replay(get_game("sticks"), record)
    assert get_game("sticks").is_over(final)
    info = app.journal.get(game_id)
    assert info.status == "finished" and info.winners == get_game("sticks").winners(final)
    play = app.journal.bgstats(game_id)
    assert play["game"]["name"] == "Sticks" and "bggId" not in play["game"]
    path = tmp_path / "sticks.json"
    path.write_text(record.dumps(), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winners"] == info.winners and out["sticks"] == 0
    app.journal.close()
