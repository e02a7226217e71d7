"""The table's buttons are declared once (``companion.events.Role``): the panel's pin map, its
long press, the keyboard stand-ins, the README's table of keys and the screens all follow it,
and a role that is none is refused by name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.events import PANEL_ROLES, ROLES, Press, Role
from companion.kiosk.inputs import KEYMAP
from companion.panel.buttons import LONG_PRESS, ButtonTimer
from companion.panel.pins import BUTTONS, DEFAULT_PINS, load_pins

README = Path(__file__).resolve().parents[1] / "README.md"


def test_a_role_is_its_string() -> None:
    # pin maps, config files and journals written with the strings still read
    assert Role("draw") is Role.DRAW and Role.UNDO == "undo" and f"{Role.PASS}" == "pass"
    assert Press("confirm") == Press(Role.CONFIRM)
    assert Press("confirm").role is Role.CONFIRM
    assert {Role.HELP: 1}["help"] == 1
    assert [str(r) for r in ROLES] == [r.value for r in Role]


@pytest.mark.parametrize("bad", ["jump", "DRAW", "", 3, None])
def test_a_press_of_no_role_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match=re.escape(f"unknown button role {bad!r}")) as err:
        Press(bad)  # type: ignore[arg-type]
    assert "draw, roll, confirm, pass, undo, back, help, language" in str(err.value)


def test_role_of_names_where_the_role_was_written() -> None:
    with pytest.raises(ValueError, match=r"^config\.toml, line 3: unknown button role 'jmp'"):
        Role.of("jmp", "config.toml, line 3")
    assert Role.of(Role.BACK) is Role.BACK and Role.of("back") is Role.BACK


def test_the_panel_takes_the_roles_declared_on_it() -> None:
    assert BUTTONS == PANEL_ROLES == tuple(r for r in Role if r.panel)
    assert set(DEFAULT_PINS["buttons"]) == set(BUTTONS)
    pins = load_pins(None)
    assert list(pins.buttons) == list(BUTTONS)
    assert all(type(role) is Role for role in pins.buttons)
    assert LONG_PRESS == (Role.UNDO,)
    timer = ButtonTimer(BUTTONS)
    assert {name for name, key in timer.keys.items() if key.long} == {"undo"}


def test_the_keys_are_the_roles_keys() -> None:
    import pygame

    # the stand-ins the README has always shown, now read from Role
    assert KEYMAP[pygame.K_SPACE] is Role.DRAW and KEYMAP[pygame.K_r] is Role.ROLL
    assert KEYMAP[pygame.K_RETURN] is KEYMAP[pygame.K_KP_ENTER] is Role.CONFIRM
    assert KEYMAP[pygame.K_ESCAPE] is KEYMAP[pygame.K_BACKSPACE] is Role.BACK
    assert KEYMAP[pygame.K_F1] is Role.HELP and KEYMAP[pygame.K_l] is Role.LANGUAGE
    assert len(KEYMAP) == sum(len(role.keys) for role in Role)  # no key serves two roles
    assert set(KEYMAP.values()) == set(Role)  # every role has a key (the panel's too)


_ALIASES = {"return": "enter", "escape": "esc"}


def _readme_keys() -> dict[str, set[str]]:
    """The README's table of keys: the keys for each button, lower case."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| key | button | what it does |"):]
    rows: dict[str, set[str]] = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        keys, button = (cell.strip() for cell in line.strip("|").split("|")[:2])
        rows[button.lower()] = {k.strip().lower() for k in keys.split("/")}
    return rows


def test_the_readme_shows_the_keys_of_every_role() -> None:
    import pygame

    rows = _readme_keys()
    assert set(rows) == {r.value for r in Role}
    for role in Role:
        names = {pygame.key.name(getattr(pygame, k)) for k in role.keys}
        assert {_ALIASES.get(n, n) for n in names} == rows[role.value], role
