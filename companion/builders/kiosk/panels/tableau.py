"""A player's whole tableau in words, over the board until Close: points by source and coins,
finished buildings and machines, sites with what they have against what they need, idle
workers with how many of each."""

from __future__ import annotations

import pygame

from companion.builders.cards import BUILDING
from companion.kiosk.api import _, card_name, draw_tableau, n_, seat_label

from .base import Panel


class TableauPanel(Panel):
    """The tableau of the seat the screen shows (``screen.tableau``)."""

    def rows(self, seat: int) -> list[tuple[str, str]]:
        state = self.state
        name = self.game.name
        p = state.players[seat]
        vp = self.game.vp_breakdown(state, seat)
        done = [c for c in p.finished if not BUILDING[c].is_machine]
        machines = [c for c in p.finished if BUILDING[c].is_machine]
        sites = [
            _("{card} {have}/{need}", card=card_name(name, s.card), have=sum(s.supplied),
              need=sum(s.needs))
            for s in self.game.sites(state, seat)
        ]
        idle = [
            card_name(name, w.card) + (f" ×{w.count}" if w.count > 1 else "")
            for w in self.game.idle_workers(state, seat)
        ]
        none = _("none")
        return [
            (_("Points"), n_("{vp} VP (buildings {b}, machines {m}), {n} coin",
                             "{vp} VP (buildings {b}, machines {m}), {n} coins", p.coins,
                             vp=p.vp, b=vp["buildings"], m=vp["machines"])),
            (_("Buildings"), _(", ").join(card_name(name, c) for c in done) or none),
            (_("Machines"), _(", ").join(card_name(name, c) for c in machines) or none),
            (_("Sites"), _(", ").join(sites) or none),
            (_("Idle workers"), _(", ").join(idle) or none),
        ]

    def render(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        seat = self.screen.tableau
        if seat is None:
            return
        draw_tableau(self.screen, surface, area,
                     seat_label(self.state.setup.players[seat],
                                seat in self.screen.session.companions),
                     self.rows(seat), self.screen.close_tableau)


__all__ = ["TableauPanel"]
