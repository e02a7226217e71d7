"""The shape of the code: layers that only point down, no game named outside its package, and a
third game that plugs in without any other file changing.

The layers::

    engine, events, paths  <-  games' rules  <-  journal, bots  <-  {kiosk, panel, vision}
        <-  each game's kiosk subpackage  <-  main, doctor  <-  cli  <-  __main__

A game is one folder, ``companion/<game>/``: its rules (layer 1) and its ``kiosk`` subpackage
(its table screen, words, scenes: above ``companion.kiosk``, which it may import).  The kiosk core
imports no game package; a game's rules import neither the kiosk nor their own kiosk subpackage,
except the spec's declared loaders (``GameSpec.screen``, ``words``, ``scenes``): imports inside a
function of ``companion.<game>.spec``, of that game's own kiosk subpackage, run only when the
kiosk calls them.  The games are the packages of the registered specs' rules.

Read from the source with ``ast``: every ``import`` counts, at module level or inside a
function, except those under ``if TYPE_CHECKING:`` (types only, never run).  Each check is a
function of a source tree, run on the real one and, to show it can fail, on a planted one.
"""

from __future__ import annotations

import ast
import functools
import gc
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.engine import registry

ROOT = Path(__file__).resolve().parents[1] / "companion"

GAME_KIOSK = "game kiosk"
"""The layer name of every game's ``kiosk`` subpackage."""

GAMES_LAYER = "games"
"""The layer name of every game's rules (the rest of its package)."""

LAYERS: dict[str, int] = {
    "engine": 0,
    "events": 0,
    "paths": 0,
    "text": 0,
    "imagesize": 0,
    GAMES_LAYER: 1,
    "journal": 2,
    "bots": 2,
    "kiosk": 3,
    "panel": 3,
    "vision": 3,
    GAME_KIOSK: 4,
    "main": 5,
    "session": 5,
    "doctor": 5,
    "testing": 5,
    "cli": 6,
    "__main__": 7,
    "__init__": 0,
}
"""The layer of each top-level package or module of ``companion`` (the games by kind)."""


def _parsed(path: Path) -> ast.Module:
    """The syntax tree of the file at ``path``, parsed once while the file is unchanged (the
    tests below walk the same modules each; none changes a tree)."""
    stat = path.stat()
    return _parse(path, stat.st_mtime_ns, stat.st_size)


