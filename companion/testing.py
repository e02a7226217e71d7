"""The conformance kit: check that a game keeps the companion's game contract.

For a game's authors, in the project or in a distribution of their own (``docs/architecture.md``,
"Add a game").  Two ways to run it, the same checks:

- a function: ``check_game("mygame")`` (the name of an installed game, or its ``GameSpec``)
  returns a :class:`Report` or raises :class:`ConformanceError` naming the game, the promise it
  broke, and the table size, seed and action where it broke it;
- a test: ``test_conformance = conformance_tests("mygame")`` in a pytest module of the game's
  own gives one test per table size and seed.  pytest is imported only then: ``check_game``
  needs nothing but the companion.

``python -m companion.testing mygame`` runs ``check_game`` from a shell.

The promises (:data:`PROMISES`) are what the companion relies on: the game loads through its
entry point, for this companion's contract version; its spec is sound; at every state of random
playthroughs at every table size the spec allows, its methods return what the contract says
(lists, states, a ``Period``, a ``Summary``...), a non-final state has legal actions or chance
outcomes summing to 1, every one of them applies (without changing the state it was given) and
its notation reads back, what is not legal is refused with ``IllegalAction``, the invariants
hold, the game ends with winners among the players, the record replays to the same state, and
undo stops at the last draw, roll or reveal; and what it declares for the companion (its
strengths and signals) is what the bots can use.
"""

from __future__ import annotations

import copy
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from companion.engine import (
    CHANCE,
    TERMINAL,
    Game,
    GameSpec,
    IllegalAction,
    Playthrough,
    Record,
    RulesError,
    UndoBlocked,
    contract,
    registry,
    replay,
)
from companion.engine.simulate import sample

PROMISES = {
    "loads": "the game loads through its companion.games entry point",
    "contract": "the game is written for this companion's contract version",
    "spec": "the spec is sound (name, players, options, cards)",
    "returns": "each method returns what the contract says",
    "set-up": "a set-up for each table size the spec allows starts a game",
    "turns": "a non-final state has legal actions, or chance outcomes summing to 1",
    "apply": "every legal action and outcome applies, and leaves the state it was given as it was",
    "notation": "every action's notation reads back as that action",
    "refusals": "an action that is not legal is refused with IllegalAction and a reason",
    "invariants": "the game's invariants hold at every state",
    "end": "the game ends, with winners among its players and no action left",
    "replay": "the record of the game replays to the same state",
    "undo": "undo takes back decisions and stops at the last draw, roll or reveal",
    "declarations": "its strengths and signals are what the companion's bots can use",
}
"""Every promise the kit checks, by the short name its errors give."""


class ConformanceError(AssertionError):
    """A game broke one of the promises of the game contract.  ``game`` is its name,
    ``promise`` the short name of the promise (:data:`PROMISES`), ``detail`` what went wrong,
    ``where`` the table size, seed and action count it went wrong at ("" when not in play)."""

    def __init__(self, game: str, promise: str, detail: str, where: str = "") -> None:
        self.game = game
        self.promise = promise
        self.detail = detail
        self.where = where
        at = f" ({where})" if where else ""
        super().__init__(f"the game {game!r} breaks the promise {promise!r} "
                         f"({PROMISES.get(promise, promise)}){at}: {detail}")


@dataclass
class Report:
    """What :func:`check_game` checked of a game that kept every promise."""

    game: str
    playthroughs: list[tuple[int, int, int]] = field(default_factory=list)
    """(players, seed, actions) of each random playthrough checked."""
    notes: list[str] = field(default_factory=list)
    """What was not checked, and why (a kiosk without pygame, a spec not registered)."""

    @property
    def actions(self) -> int:
        return sum(n for _p, _s, n in self.playthroughs)

    def __str__(self) -> str:
        sizes = sorted({p for p, _s, _n in self.playthroughs})
        lines = [f"{self.game}: every promise kept: {len(self.playthroughs)} random "
                 f"playthroughs at {', '.join(map(str, sizes))} players, {self.actions} actions"]
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


