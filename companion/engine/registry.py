"""The registry of games: each game package describes itself in one :class:`GameSpec`.

Everything outside a game's own package that needs to know about a game (the journal's BG Stats
ids, the set-up screen's options, the camera's marker ids, the lamps, the screenshots, the
conformance test) asks the registry, never compares a game's name.  The engine core imports no
game: the built-in games are found through the ``companion.games`` entry points of the installed
package (see ``pyproject.toml``), and a game can also be registered at run time with
:func:`register` (the tests register a toy third game that way).

A spec declares its extension points as values, never as names found by convention: the
kiosk-side pieces (the table screen class, the screenshot scenes, the words of its actions),
the simulation path and the signals the companion's search judges its positions by are
zero-argument loaders that import the game's own modules when called (so the engine, the bots
and the command line never import pygame through a spec); ``locale`` is the folder of the
game's translation catalogue and ``strengths`` the bot each of the companion's strengths plays
in the game.  The kiosk calls the loaders; it
never imports a game by name, and a game's rules never import the kiosk.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import metadata
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .core import COLOURS, Game, Option
from .errors import SetupError

if TYPE_CHECKING:
    from .signals import Signals
    from .sim import Simulator

ENTRY_POINT_GROUP = "companion.games"


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One card of a game's catalogue: its stable id, its kind, its English name, and how many
    physical copies of it the box holds (each copy gets its own camera marker)."""

    id: str
    kind: str
    name: str
    copies: int = 1
    printed: str | None = None
    """The name as printed on the physical card, where it differs (the French edition's)."""


Rect = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class TableZone:
    """A zone of the table for the camera's table mode: a rectangle (u0, v0, u1, v1) in the
    coordinates of the four corner markers ((0, 0) top left, (1, 1) bottom right), the kinds of
    card it checks, and the seat it belongs to (None for a shared zone).  ``id`` is stable
    (``[camera.zones]`` in the config moves a zone by its id); ``area`` names a shared zone's
    place on the board, ``role`` what a seat's zone holds (``craftsmen``, ``sites``,
    ``workers``), for the kiosk to word."""

    id: str
    rect: Rect
    kinds: frozenset[str]
    seat: int | None = None
    area: str | None = None
    role: str | None = None

    def contains(self, uv: tuple[float, float]) -> bool:
        u, v = uv
        u0, v0, u1, v1 = self.rect
        return u0 <= u < u1 and v0 <= v < v1


