"""Hand-outs: what the table does on the physical board for the changes the rules make by
themselves (an event's gold, a space's yield, the tax, a card dealt into a row).

After every committed action the screen asks its game's :class:`HandOutPlan` for the
hand-out steps between the state before and the state after (:meth:`HandOutPlan.steps`).
Each :class:`HandOut` is one screen with one CONFIRM: a title, the card the companion dealt
(drawn as a card), and one :class:`HandLine` per player, resource and cause — take from or
give back to the supply — worded from the ledger's causes by the game's words, so a hand-out
says what the log's "Then, by the rules:" entry of the same action says.  The actions are
in the journal already: a hand-out only tells the table what to move.

This module is game-neutral: a game words its steps by subclassing :class:`HandOutPlan`
(``step_key``, ``step_title``, ``extra``) and draws nothing itself; :func:`draw_handout`
draws a step with the resource icons.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Generic, TypeVar

import pygame

from companion.engine.ledger import Entry
from companion.events import Role
from companion.journal.handouts import ALL

from . import icons, retained, theme
from .boardmap import BoardMap, draw_map
from .i18n import _
from .ui import draw_text, fitted_height, paginate, panel, split_h
from .words import GameWords, amount_text, seat_label, words_for

if TYPE_CHECKING:
    from companion.engine import Game

    from .screens.base import Screen

CARD = "card"
"""The ``resource`` of a line that moves a card (its id in ``HandLine.card``)."""

TABLE = -1
"""The ``seat`` of a line for the board itself, not a player (a card dealt into a row)."""

S = TypeVar("S")
"""A game's state (the plan's game's)."""

A = TypeVar("A")
"""A game's action."""


@dataclass(frozen=True, slots=True)
class HandLine:
    """One thing to move: seat ``seat`` (``TABLE`` for the board) takes ``amount`` of
    ``resource`` (a ledger ``what``: ``vp``, ``gold``, ``coins``, ``workers``, a resource
    name; or ``CARD``) from the supply, or gives ``-amount`` back, because of ``cause_text``
    (the game's words for the ledger's cause).  A card line names its ``card`` id;
    ``owed`` cubes are the player's but the supply had none to give (owed until it has)."""

    seat: int
    resource: str
    amount: int
    cause_text: str
    card: str = ""
    owed: int = 0
    what: str = ""
    """The line's own words for what moves, instead of the card's name (several cards to
    one place: ``Rural House, Hotel, Church``)."""
    place: str = ""
    """Where on the board it goes (an id of the game's board picture), lit on the step's
    board; "" for a player's own place."""

    def text(self, game: str = "") -> str:
        """The change in words, as the log says it: ``+5 gold``, ``−2 VP``; a card's name."""
        if self.what:
            return self.what
        if self.resource == CARD:
            from .words import card_name

            try:
                return card_name(game, self.card)
            except KeyError:
                return self.card
        text = amount_text(self.resource, self.amount)
        if self.owed:
            text += _(" ({n} owed)", n=self.owed)
        return text


@dataclass(frozen=True, slots=True)
class HandOut:
    """One step the table hands out: ``title``, the ``card`` the rules or the companion
    dealt (its id, drawn as a card; "" for none), the ``lines`` in seat order, and ``notes``
    (what else the table does that moves no holding: a new start player)."""

    title: str
    lines: tuple[HandLine, ...]
    card: str = ""
    notes: tuple[str, ...] = ()
    key: str = ""
    """The step's kind (``event``, ``tax``): tests and screenshots find a step by it."""
    cards: tuple[str, ...] = ()
    """Cards drawn in a strip above the lines (the cards a deck dealt), as the game's
    screen draws them (:meth:`HandOutPlan.draw_face`)."""
    places: tuple[str, ...] = ()
    """The places on the board the step names, lit on the board drawn beside its title
    (:meth:`HandOutPlan.board`)."""

    def seats(self) -> list[int]:
        """The seats with lines, in the order of the lines (the board's last)."""
        out = list(dict.fromkeys(line.seat for line in self.lines if line.seat != TABLE))
        if any(line.seat == TABLE for line in self.lines):
            out.append(TABLE)
        return out

    def totals(self) -> dict[tuple[int, str], int]:
        """What the step adds up to, by (seat, resource): a test checks it against the
        state's change."""
        out: dict[tuple[int, str], int] = {}
        for line in self.lines:
            if line.resource != CARD:
                key = (line.seat, line.resource)
                out[key] = out.get(key, 0) + line.amount
        return out

    def drawn_cards(self) -> tuple[str, ...]:
        """The cards drawn on the step: the strip's, else the one card."""
        return self.cards or ((self.card,) if self.card else ())


