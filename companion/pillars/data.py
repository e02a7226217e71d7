"""Card and board data of The Pillars of the Earth (base game), from shared/rules/pillars.md.

Ids are short, ASCII and stable; display names per language live with the kiosk.
"""

from __future__ import annotations

from dataclasses import dataclass

# Resources, always in this order.
STONE, WOOD, SAND, METAL = 0, 1, 2, 3
RESOURCES = ("stone", "wood", "sand", "metal")
CUBES = (23, 23, 23, 13)
MARKET_PRICE = (4, 3, 2, 5)  # gold per cube; metal is only ever sold
MARKET_STOCK = 4  # of stone, wood and sand at the start of every round

ROUNDS = 6
GOLD_LIMIT = 30  # ruling P2: the wealth track ends at 30
START_VP = 2
OWN_WORKERS = 12  # 7 small + a foreman worth 5
GRAY_WORKERS = 4
CRAFTSMAN_LIMIT = 5
TAX_DIE = (2, 3, 3, 4, 4, 5)
FIRST_COST = 7  # the cost marker's start; one lower after every drawn builder
BUILDERS_EACH = 3


@dataclass(frozen=True, slots=True)
class ResourceCard:
    id: str
    resource: int
    yield_: int
    workers: int


RESOURCE_CARDS: dict[str, ResourceCard] = {
    c.id: c
    for c in (
        ResourceCard("sand2", SAND, 2, 2),
        ResourceCard("sand3", SAND, 3, 4),
        ResourceCard("sand4", SAND, 4, 7),
        ResourceCard("wood2", WOOD, 2, 3),
        ResourceCard("wood3", WOOD, 3, 6),
        ResourceCard("wood4", WOOD, 4, 9),
        ResourceCard("stone2", STONE, 2, 5),
        ResourceCard("stone3", STONE, 3, 8),
        ResourceCard("stone4", STONE, 4, 10),
    )
}
RESOURCE_CARD_IDS = tuple(RESOURCE_CARDS)
RESOURCE_CARDS_REVEALED = 7

# ---------------------------------------------------------------------------------------------
# Craftsmen.  A kind says what one use does: inputs (stone, wood, sand, metal, gold) and
# outputs (VP, gold).  "auto" kinds fire once per round by themselves at the cathedral step.


@dataclass(frozen=True, slots=True)
class CraftsmanKind:
    id: str
    inputs: tuple[int, int, int, int, int]  # stone, wood, sand, metal, gold per use
    vp: int
    gold: int
    auto: bool = False
    needs_metal: bool = False  # Tool Maker: fires only if its owner holds metal
    needs_mortar: bool = False  # Mason: scores only if its owner has a Mortar Mixer


KINDS: dict[str, CraftsmanKind] = {
    k.id: k
    for k in (
        CraftsmanKind("mortar", (0, 0, 3, 0, 0), 1, 0),
        CraftsmanKind("mortar!", (0, 0, 2, 0, 0), 1, 0),
        CraftsmanKind("woodworker", (0, 2, 0, 0, 0), 1, 0),
        CraftsmanKind("woodworker!", (0, 1, 0, 0, 0), 0, 4),
        CraftsmanKind("stonecutter", (2, 0, 0, 0, 0), 1, 0),
        CraftsmanKind("mason", (1, 0, 0, 0, 0), 1, 0, needs_mortar=True),
        CraftsmanKind("toolmaker", (0, 0, 0, 0, 0), 0, 2, auto=True, needs_metal=True),
        CraftsmanKind("potter", (0, 0, 1, 0, 0), 1, 0),
        CraftsmanKind("architect", (0, 0, 0, 0, 0), 1, 0, auto=True),
        CraftsmanKind("carpenter", (0, 1, 0, 0, 0), 1, 0),
        CraftsmanKind("sculptor", (1, 0, 0, 0, 0), 2, 0),
        CraftsmanKind("glassblower", (0, 0, 1, 1, 0), 3, 0),
        CraftsmanKind("goldsmith", (0, 0, 0, 0, 3), 1, 0),
        CraftsmanKind("bellmaker", (0, 0, 0, 1, 0), 4, 0),
        CraftsmanKind("organbuilder", (0, 1, 0, 1, 0), 6, 0),
    )
}


@dataclass(frozen=True, slots=True)
class Craftsman:
    """One craftsman card: round 0 for the starting cards, cost in gold, uses per round."""

    id: str
    kind: str
    round: int
    cost: int
    capacity: int

    @property
    def spec(self) -> CraftsmanKind:
        return KINDS[self.kind]


def _c(kind: str, rnd: int, cost: int, cap: int, name: str | None = None) -> Craftsman:
    return Craftsman(name or f"{kind.rstrip('!')}{rnd}", kind, rnd, cost, cap)


# The starting craftsmen: one set per colour; the card id carries the colour (see start_cards).
START_KINDS = (("mortar", 3), ("woodworker", 4), ("stonecutter", 4))

