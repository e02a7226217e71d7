"""Settings: language, cards dealt by the table or by the companion, sound, rotation, and
the companion's hint on a person's decision."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from companion.kiosk import retained, theme
from companion.kiosk.i18n import LANGUAGE_NAMES, LANGUAGES, _, language, speaking
from companion.kiosk.prepared import own_frame
from companion.kiosk.ui import draw_text, fits, grid, split_h, split_v

from .base import Screen
from .prepare import frames

if TYPE_CHECKING:
    from companion.kiosk.lookahead import Ahead

Setting = tuple[str, list[tuple[Any, str]], Any, Callable[[Any], None], str]
"""One row of settings: its label, its choices (value, text), the value now, what sets it,
and the key of its buttons."""


class SettingsScreen(Screen):
    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        area = self.title_bar(surface, _("Settings"))
        inner = area.inflate(-m.gap * 6, -m.gap * 4)
        settings = self.settings()
        foot = pygame.Rect(inner.x, inner.bottom - m.px(44), inner.width, m.px(44))
        body = pygame.Rect(inner.x, inner.y, inner.width, foot.y - inner.y - m.gap)
        if m.portrait:
            rows = split_v(body, *([1] * len(settings)), gap=m.gap * 2)
        else:  # two columns, each label above its choices: every choice keeps its width
            half = (len(settings) + 1) // 2
            left, right = split_h(body, 1, 1, gap=m.gap * 4)
            rows = [*split_v(left, *([1] * half), gap=m.gap * 2),
                    *split_v(right, *([1] * half), gap=m.gap * 2)]
        for row, setting in zip(rows, settings, strict=False):
            self.setting_row(surface, row, setting)
        if self.app.journal is not None:
            draw_text(surface, journal_line(surface, foot, m, self.app.journal.path), foot,
                      m.small, theme.MUTED, align="left", lines=2, min_size=m.px(10))

    def likely_next(self) -> Iterator[Ahead]:
        """Back's home screen made and drawn ahead, this frame again, then this screen in
        each other language and turned a quarter: a language's button shows it at once (the
        first time, a language also loads its catalogue, fonts and line breaker: 25 ms here,
        0.3 s on a Pi 4, on the tap before this), and so does a rotation's (4 ms here)."""
        yield from frames(self, [("home", {})])
        for code in LANGUAGES:
            if code != language():
                yield partial(_in_language, self, code)
        quarter = (0, 180) if self.app.config.rotation in (90, 270) else (90, 270)
        for degrees in quarter:  # (a quarter turn: the other size, every part new)
            yield partial(_turned, self, degrees)

    def settings(self) -> list[Setting]:
        """The rows, top to bottom: language, cards, sound, rotation, the companion's hint."""
        cfg = self.app.config
        return [
            (
                _("Language"),
                [(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
                language(),
                self.app.set_language,
                "language",
            ),
            (
                _("Cards"),
                [(False, _("Table deals")), (True, _("Virtual deck"))],
                cfg.virtual_deck,
                self.set_virtual,
                "virtual",
            ),
            (_("Sound"), [(True, _("On")), (False, _("Off"))], cfg.sound, self.set_sound, "sound"),
            (
                _("Rotation"),
                [(r, f"{r}°") for r in (0, 90, 180, 270)],
                cfg.rotation,
                self.app.set_rotation,
                "rotation",
            ),
            (
                _("Companion's hint"),
                [(True, _("On")), (False, _("Off"))],
                cfg.hint,
                self.set_hint,
                "hint",
            ),
            (
                _("Set-up guide at Start"),
                [(True, _("On")), (False, _("Off"))],
                cfg.setup_guide,
                partial(self.set, "setup_guide"),
                "setup guide",
            ),
            (
                _("Teach each new step"),
                [("first", _("First game")), ("on", _("Always")), ("off", _("Off"))],
                cfg.teach,
                partial(self.set, "teach"),
                "teach",
            ),
        ]

    def set(self, name: str, value: object) -> None:
        """A setting chosen (saved at once)."""
        self.app.config = self.app.config.with_(**{name: value})
        self.app.save_config()

    def setting_row(self, surface: pygame.Surface, row: pygame.Rect, setting: Setting) -> None:
        """One setting: its label above a button for each of its choices (the current one
        selected), which get the whole width."""
        m = self.m
        label, values, current, setter, key = setting
        label_h = min(row.height - m.touch, m.px(30))
        lab = pygame.Rect(row.x, row.y, row.width, label_h)
        rest = pygame.Rect(row.x, lab.bottom, row.width, row.height - label_h)
        draw_text(surface, label, lab, m.text, theme.MUTED, align="left")
        for (value, text), cell in zip(
            values, grid(rest, len(values), len(values), m.gap), strict=True
        ):
            self.button(
                surface,
                cell,
                text,
                partial(setter, value),
                key=f"{key} {value}",
                selected=current == value,
            )

    def set_virtual(self, value: bool) -> None:
        self.app.config = self.app.config.with_(virtual_deck=value)
        self.app.save_config()

    def set_hint(self, value: bool) -> None:
        """A Hint button on a person's decision (off by default)."""
        self.app.config = self.app.config.with_(hint=value)
        self.app.save_config()

    def set_sound(self, value: bool) -> None:
        from companion.kiosk.sound import Sounds

        self.app.config = self.app.config.with_(sound=value)
        self.app.sounds = Sounds(value)
        self.app.save_config()

    def back(self) -> None:
        self.app.go("home")


def _in_language(screen: Screen, code: str, surface: pygame.Surface) -> None:
    """``screen``'s frame as it is drawn in language ``code``."""
    with speaking(code):
        retained.redirect(surface)
        own_frame(screen, surface)


def _turned(screen: Screen, degrees: int, surface: pygame.Surface) -> None:
    """``screen``'s frame as it is drawn once turned to ``degrees``, a quarter from now
    (``App.set_rotation``): on a surface of the other size, with its metrics, that rotation
    chosen."""
    app = screen.app
    w, h = surface.get_size()
    turned = pygame.Surface((h, w), 0, surface)
    turned.fill(theme.BG)
    retained.redirect(turned)
    saved = app.metrics, app.config
    app.metrics, app.config = theme.Metrics(h, w), app.config.with_(rotation=degrees)
    try:
        own_frame(screen, turned)
    finally:
        app.metrics, app.config = saved


def journal_line(surface: pygame.Surface, rect: pygame.Rect, m: theme.Metrics, path: Path
                 ) -> str:
    """Where the journal is, in two lines of ``rect`` at most: the whole path when it fits,
    else with folders in the middle left out ("…"), its root's first folder, the file and as
    many folders above it as fit kept (a journal deep in a long folder is still named)."""
    parts = path.parts
    candidates = [str(path)] + [
        str(Path(*parts[:2], "…", *parts[-keep:])) for keep in range(len(parts) - 3, 0, -1)]
    for text in candidates:
        line = _("Journal: {path}", path=text)
        if fits(surface, line, rect, m.small, lines=2, min_size=m.px(10)):
            return line
    return _("Journal: {path}", path=candidates[-1])