SETUP = -1
"""The action index of the set-up's hand-out steps (each seat's starting holdings)."""


@dataclass
class Pending:
    """A hand-out step waiting for the table's CONFIRM: the step, the index of the action
    whose changes it hands out (``SETUP`` for the set-up's holdings) and its id among that
    action's steps (``key#n``: the journal stores the confirmation under it); ``back``: the
    journal's undo entry whose give-back the step is (0 for a hand-out)."""

    index: int
    step: HandOut
    id: str = ""
    back: int = 0


@dataclass
class HandOutQueue:
    """The hand-out steps a table screen shows, one at a time: what an undo gives back
    first, then the rules' changes in the order they were made."""

    pending: list[Pending] = field(default_factory=list)
    ids: dict[tuple[int, str], int] = field(default_factory=dict)
    """How many steps of each (action index, key) were queued: the next one's number."""

    @property
    def current(self) -> HandOut | None:
        return self.pending[0].step if self.pending else None

    def ids_for(self, index: int, steps: Sequence[HandOut]) -> list[str]:
        """The ids the steps of action ``index`` get when queued now (``key#n``, numbered
        per key in the order they are queued: the same steps replayed get the same ids)."""
        return step_ids(steps, {k[1]: n for k, n in self.ids.items() if k[0] == index})

    def add(self, index: int, steps: Sequence[HandOut],
            skip: Callable[[int, str], bool] | None = None) -> None:
        """Queue ``steps`` of the action at ``index``; ``skip(index, id)`` True leaves out a
        step the table confirmed already (before a restart)."""
        for s, sid in zip(steps, self.ids_for(index, steps), strict=True):
            self.ids[(index, s.key)] = self.ids.get((index, s.key), 0) + 1
            if skip is not None and skip(index, sid):
                continue
            self.pending.append(Pending(index, s, sid))

    def give_back(self, seq: int, step: HandOut) -> None:
        """Show ``step`` first: what the undo entry ``seq`` takes back, to put back."""
        self.pending.insert(0, Pending(SETUP, step, f"back#{seq}", seq))

    def copy(self) -> HandOutQueue:
        """A queue of its own with the same steps (what a frame drawn ahead changes)."""
        return HandOutQueue(list(self.pending), dict(self.ids))

    def confirm(self) -> None:
        """The table moved the pieces of the current step."""
        if self.pending:
            self.pending.pop(0)

    def hand_outs_left(self) -> int:
        """How many steps are hand-outs (not give-backs)."""
        return sum(1 for p in self.pending if not p.back)

    def undo(self, index: int) -> None:
        """The action at ``index`` was taken back: its steps not yet handed out are dropped
        (what was handed out is given back: ``give_back``)."""
        self.pending = [p for p in self.pending if p.back or p.index < index]
        self.ids = {k: n for k, n in self.ids.items() if k[0] < index}

    def clear(self) -> None:
        self.pending.clear()
        self.ids.clear()


def step_ids(steps: Sequence[HandOut], counts: dict[str, int] | None = None) -> list[str]:
    """The ids of one action's ``steps`` (``key#n``, numbered per key in order, after
    ``counts`` steps of each key already numbered)."""
    seen = dict(counts or {})
    out = []
    for s in steps:
        n = seen.get(s.key, 0)
        seen[s.key] = n + 1
        out.append(f"{s.key or 'step'}#{n}")
    return out