@functools.cache
def _parse(path: Path, _mtime: int, _size: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@pytest.fixture(autouse=True, scope="module")
def _trees_forgotten() -> Iterator[None]:
    """The syntax trees parsed here are dropped once this file's tests are done: kept, their
    million objects made every later full collection of the worker's garbage collector
    several times slower.  While they are read, the collector waits (the trees hold no cycle:
    the five full collections their making set off looked at them all for nothing, half a
    second); what the tests leave in cycles meanwhile is collected after them."""
    gc.disable()
    try:
        yield
    finally:
        _parse.cache_clear()
        Tree._imports.cache_clear()
        gc.enable()


def game_packages() -> frozenset[str]:
    """The top-level packages of ``companion`` that hold a registered game's rules."""
    found = set()
    for spec in registry.specs():
        parts = spec.rules.__module__.split(".")
        if parts[0] == "companion" and len(parts) > 2:
            found.add(parts[1])
    return frozenset(found)


@dataclass(frozen=True)
class Tree:
    """A source tree to check: the ``companion`` folder and which of its packages are games."""

    root: Path
    games: frozenset[str]

    def modules(self) -> Iterator[tuple[str, Path]]:
        for path in sorted(self.root.rglob("*.py")):
            rel = path.relative_to(self.root.parent).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            yield ".".join(parts), path

    def known_module(self, name: str) -> bool:
        rel = Path(*name.split("."))
        return (self.root.parent / rel).with_suffix(".py").exists() or (
            self.root.parent / rel / "__init__.py"
        ).exists()

    def imports(self, module: str, path: Path, *, typing: bool = False) -> Iterator[Import]:
        """Every import that runs, relative ones resolved (with ``typing``, those only the
        type checker reads too: under ``if TYPE_CHECKING:``)."""
        stat = path.stat()  # read once while the file is unchanged, as ``_parsed`` is
        return iter(self._imports(module, path, typing, stat.st_mtime_ns, stat.st_size))

    @functools.cache  # noqa: B019 (a few trees per run; emptied with ``_parse``'s cache)
    def _imports(self, module: str, path: Path, typing: bool, _mtime: int, _size: int
                 ) -> tuple[Import, ...]:
        return tuple(self._walk_imports(module, path, typing))

    def _walk_imports(self, module: str, path: Path, typing: bool) -> Iterator[Import]:
        tree = _parsed(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]

        def walk(node: ast.AST, nested: bool) -> Iterator[tuple[ast.AST, bool]]:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _type_checking(child) and not typing:
                    for other in child.orelse:
                        yield other, nested
                        yield from walk(other, nested)
                    continue
                yield child, nested
                inner = nested or isinstance(
                    child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
                )
                yield from walk(child, inner)

        for node, nested in walk(tree, False):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield Import(alias.name, node.lineno, nested)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:  # "from companion import events" imports a module
                    named = f"{target}.{alias.name}"
                    yield Import(named if self.known_module(named) else target, node.lineno, nested)

    def layer(self, module: str) -> str | None:
        """The layer name of ``module`` (None outside ``companion``)."""
        parts = module.split(".")
        if parts[0] != "companion":
            return None
        if len(parts) == 1:
            return "__init__"
        if parts[1] in self.games:
            return GAME_KIOSK if len(parts) > 2 and parts[2] == "kiosk" else GAMES_LAYER
        return parts[1]

    def game_of(self, module: str) -> str | None:
        parts = module.split(".")
        inside = len(parts) > 1 and parts[0] == "companion" and parts[1] in self.games
        return parts[1] if inside else None


@dataclass(frozen=True)
class Import:
    target: str
    line: int
    nested: bool
    """Inside a function: runs only when the function is called."""


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def real_tree() -> Tree:
    return Tree(ROOT, game_packages())


def _is_spec_loader(tree: Tree, module: str, imp: Import) -> bool:
    """The one import allowed to point up: a game's spec loading its own kiosk subpackage from
    inside a function (a declared loader, called by the kiosk)."""
    game = tree.game_of(module)
    return (
        game is not None
        and imp.nested
        and module == f"companion.{game}.spec"
        and (imp.target + ".").startswith(f"companion.{game}.kiosk.")
    )


def layer_violations(tree: Tree) -> list[str]:
    """Every import that points up or sideways, as ``path:line module -> target (why)``."""
    wrong = []
    for module, path in tree.modules():
        mine = tree.layer(module)
        assert mine is not None
        my_game = tree.game_of(module)
        for imp in tree.imports(module, path):
            target = imp.target
            theirs = tree.layer(target)
            if theirs is None or not tree.known_module(target):
                continue
            where = f"{path.relative_to(tree.root.parent)}:{imp.line} {module} -> {target}"
            their_game = tree.game_of(target)
            if mine == "kiosk" and their_game is not None:
                wrong.append(f"{where} (the kiosk core imports a game)")
            elif my_game is not None and their_game is not None and their_game != my_game:
                wrong.append(f"{where} (another game)")
            elif my_game is not None and their_game == my_game:
                # Inside one game: its kiosk may import its rules, never the other way round.
                up = mine == GAMES_LAYER and theirs == GAME_KIOSK
                if up and not _is_spec_loader(tree, module, imp):
                    wrong.append(f"{where} (a game's rules import its kiosk)")
            elif theirs == mine:
                continue  # inside one package
            elif LAYERS[theirs] >= LAYERS[mine]:
                wrong.append(f"{where} (up or sideways)")
    return wrong


def test_every_package_has_a_layer() -> None:
    tree = real_tree()
    tops = {tree.layer(m) for m, _ in tree.modules()}
    assert tops <= set(LAYERS), f"give these a layer: {tops - set(LAYERS)}"
    assert {"pillars", "builders"} <= tree.games


def test_layers_only_point_down() -> None:
    wrong = layer_violations(real_tree())
    assert not wrong, "imports that point up or sideways:\n" + "\n".join(wrong)


def test_the_kiosk_core_imports_no_game() -> None:
    """Said by the layer check above; here on its own, with the kiosk core's imports listed, so
    that a change to the layer table cannot quietly allow it."""
    tree = real_tree()
    for module, path in tree.modules():
        if tree.layer(module) != "kiosk":
            continue
        for imp in tree.imports(module, path):
            assert tree.game_of(imp.target) is None, f"{module}:{imp.line} imports {imp.target}"


def test_the_games_rules_import_no_kiosk_but_the_spec_loaders() -> None:
    tree = real_tree()
    loaders = []
    for module, path in tree.modules():
        if tree.layer(module) != GAMES_LAYER:
            continue
        for imp in tree.imports(module, path):
            assert tree.layer(imp.target) != "kiosk", f"{module}:{imp.line} imports {imp.target}"
            if tree.layer(imp.target) == GAME_KIOSK:
                assert _is_spec_loader(tree, module, imp), f"{module}:{imp.line} {imp.target}"
                loaders.append(module)
    assert {f"companion.{g}.spec" for g in ("pillars", "builders")} <= set(loaders)


def _plant(tmp_path: Path, files: dict[str, str]) -> Tree:
    root = tmp_path / "companion"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Tree(root, frozenset({"dice", "cards"}))


def test_the_layer_check_can_fail(tmp_path: Path) -> None:
    """The same check, on a planted tree: each forbidden import is found, the allowed ones not."""
    tree = _plant(
        tmp_path,
        {
            "kiosk/__init__.py": "",
            "kiosk/words.py": "from companion.dice import rules\n",  # core -> game
            "engine/__init__.py": "import companion.kiosk\n",  # engine -> kiosk
            "dice/__init__.py": "",
            "dice/rules.py": "def f():\n    from .kiosk import screen\n",  # not the spec
            "dice/spec.py": (
                "from .kiosk import words\n"  # the spec, but at module level
                "def screen():\n    from .kiosk.screen import S\n    return S\n"  # allowed
                "def other():\n    from companion.cards.kiosk import screen\n"  # another game
            ),
            "dice/kiosk/__init__.py": "",
            "dice/kiosk/screen.py": "from companion.kiosk import words\nfrom .. import rules\n",
            "dice/kiosk/words.py": "from companion.dice import spec\n",
            "cards/__init__.py": "from companion.kiosk import words\n",  # rules -> kiosk
            "cards/kiosk/__init__.py": "",
            "cards/kiosk/screen.py": "from companion.dice.kiosk import screen\n",  # sideways
        },
    )
    found = {line.split(" ", 1)[1] for line in layer_violations(tree)}
    assert found == {
        "companion.kiosk.words -> companion.dice.rules (the kiosk core imports a game)",
        "companion.engine -> companion.kiosk (up or sideways)",
        "companion.dice.rules -> companion.dice.kiosk.screen (a game's rules import its kiosk)",
        "companion.dice.spec -> companion.dice.kiosk.words (a game's rules import its kiosk)",
        "companion.dice.spec -> companion.cards.kiosk.screen (another game)",
        "companion.cards -> companion.kiosk.words (up or sideways)",
        "companion.cards.kiosk.screen -> companion.dice.kiosk.screen (another game)",
    }, found


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


def import_graph(tree: Tree, *, typing: bool = False) -> dict[str, set[str]]:
    """Which modules each module imports (with ``typing``, for its types too)."""
    names = {m for m, _ in tree.modules()}
    graph: dict[str, set[str]] = {}
    for module, path in tree.modules():
        for imp in tree.imports(module, path, typing=typing):
            target = imp.target
            if target in names and target != module and not module.startswith(target + "."):
                graph.setdefault(module, set()).add(target)
    return graph


def import_circle(tree: Tree) -> list[str] | None:
    """An import circle between modules (the spec loaders' imports count: they run)."""
    return _cycle(import_graph(tree))


def test_no_import_circle_between_modules() -> None:
    """Inside a package too (the kiosk's screens navigate by name, never by import)."""
    cycle = import_circle(real_tree())
    assert cycle is None, "an import circle: " + " -> ".join(cycle or [])


def test_the_circle_check_can_fail(tmp_path: Path) -> None:
    tree = _plant(
        tmp_path,
        {
            "dice/__init__.py": "",
            "dice/spec.py": "def screen():\n    from .kiosk import screen\n",
            "dice/kiosk/__init__.py": "",
            "dice/kiosk/screen.py": "from companion.dice import spec\n",
        },
    )
    assert import_circle(tree) == [
        "companion.dice.kiosk.screen",
        "companion.dice.spec",
        "companion.dice.kiosk.screen",
    ]


def test_the_engine_core_imports_no_game() -> None:
    tree = real_tree()
    for module, path in tree.modules():
        if tree.layer(module) != "engine":
            continue
        for imp in tree.imports(module, path):
            assert tree.layer(imp.target) in (None, "engine"), f"{module}:{imp.line} {imp.target}"


def _game_names() -> set[str]:
    return {s.name for s in registry.specs()}


def name_comparisons(tree: Tree, games: set[str]) -> list[str]:
    """Every comparison with a game's name (``== "pillars"``, ``in ("pillars", ...)``, a dict
    keyed by game names, a ``case "pillars":``) outside the game packages and the registry."""
    allowed = {tree.root / g for g in tree.games} | {tree.root / "engine" / "registry.py"}
    found = []
    for _module, path in tree.modules():
        if any(path == a or a in path.parents for a in allowed):
            continue
        parsed = _parsed(path)
        for node in ast.walk(parsed):
            consts: list[ast.expr] = []
            if isinstance(node, ast.Compare):
                consts = [node.left, *node.comparators]
                for c in list(consts):
                    if isinstance(c, ast.Tuple | ast.List | ast.Set):
                        consts += c.elts
            elif isinstance(node, ast.Dict):
                consts = [k for k in node.keys if k is not None]
            elif isinstance(node, ast.MatchValue):
                consts = [node.value]
            for c in consts:
                if isinstance(c, ast.Constant) and c.value in games:
                    found.append(f"{path.relative_to(tree.root.parent)}:{c.lineno} {c.value!r}")
    return found


def test_no_comparison_with_a_game_name_outside_the_games() -> None:
    """Everything outside a game's own package asks the registry; nothing branches on a
    game's name."""
    games = _game_names()
    assert {"pillars", "builders"} <= games
    found = name_comparisons(real_tree(), games)
    assert not found, "branches on a game's name:\n" + "\n".join(found)


def test_the_comparison_check_can_fail(tmp_path: Path) -> None:
    """The same scan, on a planted tree: it sees every form it looks for, outside the games."""
    code = (
        'if game == "dice":\n    pass\n'
        'x = {"cards": 1}\n'
        'y = g in ("dice", "z")\n'
        'match g:\n    case "cards":\n        pass\n'
    )
    tree = _plant(tmp_path, {"kiosk/__init__.py": "", "kiosk/x.py": code, "dice/rules.py": code})
    assert name_comparisons(tree, {"dice", "cards"}) == [
        "companion/kiosk/x.py:1 'dice'",
        "companion/kiosk/x.py:3 'cards'",
        "companion/kiosk/x.py:4 'dice'",
        "companion/kiosk/x.py:6 'cards'",
    ]


# -- the bots and the engine know no game's words ---------------------------------------------

KNOWING = ("bots", "engine")
"""The packages that know every game only through the engine's contract and what a game's
spec declares (its signals, its strengths): they name no game and none of a game's own
words."""

COINCIDENCES = {
    "workers": "a search's worker processes (bots/search.py, bots/parallel.py)",
}
"""Words of a game that the bots also use for something of their own, with what."""


def contract_words() -> frozenset[str]:
    """The words of the engine's contract with every game, which a game's own may share
    (``score``, ``turn``, ``round``): the public names, fields and parameters of the
    contract's types, the period kinds, the ledger's tag for points, the summary's signals,
    and Python's builtins."""
    import builtins
    import inspect

    from companion.engine import core, ledger, record, signals, sim, summary

    types: tuple[type, ...] = (
        core.Game, core.Setup, core.PlayerSpec, core.Option, core.Step, summary.Period,
        summary.Summary, summary.PlayerResult, ledger.Entry, ledger.Ledger, ledger.Cause,
        registry.GameSpec, registry.CardInfo, registry.TableZone, record.Record,
        sim.SimState, sim.Simulator, signals.Signals, signals.Model,
    )
    words = {*dir(builtins), *summary.PERIOD_KINDS, ledger.POINTS, *signals.SUMMARY_SIGNALS}
    for kind in types:
        words |= {name for name in dir(kind) if not name.startswith("_")}
        words |= set(getattr(kind, "__dataclass_fields__", ()))
        for member in vars(kind).values():
            if callable(member):
                words |= set(inspect.signature(member).parameters)
    return frozenset(words)


def _fields(value: object, seen: set[int]) -> set[str]:
    """The field names of a dataclass and of the dataclasses it holds."""
    import dataclasses

    if id(value) in seen:
        return set()
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name for f in dataclasses.fields(value)}
        for f in dataclasses.fields(value):
            out |= _fields(getattr(value, f.name), seen)
        return out
    if isinstance(value, list | tuple):
        return set().union(*(_fields(v, seen) for v in value[:64]))
    if isinstance(value, dict):
        return set().union(*(_fields(v, seen) for v in list(value.values())[:64]))
    return set()


