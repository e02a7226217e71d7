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
