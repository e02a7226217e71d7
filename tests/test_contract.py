"""What a game returns is checked where it enters the core (``companion.engine.contract``), and
the conformance kit (``companion.testing``) names the game and the promise it breaks.

The broken games are the toy game Sticks (tests/toygame.py) with one method changed, each
registered for one test: what a game from outside the project could get wrong.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine import (
    ContractError,
    Playthrough,
    Record,
    contract,
    get_game,
    registry,
    replay,
)
from companion.testing import ConformanceError, Report, check_game, check_playthrough
from tests.toygame import SPEC, SticksGame

ROOT = Path(__file__).resolve().parents[1]


def broken(name: str, **methods: Callable[..., Any]) -> registry.GameSpec:
    """Sticks called ``name`` with ``methods`` in place of its own."""
    rules = type(f"Broken{name.capitalize()}", (SticksGame,), {"name": name, **methods})
    return dataclasses.replace(SPEC, name=name, title=name.capitalize(), rules=rules)


@pytest.fixture
def register() -> Iterator[Callable[[registry.GameSpec], registry.GameSpec]]:
    names: list[str] = []

    def add(spec: registry.GameSpec) -> registry.GameSpec:
        names.append(spec.name)
        return registry.register(spec)

    yield add
    for name in names:
        registry.unregister(name)


def forgets_return(self: Any, state: Any, action: Any) -> Any:
    SticksGame.apply(self, state, action)  # the new state is not returned


def tuple_of_actions(self: Any, state: Any) -> Any:
    return tuple(SticksGame.legal_actions(self, state))


def plain_summary(self: Any, state: Any) -> Any:
    return {"sticks": state.sticks}


def number_period(self: Any, state: Any) -> Any:
    return 3


def list_of_scores(self: Any, state: Any) -> Any:
    return [0 for _p in state.setup.players]


def seat_as_float(self: Any, state: Any) -> Any:
    return float(SticksGame.current_player(self, state))  # equal to the seat, not an int


def test_apply_without_a_state_is_named_where_the_table_commits_and_replays() -> None:
    spec = broken("forgetful", apply=forgets_return)
    game = spec.game()
    pt = Playthrough(game, game.setup(2))
    reveal = game.chance_outcomes(pt.state)[0][0]
    with pytest.raises(ContractError) as caught:
        pt.play(reveal)
    assert caught.value.game == "forgetful" and caught.value.method == "apply()"
    assert str(caught.value) == ("the game 'forgetful' broke the companion's game contract: "
                                 "its apply() returned None, not a state (SticksState)")
    assert pt.actions == ()  # nothing taken
    with pytest.raises(ContractError, match="'forgetful'.*apply\\(\\) returned None"):
        replay(game, Record(game.setup(2), (str(reveal),)))


def test_a_seat_that_is_not_an_int_is_named_by_the_playthrough() -> None:
    game = broken("floaty", current_player=seat_as_float).game()
    pt = Playthrough(game, game.setup(2))
    with pytest.raises(ContractError, match="'floaty'.*current_player\\(\\) returned -1.0 "
                       "\\(a float\\), not a seat number"):
        pt.play(game.chance_outcomes(pt.state)[0][0])


def test_the_journal_refuses_scores_that_are_not_a_dict_and_writes_nothing(
    tmp_path: Path, register: Callable[[registry.GameSpec], registry.GameSpec]
) -> None:
    from companion.journal import Journal

    spec = register(broken("listy", scores=list_of_scores))
    with Journal.open(tmp_path / "j.sqlite3") as journal, pytest.raises(
            ContractError, match="'listy'.*scores\\(\\) returned \\[0, 0\\]"):
        journal.start(spec.game().setup(2))


def test_a_period_or_a_summary_of_the_wrong_kind_is_named_by_the_log_and_the_end(
    register: Callable[[registry.GameSpec], registry.GameSpec],
) -> None:
    from companion.kiosk.gamelog import log_text

    game = register(broken("vague", period_of=number_period)).game()
    setup = game.setup(2)
    with pytest.raises(ContractError, match="'vague'.*period_of\\(\\) returned an int, not a "
                       "Period"):
        log_text(game, Record(setup, ("reveal plain", "take 1")))
    other = register(broken("plain", summary=plain_summary)).game()
    with pytest.raises(ContractError, match="'plain'.*summary\\(\\) returned a dict, not a "
                       "Summary"):
        contract.checked_summary(other, other.initial_state(other.setup(2)))


def test_the_command_line_names_the_game_that_broke_the_contract(
    tmp_path: Path, register: Callable[[registry.GameSpec], registry.GameSpec],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before the check, ``replay --json`` of such a game ended in an AttributeError of the
    companion's own code: "please report it", to the wrong people."""
    from companion.cli import main

    game = register(broken("plain", summary=plain_summary)).game()
    path = tmp_path / "plain.json"
    Record(game.setup(2), ("reveal plain", "take 1")).save(path)
    assert main(["replay", "--json", str(path)]) == 70
    err = capsys.readouterr().err
    assert "the game 'plain' broke the companion's game contract: its summary()" in err
    assert "the game 'plain' failed (report it to that game's authors)" in err
    assert "please report it" not in err