def _keys(value: object) -> set[str]:
    """The keys of a JSON value's objects, at every depth."""
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def game_words(spec: registry.GameSpec) -> frozenset[str]:
    """A game's own words: its name, the fields of its state (and of what the state holds),
    the keys of its summary and the names of its signals (those it declares and those its
    simulation path measures), at the start and the end of a random game at its largest
    table, less the contract's (:func:`contract_words`)."""
    import random

    from companion.engine.signals import declared_signals
    from companion.engine.sim import simulator
    from companion.engine.simulate import random_game

    game = spec.game()
    setup = game.setup(min(spec.max_players, 4))
    end, _ = random_game(game, setup, random.Random(1))
    words = {spec.name, *declared_signals(game).names}
    words |= set(getattr(simulator(game).start(setup), "SIGNALS", ()))
    for state in (game.initial_state(setup), end):
        words |= _fields(state, set()) | _keys(game.summary(state).to_json())
    return frozenset(words - contract_words())


def named_words(tree: Tree, words: dict[str, frozenset[str]]) -> list[str]:
    """Every place in the bots and the engine (:data:`KNOWING`) that names a game or one of
    its words (``words``: by game) as a string that is not a docstring (or a game's name in
    one: ``"dice/4"``), an attribute, a keyword, a class's field or a function's name: what
    reads or builds a game's things (comments, docstrings and local variables may name
    them)."""
    owner: dict[str, str] = {}
    for game, own in sorted(words.items()):
        for word in sorted(own):
            if word not in COINCIDENCES:
                owner.setdefault(word, game)
    found = []
    for _module, path in tree.modules():
        if path.relative_to(tree.root).parts[0] not in KNOWING:
            continue
        parsed = _parsed(path)
        prose = {
            id(node.value) for node in ast.walk(parsed)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        fields = {
            id(target) for node in ast.walk(parsed) if isinstance(node, ast.ClassDef)
            for line in node.body if isinstance(line, ast.AnnAssign | ast.Assign)
            for target in (line.targets if isinstance(line, ast.Assign) else [line.target])
        }
        for node in ast.walk(parsed):
            named: str | None = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                named = None if id(node) in prose else node.value
            elif isinstance(node, ast.Name) and id(node) in fields:
                named = node.id
            elif isinstance(node, ast.Attribute):
                named = node.attr
            elif isinstance(node, ast.keyword):
                named = node.arg
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                named = node.name
            if named is None:
                continue
            where = f"{path.relative_to(tree.root.parent)}:{getattr(node, 'lineno', 0)}"
            if named in owner:
                found.append(f"{where} {named!r} ({owner[named]})")
            elif isinstance(node, ast.Constant):  # a game's name inside a string: "dice/4"
                found += [f"{where} {named!r} ({w})" for w in re.findall(r"[a-z0-9]+", named)
                          if w in words]
    return sorted(set(found), key=_by_place)


def _by_place(line: str) -> tuple[str, int, str]:
    path, _, rest = line.partition(":")
    number, _, what = rest.partition(" ")
    return path, int(number), what


def test_the_bots_and_the_engine_name_no_game_nor_its_words() -> None:
    """The companion knows a game through the game: what it judges it by and the bot each
    strength plays are the game's own declarations (``GameSpec.signals``,
    ``GameSpec.strengths``), so the bots and the engine never speak a game's words (gold,
    coins, craftsmen, sites...)."""
    words = {spec.name: game_words(spec) for spec in registry.specs()}
    assert {"gold", "craftsmen", "pillars"} <= words["pillars"]
    assert {"coins", "idle", "sites", "builders"} <= words["builders"]
    assert {"pawns", "dicerace"} <= words["dicerace"]
    assert not {"score", "turn", "setup", "vp"} & words["builders"]  # the contract's own
    found = named_words(real_tree(), words)
    assert not found, "the bots or the engine speak a game's words:\n" + "\n".join(found)


def test_the_words_check_can_fail(tmp_path: Path) -> None:
    """The same scan, on a planted tree: a game's name, its fields read from a summary or a
    state, its signals, a field and a keyword of the same name, in the bots and the engine;
    prose, the contract's words, a coincidence and the games' own packages are let be."""
    code = (
        '"""The dice\'s gold."""\n'
        'def judge(p, f):\n'
        '    """Reads gold."""\n'
        '    x = p.get("gold", p.get("coins", 0))  # gold\n'
        '    return f.craftsmen + Model("dice", ("vp", "left*gold"), (1, 2), 3).scale\n'
        'class Features:\n'
        '    idle: float\n'
        '    """The idle ones."""\n'
        'y = Features(idle=1, score=2)\n'
        'def run(workers, turn, gold):\n'
        '    return workers.workers + gold + {"dice/4": 1, "cards": 2, "dicey": 3}\n'
    )
    tree = _plant(tmp_path, {"bots/__init__.py": "", "bots/x.py": code, "engine/__init__.py": "",
                             "engine/y.py": "def f(s):\n    return s.sites\n",
                             "kiosk/__init__.py": "", "kiosk/z.py": code, "dice/rules.py": code})
    words = {"dice": frozenset({"dice", "gold", "craftsmen", "left*gold", "workers"}),
             "cards": frozenset({"coins", "idle", "sites"})}
    assert named_words(tree, words) == [
        "companion/bots/x.py:4 'coins' (cards)",
        "companion/bots/x.py:4 'gold' (dice)",
        "companion/bots/x.py:5 'craftsmen' (dice)",
        "companion/bots/x.py:5 'dice' (dice)",
        "companion/bots/x.py:5 'left*gold' (dice)",
        "companion/bots/x.py:7 'idle' (cards)",
        "companion/bots/x.py:9 'idle' (cards)",
        "companion/bots/x.py:11 'cards' (cards)",
        "companion/bots/x.py:11 'dice/4' (dice)",
        "companion/engine/y.py:2 'sites' (cards)",
    ]


def test_the_devices_import_nothing_of_the_kiosk() -> None:
    tree = real_tree()
    for module, path in tree.modules():
        if tree.layer(module) not in ("panel", "vision"):
            continue
        for imp in tree.imports(module, path):
            assert tree.layer(imp.target) not in ("kiosk", GAME_KIOSK), f"{module}:{imp.line}"
            assert not imp.target.startswith("pygame"), f"{module}:{imp.line} imports pygame"


def test_reading_a_spec_imports_no_pygame() -> None:
    """The spec's loaders are lazy: the registry, the engine and the bots never bring pygame."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from companion.engine import registry\n"
        "from companion.engine.sim import simulator\n"
        "for s in registry.specs():\n"
        "    for load in (s.screen, s.words, s.scenes, s.simulator):\n"
        "        assert load is None or callable(load), s.name\n"
        "    simulator(s.game())\n"
        "assert sum(1 for s in registry.specs() if s.screen and s.words and s.scenes) >= 2\n"
        "assert 'pygame' not in sys.modules and 'companion.kiosk' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT.parent)


# -- a third game, registered only here (the ``toy`` fixture: tests/conftest.py) ----------------


def test_a_toy_game_plays_through_the_engine_contract(toy: registry.GameSpec) -> None:
    import random

    from companion.engine import get_game, replay
    from companion.engine.simulate import random_game
    from companion.testing import check_playthrough

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


# -- the kiosk's size and its typed seam ------------------------------------------------------

MAX_CLASS_LINES = 400
MAX_FUNCTION_LINES = 60
"""No class over 400 lines and no function (or method) over 60 in any kiosk code: a screen is
composed of panels and collaborators with their own state, not grown in one body."""

SEAM_NAMES = frozenset(
    {"state", "app", "action", "before", "after", "game", "screen", "journal", "setup",
     "session"}
)
"""The names of the seam between the kiosk and a game: a parameter or attribute so named is
typed (a TypeVar, a Protocol of what is asked, the game's own type, or ``object`` where the code
cannot know the game), never ``Any``."""

PENDING_ELSEWHERE: frozenset[str] = frozenset()
"""Kiosk files other engineers are bringing within the rules below on their own branches (paths
from the project's root; only their files, never the kiosk core's).  The lead empties this set
when merging their work; a file listed here that already keeps the rules fails the test, so the
set cannot outlive its reason."""


def kiosk_sources(tree: Tree, outside: tuple[Path, ...] = ()) -> list[Path]:
    """Every kiosk source file: the core (``companion/kiosk``), each game's ``kiosk``
    subpackage, and ``outside``: the kiosk modules of games installed from elsewhere."""
    folders = [tree.root / "kiosk", *(tree.root / g / "kiosk" for g in sorted(tree.games))]
    found = [p for f in folders if f.is_dir() for p in sorted(f.rglob("*.py"))]
    return found + [p for p in outside if p not in found]


def outside_kiosk_sources() -> tuple[Path, ...]:
    """The kiosk modules of the registered games that live outside ``companion`` (the third
    game in ``tests/thirdgame``): what their spec's screen, words and scenes load, with the
    whole ``kiosk`` subpackage where the game has one."""
    import inspect

    found: list[Path] = []
    for spec in registry.specs():
        if spec.rules.__module__.startswith("companion."):
            continue
        for load in (spec.screen, spec.words, spec.scenes):
            if load is None:
                continue
            source = inspect.getsourcefile(load())
            assert source is not None, f"{spec.name}: a loader gives no source file"
            path = Path(source).resolve()
            kiosk = next((p for p in path.parents if p.name == "kiosk"), None)
            found += sorted(kiosk.rglob("*.py")) if kiosk is not None else [path]
    return tuple(dict.fromkeys(found))


def _mentions_any(annotation: ast.expr) -> bool:
    """True when an annotation names ``typing.Any`` anywhere (``Any``, ``Any | None``,
    ``Game[Any, Any]``, ``"Any"``)."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id == "Any":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Any":
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                inner = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                continue
            if _mentions_any(inner):
                return True
    return False


def _where(path: Path, base: Path, line: int) -> str:
    try:
        return f"{path.relative_to(base)}:{line}"
    except ValueError:
        return f"{path}:{line}"


def oversized(paths: list[Path], base: Path) -> list[str]:
    """Every class over MAX_CLASS_LINES and function over MAX_FUNCTION_LINES lines (from its
    ``def`` or ``class`` line, decorators apart, to its last line)."""
    found = []
    for path in paths:
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.ClassDef):
                limit, kind = MAX_CLASS_LINES, "class"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                limit, kind = MAX_FUNCTION_LINES, "function"
            else:
                continue
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            if lines > limit:
                where = _where(path, base, node.lineno)
                found.append(f"{where} {kind} {node.name}: {lines} lines")
    return found


