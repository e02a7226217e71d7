"""The 84 cards of The Builders: Middle Ages: 34 buildings, 8 machines and 42 workers.

Every card has a stable id, an ASCII slug of its French name (ruling B10):

* buildings: the French name without its article, ``L'abbaye`` -> ``abbaye``;
* machines: the same, with ``-1`` for the small version (1 VP, produces 2) and ``-2`` for the
  large one (2 VP, produces 3), ``Une grue`` -> ``grue-1`` and ``grue-2``;
* workers: the French rank and the four resource values in the order stone, wood, knowledge,
  tile, so the Master giving 3 stone and 2 wood is ``maitre-3200``.

Two Craftsmen are identical (one of each resource).  The engine treats identical cards as one
card type with a count: ``compagnon-1111`` has ``count == 2``, and a draw weights it by the
number of copies still hidden.  Every other card is unique.

Resources are always tuples in the order stone, wood, knowledge, tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

Resources = tuple[int, int, int, int]
"""Amounts of stone, wood, knowledge and tile, in that order."""

RESOURCES = ("stone", "wood", "knowledge", "tile")
RESOURCES_FR = ("pierre", "bois", "savoir", "tuile")

NO_RESOURCES: Resources = (0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class BuildingCard:
    """A building or machine card: what it needs, and what finishing it pays."""

    id: str
    name_fr: str
    name_en: str
    kind: Literal["building", "machine"]
    needs: Resources
    coins: int
    vp: int
    output: Resources = NO_RESOURCES
    """What a finished machine supplies as a worker (nothing for a building)."""

    @property
    def is_machine(self) -> bool:
        return self.kind == "machine"

    @property
    def display_en(self) -> str:
        """The English name, with the size for a machine (both Cranes share a name)."""
        if self.kind == "machine":
            return f"{self.name_en} ({'small' if self.vp == 1 else 'large'})"
        return self.name_en

    @property
    def display_fr(self) -> str:
        if self.kind == "machine":
            return f"{self.name_fr} ({'petite' if self.vp == 1 else 'grande'})"
        return self.name_fr


@dataclass(frozen=True, slots=True)
class WorkerCard:
    """A worker card type: its rank, wage, what it supplies, and how many copies exist."""

    id: str
    rank: Literal["apprentice", "laborer", "craftsman", "master"]
    wage: int
    output: Resources
    count: int = 1

    @property
    def name_en(self) -> str:
        return _RANK_EN[self.rank]

    @property
    def name_fr(self) -> str:
        return _RANK_FR[self.rank]

    @property
    def display_en(self) -> str:
        parts = ", ".join(f"{n} {r}" for n, r in zip(self.output, RESOURCES, strict=True) if n)
        return f"{self.name_en} ({parts})"

    @property
    def display_fr(self) -> str:
        parts = ", ".join(f"{n} {r}" for n, r in zip(self.output, RESOURCES_FR, strict=True) if n)
        return f"{self.name_fr} ({parts})"


_RANK_EN = {
    "apprentice": "Apprentice",
    "laborer": "Laborer",
    "craftsman": "Craftsman",
    "master": "Master",
}
_RANK_FR = {
    "apprentice": "Apprenti",
    "laborer": "Manœuvre",
    "craftsman": "Compagnon",
    "master": "Maître",
}
_RANK_SLUG = {
    "apprentice": "apprenti",
    "laborer": "manoeuvre",
    "craftsman": "compagnon",
    "master": "maitre",
}
WAGES = {"apprentice": 2, "laborer": 3, "craftsman": 4, "master": 5}

# id, French name, English name, needs (S, W, K, T), coins, VP
_BUILDING_ROWS: tuple[tuple[str, str, str, Resources, int, int], ...] = (
    ("tonnelle", "La tonnelle", "Bower", (1, 0, 0, 1), 8, 0),
    ("cabane", "La cabane", "Wooden Shack", (0, 1, 1, 0), 8, 0),
    ("pont-couvert", "Le pont couvert", "Covered Bridge", (0, 1, 2, 0), 6, 1),
    ("cabane-perchee", "La cabane perchée", "Treehouse", (0, 2, 1, 0), 6, 1),
    ("pont-en-pierre", "Le pont en pierre", "Stone Bridge", (2, 0, 1, 0), 6, 1),
    ("lavoir", "Le lavoir", "Wash House", (0, 1, 0, 2), 6, 1),
    ("hutte-de-paille", "La hutte de paille", "Straw Hut", (1, 0, 0, 2), 6, 1),
    ("maison-urbaine", "La maison urbaine", "Townhouse", (2, 0, 2, 1), 10, 2),
    ("chaumiere", "La chaumière", "Cottage", (0, 2, 1, 2), 10, 2),
    ("maison-rurale", "La maison rurale", "Rural House", (1, 2, 1, 1), 10, 2),
    ("maisonnette", "La maisonnette", "House", (2, 1, 0, 2), 10, 2),
    ("etable", "L'étable", "Cowshed", (0, 1, 2, 3), 12, 3),
    ("auberge", "L'auberge", "Inn", (2, 1, 1, 2), 12, 3),
    ("porcherie", "La porcherie", "Pigsty", (0, 2, 2, 2), 12, 3),
    ("relais-rural", "Le relais rural", "Rural Relay", (0, 3, 1, 2), 12, 3),
    ("silo-a-grains", "Le silo à grains", "Grain Silo", (0, 2, 3, 1), 12, 3),
    ("ecurie", "L'écurie", "Stables", (0, 3, 1, 3), 14, 3),
    ("forge", "La forge", "Forge", (2, 2, 0, 3), 14, 3),
    ("moulin-a-vent", "Le moulin à vent", "Windmill", (3, 0, 3, 1), 14, 3),
    ("moulin-a-eau", "Le moulin à eau", "Watermill", (0, 2, 3, 2), 14, 3),
    ("halles", "Les halles", "Covered Market", (0, 3, 2, 3), 16, 4),
    ("maison-bourgeoise", "La maison bourgeoise", "Bourgeois House", (2, 2, 2, 2), 16, 4),
    ("relais-postal", "Le relais postal", "Post", (3, 1, 2, 2), 16, 4),
    ("hotel", "L'hôtel", "Hotel", (1, 3, 3, 1), 16, 4),
    ("taverne", "La taverne", "Tavern", (1, 3, 1, 3), 16, 4),
    ("ferme", "La ferme", "Farm", (4, 2, 0, 2), 16, 4),
    ("eglise", "L'église", "Church", (4, 0, 2, 4), 18, 5),
    ("tour-de-guet", "La tour de guet", "Watchtower", (3, 3, 2, 2), 18, 5),
    ("abbaye", "L'abbaye", "Abbey", (4, 3, 2, 1), 18, 5),
    ("cloitre", "Le cloître", "Cloister", (4, 2, 4, 0), 18, 5),
    ("chapelle", "La chapelle", "Chapel", (3, 2, 2, 3), 18, 5),
    ("aqueduc", "L'aqueduc", "Aqueduct", (5, 2, 5, 0), 20, 6),
    ("chateau-fort", "Le château-fort", "Castle", (5, 3, 5, 3), 20, 7),
    ("cathedrale", "La cathédrale", "Cathedral", (5, 4, 4, 4), 20, 8),
)

# id, French name, English name, needs (S, W, K, T), VP, output as a worker (S, W, K, T)
_MACHINE_ROWS: tuple[tuple[str, str, str, Resources, int, Resources], ...] = (
    ("grue-1", "Une grue", "Crane", (0, 1, 0, 1), 1, (2, 0, 0, 0)),
    ("grue-2", "Une grue", "Crane", (0, 2, 1, 0), 2, (3, 0, 0, 0)),
    ("scie-circulaire-1", "Une scie circulaire", "Circular Saw", (1, 0, 1, 0), 1, (0, 2, 0, 0)),
    ("scie-circulaire-2", "Une scie circulaire", "Circular Saw", (0, 0, 2, 1), 2, (0, 3, 0, 0)),
    (
        "instrument-de-mesure-1",
        "Un instrument de mesure",
        "Survey Tools",
        (1, 1, 0, 0),
        1,
        (0, 0, 2, 0),
    ),
    (
        "instrument-de-mesure-2",
        "Un instrument de mesure",
        "Survey Tools",
        (1, 0, 0, 2),
        2,
        (0, 0, 3, 0),
    ),
    ("four-a-tuiles-1", "Un four à tuiles", "Tile Oven", (0, 1, 1, 0), 1, (0, 0, 0, 2)),
    ("four-a-tuiles-2", "Un four à tuiles", "Tile Oven", (2, 1, 0, 0), 2, (0, 0, 0, 3)),
)

# rank, what it supplies (S, W, K, T), copies
_WORKER_ROWS: tuple[tuple[str, Resources, int], ...] = (
    # Apprentices: every pair of two resources at 1.
    ("apprentice", (1, 1, 0, 0), 1),
    ("apprentice", (1, 0, 1, 0), 1),
    ("apprentice", (1, 0, 0, 1), 1),
    ("apprentice", (0, 1, 1, 0), 1),
    ("apprentice", (0, 1, 0, 1), 1),
    ("apprentice", (0, 0, 1, 1), 1),
    # Laborers: one resource at 2 and another at 1, every ordered pair.
    ("laborer", (2, 1, 0, 0), 1),
    ("laborer", (2, 0, 1, 0), 1),
    ("laborer", (2, 0, 0, 1), 1),
    ("laborer", (1, 2, 0, 0), 1),
    ("laborer", (0, 2, 1, 0), 1),
    ("laborer", (0, 2, 0, 1), 1),
    ("laborer", (1, 0, 2, 0), 1),
    ("laborer", (0, 1, 2, 0), 1),
    ("laborer", (0, 0, 2, 1), 1),
    ("laborer", (1, 0, 0, 2), 1),
    ("laborer", (0, 1, 0, 2), 1),
    ("laborer", (0, 0, 1, 2), 1),
    # Craftsmen: four resources in all; the all-round one exists twice.
    ("craftsman", (1, 1, 1, 1), 2),
    ("craftsman", (2, 2, 0, 0), 1),
    ("craftsman", (2, 0, 2, 0), 1),
    ("craftsman", (2, 0, 0, 2), 1),
    ("craftsman", (0, 2, 2, 0), 1),
    ("craftsman", (0, 2, 0, 2), 1),
    ("craftsman", (0, 0, 2, 2), 1),
    ("craftsman", (2, 1, 1, 0), 1),
    ("craftsman", (1, 2, 0, 1), 1),
    ("craftsman", (1, 0, 2, 1), 1),
    ("craftsman", (0, 1, 1, 2), 1),
    ("craftsman", (3, 1, 0, 0), 1),
    ("craftsman", (0, 3, 0, 1), 1),
    ("craftsman", (1, 0, 3, 0), 1),
    ("craftsman", (0, 0, 1, 3), 1),
    # Masters: one resource at 3 and another at 2.
    ("master", (3, 2, 0, 0), 1),
    ("master", (2, 3, 0, 0), 1),
    ("master", (3, 0, 0, 2), 1),
    ("master", (2, 0, 0, 3), 1),
    ("master", (0, 3, 2, 0), 1),
    ("master", (0, 2, 3, 0), 1),
    ("master", (0, 0, 3, 2), 1),
    ("master", (0, 0, 2, 3), 1),
)


def worker_id(rank: str, output: Resources) -> str:
    """The id of the worker of ``rank`` supplying ``output``: ``maitre-3200``."""
    return f"{_RANK_SLUG[rank]}-{''.join(map(str, output))}"


BUILDINGS: tuple[BuildingCard, ...] = tuple(
    BuildingCard(i, fr, en, "building", needs, coins, vp)
    for i, fr, en, needs, coins, vp in _BUILDING_ROWS
) + tuple(
    BuildingCard(i, fr, en, "machine", needs, 0, vp, out)
    for i, fr, en, needs, vp, out in _MACHINE_ROWS
)
"""The 42 building cards (34 buildings then 8 machines), in catalogue order."""

WORKERS: tuple[WorkerCard, ...] = tuple(
    WorkerCard(worker_id(rank, out), rank, WAGES[rank], out, n)  # type: ignore[arg-type]
    for rank, out, n in _WORKER_ROWS
)
"""The 41 worker card types (42 cards), in catalogue order."""

BUILDING = MappingProxyType({c.id: c for c in BUILDINGS})
"""Building and machine cards by id."""

WORKER = MappingProxyType({c.id: c for c in WORKERS})
"""Worker card types by id."""

MACHINE_IDS = frozenset(c.id for c in BUILDINGS if c.is_machine)
APPRENTICES: tuple[str, ...] = tuple(c.id for c in WORKERS if c.rank == "apprentice")

ORDER = MappingProxyType(
    {c.id: i for i, c in enumerate(BUILDINGS)}
    | {c.id: len(BUILDINGS) + i for i, c in enumerate(WORKERS)}
)
"""Catalogue position of every card id: decks are kept in this order."""

WAGE = MappingProxyType({c.id: c.wage for c in WORKERS} | {m: 0 for m in MACHINE_IDS})
"""What sending a worker costs, by id; a finished machine works for nothing."""

OUTPUT = MappingProxyType(
    {c.id: c.output for c in WORKERS} | {c.id: c.output for c in BUILDINGS if c.is_machine}
)
"""What a worker (or a finished machine) supplies to a site, by id."""


def card_name(card_id: str, lang: str = "en") -> str:
    """The display name of a card in ``lang`` ("en" or "fr"); raises KeyError for no card."""
    card: BuildingCard | WorkerCard = BUILDING[card_id] if card_id in BUILDING else WORKER[card_id]
    return card.display_fr if lang == "fr" else card.display_en
