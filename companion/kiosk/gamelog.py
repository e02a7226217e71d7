"""The action log: the game so far in plain words, in the current language.

One :class:`LogSection` per round (Pillars) or turn (Builders), headed ``Round 2`` or ``Turn 7:
Blue``; in it one :class:`LogEntry` per action: who did what (``GameWords.action_text``;
the table's draws and reveals too) and why the points and holdings changed (the ledger's
entries of that action, worded by cause: ``Blue: +2 VP (the Priory, space 1)``).  The kiosk's
log screen shows :func:`log_entries` newest first; ``companion replay RECORD --log`` and
``companion export ID --format text`` print :func:`log_text`, oldest first.

No pygame here: the command line uses it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from companion.engine import CHANCE, Game, Record, RecordError, RulesError, contract
from companion.engine.core import Setup
from companion.engine.ledger import Entry

from .i18n import LANGUAGES, _
from .words import GameWords, State, amount_text, marked, words_for

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One action in words.

    ``index`` is the action's place in the game (0 for the first, chance outcomes counted),
    ``period`` the round or turn it was taken in, ``seat`` the player who took it (None for
    the table's draws and reveals), ``text`` the sentence (``Red took the quarry with 8
    workers``), ``changes`` one line per player whose points or holdings changed for reasons
    the sentence does not say (``Red: +2 VP (the Priory, space 1), +1 stone (resource
    cards)``), in seat order.

    What the rules did by themselves after an action (the wool mill, the Priory, the tax,
    the final count) is an entry of its own after the action's, with the same ``index``,
    ``seat`` None, ``kind`` ``rules`` and the text ``Then, by the rules:``; so is each other
    thing they did (a Builders turn that ended by itself, the end of the game triggered),
    with no changes."""

    index: int
    period: int
    seat: int | None
    text: str
    changes: tuple[str, ...] = ()
    kind: str = "action"
    """``action`` for the action itself, ``rules`` for what the rules did after it."""

    @property
    def chance(self) -> bool:
        """Whether the table, not a player, took this action (a draw, a roll, a reveal)."""
        return self.seat is None and self.kind == "action"


@dataclass(frozen=True, slots=True)
class LogSection:
    """The actions of one round or turn: ``heading`` (``Round 2``, ``Turn 7: Blue``) and its
    ``entries`` (in the order of the log: newest first on the screen)."""

    period: int
    heading: str
    entries: tuple[LogEntry, ...]


def _actor(game: Game[S, A], state: S, action: A) -> int | None:
    seat = game.actor(state, action)
    return None if seat == CHANCE or seat < 0 else seat


def _changes(words: GameWords[object, object], state: State, new: Sequence[Entry]
             ) -> tuple[str, ...]:
    """Ledger entries as one line per player, in seat order, the changes of one cause
    together: ``Blue: -2 wood, +1 VP (Woodworker (start) at the cathedral)``."""
    by_seat: dict[int, dict[str, list[str]]] = {}
    for e in new:
        causes = by_seat.setdefault(e.player, {})
        causes.setdefault(words.cause_text(e), []).append(amount_text(e.what, e.amount))
    out = []
    for seat in sorted(by_seat):
        parts = [
            _("{change} ({cause})", change=_(", ").join(amounts), cause=cause)
            for cause, amounts in by_seat[seat].items()
        ]
        out.append(
            _("{name}: {changes}", name=words.seat_name(state, seat), changes=_(", ").join(parts))
        )
    return tuple(out)


def log_entries(
    game: Game[S, A],
    setup: Setup,
    actions: Sequence[A | str],
    *,
    newest_first: bool = True,
    states: Sequence[S] | None = None,
) -> list[LogSection]:
    """The game of ``setup`` after ``actions`` (actions or their notation, chance outcomes
    included, e.g. ``Playthrough.actions``) as log sections in the current language.

    ``newest_first`` (the screen's order) puts the latest round or turn first and, in each,
    the latest action first; False gives the order of play (the text export).  ``states``,
    when the caller has them, are the states before each action and after the last
    (``len(actions) + 1``); otherwise the actions are replayed.  Raises RecordError naming the
    1-based position of an action that is malformed or illegal."""
    if states is None:
        states = _replay(game, setup, actions)
    elif len(states) != len(actions) + 1:
        raise ValueError(
            f"{len(actions)} actions need {len(actions) + 1} states, not {len(states)}"
        )
    sections = extend_log(game, actions, states, [], 0)
    return newest_first_of(sections) if newest_first else sections


def newest_first_of(sections: list[LogSection]) -> list[LogSection]:
    """Sections in the order of play turned to the screen's: the latest round or turn first,
    and in each the latest action first."""
    return [LogSection(s.period, s.heading, tuple(reversed(s.entries)))
            for s in reversed(sections)]


