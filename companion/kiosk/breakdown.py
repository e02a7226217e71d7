"""Every point explained: the ledger's entries in words and breakdowns by source.

The engine keeps a ledger (``companion.engine.ledger``): every change of a player's points and
holdings with its cause.  This module turns it into what the table reads:

- :func:`entry_lines`: the entries one action adds, one line per player, each change with its
  cause (a Priory's +2 VP and a Conflict's -2 VP stay two changes, never a net 0), for
  previews and results;
- :func:`period_table` and :func:`game_table`: the points and money of a round (or any
  period) and of a whole game by source (the Priory, events, tax, the cathedral...; the
  Builders' buildings, machines, coins converted), one column per player, and
  :func:`draw_table` to draw one.

The words for each cause tag are the game's (``GameWords.cause`` and ``GameWords.source``), so
nothing here knows which games there are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

import pygame

from companion.engine.core import Game, Setup
from companion.engine.ledger import Entry
from companion.text import clean

from . import retained, theme, ui
from .fonts import font
from .i18n import _
from .ui import draw_text, panel
from .words import amount_text as words_amount_text
from .words import player_name as words_player_name
from .words import words_for

S = TypeVar("S")
A = TypeVar("A")

Lines = list[tuple[str, str]]
"""(a player's colour or "", text), as the overlays draw them."""

MINUS = "\u2212"


def signed(n: int) -> str:
    """``+2``, ``−2`` (a real minus sign), ``0``."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def sentences(*parts: str) -> str:
    """Sentences one after the other as the language writes them: a space between them in
    English, none in Chinese and Japanese (the catalogue's ``{first} {then}``)."""
    out = ""
    for part in parts:
        if part:
            out = _("{first} {then}", first=out, then=part) if out else part
    return out


def number(n: int) -> str:
    """``2``, ``−2`` (a real minus sign)."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def amount_text(what: str, n: int) -> str:
    """A signed change of ``what`` (``vp``, ``gold``, ``coins``, ``workers`` or a resource):
    ``+2 VP``, ``-3 gold``, ``+1 worker``, as the log says it (``words.amount_text``)."""
    return words_amount_text(what, n)


def what_label(what: str) -> str:
    """The heading of a breakdown's section: ``VP``, ``Gold``, ``Coins``."""
    return {"vp": _("VP"), "gold": _("Gold"), "coins": _("Coins")}.get(what, what)


def seat_name(game: Game[S, A], state: S, seat: int) -> tuple[str, str]:
    """(colour, name as the table reads it) of ``seat``; the seat after the last is the solo
    Automa."""
    players = game.setup_of(state).players
    colour = players[seat].colour if seat < len(players) else ""
    return colour, clean(words_for(game.name).seat_name(state, seat))


def player_name(setup: Setup, seat: int) -> str:
    """The name of ``setup``'s seat ``seat`` as the table reads it, cleaned as every name
    shown (:func:`companion.text.clean`)."""
    return clean(words_player_name(setup, seat))


def _change(e: Entry) -> str:
    text = amount_text(e.what, e.amount)
    capped = int(e.get("capped", 0) or 0)
    if capped:
        text += _(" ({n} over a limit)", n=abs(capped))
    owed = int(e.get("owed", 0) or 0)
    if owed:
        text += _(" ({n} owed)", n=owed)
    return text


def entry_lines(game: Game[S, A], state: S, entries: Iterable[Entry]) -> Lines:
    """The changes ``entries`` make, in words: one line per player (in the order they first
    appear), each change with its cause, e.g. ``Red: the Priory, space 1 +2 VP · Conflict
    −2 VP``.  ``state`` names the players."""
    words = words_for(game.name)
    by_player: dict[int, dict[str, list[str]]] = {}
    for e in entries:
        causes = by_player.setdefault(e.player, {})
        causes.setdefault(words.cause_text(e), []).append(_change(e))
    out: Lines = []
    for seat, causes in by_player.items():
        colour, name = seat_name(game, state, seat)
        parts = [
            _("{cause}: {changes}", cause=c, changes=_(", ").join(changes))
            for c, changes in causes.items()
        ]
        out.append((colour, _("{name}: {changes}", name=name, changes=" · ".join(parts))))
    return out


def added(game: Game[S, A], before: S, after: S) -> tuple[Entry, ...]:
    """The ledger entries between ``before`` and ``after`` (a later state of the same game)."""
    old = len(game.ledger(before))
    return game.ledger(after)[old:]


def change_lines(game: Game[S, A], before: S, after: S) -> Lines:
    """What happens between two states, by cause (:func:`entry_lines` of :func:`added`)."""
    return entry_lines(game, before, added(game, before, after))


# ---------------------------------------------------------------------------------------------
# Tables by source.


@dataclass(frozen=True)
class Row:
    """One line of a table: a source and one amount per player (None: nothing), or a total."""

    label: str
    values: tuple[int | None, ...]
    total: bool = False
    signed: bool = True


@dataclass(frozen=True)
class Section:
    """One table: a heading (``VP``, ``Gold``) and its rows."""

    heading: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Breakdown:
    """Sections by source, one column per player (colour, name)."""

    title: str
    players: tuple[tuple[str, str], ...]
    sections: tuple[Section, ...] = field(default=())

    def lines(self) -> Lines:
        """The breakdown as one line per player (for a narrow panel or a test):
        ``Red: VP: Priory +2, Events −2; Gold: ...``."""
        out: Lines = []
        for k, (colour, name) in enumerate(self.players):
            parts = []
            for s in self.sections:
                items = [
                    _("{source} {n}", source=r.label,
                      n=signed(v) if r.signed else number(v))
                    for r in s.rows
                    if (v := r.values[k]) is not None
                ]
                if items:
                    parts.append(_("{heading}: {items}", heading=s.heading,
                                   items=_(", ").join(items)))
            out.append((colour, _("{name}: {changes}", name=name, changes="; ".join(parts))))
        return out


def _seats(game: Game[S, A], state: S) -> list[int]:
    return list(range(len(game.setup_of(state).players)))


def _section(
    game: Game[S, A],
    state: S,
    entries: Sequence[Entry],
    what: str,
    seats: list[int],
    totals: Sequence[tuple[str, dict[int, int], bool]],
    always: Sequence[str] = (),
) -> Section:
    words = words_for(game.name)
    sums: dict[str, dict[int, int]] = {label: {} for label in always}
    for e in entries:
        if e.what != what or e.player not in seats:
            continue
        row = sums.setdefault(words.source(e), {})
        row[e.player] = row.get(e.player, 0) + e.amount
    rows = [
        Row(label, tuple(row.get(s) if row.get(s) else None for s in seats))
        for label, row in sums.items()
        if any(row.values()) or label in always
    ]
    for label, values, is_signed in totals:
        rows.append(Row(label, tuple(values.get(s, 0) for s in seats), True, is_signed))
    return Section(what_label(what), tuple(rows))


def _sum(entries: Iterable[Entry], what: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in entries:
        if e.what == what:
            out[e.player] = out.get(e.player, 0) + e.amount
    return out


def period_table(game: Game[S, A], state: S, period: int, title: str) -> Breakdown:
    """The VP and money each player gained and lost in ``period`` (a round of Pillars, a turn
    of The Builders) by source, with the period's total and the amounts after it.  ``state``
    is any later state of the game (its ledger holds the period)."""
    ledger = game.ledger(state)
    entries = [e for e in ledger if e.period == period]
    upto = [e for e in ledger if e.period <= period]
    seats = _seats(game, state)
    sections = []
    money = words_for(game.name).money
    for what in ("vp", money) if money is not None else ("vp",):
        sections.append(
            _section(
                game,
                state,
                entries,
                what,
                seats,
                (
                    (_("This round"), _sum(entries, what), True),
                    (_("Now"), _sum(upto, what), False),
                ),
            )
        )
    players = tuple(seat_name(game, state, s) for s in seats)
    return Breakdown(title, players, tuple(sections))


def game_table(game: Game[S, A], state: S) -> Breakdown:
    """Each player's points over the whole game by source (the starting points, the Priory,
    events, the cathedral...; buildings, machines, coins converted), with the total."""
    ledger = game.ledger(state)
    seats = _seats(game, state)
    section = _section(
        game,
        state,
        ledger,
        "vp",
        seats,
        ((_("Total"), _sum(ledger, "vp"), False),),
        words_for(game.name).sources(),
    )
    rows = tuple(
        Row(r.label, tuple(v or 0 for v in r.values), r.total, False) if not r.total else r
        for r in section.rows
    )
    players = tuple(seat_name(game, state, s) for s in seats)
    return Breakdown(_("Points by source"), players, (Section(section.heading, rows),))


# ---------------------------------------------------------------------------------------------
# Drawing.


def fitted(text: str, f: pygame.font.Font, width: int) -> str:
    """``text`` as it fits ``width`` pixels in font ``f`` on one line: whole, or cut with an
    ellipsis (a name in a narrow column; its colour still says whose it is)."""
    if f.size(text)[0] <= width:
        return text
    for end in range(len(text) - 1, 0, -1):
        cut = text[:end].rstrip() + "…"
        if f.size(cut)[0] <= width:
            return cut
    return text[:1]


# Gains and losses in a table: the theme's text variants of good and bad where it has them
# (readable on the panels), else the plain colours.
GAIN: theme.Colour = getattr(theme, "GOOD_TEXT", theme.GOOD)
LOSS: theme.Colour = getattr(theme, "BAD_TEXT", theme.BAD)


def _fitting(rows: Sequence[Row], room: int) -> tuple[Row, ...]:
    """``rows`` as ``room`` lines hold them: all of them when they fit; else the totals and
    the sources with the largest amounts, the rest summed in one "Other" row (in their
    place: the totals still add up, and the log holds every entry)."""
    if len(rows) <= room:
        return tuple(rows)
    sources = [r for r in rows if not r.total]
    keep = max(0, room - (len(rows) - len(sources)) - 1)
    ranked = sorted(sources, key=lambda r: -sum(abs(v or 0) for v in r.values))
    kept = {id(r) for r in ranked[:keep]}
    rest = [r for r in sources if id(r) not in kept]
    n = len(rows[0].values)
    other = Row(_("Other"), tuple(
        (sum(r.values[k] or 0 for r in rest) or None) for k in range(n)))
    out = [r for r in rows if not r.total and id(r) in kept] + [other]
    return (*out, *(r for r in rows if r.total))[:max(1, room)]


def draw_section(
    surface: pygame.Surface,
    metrics: theme.Metrics,
    area: pygame.Rect,
    section: Section,
    players: Sequence[tuple[str, str]],
) -> None:
    """One section as a grid: the heading and the players' names on top, a source per row,
    totals last (bold, on a lighter band).  Text is the screen's small size, rows as tall as
    its lines; a name too long for its column is cut with an ellipsis."""
    m = metrics
    n = max(1, len(players))
    size = m.small
    plain, bold = font(size), font(size, True)
    line = bold.get_linesize()
    pad = m.px(4)
    widest = max([bold.size(r.label)[0] for r in section.rows] + [bold.size(section.heading)[0]])
    label_w = min(widest + 2 * pad, area.width * 2 // 5)
    col_w = max(1, (area.width - label_w) // n)
    head_h = line + 2 * pad
    shown = _fitting(section.rows, max(1, (area.height - head_h) // line))
    rows = len(shown)
    row_h = max(line, min(m.px(34), (area.height - head_h) // max(1, rows)))
    head = pygame.Rect(area.x, area.y, area.width, head_h)
    draw_text(surface, fitted(section.heading, bold, label_w - pad),
              pygame.Rect(head.x, head.y, label_w, head_h), size, theme.ACCENT, bold=True,
              align="left", lines=1, min_size=size)
    for k, (colour, name) in enumerate(players):
        cell = pygame.Rect(head.x + label_w + k * col_w, head.y, col_w, head_h)
        chip = cell.inflate(-pad, -pad)
        panel(surface, chip, theme.PLAYER.get(colour, theme.PANEL_HI), radius=pad)
        draw_text(surface, fitted(name, bold, chip.width - pad), chip, size,
                  theme.PLAYER_TEXT.get(colour, theme.TEXT), bold=True, lines=1, min_size=size)
    y = head.bottom
    for row in shown:
        r = pygame.Rect(area.x, y, area.width, row_h)
        if r.bottom > area.bottom + 1:  # the overflow check sees rows left out
            ui.OVERFLOWS.append(f"{section.heading!r}: row {row.label!r} below {area}")
            break
        if row.total:
            panel(surface, r, theme.PANEL_HI, radius=pad)
        label_f = bold if row.total else plain
        draw_text(surface, fitted(row.label, label_f, label_w - 2 * pad),
                  pygame.Rect(r.x + pad, r.y, label_w - pad, row_h), size,
                  theme.TEXT if row.total else theme.MUTED, bold=row.total, align="left",
                  lines=1, min_size=size)
        for k, value in enumerate(row.values):
            if value is None:
                continue
            text = signed(value) if row.signed else number(value)
            tint: theme.Colour = (
                theme.TEXT
                if row.total or not row.signed
                else GAIN if value > 0 else LOSS if value < 0 else theme.MUTED
            )
            cell = pygame.Rect(r.x + label_w + k * col_w, r.y, col_w, row_h)
            draw_text(surface, text, cell, size, tint, bold=row.total, lines=1,
                      min_size=size)
        y += row_h


def draw_breakdown(
    surface: pygame.Surface, metrics: theme.Metrics, area: pygame.Rect, table: Breakdown
) -> None:
    """A breakdown's sections side by side (landscape) or one above the other (portrait);
    kept whole (``retained``: a round's breakdown stays on screen until Continue, under
    every light and message)."""
    retained.pixels(surface, area, table, partial(_draw_breakdown, surface, metrics, area, table),
                    "breakdown")


def _draw_breakdown(
    surface: pygame.Surface, metrics: theme.Metrics, area: pygame.Rect, table: Breakdown
) -> None:
    m = metrics
    sections = table.sections
    if not sections:
        return
    k = len(sections)
    if m.portrait or k == 1:
        heights = [len(s.rows) + 1 for s in sections]
        total = sum(heights)
        y = area.y
        for s, h in zip(sections, heights, strict=True):
            part = pygame.Rect(area.x, y, area.width, (area.height - m.gap * (k - 1)) * h // total)
            draw_section(surface, m, part, s, table.players)
            y = part.bottom + m.gap
    else:
        w = (area.width - m.gap * 2 * (k - 1)) // k
        for i, s in enumerate(sections):
            part = pygame.Rect(area.x + i * (w + m.gap * 2), area.y, w, area.height)
            draw_section(surface, m, part, s, table.players)


__all__ = [
    "Breakdown",
    "Lines",
    "Row",
    "Section",
    "added",
    "amount_text",
    "change_lines",
    "draw_breakdown",
    "draw_section",
    "entry_lines",
    "fitted",
    "game_table",
    "period_table",
    "player_name",
    "seat_name",
    "sentences",
    "signed",
]
