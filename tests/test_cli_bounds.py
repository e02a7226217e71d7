"""Bounded work (issue 51, item 5): a count over its stated maximum is a usage error that names
the maximum (status 2, argparse's way), before any game is played."""

from __future__ import annotations

import pytest

from companion import cli
from companion.cli import build_parser, main

Capsys = pytest.CaptureFixture[str]

HUGE = [
    (["simulate", "pillars", "--games"], "1e30", "MAX_GAMES"),
    (["simulate", "pillars", "--games"], "1" + "0" * 30, "MAX_GAMES"),
    (["simulate", "builders", "--json", "--games"], "100001", "MAX_GAMES"),
    (["simulate", "pillars", "--games"], "9" * 5000, "MAX_GAMES"),
    (["arena", "pillars", "--games"], "1e20", "MAX_GAMES"),
    (["arena", "pillars", "--games"], "1" + "0" * 20, "MAX_GAMES"),
    (["arena", "builders", "--games"], "100001", "MAX_GAMES"),
    (["games", "--limit"], "1000000000", "MAX_PAGE"),
    (["games", "--page"], "1" + "0" * 12, "MAX_PAGE"),
]


@pytest.mark.parametrize(("argv", "count", "name"), HUGE)
def test_a_count_over_its_maximum_is_refused_naming_it(
    capsys: Capsys, argv: list[str], count: str, name: str
) -> None:
    maximum = getattr(cli, name)
    assert not count.isdigit() or len(count) > 9 or int(count) > maximum  # (the case is one)
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args([*argv, count])  # the parser: before anything runs
    assert stop.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"companion {argv[0]}: error: argument {argv[-1]}: "), err
    assert f"{maximum}" in last and len(last) < 200


def test_the_maximum_itself_and_ordinary_counts_are_taken() -> None:
    MAX_GAMES, MAX_PAGE = cli.MAX_GAMES, cli.MAX_PAGE  # noqa: N806
    parser = build_parser()
    assert parser.parse_args(["simulate", "pillars", "--games", str(MAX_GAMES)]).games == MAX_GAMES
    assert parser.parse_args(["arena", "pillars", "--games", "007"]).games == 7
    assert parser.parse_args(["arena", "pillars"]).games == 100
    assert parser.parse_args(["games", "--limit", str(MAX_PAGE)]).limit == MAX_PAGE


def test_fewer_than_one_game_is_still_the_commands_own_refusal(capsys: Capsys) -> None:
    assert main(["simulate", "pillars", "--games", "0"]) == 2
    assert "--games must be 1 or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["arena", "pillars", "--games", "-5"])
    assert stop.value.code == 2
    assert "'-5' is not a count" in capsys.readouterr().err


def test_the_crash_tests_kills_are_bounded(capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.journal import crashtest

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the crash test ran")

    monkeypatch.setattr(crashtest, "run", never)
    for kills in ("1" + "0" * 17, "0", "-1"):
        with pytest.raises(SystemExit) as stop:
            crashtest.main(["--kills", kills])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert "argument --kills" in err and str(crashtest.MAX_KILLS) in err
