"""The Pillars' hand-out steps: the rules' own changes of phase III and of the round's end,
grouped as the rulebook orders them (the event, the wool mill, Kingsbridge, the Priory, the
resource cards, the King's Court, the tax, Shiring, the castle, at most 5 resources, the
round's end), each with its cards and what else the table moves."""

from __future__ import annotations

from collections.abc import Sequence

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
    n_,
    name_of,
)
from companion.pillars import data as D
from companion.pillars.actions import Action
from companion.pillars.state import PillarsState

from .boardmap import STEP_PLACES, action_places, board_map
from .names import area_name, pillars_card_name


def short_name(card: str) -> str:
    """A card's name without its bracketed details, for a title (the card shows them)."""
    name = pillars_card_name(card)
    for bracket in (" (", "（", "("):
        if bracket in name:
            return name.split(bracket)[0].strip()
    return name

PHASE2 = ("draw", "place", "parked")

DEALT_STEPS = ("privilege", "craftsman", "resource")
"""The reveals of a round's start: what the virtual deck dealt then is one step to lay out."""

ORDER = ("event", "wool", "kingsbridge", "priory", "production", "court", "tax", "shiring",
         "castle", "cathedral", "return", "round")
"""The steps of phase III and the round's end in the rulebook's order."""


def _key(entry: Entry) -> str:
    cause = entry.cause
    if cause == "privilege":
        if entry.get("space"):
            return "priory"  # Prior Philip's VP at the Priory
        if str(entry.get("card", "")) in D.PRODUCTION_BONUS:
            return "production"
        return "kingsbridge"
    return {"castle.return": "round"}.get(cause, cause)


def event_shown(before: PillarsState, after: PillarsState) -> bool:
    """Whether the round's event card turns public between the two states: revealed now, or
    seen early by Ellen's owner and public once phase III begins."""
    if not after.event or after.round != before.round:
        return False
    if before.step == "event":
        return True
    return bool(before.event) and before.step in PHASE2 and after.step not in PHASE2


