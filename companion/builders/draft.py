"""A private mutable copy of a :class:`BuildersState`, edited inside ``apply`` and frozen at the
end: ``apply`` builds one state instead of one per field changed."""

from __future__ import annotations

from .state import BuildersState, PlayerState


class Draft:
    """The fields of a :class:`BuildersState`, mutable; ``players`` is a list."""

    __slots__ = (
        "setup",
        "players",
        "building_deck",
        "building_next",
        "building_row",
        "worker_deck",
        "worker_next",
        "worker_row",
        "apprentices",
        "pending",
        "pending_seat",
        "turn_player",
        "ap",
        "sent",
        "coin_ap",
        "turn",
        "end",
        "over",
        "cumulative_coins",
        "show_next_worker",
        "solo",
        "automa_workers",
        "automa_finished",
        "set_aside",
    )

    def __init__(self, s: BuildersState) -> None:
        self.setup = s.setup
        self.players: list[PlayerState] = list(s.players)
        self.building_deck = s.building_deck
        self.building_next = s.building_next
        self.building_row = s.building_row
        self.worker_deck = s.worker_deck
        self.worker_next = s.worker_next
        self.worker_row = s.worker_row
        self.apprentices = s.apprentices
        self.pending = s.pending
        self.pending_seat = s.pending_seat
        self.turn_player = s.turn_player
        self.ap = s.ap
        self.sent = s.sent
        self.coin_ap = s.coin_ap
        self.turn = s.turn
        self.end = s.end
        self.over = s.over
        self.cumulative_coins = s.cumulative_coins
        self.show_next_worker = s.show_next_worker
        self.solo = s.solo
        self.automa_workers = s.automa_workers
        self.automa_finished = s.automa_finished
        self.set_aside = s.set_aside

    def freeze(self) -> BuildersState:
        """The immutable state with the draft's values."""
        return BuildersState(
            self.setup,
            tuple(self.players),
            self.building_deck,
            self.building_next,
            self.building_row,
            self.worker_deck,
            self.worker_next,
            self.worker_row,
            self.apprentices,
            self.pending,
            self.pending_seat,
            self.turn_player,
            self.ap,
            self.sent,
            self.coin_ap,
            self.turn,
            self.end,
            self.over,
            self.cumulative_coins,
            self.show_next_worker,
            self.solo,
            self.automa_workers,
            self.automa_finished,
            self.set_aside,
        )