def seam_any(paths: list[Path], base: Path) -> list[str]:
    """Every parameter (of a function or a lambda) and every annotated attribute or variable
    named in SEAM_NAMES whose annotation mentions ``Any``."""
    found = []
    for path in paths:
        for node in ast.walk(_parsed(path)):
            named: list[tuple[str, ast.expr | None, int]] = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                a = node.args
                every = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                named = [(x.arg, x.annotation, x.lineno) for x in every if x is not None]
            elif isinstance(node, ast.AnnAssign):
                target = node.target
                name = target.id if isinstance(target, ast.Name) else (
                    target.attr if isinstance(target, ast.Attribute) else "")
                named = [(name, node.annotation, node.lineno)]
            for name, annotation, line in named:
                if name in SEAM_NAMES and annotation is not None and _mentions_any(annotation):
                    found.append(f"{_where(path, base, line)} {name}: {ast.unparse(annotation)}")
    return found


def _pending(found: list[str]) -> tuple[list[str], set[str]]:
    """The findings outside PENDING_ELSEWHERE, and the pending files that had any."""
    kept, hit = [], set()
    for line in found:
        path = line.split(":", 1)[0]
        if path in PENDING_ELSEWHERE:
            hit.add(path)
        else:
            kept.append(line)
    return kept, hit


