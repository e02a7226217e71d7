"""The kiosk's words for The Builders: Middle Ages."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from types import ModuleType
from typing import Any, ClassVar

from companion.builders.actions import Action
from companion.builders.cards import BUILDING, WORKER
from companion.builders.constants import AUTOMA
from companion.builders.state import BuildersState
from companion.engine.ledger import Entry
from companion.engine.summary import PlayerResult, Summary
from companion.kiosk.api import ModuleWords, Table, _

from . import names, refusals_words, sentences
from .names import builders_card_name, builders_rank_name


class BuildersWords(ModuleWords[BuildersState, Action]):
    """Card names (buildings, machines, workers by rank and what they supply), coins, and the
    tie-breaks: VP from buildings, then coins."""

    sentences: ClassVar[ModuleType] = sentences
    refusals: ClassVar[ModuleType] = refusals_words  # tags: docs/builders.md

    money = "coins"

    def option_help(self, name: str, value: Any = None) -> str:
        """The Builders' options explained for a hold on the set-up screen."""
        texts = {
            ("coins", None): _(
                "How the Take coins action pays when a turn uses it more than once."
            ),
            ("coins", "separate"): _(
                "Each take-coins action is paid on its own: 1, 2 or 3 action points give 1, 3 "
                "or 6 coins (the rulebook)."
            ),
            ("coins", "cumulative"): _(
                "The action points a turn spends on coins add up: 1 point and then 1 more give "
                "1 + 2 coins, as 2 points at once; at most 3 points a turn."
            ),
            ("show_next_worker", None): _(
                "Whether the top card of the workers' deck lies face up, as the top card of the "
                "buildings' deck always does."
            ),
            ("show_next_worker", False): _(
                "The next worker stays face down until it is dealt (the rulebook)."
            ),
            ("show_next_worker", True): _(
                "The next worker lies face up, so everyone sees who comes next (a variant)."
            ),
        }
        text = texts.get((name, value))
        return text if text is not None else super().option_help(name, value)

    def tables(self) -> tuple[Table, ...]:
        return names.tables()

    def english_words(self) -> Iterator[str]:
        yield from names.english_words()

    def card_name(self, card_id: str) -> str:
        return builders_card_name(card_id)

    def short_card_name(self, card_id: str) -> str:
        if card_id in WORKER:
            return builders_rank_name(card_id)
        return self.card_name(card_id)

    def source(self, entry: Entry) -> str:
        from .sources import source

        return source(entry)

    def sources(self) -> tuple[str, ...]:
        from .sources import sources

        return sources()

    def player_detail(self, state: BuildersState, player: PlayerResult) -> str:
        """Buildings, machines and coins counted apart."""
        finished = state.players[player.seat].finished
        coins = player.money or 0
        buildings = sum(BUILDING[c].vp for c in finished if not BUILDING[c].is_machine)
        machines = sum(BUILDING[c].vp for c in finished if BUILDING[c].is_machine)
        return _(
            "buildings {b} · machines {m} · coins {c} ({coins}¤)",
            b=buildings,
            m=machines,
            c=coins // 10,
            coins=coins,
        )

    def result(self, summary: Summary) -> str:
        """The solo Automa (a name of the rules, not of a player) in the table's language."""
        if AUTOMA in summary.winners or AUTOMA in summary.scores:
            shown = _("Automa")
            summary = replace(
                summary,
                winners=tuple(shown if w == AUTOMA else w for w in summary.winners),
                scores={shown if k == AUTOMA else k: v for k, v in summary.scores.items()},
            )
        return super().result(summary)

    def tie_break(self, tied: list[PlayerResult], winners: list[str], top: int) -> str:
        """A tie is broken by VP from buildings, then by coins."""
        if len(winners) == 1:
            w = next(p for p in tied if p.name == winners[0])
            best_vp = max(p.details["vp"] for p in tied)
            if sum(1 for p in tied if p.details["vp"] == best_vp) == 1:
                return _(
                    "Tie on {points} points broken by VP from buildings: {name} has {vp}",
                    points=top,
                    name=w.name,
                    vp=w.details["vp"],
                )
            return _(
                "Tie on {points} points and building VP broken by coins: {name} has {coins}",
                points=top,
                name=w.name,
                coins=w.money,
            )
        return _("Shared win: the same points, building VP and coins")


__all__ = ["BuildersWords"]
