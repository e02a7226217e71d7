"""What the kiosk shows of its devices: their notices in words, the lights and the camera chip.

The devices (the button panel, the camera) import nothing from the kiosk: they post plain
events and report plain status (``companion.events``).  This module is the kiosk's half: it
words a device's :class:`~companion.events.Notice` in the table's language, and draws the
on-screen lights (:class:`~companion.events.Lights`) and the camera's status chip and live view
(:class:`~companion.events.CameraState`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.events import CameraState, Lights, Notice, TableView
from companion.kiosk.words import short_card_name

from . import theme
from .i18n import _
from .theme import Metrics
from .ui import draw_text, panel

if TYPE_CHECKING:
    from companion.events import Device
    from companion.journal import JournaledGame

LIGHTS = ("red", "blue", "yellow", "green", "status")


def notice_text(notice: Notice) -> str:
    """A device's notice in the table's language."""
    f = notice.fields
    code = notice.code
    button = str(f.get("button", "")).upper()
    if code == "button.start-up":
        return _(
            "The {button} button is held down at start-up: it is ignored until it is released",
            button=button,
        )
    if code == "button.stuck":
        return _(
            "The {button} button has been down for {n} seconds (stuck?): it is ignored until "
            "it is released",
            button=button,
            n=float(f.get("seconds", 0)),  # written the language's way (i18n.number)
        )
    if code == "button.released":
        return _("The {button} button works again", button=button)
    if code == "button.hold":
        return _("Hold {button} for about a second", button=button)
    if code == "panel.none":
        fix = f" ({f['fix']})" if f.get("fix") else ""
        return _(
            "No button panel: {reason}{fix}. The keyboard stands in for the buttons and "
            "the lights are shown on screen.",
            reason=str(f.get("reason", "")),
            fix=fix,
        )
    if code == "camera.several":
        return _("Several cards seen: show one at a time")
    if code == "camera.duplicate":
        return _("Two stickers with the same marker ({markers}): show one card at a time, "
                 "and check the stickers", markers=str(f.get("markers", "")))
    if code == "camera.stray":
        if f.get("corners"):
            return _("The camera sees the table's corner markers ({markers}): they are for "
                     "table mode, not for reading cards", markers=str(f.get("markers", "")))
        return _("The camera sees a marker that is on no card ({markers})",
                 markers=str(f.get("markers", "")))
    if code == "camera.hold-still":
        return _("Hold the card still: the camera cannot read it while it moves")
    if code == "camera.glare":
        return _("Tilt the card: a light is reflected in its sticker")
    if code == "camera.stale":
        return _("Camera offline: no picture for {n} s; tap the cards in",
                 n=float(f.get("seconds", 0)))
    if code == "camera.broken":
        return _("Camera library broken: {reason}", reason=str(f.get("reason", "")))
    if code == "camera.offline":
        return _("Camera offline: tap the cards in; it is tried again")
    if code == "camera.online":
        return _("Camera online again")
    if code == "camera.settings":
        return _("Camera settings: {error}", error=str(f.get("error", "")))
    if code == "camera.none":
        return _("No camera configured: cards are tapped in")
    if code == "camera.no-opencv":
        return _("The camera needs OpenCV: install the vision extra")
    return code


def table_view(session: JournaledGame | None) -> TableView:
    """What the devices may know of the table (``session``: the kiosk's game, or None): the
    colour of the engine's active seat, the winners' colours once the game is over."""
    if session is None:
        return TableView()
    game, state = session.game, session.state
    players = game.setup_of(state).players
    if game.is_over(state):
        names = set(game.winners(state))
        winners = frozenset(p.colour for p in players if p.name in names)
        return TableView(None, winners, True, session.id)
    seat = game.active_seat(state)
    active = players[seat].colour if seat is not None and 0 <= seat < len(players) else None
    return TableView(active, frozenset(), False, session.id)


# -- the lights ---------------------------------------------------------------------------------
def light_rects(metrics: Metrics) -> list[tuple[str, tuple[int, int], int]]:
    """Where each light is drawn: (name, centre, radius), left to right, on the bottom edge of
    the bar's first row: below the round and whose turn it is, below the Back button, and left
    of the buttons of a second row in portrait."""
    r = metrics.px(6)
    step = 2 * r + metrics.px(5)
    y = metrics.gap + metrics.touch + r + metrics.px(1)
    x = metrics.gap + r + metrics.px(2)
    return [(name, (x + k * step, y), r) for k, name in enumerate(LIGHTS)]


def draw_lights(surface: pygame.Surface, metrics: Metrics, lights: Lights) -> None:
    """The five lights on screen (nothing when they are not visible)."""
    if not lights.visible:
        return
    for name, centre, r in light_rects(metrics):
        colour = theme.TEXT if name == "status" else theme.PLAYER[name]
        if lights.lit.get(name):
            pygame.draw.circle(surface, colour, centre, r + 1)
        else:
            dim = tuple((c + 2 * p) // 3 for c, p in zip(colour, theme.PANEL, strict=True))
            pygame.draw.circle(surface, dim, centre, r - 1)
        pygame.draw.circle(surface, theme.OUTLINE, centre, r + 1, 1)


# -- the camera ---------------------------------------------------------------------------------
def chip_text(state: CameraState) -> str:
    """The camera chip's words: offline, on, or the last card read (and refused)."""
    if not state.online:
        return _("Camera offline")
    if state.last_game is None or state.last_card is None:
        return _("Camera on")
    try:
        name = short_card_name(state.last_game, state.last_card)
    except KeyError:
        name = state.last_card
    for bracket in (" (", "（", "("):  # the name without its details, as on the card
        name = name.split(bracket)[0]
    if state.refused is not None:
        return _("Camera saw {card} (refused: {reason})", card=name, reason=state.refused)
    return _("Camera read {card}", card=name)


def chip_rect(m: Metrics, text: str = "", widest: int = 150) -> pygame.Rect:
    """The chip's place: the bottom left of the title bar, in its lower margin, as wide as its
    text (at most ``widest`` units: 150, or 240 to give a refused card's reason room)."""
    from .fonts import font

    bar_h = m.touch + 2 * m.gap
    h = m.px(15)
    width = font(m.px(11)).size(text)[0] + h + m.px(8) if text else m.px(widest)
    return pygame.Rect(m.px(2), bar_h - h - m.px(1), min(m.px(widest), width), h)


OUTLINE_COLOURS = {"card": theme.GOOD, "corner": theme.ACCENT, "unknown": theme.BAD}


class CameraView:
    """Draws a camera's chip and live view; keeps the live picture between frames."""

    def __init__(self) -> None:
        self._thumb: pygame.Surface | None = None
        self._key: tuple[int, tuple[int, int]] | None = None

    def draw(self, surface: pygame.Surface, m: Metrics, state: CameraState) -> None:
        label = chip_text(state)
        rect = chip_rect(m, label, 240 if state.refused is not None else 150)
        panel(surface, rect, theme.OUTLINE, radius=rect.height // 2)
        dot = rect.height // 2 - m.px(3)
        pygame.draw.circle(surface, theme.GOOD if state.online else theme.BAD,
                           (rect.x + rect.height // 2, rect.centery), max(2, dot))
        text = rect.inflate(-rect.height - m.px(4), 0).move(rect.height // 2, 0)
        draw_text(surface, label, text, m.px(11), theme.TEXT if state.online else
                  theme.MUTED, align="left", lines=1, min_size=m.px(8))
        if state.live_view:
            self._draw_live(surface, pygame.Rect(rect.x, rect.bottom + m.px(4), m.px(160),
                                                 m.px(90)), state)

    def _draw_live(self, surface: pygame.Surface, rect: pygame.Rect, state: CameraState) -> None:
        panel(surface, rect.inflate(4, 4), theme.OUTLINE, radius=4)
        if state.frame is None:
            draw_text(surface, _("No picture"), rect, rect.height // 5, theme.MUTED)
            return
        key = (state.frames, rect.size)
        if self._thumb is None or self._key != key:
            self._thumb = thumbnail(state, rect.size)
            self._key = key
        surface.blit(self._thumb, rect.topleft)


def thumbnail(state: CameraState, size: tuple[int, int]) -> pygame.Surface:
    """The camera's grey picture fitted into ``size``, with the markers outlined: cards in
    green, the table's corner markers in amber, markers on no card in red."""
    assert state.frame is not None
    w, h, grey = state.frame
    picture = pygame.image.frombuffer(_grey_to_rgb(grey), (w, h), "RGB")
    scale = min(size[0] / w, size[1] / h)
    tw, th = max(1, round(w * scale)), max(1, round(h * scale))
    small = pygame.transform.smoothscale(picture, (tw, th))
    for outline in state.markers:
        pts = [(x * scale, y * scale) for x, y in outline.corners]
        if len(pts) >= 3:
            pygame.draw.polygon(small, OUTLINE_COLOURS.get(outline.what, theme.BAD), pts, 2)
    out = pygame.Surface(size)
    out.fill(theme.OUTLINE)
    out.blit(small, ((size[0] - tw) // 2, (size[1] - th) // 2))
    return out


def _grey_to_rgb(grey: bytes) -> bytes:
    out = bytearray(len(grey) * 3)
    out[0::3] = grey
    out[1::3] = grey
    out[2::3] = grey
    return bytes(out)


def draw_device(
    surface: pygame.Surface, m: Metrics, device: Device, views: dict[int, CameraView]
) -> None:
    """Draw what ``device`` shows on screen, if anything: its ``lights`` or its camera
    ``state()``; ``views`` keeps each device's drawing state between frames."""
    lights = getattr(device, "lights", None)
    if isinstance(lights, Lights):
        draw_lights(surface, m, lights)
    state_of = getattr(device, "state", None)
    if callable(state_of):
        state = state_of()
        if isinstance(state, CameraState):
            view = views.setdefault(id(device), CameraView())
            view.draw(surface, m, state)


def device_areas(m: Metrics, device: Device) -> list[pygame.Rect]:
    """Where ``draw_device`` draws for ``device`` (its lights, its camera's chip and live
    view): what a redraw of part of the screen must leave alone."""
    out = []
    lights = getattr(device, "lights", None)
    if isinstance(lights, Lights) and lights.visible:
        out += [pygame.Rect(c[0] - r - 2, c[1] - r - 2, 2 * r + 4, 2 * r + 4)
                for _name, c, r in light_rects(m)]
    state_of = getattr(device, "state", None)
    state = state_of() if callable(state_of) else None
    if isinstance(state, CameraState):
        rect = chip_rect(m, chip_text(state), 240 if state.refused is not None else 150)
        out.append(rect)
        if state.live_view:
            out.append(pygame.Rect(rect.x, rect.bottom + m.px(4), m.px(160), m.px(90))
                       .inflate(6, 6))
    return out


class DeviceHub:
    """The devices at the kiosk's edge (the button panel, the camera): the events they are
    told, the news they bring after each batch of inputs, and what of theirs is on screen
    (their lights, the camera's chip), drawn over every screen."""

    def __init__(self) -> None:
        self.devices: list[Device] = []
        self.views: dict[int, CameraView] = {}  # each camera's drawing state between frames
        self.shown: list[object] = []  # what the devices showed at the last frame

    def add(self, device: Device) -> None:
        self.devices.append(device)

    def notify(self, event: str, detail: str = "") -> None:
        for d in self.devices:
            d.notify(event, detail)

    def update(self, session: JournaledGame | None, now: float) -> list[Notice]:
        """Let each device read the table; their news, in order."""
        view = table_view(session)
        return [notice for d in self.devices for notice in d.update(view, now)]

    def changed(self) -> bool:
        """True when what the devices show on screen changed since the last call."""
        shown: list[object] = []
        for d in self.devices:
            lights = getattr(d, "lights", None)
            if isinstance(lights, Lights):
                shown.append((tuple(sorted(lights.lit.items())), lights.visible))
            state_of = getattr(d, "state", None)
            state = state_of() if callable(state_of) else None
            if isinstance(state, CameraState):
                frames = state.frames if state.live_view else 0
                shown.append((state.online, state.last_game, state.last_card, state.refused,
                              frames))
        changed = shown != self.shown
        self.shown = shown
        return changed

    def areas(self, m: Metrics) -> list[pygame.Rect]:
        """Where ``draw`` draws (``device_areas``)."""
        return [r for d in self.devices for r in device_areas(m, d)]

    def draw(self, surface: pygame.Surface, m: Metrics) -> None:
        """On-screen lights and the camera's status, over everything."""
        for d in self.devices:
            draw_device(surface, m, d, self.views)

    def close(self) -> None:
        for d in self.devices:
            d.close()
        self.devices = []