@dataclass(frozen=True)
class GameSpec:
    """What a game tells the rest of the companion about itself.

    ``name`` is the stable id written in records and the journal; ``title`` the English title
    (a catalogue key the kiosk translates); ``rules`` builds the :class:`Game`.
    ``cards`` is the card catalogue in marker order: append-only, since a card's position plus
    ``marker_base`` is the id of the sticker printed for it (``None``: no camera markers).
    The extension points (all optional) are declared values: ``screen``, ``words``, ``scenes``,
    ``simulator`` and ``signals`` are zero-argument loaders, each importing the game's module on
    first call and returning what it holds; ``locale`` is the game's catalogue folder;
    ``strengths`` the companion's bot at each strength where it is not the default one.
    """

    name: str
    title: str
    rules: Callable[[], Game[Any, Any]]
    bgg_id: int | None = None
    min_players: int = 2
    max_players: int = 4
    options: Mapping[str, Option] = field(default_factory=dict)
    cards: tuple[CardInfo, ...] = ()
    colours: tuple[str, ...] = COLOURS
    marker_base: int | None = None
    screen: Callable[[], Callable[..., object]] | None = None
    """Loads the kiosk's table screen class (a ``companion.kiosk.screens.base.GameScreen``),
    made with the app (None: the generic screen)."""
    scenes: Callable[[], Any] | None = None
    """Loads the screenshot scenes: an object (a module) with ``scenes(journal)``, the
    ``(name, set-up)`` pairs of ``companion screenshots``, and ``key(state)``, the kind of
    screen a state shows."""
    words: Callable[[], Callable[[GameSpec], object]] | None = None
    """Loads the game's ``companion.kiosk.words.GameWords`` subclass (None: the default
    words, from this record)."""
    guide: Callable[[], Callable[..., Any]] | None = None
    """Loads the set-up guide: a function from a set-up and the virtual deck setting (a
    bool) to the steps a table follows with the box open (``companion.kiosk.guide``;
    None: no guide is offered)."""
    simulator: Callable[[], Simulator] | None = None
    """Loads the game's simulation path (``companion.engine.sim``; None: the rules behind
    the same interface, ``RulesSimulator``)."""
    signals: Callable[[], Signals] | None = None
    """Loads what the companion's search judges the game's positions by: each seat's signals
    and the models that weigh them (``companion.engine.signals``; None: the summary's score,
    money and rank, ``signals.SUMMARY``)."""
    strengths: Mapping[str, str] = field(default_factory=dict)
    """The bot each of the companion's strengths (``easy``, ``normal``, ``strong``) plays in
    this game where it is not the strength's default (``companion.bots.STRENGTHS``), by the
    strength's name or by ``strength/players`` for one table size (which comes first), e.g.
    ``{"normal/4": "search@50t+open", "strong": "search@500+open"}``; a bot's name as
    ``companion arena --bots`` takes it."""
    locale: Path | None = None
    """The game's gettext catalogues: ``<locale>/<lang>/LC_MESSAGES/<name>.po`` (domain: the
    game's name) for what only this game says (its cards, sentences, help, title and options);
    None: the game says nothing the core catalogue lacks.  The kiosk reads them with its
    own."""
    table_zones: Callable[[int], tuple[TableZone, ...]] | None = None
    """The camera's table mode: the zones for a number of players (None: no table mode)."""
    table_cards: Callable[[Any], dict[str, list[str]]] | None = None
    """The table mode: where the engine's state has each card, by zone id."""
    contract: int = 1
    """The version of the game contract the game is written for (``registry.CONTRACT``)."""
    rank: int = 100
    """Where the game is listed (home screen, set-up): lower first."""
    unofficial_options: tuple[str, ...] = ()
    """Options that are house rules or variants, labelled unofficial wherever they are shown."""

    def game(self) -> Game[Any, Any]:
        return self.rules()

    def card(self, card_id: str) -> CardInfo | None:
        """The catalogue entry of ``card_id``, or None."""
        return self._by_id.get(card_id)

    @cached_property
    def _by_id(self) -> Mapping[str, CardInfo]:
        return MappingProxyType({c.id: c for c in self.cards})

    def markers(self) -> list[tuple[int, CardInfo, int]]:
        """Every sticker of the game: ``(marker id, card, copy number from 1)``, ids ascending.

        Each physical copy of a card has its own id, so two copies on the table never look like
        one card seen twice."""
        if self.marker_base is None:
            return []
        out = []
        marker = self.marker_base
        seen: set[str] = set()
        for card in self.cards:
            if card.id in seen:  # a card listed once per copy (append-only order)
                continue
            for copy in range(1, card.copies + 1):
                out.append((marker, card, copy))
                marker += 1
            seen.add(card.id)
        return out


CONTRACT = 1
"""The version of the contract a game is written against (``docs/architecture.md``, "Add a
game": the ``Game`` methods, ``GameSpec`` and its loaders).  It changes when a change of the
contract would break a game written for the one before; a game that declares another version
is refused by name rather than failing later with an unexpected error."""

_lock = threading.Lock()
_specs: dict[str, GameSpec] = {}
_loaded = False
_generation = 0


def register(spec: GameSpec) -> GameSpec:
    """Make ``spec`` known (replacing a spec of the same name); returns it."""
    global _generation
    if not spec.name or not spec.name.replace("-", "").isalnum() or spec.name != spec.name.lower():
        raise SetupError(f"a game's name is lower-case letters and digits, not {spec.name!r}")
    refused = contract_problem(spec)
    if refused:
        raise SetupError(refused)
    with _lock:
        _specs[spec.name] = spec
        _generation += 1
    return spec


