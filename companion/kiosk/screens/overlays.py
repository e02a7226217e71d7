"""Overlays shared by the game screens, drawn over a screen's decision panel: the preview of
an action with Cancel and Confirm, a result with Continue, and the help panel.

Each takes the screen (for its metrics and buttons), the surface and the area to cover.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar

import pygame

from companion.events import Role
from companion.kiosk import retained, theme
from companion.kiosk.fonts import font
from companion.kiosk.i18n import _
from companion.kiosk.linebreak import wrap
from companion.kiosk.ui import draw_text, fitted_height, panel, split_h, text_height
from companion.kiosk.ui import min_text as ui_min_text

if TYPE_CHECKING:
    from .base import GameScreen, Screen
    from .covers import Covers

S = TypeVar("S")
A = TypeVar("A")

Lines = list[tuple[str, str]]
"""Lines of a preview or a result: (a player's colour or "", text)."""


def draw_lines(screen: Screen, surface: pygame.Surface, area: pygame.Rect, lines: Lines) -> None:
    """One row per line, with a bar in the player's colour."""
    m = screen.m
    if not lines:
        return
    # a long line (a player's changes by cause) gets the height of the rows it needs, at the
    # size it is drawn (never below the display's smallest)
    width = area.width - m.px(12)
    need = [fitted_height(surface, text, width, 0, m.small, lines=8) for _c, text in lines]
    pad = max(0, min(m.px(8), (area.height - sum(need)) // max(1, len(lines))))
    y = area.y
    for (colour, text), h in zip(lines, need, strict=True):
        r = pygame.Rect(area.x, y, area.width, min(h + pad, area.bottom - y))
        y = r.bottom
        c = theme.PLAYER.get(colour, theme.TEXT)
        if colour:
            pygame.draw.rect(surface, c, (r.x, r.y + 4, m.px(6), r.height - 8))
        draw_text(
            surface,
            text,
            pygame.Rect(r.x + m.px(12), r.y, r.width - m.px(12), r.height),
            m.small,
            theme.TEXT,
            align="left",
            lines=8,
        )


def lines_fit(screen: Screen, area: pygame.Rect, lines: Lines) -> bool:
    """Whether ``lines`` fit a preview or a result drawn over ``area`` at the screen's small
    text size (else the screen gives the overlay more room)."""
    m = screen.m
    f = font(m.small)
    inner = area.inflate(-m.gap * 2, -m.gap * 2)
    room = inner.height - m.px(56) - m.touch - m.gap * 3
    width = inner.width - m.px(12)
    rows = sum(max(1, len(wrap(text, f, width))) for _c, text in lines)
    return rows * f.get_linesize() <= room


def _frame(
    screen: Screen, surface: pygame.Surface, area: pygame.Rect, title: str
) -> tuple[pygame.Rect, pygame.Rect]:
    """The overlay's panel and title; its body and footer rectangles."""
    m = screen.m
    panel(surface, area, theme.PANEL, border=theme.ACCENT)
    inner = area.inflate(-m.gap * 2, -m.gap * 2)
    title_r = pygame.Rect(inner.x, inner.y, inner.width, m.px(56))
    draw_text(surface, title, title_r, m.large, theme.ACCENT, bold=True, lines=2)
    foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
    body = pygame.Rect(
        inner.x, title_r.bottom + m.gap, inner.width, foot.y - title_r.bottom - m.gap * 2
    )
    return body, foot


def draw_preview(
    screen: Screen,
    surface: pygame.Surface,
    area: pygame.Rect,
    title: str,
    lines: Lines,
    cancel: Callable[[], None],
    confirm: Callable[[], None],
) -> None:
    """An action not yet taken: what it changes, with Cancel and Confirm; kept whole
    (``retained``) by all it is drawn from."""
    retained.panel(screen, surface, area, (title, tuple(lines), cancel, confirm),
                   partial(_draw_preview, screen, surface, area, title, lines, cancel, confirm),
                   "preview")


def _draw_preview(screen: Screen, surface: pygame.Surface, area: pygame.Rect, title: str,
                  lines: Lines, cancel: Callable[[], None], confirm: Callable[[], None]) -> None:
    body, foot = _frame(screen, surface, area, title)
    draw_lines(screen, surface, body, lines or [("", _("Nothing else changes"))])
    cancel_r, ok_r = split_h(foot, 1, 1, gap=screen.m.gap)
    screen.button(surface, cancel_r, _("Cancel"), cancel, key="cancel", role=Role.BACK)
    screen.button(
        surface,
        ok_r,
        _("Confirm"),
        confirm,
        key="confirm",
        role=Role.CONFIRM,
        fill=theme.ACCENT,
        text_colour=theme.OUTLINE,
    )


def draw_result(
    screen: Screen,
    surface: pygame.Surface,
    area: pygame.Rect,
    title: str,
    lines: Lines,
    dismiss: Callable[[], None],
) -> None:
    """What happened, with Continue; kept whole (``retained``) by all it is drawn from."""
    retained.panel(screen, surface, area, (title, tuple(lines), dismiss),
                   partial(_draw_result, screen, surface, area, title, lines, dismiss), "result")


def _draw_result(screen: Screen, surface: pygame.Surface, area: pygame.Rect, title: str,
                 lines: Lines, dismiss: Callable[[], None]) -> None:
    body, foot = _frame(screen, surface, area, title)
    draw_lines(screen, surface, body, lines)
    screen.button(
        surface,
        foot,
        _("Continue"),
        dismiss,
        key="continue",
        role=Role.CONFIRM,
        fill=theme.ACCENT,
        text_colour=theme.OUTLINE,
    )


TABLEAU_LINES = 12
"""The most lines a row of a tableau takes (a long list of workers on a portrait screen)."""


def draw_tableau(
    screen: Screen,
    surface: pygame.Surface,
    area: pygame.Rect,
    title: str,
    rows: list[tuple[str, str]],
    close: Callable[[], None],
) -> None:
    """A player's whole tableau: rows of (label, what), and Close."""
    m = screen.m
    body, foot = _frame(screen, surface, area, title)
    n = max(1, len(rows))
    row_h = max(m.px(22), min(m.px(48), body.height // n))
    label_font = font(max(m.small, ui_min_text(surface)))
    label_w = min(body.width // 4,
                  max((label_font.size(label)[0] for label, _t in rows), default=0) + m.gap * 2)
    # a long row (a list of craftsmen) gets the lines it needs while the others keep theirs,
    # so that no list is cut
    floor = text_height(surface, m.small) + m.px(4)
    need = [max(floor, fitted_height(surface, text, body.width - label_w, 0, m.small,
                                     lines=TABLEAU_LINES))
            for _label, text in rows]
    if sum(need) > body.height:  # too little room: each row in proportion to its need
        need = [max(floor, h * body.height // sum(need)) for h in need]
    else:  # the room left shared out, up to the usual row height each
        extra = (body.height - sum(need)) // n
        need = [max(h, min(row_h, h + extra)) if h < row_h else h for h in need]
    y = body.y
    for (label, text), h in zip(rows, need, strict=True):
        r = pygame.Rect(body.x, y, body.width, h)
        y += h
        if r.bottom > body.bottom:
            break
        draw_text(surface, label, pygame.Rect(r.x, r.y, label_w - m.gap, r.height), m.small,
                  theme.MUTED, align="left", lines=2, min_size=m.px(10))
        draw_text(surface, text, pygame.Rect(r.x + label_w, r.y, r.width - label_w, r.height),
                  m.small, theme.TEXT, align="left", lines=TABLEAU_LINES, min_size=m.px(10))
    screen.button(surface, foot, _("Close"), close, key="close tableau", role=Role.CONFIRM)


def help_frame(
    screen: Screen, surface: pygame.Surface, area: pygame.Rect, title: str | None = None
) -> tuple[pygame.Rect, pygame.Rect]:
    """The help panel's frame (and title, if any); its body and footer rectangles.  The
    screen draws the body and its ``help_footer`` in the footer."""
    m = screen.m
    panel(surface, area, theme.PANEL, border=theme.ACCENT)
    inner = area.inflate(-m.gap * 3, -m.gap * 3)
    top = inner.y
    if title is not None:
        title_r = pygame.Rect(inner.x, inner.y, inner.width, m.px(40))
        draw_text(surface, title, title_r, m.large, theme.ACCENT, bold=True, lines=1)
        top = title_r.bottom + m.gap
    foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
    gap = m.gap * 2 if title is not None else m.gap
    body = pygame.Rect(inner.x, top, inner.width, foot.y - top - gap)
    return body, foot


def paged_help(screen: GameScreen[S, A], surface: pygame.Surface, body: pygame.Rect,
               foot: pygame.Rect, texts: list[tuple[str, theme.Colour]]) -> None:
    """The help's texts (each with its colour) over ``body``, paged when they do not fit
    (never cut: ``paging``), and its footer: More on every page but the last."""
    from companion.kiosk.paging import draw_piece, pages

    m = screen.m
    words = [t for t, _c in texts]
    for size in (m.text, m.small):
        laid = pages(surface, words, body.width, size, body.height, m.gap)
        if len(laid) == 1:
            break
    teacher = screen.teacher
    teacher.page = min(teacher.page, len(laid) - 1)
    y = body.y
    for piece in laid[teacher.page]:
        draw_piece(surface, piece, pygame.Rect(body.x, y, body.width, piece.height), size,
                   texts[piece.index][1])
        y += piece.height + m.gap
    if teacher.page < len(laid) - 1:
        more, rest = split_h(foot, 1, 2, gap=m.gap)
        screen.button(surface, more, _("More: page {k} of {n}", k=teacher.page + 1,
                                       n=len(laid)),
                      teacher.next_page, key="help more", role=Role.CONFIRM, short=_("More"))
        help_buttons(screen, surface, rest, close_role=None)
    else:
        help_buttons(screen, surface, foot)


def help_buttons(screen: Covers[S, A], surface: pygame.Surface,
                 foot: pygame.Rect, close_role: Role | None = Role.CONFIRM) -> None:
    """The help's footer: the set-up guide (a game with one), the table check (a camera
    attached: what the overhead camera sees against what the engine holds), Close."""
    from companion.kiosk.guide import guide_for

    app = screen.app

    def goto(name: str) -> None:
        screen.help_open = False
        app.go(name, previous=screen)

    buttons = []
    if guide_for(screen.game.name) is not None:
        buttons.append((_("Set-up guide"), partial(goto, "guide"), "setup guide"))
    if any(callable(getattr(d, "check_table", None)) for d in app.devices):
        buttons.append((_("Table check"), partial(goto, "table-check"), "table check"))
    cells = split_h(foot, *([1] * (len(buttons) + 1)), gap=screen.m.gap)
    for (label, tap, key), cell in zip(buttons, cells, strict=False):
        screen.button(surface, cell, label, tap, key=key)
    screen.button(surface, cells[-1], _("Close"), screen.toggle_help, key="close",
                  role=close_role)


def legend(pairs: list[tuple[str, str]]) -> str:
    """A legend of the abbreviations a screen shows, one per line (``S1: a stone of 1``), for
    a hold on them or the help (``GameScreen.read(_("What the marks mean"), legend(...))``):
    every abbreviation on screen has its legend."""
    return "\n".join(_("{mark}: {meaning}", mark=mark, meaning=meaning) for mark, meaning in pairs)


def draw_explanation(
    screen: Screen,
    surface: pygame.Surface,
    area: pygame.Rect,
    title: str,
    text: str,
    close: Callable[[], None],
) -> None:
    """What a control held down does (an option, a choice, an abbreviation), with Close: the
    only thing to tap until closed."""
    m = screen.m
    screen.buttons = []
    body, foot = help_frame(screen, surface, area, title)
    draw_text(surface, text, body, m.text, theme.TEXT, align="left", valign="top", lines=12,
              min_size=m.px(12))
    screen.button(surface, foot, _("Close"), close, key="close explanation",
                  role=(Role.CONFIRM, Role.BACK))


__all__ = [
    "Lines",
    "draw_explanation",
    "legend",
    "draw_lines",
    "draw_preview",
    "draw_result",
    "draw_tableau",
    "help_frame",
    "lines_fit",
]