class _Checker:
    """The promise under check, so that whatever the game raises names it."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.where = ""

    def fail(self, promise: str, detail: str) -> ConformanceError:
        return ConformanceError(self.game, promise, detail, self.where)

    @contextmanager
    def promise(self, name: str) -> Iterator[None]:
        """Anything the game raises (or an assertion of the kit) inside becomes a
        ConformanceError of promise ``name`` (a ``ContractError`` one of ``returns``)."""
        try:
            yield
        except ConformanceError:
            raise
        except contract.ContractError as exc:
            raise self.fail("returns", f"its {exc.method} {exc.problem}") from exc
        except AssertionError as exc:
            raise self.fail(name, str(exc) or "a check failed") from exc
        except Exception as exc:  # noqa: BLE001 - the game's own fault, named
            raise self.fail(name, f"{type(exc).__name__}: {exc}") from exc

    def require(self, ok: object, promise: str, detail: str) -> None:
        if not ok:
            raise self.fail(promise, detail)


def _spec(game: GameSpec | str) -> GameSpec:
    """The spec of ``game`` (a name: the installed game's), or ConformanceError when it cannot
    be loaded (``registry.problems()`` says why)."""
    if isinstance(game, GameSpec):
        return game
    name = str(game)
    broken = registry.problems().get(name)
    if broken:
        promise = "contract" if "game contract" in broken else "loads"
        raise ConformanceError(name, promise, broken)
    try:
        return registry.spec(name)
    except RulesError as exc:
        raise ConformanceError(name, "loads", f"{exc} (is its distribution installed, with "
                               f"an entry point in the {registry.ENTRY_POINT_GROUP!r} "
                               "group?)") from None


def check_spec(spec: GameSpec) -> list[str]:
    """The spec's own promises (loads, contract, spec); the notes of what was not checked."""
    check = _Checker(spec.name)
    notes: list[str] = []
    if not isinstance(spec, GameSpec):
        raise ConformanceError(str(spec), "loads", f"{spec!r} is not a GameSpec")
    refused = registry.contract_problem(spec)
    check.require(not refused, "contract", refused)
    broken = registry.problems().get(spec.name)
    check.require(not broken, "loads", str(broken))
    with check.promise("loads"):
        known = registry.specs()
    if not any(s is spec or s == spec for s in known):
        notes.append(f"{spec.name} is not registered (not installed with an entry point in "
                     f"the {registry.ENTRY_POINT_GROUP!r} group, nor registered): checked as "
                     "given")
    name_ok = spec.name and spec.name.replace("-", "").isalnum() and spec.name.islower()
    check.require(name_ok, "spec", f"the name {spec.name!r} is not lower-case letters and digits")
    with check.promise("spec"):
        game = spec.game()
    check.require(isinstance(game, Game), "spec",
                  f"rules() made {type(game).__name__}, not a companion.engine.Game")
    check.require(game.name == spec.name, "spec",
                  f"the rules are called {game.name!r}, the spec {spec.name!r}")
    check.require(1 <= spec.min_players <= spec.max_players <= 4, "spec",
                  f"players {spec.min_players} to {spec.max_players}: the companion seats 1 "
                  "to 4")
    for key, option in spec.options.items():
        check.require(option.default in option.choices, "spec",
                      f"option {key!r}: its default {option.default!r} is not one of its "
                      f"choices {option.choices!r}")
    ids = [c.id for c in spec.cards]
    check.require(len(set(ids)) == len(ids), "spec", "a card id is listed twice")
    if spec.words is not None:
        try:
            from companion.kiosk.words import GameWords
        except ImportError as exc:  # the kiosk's packages (pygame) are not installed
            notes.append(f"its words were not checked: the kiosk cannot be imported ({exc})")
        else:
            with check.promise("spec"):
                made = spec.words()
            check.require(isinstance(made, type) and issubclass(made, GameWords), "spec",
                          f"the words loader gave {made!r}, not a GameWords subclass")
    return notes


def check_playthrough(game: Game[Any, Any], players: int, seed: int) -> Record:
    """Play one random game of ``players`` with every check on; its record.  Raises
    ConformanceError naming the promise broken, with the seed and the action count."""
    check = _Checker(game.name)
    check.where = f"{players} players, seed {seed}, at the set-up"
    rng = random.Random(seed)
    with check.promise("set-up"):
        setup = game.setup(players, start_player=seed % players)
        pt: Playthrough[Any, Any] = Playthrough(game, setup, seed)
    seen: set[Any] = set()  # actions seen anywhere in the game: candidates for illegal ones
    states = [pt.state]
    while True:
        state = pt.state
        check.where = f"{players} players, seed {seed}, after {len(pt.actions)} actions"
        with check.promise("invariants"):
            problems = game.invariants(state)
        check.require(isinstance(problems, list), "returns",
                      f"its invariants() returned {type(problems).__name__}, not a list")
        check.require(not problems, "invariants", "; ".join(map(str, problems)))
        with check.promise("returns"):
            who = contract.player(game, state, game.current_player(state))
            legal = contract.actions(game, game.legal_actions(state))
            outcomes = contract.outcomes(game, game.chance_outcomes(state))
            others = contract.out_of_turn(game, game.out_of_turn(state))
            contract.setup(game, game.setup_of(state))
            contract.scores(game, game.scores(state))
            contract.period(game, pt.period)
            if who == TERMINAL or len(pt.actions) % 16 == 0:  # (a summary costs)
                contract.summary(game, game.summary(state))
        check.require(who in (CHANCE, TERMINAL) or who < players, "returns",
                      f"current_player() returned seat {who} of {players} players")
        if who == TERMINAL:
            with check.promise("end"):
                over = game.is_over(state)
                winners = contract.winners(game, game.winners(state))
                scores = game.scores(state)
            check.require(over, "end", "current_player() is TERMINAL but is_over() is False")
            check.require(legal == [], "end", f"the finished game lists legal actions {legal}")
            check.require(winners, "end", "the finished game has no winner")
            check.require(set(winners) <= set(scores), "end",
                          f"the winners {winners} are not among the scores' players "
                          f"{sorted(scores)}")
            break
        if who == CHANCE:
            check.require(outcomes, "turns", "a chance node without outcomes")
            total = sum(p for _, p in outcomes)
            check.require(abs(total - 1) < 1e-9, "turns",
                          f"the chance outcomes' probabilities sum to {total}, not 1")
            check.require(legal == [], "turns", "a chance node also lists legal actions")
            options = [o for o, p in outcomes if p > 0]
            chosen = sample(outcomes, rng)
        else:
            check.require(legal, "turns", f"no legal action for seat {who}, and the game is "
                          "not over")
            check.require(outcomes == [], "turns", "a decision also lists chance outcomes")
            options = legal
            chosen = rng.choice(options)
        check.require(len(set(options)) == len(options), "turns", "an action is listed twice")
        snapshot = copy.deepcopy(state) if rng.random() < 0.05 else None
        for action in [*options, *(a for acts in others.values() for a in acts)]:
            with check.promise("notation"):
                text = contract.text(game, "format_action()", game.format_action(action))
                back = game.parse_action(text)
            check.require(back == action, "notation",
                          f"{text!r} reads back as {back!r}, not as {action!r}")
            with check.promise("apply"):
                contract.state(game, "apply()", game.apply(state, action), state)
        for action in list(seen - set(options))[:20]:
            try:
                game.apply(state, action)
            except IllegalAction as exc:
                check.require(str(exc), "refusals", f"the refusal of {action} says nothing")
            except Exception as exc:  # noqa: BLE001 - the game's own fault, named
                raise check.fail("refusals", f"{action} raised {type(exc).__name__}: {exc}, "
                                 "not IllegalAction") from exc
            else:
                if action not in [a for acts in others.values() for a in acts]:
                    raise check.fail("refusals", f"{action} was applied but is not legal")
        if snapshot is not None:
            check.require(state == snapshot, "apply", "apply() changed the state it was given")
        seen.update(options)
        with check.promise("apply"):
            pt.play(chosen)
        states.append(pt.state)
        check.require(len(pt.actions) < 100_000, "end", "no end after 100000 actions")
    check.where = f"{players} players, seed {seed}, at the end"
    record = pt.record()
    with check.promise("replay"):
        again = Record.loads(record.dumps())
        check.require(again == record, "replay", "the record does not read back the same")
        check.require(replay(game, again) == pt.state, "replay",
                      "the record replays to another state")
        check.require(Playthrough.from_record(game, again).state == pt.state, "replay",
                      "the record replays to another state through a Playthrough")
    undone = 0
    while pt.can_undo():
        with check.promise("undo"):
            pt.undo()
        undone += 1
        check.require(pt.state == states[-1 - undone], "undo",
                      f"undo {undone} did not give back the state before the decision")
    if pt.actions:
        try:
            pt.undo()
        except UndoBlocked:
            pass
        else:
            raise check.fail("undo", "undo went past a draw, a roll or a reveal")
    return record


def check_declarations(spec: GameSpec) -> None:
    """Its strengths name a strength (and a table size it allows) and a bot the arena knows;
    its signals are those its simulation path measures, and the rules behind the same
    interface measure them the same (``GameSpec.signals``, or the summary's)."""
    from companion.bots import STRENGTHS, make_bot
    from companion.engine.signals import declared_signals
    from companion.engine.sim import RulesSim, simulator

    check = _Checker(spec.name)
    for key, bot in spec.strengths.items():
        strength, _, players = key.partition("/")
        check.require(strength in STRENGTHS, "declarations",
                      f"strengths: {key!r} names no strength ({', '.join(STRENGTHS)})")
        check.require(not players or (players.isdigit()
                                      and spec.min_players <= int(players) <= spec.max_players),
                      "declarations", f"strengths: {key!r} names no table size of the game")
        with check.promise("declarations"):
            make_bot(bot)
    game = spec.game()
    with check.promise("declarations"):
        declared = declared_signals(game)
        sim = simulator(game).start(game.setup(spec.max_players))
    rng = random.Random(3)
    for k in range(300):
        check.where = f"{spec.max_players} players, seed 3, after {k} actions"
        with check.promise("declarations"):
            who = sim.current_player()
            if who == TERMINAL:
                break
            if k % 20 == 0:
                rows = sim.signals()
                assert declared.names == sim.SIGNALS, \
                    f"the signals {declared.names} are not the simulator's {sim.SIGNALS}"
                assert len(rows) == sim.seat_count(), "not one row of signals per seat"
                assert all(len(row) == len(declared.names) for row in rows), \
                    "a row of signals has not one value per signal"
                assert RulesSim(game, sim.freeze()).signals() == rows, \
                    "the rules measure other signals than the simulation path"
            sim.apply(sample(sim.chance_outcomes(), rng) if who == CHANCE
                      else rng.choice(sim.legal_actions()))


def cases(spec: GameSpec, seeds: int = 4) -> list[tuple[int, int]]:
    """(players, seed) of the random playthroughs checked: each table size the spec allows,
    from 2 (a solo game, where a game has one, is its own), ``seeds`` seeds each."""
    sizes = range(max(2, spec.min_players), spec.max_players + 1) or [spec.min_players]
    return [(players, k * 7919 + players) for players in sizes for k in range(seeds)]


def check_game(game: GameSpec | str, seeds: int = 4,
               players: Sequence[int] | None = None) -> Report:
    """Check every promise of the game contract on ``game`` (an installed game's name, or its
    spec): its spec, ``seeds`` random playthroughs at each table size (``players``: only
    those), and its declarations.  The report, or ConformanceError naming the game and the
    promise broken."""
    spec = _spec(game)
    report = Report(spec.name, notes=check_spec(spec))
    rules = spec.game()
    for n, seed in cases(spec, seeds):
        if players is not None and n not in players:
            continue
        record = check_playthrough(rules, n, seed)
        report.playthroughs.append((n, seed, len(record.actions)))
    check_declarations(spec)
    return report


def conformance_tests(game: GameSpec | str, seeds: int = 4) -> Callable[..., None]:
    """A pytest test of ``game`` (an installed game's name, or its spec), one per table size
    and seed: ``test_conformance = conformance_tests("mygame")`` in a test module.  A game
    that does not load fails every case with the reason."""
    import pytest

    try:
        spec: GameSpec | None = _spec(game)
        why = ""
    except ConformanceError as exc:
        spec, why = None, str(exc)
    params = cases(spec, seeds) if spec is not None else [(0, 0)]
    ids = [f"{p}p-seed{s}" for p, s in params] if spec is not None else ["not-loaded"]

    @pytest.mark.parametrize(("players", "seed"), params, ids=ids)
    def test_conformance(players: int, seed: int) -> None:
        if spec is None:
            pytest.fail(why, pytrace=False)
        first = (players, seed) == params[0]
        if first:
            check_spec(spec)
        assert check_playthrough(spec.game(), players, seed).actions
        if first:
            check_declarations(spec)

    return test_conformance


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.testing NAME [--seeds N]``: check an installed game; 0 when it
    keeps every promise, 1 (and what it broke, on stderr) when not."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m companion.testing",
                                     description="Check a game against the game contract.")
    parser.add_argument("game", help="an installed game's name (companion.games entry point)")
    parser.add_argument("--seeds", type=int, default=4, help="playthroughs per table size")
    args = parser.parse_args(argv)
    try:
        print(check_game(args.game, seeds=max(1, args.seeds)))
    except ConformanceError as exc:
        print(f"companion.testing: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = [
    "PROMISES",
    "ConformanceError",
    "Report",
    "cases",
    "check_declarations",
    "check_game",
    "check_playthrough",
    "check_spec",
    "conformance_tests",
    "main",
]

if __name__ == "__main__":
    sys.exit(main())
