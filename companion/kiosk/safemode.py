"""The safe mode: what the kiosk shows after it failed several times in a few minutes, rather
than a dark screen.

``companion session`` starts the kiosk with ``--safe-mode`` after repeated failures
(``companion/session.py``).  The safe mode opens nothing that could have failed: no button
panel, no camera, the journal read-only.  It shows what failed (how the kiosk ended, and its
last words) and the journal's games, and starts normally again when the table asks or after
SAFE_MODE_MINUTES, whichever comes first.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from companion.events import Role
from companion.journal import GameInfo
from companion.text import clean

from . import theme
from .i18n import _
from .screens.base import Screen
from .ui import draw_text, fitted_height, min_text, panel
from .words import game_title, seat_labels

if TYPE_CHECKING:
    from .context import Kiosk

SAFE_MODE_MINUTES = 10
"""How long the safe mode stays before it tries a normal start by itself."""


@dataclass(frozen=True)
class Ending:
    """How the kiosk ended once: its exit status, and its last words if it left any."""

    status: int
    fault: str = ""


def ending_text(ending: Ending) -> str:
    """How the kiosk ended, in the table's language."""
    if ending.status > 128:
        try:
            name = signal.Signals(ending.status - 128).name
        except ValueError:
            name = str(ending.status - 128)
        text = _("stopped by the signal {name}", name=name)
    else:
        text = _("ended with status {status}", status=ending.status)
    return f"{text}: {clean(ending.fault, 160)}" if ending.fault else text


def status_text(status: str) -> str:
    if status == "playing":
        return _("unfinished")
    if status == "finished":
        return _("finished")
    return _("abandoned")


def game_line(info: GameInfo) -> str:
    """One game of the journal: its id, title, status, players and scores."""
    players = ", ".join(
        f"{clean(label, 24)} {info.scores.get(p.name, 0)}{'*' if p.name in info.winners else ''}"
        for p, label in zip(info.setup.players, seat_labels(info.setup, info.companions),
                            strict=True)
    )
    return f"#{info.id} {game_title(info.game)} · {status_text(info.status)} · {players}"


class SafeModeScreen(Screen):
    """What failed, the journal's games, and Start normally.  Nothing here writes."""

    def __init__(
        self,
        app: Kiosk,
        endings: list[Ending],
        games: list[GameInfo],
        problems: list[str],
        minutes: int = SAFE_MODE_MINUTES,
    ) -> None:
        super().__init__(app)
        self.endings = endings
        self.games = games
        self.problems = problems
        self.left = minutes * 60.0
        self._shown_minutes = minutes

    def update(self, dt: float) -> bool:
        self.left -= dt
        if self.left <= 0:
            self.start_normally()
        minutes = max(1, int(self.left // 60) + 1)
        changed = minutes != self._shown_minutes
        self._shown_minutes = minutes
        return changed

    def start_normally(self) -> None:
        """End the safe mode with status 0: the session clears its log of failures and the
        unit starts the kiosk again, normally."""
        self.app.running = False

    def lines(self) -> list[str]:
        out = [ending_text(e) for e in self.endings[-4:]]
        out += [clean(p, 200) for p in self.problems]
        return out

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        area = self.title_bar(surface, _("Safe mode"), back=False,
                              right=[self.language_button()])
        box = area.inflate(-m.px(24), -m.px(16))
        box.height -= m.touch + m.gap
        panel(surface, box, theme.PANEL, border=theme.BAD)
        inner = box.inflate(-m.px(20), -m.px(12))
        intro = _(
            "The companion stopped {n} times in a few minutes, so it started in safe mode: "
            "no game can be played here and nothing is changed. It tries a normal start "
            "again in {minutes} min, or now with Start normally.",
            n=len(self.endings), minutes=self._shown_minutes,
        )
        # each part as tall as its text needs (what failed one line per failure, a game per
        # line), shared out in proportion when the screen is too small for all
        floor = min_text(surface)
        failed = "\n".join([_("What failed:"), *(self.lines() or ["?"])])
        rows = [_("Games in the journal:"), *(game_line(g) for g in self.games)]
        if not self.games:
            rows = [_("No game in the journal.")]
        games = "\n".join(rows)
        parts = [(intro, m.text, theme.TEXT, 6), (failed, m.small, theme.MUTED, 10),
                 (games, m.small, theme.TEXT, 2 * len(rows))]
        need = [fitted_height(surface, text, inner.width, 0, size, lines=lines)
                for text, size, _c, lines in parts]
        room = inner.height - m.gap * 2
        if sum(need) > room:
            need = [h * room // sum(need) for h in need]
        y = inner.y
        for (text, size, colour, lines), h in zip(parts, need, strict=True):
            draw_text(surface, text, pygame.Rect(inner.x, y, inner.width, h), size, colour,
                      align="left", valign="top", lines=lines, min_size=floor)
            y += h + m.gap
        row = pygame.Rect(box.right - m.touch * 5, box.bottom + m.gap, m.touch * 5, m.touch)
        self.button(surface, row, _("Start normally"), self.start_normally, key="normal",
                    role=Role.CONFIRM)


__all__ = ["SAFE_MODE_MINUTES", "Ending", "SafeModeScreen", "ending_text", "game_line"]
