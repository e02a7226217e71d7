"""The ``companion`` command (companion.cli.main): ``simulate`` and ``replay``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    """Run the command; its exit code, stdout and stderr.  A crash fails the test here."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def simulate_json(capsys: Capsys, players: int, seed: int, games: int) -> dict[str, Any]:
    code, out, err = run(
        capsys,
        "simulate",
        "pillars",
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--games",
        str(games),
        "--json",
    )
    assert code == 0, err
    assert out.count("\n") == 1, "one JSON object on one line"
    data: dict[str, Any] = json.loads(out)
    return data


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "timing"}


# -- simulate -------------------------------------------------------------------------------


def test_simulate_json_shape(capsys: Capsys) -> None:
    data = simulate_json(capsys, 3, 5, 2)
    assert set(data) == {"game", "players", "seed", "games", "timing"}
    assert (data["game"], data["players"], data["seed"]) == ("pillars", 3, 5)
    assert len(data["games"]) == 2
    for g in data["games"]:
        assert {"scores", "winners", "actions"} <= set(g)
        assert list(g["scores"]) == ["Red", "Blue", "Yellow"]
        assert all(isinstance(v, int) and v >= 0 for v in g["scores"].values())
        best = max(g["scores"].values())
        assert g["winners"] and all(g["scores"][w] == best for w in g["winners"])
        assert isinstance(g["actions"], int) and g["actions"] > 100
    timing = data["timing"]
    assert set(timing) == {"seconds", "games_per_second", "actions_per_second"}
    assert timing["seconds"] > 0
    assert timing["games_per_second"] > 0 and timing["actions_per_second"] > 0


def test_simulate_is_deterministic_per_seed(capsys: Capsys) -> None:
    first = simulate_json(capsys, 2, 11, 3)
    again = simulate_json(capsys, 2, 11, 3)
    other = simulate_json(capsys, 2, 12, 3)
    assert without_timing(first) == without_timing(again)
    assert first["games"] != other["games"]
    # Game k of a run is seeded seed + k: a run from seed 12 repeats games 2 and 3 of seed 11.
    assert [g["scores"] for g in first["games"][1:]] == [g["scores"] for g in other["games"][:2]]


def test_simulate_text_mode(capsys: Capsys) -> None:
    code, out, err = run(
        capsys, "simulate", "pillars", "--players", "4", "--seed", "3", "--games", "3"
    )
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 4, out
    data = simulate_json(capsys, 4, 3, 3)
    for k, (line, g) in enumerate(zip(lines, data["games"], strict=False)):
        assert line.startswith(f"game {k + 1} (seed {3 + k}): ")
        for name, pts in g["scores"].items():
            assert f"{name} {pts}" in line
        assert f"{g['actions']} actions" in line
        assert "won by " + " and ".join(g["winners"]) in line
    total = sum(g["actions"] for g in data["games"])
    assert lines[-1].startswith(f"3 games, {total} actions in ")


def simulate_json_with_records(capsys: Capsys, folder: Path) -> dict[str, Any]:
    code, out, err = run(
        capsys,
        "simulate",
        "pillars",
        "--players",
        "2",
        "--seed",
        "40",
        "--games",
        "3",
        "--json",
        "--records",
        str(folder),
    )
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_simulate_records_replay_to_the_same_scores(capsys: Capsys, tmp_path: Path) -> None:
    data = simulate_json_with_records(capsys, tmp_path)
    files = sorted(tmp_path.iterdir())
    assert len(files) == 3
    by_seed = {g.get("seed", data["seed"] + k): g for k, g in enumerate(data["games"])}
    for path in files:
        record = json.loads(path.read_text(encoding="utf-8"))
        seed = record["seed"]
        assert record["actions"] and len(record["actions"]) == by_seed[seed]["actions"]
        code, out, err = run(capsys, "replay", str(path), "--json")
        assert code == 0, err
        summary = json.loads(out)
        assert summary["over"] is True
        assert summary["scores"] == by_seed[seed]["scores"]
        assert summary["winners"] == by_seed[seed]["winners"]
        assert summary["actions"] == by_seed[seed]["actions"]


def test_bad_player_count(capsys: Capsys) -> None:
    code, out, err = run(capsys, "simulate", "pillars", "--players", "5")
    assert code == 2
    assert out == ""
    assert "2 to 4 players" in err and "5" in err


def test_bad_game_count(capsys: Capsys) -> None:
    code, out, err = run(capsys, "simulate", "pillars", "--games", "0")
    assert code == 2
    assert "--games" in err


