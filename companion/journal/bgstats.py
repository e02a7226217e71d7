"""A finished game as a play for the BG Stats app, and the link that hands it over.

BG Stats accepts one play pushed from another app as URL-encoded JSON in the ``data`` parameter
of ``bgstats://app.bgstatsapp.com/createPlay.html`` (or the same path on
``https://app.bgstatsapp.com``); the app shows the play pre-filled for the user to confirm.
What was confirmed and what was not is in ``docs/journal.md``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from companion.text import clean

from .names import english_name
from .records import GameInfo

if TYPE_CHECKING:
    from companion.engine.registry import GameSpec

SOURCE_NAME = "companion"
"""``sourceName``: BG Stats remembers its matches of games and players per source app, so this
string must stay the same from version to version."""

APP_LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def play_date(moment: datetime) -> str:
    """BG Stats' date format, ``YYYY-MM-DD HH:MM:SS``, in UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def ranks(scores: dict[str, int], winners: list[str]) -> dict[str, int]:
    """1 for the winners (the game's own tie-breaks decide them); everyone else by score,
    after the winners, equal scores sharing a rank."""
    key = {name: (name in winners, pts) for name, pts in scores.items()}
    return {name: 1 + sum(1 for o in key.values() if o > mine) for name, mine in key.items()}


def play(info: GameInfo, journal_id: str, spec: GameSpec) -> dict[str, Any]:
    """The BG Stats play object of the finished game ``info`` (``spec``: its game's registry
    record, for the title and the BoardGameGeek id).  Names are shown as the kiosk shows them
    (:func:`companion.text.clean`: no control characters, at most 40 characters), so a QR
    code never carries an escape sequence or a page of text.

    The play is in English whatever the table's language (a seat left unnamed is its colour's
    English word, :func:`companion.journal.names.english_name`, also for an older journal that
    stored it in Chinese or Japanese): BG Stats matches players by ``sourcePlayerId`` and name,
    and the same seat must meet the same player in every language.

    BG Stats' createPlay format has no field for a player who is not a person (its players
    carry ``name``, ``score``, ``winner``, ``rank``, ``startPlayer``, ``role``,
    ``sourcePlayerId``; see docs/journal.md), so a seat the companion played is marked three
    ways: its name says so (``Blue (companion)``), its ``sourcePlayerId`` is the companion's
    (``companion-blue``, never a person's name, so BG Stats never merges it with a person),
    and the play's notes (``comments``) say which seats the companion played, at which
    strength."""
    start = info.setup.start_player
    ended = info.ended or info.updated
    minutes = max(1, round((ended - info.started).total_seconds() / 60))
    rank = ranks(info.scores, info.winners)
    players = []
    played: list[str] = []
    for seat, p in enumerate(info.setup.players):
        name = clean(english_name(p.name, p.colour))
        strength = info.companions.get(seat)
        if strength is not None:
            played.append(f"{name} ({strength})")
        players.append(
            {
                "name": f"{name} (companion)" if strength is not None else name,
                "score": info.scores.get(p.name, 0),
                "winner": p.name in info.winners,
                "rank": rank.get(p.name, len(info.setup.players)),
                "startPlayer": seat == start,
                "sourcePlayerId": f"companion-{p.colour}" if strength is not None else name,
            }
        )
    seated = {p.name for p in info.setup.players}
    for name, pts in info.scores.items():
        if name not in seated:  # a game's own opponent (the solo Automa)
            players.append(
                {
                    "name": clean(name),
                    "score": pts,
                    "winner": name in info.winners,
                    "rank": rank[name],
                    "startPlayer": False,
                    "sourcePlayerId": clean(name),
                }
            )
    out: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{journal_id}-{info.id}",
        "playDate": play_date(info.started),
        "durationMin": minutes,
        "game": {
            **({"bggId": spec.bgg_id} if spec.bgg_id is not None else {}),
            "name": spec.title,
            "highestWins": True,
            "sourceGameId": info.game,
        },
        "players": players,
    }
    if played:
        out["comments"] = "Played by the companion (a program, not a person): " + ", ".join(
            played
        )
    return out


def link(play_object: dict[str, Any], *, web: bool = False) -> str:
    """The link carrying ``play_object``: compact JSON, percent-encoded like JavaScript's
    ``encodeURIComponent``."""
    data = json.dumps(play_object, ensure_ascii=False, separators=(",", ":"))
    return (WEB_LINK if web else APP_LINK) + quote(data, safe="-_.!~*'()")