def extend_log(game: Game[S, A], actions: Sequence[A | str], states: Sequence[S],
               older: list[LogSection], done: int) -> list[LogSection]:
    """The log (oldest first) of ``actions``, whose first ``done`` made the sections
    ``older`` (made by this function in the same language): those kept, the rest added (the
    round or turn under way continued).  ``states`` as for :func:`log_entries`."""
    words = words_for(game.name)
    sections = list(older)
    current: list[LogEntry] = []
    period: int | None = None
    heading = ""
    if sections:
        last = sections.pop()
        period, heading, current = last.period, last.heading, list(last.entries)
    ledger_before = game.ledger(states[done])
    periods = game.periods(states[: len(actions)], done)  # the game's, or its turns counted
    for i in range(done, len(actions)):
        written = actions[i]
        before, after = states[i], states[i + 1]
        action = game.parse_action(written) if isinstance(written, str) else written
        of = contract.period(game, periods[i - done])
        p = of.number
        if p != period:
            if period is not None:
                sections.append(LogSection(period, heading, tuple(current)))
            period, heading, current = p, words.period_heading(before, of), []
        ledger_after = game.ledger(after)
        new = ledger_after[len(ledger_before):]
        ledger_before = ledger_after
        current.extend(_entries(game, words, i, p, before, action, after, new))
    if period is not None:
        sections.append(LogSection(period, heading, tuple(current)))
    return sections


def _entries(
    game: Game[S, A],
    words: GameWords[object, object],
    i: int,
    period: int,
    before: S,
    action: A,
    after: S,
    new: Sequence[Entry],
) -> list[LogEntry]:
    """The log's entries of the ``i``-th action (``before`` it, ``after`` it, the ledger's
    ``new`` entries it made): the action with its own changes, then what the rules did by
    themselves, then what the game says happened after it."""
    roles = [words.ledger_role(before, action, e) for e in new]
    own = [e for e, r in zip(new, roles, strict=True) if r == "action"]
    rules = [e for e, r in zip(new, roles, strict=True) if r == "rules"]
    out = [
        LogEntry(
            i,
            period,
            _actor(game, before, action),
            words.action_text(before, action),
            _changes(words, before, own),
        )
    ]
    if rules:
        out.append(
            LogEntry(
                i, period, None, _("Then, by the rules:"), _changes(words, before, rules), "rules"
            )
        )
    after_words = words.aftermath(before, action, after)
    out.extend(LogEntry(i, period, None, text, (), "rules") for text in after_words)
    return out


def _replay(game: Game[S, A], setup: Setup, actions: Sequence[A | str]) -> list[S]:
    try:
        states = [game.initial_state(setup)]
    except RulesError as exc:
        raise RecordError(f"bad set-up: {exc}") from None
    for i, action in enumerate(actions, 1):
        try:
            a = game.parse_action(action) if isinstance(action, str) else action
            states.append(game.apply(states[-1], a))
        except RulesError as exc:
            raise RecordError(str(exc), i, str(action)) from None
    return states


def record_log(game: Game[S, A], record: Record, *, newest_first: bool = False) -> list[
    LogSection
]:
    """The log of a game record (oldest first unless ``newest_first``); RecordError for a
    record that does not replay."""
    if record.setup.game != game.name:
        raise RecordError(f"this record is for {record.setup.game!r}, not {game.name!r}")
    return log_entries(game, record.setup, record.actions, newest_first=newest_first)


def log_text(game: Game[S, A], record: Record) -> str:
    """The game of ``record`` as plain text in the current language, oldest first: the title
    and the players, then each round or turn under its heading, each action on a line with
    the changes it caused indented below it, and the result once the game is over."""
    words = words_for(game.name)
    if record.setup.game != game.name:
        raise RecordError(f"this record is for {record.setup.game!r}, not {game.name!r}")
    setup = record.setup
    states = _replay(game, setup, record.actions)
    sections = log_entries(game, setup, record.actions, newest_first=False, states=states)
    names = _(", ").join(
        marked(words.seat_name_of(setup, k), k in record.companions)
        for k in range(len(setup.players))
    )
    lines = [words.title(), _("Players: {names}", names=names), ""]
    for s in sections:
        lines.append(s.heading)
        for e in s.entries:
            lines.append(f"  {e.text}")
            lines.extend(f"      {c}" for c in e.changes)
        lines.append("")
    state = states[-1]
    if game.is_over(state):
        lines.append(_("Game over"))
        lines.append(words.result(contract.checked_summary(game, state)))
        lines.append("")
    return "\n".join(lines)


LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables a gettext program reads its language from, first one first."""


def language_from_environ(environ: Mapping[str, str]) -> str:
    """The language a command-line program speaks, chosen as gettext programs choose theirs:
    the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set and not empty,
    read as a colon-separated list of locales (``ja_JP.UTF-8``, ``zh_CN:en``), the first the
    kiosk speaks; English when none is (``C``, ``POSIX``, ``fr_FR``...)."""
    for var in LANGUAGE_VARIABLES:
        value = environ.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            if code in LANGUAGES:
                return code
        break
    return "en"


__all__ = [
    "LogEntry",
    "LogSection",
    "extend_log",
    "language_from_environ",
    "log_entries",
    "log_text",
    "newest_first_of",
    "record_log",
]