def test_records_folder_that_is_a_file(capsys: Capsys, tmp_path: Path) -> None:
    """--records naming an existing file: a message and a non-zero exit, not a traceback."""
    target = tmp_path / "taken"
    target.write_text("not a folder", encoding="utf-8")
    code, out, err = run(capsys, "simulate", "pillars", "--players", "2", "--records", str(target))
    assert code != 0
    assert str(target) in err


# -- replay ---------------------------------------------------------------------------------


@pytest.fixture
def record_file(capsys: Capsys, tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    code, _, err = run(
        capsys, "simulate", "pillars", "--players", "3", "--seed", "9", "--records", str(folder)
    )
    assert code == 0, err
    (path,) = folder.iterdir()
    return path


def edited(record_file: Path, tmp_path: Path, change: Any) -> Path:
    data = json.loads(record_file.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def refused(capsys: Capsys, path: Path) -> str:
    """Replay ``path`` expecting a refusal: exit 1, nothing on stdout; the message."""
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1, (code, out, err)
    assert out == ""
    assert err.startswith(f"companion replay: {path}: "), err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    return err


def test_replay_text_mode(capsys: Capsys, record_file: Path) -> None:
    code, out, err = run(capsys, "replay", str(record_file))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Game over"
    assert lines[-1].startswith("Won by ")
    assert len(lines) == 1 + 3 + 1  # the head, one line per player, the winners


def test_replay_of_an_unfinished_record(capsys: Capsys, record_file: Path, tmp_path: Path) -> None:
    path = edited(record_file, tmp_path, lambda d: d.update(actions=d["actions"][:30]))
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["over"] is False
    assert summary["winners"] == []
    assert summary["actions"] == 30


def test_replay_malformed_action(capsys: Capsys, record_file: Path, tmp_path: Path) -> None:
    def fly(d: dict[str, Any]) -> None:
        d["actions"][4] = "fly away"

    err = refused(capsys, edited(record_file, tmp_path, fly))
    assert "action 5 ('fly away')" in err
    assert "unknown verb 'fly'" in err


def test_replay_illegal_action(capsys: Capsys, record_file: Path, tmp_path: Path) -> None:
    def roll(d: dict[str, Any]) -> None:
        d["actions"][0] = "roll 3"

    err = refused(capsys, edited(record_file, tmp_path, roll))
    assert "action 1 ('roll 3')" in err
    assert "cannot happen now" in err


def test_replay_illegal_action_later(capsys: Capsys, record_file: Path, tmp_path: Path) -> None:
    """A legal-looking decision in the wrong place: the position is the one edited."""
    data = json.loads(record_file.read_text(encoding="utf-8"))
    k = next(i for i, a in enumerate(data["actions"]) if a.startswith("take "))

    def redraw(d: dict[str, Any]) -> None:
        d["actions"][k] = "redraw"

    err = refused(capsys, edited(record_file, tmp_path, redraw))
    assert f"action {k + 1} ('redraw')" in err


def test_replay_not_json(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text("Ann 12, Bob 9 {", encoding="utf-8")
    assert "not valid JSON" in refused(capsys, path)


def test_replay_json_that_is_not_a_record(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    path.write_text('{"Ann": 12, "Bob": 9}', encoding="utf-8")
    assert "not a game record" in refused(capsys, path)
    path.write_text("[1, 2, 3]", encoding="utf-8")
    assert "a record is a JSON object" in refused(capsys, path)


def test_replay_unknown_game(capsys: Capsys, record_file: Path, tmp_path: Path) -> None:
    path = edited(record_file, tmp_path, lambda d: d["setup"].update(game="chess"))
    err = refused(capsys, path)
    assert "unknown game 'chess'" in err and "pillars" in err


def test_replay_seven_players(capsys: Capsys, record_file: Path, tmp_path: Path) -> None:
    colours = ["red", "blue", "yellow", "green"]
    players = [{"name": f"P{i}", "colour": colours[i % 4]} for i in range(7)]
    path = edited(record_file, tmp_path, lambda d: d["setup"].update(players=players))
    err = refused(capsys, path)
    assert "2 to 4 players, not 7" in err


def test_replay_missing_file(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    assert "cannot read" in refused(capsys, path)


def test_replay_invalid_utf8(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"format": "companion-record", "name": "Z\xf6e"}')
    assert "cannot read" in refused(capsys, path)
