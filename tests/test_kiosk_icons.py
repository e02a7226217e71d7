"""Resources are never told by colour alone: each has a shape of its own within its game, and
the colours that players confuse most (wood and tile, stone and metal) stay apart under the
three common colour-vision deficiencies (simulated with colorspacious) and in greyscale.  Icons
and counts stay inside their box, and the check sees one that does not: the fourth requirement
of Bourgeois House and Castle included."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402
from colorspacious import cspace_convert, deltaE  # noqa: E402

from companion.builders.cards import RESOURCES as BUILDERS_RESOURCES  # noqa: E402
from companion.kiosk import icons, theme, ui  # noqa: E402
from companion.pillars.data import RESOURCES as PILLARS_RESOURCES  # noqa: E402

DEFICIENCIES = ("protanomaly", "deuteranomaly", "tritanomaly")
MIN_DELTA_E = 20.0
"""CAM02-UCS colour difference: about 2 is just noticeable; 20 is plainly another colour."""
CONFUSED = [("wood", "tile"), ("stone", "metal")]
GAMES = {
    "pillars": (*PILLARS_RESOURCES, "gold"),
    "builders": tuple(BUILDERS_RESOURCES),
}


def seen(colour: theme.Colour, deficiency: str | None) -> np.ndarray:
    rgb = np.array(colour, dtype=float) / 255
    if deficiency is None:
        return rgb
    cvd = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    return np.clip(cspace_convert(rgb, cvd, "sRGB1"), 0, 1)


def difference(a: str, b: str, deficiency: str | None) -> float:
    ca, cb = theme.RESOURCE[a], theme.RESOURCE[b]
    return float(deltaE(seen(ca, deficiency), seen(cb, deficiency), input_space="sRGB1"))


@pytest.mark.parametrize("a,b", CONFUSED)
@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_confusable_resources_stay_apart(a: str, b: str, deficiency: str | None) -> None:
    assert difference(a, b, deficiency) >= MIN_DELTA_E, (a, b, deficiency)


def test_the_simulation_tells_a_confusion_apart() -> None:
    """The check can fail: red and green, far apart to normal sight, fall together under
    protanomaly and deuteranomaly."""
    red, green = (200, 60, 40), (70, 140, 40)
    theme_resource = dict(theme.RESOURCE)
    try:
        theme.RESOURCE.update({"wood": red, "tile": green})
        assert difference("wood", "tile", None) >= MIN_DELTA_E
        assert difference("wood", "tile", "deuteranomaly") < MIN_DELTA_E
    finally:
        theme.RESOURCE.clear()
        theme.RESOURCE.update(theme_resource)


@pytest.mark.parametrize("a,b", CONFUSED)
def test_in_greyscale_by_lightness_or_shape(a: str, b: str) -> None:
    lighter = theme.contrast(theme.RESOURCE[a], theme.RESOURCE[b]) >= 1.5
    assert lighter or icons.SHAPES[a] != icons.SHAPES[b]
    assert icons.SHAPES[a] != icons.SHAPES[b]  # and, in fact, both


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_resource_of_a_game_has_its_own_shape_and_colour(game: str) -> None:
    names = GAMES[game]
    assert all(n in icons.SHAPES and n in theme.RESOURCE for n in names), names
    assert len({icons.SHAPES[n] for n in names}) == len(names)
    assert len({theme.RESOURCE[n] for n in names}) == len(names)


def test_the_shapes_differ_on_screen() -> None:
    """Drawn in one square, no two shapes cover the same pixels."""
    pygame.init()
    masks = {}
    for name in icons.SHAPES:
        s = pygame.Surface((40, 40))
        s.fill((0, 0, 0))
        icons.resource_icon(s, name, pygame.Rect(0, 0, 40, 40))
        masks[name] = {
            (x, y) for x in range(40) for y in range(40) if s.get_at((x, y))[:3] != (0, 0, 0)
        }
    for game, names in GAMES.items():
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                differ = len(masks[a] ^ masks[b])
                assert differ > 80, (game, a, b, differ)  # of 1600 pixels


def test_an_unknown_resource_is_refused() -> None:
    pygame.init()
    s = pygame.Surface((40, 40))
    with pytest.raises(ValueError, match="'glass'"):
        icons.resource_icon(s, "glass", pygame.Rect(0, 0, 20, 20))
    with pytest.raises(ValueError, match="'blob'"):
        icons.outline("blob", pygame.Rect(0, 0, 20, 20))


def test_counts_wrap_inside_their_box_and_the_check_sees_one_outside() -> None:
    pygame.init()
    # The text floor follows the open display: a window an earlier test left open (on this
    # worker) must not set it for this 800x480 surface.
    pygame.display.quit()
    surface = pygame.Surface((800, 480))
    items = [("stone", 5), ("wood", 3), ("knowledge", 5), ("tile", 3)]
    box = pygame.Rect(100, 100, 90, 200)
    ui.OVERFLOWS.clear()
    used = icons.amounts(surface, items, box, 18)
    assert ui.OVERFLOWS == []
    assert used == icons.amounts_height(items, box.width, 18) > icons.row_height(18)  # wrapped
    # a box too low for the rows they need: every piece outside is recorded
    icons.amounts(surface, items, pygame.Rect(100, 100, 90, 20), 18)
    assert any("cut off by its box" in o for o in ui.OVERFLOWS), ui.OVERFLOWS
    ui.OVERFLOWS.clear()
    # an icon off the screen's edge
    icons.resource_icon(surface, "wood", pygame.Rect(790, 10, 20, 20))
    assert ui.OVERFLOWS and "the screen" in ui.OVERFLOWS[0]
    ui.OVERFLOWS.clear()


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_bourgeois_house_and_castle_show_all_four_requirements(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """The cards of the building row, drawn by the Builders screen with its own code: every
    requirement's icon and count lies inside the card."""
    from companion.builders.actions import Start
    from companion.builders.cards import BUILDING
    from companion.builders.kiosk import BuildersScreen
    from companion.builders.kiosk.panels.rows import RowCard
    from companion.kiosk.words import card_name
    from tests.kiosk_helpers import make_app, tap

    app = make_app(tmp_path, size=size)
    tap(app, "new")
    tap(app, "game builders")
    tap(app, "start")
    screen = app.screen
    assert isinstance(screen, BuildersScreen)
    cards = ["maison-bourgeoise", "chateau-fort", "maison-bourgeoise", "chateau-fort",
             "maison-bourgeoise"]
    assert all(sum(1 for n in BUILDING[c].needs if n) == 4 for c in cards)
    surface = app.surface
    width = size[0] - 12 if app.metrics.portrait else (size[0] - 12) * 13 // 20  # as render
    area = pygame.Rect(6, 80, width, size[1] // 3)
    ui.OVERFLOWS.clear()
    ui.DRAWN = []
    try:
        screen.rows._row(
            surface,
            area,
            "Buildings",
            [RowCard(Start(c), card_name("builders", c), BUILDING[c].needs, "16 coins · 4 VP",
                     False, "16¤ 4VP") for c in cards],
            set(),
        )
        drawn = [d for d in ui.DRAWN if isinstance(d, ui.Drawn)]
    finally:
        ui.DRAWN = None
    assert ui.OVERFLOWS == [], ui.OVERFLOWS
    counts = [d for d in drawn if d in {"2", "3", "5"}]
    assert len(counts) == 5 * 4  # four requirements on each of the five cards
    cells = [b.rect for b in screen.buttons if b.key.startswith("start ")][-5:]
    for d in counts:
        assert any(c.contains(d.rect) for c in cells), (str(d), d.rect)
