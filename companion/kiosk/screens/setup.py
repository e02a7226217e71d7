"""New-game set-up: the game, 2 to 4 players with names and colours in seat order, the start
player, the seats the companion plays (and how strongly), and the table's options."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion.engine import COLOURS, PlayerSpec, RulesError, Setup, get_game
from companion.engine.registry import spec as game_spec
from companion.engine.registry import specs
from companion.events import Role
from companion.kiosk import theme
from companion.kiosk.fonts import font
from companion.kiosk.guide import guide_for
from companion.kiosk.i18n import _
from companion.kiosk.inputs import Input, Press, Text
from companion.kiosk.seats import STRENGTHS, strength_name
from companion.kiosk.ui import button_inner, draw_text, fits, grid, split_h, split_v
from companion.kiosk.words import (
    display_name,
    game_title,
    is_default_name,
    stored_default,
    words_for,
)

from .base import Screen
from .overlays import draw_explanation
from .prepare import new_game_frame, start

if TYPE_CHECKING:
    from companion.journal import Journal
    from companion.kiosk.context import Kiosk
    from companion.kiosk.lookahead import Ahead


def colour_name(colour: str) -> str:
    return {"red": _("Red"), "blue": _("Blue"), "yellow": _("Yellow"), "green": _("Green")}[colour]


def who_help() -> str:
    """What the person-or-companion button of a seat does, and the companion's strengths."""
    return "\n".join([
        _("Tap to change who plays this seat: a person, or the companion at one of its "
          "strengths. The companion decides for its seat and the table moves its pieces as "
          "told."),
        _("{strength}: {meaning}", strength=strength_name("easy"),
          meaning=_("plays the move worth most at once")),
        _("{strength}: {meaning}", strength=strength_name("normal"),
          meaning=_("thinks a few moves ahead")),
        _("{strength}: {meaning}", strength=strength_name("strong"),
          meaning=_("thinks further ahead and takes a little longer")),
    ])


@dataclass
class LastTable:
    """What the journal remembers of the tables: the names typed lately (offered for one
    tap), and the seats of the most recent game (names, colours, count, the start, who plays
    each) when the game on show can seat them (``seats`` None when it cannot)."""

    recent: list[str] = field(default_factory=list)
    seats: list[tuple[str, str]] | None = None
    count: int = 0
    start: int = 0
    strengths: list[str] = field(default_factory=list)


def last_table(journal: Journal | None, game: str) -> LastTable:
    """The last table, from the 20 most recent games of ``journal`` (none without a journal
    or one that cannot list its games), for a table of ``game``."""
    table = LastTable()
    if journal is None:
        return table
    try:
        games = journal.games(limit=20)
    except Exception:  # noqa: BLE001 - a journal that cannot list: start from the defaults
        return table
    for info in games:
        for p in info.setup.players:
            if is_default_name(p.name, p.colour):
                continue  # a seat left unnamed: not a name to offer
            if p.name not in table.recent and p.name.isprintable():
                table.recent.append(p.name)
    if not games:
        return table
    last = games[0].setup
    # a seat left unnamed stays unnamed (shown in the table's language, not the last one's)
    seats = [
        ("" if is_default_name(p.name, p.colour) else p.name, p.colour)
        for p in last.players
        if p.colour in COLOURS
    ]
    if len(seats) != len(last.players):
        return table
    rest = [("", c) for c in COLOURS if c not in {c for _n, c in seats}]
    spec = game_spec(game)
    if spec.min_players <= len(seats) <= spec.max_players:
        table.seats = seats + rest
        table.count = len(seats)
        table.start = min(last.start_player, table.count - 1)
        known = games[0].companions
        table.strengths = [
            known.get(i, "") if known.get(i, "") in STRENGTHS else ""
            for i in range(len(COLOURS))
        ]
    return table


OptionRow = tuple[str, list[tuple[Any, str]], Any, Any, str]
"""One row of options: its label, its choices (value, text), the value now, what sets it, and
the key of its buttons."""