class PillarsHandOuts(HandOutPlan[PillarsState, Action]):
    """Phase III and the round's end, step by step."""

    def board(self, state: PillarsState) -> BoardMap:
        return board_map()

    def step_places(self, key: str) -> tuple[str, ...]:
        return STEP_PLACES.get(key, ())

    def action_places(self, before: PillarsState, action: Action) -> tuple[str, ...]:
        return action_places(action)

    def step_key(self, entry: Entry) -> str:
        return _key(entry)

    def rank(self, key: str) -> int:
        return ORDER.index(key) if key in ORDER else len(ORDER)

    def step_title(self, key: str, entries: Sequence[Entry], before: PillarsState) -> str:
        if key == "event":
            return _("The event: {card}", card=short_name(str(entries[0].get("card"))))
        if key == "tax":
            return _("The tax: the die shows {n}", n=entries[0].get("roll"))
        titles = {
            "wool": _("The wool mill"),
            "kingsbridge": _("Kingsbridge: the privileges"),
            "priory": area_name("priory"),
            "production": _("The resource cards yield"),
            "court": area_name("court"),
            "castle": area_name("castle"),
            "return": _("At most 5 resources"),
            "round": _("The end of the round"),
            "cathedral": _("The cathedral"),
        }
        return titles.get(key) or self.words.cause_text(entries[0])

    def step_card(self, key: str, entries: Sequence[Entry], before: PillarsState,
                  after: PillarsState) -> str:
        return str(entries[0].get("card", "")) if key == "event" else ""

    def extra(self, before: PillarsState, action: Action,
              after: PillarsState) -> list[HandOut]:
        out: list[HandOut] = []
        if event_shown(before, after):
            card = after.event
            title = _("The event: {card}", card=short_name(card))
            out.append(HandOut(title, (), card, (), "event"))
        taken = self._cards(before, after, "privileges", _("taken at Kingsbridge"))
        if taken:
            out.append(HandOut(_("Kingsbridge: the privileges"), taken, "", (), "kingsbridge"))
        crafts = self._cards(before, after, "craftsmen", _("taken at Shiring"))
        if crafts and before.step in ("roll", "taxfree") and after.round == before.round:
            out.append(HandOut(area_name("shiring"), crafts, "", (), "shiring"))
        notes = self._round_notes(before, after)
        if notes:
            out.append(HandOut(_("The end of the round"), (), "", notes, "round"))
        return out

    def start_extra(self, state: PillarsState) -> tuple[HandLine, ...]:
        """Each seat's three starting craftsmen (their colour on the back)."""
        lines = []
        for seat, s in enumerate(state.seats):
            names = _(", ").join(short_name(c) for c in s.craftsmen)
            lines.append(HandLine(seat, CARD, len(s.craftsmen), "",
                                  card=s.craftsmen[0] if s.craftsmen else "", what=names))
        return tuple(lines)

    def start_notes(self, state: PillarsState) -> tuple[str, ...]:
        n = len(state.seats)
        return (
            _("Each player: 7 small workers and 1 large (worth 5), the three starting "
              "craftsmen face up, a summary card; the VP disc on 2, the gold disc on the gold "
              "shown"),
            n_("{n} master builder of each colour into the bag: {total} in all",
               "{n} master builders of each colour into the bag: {total} in all", 3,
               total=3 * n),
            _("{name} starts: give them the start player marker (the Nave)",
              name=name_of(state.setup.players[state.start])),
        )

    def card_places(self, state: PillarsState) -> dict[str, tuple[int, str]]:
        """The pool, Kingsbridge, Shiring and each seat's craftsmen, privileges and resource
        cards."""
        out: dict[str, tuple[int, str]] = {c: (TABLE, _("the pool")) for c in state.pool}
        out.update({c: (TABLE, _("Kingsbridge {n}", n=k))
                    for k, c in enumerate(state.kingsbridge, 1) if c})
        out.update({c: (TABLE, _("Shiring {n}", n=k)) for k, c in enumerate(state.shiring, 1)
                    if c})
        for seat, s in enumerate(state.seats):
            name = name_of(state.setup.players[seat])
            out.update({c: (seat, _("{name}'s craftsmen", name=name)) for c in s.craftsmen})
            out.update({c: (seat, _("{name}'s privileges", name=name)) for c in s.privileges})
            out.update({c: (seat, _("{name}'s resource cards", name=name)) for c in s.cards})
        return out

    def replay(self, states: Sequence[PillarsState], actions: Sequence[Action], start: int,
               dealt: Sequence[bool]) -> list[tuple[int, HandOut]]:
        """Each action's steps, and what the virtual deck dealt at the start of a round
        (after the cards' own steps, at the last card's index), as the screen queues them."""
        out = super().replay(states, actions, start, dealt)
        i = max(0, start)
        while i < len(actions):
            if (self.game.current_player(states[i]) == CHANCE
                    and states[i].step in DEALT_STEPS):
                by_deck = False
                while i < len(actions) and self.game.current_player(states[i]) == CHANCE:
                    by_deck = by_deck or dealt[i]
                    i += 1
                if by_deck:
                    at = i - 1
                    place = max((k + 1 for k, (j, _s) in enumerate(out) if j <= at), default=0)
                    out.insert(place, (at, dealt_step(states[i])))
            i += 1
        return out

    def _cards(self, before: PillarsState, after: PillarsState, field: str,
               cause: str) -> tuple[HandLine, ...]:
        lines = []
        for seat, (a, b) in enumerate(zip(before.seats, after.seats, strict=True)):
            had = getattr(a, field)
            lines += [HandLine(seat, CARD, 1, cause, card=c) for c in getattr(b, field)
                      if c not in had]
        return tuple(lines)

    def _round_notes(self, before: PillarsState, after: PillarsState) -> tuple[str, ...]:
        notes: list[str] = []
        if after.start != before.start:
            notes.append(_("{name} becomes the start player: give them the start player "
                           "marker", name=name_of(after.setup.players[after.start])))
        if after.over and not before.over:
            notes.append(_("The game is over"))
        elif after.round != before.round:
            notes.append(_("Round {n} begins: every master builder back into the bag, every "
                           "worker back to its owner", n=after.round))
        return tuple(notes)


def dealt_step(state: PillarsState) -> HandOut:
    """What the virtual deck dealt at the start of a round, for the table to lay out: the
    privilege cards on Kingsbridge, the craftsmen on Shiring, the cards of the pool."""
    lines = [HandLine(TABLE, CARD, 1, _("Kingsbridge {n}", n=k), card=c,
                      place=f"kingsbridge{k}") for k, c in enumerate(state.kingsbridge, 1) if c]
    lines += [HandLine(TABLE, CARD, 1, _("Shiring {n}", n=k), card=c, place=f"shiring{k}")
              for k, c in enumerate(state.shiring, 1) if c]
    lines += [HandLine(TABLE, CARD, 1, _("the pool"), card=c, place="pool") for c in state.pool]
    return HandOut(_("Dealt for round {n}", n=state.round), tuple(lines), "", (), "dealt",
                   places=tuple(dict.fromkeys(ln.place for ln in lines)))


__all__ = ["DEALT_STEPS", "PillarsHandOuts", "dealt_step", "event_shown"]