class HandOutPlan(Generic[S, A]):
    """How a game splits the rules' own changes between two states into hand-out steps.

    The default: the ledger's entries the game's words call ``rules`` (not the acting
    player's own, which the instruction or the button already said), one step per cause in
    the order the rules made them, titled by the cause's words.  A game overrides
    ``step_key`` (group causes into the rulebook's steps), ``step_title`` and ``extra`` (steps
    no ledger entry shows: cards dealt, the event card)."""

    def __init__(self, game: Game[S, A]) -> None:
        self.game = game
        self.words: GameWords[object, object] = words_for(game.name)

    def step_key(self, entry: Entry) -> str:
        """The step an entry is handed out in (entries of one key share a screen)."""
        return entry.cause

    def step_title(self, key: str, entries: Sequence[Entry], before: S) -> str:
        return self.words.cause_text(entries[0])

    def draw_face(self, screen: Screen, surface: pygame.Surface, rect: pygame.Rect, card: str,
                  text: str = "") -> None:
        """Card ``card`` over ``rect`` as the table sees it on the game's screen (the default:
        a light card with its name and ``text``, what it does)."""
        draw_card(screen, surface, rect, self.game.name, card, text)

    def board(self, state: S) -> BoardMap | None:
        """The game's board in ``state``'s game, in the table's language (None: a game
        without a board picture: nothing is drawn)."""
        return None

    def step_places(self, key: str) -> tuple[str, ...]:
        """The places (:meth:`board`'s ids) a step of ``key`` names; none by default."""
        return ()

    def action_places(self, before: S, action: A) -> tuple[str, ...]:
        """The places ``action`` moves pieces at (an instruction's, a give-back's)."""
        return ()

    def step_card(self, key: str, entries: Sequence[Entry], before: S, after: S) -> str:
        """The card to draw on the step (none by default)."""
        return ""

    def extra(self, before: S, action: A, after: S) -> list[HandOut]:
        """Steps besides the ledger's (cards dealt, what else the table moves); one with the
        key of a ledger step joins that step."""
        return []

    def rank(self, key: str) -> int:
        """Where a step of ``key`` comes among the steps of one action (the rulebook's
        order); equal ranks keep the order the rules made them in (the default)."""
        return 0

    def is_rules(self, before: S, action: A, entry: Entry) -> bool:
        """Whether ``entry`` is the rules' own change (the log's "Then, by the rules:")."""
        return self.words.ledger_role(before, action, entry) == "rules"

    def lines(self, entries: Sequence[Entry]) -> tuple[HandLine, ...]:
        """One line per seat, resource and cause (amounts of one cause added up), in seat
        order then the order of the entries."""
        merged: dict[tuple[int, str, str], list[int]] = {}
        for e in entries:
            cause = self.words.cause_text(e)
            amount_owed = merged.setdefault((e.player, e.what, cause), [0, 0])
            amount_owed[0] += e.amount
            amount_owed[1] += int(e.get("owed", 0) or 0)
        keys = sorted(merged, key=lambda k: k[0])
        return tuple(
            HandLine(seat, what, merged[(seat, what, cause)][0], cause,
                     owed=merged[(seat, what, cause)][1])
            for seat, what, cause in keys
            if merged[(seat, what, cause)][0]
        )

    def replay(self, states: Sequence[S], actions: Sequence[A], start: int,
               dealt: Sequence[bool]) -> list[tuple[int, HandOut]]:
        """The hand-out steps the actions from index ``start`` on made (``states[i]`` is the
        state before ``actions[i]``), each with its action's index, in the order the table
        screen queued them: what a restart shows again.  ``dealt[i]``: the companion's
        virtual deck dealt ``actions[i]`` (as the journal says).  The default: each action's
        :meth:`steps`; a game whose screen queues more (the virtual deck's cards) adds them."""
        return [(i, step) for i in range(max(0, start), len(actions))
                for step in self.steps(states[i], actions[i], states[i + 1])]

    # -- the set-up's holdings, and what an undo gives back ------------------------------------
    def start_steps(self, state: S) -> tuple[HandOut, ...]:
        """What each seat takes before the first action (the ledger's entries of the
        set-up, ``state`` being the first state): one step, per seat, with what else the
        table gives them (:meth:`start_extra`)."""
        own = tuple(replace(ln, cause_text="") for ln in self.lines(self.game.ledger(state)))
        lines = (*own, *self.start_extra(state))
        if not lines:
            return ()
        lines = tuple(sorted(lines, key=lambda ln: (ln.seat == TABLE, ln.seat)))
        return (HandOut(_("Each player's starting pieces"), lines, "", self.start_notes(state),
                        "start", places=self.step_places("start")),)

    def start_extra(self, state: S) -> tuple[HandLine, ...]:
        """Lines of the set-up's step besides the ledger's (cards each seat starts with)."""
        return ()

    def start_notes(self, state: S) -> tuple[str, ...]:
        """What else the table does at the set-up that moves no holding."""
        return ()

    def card_places(self, state: S) -> dict[str, tuple[int, str]]:
        """Where each card of ``state`` lies that a move can take: its id, the seat holding it
        (``TABLE`` for the board) and the place in words (``the pool``, ``Shiring 2``); none
        by default (a game without cards)."""
        return {}

    def moved_cards(self, before: S, after: S) -> tuple[HandLine, ...]:
        """The cards a move put somewhere else, one line each: the seat that has it now (the
        one that had it, for a card put on the board), and in ``cause_text`` the place it
        came from, where an undo puts it back."""
        was, now = self.card_places(before), self.card_places(after)
        lines = []
        for card, (seat, place) in was.items():
            if now.get(card, (seat, "")) != (seat, place):
                holder = now.get(card, (TABLE, ""))[0]
                lines.append(HandLine(holder if holder != TABLE else seat, CARD, 1, place,
                                      card=card))
        return tuple(lines)

    def give_back(self, before: S, action: A, after: S, steps: Collection[str],
                  instructed: bool) -> HandOut | None:
        """What the table puts back when ``action`` (``before`` to ``after``) is undone: the
        lines of its hand-out steps the table confirmed (ids ``steps``; ``"*"``: all) and,
        when the action was ``instructed`` (the companion's, carried out by the table), its
        own changes and the cards it moved; per seat and thing, every amount the other way.
        None when nothing reached the table."""
        made = self.steps(before, action, after)
        ids = step_ids(made)
        lines = [ln for st, sid in zip(made, ids, strict=True)
                 if ALL in steps or sid in steps for ln in st.lines]
        if instructed:
            old = len(self.game.ledger(before))
            lines += self.lines([e for e in self.game.ledger(after)[old:]
                                 if not self.is_rules(before, action, e)])
        back = list(_given_back(lines))
        if instructed:
            known = {ln.card for ln in back if ln.resource == CARD}
            back += [HandLine(ln.seat, CARD, -1, _("back to {place}", place=ln.cause_text),
                              ln.card) for ln in self.moved_cards(before, after)
                     if ln.card not in known]
            back.sort(key=lambda ln: (ln.seat == TABLE, ln.seat, ln.resource == CARD))
        if not back:
            return None
        return HandOut(_("Undone: put these back"), tuple(back), "",
                       (_("Undone: {action}", action=self.words.action_text(before, action)),),
                       "back", places=self.action_places(before, action))

    def steps(self, before: S, action: A, after: S) -> tuple[HandOut, ...]:
        """The hand-out steps of ``action`` (``before`` to ``after``), in the order the rules
        make the changes."""
        old = len(self.game.ledger(before))
        entries = [e for e in self.game.ledger(after)[old:] if self.is_rules(before, action, e)]
        groups: dict[str, list[Entry]] = {}
        for e in entries:
            groups.setdefault(self.step_key(e), []).append(e)
        out: list[tuple[str, HandOut]] = []
        for key, group in groups.items():
            lines = self.lines(group)
            if lines:
                title = self.step_title(key, group, before)
                card = self.step_card(key, group, before, after)
                out.append((key, HandOut(title, lines, card, (), key)))
        for step in self.extra(before, action, after):
            at = next((k for k, (key, _s) in enumerate(out) if key == step.key), None)
            if at is None:
                out.append((step.key, step))
            else:
                out[at] = (step.key, _merge(out[at][1], step))
        out.sort(key=lambda ks: self.rank(ks[0]))
        return tuple(s if s.places else replace(s, places=self.step_places(k)) for k, s in out)