def _real_kiosk() -> tuple[list[Path], Path]:
    tree = real_tree()
    return kiosk_sources(tree, outside_kiosk_sources()), tree.root.parent


def test_the_kiosk_sources_are_every_kiosk_and_the_outside_games() -> None:
    paths, base = _real_kiosk()
    names = {_where(p, base, 0).rsplit(":", 1)[0] for p in paths}
    assert {"companion/kiosk/app.py", "companion/kiosk/screens/base.py",
            "companion/pillars/kiosk/screen.py", "companion/builders/kiosk/screen.py"} <= names
    assert any(n.endswith("dicerace/words.py") for n in names), "the third game's words"
    assert not any(n.startswith(("companion/pillars/rules", "companion/engine")) for n in names)
    assert names >= PENDING_ELSEWHERE, PENDING_ELSEWHERE - names


def test_no_kiosk_class_or_function_is_oversized() -> None:
    paths, base = _real_kiosk()
    kept, hit = _pending(oversized(paths, base))
    _kept_any, hit_any = _pending(seam_any(paths, base))
    clean = PENDING_ELSEWHERE - hit - hit_any
    assert not clean, f"these keep the rules now: take them out of PENDING_ELSEWHERE: {clean}"
    assert not kept, "split these (a panel or a collaborator with its own state):\n" + "\n".join(
        kept)