@pytest.mark.parametrize(("methods", "promise", "said"), [
    ({"apply": forgets_return}, "returns", "its apply() returned None, not a state"),
    ({"legal_actions": tuple_of_actions}, "returns",
     "its legal_actions() returned a tuple, not a list of actions"),
    ({"summary": plain_summary}, "returns", "its summary() returned a dict, not a Summary"),
    ({"period_of": number_period}, "returns", "its period_of() returned an int"),
    ({"scores": list_of_scores}, "returns", "its scores() returned [0, 0]"),
    ({"invariants": lambda self, state: ["a stick is missing"]}, "invariants",
     "a stick is missing"),
    ({"parse_action": lambda self, text: SticksGame.parse_action(self, "take 1")}, "notation",
     "reads back as"),
])
def test_the_kit_names_the_game_and_the_promise_it_breaks(
    methods: dict[str, Callable[..., Any]], promise: str, said: str,
) -> None:
    spec = broken("broken", **methods)
    with pytest.raises(ConformanceError) as caught:
        check_game(spec, seeds=1, players=[2])
    exc = caught.value
    assert exc.game == "broken" and exc.promise == promise, str(exc)
    assert said in exc.detail and "2 players, seed" in exc.where
    assert str(exc).startswith(f"the game 'broken' breaks the promise {promise!r}")


def test_the_kit_names_an_apply_that_takes_what_is_not_legal() -> None:
    def lenient(self: Any, state: Any, action: Any) -> Any:
        try:
            return SticksGame.apply(self, state, action)
        except Exception:  # noqa: BLE001 - the bug: anything goes
            return state

    with pytest.raises(ConformanceError) as caught:
        check_playthrough(broken("lenient", apply=lenient).game(), 2, 5)
    assert caught.value.promise == "refusals" and "is not legal" in caught.value.detail


def test_the_kit_refuses_a_game_of_another_contract_and_one_that_did_not_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old = dataclasses.replace(SPEC, name="old", contract=0)
    with pytest.raises(ConformanceError) as caught:
        check_game(old, seeds=1)
    assert caught.value.promise == "contract"
    assert "version 0 of the companion's game contract" in caught.value.detail
    monkeypatch.setitem(registry._problems, "gone", "gone.spec:SPEC (from gone) could not be "
                        "imported: ModuleNotFoundError: No module named 'gone_helpers'")
    with pytest.raises(ConformanceError) as caught:
        check_game("gone")
    assert caught.value.promise == "loads" and "gone_helpers" in str(caught.value)
    with pytest.raises(ConformanceError, match="'nosuchgame'.*is its distribution installed"):
        check_game("nosuchgame")


def test_the_kit_passes_a_sound_game_given_by_its_spec_with_a_note() -> None:
    report = check_game(broken("fresh"), seeds=1)
    assert isinstance(report, Report) and [p for p, _s, _n in report.playthroughs] == [2, 3]
    assert report.actions > 0 and "not registered" in report.notes[0]
    assert str(report).startswith("fresh: every promise kept: 2 random playthroughs at 2, 3")
    with pytest.raises(ConformanceError, match="'renamed'.*the rules are called 'sticks', the "
                       "spec 'renamed'"):
        check_game(dataclasses.replace(SPEC, name="renamed"), seeds=1)


def test_check_game_needs_no_pytest_and_runs_from_a_shell() -> None:
    code = ("import sys; from companion.testing import check_game; "
            "print(check_game('dicerace', seeds=1)); assert 'pytest' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dicerace: every promise kept")
    shell = subprocess.run([sys.executable, "-m", "companion.testing", "nosuchgame"], cwd=ROOT,
                           capture_output=True, text=True, check=False)
    assert shell.returncode == 1 and "'nosuchgame' breaks the promise 'loads'" in shell.stderr


def test_the_games_of_the_project_return_what_the_contract_says() -> None:
    """The checks pass on the real games (the kit's runs cover every state; here, a replayed
    game's end through each check the core makes)."""
    for name in registry.names():
        game = get_game(name)
        setup = game.setup(2)
        state = game.initial_state(setup)
        contract.summary(game, game.summary(state))
        contract.period(game, game.period_of(state))
        contract.scores(game, game.scores(state))
        contract.outcomes(game, game.chance_outcomes(state))
        contract.actions(game, game.legal_actions(state))


def test_the_pytest_helper_has_a_case_per_table_size_and_seed_and_fails_an_unloaded_game(
) -> None:
    from companion.testing import cases, conformance_tests

    test = conformance_tests(broken("fresh"), seeds=2)
    [mark] = test.pytestmark  # type: ignore[attr-defined]
    assert mark.args[1] == cases(broken("fresh"), 2) and len(mark.args[1]) == 4
    assert mark.kwargs["ids"][0] == "2p-seed2"
    test(3, 3)  # a case runs the kit (here: the game keeps every promise)
    bad = conformance_tests(broken("careless", apply=forgets_return), seeds=1)
    with pytest.raises(ConformanceError, match="'careless' breaks the promise 'returns'"):
        bad(2, 2)  # the first case: the spec, a playthrough, then the declarations
    gone = conformance_tests("nosuchgame")
    [mark] = gone.pytestmark  # type: ignore[attr-defined]
    assert mark.args[1] == [(0, 0)] and mark.kwargs["ids"] == ["not-loaded"]
    with pytest.raises(pytest.fail.Exception, match="'nosuchgame' breaks the promise 'loads'"):
        gone(0, 0)