def _given_back(lines: Sequence[HandLine]) -> tuple[HandLine, ...]:
    """``lines`` (what reached the table) the other way round, one per seat and thing
    (amounts added up, none that comes to 0), cards last in their seat's lines."""
    amounts: dict[tuple[int, str], int] = {}
    cards: list[HandLine] = []
    for ln in lines:
        if ln.resource == CARD:
            cards.append(HandLine(ln.seat, CARD, -ln.amount, _("put back: {why}",
                                                               why=ln.cause_text),
                                  ln.card, 0, ln.what))
        else:
            key = (ln.seat, ln.resource)
            amounts[key] = amounts.get(key, 0) - ln.amount
    out = [HandLine(seat, what, n, _("taken back")) for (seat, what), n in amounts.items() if n]
    out += cards
    return tuple(sorted(out, key=lambda ln: (ln.seat == TABLE, ln.seat, ln.resource == CARD)))


def _merge(first: HandOut, more: HandOut) -> HandOut:
    """A ledger step and the extra lines of the same step as one screen."""
    lines = tuple(sorted((*first.lines, *more.lines),
                         key=lambda ln: (ln.seat == TABLE, ln.seat)))
    return HandOut(first.title or more.title, lines, first.card or more.card,
                   (*first.notes, *more.notes), first.key, (*first.cards, *more.cards))