def test_no_any_at_the_kiosk_seam() -> None:
    paths, base = _real_kiosk()
    kept, _hit = _pending(seam_any(paths, base))
    assert not kept, "type these (a TypeVar, a Protocol, the game's type or object):\n" + (
        "\n".join(kept))


def test_the_size_and_seam_checks_can_fail(tmp_path: Path) -> None:
    """The same checks, on a planted tree: each kind of fault is found (in the core, in a
    game's kiosk and outside), the limits themselves are allowed, a game's rules are not
    kiosk code."""
    methods = "".join(f"    def f{k}(self) -> None:\n        x = 1\n" for k in range(200))
    big_class = "class Big:\n" + methods  # 401 lines of small methods
    fits_class = 'class Fits:\n    """400 lines"""\n' + methods[: methods.index("    def f199")]
    long_def = "def long() -> None:\n" + "    x = 1\n" * MAX_FUNCTION_LINES
    fits_def = "def fits() -> None:\n" + "    x = 1\n" * (MAX_FUNCTION_LINES - 1)
    seam = (
        "from typing import Any\nimport typing\n"
        "def f(state: Any, app: object, *, action: 'Any | None' = None) -> None:\n"
        "    self.screen: typing.Any = None\n"
        "    game: Game[Any, Any] = g\n"
        "    other: Any = None\n"  # not a seam name
        "g = lambda before: before\n"  # not annotated: mypy strict's business
        "def h(after: S, journal: Journal, setup: Setup, session: JournaledGame) -> None: ...\n"
    )
    tree = _plant(
        tmp_path,
        {
            "kiosk/__init__.py": "",
            "kiosk/big.py": big_class + fits_class,
            "kiosk/screens/long.py": long_def + fits_def,
            "kiosk/seam.py": seam,
            "dice/__init__.py": "",
            "dice/rules.py": long_def + seam,  # a game's rules: not the kiosk
            "dice/kiosk/__init__.py": "",
            "dice/kiosk/screen.py": "def f(app: Any) -> None: ...\n",
        },
    )
    outside = tmp_path / "elsewhere" / "words.py"
    outside.parent.mkdir()
    outside.write_text(long_def, encoding="utf-8")
    paths = kiosk_sources(tree, (outside,))
    base = tree.root.parent
    assert oversized(paths, base) == [
        "companion/kiosk/big.py:1 class Big: 401 lines",
        "companion/kiosk/screens/long.py:1 function long: 61 lines",
        "elsewhere/words.py:1 function long: 61 lines",
    ]
    assert seam_any(paths, base) == [
        "companion/kiosk/seam.py:3 state: Any",
        "companion/kiosk/seam.py:3 action: 'Any | None'",
        "companion/kiosk/seam.py:4 screen: typing.Any",
        "companion/kiosk/seam.py:5 game: Game[Any, Any]",
        "companion/dice/kiosk/screen.py:1 app: Any",
    ]