ROUND_CRAFTSMEN: tuple[tuple[Craftsman, ...], ...] = (
    (
        _c("mason", 1, 5, 2),
        _c("toolmaker", 1, 2, 0),
        _c("mortar!", 1, 4, 3, "mortar1"),
        _c("woodworker!", 1, 3, 2, "woodworker1"),
    ),
    (
        _c("potter", 2, 5, 2),
        _c("architect", 2, 6, 0),
        _c("mason", 2, 4, 3),
        _c("carpenter", 2, 3, 2),
    ),
    (
        _c("potter", 3, 7, 3),
        _c("sculptor", 3, 6, 1),
        _c("carpenter", 3, 5, 3),
        _c("mason", 3, 4, 4),
    ),
    (
        _c("mason", 4, 5, 5),
        _c("sculptor", 4, 7, 2),
        _c("carpenter", 4, 6, 4),
        _c("glassblower", 4, 8, 1),
    ),
    (
        _c("carpenter", 5, 6, 5),
        _c("goldsmith", 5, 7, 6),
        _c("sculptor", 5, 8, 3),
        _c("glassblower", 5, 9, 2),
    ),
    (
        _c("bellmaker", 6, 10, 2),
        _c("organbuilder", 6, 9, 1),
        _c("sculptor", 6, 8, 4),
        _c("goldsmith", 6, 7, 8),
    ),
)

COLOUR_CODE = {"red": "r", "blue": "b", "yellow": "y", "green": "g"}


def start_cards(colour: str) -> tuple[Craftsman, ...]:
    """The three starting craftsmen of a colour: ids like ``mortar0r``."""
    code = COLOUR_CODE[colour]
    return tuple(Craftsman(f"{kind}0{code}", kind, 0, 0, cap) for kind, cap in START_KINDS)


CRAFTSMEN: dict[str, Craftsman] = {c.id: c for rnd in ROUND_CRAFTSMEN for c in rnd}
for _colour in COLOUR_CODE:
    CRAFTSMEN.update((c.id, c) for c in start_cards(_colour))
START_IDS = {colour: tuple(c.id for c in start_cards(colour)) for colour in COLOUR_CODE}
"""The ids of each colour's starting craftsmen."""
ROUND_IDS = tuple(tuple(c.id for c in rnd) for rnd in ROUND_CRAFTSMEN)
"""The ids of each round's craftsmen (round 1 first)."""

# Kinds that satisfy the market and Mason requirements (ruling P13: any card of the family).
MORTAR_KINDS = frozenset({"mortar", "mortar!"})
WOODWORKER_KINDS = frozenset({"woodworker", "woodworker!"})
STONECUTTER_KINDS = frozenset({"stonecutter"})
NO_BOOST_KINDS = frozenset({"bellmaker", "organbuilder"})  # ruling P12

# ---------------------------------------------------------------------------------------------
# Privilege cards (ruling P15: stable ids from the German edition).
IMMEDIATE, PERMANENT, ONCE = "immediate", "permanent", "once"

PRIVILEGES: dict[str, str] = {
    "madonna": IMMEDIATE,  # +3 VP
    "richard": PERMANENT,  # +1 sand at every production
    "tom": PERMANENT,  # +1 stone at every production
    "aliena": PERMANENT,  # +1 wood at every production
    "wollmesse": IMMEDIATE,  # +8 gold
    "toledo": IMMEDIATE,  # +2 metal
    "jack": PERMANENT,  # craftsman limit 6
    "otto": PERMANENT,  # the black worker joins the owner's workers
    "francis": PERMANENT,  # tax is exactly 2 when not exempt (P9)
    "priorphilip": PERMANENT,  # +1 VP per own builder in the Priory
    "ellen": PERMANENT,  # sees the coming event at the start of each round
    "steuerfreiheit": ONCE,  # no tax in one round, chosen after the roll
    "thomas": ONCE,  # protection from one negative event, chosen after the reveal
    "remigius": ONCE,  # one drawn builder placed free (P7)
    "vollendung": IMMEDIATE,  # last round: +1 stone +1 wood
    "feierlichkeiten": IMMEDIATE,  # last round: +1 metal
}
LAST_ROUND_PRIVILEGES = ("vollendung", "feierlichkeiten")
SHUFFLED_PRIVILEGES = tuple(p for p in PRIVILEGES if p not in LAST_ROUND_PRIVILEGES)
PRODUCTION_BONUS = {"tom": STONE, "aliena": WOOD, "richard": SAND}

# ---------------------------------------------------------------------------------------------
# Events: True for a positive card (with a seal), False for a negative one.
EVENTS: dict[str, bool] = {
    "koenig": True,  # +5 gold
    "william": False,  # pay 4 gold (P5 for a shortfall)
    "richardevent": True,  # +1 metal
    "konflikt": False,  # -2 VP
    "stadtmauer": False,  # only two builders next round (P6)
    "philip": True,  # +1 gold per own worker in the wool mill, at most 5 (P10)
    "kaltewinter": False,  # each resource card yields one cube less this round
    "freiwilligen": True,  # each resource card yields one cube more this round
    "teile": False,  # lose a craftsman of your choice (P11)
    "erzbischof": True,  # +1 capacity on one own craftsman this round (P12)
}