class SetupScreen(Screen):
    """Choose the game and the table; Start opens the game screen."""

    def on_show(self) -> None:
        """A game that could not be loaded is not offered: the table is told which, and
        where to read why."""
        from companion.engine.registry import problems

        broken = sorted(problems())
        if broken:
            self.app.toast(_("Left out, it could not be loaded: {games} ({command} says why)",
                             games=_(", ").join(broken), command="companion doctor"))

    def __init__(self, app: Kiosk, game: str | None = None) -> None:
        super().__init__(app)
        self.game = game if game is not None else specs()[0].name
        self.count = 4
        self.seats: list[tuple[str, str]] = [("", c) for c in COLOURS]  # (name, colour)
        self.strengths = ["" for _c in COLOURS]  # per seat: "" a person, else the companion's
        self.start = 0
        self.options: dict[str, Any] = {}
        self.recent: list[str] = []
        self.held: tuple[str, str] | None = None  # what a held control does: title, text
        self.remember_last_table()

    def remember_last_table(self) -> None:
        """Seat the last table again (:func:`last_table`): the names, colours and count of the
        most recent game in the journal (the default game keeps its own); and the recent
        names, for one tap."""
        last = last_table(self.app.journal, self.game)
        self.recent = last.recent
        if last.seats is not None:
            self.seats, self.count, self.start = last.seats, last.count, last.start
            self.strengths = last.strengths

    def names(self) -> list[str]:
        """The seats' names as stored: an unnamed seat is stored as its colour
        (:func:`~companion.kiosk.words.stored_default`), never in the table's words."""
        return [name or stored_default(colour) for name, colour in self.seats[: self.count]]

    def shown_names(self) -> list[str]:
        """The seats' names as the table reads them: an unnamed seat is its colour's player in
        the table's language (Red, 红方, 赤)."""
        return [display_name(n, c) for n, (_x, c) in zip(self.names(), self.seats, strict=False)]

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        area = self.title_bar(surface, _("New game"), right=[self.language_button()])
        inner = area.inflate(-m.gap * 4, -m.gap * 2)
        names = [s.name for s in specs()]
        if m.portrait:
            left, right = split_v(inner, 6, 5, gap=m.gap * 2)
        else:
            if len(names) > 2:  # more games: their titles along the top, across the width
                cols = min(len(names), 4)
                lines = (len(names) + cols - 1) // cols
                line_h = max(m.touch, 2 * font(m.small).get_linesize() + m.px(8))
                top = pygame.Rect(inner.x, inner.y, inner.width, lines * (line_h + m.gap // 2))
                self._games(surface, top, names, cols)
                inner = pygame.Rect(inner.x, top.bottom + m.gap, inner.width,
                                    inner.bottom - top.bottom - m.gap)
                names = []
            left, right = split_h(inner, 1, 1, gap=m.gap * 3)
        self._left(surface, left, names)
        self._seats(surface, right)
        if self.held is not None:  # over everything, and the only thing to tap
            draw_explanation(self, surface, area.inflate(-m.gap * 4, -m.gap * 4), *self.held,
                             close=self.close_explanation)

    # -- what each control does, for a finger held on it ---------------------------------------
    def explain(self, title: str, text: str) -> None:
        """Show what a control does (a finger held on it) until Close."""
        self.held = (title, text)

    def close_explanation(self) -> None:
        self.held = None

    def back(self) -> None:
        if self.held is not None:
            self.held = None
        else:
            self.app.go("home")

    def _games(self, surface: pygame.Surface, area: pygame.Rect, names: list[str],
               cols: int) -> None:
        """The games to choose from, by title, ``cols`` a line."""
        m = self.m
        cells = grid(area, len(names), min(cols, len(names)), m.gap // 2)
        for name, cell in zip(names, cells, strict=True):
            self.button(
                surface,
                cell,
                game_title(name),
                partial(self.set_game, name),
                key=f"game {name}",
                selected=self.game == name,
                size=m.small,
                hold=partial(self.explain, game_title(name), _(
                    "Play {game}: {low} to {high} players.", game=game_title(name),
                    low=game_spec(name).min_players, high=game_spec(name).max_players)),
            )

    def _left(self, surface: pygame.Surface, area: pygame.Rect, names: list[str]) -> None:
        m = self.m
        opts = self._option_rows()
        # the games' titles (``names``, unless they are along the top) are long and say what
        # the row is: no label, the whole row theirs: two titles a line, on 3 lines each, or
        # with more games (portrait) on 2 and the rows closer together
        cols = 2
        lines = (len(names) + cols - 1) // cols
        ones = [1] * (3 + len(opts))
        if not names:  # the games are along the top
            rows = [pygame.Rect(area.x, area.y, area.width, 0), *split_v(area, *ones,
                                                                        gap=m.gap // 2)]
        else:
            rows = split_v(area, 1.45 if lines == 1 else 1.05 * lines, *ones,
                           gap=m.gap // 2 if lines == 1 else m.gap // 4)
        if names:
            self._games(surface, rows[0], names, cols)
        self._players(surface, rows[1])
        for row, option in zip(rows[2:], opts, strict=False):
            self._option(surface, row, option)
        start = rows[-1].inflate(0, 0)
        start.height = max(start.height, m.touch)
        self.button(
            surface,
            rows[-1],
            _("Start"),
            self.begin,
            key="start",
            role=Role.CONFIRM,
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
            size=m.large,
        )

    def _players(self, surface: pygame.Surface, row: pygame.Rect) -> None:
        """How many play: a button for each count the game allows."""
        m = self.m
        lab, rest = split_h(row, 2, 3, gap=m.gap)
        draw_text(surface, _("Players"), lab, m.text, theme.MUTED, align="left")
        spec = game_spec(self.game)
        counts = range(spec.min_players, spec.max_players + 1)
        for n, cell in zip(counts, grid(rest, len(counts), len(counts), m.gap), strict=True):
            self.button(
                surface,
                cell,
                str(n),
                partial(self.set_count, n),
                key=f"players {n}",
                selected=self.count == n,
                sub=_("solo") if n == 1 else "",
                size=m.small if n == 1 else m.text,
                hold=partial(self.explain, _("Players"), _(
                    "How many sit at the table, the companion's seats included; 1 is the solo "
                    "game against the Automa.")
                    if n == 1 else _(
                    "How many sit at the table, the companion's seats included.")),
            )

    def _option(self, surface: pygame.Surface, row: pygame.Rect, option: OptionRow) -> None:
        """One option: its label (a hold says what it decides) and its choices."""
        m = self.m
        label, values, current, setter, key = option
        lab, rest = split_h(row, 2, 3, gap=m.gap)
        draw_text(surface, label, lab, m.small, theme.MUTED, align="left")
        # the label is a place to hold too: what the option decides
        self.tap_area(lab, lambda: None, f"about {key}").extra["hold"] = partial(
            self.explain, label, self.option_help(key, None)
        )
        cells = grid(rest, len(values), len(values), m.gap)
        for (value, text), cell in zip(values, cells, strict=True):
            self.button(
                surface,
                cell,
                text,
                partial(setter, value),
                key=f"{key} {value}",
                selected=current == value,
                size=m.small,
                hold=partial(self.explain, f"{label}: {text}", self.option_help(key, value)),
            )

    def option_help(self, key: str, value: Any) -> str:
        """What option ``key`` decides (``value`` None) or what its choice ``value`` means."""
        if key == "virtual":
            return {
                None: _("Who deals the cards: the table, from the real decks, or the companion, "
                        "which draws for the table and says which card to take."),
                False: _("You shuffle and draw the real cards and show the companion which one "
                         "came up: tap it, or hold it under the camera."),
                True: _("The companion draws for the table and says which card to take from "
                        "the deck; nobody shuffles."),
            }[value]
        return words_for(self.game).option_help(key, value)

    def _option_rows(self) -> list[OptionRow]:
        """Who deals the cards (a game with cards: ``GameSpec.cards``), the game's options."""
        deal = [(False, _("Table deals")), (True, _("Virtual deck"))]
        cards = game_spec(self.game).cards
        rows: list[OptionRow] = [(_("Cards"), deal, self.app.config.virtual_deck,
                                  self.set_virtual, "virtual")] if cards else []
        words = words_for(self.game)
        for name, opt in game_spec(self.game).options.items():
            if name in game_spec(self.game).unofficial_options:
                continue
            rows.append(
                (
                    words.option_label(name),
                    [(value, words.choice_label(name, value)) for value in opt.choices],
                    self.options.get(name, opt.default),
                    partial(self.set_option, name),
                    name,
                )
            )
        return rows

    def _seats(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        m = self.m
        draw_text(
            surface,
            _("Solo against the Automa: an unofficial variant")
            if self.count == 1
            else _("Seat order (clockwise); the star starts"),
            pygame.Rect(area.x, area.y, area.width, m.px(28)),
            m.small,
            theme.MUTED,
            align="left",
        )
        body = pygame.Rect(area.x, area.y + m.px(30), area.width, area.height - m.px(30))
        rows = split_v(body, *([1] * 4), gap=m.gap)
        names = self.shown_names()
        for i, row in enumerate(rows):
            if i < self.count:
                self._seat(surface, row, i, names[i])

    def _who(self, surface: pygame.Surface, who: pygame.Rect, i: int) -> None:
        """Who plays seat ``i``: a person, or the companion at its strength."""
        m = self.m
        strength = self.strengths[i]
        label, sub = (_("Companion"), strength_name(strength)) if strength else (
            _("Person"), "")
        half = button_inner(who)
        half.height //= 2
        if strength and not fits(surface, label, half, m.small, lines=1):
            # the word does not fit whole (a narrow seat row): the strength alone, on
            # the accent border that marks the companion's seats (a hold explains)
            label, sub = strength_name(strength), ""
        self.button(
            surface,
            who,
            label,
            partial(self.cycle_strength, i),
            key=f"who {i}",
            selected=bool(strength),
            sub=sub,
            size=m.small,
            hold=partial(self.explain, _("Person or companion"), who_help()),
        )

    def _seat(self, surface: pygame.Surface, row: pygame.Rect, i: int, name: str) -> None:
        """Seat ``i``'s row: its place in the order, colour, name, who plays it, the start."""
        m = self.m
        _name, colour = self.seats[i]
        # ▲, the colour and ★ are whole touch targets; the name and who plays share the rest
        rest = max(2, row.width - 3 * m.touch - 4 * m.gap)
        up, swatch, name_r, who, star = split_h(
            row, m.touch * 2, m.touch * 2, rest, rest, m.touch * 2, gap=m.gap
        )
        if self.count > 1:  # a table of one plays the Automa, not the companion
            self._who(surface, who, i)
        else:
            name_r = name_r.union(who)
        self.button(surface, up, "▲" if i else "▼", partial(self.move, i), key=f"move {i}",
                    hold=partial(self.explain, _("Seat order"), _(
                        "▲ swaps this seat with the one before it, ▼ the first seat with "
                        "the second: the seats run clockwise round the table.")))
        self.button(
            surface,
            swatch,
            "",
            partial(self.cycle_colour, i),
            key=f"colour {i}",
            fill=theme.PLAYER[colour],
            hold=partial(self.explain, _("Colour"), _(
                "Tap for the next colour: the seat plays the pieces of that colour. A seat "
                "left unnamed is called by it.")),
        )
        self.button(
            surface,
            name_r,
            name,
            partial(self.edit_name, i),
            key=f"name {i}",
            fill=theme.PANEL_HI,
            hold=partial(self.explain, _("Name"), _(
                "Tap to type the player's name. A seat left unnamed is called by its colour, "
                "in the table's language.")),
        )
        self.button(
            surface,
            star,
            "★" if self.start == i else "☆",
            partial(self.set_start, i),
            key=f"start {i}",
            selected=self.start == i,
            hold=partial(self.explain, _("Start player"), _(
                "★ marks the seat that begins; tap ☆ to give the start to another seat.")),
        )

    # -- changes -----------------------------------------------------------------------------
    def set_game(self, name: str) -> None:
        self.game = name
        self.options = {}
        spec = game_spec(name)
        self.count = max(spec.min_players, min(self.count, spec.max_players))
        self.start = min(self.start, self.count - 1)

    def set_option(self, name: str, value: Any) -> None:
        self.options[name] = value

    def set_count(self, n: int) -> None:
        self.count = n
        self.start = min(self.start, n - 1)

    def set_virtual(self, value: bool) -> None:
        self.app.config = self.app.config.with_(virtual_deck=value)
        self.app.save_config()

    def cycle_strength(self, i: int) -> None:
        """Seat ``i``: a person, then the companion (easy, normal, strong), then a person."""
        order = ["", *STRENGTHS]
        self.strengths[i] = order[(order.index(self.strengths[i]) + 1) % len(order)]

    def companions(self) -> dict[int, str]:
        """The seats the companion plays at this table, with its strength."""
        if self.count < 2:
            return {}
        return {i: s for i, s in enumerate(self.strengths[: self.count]) if s}

    def move(self, i: int) -> None:
        """Swap seat ``i`` with the one before it (the first with the second)."""
        j = i - 1 if i else 1
        self.seats[i], self.seats[j] = self.seats[j], self.seats[i]
        self.strengths[i], self.strengths[j] = self.strengths[j], self.strengths[i]
        if self.start in (i, j):
            self.start = j if self.start == i else i

    def cycle_colour(self, i: int) -> None:
        used = {c for _n, c in self.seats[: self.count]}
        name, colour = self.seats[i]
        order = list(COLOURS)
        for k in range(1, len(order) + 1):
            nxt = order[(order.index(colour) + k) % len(order)]
            if nxt not in used or nxt == colour:
                break
        # swap with a seat beyond the table, or with whoever has it
        for j in range(len(self.seats)):
            if self.seats[j][1] == nxt:
                self.seats[j] = (self.seats[j][0], colour)
        self.seats[i] = (name, nxt)

    def set_start(self, i: int) -> None:
        self.start = i

    def edit_name(self, i: int) -> None:
        self.app.show(NameScreen(self.app, self, i))

    def chosen(self) -> tuple[Setup, dict[int, str]] | str:
        """The set-up chosen and the seats the companion plays, or why it cannot start."""
        game = get_game(self.game)
        specs = [PlayerSpec(n, c) for n, (_x, c) in zip(self.names(), self.seats, strict=False)]
        try:
            setup = game.setup(specs, start_player=self.start, options=self.options)
        except RulesError as exc:
            return self.app.refusal(exc)
        companions = self.companions()
        if companions and len(companions) >= self.count:
            return _("The companion cannot take every seat: someone has to play")
        return setup, companions

    def likely_next(self) -> Iterator[Ahead]:
        """The new game's first frame, as Start would show it (``prepare``)."""
        yield partial(new_game_frame, self, self.chosen)

    def begin(self) -> None:
        chosen = self.chosen()
        if isinstance(chosen, str):
            self.app.refuse(chosen)
        elif self.app.journal is None:
            self.app.refuse(_("No journal: the game could not be saved"))
        else:  # (its screen made ahead, if it was for this table)
            start(self.app, *chosen, seed=self.app.rng.randrange(2**31))
            if self.app.config.setup_guide and guide_for(chosen[0].game) is not None:
                self.app.go("guide", previous=self.app.screen)


KEYS = [
    "1234567890",
    "QWERTYUIOP",
    "ASDFGHJKL",
    "ZXCVBNM",
]


def _rows_of(keys: str, n: int) -> list[str]:
    return [keys[i : i + n] for i in range(0, len(keys), n)]


class NameScreen(Screen):
    """An on-screen keyboard for a player's name; a hardware keyboard (with an input method
    for Chinese or Japanese) types into it too."""

    def __init__(self, app: Kiosk, setup: SetupScreen, seat: int) -> None:
        super().__init__(app)
        self.setup = setup
        self.seat = seat
        self.text = setup.seats[seat][0]
        self.before = self.text
        self.shift = True

    def on_show(self) -> None:
        self.app.typing = True
        pygame.key.start_text_input()

    def handle(self, inp: Input) -> None:
        if isinstance(inp, Text):
            self.type(inp.text, raw=True)
            return
        if isinstance(inp, Press) and inp.role == Role.BACK and self.text:
            self.text = self.text[:-1]
            return
        super().handle(inp)

    def type(self, s: str, raw: bool = False) -> None:
        """Add typed text: on-screen letters follow the shift key, typed text is as it is."""
        if len(self.text) + len(s) <= 16:
            self.text += s if raw or not self.shift else s.upper()
            self.shift = False

    def render(self, surface: pygame.Surface) -> None:
        m = self.m
        area = self.title_bar(surface, _("Name of seat {n}", n=self.seat + 1), back=False)
        inner = area.inflate(-m.gap * 4, -m.gap * 2)
        field, keys = split_v(inner, 1, 5, gap=m.gap * 2)
        recent = [n for n in self.setup.recent if n not in self.setup.names()][:4]
        if recent:  # the names of recent games, one tap each
            field, chips = split_h(field, 1, 1, gap=m.gap)
            for name, cell in zip(recent, grid(chips, len(recent), len(recent), m.gap),
                                  strict=False):
                self.button(surface, cell, name, partial(self.pick, name), key=f"recent {name}",
                            size=m.small)
        pygame.draw.rect(surface, theme.PANEL, field, border_radius=8)
        draw_text(
            surface,
            self.text or "…",
            field.inflate(-m.gap * 4, -m.gap),
            m.large,
            theme.TEXT,
            align="left",
            lines=1,
        )
        # In portrait a row of ten keys would make them narrower than a finger (9 mm): the
        # keys run on in rows of eight, and the last keys take two rows.
        key_rows = KEYS if not m.portrait else _rows_of("".join(KEYS), 8)
        cols = max(len(r) for r in KEYS) if not m.portrait else 8
        specials = 1 if not m.portrait else 2
        rows = split_v(keys, *([1] * (len(key_rows) + specials)), gap=m.gap)
        for row, letters in zip(rows, key_rows, strict=False):
            for ch, cell in zip(letters, grid(row, cols, cols, m.gap), strict=False):
                label = ch if self.shift else ch.lower()
                self.button(surface, cell, label, partial(self.type, ch.lower()), key=f"key {ch}")
        if m.portrait:
            a = split_h(rows[-2], 2, 4, 2, gap=m.gap)
            b = split_h(rows[-1], 2, 2, 3, gap=m.gap)
            last = [b[0], a[0], a[1], a[2], b[1], b[2]]
        else:
            last = split_h(rows[-1], 2, 2, 4, 2, 2, 3, gap=m.gap)
        self.button(surface, last[0], _("Cancel"), self.cancel, key="cancel", size=m.small)
        self.button(surface, last[1], "⇧", self.toggle_shift, key="shift", selected=self.shift)
        self.button(surface, last[2], _("Space"), lambda: self.type(" "), key="space")
        self.button(surface, last[3], "←", self.erase, key="erase")
        self.button(surface, last[4], _("Clear"), self.clear, key="clear", size=m.small)
        self.button(
            surface,
            last[5],
            _("Done"),
            self.done,
            key="done",
            role=Role.CONFIRM,
            fill=theme.ACCENT,
            text_colour=theme.OUTLINE,
        )

    def toggle_shift(self) -> None:
        self.shift = not self.shift

    def erase(self) -> None:
        self.text = self.text[:-1]

    def clear(self) -> None:
        """Delete the whole name (the seat then shows its colour's name)."""
        self.text = ""
        self.shift = True

    def pick(self, name: str) -> None:
        """A recent name, in one tap."""
        self.text = name
        self.done()

    def cancel(self) -> None:
        """Leave the name as it was."""
        self.text = self.before
        self.done()

    def done(self) -> None:
        pygame.key.stop_text_input()
        _old, colour = self.setup.seats[self.seat]
        self.setup.seats[self.seat] = (self.text.strip(), colour)
        self.app.show(self.setup)

    def back(self) -> None:
        self.done()