def unregister(name: str) -> None:
    """Forget a game registered at run time (for tests)."""
    global _generation
    with _lock:
        if _specs.pop(name, None) is not None:
            _generation += 1


def generation() -> int:
    """A number that changes whenever a game is registered or forgotten (what is built from
    every spec, such as the bots' catalogue of models, is kept until it changes)."""
    _load_builtin()
    return _generation


_problems: dict[str, str] = {}


def problems() -> dict[str, str]:
    """The games that could not be loaded, by their entry point's name, each with what is
    wrong in words (an import that fails, an entry point that is not a ``GameSpec``, a game
    written for another contract): every other game works; ``companion doctor``, the command
    line and the kiosk's set-up say which failed and why."""
    _load_builtin()
    with _lock:
        return dict(_problems)


def _load_builtin() -> None:
    """Load every game named by the ``companion.games`` entry points, each on its own: one
    that cannot be loaded is noted in :func:`problems` (by name, with the reason) and the
    others load as if it were not there."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        where = f"{ep.value}" + (f" (from {ep.dist.name})" if ep.dist is not None else "")
        try:
            spec = ep.load()
        except Exception as exc:  # noqa: BLE001 - a plugin's fault is its own, not everyone's
            _problems[ep.name] = f"{where} could not be imported: {type(exc).__name__}: {exc}"
            continue
        if not isinstance(spec, GameSpec):
            _problems[ep.name] = (f"{where} is not a GameSpec (it is a "
                                  f"{type(spec).__name__})")
            continue
        refused = contract_problem(spec)
        if refused:
            _problems[ep.name] = f"{where}: {refused}"
            continue
        if spec.name not in _specs:
            try:
                register(spec)
            except SetupError as exc:
                _problems[ep.name] = f"{where}: {exc}"


def contract_problem(spec: GameSpec) -> str:
    """Why ``spec`` cannot be loaded by this companion ("" when it can): a game declares the
    version of the game contract it was written for (``GameSpec.contract``)."""
    if spec.contract == CONTRACT:
        return ""
    return (f"the game {spec.name!r} is written for version {spec.contract} of the companion's "
            f"game contract; this companion speaks version {CONTRACT}")


def specs() -> tuple[GameSpec, ...]:
    """Every known game, in the order they were registered."""
    _load_builtin()
    with _lock:
        return tuple(sorted(_specs.values(), key=lambda s: (s.rank, s.name)))


def names() -> tuple[str, ...]:
    return tuple(s.name for s in specs())


def spec(name: str) -> GameSpec:
    """The spec of the game called ``name``; raises SetupError naming the known games."""
    _load_builtin()
    with _lock:
        found = _specs.get(name)
    if found is None:
        from .errors import bounded

        known = ", ".join(names())
        broken = problems().get(str(name))
        why = f"the game {bounded(str(name), 40)!r} could not be loaded: {broken}" if broken \
            else f"unknown game {bounded(str(name), 40)!r}"
        raise SetupError(f"{why}; the games are {known}", "setup.game", game=str(name))
    return found


def get_game(name: str) -> Game[Any, Any]:
    """The rules of the game called ``name``; raises SetupError for an unknown name."""
    return spec(name).game()


def spec_for_card(card_id: str) -> list[GameSpec]:
    """The games whose catalogue holds ``card_id``."""
    return [s for s in specs() if s.card(card_id) is not None]


__all__ = [
    "CONTRACT",
    "ENTRY_POINT_GROUP",
    "CardInfo",
    "GameSpec",
    "Rect",
    "TableZone",
    "contract_problem",
    "generation",
    "get_game",
    "names",
    "problems",
    "register",
    "spec",
    "spec_for_card",
    "specs",
    "unregister",
]
