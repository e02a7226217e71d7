"""Game records, Playthrough undo, and set-up validation (companion.engine)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.engine import (
    IllegalAction,
    MalformedAction,
    PlayerSpec,
    Playthrough,
    Record,
    RecordError,
    Setup,
    SetupError,
    UndoBlocked,
    replay,
)
from companion.pillars import PillarsGame, PillarsState
from companion.pillars.actions import Action
from tests.pillars_helpers import ROUND1_REVEALS

GAME = PillarsGame()

REVEALS = ROUND1_REVEALS  # every one a chance outcome; the first decision comes after


def good_json() -> dict[str, Any]:
    """A valid record's JSON form (the draft has begun: two decisions after the reveals)."""
    return {
        "format": "companion-record",
        "version": 1,
        "setup": {
            "game": "pillars",
            "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}],
            "start_player": 0,
            "options": {},
        },
        "seed": 7,
        "actions": [*REVEALS, "take stone4", "pass"],
    }


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def load_error(tmp_path: Path, data: Any) -> str:
    with pytest.raises(RecordError) as exc:
        Record.load(write(tmp_path, data))
    assert exc.value.position is None
    return str(exc.value)


def changed(**setup: Any) -> dict[str, Any]:
    data = good_json()
    data["setup"].update(setup)
    return data


# -- text form ------------------------------------------------------------------------------


def test_dumps_loads_round_trip() -> None:
    setup = GAME.setup(
        [PlayerSpec("Zoë", "green"), PlayerSpec('Ann "A" O\'Neil', "red")], start_player=1
    )
    record = Record(setup, (*REVEALS, "take stone4"), 12345, {"table": "kitchen", "n": [1, 2]})
    text = record.dumps()
    assert Record.loads(text) == record
    assert json.loads(text)["actions"][-1] == "take stone4"
    assert text.count("\n") == len(record.actions) + 2, "one action per line"
    again = Record.loads(text)
    assert again.setup.players[0] == PlayerSpec("Zoë", "green")
    assert again.setup.start_player == 1
    assert again.seed == 12345 and again.meta == {"table": "kitchen", "n": [1, 2]}


def test_round_trip_without_seed_or_actions(tmp_path: Path) -> None:
    record = Record(GAME.setup(3))
    path = tmp_path / "empty.json"
    record.save(path)
    loaded = Record.load(path)
    assert loaded == record
    assert loaded.seed is None and loaded.actions == ()
    assert "seed" not in json.loads(path.read_text(encoding="utf-8"))


def test_save_load_round_trip(tmp_path: Path) -> None:
    loaded = Record.load(write(tmp_path, good_json()))
    path = tmp_path / "again.json"
    loaded.save(path)
    assert Record.load(path) == loaded
    assert Record.load(path).to_json() == good_json()


# -- what Record.load refuses ---------------------------------------------------------------


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read .*nowhere.json"):
        Record.load(tmp_path / "nowhere.json")


def test_load_invalid_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(good_json()).encode().replace(b"Ann", b"Zo\xf6"))
    with pytest.raises(RecordError, match="cannot read .*utf-8"):
        Record.load(path)


def test_load_not_json(tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    path.write_text(json.dumps(good_json())[:-10], encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.load(path)


def test_load_a_list(tmp_path: Path) -> None:
    assert "a record is a JSON object" in load_error(tmp_path, [good_json()])


def test_load_wrong_format(tmp_path: Path) -> None:
    data = good_json() | {"format": "pgn"}
    assert "not a game record (format is 'pgn')" in load_error(tmp_path, data)
    data = good_json()
    del data["format"]
    assert "not a game record" in load_error(tmp_path, data)


def test_load_newer_version(tmp_path: Path) -> None:
    message = load_error(tmp_path, good_json() | {"version": 2})
    assert "record version 2 is not supported" in message and "reads 1" in message


def test_load_version_true(tmp_path: Path) -> None:
    """JSON ``true`` is not version 1 (it equals 1 in Python, so it must be ruled out)."""
    assert "version" in load_error(tmp_path, good_json() | {"version": True})


def test_load_duplicate_player_names(tmp_path: Path) -> None:
    players = [{"name": "Ann", "colour": "red"}, {"name": "Ann", "colour": "blue"}]
    message = load_error(tmp_path, changed(players=players))
    assert "names" in message and "Ann" in message


def test_load_unknown_colour(tmp_path: Path) -> None:
    players = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "purple"}]
    message = load_error(tmp_path, changed(players=players))
    assert "colour" in message and "purple" in message