# ---------------------------------------------------------------------------------------------
# Master-builder spaces, in board order.  The index into SPACES is the space number used by
# the notation (e.g. ``place market2``).


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    area: str
    slot: int  # 1-based within the area


def _area(area: str, n: int, name: str | None = None) -> tuple[Space, ...]:
    if n == 1:
        return (Space(name or area, area, 1),)
    return tuple(Space(f"{name or area}{i}", area, i) for i in range(1, n + 1))


SPACES: tuple[Space, ...] = (
    *_area("archbishop", 1),
    *_area("kingsbridge", 2),
    *_area("priory", 2),
    *_area("court", 4),
    *_area("shiring", 2),
    *_area("castle", 1),
    *_area("market", 4),
    *_area("cathedral", 1),
)
SPACE_INDEX = {s.id: i for i, s in enumerate(SPACES)}
AREA_SPACES: dict[str, tuple[int, ...]] = {}
for _i, _s in enumerate(SPACES):
    AREA_SPACES.setdefault(_s.area, ())
    AREA_SPACES[_s.area] += (_i,)
PRIORY_VP = (2, 1)

# ---------------------------------------------------------------------------------------------
# English display names (ruling P15: descriptive names; the ids above are the stable ones).
KIND_NAMES = {
    "mortar": "Mortar Mixer",
    "mortar!": "Master Mortar Mixer",
    "woodworker": "Woodworker",
    "woodworker!": "Master Woodworker",
    "stonecutter": "Stonecutter",
    "mason": "Mason",
    "toolmaker": "Tool Maker",
    "potter": "Potter",
    "architect": "Architect",
    "carpenter": "Carpenter",
    "sculptor": "Sculptor",
    "glassblower": "Glassblower",
    "goldsmith": "Goldsmith",
    "bellmaker": "Bellmaker",
    "organbuilder": "Organ Builder",
}
RESOURCE_CARD_NAMES = {
    "sand2": "the small gravel pit",
    "sand3": "the gravel pit",
    "sand4": "the large gravel pit",
    "wood2": "the small forest",
    "wood3": "the forest",
    "wood4": "the large forest",
    "stone2": "the small quarry",
    "stone3": "the quarry",
    "stone4": "the large quarry",
}
PRIVILEGE_NAMES = {
    "madonna": "The Weeping Madonna (+3 VP)",
    "richard": "Richard (+1 sand every round)",
    "tom": "Tom Builder (+1 stone every round)",
    "aliena": "Aliena (+1 wood every round)",
    "wollmesse": "The Fleece Fair (+8 gold)",
    "toledo": "Toledo (+2 metal)",
    "jack": "Jack (a sixth craftsman)",
    "otto": "Otto (the black worker)",
    "francis": "Brother Francis (tax is always 2)",
    "priorphilip": "Prior Philip (+1 VP per builder in the Priory)",
    "ellen": "Ellen (sees the coming event)",
    "steuerfreiheit": "Tax exemption (once)",
    "thomas": "Thomas (protection from one event, once)",
    "remigius": "Remigius (one builder placed free, once)",
    "vollendung": "Completion (+1 stone, +1 wood)",
    "feierlichkeiten": "Festivities (+1 metal)",
}
EVENT_NAMES = {
    "koenig": "The King's visit (+5 gold)",
    "william": "William Hamleigh (pay 4 gold)",
    "richardevent": "Richard's gift (+1 metal)",
    "konflikt": "Conflict (-2 VP)",
    "stadtmauer": "The town wall (two builders next round)",
    "philip": "Prior Philip's reward (gold for the wool mill)",
    "kaltewinter": "A cold winter (1 cube less per card)",
    "freiwilligen": "Volunteers (1 cube more per card)",
    "teile": "Hard times (lose a craftsman)",
    "erzbischof": "The Archbishop (+1 capacity)",
}
AREA_NAMES = {
    "archbishop": "the Archbishop's Office",
    "kingsbridge": "Kingsbridge",
    "priory": "the Priory",
    "court": "the King's Court",
    "shiring": "Shiring",
    "castle": "Shiring Castle",
    "market": "the market",
    "cathedral": "the Cathedral",
}


def card_name(card: str) -> str:
    """The English display name of any card id, e.g. ``Mason (round 2)``."""
    if card in CRAFTSMEN:
        c = CRAFTSMEN[card]
        when = "start" if c.round == 0 else f"round {c.round}"
        return f"{KIND_NAMES[c.kind]} ({when})"
    for names in (RESOURCE_CARD_NAMES, PRIVILEGE_NAMES, EVENT_NAMES):
        if card in names:
            return names[card]
    return card


def space_name(space: str) -> str:
    """The English name of a space id, e.g. ``the King's Court, space 1``."""
    s = SPACES[SPACE_INDEX[space]]
    many = len(AREA_SPACES[s.area]) > 1
    return f"{AREA_NAMES[s.area]}, space {s.slot}" if many else AREA_NAMES[s.area]
