"""The rules of The Builders: Middle Ages on the shared engine core.

A turn is the table :data:`TURN` below (``builders.md`` §2 and §3, rulings B1 to B8).
The turn starts with 3 AP.  It also ends by itself when nothing but ``end turn`` is possible
(no AP and fewer than 5 coins, in practice).  At the end of a turn, a player with 17 VP or more
from finished buildings and machines triggers the end: the round is completed so that everyone
has had the same number of turns.  B6: the end is also triggered when no player can make
progress any more (see :func:`can_progress`).  Final score: VP + 1 per full 10 coins; ties go to
the most VP from cards, then the most coins, then the win is shared (B5).

This module is the game's face (:class:`BuildersGame`); the rules themselves live beside it,
written once over the mutable table of :mod:`.draft` that the bots' search plays on too:
:mod:`.turn` (the decisions of a turn and the Automa's), :mod:`.chance` (the cards that come
up, refills, and why a card cannot), :mod:`.checks` (no progress, scores, invariants),
:mod:`.queries` (what screens ask), :mod:`.position` (validated positions) and
:mod:`.refusals` (every rule tag with its fields).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine.core import CHANCE, TERMINAL, Game, Option, Setup
from companion.engine.errors import IllegalAction, SetupError
from companion.engine.ledger import Entry, Ledger
from companion.engine.summary import Period, Summary

from . import chance, checks, turn
from .actions import (
    Action,
    parse_action,
)
from .cards import APPRENTICES, BUILDINGS, WORKERS
from .checks import NEEDS, automa_vp, can_progress
from .constants import (
    ACTION_PRICE,
    AUTOMA,
    COIN_TABLE,
    END_VP,
    ROW_SIZE,
    SOLO_ROW_SIZE,
    START_AP,
    START_COINS,
)
from .position import position
from .queries import Queries
from .sim import BuildersSim
from .state import (
    DEAL_APPRENTICE,
    NEXT_BUILDING,
    NEXT_WORKER,
    REVEAL_BUILDING,
    REVEAL_WORKER,
    BuildersState,
    PlayerState,
)

__all__ = [
    "ACTION_PRICE",
    "AUTOMA",
    "COIN_TABLE",
    "END_VP",
    "START_AP",
    "TURN",
    "BuildersGame",
    "Move",
    "can_progress",
]


@dataclass(frozen=True, slots=True)
class Move:
    """One kind of move in a turn as the rulebook lists it: for help screens and messages.

    ``rules`` are the tags (``docs/builders.md``) the engine may refuse it with."""

    form: str
    cost: str
    effect: str
    rules: tuple[str, ...]

    @property
    def rule(self) -> str:
        """The tag of the move's main rule (the first of ``rules``)."""
        return self.rules[0]


TURN: tuple[Move, ...] = (
    Move(
        "start <building>",
        "1 AP",
        "a row card becomes an open site; the row is refilled",
        ("turn.ap", "row.card"),
    ),
    Move(
        "recruit <worker>",
        "1 AP",
        "a row worker joins the idle workers; the row is refilled",
        ("turn.ap", "row.card"),
    ),
    Move(
        "send <worker> to <site>",
        "n AP for the n-th worker sent to that site this turn, and the wage (0 for a machine)",
        "the worker's resources go to the site; a site whose needs are all met is finished at "
        "once: workers back, coins and VP paid, a machine joins the workers with wage 0",
        ("send.ap", "send.wage", "send.worker", "send.machine", "send.site"),
    ),
    Move(
        "coins <k>ap",
        "k AP, k = 1, 2 or 3",
        "1, 3 or 6 coins (option coins: cumulative)",
        ("turn.ap", "coins.ap"),
    ),
    Move("buy action", "5 coins", "+1 AP, at any time in the turn, any number", ("buy.coins",)),
    Move("end turn", "nothing", "AP left are lost; the next player clockwise begins", ("over",)),
)
"""The moves of a turn, in the rulebook's order."""