def test_load_non_int_start_player(tmp_path: Path) -> None:
    for start in ("0", 1.0, None, True):
        message = load_error(tmp_path, changed(start_player=start))
        assert "start_player" in message, start


def test_load_player_without_a_name(tmp_path: Path) -> None:
    players = [{"name": "Ann", "colour": "red"}, {"colour": "blue"}]
    assert "player 2 needs a name and a colour" in load_error(tmp_path, changed(players=players))


def test_load_actions_not_strings(tmp_path: Path) -> None:
    for actions in (["pass", 3], "pass", [["pass"]], {"1": "pass"}):
        message = load_error(tmp_path, good_json() | {"actions": actions})
        assert "actions must be a list of strings" in message, actions


def test_load_bool_seed(tmp_path: Path) -> None:
    for seed in (True, "7", 7.5):
        assert "seed must be an integer" in load_error(tmp_path, good_json() | {"seed": seed})


def test_load_meta_not_an_object(tmp_path: Path) -> None:
    assert "meta must be a JSON object" in load_error(tmp_path, good_json() | {"meta": [1]})


# -- replay ---------------------------------------------------------------------------------


def test_replay_names_the_position_of_a_bad_action() -> None:
    record = Record.from_json(good_json())
    bad = Record(record.setup, (*record.actions[:3], "fly away", *record.actions[4:]))
    with pytest.raises(RecordError) as exc:
        replay(GAME, bad)
    assert (exc.value.position, exc.value.action) == (4, "fly away")
    assert str(exc.value).startswith("action 4 ('fly away'): ")
    illegal = Record(record.setup, (*record.actions[:11], "take wood3"))
    with pytest.raises(RecordError) as exc:
        replay(GAME, illegal)
    assert exc.value.position == 12
    assert "not in the pool" in str(exc.value)


def test_replay_refuses_a_bad_setup() -> None:
    twins = Record(Setup("pillars", (PlayerSpec("Ann", "red"), PlayerSpec("Ann", "blue"))))
    with pytest.raises(RecordError, match="bad set-up: player names must differ"):
        replay(GAME, twins)
    builders = Record(Setup("builders", GAME.setup(2).players))
    with pytest.raises(RecordError, match="for 'builders', not 'pillars'"):
        replay(GAME, builders)


# -- Playthrough and undo -------------------------------------------------------------------


def at_draft() -> Playthrough[PillarsState, Action]:
    pt: Playthrough[PillarsState, Action] = Playthrough(GAME, GAME.setup(2), seed=7)
    for text in REVEALS:
        pt.play(text)
    assert pt.state.step == "draft"
    return pt


def test_undo_a_decision() -> None:
    pt = at_draft()
    before = pt.state
    pt.play("take stone4")
    middle = pt.state
    pt.play("take wood4")
    assert pt.can_undo()
    assert pt.undo() == Action("take", ("wood4",))
    assert pt.state == middle
    assert pt.undo() == Action("take", ("stone4",))
    assert pt.state == before
    assert len(pt.actions) == len(REVEALS)
    pt.play("pass")  # play goes on from the restored state
    assert pt.state != before


