"""The moves of The Builders and their notation.

Decisions of the player whose turn it is::

    start abbaye                    start construction of a building or machine from the row
    recruit maitre-3200             recruit a worker from the row
    send maitre-3200 to abbaye      send an idle worker (or a finished machine) to an own site
    coins 2ap                       take coins, spending 1, 2 or 3 AP
    buy action                      pay 5 coins for one more AP
    end turn                        end the turn, losing any AP left

Chance outcomes, named by the card so that a physical draw can be tapped in::

    reveal building abbaye          a building card is dealt into the building row
    reveal worker maitre-3200       a worker card is dealt into the worker row
    next building grue-1            the top of the building deck turns out to be this card
    next worker maitre-3200         the same for the worker deck (option show_next_worker)
    deal apprentice apprenti-1100   a player is dealt this Apprentice at set-up

``parse_action(str(a)) == a`` for every action, and each action has exactly one notation (case
and spacing aside): ``coins 2`` is refused with a hint to write ``coins 2ap``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from companion.engine.errors import MalformedAction

from .cards import APPRENTICES, BUILDING, MACHINE_IDS, WORKER

Deck = Literal["building", "worker"]


class _Notation:
    """Shared text form: ``repr`` shows the notation."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Start(_Notation):
    """Start construction of ``card`` from the building row (1 AP)."""

    card: str

    def __str__(self) -> str:
        return f"start {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Recruit(_Notation):
    """Recruit ``card`` from the worker row (1 AP)."""

    card: str

    def __str__(self) -> str:
        return f"recruit {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Send(_Notation):
    """Send an idle ``worker`` (or finished machine) to the player's open ``site``."""

    worker: str
    site: str

    def __str__(self) -> str:
        return f"send {self.worker} to {self.site}"


@dataclass(frozen=True, slots=True, repr=False)
class TakeCoins(_Notation):
    """Spend ``ap`` action points (1 to 3) on coins from the bank."""

    ap: int

    def __str__(self) -> str:
        return f"coins {self.ap}ap"


@dataclass(frozen=True, slots=True, repr=False)
class BuyAction(_Notation):
    """Pay 5 coins for one more action point this turn."""

    def __str__(self) -> str:
        return "buy action"


@dataclass(frozen=True, slots=True, repr=False)
class EndTurn(_Notation):
    """End the turn; action points left are lost."""

    def __str__(self) -> str:
        return "end turn"


@dataclass(frozen=True, slots=True, repr=False)
class Reveal(_Notation):
    """Chance: ``card`` from the hidden part of ``deck`` is dealt face up into the row."""

    deck: Deck
    card: str

    def __str__(self) -> str:
        return f"reveal {self.deck} {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class ShowNext(_Notation):
    """Chance: the new top card of ``deck`` (kept face up) is ``card``."""

    deck: Deck
    card: str

    def __str__(self) -> str:
        return f"next {self.deck} {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class DealApprentice(_Notation):
    """Chance at set-up: the next player in turn order is dealt Apprentice ``card``."""

    card: str

    def __str__(self) -> str:
        return f"deal apprentice {self.card}"


Action = (
    Start | Recruit | Send | TakeCoins | BuyAction | EndTurn | Reveal | ShowNext | DealApprentice
)
"""Every move of the game, decisions and chance outcomes alike."""

BUY_ACTION = BuyAction()
END_TURN = EndTurn()
TAKE_COINS = (TakeCoins(1), TakeCoins(2), TakeCoins(3))

_FORMS = (
    "start <building>, recruit <worker>, send <worker> to <building>, coins <1-3>ap, "
    "buy action, end turn, reveal building|worker <card>, next building|worker <card>, "
    "deal apprentice <apprentice>"
)


def _card(text: str, word: str, known: Iterable[str], what: str) -> str:
    """``word`` if it is one of the ``known`` ids; raises MalformedAction suggesting ids."""
    ids = known if isinstance(known, (set, frozenset, dict)) else set(known)
    if word in ids:
        return word
    close = difflib.get_close_matches(word, sorted(ids), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise MalformedAction(text, f"{word!r} is not {what}{hint}")


_SITES = frozenset(BUILDING)
_WORKERS = frozenset(WORKER)
_SENDABLE = _WORKERS | MACHINE_IDS
_APPRENTICES = frozenset(APPRENTICES)


def parse_action(text: str) -> Action:
    """The action written ``text`` (case and spacing are free); raises MalformedAction."""
    if not isinstance(text, str):
        raise MalformedAction(repr(text), "an action is written as text")
    words = text.strip().lower().split()
    if not words:
        raise MalformedAction(text, f"it is empty; the forms are: {_FORMS}")
    verb, args = words[0], words[1:]
    if verb == "start" and len(args) == 1:
        return Start(_card(text, args[0], _SITES, "a building or machine id"))
    if verb == "recruit" and len(args) == 1:
        return Recruit(_card(text, args[0], _WORKERS, "a worker id"))
    if verb == "send" and len(args) == 3 and args[1] == "to":
        worker = _card(text, args[0], _SENDABLE, "a worker or machine id")
        site = _card(text, args[2], _SITES, "a building or machine id")
        return Send(worker, site)
    if verb == "coins" and len(args) == 1:
        if args[0] in ("1ap", "2ap", "3ap"):
            return TAKE_COINS[int(args[0][0]) - 1]
        if args[0] in ("1", "2", "3"):
            raise MalformedAction(text, f"write the AP spent with its unit: coins {args[0]}ap")
        raise MalformedAction(text, "taking coins spends 1, 2 or 3 AP: coins 1ap, 2ap or 3ap")
    if words == ["buy", "action"]:
        return BUY_ACTION
    if words == ["end", "turn"]:
        return END_TURN
    if verb in ("reveal", "next") and len(args) == 2 and args[0] in ("building", "worker"):
        if args[0] == "building":
            card = _card(text, args[1], _SITES, "a building or machine id")
            return Reveal("building", card) if verb == "reveal" else ShowNext("building", card)
        card = _card(text, args[1], _WORKERS, "a worker id")
        return Reveal("worker", card) if verb == "reveal" else ShowNext("worker", card)
    if verb == "deal" and len(args) == 2 and args[0] == "apprentice":
        return DealApprentice(_card(text, args[1], _APPRENTICES, "an Apprentice id"))
    raise MalformedAction(text, f"unknown form; the forms are: {_FORMS}")