def test_a_spec_loader_that_gives_the_wrong_kind_is_refused_by_name(
    tmp_path: Path, toy: registry.GameSpec
) -> None:
    """The spec's screen and words loaders are typed ``object`` at the seam (the engine cannot
    name the kiosk's classes): the kiosk checks what they give, and says which game's loader
    gave what, instead of failing later on a missing method."""
    import dataclasses

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.kiosk.catalogue import game_tables
    from companion.kiosk.words import _words
    from tests.kiosk_helpers import make_app

    registry.unregister(toy.name)
    registry.register(dataclasses.replace(
        toy, screen=lambda: lambda app: "a table", words=lambda: lambda spec: "words"))
    app = make_app(tmp_path)
    try:
        assert app.journal is not None
        app.session = app.journal.start(registry.get_game(toy.name).setup(2), seed=0)
        with pytest.raises(TypeError, match="sticks spec's screen loader made 'a table'"):
            app.open_game()
        _words.cache_clear()
        with pytest.raises(TypeError, match="sticks spec's words loader made"):
            _words(toy.name)
        with pytest.raises(TypeError, match="sticks spec's words loader made"):
            game_tables(toy.name)
    finally:
        _words.cache_clear()
        registry.unregister(toy.name)
        registry.register(toy)
        if app.journal is not None:
            app.journal.close()