def test_undo_stops_at_a_chance_outcome() -> None:
    pt = at_draft()
    before = pt.state
    assert not pt.can_undo()
    with pytest.raises(UndoBlocked) as exc:
        pt.undo()
    message = str(exc.value)
    assert "resource sand2" in message
    assert "revealed information" in message and "re-roll" in message
    assert pt.state == before and len(pt.actions) == len(REVEALS)


def test_undo_after_decisions_back_to_the_barrier() -> None:
    pt = at_draft()
    pt.play("take stone4")
    pt.undo()
    with pytest.raises(UndoBlocked, match="revealed information"):
        pt.undo()


def test_undo_at_the_start() -> None:
    pt: Playthrough[PillarsState, Action] = Playthrough(GAME, GAME.setup(4))
    assert not pt.can_undo()
    with pytest.raises(UndoBlocked, match="nothing to undo"):
        pt.undo()


def test_play_refused_changes_nothing() -> None:
    pt = at_draft()
    before = pt.state
    with pytest.raises(IllegalAction):
        pt.play("take wood3")  # not in the pool
    with pytest.raises(MalformedAction):
        pt.play("fly away")
    assert pt.state == before and len(pt.actions) == len(REVEALS)


def test_record_and_from_record_reproduce_the_state() -> None:
    pt = at_draft()
    pt.play("take stone4")
    pt.play("take wood4")
    pt.undo()
    pt.play("pass")
    record = pt.record(table="kitchen")
    assert record.actions == (*REVEALS, "take stone4", "pass")
    assert record.seed == 7 and record.meta == {"table": "kitchen"}
    again = Playthrough.from_record(GAME, Record.loads(record.dumps()))
    assert again.state == pt.state
    assert again.actions == pt.actions
    assert replay(GAME, record) == pt.state
    # Undo works on the replayed playthrough just as on the original.
    assert again.undo() == Action("pass")
    with pytest.raises(UndoBlocked):
        Playthrough.from_record(GAME, Record(record.setup, REVEALS)).undo()


def test_from_record_names_the_bad_action() -> None:
    record = Record(GAME.setup(2), (*REVEALS, "take stone4", "take stone4"))
    with pytest.raises(RecordError) as exc:
        Playthrough.from_record(GAME, record)
    assert exc.value.position == 13
    assert "take stone4" in str(exc.value)


# -- Setup validation -----------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 5])
def test_setup_player_counts(count: int) -> None:
    with pytest.raises(SetupError) as exc:
        GAME.setup(count)
    assert f"2 to 4 players, not {count}" in str(exc.value)
    names = [f"P{i}" for i in range(count)]
    with pytest.raises(SetupError, match=f"2 to 4 players, not {count}"):
        GAME.setup(names)


def test_setup_duplicate_names() -> None:
    with pytest.raises(SetupError, match="player names must differ: Ann, Bob, Ann"):
        GAME.setup(["Ann", "Bob", "Ann"])
    with pytest.raises(SetupError, match="every player needs a name"):
        GAME.setup(["Ann", "  "])


def test_setup_colours() -> None:
    with pytest.raises(SetupError, match="unknown colour 'purple'"):
        GAME.setup([PlayerSpec("Ann", "red"), PlayerSpec("Bob", "purple")])
    with pytest.raises(SetupError, match="colours must differ"):
        GAME.setup([PlayerSpec("Ann", "red"), PlayerSpec("Bob", "red")])


def test_setup_unknown_option() -> None:
    with pytest.raises(SetupError) as exc:
        GAME.setup(2, options={"turbo": True})
    assert "unknown option 'turbo'" in str(exc.value)


def test_setup_start_player() -> None:
    with pytest.raises(SetupError, match="start player 3 is not a seat of 3 players"):
        GAME.setup(3, start_player=3)
    setup = GAME.setup(["Ann", "Bob"], start_player=1)
    assert setup.names == ("Ann", "Bob")
    assert [p.colour for p in setup.players] == ["red", "blue"]
    assert Setup.from_json(setup.to_json()) == setup
