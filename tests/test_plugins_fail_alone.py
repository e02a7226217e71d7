"""A game that cannot be loaded fails alone and loudly: an entry point whose import fails, one
that is not a GameSpec, and a game written for another version of the contract are each left
out by name with the reason (``registry.problems``), said by ``companion doctor``, by every
command on stderr and by the kiosk's set-up; every other game works."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine import registry
from companion.engine.errors import SetupError


class FakeEntryPoint:
    """An entry point of ``companion.games`` that loads ``value`` (or raises it)."""

    def __init__(self, name: str, found: Any) -> None:
        self.name = name
        self.value = f"{name}_plugin.spec:SPEC"
        self.dist = None
        self.found = found

    def load(self) -> Any:
        if isinstance(self.found, Exception):
            raise self.found
        return self.found


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The installed games plus those a test adds, loaded afresh (the registry as it was,
    put back after)."""
    real = list(registry.metadata.entry_points(group=registry.ENTRY_POINT_GROUP))
    extra: list[Any] = []
    saved = dict(registry._specs), dict(registry._problems), registry._loaded
    monkeypatch.setattr(registry.metadata, "entry_points",
                        lambda group: [*real, *extra] if group == registry.ENTRY_POINT_GROUP
                        else [])
    registry._specs.clear()
    registry._problems.clear()
    registry._loaded = False
    yield extra
    registry._specs.clear()
    registry._specs.update(saved[0])
    registry._problems.clear()
    registry._problems.update(saved[1])
    registry._loaded = saved[2]


def _old_contract() -> registry.GameSpec:
    from companion.pillars.spec import SPEC

    return dataclasses.replace(SPEC, name="oldgame", contract=registry.CONTRACT - 1)


def test_each_broken_game_is_left_out_by_name_and_the_others_work(broken: list[Any]) -> None:
    broken += [FakeEntryPoint("crashes", ImportError("No module named 'crashes_plugin'")),
               FakeEntryPoint("notaspec", {"name": "notaspec"}),
               FakeEntryPoint("oldgame", _old_contract())]
    assert {"pillars", "builders"} <= set(registry.names())
    found = registry.problems()
    assert set(found) == {"crashes", "notaspec", "oldgame"}
    assert "could not be imported: ImportError" in found["crashes"]
    assert "is not a GameSpec (it is a dict)" in found["notaspec"]
    assert f"this companion speaks version {registry.CONTRACT}" in found["oldgame"]
    with pytest.raises(SetupError, match="'crashes' could not be loaded: .*ImportError"):
        registry.spec("crashes")
    registry.get_game("pillars")  # the others work


def test_a_game_of_another_contract_is_refused_when_registered() -> None:
    with pytest.raises(SetupError, match="written for version"):
        registry.register(_old_contract())
    assert "oldgame" not in registry.names()


def test_doctor_the_commands_and_the_set_up_say_which_game_was_left_out(
        broken: list[Any], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from companion import cli, doctor

    broken.append(FakeEntryPoint("crashes", RuntimeError("boom")))
    lines = doctor.check_games()
    assert lines[0].status == doctor.OK and "pillars" in lines[0].found
    assert [(c.what, c.status) for c in lines[1:]] == [("game crashes", doctor.MISSING)]
    assert "boom" in lines[1].found
    assert cli.main(["simulate", "pillars", "--games", "1", "--players", "2"]) == 0
    err = capsys.readouterr().err
    assert "the game 'crashes' could not be loaded and is left out" in err and "boom" in err
    from tests.kiosk_helpers import make_app, tap

    app = make_app(tmp_path)
    tap(app, "new")
    assert app.toast_text is not None and "crashes" in app.toast_text
    app.journal.close()


def test_an_import_error_of_a_plugin_does_not_stop_doctor(broken: list[Any],
                                                          tmp_path: Path) -> None:
    from companion import doctor

    broken.append(FakeEntryPoint("crashes", ModuleNotFoundError("crashes_plugin")))
    checks = doctor.checks(tmp_path / "config.toml", display=False, dev_dir=tmp_path,
                           cards=tmp_path / "cards", model_path=tmp_path / "model")
    assert any(c.what == "game crashes" and c.status == doctor.MISSING for c in checks)
    # (not an ERROR: the kiosk starts without it, so doctor's status does not fail for it)
    assert all(c.status != doctor.ERROR for c in checks if c.what.startswith("game"))


def test_a_game_that_fails_in_its_own_code_is_named_not_the_companion(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Dice Race (installed from outside the project) raising in its own rules: the command
    names the game, not the companion, as the one to report it to."""
    from dicerace import rules

    from companion import cli

    found: dict[str, Any] = {}  # a fault in the game's own file (as its code would raise it)
    exec(compile("def broken(self, state):\n    raise TypeError('scores() lost its players')\n",
                 rules.__file__, "exec"), found)
    monkeypatch.setattr(rules.DiceRace, "scores", found["broken"])
    assert cli.main(["simulate", "dicerace", "--games", "1"]) == 70
    err = capsys.readouterr().err
    assert "the game 'dicerace' failed (report it to that game's authors)" in err, err
