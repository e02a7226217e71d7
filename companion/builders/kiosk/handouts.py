"""The Builders' hand-outs: what the table does on the board for the changes the rules make by
themselves, one step with one CONFIRM each: the cards the virtual deck deals (into a row, face
up on a deck, an Apprentice to a player), the Automa's turn in the solo game, and the final
count of coins at the end of the game.  The same after a person's move as after the
companion's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from companion.builders.actions import Action, DealApprentice, Reveal, ShowNext
from companion.builders.state import BuildersState
from companion.engine import CHANCE
from companion.engine.ledger import Entry
from companion.kiosk.api import (
    CARD,
    TABLE,
    BoardMap,
    HandLine,
    HandOut,
    HandOutPlan,
    _,
    card_name,
    name_of,
    panel,
    theme,
)

from .boardmap import STEP_PLACES, action_places, board_map
from .panels.rows import card_fill, draw_card_face, row_card

if TYPE_CHECKING:
    from companion.kiosk.api import Screen

DEAL = "deal"
"""The key of the step listing the cards the virtual deck dealt."""

RANKS = {"automa": 0, DEAL: 1, "end.coins": 2}


class BuildersHandOuts(HandOutPlan[BuildersState, Action]):
    """The rules' own changes of a Builders action: the Automa's moves as one step, the
    final coins as another."""

    def board(self, state: BuildersState) -> BoardMap:
        return board_map(state.setup)

    def step_places(self, key: str) -> tuple[str, ...]:
        return STEP_PLACES.get(key, ())

    def action_places(self, before: BuildersState, action: Action) -> tuple[str, ...]:
        return action_places(self.game.actor(before, action), action)

    def step_key(self, entry: Entry) -> str:
        return "automa" if entry.cause.startswith("automa.") else entry.cause

    def step_title(self, key: str, entries: Sequence[Entry], before: BuildersState) -> str:
        if key == "automa":
            return _("The Automa's turn")
        if key == "end.coins":
            return _("The end of the game: 1 VP per 10 coins")
        return super().step_title(key, entries, before)

    def rank(self, key: str) -> int:
        return RANKS.get(key, 0)

    def draw_face(self, screen: Screen, surface: pygame.Surface, rect: pygame.Rect, card: str,
                  text: str = "") -> None:
        """A dealt card as the rows show it: its name, what it needs or supplies, its foot."""
        face = row_card(card)
        panel(surface, rect, card_fill(face), border=theme.ACCENT, width=2)
        draw_card_face(surface, screen.m, rect, face)

    def start_notes(self, state: BuildersState) -> tuple[str, ...]:
        first = state.setup.players[state.setup.start_player]
        return (_("10 coins each: one gold coin (5) and five silver (1); the rest is the bank"),
                _("{name} plays first: give them the first player card", name=name_of(first)))

    def card_places(self, state: BuildersState) -> dict[str, tuple[int, str]]:
        """The two rows and each player's idle workers, sites and finished buildings."""
        out: dict[str, tuple[int, str]] = {c: (TABLE, _("the building row"))
                                           for c in state.building_row}
        out.update({c: (TABLE, _("the worker row")) for c in state.worker_row})
        for seat, p in enumerate(state.players):
            name = self.words.seat_name(state, seat)
            out.update({c: (seat, _("{name}'s finished buildings", name=name))
                        for c in p.finished})
            out.update({c: (seat, _("{name}'s idle workers", name=name)) for c in p.idle})
            for site in p.sites:
                out[site.card] = (seat, _("{name}'s sites", name=name))
                out.update({c: (seat, _("the {building} site",
                                        building=card_name("builders", site.card)))
                            for c in site.workers})
        return out

    def replay(self, states: Sequence[BuildersState], actions: Sequence[Action], start: int,
               dealt: Sequence[bool]) -> list[tuple[int, HandOut]]:
        """As the screen queues them: each row of cards the virtual deck dealt in one go is
        one step (at the first card's index); every other action's own."""
        out: list[tuple[int, HandOut]] = []
        i = max(0, start)
        while i < len(actions):
            if dealt[i] and self.game.current_player(states[i]) == CHANCE:
                first, lines = i, []
                while (i < len(actions) and dealt[i]
                       and self.game.current_player(states[i]) == CHANCE):
                    lines.append(deal_line(states[i], actions[i]))
                    i += 1
                out.append((first, deal_step(lines)))
                continue
            out += [(i, step) for step in self.steps(states[i], actions[i], states[i + 1])]
            i += 1
        return out


def deal_line(before: BuildersState, outcome: Action) -> HandLine:
    """The card the deck dealt with ``outcome`` (taken in ``before``), and where it goes."""
    if isinstance(outcome, Reveal):
        where = (_("into the building row") if outcome.deck == "building"
                 else _("into the worker row"))
        return HandLine(TABLE, CARD, 1, where, card=outcome.card, place=f"{outcome.deck}-row")
    if isinstance(outcome, ShowNext):
        where = (_("face up on the building deck") if outcome.deck == "building"
                 else _("face up on the worker deck"))
        return HandLine(TABLE, CARD, 1, where, card=outcome.card, place=f"{outcome.deck}-deck")
    assert isinstance(outcome, DealApprentice), outcome
    return HandLine(before.pending_seat, CARD, 1, _("dealt at the start"), card=outcome.card,
                    place=f"player{before.pending_seat}")


def deal_step(lines: Sequence[HandLine]) -> HandOut:
    """One step for the cards the deck dealt in a row of reveals: each card drawn as the rows
    draw it, and a line per card naming it (a worker by its rank and what it supplies) and
    where it goes."""
    cards = tuple(ln.card for ln in lines if ln.resource == CARD)
    places = tuple(dict.fromkeys(ln.place for ln in lines if ln.place))
    return HandOut(_("The deck deals"), grouped(lines), "", (), DEAL, cards, places=places)


def grouped(lines: Sequence[HandLine]) -> tuple[HandLine, ...]:
    """The cards going to one place as one line (``Rural House, Hotel, Church · into the
    building row``: the deal at the start, 14 cards, on one screen), in the order dealt."""
    places: dict[tuple[int, str], list[HandLine]] = {}
    for ln in lines:
        places.setdefault((ln.seat, ln.cause_text), []).append(ln)
    out = []
    for (seat, cause), same in places.items():
        if len(same) == 1:
            out.append(same[0])
            continue
        names = _(", ").join(card_name("builders", ln.card) for ln in same)
        out.append(HandLine(seat, CARD, len(same), cause, card=same[0].card, what=names,
                            place=same[0].place))
    return tuple(out)


__all__ = ["DEAL", "BuildersHandOuts", "deal_line", "deal_step"]