# -- the kiosk's public API and its typed context ------------------------------------------------
KIOSK_API = "companion.kiosk.api"


def beside_the_api(tree: Tree, outside: tuple[Path, ...] = ()) -> list[str]:
    """Every import of the kiosk core by a game's kiosk (its ``kiosk`` subpackage, or what an
    outside game's spec loads), at any depth and for its types too, that is not
    :data:`KIOSK_API`, as ``path:line target``."""
    def kiosk_core(module: str, path: Path) -> Iterator[Import]:
        for imp in tree.imports(module, path, typing=True):
            if tree.layer(imp.target) == "kiosk" and imp.target != KIOSK_API:
                yield imp

    found = []
    for module, path in tree.modules():
        if tree.layer(module) == GAME_KIOSK:
            found += [f"{_where(path, tree.root.parent, imp.line)} {imp.target}"
                      for imp in kiosk_core(module, path)]
    for path in outside:
        found += [f"{path}:{imp.line} {imp.target}" for imp in kiosk_core("", path)]
    return found


def test_a_games_kiosk_imports_only_the_kiosk_api() -> None:
    """The project's games and the third game (``tests/thirdgame``) alike: what a game's
    screen, words, panels and scenes use of the kiosk is ``companion.kiosk.api``."""
    wrong = beside_the_api(real_tree(), outside_kiosk_sources())
    assert not wrong, "import these from companion.kiosk.api:\n" + "\n".join(wrong)


def app_circle(tree: Tree) -> tuple[list[str], list[str]]:
    """The modules in an import circle with the app when the imports for types count too, and
    the modules that import the app at all (for their types too)."""
    graph = import_graph(tree, typing=True)
    app = "companion.kiosk.app"

    def reach(edges: dict[str, set[str]]) -> set[str]:
        seen: set[str] = set()
        todo = [app]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    back: dict[str, set[str]] = {}
    for module, targets in graph.items():
        for target in targets:
            back.setdefault(target, set()).add(module)
    return sorted(reach(graph) & reach(back)), sorted(back.get(app, ()))


def test_no_screen_knows_the_app() -> None:
    """A screen, a panel, a game's kiosk and the app's own parts know the kiosk through the
    typed context (``kiosk/context.py``), never the app: no circle through the app even for
    the type checker, and only the composition root and the screenshot harness (which make
    an app) import it."""
    circle, importers = app_circle(real_tree())
    assert circle == [], "in a circle with the app: " + ", ".join(circle)
    assert importers == ["companion.kiosk.screenshots", "companion.main"]


def test_the_api_and_app_checks_can_fail(tmp_path: Path) -> None:
    tree = _plant(
        tmp_path,
        {
            "kiosk/__init__.py": "",
            "kiosk/api.py": "from .ui import draw\n",
            "kiosk/ui.py": "def draw(): ...\n",
            "kiosk/app.py": "from .screens import home\n",
            "kiosk/screens/__init__.py": "",
            "kiosk/screens/home.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from companion.kiosk.app import App\n"),
            "dice/__init__.py": "",
            "dice/kiosk/__init__.py": "",
            "dice/kiosk/screen.py": (
                "from companion.kiosk.api import draw\n"
                "def f():\n    from companion.kiosk import ui\n"
                "from ...kiosk.ui import draw\n"),
        },
    )
    outside = tmp_path / "words.py"
    outside.write_text("import companion.kiosk.words\nfrom companion.kiosk.api import _\n")
    assert beside_the_api(tree, (outside,)) == [
        "companion/dice/kiosk/screen.py:3 companion.kiosk.ui",
        "companion/dice/kiosk/screen.py:4 companion.kiosk.ui",
        f"{outside}:1 companion.kiosk.words",
    ]
    assert app_circle(tree) == (["companion.kiosk.app", "companion.kiosk.screens.home"],
                                ["companion.kiosk.screens.home"])