# -- drawing ---------------------------------------------------------------------------------


def _seat_label(state: object, seat: int, words: GameWords[object, object],
                companions: Collection[int] = ()) -> tuple[str, theme.Colour]:
    """Whose lines follow, in their colour; a seat the companion plays marked (the table
    moves its pieces too)."""
    if seat == TABLE:
        return _("On the board"), theme.MUTED
    players = words.game.setup_of(state).players
    colour = players[seat].colour if seat < len(players) else ""
    if seat < len(players):
        return seat_label(players[seat], seat in companions), theme.PLAYER.get(colour,
                                                                               theme.TEXT)
    return words.seat_name(state, seat), theme.PLAYER.get(colour, theme.TEXT)


LINE_LINES = 8
"""The most lines a hand-out's line takes (the five cards dealt into a row, named in full, on a
portrait screen, whose text cannot shrink)."""


def line_height(screen: Screen, surface: pygame.Surface, text: str, width: int) -> int:
    m = screen.m
    return max(m.px(24), fitted_height(surface, text, width, 0, m.small, lines=LINE_LINES))


def line_words(line: HandLine, game: str) -> str:
    """A line as the table reads it: ``+5 gold · the King (event)`` (``+5 gold`` without a
    cause)."""
    if not line.cause_text:
        return line.text(game)
    return _("{change} · {cause}", change=line.text(game), cause=line.cause_text)


def draw_card(screen: Screen, surface: pygame.Surface, rect: pygame.Rect, game: str,
              card: str, text: str = "") -> None:
    """A card as the table sees it: a light card with its name and, below, what it does."""
    from .words import card_name

    m = screen.m
    panel(surface, rect, theme.TEXT, border=theme.ACCENT, width=3)
    inner = rect.inflate(-m.gap * 2, -m.gap * 2)
    try:
        name = card_name(game, card)
    except KeyError:
        name = card
    # a long name (ウィリアム・ハムレイ（4ゴールド支払う）) on a narrow card: up to 4 lines
    name_h = fitted_height(surface, name, inner.width, m.px(30), m.text, lines=4)
    name_r = pygame.Rect(inner.x, inner.y, inner.width, min(name_h, inner.height))
    draw_text(surface, name, name_r, m.text, theme.OUTLINE, bold=True, lines=4)
    if text:
        body = pygame.Rect(inner.x, name_r.bottom + m.gap, inner.width,
                           inner.bottom - name_r.bottom - m.gap)
        if body.height > m.px(16):
            draw_text(surface, text, body, m.small, theme.OUTLINE, align="left",
                      valign="top", lines=8, min_size=m.px(11))


CardFace = Callable[[pygame.Surface, pygame.Rect, str, str], None]
"""Draws a card (``surface, rect, card id, what it does``) as the game's screen does."""


def draw_handout(
    screen: Screen,
    surface: pygame.Surface,
    area: pygame.Rect,
    step: HandOut,
    state: object,
    game: str,
    confirm: Callable[[], None],
    *,
    card_text: str = "",
    more: int = 0,
    face: CardFace | None = None,
    companions: Collection[int] = (),
    page: int = 0,
    turn_page: Callable[[], None] | None = None,
    board: BoardMap | None = None,
) -> None:
    """One hand-out step over ``area``: its title, the card (if any; the cards a deck dealt
    in a strip), per player what to take from or give back to the supply with the icons and
    the cause of each line, the notes, and one CONFIRM (role ``confirm``) for the whole
    step; ``more`` says how many steps follow; ``face`` draws a card as the game does.  A
    step whose lines do not fit is paged, never cut: page ``page`` is drawn, and until the
    last one the CONFIRM button turns the page (``turn_page``).  With the game's ``board``,
    the board drawn small beside the title shows the step's places lit.
    Kept whole (``retained``) by all it draws from: the step, its seats' names and colours,
    the card's text, the steps to follow, the page and the confirmation (a card's ``face``
    is the game's, drawn from the card alone)."""
    words = words_for(game)
    labels = tuple(_seat_label(state, seat, words, companions) for seat in step.seats())
    board = board if step.places else None
    retained.panel(screen, surface, area, (step, labels, game, confirm, card_text, more, page,
                                           turn_page, board),
                   partial(_draw_handout, screen, surface, area, step, state, game, confirm,
                           card_text, more, face, companions, page, turn_page, board),
                   "hand-out")


