"""Every action the journal accepts is stored in a notation that reads back as the same action.

A hand-built action may carry look-alikes of its arguments (``True`` or ``2.0`` for a count, a
card id in capitals or with spaces, a ``str`` subclass): either the engine refuses it, or the
journal stores its one canonical notation, which parses back to an equal action that leads to
the same state.  Otherwise the game could never be resumed (issue 24, item 1).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import CHANCE, TERMINAL, Game, Playthrough, RulesError, get_game
from companion.engine.simulate import sample
from companion.journal import Journal
from companion.pillars.actions import Action as PillarsAction
from tests.sweeps import examples, sweep_params


class Name(str):
    """A ``str`` subclass: equal to the plain id, and hashed alike."""


def _variants(value: Any) -> list[Any]:
    """Look-alikes of one argument of an action: equal (or nearly) values of other types."""
    if isinstance(value, bool):
        return [value, int(value), float(value)]
    if isinstance(value, int):
        out: list[Any] = [value, float(value), value + 0.5, -value, str(value)]
        if value in (0, 1):
            out.append(bool(value))
        return out
    if isinstance(value, str):
        return [value, value.upper(), f" {value}", f"{value} ", Name(value), value + "x", ""]
    return [value]


def _rebuild(action: Any, choose: Any) -> Any:
    """``action`` with each argument replaced by ``choose(look-alikes)``."""
    if isinstance(action, PillarsAction):
        return PillarsAction(action.verb, tuple(choose(_variants(a)) for a in action.args))
    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        changes = {
            f.name: choose(_variants(getattr(action, f.name))) for f in dataclasses.fields(action)
        }
        return type(action)(**changes)
    return action


@functools.cache
def _positions(name: str) -> tuple[tuple[Any, Any], ...]:
    """(state, candidate action) pairs from random games: every decision and chance outcome
    offered along the way, so every action kind of the game is among them."""
    game = get_game(name)
    pairs: list[tuple[Any, Any]] = []
    for seed in range(3):
        rng = random.Random(seed)
        players = 2 + seed % 3
        setup = game.setup(players, start_player=seed % players)
        pt: Playthrough[Any, Any] = Playthrough(game, setup, seed)
        while game.current_player(pt.state) != TERMINAL:
            state = pt.state
            if game.current_player(state) == CHANCE:
                outcomes = game.chance_outcomes(state)
                options = [o for o, p in outcomes if p > 0]
                chosen = sample(outcomes, rng)
            else:
                options = game.legal_actions(state)
                chosen = rng.choice(options)
            pairs += [(state, a) for a in rng.sample(options, min(len(options), 4))]
            if name == "pillars" and any(_kind(a) == "craft" for a in options):
                # several uses at once: the notation's ``convert``, never listed as legal
                pairs.append((state, game.best_convert_action(state)))  # type: ignore[attr-defined]
            pt.play(chosen)
    return tuple(pairs)


@functools.cache
def _drawn_positions(name: str) -> st.SearchStrategy[tuple[Any, Any]]:
    """One of ``_positions``: one strategy per game (each new ``sampled_from`` of thousands of
    positions hashes them all again to label itself)."""
    return st.sampled_from(_positions(name))


def _kinds(name: str) -> set[str]:
    return {_kind(a) for _s, a in _positions(name)}


def _kind(action: Any) -> str:
    return action.verb if isinstance(action, PillarsAction) else type(action).__name__


def test_the_positions_cover_every_action_kind() -> None:
    assert _kinds("pillars") >= {
        "take", "pass", "place", "draw", "roll", "buy", "sell", "craft", "convert", "done",
        "privilege", "craftsman", "resource", "event", "return",
    }
    assert _kinds("builders") >= {
        "Start", "Recruit", "Send", "TakeCoins", "BuyAction", "EndTurn", "Reveal",
        "DealApprentice",
    }


def _check(game: Game[Any, Any], state: Any, action: Any) -> None:
    """The property: refused, or stored as a text that reads back as an equal action leading
    to the same state."""
    try:
        after = game.apply(state, action)
    except RulesError:
        return
    text = game.notation(action)  # what JournaledGame.play stores
    back = game.parse_action(text)
    assert back == action, (text, action)
    assert game.format_action(back) == text
    assert game.apply(state, back) == after


@pytest.mark.parametrize("sweep", sweep_params())
@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_every_accepted_action_reads_back_from_its_stored_text(name: str, sweep: str) -> None:
    game = get_game(name)

    @settings(examples(sweep, 300), suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def check(data: Any) -> None:
        state, action = data.draw(_drawn_positions(name))
        variant = _rebuild(action, lambda options: data.draw(st.sampled_from(options)))
        _check(game, state, variant)

    check()


def test_the_audits_counts_are_stored_as_whole_numbers(tmp_path: Path) -> None:
    """``sell stone True``, ``buy wood 2.0``, ``return wood 2.0``: each is refused or stored
    as the whole number it stands for, and the game resumes."""
    game = get_game("pillars")
    kinds = {"buy", "sell", "return", "convert"}
    found: dict[str, tuple[Any, Any]] = {}
    for state, action in _positions("pillars"):
        if action.verb in kinds and action.verb not in found:
            found[action.verb] = (state, action)
    assert set(found) == kinds
    for state, action in found.values():
        for look_alike in (float, lambda n: n == 1 or n):  # 2.0, and True for a count of 1
            args = tuple(look_alike(a) if isinstance(a, int) else a for a in action.args)
            _check(game, state, PillarsAction(action.verb, args))


def _play_look_alikes(name: str, path: Path, seed: int) -> tuple[list[str], Any]:
    """A game played through the journal where every action is handed in as a look-alike
    (a float or bool count, a str subclass); the texts and the final state."""
    game = get_game(name)
    rng = random.Random(seed)
    setup = game.setup(2, start_player=0)
    with Journal.open(path) as journal:
        jg = journal.start(setup, seed=seed)
        for _ in range(160):
            state = jg.state
            if game.current_player(state) == TERMINAL:
                break
            if game.current_player(state) == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                action = rng.choice(game.legal_actions(state))

            variant = _rebuild(action, lambda options: rng.choice(
                [o for o in options if _equal_variant(o, options[0])]
            ))
            try:
                jg.play(variant)
            except RulesError:  # refused (nothing written): the plain action then
                jg.play(action)
        final = jg.state
        texts = [e.text for e in journal.entries(jg.id)]
        game_id = jg.id
    with Journal.open(path) as journal:
        resumed = journal.resume(game_id)
        assert resumed.state == final
    return texts, final


def _equal_variant(candidate: Any, original: Any) -> bool:
    """A look-alike that compares equal to the original argument."""
    try:
        return bool(candidate == original) and hash(candidate) == hash(original)
    except TypeError:
        return False


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_look_alike_actions_journal_and_resume(name: str, tmp_path: Path) -> None:
    game = get_game(name)
    texts, _final = _play_look_alikes(name, tmp_path / "j.sqlite3", seed=7)
    assert texts
    for text in texts:
        assert game.format_action(game.parse_action(text)) == text
