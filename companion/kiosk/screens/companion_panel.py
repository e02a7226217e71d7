"""The companion's panel on a table screen: what the table does for the companion's seat (its
whole visit in one instruction, one CONFIRM), the companion thinking, a decision that failed
(try again, or decide for it), and the hint for the person deciding."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Generic, TypeVar, cast

import pygame

from companion.engine import CHANCE
from companion.events import Role
from companion.kiosk import theme
from companion.kiosk.handout import titled
from companion.kiosk.i18n import _
from companion.kiosk.paging import draw_piece, pages
from companion.kiosk.ui import draw_text, fitting, panel, split_h
from companion.kiosk.words import name_of, words_for

from .panel import StepPanel

if TYPE_CHECKING:
    from companion.kiosk.visit import Visit

    from .base import GameScreen

S = TypeVar("S")
A = TypeVar("A")

INDICATOR_STEPS = 8
"""How often a second the thinking indicator moves on (and the screen is redrawn for it)."""


class CompanionPanel(StepPanel["GameScreen[S, A]"], Generic[S, A]):
    """The companion's instruction, thinking indicator or failure, or the hint; and the
    companion's work behind it: its visit worked out, the indicator's step last drawn."""

    screen: GameScreen[S, A]

    def __init__(self, screen: GameScreen[S, A]) -> None:
        super().__init__(screen)
        self.visit: Visit[S, A] | None = None  # the companion's decisions of one visit
        self.indicator = -1  # the thinking indicator's step last drawn
        self.dots: tuple[pygame.Rect, int] | None = None  # where the last frame drew them
        self.only_indicator = False  # the last update moved the indicator on, nothing else
        self.undone: tuple[int, tuple[int, str] | None] = (-1, None)  # (entries, last undo)
        self.page: tuple[object, int] = ((), 0)  # (the instruction shown, its page)
        self.visits: dict[tuple[int, int, str], HintedVisit[S, A]] = {}  # the hint's, in words
        self.hint_page = 0  # the page of the hint's choices on show

    def same_move_again(self, action: A) -> bool:
        """Whether ``action`` is the very move the table's last undo took back (the companion
        says so: the table put its pieces back a moment ago)."""
        session = self.screen.session
        if self.undone[0] != session.entries:
            self.undone = (session.entries, session.last_undone())
        undone = self.undone[1]
        return undone is not None and undone == (len(session.playthrough.actions),
                                                 self.screen.game.notation(action))

    def update(self) -> bool:
        """The companion's work: started when its seat decides, collected when done; while it
        thinks, a redraw each time the indicator moves on (8 a second, not every frame)."""
        s = self.screen
        companion = s.app.companion
        changed = companion.update(s.app.session, s.app.time)
        changed = self.plan() or changed
        if s.hint_open and companion.hint is None:
            s.hint_open = False  # the position changed under the hint
            changed = True
        step = int(s.app.time * INDICATOR_STEPS)
        moved = bool(companion.thinking) and step != self.indicator
        if moved:
            self.indicator = step
        self.only_indicator = moved and not changed
        return changed or moved

    def redraw_part(self) -> Callable[[pygame.Surface], pygame.Rect] | None:
        """When only the indicator moved on and the last frame drew it: what draws just its
        dots (over the panel's colour), 8 times a second while the companion thinks."""
        if not self.only_indicator or self.dots is None:
            return None
        area, lit = self.dots
        if lit == int(self.screen.app.time * INDICATOR_STEPS) % 8:
            return None
        return partial(self.redraw_dots, area)

    def redraw_dots(self, area: pygame.Rect, surface: pygame.Surface) -> pygame.Rect:
        """The indicator's dots drawn again in ``area`` (the panel's colour under them)."""
        box = self.dots_box(area)
        pygame.draw.rect(surface, theme.PANEL, box)
        self.thinking(surface, area)
        return box

    def dots_box(self, area: pygame.Rect) -> pygame.Rect:
        """What the dots of ``thinking`` in ``area`` cover."""
        radius = max(self.screen.m.px(8), min(area.width, area.height) // 4)
        r = radius + max(3, radius // 5) + 2
        return pygame.Rect(area.centerx - r, area.centery - r, 2 * r, 2 * r)

    def due(self) -> bool:
        """Whether the panel has something to show: the hint the person asked for, or the
        companion's seat deciding (and no person deciding for it)."""
        from companion.kiosk.seats import Companion

        s = self.screen
        if s.hint_open and s.app.companion.hint is not None:
            return True
        seat = Companion.seat_to_decide(s.session)
        return seat is not None and not s.app.companion.by_hand(s.session)

    def confirm(self) -> None:
        """The table moved the pieces as told: the companion's actions (its whole visit) go
        through the journal one after another, like a person's."""
        s = self.screen
        actions = s.visit_ready()
        if not actions:
            return
        s.app.companion.taken()
        self.visit = None
        for action in actions:
            before = len(s.session.playthrough.actions)
            # a card among them: the virtual deck dealt it inside the visit
            s.commit_companion(action, dealt=s.game.current_player(s.state) == CHANCE)
            if len(s.session.playthrough.actions) == before:
                return  # refused (the reason is on screen): the rest is decided afresh

    def decide_by_hand(self) -> None:
        """A person makes this decision for the companion's seat, with the usual buttons."""
        s = self.screen
        s.app.companion.decide_by_hand(s.session)

    def retry(self) -> None:
        """Think again about a decision that failed."""
        s = self.screen
        s.app.companion.retry(s.session, s.app.time)

    def play_hint(self, actions: list[A]) -> None:
        """A choice of the hint tapped: it is played as a person's taps on it would be
        (through the screen's preview, when it has one), the whole visit a market hint
        proposes one action after another."""
        s = self.screen
        s.close_hint()
        for k, action in enumerate(actions):
            if k and (s.preview is not None or s.handouts.current is not None):
                break  # (what the table confirms first; the rest is the person's to tap)
            before = len(s.session.playthrough.actions)
            s.act(action)
            if len(s.session.playthrough.actions) == before:
                break

    def hinted_visit(self, action: A) -> HintedVisit[S, A]:
        """A choice of the hint worked out as the table reads it: the whole visit where the
        screen proposes one (a market: the trades after the first, as the easy companion
        would make them, then done), in words, and what it leads to (``leads_to``)."""
        s = self.screen
        key = (id(s.session), len(s.session.playthrough.actions), s.game.notation(action))
        found = self.visits.get(key)
        if found is None:
            found = self.visits[key] = hinted_visit(s, s.state, action)
            if len(self.visits) > 12:
                self.visits.pop(next(iter(self.visits)))
        return found

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        from companion.kiosk.seats import Companion

        s = self.screen
        if s.hint_open and s.app.companion.hint is not None:
            self.hint(surface, area)
            return
        seat = Companion.seat_to_decide(s.session)
        if seat is not None:
            self.turn(surface, area, seat)

    def plan(self) -> bool:
        """Work out the companion's whole visit from its first decision (off the main loop);
        True when what the panel shows changed."""
        from companion.kiosk import visit as visits

        s = self.screen
        session = s.session
        first = s.companion_decision()
        index = len(session.playthrough.actions)
        if first is None:
            if self.visit is not None and not self.visit.about(session.id, index, session.state):
                visits.cancel(self.visit)
                self.visit = None
                return True
            return False
        changed = False
        if self.visit is None or not self.visit.about(session.id, index, session.state):
            visits.cancel(self.visit)
            seat = s.game.current_player(session.state)
            self.visit = visits.start(s.game, session.id, index, session.state, seat, first,
                                      visits.Visiting(s.same_visit))
            changed = True
        strength = session.companions.get(self.visit.seat, "normal")
        return self.visit.advance(s.game, strength, s.app.companion.mode) or changed

    def ready(self) -> list[A]:
        """The companion's decisions the table carries out now (its whole visit), or none
        while it still thinks."""
        s = self.screen
        session = s.session
        v = self.visit
        if v is None or not v.done or s.app.companion.ready(session) is None:
            return []
        if not v.about(session.id, len(session.playthrough.actions), session.state):
            return []
        return list(v.actions)

    def turn(self, surface: pygame.Surface, area: pygame.Rect, seat: int) -> None:
        s = self.screen
        m = s.m
        player = s.game.setup_of(s.state).players[seat]
        companion = s.app.companion
        thought = companion.decision
        actions = s.visit_ready()
        panel(surface, area, theme.PANEL, border=theme.PLAYER[player.colour], width=4)
        stripe = pygame.Rect(area.x, area.y, m.px(10), area.height)
        pygame.draw.rect(surface, theme.PLAYER[player.colour], stripe, border_radius=6)
        inner = pygame.Rect(
            stripe.right + m.gap * 2, area.y + m.gap, area.width - stripe.width - m.gap * 4,
            area.height - m.gap * 2,
        )
        head = pygame.Rect(inner.x, inner.y, inner.width, m.px(72))
        foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
        body = pygame.Rect(inner.x, head.bottom + m.gap, inner.width,
                           foot.y - head.bottom - m.gap * 2)
        if actions:
            assert self.visit is not None
            text = s.visit_instruction(s.state, actions, self.visit.states)
            title = (_("{name}, the companion, plays the same move again:", name=name_of(player))
                     if self.same_move_again(actions[0]) else
                     _("{name}, the companion:", name=name_of(player)))
            places = visit_places(s, self.visit.states, actions)
            head = titled(s, surface, inner, title, s.plan.board(s.state), places)
            body = pygame.Rect(inner.x, head.bottom + m.gap, inner.width,
                               foot.y - head.bottom - m.gap * 2)
            if self.instruction(surface, body, text, foot):  # its last page: a tap confirms
                s.tap_area(area, s.confirm_companion, "companion done")
                s.button(surface, foot, _("Done: the pieces are moved"), s.confirm_companion,
                         key="companion confirm", role=Role.CONFIRM, fill=theme.ACCENT,
                         text_colour=theme.OUTLINE)
        elif thought is not None and thought.error is not None:
            draw_text(surface, _("{name}, the companion, could not decide", name=name_of(player)),
                      head, m.large, theme.BAD_TEXT, bold=True, align="left", lines=2)
            draw_text(surface, thought.error, body, m.small, theme.TEXT, align="left",
                      valign="top", lines=4, min_size=m.px(10))
            again_r, hand_r = split_h(foot, 1, 1, gap=m.gap)
            s.button(surface, again_r, _("Try again"), self.retry,
                        key="companion retry", role=Role.CONFIRM)
            s.button(surface, hand_r, _("Decide for it"), self.decide_by_hand,
                        key="companion by hand", size=m.small)
        else:
            draw_text(surface, _("{name}, the companion, is thinking…", name=name_of(player)), head,
                      m.large, theme.ACCENT, bold=True, align="left", lines=2)
            self.thinking(surface, body)

    def instruction(self, surface: pygame.Surface, body: pygame.Rect, text: str,
                    foot: pygame.Rect) -> bool:
        """The instruction over ``body``, paged when it does not fit (never cut): True on
        its last page, else the foot holds the button to the next page."""
        m = self.screen.m
        for size in (m.large, m.text, m.small):
            laid = pages(surface, [text], body.width, size, body.height, m.gap)
            if len(laid) == 1:
                break
        key = (text, len(laid))
        page = self.page[1] if self.page[0] == key else 0
        self.page = (key, min(page, len(laid) - 1))
        y = body.y
        for piece in laid[self.page[1]]:
            draw_piece(surface, piece, pygame.Rect(body.x, y, body.width, piece.height), size)
            y += piece.height + m.gap
        if self.page[1] >= len(laid) - 1:
            return True
        self.screen.button(surface, foot, _("More steps →"), self.next_page,
                           key="companion more", role=Role.CONFIRM, sub_optional=True,
                           sub=f"{self.page[1] + 1}/{len(laid)}")
        return False

    def next_page(self) -> None:
        self.page = (self.page[0], self.page[1] + 1)

    def thinking(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The thinking indicator: eight dots around a circle, one bright, turning."""
        s = self.screen
        m = s.m
        radius = max(m.px(8), min(area.width, area.height) // 4)
        lit = int(s.app.time * INDICATOR_STEPS) % 8
        self.dots = (area, lit)
        for k in range(8):
            angle = 2 * math.pi * k / 8
            x = area.centerx + int(radius * math.sin(angle))
            y = area.centery - int(radius * math.cos(angle))
            colour = theme.ACCENT if k == lit else theme.PANEL_HI
            pygame.draw.circle(surface, colour, (x, y), max(3, radius // 5))

    def hint(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        from companion.kiosk.seats import about_equal

        s = self.screen
        m = s.m
        hint = s.app.companion.hint
        assert hint is not None
        panel(surface, area, theme.PANEL, border=theme.ACCENT)
        inner = area.inflate(-m.gap * 3, -m.gap * 3)
        head_h = m.px(40)
        head = pygame.Rect(inner.x, inner.y, inner.width, head_h)
        foot = pygame.Rect(inner.x, inner.bottom - m.touch, inner.width, m.touch)
        body = pygame.Rect(inner.x, head.bottom + m.gap, inner.width,
                           foot.y - head.bottom - m.gap * 2)
        name = name_of(s.game.setup_of(s.state).players[hint.seat])
        draw_text(surface, _("The companion's hint for {name}", name=name), head, m.large,
                  theme.ACCENT, bold=True, align="left", lines=1)
        if hint.error is not None:
            draw_text(surface, hint.error, body, m.small, theme.BAD, align="left", lines=4)
        elif hint.result is None:
            self.thinking(surface, body)
        else:
            choices = hint.choices()
            # an honest "about equal" where a choice's interval overlaps another's
            near = [any(o is not c and about_equal(c, o) for o in choices) for c in choices]
            note = pygame.Rect(body.x, body.y, body.width, m.px(24))
            if any(near):
                words = (_("Best first; ≈ about equal; tap one to play it"),
                         _("≈ about equal; tap one to play it"), _("≈ about equal"))
            else:
                words = (_("Best first, each with its estimated chance to win; tap one to play "
                           "it"),
                         _("Best first, with the chance to win; tap one to play it"),
                         _("Best first; tap one to play it"))
            draw_text(surface, fitting(surface, note, m.small, *words), note, m.small,
                      theme.MUTED, align="left", lines=1)
            body = pygame.Rect(body.x, note.bottom + m.gap, body.width,
                               body.height - note.height - m.gap)
            visits = [self.hinted_visit(cast(A, c[0])) for c in choices]
            pages = hint_pages(s, surface, body, visits)
            page = min(self.hint_page, len(pages) - 1)
            y = body.y
            for k, height, size in pages[page]:
                row = pygame.Rect(body.x, y, body.width, height)
                draw_choice(s, surface, row, k, visits[k], choices[k][1], near[k], size,
                            partial(self.play_hint, visits[k].actions))
                y = row.bottom + m.gap
            if page < len(pages) - 1:
                more_r, foot = split_h(foot, 1, 1, gap=m.gap)
                s.button(surface, more_r, _("More: page {k} of {n}", k=page + 1,
                                            n=len(pages)),
                         self.next_hint_page, key="hint more", short=_("More"))
        s.button(surface, foot, _("Close"), s.close_hint, key="close hint", role=Role.BACK)

    def next_hint_page(self) -> None:
        self.hint_page += 1


@dataclass(frozen=True)
class HintedVisit(Generic[S, A]):
    """A choice of the hint as the table reads it: its actions (one, or a whole visit), in
    words, and what it leads to."""

    actions: list[A]
    text: str
    why: str


HINT_VISIT_STEPS = 12
"""The most actions a hinted visit runs to."""


def hinted_visit(screen: GameScreen[S, A], state: S, first: A) -> HintedVisit[S, A]:
    """``first`` and, where the screen proposes whole visits in its hints (``hint_visit``),
    the seat's next decisions of the same visit as the easy companion makes them."""
    from companion.bots.seat import decide
    from companion.kiosk.seats import instruction

    game = screen.game
    seat = game.current_player(state)
    actions, states = [first], [state]
    after = game.apply(state, first)
    while (screen.hint_visit(state) and len(actions) < HINT_VISIT_STEPS
           and game.current_player(after) == seat and screen.same_visit(states[-1], after)):
        states.append(after)
        nxt = cast(A, decide(game, after, seat, "easy", "hint visit"))
        actions.append(nxt)
        after = game.apply(after, nxt)
    text = (screen.visit_instruction(state, actions, [*states, after]) if len(actions) > 1
            else instruction(game.name, state, first))
    return HintedVisit(actions, text, words_for(game.name).leads_to(state, seat, after))


def hint_pages(screen: GameScreen[S, A], surface: pygame.Surface, body: pygame.Rect,
               visits: list[HintedVisit[S, A]]) -> list[list[tuple[int, int, int]]]:
    """The hint's choices page by page, each whole on one (a tap plays it): (its index, the
    height it takes, the size of its words)."""
    from companion.kiosk.ui import paginate

    m = screen.m
    width = (body.width - m.gap * 3) * 5 // 6
    for size in (m.text, m.small):
        heights = [max(m.touch, choice_height(surface, width, k, v, size, m.small, m.gap))
                   for k, v in enumerate(visits)]  # (each a touch target: a tap plays it)
        pages = paginate(heights, body.height, m.gap)
        if len(pages) == 1:
            break
    return [[(k, heights[k], size) for k in page] for page in pages]


def choice_height(surface: pygame.Surface, width: int, k: int, visit: HintedVisit[S, A],
                  size: int, small: int, gap: int) -> int:
    """The height choice ``k`` of a hint takes: its words, what it leads to, a margin."""
    from companion.kiosk.fonts import font
    from companion.kiosk.linebreak import wrap
    from companion.kiosk.ui import min_text, text_height

    size, small = max(size, min_text(surface)), max(small, min_text(surface))
    h = text_height(surface, size, lines=len(wrap(f"{k + 1}. {visit.text}", font(size), width)))
    if visit.why:
        h += text_height(surface, small, lines=len(wrap("→ " + visit.why, font(small), width)))
    return h + gap * 2


def draw_choice(screen: GameScreen[S, A], surface: pygame.Surface, row: pygame.Rect, k: int,
                visit: HintedVisit[S, A], chance: float, close: bool, size: int,
                play: Callable[[], None]) -> None:
    """Choice ``k`` of a hint in ``row``: its words, what it leads to (why it is good), its
    chance to win; a tap plays it."""
    m = screen.m
    panel(surface, row, theme.PANEL_HI, radius=6)
    screen.tap_area(row, play, f"hint {k + 1}")
    text_r, chance_r = split_h(row.inflate(-m.gap, -m.gap * 2), 5, 1, gap=m.gap)
    what = f"{k + 1}. {visit.text}"
    used = draw_text(surface, what, text_r, size, theme.TEXT, align="left", valign="top",
                     lines=12, min_size=size)
    if visit.why:  # what it leads to: why the choice is good
        why_r = pygame.Rect(text_r.x, used.bottom, text_r.width, text_r.bottom - used.bottom)
        draw_text(surface, "→ " + visit.why, why_r, m.small, theme.MUTED, align="left",
                  valign="top", lines=12, min_size=m.small)
    percent = _("{n} %", n=round(chance * 100))
    draw_text(surface, ("≈ " + percent) if close else percent, chance_r, m.large,
              theme.ACCENT, bold=True, align="right", lines=1)


def visit_places(screen: GameScreen[S, A], states: list[S], actions: list[A]) -> tuple[str, ...]:
    """The places on the board a visit's actions move pieces at, in order, each once."""
    found: dict[str, None] = {}
    for before, action in zip(states, actions, strict=False):
        found.update(dict.fromkeys(screen.plan.action_places(before, action)))
    return tuple(found)


__all__ = ["INDICATOR_STEPS", "CompanionPanel"]
