"""Game records: the set-up and every action in order, chance outcomes included.

The text format is one JSON object (see "Game records" in ``docs/engine.md``)::

    {"format": "companion-record", "version": 1,
     "setup": {"game": "pillars", "players": [{"name": "Ann", "colour": "red"}, ...],
               "start_player": 0, "options": {}},
     "seed": 7,
     "companions": {"2": "normal"},
     "actions": ["reveal privilege madonna", "reveal privilege tom", ...]}

Loading and replaying a record reproduces the state exactly: state is derived, the record is
the truth.  ``companions`` (optional) names the seats the companion played and its strength
at each; a replay does not need it: the companion's decisions are actions like any other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from . import contract
from .core import Game, Setup
from .errors import RecordError, RulesError

S = TypeVar("S")
A = TypeVar("A")

FORMAT = "companion-record"
VERSION = 1


def companion_seats(data: Any, players: int) -> dict[int, str]:
    """The companion's seats from their JSON form (``{"2": "normal"}``: seat number to
    strength) for a table of ``players``; ValueError naming what is wrong: a seat that is not
    a seat number of the table, a strength that is not a name, or every seat the companion's
    (someone has to sit at the table)."""
    if not isinstance(data, dict):
        raise ValueError("the companion's seats must be a JSON object of seat: strength")
    seats: dict[int, str] = {}
    for key, strength in data.items():
        seat = key if isinstance(key, int) and not isinstance(key, bool) else None
        if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2:
            seat = int(key)
        if seat is None or not 0 <= seat < players:
            raise ValueError(f"companion seat {str(key)[:20]!r} is not a seat of {players} players")
        if not isinstance(strength, str) or not strength.strip() or len(strength) > 40:
            raise ValueError(f"the companion at seat {seat} needs a strength (a name)")
        seats[seat] = strength
    if seats and len(seats) >= players:
        raise ValueError("the companion cannot take every seat: someone has to play")
    return dict(sorted(seats.items()))


@dataclass(frozen=True)
class Record:
    """A set-up, the seed used for virtual draws (if any) and the actions in order; with
    ``companions``, the seats the companion played (seat: strength)."""

    setup: Setup
    actions: tuple[str, ...] = ()
    seed: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    companions: dict[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "setup": self.setup.to_json(),
        }
        if self.seed is not None:
            data["seed"] = self.seed
        if self.meta:
            data["meta"] = self.meta
        if self.companions:
            data["companions"] = {str(k): v for k, v in sorted(self.companions.items())}
        data["actions"] = list(self.actions)
        return data

    def dumps(self) -> str:
        """The record as JSON text, one action per line for readable diffs."""
        head = self.to_json()
        actions = head.pop("actions")
        body = json.dumps(head, ensure_ascii=False)[:-1]
        lines = ",\n  ".join(json.dumps(a, ensure_ascii=False) for a in actions)
        return (
            f'{body}, "actions": [\n  {lines}\n]}}\n' if actions else f'{body}, "actions": []}}\n'
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record's JSON form; raises RecordError naming what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a game record (format is {data.get('format')!r})")
        version = data.get("version")
        if type(version) is not int or version != VERSION:
            raise RecordError(f"record version {version!r} is not supported (this reads {VERSION})")
        try:
            setup = Setup.from_json(data.get("setup"))
        except RulesError as exc:
            raise RecordError(f"bad set-up: {exc}") from None
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("actions must be a list of strings")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError("seed must be an integer")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("meta must be a JSON object")
        try:
            companions = companion_seats(data.get("companions", {}), len(setup.players))
        except ValueError as exc:
            raise RecordError(str(exc)) from None
        return cls(setup, tuple(actions), seed, meta, companions)

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read {path}: {exc}") from None
        return cls.loads(text)


def replay(game: Game[S, A], record: Record) -> S:
    """Apply every action of ``record``; the final state.  Raises RecordError at the first
    action that is malformed or illegal, naming its 1-based position and the reason."""
    if record.setup.game != game.name:
        raise RecordError(f"this record is for {record.setup.game!r}, not {game.name!r}")
    try:
        state = game.initial_state(record.setup)
    except RulesError as exc:
        raise RecordError(f"bad set-up: {exc}") from None
    contract.state(game, "initial_state()", state)
    for i, text in enumerate(record.actions, 1):
        try:
            after = game.apply(state, game.parse_action(text))
        except RulesError as exc:
            raise RecordError(str(exc), i, text) from None
        if not isinstance(after, type(state)):  # what the game returned, checked
            contract.state(game, "apply()", after, state)
        state = after
    return state
