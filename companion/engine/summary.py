"""What a game says about a playthrough to everyone else: the period it is in and its summary.

:class:`Period` is the round, turn or phase a state is in, as a typed value the log and the
screens word ("Round 3", "Turn 7: Blue"); :class:`Summary` is the table at a glance (who has
how many points, who won, each player's money and points by source when the game keeps
them) plus the game's own JSON-ready details.  Both have defaults that suit a game with no
ledger and no money: the kiosk's end screen, the journal and the command line read these
types, never a game's state.

``Summary.to_json()`` is the JSON the command line prints (``companion replay --json``) and the
golden files hold: the game's details, ``players`` (each ``name``, ``colour`` and the game's
per-player details), ``over``, ``scores`` and ``winners``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PERIOD_KINDS = ("round", "turn", "phase")
"""The kinds of period the kiosk words: a game played in rounds (everyone acts in each), in
turns (one player's), or in phases alone."""



@dataclass(frozen=True, slots=True)
class Period:
    """The round, turn or phase a state is in.

    ``number`` counts from 1 (0: before the first, e.g. during set-up); ``kind`` is one of
    :data:`PERIOD_KINDS`; ``seat`` is the player whose turn it is (for a turn: "Turn 7:
    Blue"), None for a round or when no one's; ``phase`` a stable tag of the step within the
    period (``place``, ``market``), empty when the game has none; ``last`` the number of the
    last period when the game has a fixed length (Pillars' 6 rounds), else None."""

    number: int
    kind: str = "round"
    seat: int | None = None
    phase: str = ""
    last: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in PERIOD_KINDS:
            raise ValueError(f"a period is one of {', '.join(PERIOD_KINDS)}, not {self.kind!r}")


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat in a summary: its ``name`` and ``colour``, its ``score`` (the points the game
    counts), whether it is a ``winner`` and its ``rank`` (1 for the winners; players on the
    same score and tie-break share a rank).

    ``money`` is the player's money where the game has any (Pillars' gold, The Builders'
    coins), else None; ``sources`` the player's points by the ledger's cause tag where the
    game keeps a ledger, else None; ``details`` the game's own JSON-ready keys for this
    player (resources, cards...), written out by :meth:`Summary.to_json`."""

    seat: int
    name: str
    colour: str
    score: int
    winner: bool = False
    rank: int = 1
    money: int | None = None
    sources: Mapping[str, int] | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``name``, ``colour`` and the game's details (the JSON every version wrote)."""
        return {"name": self.name, "colour": self.colour, **self.details}


@dataclass(frozen=True, slots=True)
class Summary:
    """A playthrough at a glance: the ``game``'s name, whether it is ``over``, one
    :class:`PlayerResult` per seat, ``scores`` (points by name: every seat's, and any
    non-player's the game counts, such as a solo Automa) and ``winners`` (names; empty
    before the end), and ``details``, the game's own JSON-ready keys (round, step, board)."""

    game: str
    over: bool
    players: tuple[PlayerResult, ...]
    scores: Mapping[str, int]
    winners: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def has_money(self) -> bool:
        """Whether the game counts money (every player's ``money`` is set)."""
        return bool(self.players) and all(p.money is not None for p in self.players)

    @property
    def has_sources(self) -> bool:
        """Whether the game says where each player's points came from (a ledger)."""
        return bool(self.players) and all(p.sources is not None for p in self.players)

    def player(self, name: str) -> PlayerResult:
        """The seat called ``name``; KeyError naming the players when there is none."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(f"no player {name!r}; the players are {', '.join(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def ranked(self) -> tuple[PlayerResult, ...]:
        """The players best first (by rank, then seat)."""
        return tuple(sorted(self.players, key=lambda p: (p.rank, p.seat)))

    def to_json(self) -> dict[str, Any]:
        """The summary as the JSON the command line prints and the golden files hold."""
        return {
            "game": self.game,
            **self.details,
            "players": [p.to_json() for p in self.players],
            "over": self.over,
            "scores": dict(self.scores),
            "winners": list(self.winners),
        }


def ranks(keys: list[tuple[Any, ...]]) -> list[int]:
    """Each key's rank, best (highest) first, equal keys sharing a rank (1, 1, 3)."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


__all__ = ["PERIOD_KINDS", "Period", "PlayerResult", "Summary", "ranks"]