def _draw_handout(screen: Screen, surface: pygame.Surface, area: pygame.Rect, step: HandOut,
                  state: object, game: str, confirm: Callable[[], None], card_text: str,
                  more: int, face: CardFace | None, companions: Collection[int], page: int,
                  turn_page: Callable[[], None] | None, board: BoardMap | None) -> None:
    m = screen.m
    words = words_for(game)
    if face is None:
        def face(surf: pygame.Surface, r: pygame.Rect, card: str, text: str) -> None:
            draw_card(screen, surf, r, game, card, text)
    panel(surface, area, theme.PANEL, border=theme.ACCENT)
    inner = area.inflate(-m.gap * 3, -m.gap * 3)
    head = titled(screen, surface, inner, step.title, board, step.places,
                  small=bool(step.cards or step.card))
    foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
    body = pygame.Rect(inner.x, head.bottom + m.gap, inner.width,
                       foot.y - head.bottom - m.gap * 2)
    strip = strip_height(screen, body.height) + m.gap
    if step.cards and strip > m.px(STRIP_HEIGHT - 40) and lines_height(
            screen, surface, step, body.width, game) <= body.height - strip:
        # (else the lines alone: they name every card; a card too short for its name is not
        # drawn)
        body = _card_strip(screen, surface, body, step.cards, face)
    elif step.card:
        body = _one_card(screen, surface, body, step, card_text, face)
    columns = [body]
    blocks = _blocks(screen, surface, step, body.width, game, body.height)
    pages = paginate([b[2] for b in blocks], body.height, m.gap)
    if len(pages) > 1 and body.width >= m.px(560):  # side by side rather than page by page
        columns = split_h(body, 1, 1, gap=m.gap * 2)
        blocks = _blocks(screen, surface, step, columns[0].width, game, body.height)
        runs = paginate([b[2] for b in blocks], body.height, m.gap)
        pages = [[k for run in runs[i:i + 2] for k in run] for i in range(0, len(runs), 2)]
    page = min(page, len(pages) - 1)
    shown = [blocks[k] for k in pages[page]]
    for column in columns:
        here = paginate([b[2] for b in shown], body.height, m.gap)[0]
        _draw_blocks(screen, surface, column, step, [shown[k] for k in here], state, game,
                     words, companions)
        shown = shown[len(here):]
    if page < len(pages) - 1 and turn_page is not None:
        screen.button(surface, foot, _("More: page {k} of {n}", k=page + 1, n=len(pages)),
                      turn_page, key="handout more", role=Role.CONFIRM, fill=theme.ACCENT,
                      text_colour=theme.OUTLINE, short=_("More"))
        return
    label = _("Done: handed out")
    if more:
        label = _("Done: handed out ({n} more)", n=more)
    screen.button(surface, foot, label, confirm, key="handout confirm", role=Role.CONFIRM,
                  fill=theme.ACCENT, text_colour=theme.OUTLINE,
                  short=_("Done"))


MAP_WIDTH = (200, 420)
"""The widest board (reference pixels) drawn beside a step's title: landscape (numbers only),
portrait (the names where they fit)."""


