"""The table check: what the overhead camera sees against what the engine holds.

It lists every difference the camera device's ``check_table`` finds between the cards in
each zone of the table and the game's state, refreshed every second from the camera's latest
frame; or says why it cannot tell (no camera, the camera offline, corner markers out of view).
It reads only: nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import pygame

from companion.engine.core import Setup
from companion.engine.registry import GameSpec, TableZone
from companion.engine.registry import spec as game_spec
from companion.kiosk import theme
from companion.kiosk.i18n import _, n_
from companion.kiosk.ui import draw_text, panel
from companion.kiosk.words import card_name, name_of, words_for

from .base import Screen

if TYPE_CHECKING:
    from companion.kiosk.context import Kiosk

REFRESH_SECONDS = 1.0


class Difference(Protocol):
    """What the camera's table mode reports for one card (``vision.table.Difference``)."""

    kind: str
    card: str
    zone: TableZone
    engine_zone: TableZone | None


class TableCheck(Protocol):
    """What ``check_table`` returns (``vision.table.TableCheck``)."""

    corners: int
    differences: Sequence[Difference]
    unseen: Sequence[Difference]

    @property
    def ok(self) -> bool: ...


@runtime_checkable
class TableCamera(Protocol):
    """A camera device with the table mode (``vision.device.CameraDevice``)."""

    @property
    def online(self) -> bool: ...

    def check_table(self, spec: GameSpec, state: object, *,
                    asked: Collection[str] = ()) -> TableCheck: ...


def camera_of(app: Kiosk) -> TableCamera | None:
    """The app's camera device (one with ``check_table()``), or None."""
    for d in app.devices:
        if isinstance(d, TableCamera):
            return d
    return None


def zone_name(zone: TableZone | None, setup: Setup) -> str:
    """A table zone in plain words: ``Kingsbridge``, ``Ann's craftsmen``..."""
    if zone is None:
        return ""
    if zone.area is not None:
        return words_for(setup.game).area_name(zone.area)
    name = name_of(setup.players[zone.seat]) if zone.seat is not None else ""
    if zone.role == "craftsmen":
        return _("{name}'s craftsmen", name=name)
    if zone.role == "sites":
        return _("{name}'s building sites", name=name)
    return _("{name}'s idle workers", name=name)


def difference_text(game: str, diff: Difference, setup: Setup) -> str:
    """One difference between the table and the engine, in the table's language (``setup``
    names the seats)."""
    name = card_name(game, diff.card)
    if diff.kind == "moved":
        return _("{card} is in {there} on the table, in {here} for the engine", card=name,
                 there=zone_name(diff.zone, setup), here=zone_name(diff.engine_zone, setup))
    if diff.kind == "missing":
        return _("{card} is missing from {zone}", card=name, zone=zone_name(diff.zone, setup))
    if diff.kind == "unseen":  # covered or gone: the camera cannot tell which
        return _("{card} is not seen in {zone}; tap here if it is not on the table", card=name,
                 zone=zone_name(diff.zone, setup))
    return _("{card} is in {zone} on the table, but not for the engine", card=name,
             zone=zone_name(diff.zone, setup))


