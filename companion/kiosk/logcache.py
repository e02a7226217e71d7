"""The game log's words and measures kept between the times it is opened (``screens/log``).

A long game's log built and laid out afresh took most of the log's first frame (20 ms here
for 360 actions, 0.25 s on a Pi 4).  A played action's log lines never change, so the log of
the game on the table is kept (:func:`table_log`: the actions since are added, a few at a time
in the kiosk's idle time, ``screens.ahead``), and so is each line's measure
(:func:`measured`); the log opened then lays out from what is kept and draws the rows in view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.text import clean

from .fonts import font
from .gamelog import LogSection, extend_log, newest_first_of
from .i18n import language
from .linebreak import wrap  # as draw_text breaks its lines
from .textcache import LRU
from .ui import title_bar_height

if TYPE_CHECKING:
    from companion.journal import JournaledGame

    from .theme import Metrics


def rows(text: str, f: pygame.font.Font, width: int) -> int:
    """How many lines ``text`` takes ``width`` pixels wide, broken as ``draw_text`` breaks it
    (most log lines fit on one: one measure instead of the wrapping's)."""
    if "\n" not in text and f.size(text)[0] <= width:
        return 1
    return len(wrap(text, f, width))


def shown(text: str) -> str:
    """A log line as it can be drawn: the players' names in it may hold any character, so
    control and format characters go (:func:`companion.text.clean`, without its length
    limit)."""
    return clean(text, limit=max(1, len(text)))


MEASURED_MOST = 8192
"""Lines measured kept at most (a long game has about a thousand)."""

MEASURED: LRU[tuple[str, int]] = LRU("log lines", MEASURED_MOST)
"""A log line, by its text, font and width: as it is drawn (:func:`shown`) and its lines
(:func:`rows`).  A game's lines do not change once played, so the log opened again measures
only the lines since (a long game's log laid out afresh took most of its first frame)."""


def measured(text: str, f: pygame.font.Font, width: int) -> tuple[str, int]:
    """``text`` as drawn and the lines it takes ``width`` pixels wide in ``f`` (kept)."""
    key = (text, f, width)
    found = MEASURED.get(key)
    if found is None:
        line = shown(text)
        found = MEASURED.put(key, (line, rows(line, f, width)))
    return found


_BUILT: dict[tuple[int, str], tuple[int, object, list[LogSection]]] = {}
"""The log of the game on the table (oldest first), by its journal id and language, with how
many actions it holds and the state after them: the log opened again adds the actions since
(``extend_log``) while that state is still the one after as many actions (an undo past it,
or a game resumed anew, builds it again)."""


LOG_STEP = 30
"""The most actions :func:`keep_up` adds to the kept log at a time (a few ms here, tens on a
Pi 4: a tap waits for one step at most)."""


def table_log(session: JournaledGame, most: int | None = None) -> list[LogSection]:
    """The log of the game on the table, newest first, in the current language; with
    ``most``, the kept log brought up to date by at most that many actions (what it then
    holds)."""
    pt = session.playthrough
    actions, states = pt.actions, pt.states
    done, older = _kept(session)
    upto = len(actions) if most is None else min(len(actions), done + most)
    built = extend_log(session.game, actions[:upto], states[:upto + 1], older, done)
    _BUILT.clear()
    _BUILT[(session.id, language())] = (upto, states[upto], built)
    return newest_first_of(built)


def _kept(session: JournaledGame) -> tuple[int, list[LogSection]]:
    """How many of the game's actions the kept log holds, and its sections (oldest first):
    none when it was kept for another game or language, or the game was undone past it."""
    found = _BUILT.get((session.id, language()))
    pt = session.playthrough
    if found is None or found[0] > len(pt.actions) or pt.states[found[0]] is not found[1]:
        return 0, []
    return found[0], found[2]


def behind(session: JournaledGame | None) -> bool:
    """Whether the kept log of ``session`` lacks some of its actions."""
    return session is not None and _kept(session)[0] != len(session.playthrough.actions)


def keep_up(session: JournaledGame, m: Metrics, size: tuple[int, int]) -> None:
    """Bring the kept log of ``session`` up to date by at most ``LOG_STEP`` actions, and
    measure the lines it added as the log screen of ``size`` shows them."""
    done = _kept(session)[0]
    sections = table_log(session, LOG_STEP)
    top = title_bar_height(m)
    view, _buttons = log_view(m, pygame.Rect(0, top, size[0], size[1] - top))
    entry, change = line_widths(m, view.width)
    f = font(m.small)
    for section in sections:
        for e in section.entries:
            if e.index < done:
                return  # (newest first: the rest was measured before)
            measured(e.text, f, entry)
            for c in e.changes:
                measured(c, f, change)


def line_widths(m: Metrics, width: int) -> tuple[int, int]:
    """How wide an action's line and a change's line are in a log list ``width`` wide."""
    return width - m.px(20), width - m.px(36)


def clear() -> None:
    """Forget the kept log and the lines measured (``textcache.clear`` forgets the lines)."""
    _BUILT.clear()
    MEASURED.clear()


def log_view(m: Metrics, area: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The log screen's list and its column of buttons, in ``area`` (below the title bar)."""
    inner = area.inflate(-m.gap * 2, -m.gap * 2)
    side = m.touch + m.px(8)
    view = pygame.Rect(inner.x, inner.y, inner.width - side - m.gap, inner.height)
    return view, pygame.Rect(view.right + m.gap, inner.y, side, inner.height)


__all__ = ["LOG_STEP", "MEASURED", "MEASURED_MOST", "behind", "clear", "keep_up", "line_widths",
           "log_view", "measured", "rows", "shown", "table_log"]