def titled(screen: Screen, surface: pygame.Surface, inner: pygame.Rect, title: str,
           board: BoardMap | None, places: Collection[str], *, small: bool = False
           ) -> pygame.Rect:
    """A step's title at the top of ``inner`` (two lines at most), with the board drawn
    small at its right (below it, on a portrait screen or a narrow panel: smaller still with
    ``small``, for a step whose cards need the room) and ``places`` lit; the rectangle the
    two take."""
    m = screen.m
    if board is None or not places or m.portrait or inner.width < m.px(400):
        title_h = fitted_height(surface, title, inner.width, m.px(32), m.large, lines=2,
                                bold=True)
        title_r = pygame.Rect(inner.x, inner.y, inner.width, title_h)
        draw_text(surface, title, title_r, m.large, theme.ACCENT, bold=True, lines=2,
                  align="left")
        if board is None or not places:
            return title_r
        ratio = board.size[1] / board.size[0]
        share = (3 if m.portrait else 4) * (2 if small else 1)
        map_w = min(m.px(MAP_WIDTH[1]), inner.width, int(inner.height / share / ratio))
        map_r = pygame.Rect(0, title_r.bottom + m.gap, map_w, round(map_w * ratio))
        map_r.centerx = inner.centerx
        draw_map(surface, map_r, board, places, names=True)
        return pygame.Rect(inner.x, inner.y, inner.width, map_r.bottom - inner.y)
    map_w = min(m.px(MAP_WIDTH[0]) // (2 if small else 1), int(inner.width * 0.45))
    map_h = round(map_w * board.size[1] / board.size[0])
    map_r = pygame.Rect(inner.right - map_w, inner.y, map_w, map_h)
    text_w = inner.width - map_w - m.gap * 2
    title_h = fitted_height(surface, title, text_w, m.px(32), m.large, lines=3, bold=True)
    title_r = pygame.Rect(inner.x, inner.y, text_w, title_h)
    draw_text(surface, title, title_r, m.large, theme.ACCENT, bold=True, lines=3, align="left")
    draw_map(surface, map_r, board, places)
    return pygame.Rect(inner.x, inner.y, inner.width, max(title_h, map_h))


def _one_card(screen: Screen, surface: pygame.Surface, body: pygame.Rect, step: HandOut,
              text: str, face: CardFace) -> pygame.Rect:
    """The step's card beside the lines (above them on a portrait screen), or as large as
    the body when it is the whole step; the room left for the lines."""
    m = screen.m
    alone = not step.lines and not step.notes
    if alone:  # the card is the step: as large as the body allows
        card_r = pygame.Rect(body.x, body.y, min(body.width, m.px(440)), body.height)
        card_r.centerx = body.centerx
    elif m.portrait:
        card_r = pygame.Rect(body.x, body.y, body.width, body.height * 2 // 5)
        body = pygame.Rect(body.x, card_r.bottom + m.gap, body.width,
                           body.bottom - card_r.bottom - m.gap)
    else:
        card_r = pygame.Rect(body.x, body.y, body.width * 2 // 5, body.height)
        body = pygame.Rect(card_r.right + m.gap * 2, body.y,
                           body.right - card_r.right - m.gap * 2, body.height)
    face(surface, card_r, step.card, text)
    return body


def strip_height(screen: Screen, body_height: int) -> int:
    """The height of the strip of dealt cards over a body ``body_height`` high."""
    return min(screen.m.px(STRIP_HEIGHT), body_height * 11 // 20)


STRIP_HEIGHT = 170
"""The height (in reference pixels) of the strip of cards a deck dealt: a card of the rows."""

STRIP_WIDTH = (96, 130)
"""The narrowest and widest card of the strip (reference pixels)."""


def _card_strip(screen: Screen, surface: pygame.Surface, body: pygame.Rect,
                cards: Sequence[str], face: CardFace) -> pygame.Rect:
    """The cards a deck dealt side by side above the lines, as the rows show them (as many
    as fit, the first ones; the lines name every one); the room left for the lines."""
    m = screen.m
    height = strip_height(screen, body.height)
    gap = m.gap
    fit = max(1, (body.width + gap) // (m.px(STRIP_WIDTH[0]) + gap))
    shown = list(cards)[:fit]
    width = min(m.px(STRIP_WIDTH[1]), (body.width + gap) // len(shown) - gap)
    x = body.x
    for card in shown:
        face(surface, pygame.Rect(x, body.y, width, height), card, "")
        x += width + gap
    return pygame.Rect(body.x, body.y + height + gap, body.width,
                       body.height - height - gap)


Block = tuple[str, int, int, tuple[int, ...]]
"""A part of a step's lines, kept on one page: (``"seat"``, the seat, its height, the indices
of its lines in ``HandOut.lines``) for a seat's name and lines (a seat with more lines than a
page holds has a block per page), (``"note"``, the note's index, its height, ()) for a
note."""


def _blocks(screen: Screen, surface: pygame.Surface, step: HandOut, width: int,
            game: str, room: int = 1 << 30) -> list[Block]:
    """The step's seats (each with its lines) and notes, in order, with their heights in
    ``width`` pixels; a seat's lines taller than ``room`` are split between blocks."""
    m = screen.m
    text_w = width - m.px(10) - m.px(18) - m.gap * 2
    out: list[Block] = []
    for seat in step.seats():
        height, mine = m.px(24), list[int]()
        for k, ln in enumerate(step.lines):
            if ln.seat != seat:
                continue
            h = line_height(screen, surface, line_words(ln, game), text_w)
            if mine and height + h > room:
                out.append(("seat", seat, height, tuple(mine)))
                height, mine = m.px(24), list[int]()
            height += h
            mine.append(k)
        out.append(("seat", seat, height, tuple(mine)))
    out += [("note", k, fitted_height(surface, n, width, m.px(24), m.small, lines=4), ())
            for k, n in enumerate(step.notes)]
    return out


def _draw_blocks(screen: Screen, surface: pygame.Surface, body: pygame.Rect, step: HandOut,
                 blocks: Sequence[Block], state: object, game: str,
                 words: GameWords[object, object], companions: Collection[int] = ()) -> None:
    """The blocks of one page, top to bottom (each fits: the page was made so)."""
    m = screen.m
    y = body.y
    icon = m.px(18)
    text_w = body.width - m.px(10) - icon - m.gap * 2
    for kind, k, height, which in blocks:
        block = pygame.Rect(body.x, y, body.width, min(height, body.bottom - y))
        if kind == "note":
            draw_text(surface, step.notes[k], block, m.small, theme.MUTED, align="left",
                      lines=4)
            y = block.bottom + m.gap
            continue
        name, colour = _seat_label(state, k, words, companions)
        pygame.draw.rect(surface, colour, (block.x, block.y + 2, m.px(6), block.height - 4))
        draw_text(surface, name, pygame.Rect(block.x + m.px(10), y, block.width - m.px(10),
                                             m.px(24)),
                  m.small, theme.TEXT, bold=True, align="left", lines=1)
        ly = y + m.px(24)
        for ln in (step.lines[i] for i in which):
            h = line_height(screen, surface, line_words(ln, game), text_w)
            row = pygame.Rect(block.x + m.px(10), ly, block.width - m.px(10), h)
            icon_r = pygame.Rect(row.x, row.y + (min(h, m.px(24)) - icon) // 2, icon, icon)
            if ln.resource in icons.SHAPES:
                icons.resource_icon(surface, ln.resource, icon_r, row)
            text_r = pygame.Rect(icon_r.right + m.gap, row.y, row.right - icon_r.right - m.gap,
                                 h)
            draw_text(surface, line_words(ln, game), text_r, m.small, theme.TEXT, align="left",
                      valign="top", lines=LINE_LINES)
            ly += h
        y = block.bottom + m.gap


def handout_fits(screen: Screen, surface: pygame.Surface, area: pygame.Rect,
                 step: HandOut, game: str) -> bool:
    """Whether ``step`` drawn over ``area`` shows every line (else the screen gives it the
    whole body)."""
    m = screen.m
    inner = area.inflate(-m.gap * 3, -m.gap * 3)
    width = inner.width
    if step.card and not step.cards and not m.portrait:
        width -= inner.width * 2 // 5 + m.gap * 2
    need = m.px(32) + m.touch + m.gap * 3
    if step.card and not step.cards and m.portrait:
        need += m.px(200)
    if step.cards:
        need += m.px(STRIP_HEIGHT) + m.gap
    return need + lines_height(screen, surface, step, width, game) <= inner.height


def lines_height(screen: Screen, surface: pygame.Surface, step: HandOut, width: int,
                 game: str) -> int:
    """The height the players' lines and the notes of ``step`` take in ``width`` pixels."""
    m = screen.m
    text_w = width - m.px(10) - m.px(18) - m.gap * 2
    need = 0
    for seat in step.seats():
        need += m.px(24) + m.gap + sum(
            line_height(screen, surface, line_words(ln, game), text_w)
            for ln in step.lines if ln.seat == seat)
    need += sum(fitted_height(surface, n, width, m.px(24), m.small, lines=4) + m.gap
                for n in step.notes)
    return need


__all__ = [
    "CARD",
    "TABLE",
    "HandLine",
    "HandOut",
    "HandOutPlan",
    "HandOutQueue",
    "Pending",
    "SETUP",
    "step_ids",
    "draw_card",
    "draw_handout",
    "handout_fits",
    "line_words",
]