class TableCheckScreen(Screen):
    """A read-only list of the differences between the table and the engine."""

    def __init__(self, app: Kiosk, previous: Screen | None = None) -> None:
        super().__init__(app)
        self.previous = previous
        self.lines: list[str] = []
        self.unseen: list[str | None] = []  # per line: the card not seen, which a tap asks about
        self.asked: set[str] = set()  # cards the table said are not there: missing, not unseen
        self.notice = ""
        self.good = False
        self.since = 0.0
        self.page = 0

    def on_show(self) -> None:
        self.check()

    def check(self) -> None:
        """Compare the camera's latest frame with the engine's state."""
        before = (self.lines, self.notice, self.good)
        self.lines, self.good = [], False
        camera = camera_of(self.app)
        session = self.app.session
        if session is None:
            self.notice = _("No game is being played")
        elif camera is None:
            self.notice = _("No camera: the table check needs the overhead camera")
        elif not camera.online:
            self.notice = _("Camera offline")
        else:
            spec = game_spec(session.game.name)
            result = (camera.check_table(spec, session.state, asked=frozenset(self.asked))
                      if self.asked else camera.check_table(spec, session.state))
            if not result.ok:
                self.notice = _(
                    "Show all four corner markers to the camera ({n} of 4 seen)", n=result.corners
                )
            else:
                setup = session.game.setup_of(session.state)
                found = (*result.differences, *result.unseen)
                self.lines = [difference_text(spec.name, d, setup) for d in found]
                self.unseen = [d.card if d.kind == "unseen" else None for d in found]
                self.good = not self.lines
                self.notice = (
                    _("The table matches the engine")
                    if self.good
                    else n_(
                        "{n} difference between the table and the engine",
                        "{n} differences between the table and the engine",
                        len(self.lines),
                    )
                )
        if (self.lines, self.notice, self.good) != before:
            self.app.dirty = True

    def update(self, dt: float) -> bool:
        self.since += dt
        if self.since >= REFRESH_SECONDS:
            self.since = 0.0
            self.check()
        return False

    def back(self) -> None:
        if self.previous is not None:
            self.app.show(self.previous)
            return
        if self.app.session is not None:
            self.app.open_game()
            return
        self.app.go("home")

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        area = self.title_bar(
            surface, _("Table check"), right=[(_("Check again"), self.check, "recheck")]
        )
        inner = area.inflate(-m.gap * 4, -m.gap * 2)
        head = pygame.Rect(inner.x, inner.y, inner.width, m.touch)
        draw_text(
            surface,
            self.notice,
            head,
            m.text,
            theme.GOOD if self.good else theme.TEXT,
            align="left",
            bold=True,
            lines=2,
        )
        body = pygame.Rect(
            inner.x, head.bottom + m.gap, inner.width, inner.bottom - head.bottom - m.gap
        )
        if not self.lines:
            return
        self.differences(surface, body)

    def differences(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        """The page of differences on show over ``body`` (a card the camera does not see is a
        row to tap: the table says it is not there), and the pages' buttons."""
        m = self.m
        row_h = max(m.text * 2, m.touch) + m.gap
        nav_h = m.touch + m.gap
        per_page = max(1, (body.height - nav_h) // row_h)
        pages = (len(self.lines) + per_page - 1) // per_page
        self.page = min(self.page, pages - 1)
        shown = self.lines[self.page * per_page : (self.page + 1) * per_page]
        cards = self.unseen[self.page * per_page : (self.page + 1) * per_page]
        for i, (line, card) in enumerate(zip(shown, cards + [None] * len(shown), strict=False)):
            row = pygame.Rect(body.x, body.y + i * row_h, body.width, row_h - m.gap)
            panel(surface, row, theme.PANEL_HI if card else theme.PANEL, radius=6)
            if card is not None:  # the table answers: not there (a covered card stays unseen)
                self.tap_area(row, partial(self.ask, card), f"ask {card}")
            draw_text(
                surface,
                line,
                row.inflate(-m.gap * 2, -4),
                m.text,
                theme.TEXT,
                align="left",
                lines=2,
            )
        if pages > 1:
            nav = pygame.Rect(body.x, body.bottom - m.touch, body.width, m.touch)
            self.page_buttons(surface, nav, pages)

    def page_buttons(self, surface: pygame.Surface, nav: pygame.Rect, pages: int) -> None:
        """Previous, the page's number, Next."""
        m = self.m
        third = nav.width // 3
        self.button(
            surface,
            pygame.Rect(nav.x, nav.y, third - m.gap, m.touch),
            _("Previous"),
            self.prev,
            key="previous",
            enabled=self.page > 0,
        )
        draw_text(
            surface,
            f"{self.page + 1} / {pages}",
            pygame.Rect(nav.x + third, nav.y, third, m.touch),
            m.text,
            theme.MUTED,
        )
        self.button(
            surface,
            pygame.Rect(nav.right - third + m.gap, nav.y, third - m.gap, m.touch),
            _("Next"),
            self.next,
            key="next",
            enabled=self.page < pages - 1,
        )

    def ask(self, card: str) -> None:
        """The table says ``card``, not seen by the camera, is not on the table: from now on
        it is missing (until then a covered card is only "not seen")."""
        self.asked.add(card)
        self.check()

    def prev(self) -> None:
        self.page = max(0, self.page - 1)

    def next(self) -> None:
        self.page += 1