class BuildersGame(Queries, Game[BuildersState, Action]):
    """The Builders: Middle Ages (Frédéric Henry, Bombyx 2013) for 2 to 4 players.

    One player plays the unofficial solo fan variant (ruling B9) against the Automa.  The
    public queries a screen needs (costs, previews, sites, idle workers...) come from
    :class:`~companion.builders.queries.Queries`."""

    name: ClassVar[str] = "builders"
    title: ClassVar[str] = "The Builders: Middle Ages"
    min_players: ClassVar[int] = 1
    """One player plays the unofficial solo variant (B9) against the Automa."""
    max_players: ClassVar[int] = 4
    options: ClassVar[Mapping[str, Option]] = {
        "coins": Option(
            "separate",
            ("separate", "cumulative"),
            "B1: 'separate' prices every take-coins action on its own (1/2/3 AP give 1/3/6); "
            "'cumulative' adds up a turn's coin AP (1 AP then 1 AP give 1 + 2), at most 3 a turn",
        ),
        "show_next_worker": Option(
            False,
            (False, True),
            "B3: the top of the building deck is always public; True makes the top of the "
            "worker deck public too",
        ),
    }

    # -- set-up ---------------------------------------------------------------------------
    def validate_setup(self, setup: Setup) -> None:
        """Raise SetupError unless ``setup`` is legal; a solo player cannot be the Automa."""
        super().validate_setup(setup)
        if len(setup.players) == 1 and setup.players[0].name.strip().lower() == AUTOMA.lower():
            raise SetupError(f"{AUTOMA} is the name of the solo opponent; choose another name")

    def initial_state(self, setup: Setup) -> BuildersState:
        """The table before the first card is dealt; raises SetupError on a bad set-up.

        The chance steps of the set-up come first: five buildings into the row, the new top of
        the building deck, one Apprentice to each player from the first player on, five
        workers into the row (the leftover Apprentices are shuffled in first) and, with the
        option, the top of the worker deck.
        """
        self.validate_setup(setup)
        n = len(setup.players)
        solo = n == 1
        row = SOLO_ROW_SIZE if solo else ROW_SIZE
        show_next_worker = bool(self.option(setup, "show_next_worker"))
        pending = (
            (REVEAL_BUILDING,) * row
            + (NEXT_BUILDING,)
            + (DEAL_APPRENTICE,) * (n + solo)
            + (REVEAL_WORKER,) * row
            + ((NEXT_WORKER,) if show_next_worker else ())
        )
        worker_deck = tuple(c.id for c in WORKERS if c.rank != "apprentice" for _ in range(c.count))
        return BuildersState(
            setup=setup,
            players=tuple(PlayerState(coins=START_COINS) for _ in range(n)),
            building_deck=tuple(c.id for c in BUILDINGS),
            building_next=None,
            building_row=(),
            worker_deck=worker_deck,
            worker_next=None,
            worker_row=(),
            apprentices=APPRENTICES,
            pending=pending,
            pending_seat=setup.start_player,
            turn_player=setup.start_player,
            ap=START_AP,
            sent=(),
            coin_ap=0,
            turn=1,
            end=None,
            over=False,
            cumulative_coins=self.option(setup, "coins") == "cumulative",
            show_next_worker=show_next_worker,
            solo=solo,
            ledger=Ledger(tuple(Entry(1, i, "coins", START_COINS, "start") for i in range(n))),
        )

    def setup_of(self, state: BuildersState) -> Setup:
        """The set-up the game was started from."""
        return state.setup

    # -- whose move -----------------------------------------------------------------------
    def current_player(self, state: BuildersState) -> int:
        """The seat to act, CHANCE while a card is to be revealed, TERMINAL when over."""
        return turn.to_act(state)

    def active_seat(self, state: BuildersState) -> int | None:
        """The seat the table should look at, chance steps included: the player deciding; the
        player dealt an Apprentice; otherwise the player whose turn it is (the first player
        while the set-up deals the rows, the player whose move is refilling a row).  None for
        the solo Automa's Apprentice and once the game is over."""
        return chance.active_seat(state)

    def waiting_for(self, state: BuildersState) -> str | None:
        """The chance step the table is waiting for (``reveal building``, ``next building``,
        ``deal apprentice``, ``reveal worker``, ``next worker``), None at a decision or the end."""
        return state.pending[0] if state.pending and not state.over else None

    def chance_outcomes(self, state: BuildersState) -> list[tuple[Action, float]]:
        """Every card that can come next with its probability, in catalogue order.

        Identical cards weigh by their copies still hidden.  Empty unless at a chance node."""
        return chance.outcomes(state)

    def card_of(self, outcome: Action) -> str | None:
        """The card a chance outcome shows (None for a decision)."""
        return chance.card_of(outcome)

    def refuse_card(self, state: BuildersState, card: str) -> IllegalAction:
        """Why ``card`` is not the card the table is revealing now: ``chance.none`` (no card
        is being revealed), ``chance.unknown``, ``chance.deck`` (a building where a worker is
        dealt, or the reverse), ``chance.apprentice``, ``chance.revealed`` (already out: in a
        row, on a deck top, with a player...), or ``over``."""
        return chance.refuse_card(state, card)

    def outcome_for_card(self, state: BuildersState, card: str) -> Action:
        """The chance outcome that ``card`` turning up stands for; IllegalAction (see
        :meth:`refuse_card`) when it cannot turn up now.  Never ambiguous: the two all-round
        Craftsmen are one outcome weighted by two copies."""
        return chance.outcome_for_card(state, card)

    def legal_actions(self, state: BuildersState) -> list[Action]:
        """The decisions open to the player whose turn it is; empty at chance and at the end."""
        return turn.legal_actions(state, dict(state.sent))

    # -- moves ----------------------------------------------------------------------------
    def apply(self, state: BuildersState, action: Action) -> BuildersState:
        """The state after ``action``; raises IllegalAction with its rule tag and fields
        (``docs/builders.md``) and leaves ``state`` unchanged.  An action built by hand with
        an unknown card or an amount out of range is refused the same way.

        The state is thawed into the mutable table the bots' search plays on
        (:class:`~companion.builders.sim.BuildersSim`, one type for the steps both run),
        keeping the ledger's notes; the action is checked on it (``chance.check_deal``,
        ``turn.check``), played by the rules' steps (``turn.play``) and the table frozen back."""
        turn.check_form(action)
        if state.over:
            raise IllegalAction(
                action,
                f"The game is over ({state.end}); no more actions are possible",
                "over",
                turn=state.turn,
            )
        d = BuildersSim.thaw(state, notes=True)
        if state.pending:
            chance.check_deal(state, action)
        else:
            turn.check(d, action)
        turn.play(d, action)
        return d.freeze()

    def period_of(self, state: BuildersState) -> Period:
        """The turn being played (1 for the first player's first turn, and the set-up before
        it, ``phase`` ``setup``), with the seat whose turn it is."""
        if chance.in_setup(state) or state.turn < 1:
            return Period(state.turn, "turn", phase="setup")
        seat = state.turn_player if 0 <= state.turn_player < len(state.setup.players) else None
        return Period(state.turn, "turn", seat=seat, phase="over" if state.over else "play")

    def money(self, state: BuildersState, seat: int) -> int:
        """Coins."""
        return state.players[seat].coins

    def rank_key(self, state: BuildersState, seat: int) -> tuple[int, ...]:
        """B5: points, then VP from cards, then coins."""
        return checks.ranking(state)[seat][1]

    def parse_action(self, text: str) -> Action:
        """The action written ``text``; raises MalformedAction naming what is wrong."""
        return parse_action(text)

    # -- positions ------------------------------------------------------------------------
    def position(self, setup: Setup, **table: Any) -> BuildersState:
        """A validated position after set-up for tests and tutorials (see
        :func:`companion.builders.position.position` for the keywords); SetupError names
        what is impossible in it."""
        self.validate_setup(setup)
        return position(setup, **table)

    # -- results --------------------------------------------------------------------------
    def scores(self, state: BuildersState) -> dict[str, int]:
        """Points by name: VP of finished cards plus 1 per full 10 coins (3.4); in the solo
        variant the Automa scores the VP of its buildings."""
        return {name: key[0] for name, key in checks.ranking(state)}

    def winners(self, state: BuildersState) -> list[str]:
        """The winners of a finished game (B5 tie-breaks; shared win); empty before the end."""
        if not state.over:
            return []
        ranking = checks.ranking(state)
        best = max(key for _, key in ranking)
        return [name for name, key in ranking if key == best]

    # -- checks and summaries -------------------------------------------------------------
    def invariants(self, state: BuildersState) -> list[str]:
        """Conservation problems: every card in exactly one place, sane counters; [] if fine."""
        return checks.invariants(state)

    def ledger(self, state: BuildersState) -> tuple[Entry, ...]:
        """Every change of coins, VP and workers so far with its cause, in order, from the
        starting coins on (see ``docs/builders.md``, "The ledger")."""
        return state.ledger.entries()

    def holdings(self, state: BuildersState) -> dict[tuple[int, str], int]:
        """What the ledger adds up to, by (seat, what): ``coins``, ``vp`` (the final points
        once the game is over) and ``workers``; the solo Automa's seat is the one after the
        last."""
        return checks.holdings(state)

    def summary(self, state: BuildersState) -> Summary:
        """A JSON-ready picture of the whole table (every key is listed in
        ``docs/builders.md``): the turn, the rows and decks with their public tops, and every
        player's coins, VP, workers, machines and sites."""
        who = self.current_player(state)
        players = []
        for seat, (spec, p) in enumerate(zip(state.setup.players, state.players, strict=True)):
            players.append(
                {
                    "seat": seat,
                    "name": spec.name,
                    "colour": spec.colour,
                    "coins": p.coins,
                    "vp": p.vp,
                    "points": p.vp + p.coins // 10,
                    "vp_breakdown": self.vp_breakdown(state, seat),
                    "idle": list(p.idle),
                    "workers": [
                        {
                            "card": w.card,
                            "count": w.count,
                            "wage": w.wage,
                            "supplies": list(w.supplies),
                            "machine": w.machine,
                        }
                        for w in self.idle_workers(state, seat)
                    ],
                    "sites": [
                        {
                            "card": s.card,
                            "workers": list(s.workers),
                            "supplied": list(s.supplied),
                            "needs": list(s.needs),
                            "missing": list(s.missing),
                            "next_ap": s.next_ap,
                        }
                        for s in self.sites(state, seat)
                    ],
                    "finished": list(p.finished),
                    "machines": self.machines(state, seat),
                }
            )
        summary: dict[str, Any] = {
            "turn": state.turn,
            "round": self.round_of(state),
            "phase": "over" if state.over else "setup" if chance.in_setup(state) else "play",
            "turn_player": state.turn_player,
            "to_act": (
                "chance"
                if who == CHANCE
                else None
                if who == TERMINAL
                else state.setup.players[who].name
            ),
            "active_seat": self.active_seat(state),
            "waiting_for": self.waiting_for(state),
            "pending": list(state.pending),
            "ap": state.ap,
            "sent": self.sent_this_turn(state),
            "coin_ap": state.coin_ap,
            "end": state.end,
            "turns_left": self.turns_left(state),
            "building_row": list(state.building_row),
            "building_next": state.building_next,
            "building_deck": len(state.building_deck),
            "worker_row": list(state.worker_row),
            "worker_next": state.worker_next,
            "worker_deck": len(state.worker_deck),
            "apprentices": len(state.apprentices),
            "options": {
                "coins": "cumulative" if state.cumulative_coins else "separate",
                "show_next_worker": state.show_next_worker,
            },
        }
        if state.solo:
            summary["variant"] = "solo (unofficial fan variant, B9)"
            summary["automa"] = {
                "name": AUTOMA,
                "workers": list(state.automa_workers),
                "finished": list(state.automa_finished),
                "vp": automa_vp(state),
                "set_aside": list(state.set_aside),
            }
        return self.summary_with(state, summary, players, self.winners(state))

    def describe(self, state: BuildersState) -> str:
        """A few lines of plain text: whose turn, the rows, and each player's position."""
        n = len(state.players)
        round_no = (state.turn - 1) // n + 1
        lines: list[str] = []
        if state.over:
            lines.append(f"Game over ({state.end}); winners: {', '.join(self.winners(state))}")
        elif state.pending:
            lines.append(f"Round {round_no}: waiting for {state.pending[0]}")
        else:
            name = state.setup.players[state.turn_player].name
            lines.append(f"Round {round_no}: {name} to play with {state.ap} AP")
            if state.end:
                lines.append(f"Last round: {state.end}")
        nb = state.building_next or "hidden"
        lines.append(
            f"Buildings: {' '.join(state.building_row) or '-'} | next {nb}, "
            f"{len(state.building_deck)} more in the deck"
        )
        nw = state.worker_next or "hidden"
        lines.append(
            f"Workers: {' '.join(state.worker_row) or '-'} | next {nw}, "
            f"{len(state.worker_deck)} more in the deck"
        )
        for spec, p in zip(state.setup.players, state.players, strict=True):
            sites = "; ".join(
                f"{s.card} {'/'.join(map(str, s.supplied))} of {'/'.join(map(str, NEEDS[s.card]))}"
                for s in p.sites
            )
            lines.append(
                f"{spec.name}: {p.vp} VP, {p.coins} coins, idle {' '.join(p.idle) or '-'}, "
                f"sites {sites or '-'}, finished {' '.join(p.finished) or '-'}"
            )
        if state.solo:
            vp = automa_vp(state)
            lines.append(
                f"{AUTOMA} (solo variant): {vp} VP, holds "
                f"{' '.join(state.automa_workers) or '-'}, "
                f"finished {' '.join(state.automa_finished) or '-'}"
            )
        return "\n".join(lines)


class BuildersSimulator:
    """The Builders' :class:`companion.engine.sim.Simulator`: the rules' own mutable table,
    :class:`~companion.builders.sim.BuildersSim`, which :meth:`BuildersGame.apply` thaws too."""

    def start(self, setup: Setup) -> BuildersSim:
        return BuildersSim.thaw(BuildersGame().initial_state(setup))

    def thaw(self, state: BuildersState) -> BuildersSim:
        return BuildersSim.thaw(state)


SIMULATOR = BuildersSimulator()
"""The simulation path this game's registry record declares (``spec.py``: ``simulator``)."""
