"""The strength table of ``docs/bots.md`` and the games it is made of (``bench/bots-table.jsonl``,
kept in the repository): the table in the docs is the table those games make, every line with
all its games, and the log keeps exactly the table's games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bots_helpers import bench_bots


def _rows(text: str) -> list[str]:
    """The table's rows (one a pairing) in Markdown."""
    return [line for line in text.splitlines() if line.startswith(("| pillars", "| builders"))]


def test_the_table_in_the_docs_is_the_table_the_kept_games_make() -> None:
    bench = bench_bots()
    plan = bench.table_pairings(1.0, bench.own_games())
    lines = bench.run(plan, 1, 1, quiet=True, log=str(bench.TABLE_LOG), play=False)
    # every pairing has all its games in the log (a strength changed without its lines played
    # again would show here: its new bot's games are not in the log)
    missing = [
        f"{line.game} {line.players}p {line.first}/{line.second}: {line.games} of {games}"
        for line, (*_, games) in zip(lines, plan, strict=True)
        if line.games != games
    ]
    assert not missing, missing
    doc = bench.DOCS.read_text(encoding="utf-8")
    table = doc.split(bench.BEGIN, 1)[1].split(bench.END, 1)[0]
    assert _rows(table) == _rows(bench.markdown(lines, "", 0.0))
    # and nothing else: the log holds the table's games only
    held = bench.read_log(bench.TABLE_LOG)
    assert set(held) == {tuple(job) for job in bench.table_jobs(plan, 1)}


def test_keep_only_leaves_the_given_games_in_their_order(tmp_path: Path) -> None:
    bench = bench_bots()
    log = tmp_path / "log.jsonl"
    games = [
        ["pillars", 2, "search@500", "heuristic", 3, 1.0, False, [0.01234567]],
        ["pillars", 2, "search@500", "heuristic", 1, 0.5, False, [0.02]],
        ["pillars", 2, "search@900", "heuristic", 1, 0.0, True, []],  # a bot no longer played
        ["pillars", 2, "search@500", "heuristic", 2, 0.0, False, [0.03, 0.04]],
    ]
    log.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    jobs = [("pillars", 2, "search@500", "heuristic", k) for k in (1, 2, 3, 4)]
    assert bench.keep_only(log, jobs) == 1
    kept = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [g[4] for g in kept] == [1, 2, 3]  # the jobs' order; game 4 was never played
    assert kept[2][7] == [0.0123]  # times to the tenth of a millisecond
    assert all(g[3] == "heuristic" and g[2] == "search@500" for g in kept)


@pytest.mark.parametrize("text", ["not json\n", "[1, 2]\n", "3\n"])
def test_a_log_line_that_is_no_game_is_named_and_the_log_is_left_alone(
    tmp_path: Path, text: str
) -> None:
    bench = bench_bots()
    log = tmp_path / "log.jsonl"
    good = json.dumps(["pillars", 2, "heuristic", "random", 1, 1.0, False, []]) + "\n"
    log.write_text(good + text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"log\.jsonl, line 2: not a game of the arena"):
        bench.keep_only(log, [("pillars", 2, "heuristic", "random", 1)])
    assert log.read_text(encoding="utf-8") == good + text


def test_a_game_keeps_each_seats_points_and_how_many_others_first_outscored(
    tmp_path: Path,
) -> None:
    bench = bench_bots()
    job = ("builders", 4, "heuristic", "random", 2)
    r = bench.play_one(job)
    # the final points of every seat, as the rules score the finished game
    assert len(r.points) == 4 and all(isinstance(p, int) for p in r.points)
    me = 2 % 4
    # FIRST won this game (seat 2), so its points are the most (tie-breaks aside)
    assert r.share > 0 and r.points[me] == max(r.points)
    log = tmp_path / "log.jsonl"
    old = ["builders", 4, "heuristic", "random", 1, 0.0, False, [0.1]]  # before points
    log.write_text(json.dumps(old) + "\n" + bench._log_line(job, r) + "\n", encoding="utf-8")
    held = bench.read_log(log)
    assert held[job].points == r.points and held[job].share == r.share
    assert held[tuple(old[:5])].points == [] and held[tuple(old[:5])].outscored(1) is None


@pytest.mark.parametrize(
    ("points", "me", "beaten"),
    [
        ([30, 20, 10, 40], 0, 2 / 3),
        ([30, 30, 10, 40], 1, (0.5 + 1) / 3),  # a tie counts half
        ([5, 9], 1, 1.0),
        ([5, 9, 9], 0, 0.0),
    ],
)
def test_outscored_is_the_share_of_the_other_seats_passed(
    points: list[int], me: int, beaten: float
) -> None:
    r = bench_bots().GameResult(0.0, False, [], points)
    assert r.outscored(me) == pytest.approx(beaten)


def test_a_log_line_with_too_many_fields_is_no_game(tmp_path: Path) -> None:
    bench = bench_bots()
    log = tmp_path / "log.jsonl"
    row = ["pillars", 2, "heuristic", "random", 1, 1.0, False, [], [3, 2], "extra"]
    log.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 1: not a game of the arena .*8 or 9 fields"):
        bench.read_log(log)
