"""Table mode: the four corner markers give the table's coordinates, markers fall into zones,
and every difference with the engine's state is listed in plain words.  The overhead frames
are drawn here: markers pasted where a perspective map of the table puts them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.engine import CHANCE, get_game
from companion.engine.registry import spec
from companion.engine.simulate import sample
from companion.kiosk import i18n
from companion.kiosk import words as W
from companion.kiosk.screens.table_check import difference_text
from companion.vision import table as T
from companion.vision.detect import Detector, Marker
from companion.vision.markers import CORNER_MARKERS, markers_of
from companion.vision.synth import marker_image

# where the camera sees the corners of the board (a mild perspective)
CORNERS_PX = np.array([[360, 250], [930, 262], [960, 470], [330, 462]], np.float32)
TABLE_TO_PX = cv2.getPerspectiveTransform(
    np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32), CORNERS_PX)


def overhead(cards: dict[int, tuple[float, float]], side: int = 30) -> np.ndarray:
    """A 1280x720 frame with the corner markers (40 mm stickers) and each card's marker (25
    mm, ``side`` pixels) at its table point."""
    rng = np.random.default_rng(0)
    frame = np.clip(rng.normal(120, 12, (720, 1280)), 0, 255).astype(np.uint8)

    def paste(marker: int, centre: tuple[float, float]) -> None:
        x, y = (int(round(c)) for c in centre)
        size = round(side * 40 / 25) if marker in CORNER_MARKERS else side
        pad = size // 4
        img = cv2.copyMakeBorder(marker_image(marker, size), pad, pad, pad, pad,
                                 cv2.BORDER_CONSTANT, value=255)
        h = img.shape[0] // 2
        frame[y - h : y - h + img.shape[0], x - h : x - h + img.shape[1]] = img

    for marker, px in zip(CORNER_MARKERS, CORNERS_PX, strict=True):
        paste(marker, (float(px[0]), float(px[1])))
    for marker, uv in cards.items():
        pt = cv2.perspectiveTransform(np.array([[uv]], np.float32), TABLE_TO_PX)[0, 0]
        paste(marker, (float(pt[0]), float(pt[1])))
    return frame


def spread(zone: T.Zone, n: int, k: int) -> tuple[float, float]:
    """The k-th of n points along the middle of a zone."""
    u0, v0, u1, v1 = zone.rect
    return u0 + (u1 - u0) * (k + 1) / (n + 1), (v0 + v1) / 2


def lay_out(game: str, zones: tuple[T.Zone, ...], where: dict[str, list[str]]
            ) -> dict[int, tuple[float, float]]:
    """Markers for the cards of each zone, placed inside it (each copy its own marker)."""
    used: dict[str, int] = {}
    out = {}
    for z in zones:
        cards = where.get(z.id, [])
        for k, card in enumerate(cards):
            copy = used.get(card, 0)
            used[card] = copy + 1
            out[markers_of(game, card)[copy]] = spread(z, len(cards), k)
    return out


def played(name: str, seed: int, decisions: int) -> Any:
    game = get_game(name)
    state = game.initial_state(game.setup(3))
    rng = random.Random(seed)
    made = 0
    while made < decisions and not game.is_over(state):
        if game.current_player(state) == CHANCE:
            state = game.apply(state, sample(game.chance_outcomes(state), rng))
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
            made += 1
    return state


@pytest.fixture(autouse=True)
def _english() -> Any:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_the_corners_give_the_table_coordinates() -> None:
    frame = overhead({markers_of("pillars", "tom")[0]: (0.25, 0.5)})
    markers = Detector().detect(frame)
    h = T.homography(markers)
    assert h is not None
    tom = next(m for m in markers if m.id == markers_of("pillars", "tom")[0])
    u, v = T.to_table(h, tom.centre)
    assert u == pytest.approx(0.25, abs=0.01) and v == pytest.approx(0.5, abs=0.01)
    three = [m for m in markers if m.id != CORNER_MARKERS[2]]  # a card over one corner
    h3 = T.homography(three)
    assert h3 is not None
    u, v = T.to_table(h3, tom.centre)
    assert u == pytest.approx(0.25, abs=0.03) and v == pytest.approx(0.5, abs=0.03)
    assert T.homography([m for m in three if m.id != CORNER_MARKERS[0]]) is None  # two
    crossed = [Marker(m.id, m.corners) if m.id not in CORNER_MARKERS[:2] else
               Marker(CORNER_MARKERS[1 - CORNER_MARKERS.index(m.id)], m.corners)
               for m in markers]
    assert T.homography(crossed) is None  # corners swapped: not a table


def said(game: str, state: Any, seen: Any, zones: Any = None) -> list[str]:
    """The differences in the table's language, as the table-check screen shows them."""
    return [difference_text(game, d, state.setup)
            for d in T.differences(spec(game), state, seen, zones)]


def test_a_pillars_table_that_matches_and_one_that_does_not() -> None:
    state = played("pillars", 4, 6)
    zones = T.layout(spec("pillars"), 3)
    want = T.expected(spec("pillars"), state)
    assert want["kingsbridge"] and want["shiring"] is not None and len(want["craftsmen/0"]) >= 3
    frame = overhead(lay_out("pillars", zones, want))
    view = T.read_table(Detector().detect(frame), "pillars", zones)
    assert view.ok and view.corners == 4
    assert {k: sorted(v) for k, v in view.seen.items()} == {
        k: sorted(v) for k, v in want.items()}
    assert said("pillars", state, view.seen, zones) == []
    # a craftsman left out, another in the wrong player's area
    moved = {k: list(v) for k, v in want.items()}
    gone = moved["craftsmen/0"].pop()
    wrong = moved["craftsmen/1"].pop()
    moved["craftsmen/2"].append(wrong)
    frame = overhead(lay_out("pillars", zones, moved))
    view = T.read_table(Detector().detect(frame), "pillars", zones)
    names = [p.name for p in state.setup.players]
    diffs = said("pillars", state, view.seen, zones)
    assert sorted(diffs) == sorted([  # covered or gone: the camera cannot tell
        f"{W.card_name('pillars', gone)} is not seen in {names[0]}'s craftsmen; tap here if it "
        "is not on the table",
        f"{W.card_name('pillars', wrong)} is in {names[2]}'s craftsmen on the table, in "
        f"{names[1]}'s craftsmen for the engine",
    ])
    asked = [difference_text("pillars", d, state.setup) for d in T.differences(
        spec("pillars"), state, view.seen, zones, asked={gone})]  # the table says: not there
    assert sorted(asked) == sorted([
        f"{W.card_name('pillars', gone)} is missing from {names[0]}'s craftsmen",
        f"{W.card_name('pillars', wrong)} is in {names[2]}'s craftsmen on the table, in "
        f"{names[1]}'s craftsmen for the engine",
    ])


def test_without_the_corners_the_table_cannot_be_read() -> None:
    zones = T.layout(spec("builders"), 2)
    markers = [Marker(CORNER_MARKERS[0], ((0, 0), (1, 0), (1, 1), (0, 1)))]
    view = T.read_table(markers, "builders", zones)
    assert not view.ok and view.corners == 1 and all(not v for v in view.seen.values())


def test_builders_sites_and_workers() -> None:
    state = played("builders", 2, 14)
    want = T.expected(spec("builders"), state)
    seats = len(state.players)
    assert set(want) == {f"{k}/{s}" for k in ("sites", "workers") for s in range(seats)}
    assert said("builders", state, want) == []
    p0 = state.players[0]
    name = state.setup.players[0].name
    seen = {k: list(v) for k, v in want.items()}
    idle = next(w for w in p0.idle if w not in p0.finished)
    seen["workers/0"].remove(idle)
    seen["sites/1"].append(idle)
    seen["workers/1"].append("abbaye")  # a building is not checked among idle workers
    diffs = said("builders", state, seen)
    other = state.setup.players[1].name
    assert diffs == [
        f"{W.card_name('builders', idle)} is in {other}'s building sites on the table, in "
        f"{name}'s idle workers for the engine"
    ]
    i18n.set_language("zh")
    assert said("builders", state, seen)[0].endswith("的空闲工人")


def test_copies_count_when_listed_and_sets_only_say_present() -> None:
    state = played("builders", 2, 0)
    seats = len(state.players)
    base: dict[str, Any] = {f"{k}/{s}": [] for k in ("sites", "workers") for s in range(seats)}
    base.update(T.expected(spec("builders"), state))
    seen = {k: list(v) for k, v in base.items()}
    seen["workers/0"] += ["compagnon-1111", "compagnon-1111"]
    diffs = said("builders", state, seen)
    assert len(diffs) == 2 and all("is in" in d and "not for the engine" in d for d in diffs)
    as_sets = {k: set(v) for k, v in seen.items()}
    assert len(said("builders", state, as_sets)) == 1


def test_zones_can_be_moved_in_the_config() -> None:
    zones = T.layout(spec("pillars"), 2, {"shiring": (0.5, 0.5, 0.6, 0.6)})
    shiring = next(z for z in zones if z.id == "shiring")
    assert shiring.rect == (0.5, 0.5, 0.6, 0.6) and shiring.contains((0.55, 0.55))
    assert not shiring.contains((0.6, 0.55))
    from companion.engine import SetupError
    from companion.engine.registry import GameSpec

    with pytest.raises(SetupError):
        spec("chess")
    no_table = GameSpec("toy", "Toy", rules=lambda: get_game("pillars"))
    with pytest.raises(KeyError):
        T.layout(no_table, 2)
    with pytest.raises(KeyError):
        T.expected(no_table, None)


def test_the_camera_has_no_words_of_its_own() -> None:
    """The camera reports codes and data; the kiosk words them (and its strings are checked
    with the kiosk's)."""
    root = Path(T.__file__).parent
    assert i18n.source_strings(root) == {}
    kiosk = Path(i18n.__file__).parent
    assert "Several cards seen: show one at a time" in i18n.source_strings(kiosk)


# -- the kiosk screen ----------------------------------------------------------------------------


class FakeCamera:
    def __init__(self, markers: list[Marker], online: bool = True) -> None:
        self._markers = tuple(markers)
        self.online = online
        self.config = None

    def markers(self) -> tuple[Marker, ...]:
        return self._markers

    def check_table(self, spec: Any, state: Any, *, asked: Any = ()) -> Any:
        return T.check(spec, state, self._markers, asked=asked)

    def update(self, view: Any, now: float) -> list[Any]:
        return []

    def notify(self, event: str, detail: str = "") -> None:
        pass

    def close(self) -> None:
        pass


def test_the_table_check_screen(tmp_path: Path) -> None:
    from companion.kiosk.screens.table_check import TableCheckScreen
    from companion.pillars.kiosk import PillarsScreen
    from tests.kiosk_helpers import make_app, press, tap

    app = make_app(tmp_path)
    screen = TableCheckScreen(app)
    app.show(screen)
    app.render()
    assert screen.notice == "No game is being played"
    press(app, "back")  # to the home screen
    tap(app, "new")
    tap(app, "players 3")
    tap(app, "start")
    game_screen = app.screen
    assert isinstance(game_screen, PillarsScreen)
    screen = TableCheckScreen(app, game_screen)
    app.show(screen)
    assert screen.notice == "No camera: the table check needs the overhead camera"
    state = app.session.state
    zones = T.layout(spec("pillars"), 3)
    want = T.expected(spec("pillars"), state)
    want["craftsmen/1"] = want["craftsmen/1"][:1]  # two of Blue's craftsmen out of sight
    camera = FakeCamera(Detector().detect(overhead(lay_out("pillars", zones, want))))
    app.add_device(camera)
    screen.check()
    app.render()
    assert screen.notice == "2 differences between the table and the engine"
    assert len(screen.lines) == 2 and all("is not seen in" in s for s in screen.lines)
    # the table is asked about one: it says the card is not there, so it is missing
    asked = next(c for c in screen.unseen if c is not None)
    tap(app, f"ask {asked}")
    assert screen.asked == {asked}
    assert sorted("is missing from" in s for s in screen.lines) == [False, True]
    assert screen.unseen.count(None) == 1  # the other one is still only "not seen"
    # a corner covered: three corners still give the table
    camera._markers = tuple(m for m in camera._markers if m.id != CORNER_MARKERS[0])
    app.tick(1.0)
    assert screen.notice == "2 differences between the table and the engine"
    camera._markers = tuple(m for m in camera._markers if m.id != CORNER_MARKERS[1])
    app.tick(1.0)
    assert screen.notice == "Show all four corner markers to the camera (2 of 4 seen)"
    camera.online = False
    tap(app, "recheck")
    assert screen.notice == "Camera offline"
    press(app, "back")
    assert app.screen is game_screen


def test_a_marker_of_the_wrong_size_is_rejected() -> None:
    """A card sticker is 25 mm and the corners 40 mm: a marker of a card far larger or smaller
    than the corners predict there (a marker-shaped icon, a sticker of reading size) counts
    nowhere."""
    state = played("pillars", 4, 6)
    zones = T.layout(spec("pillars"), 3)
    tom = markers_of("pillars", "tom")[0]
    assert T.read_table(Detector().detect(overhead({tom: (0.25, 0.5)}, side=30)), "pillars",
                        zones).rejected == ()
    frame = overhead({tom: (0.25, 0.5)}, side=30)
    small = overhead({tom: (0.25, 0.5)}, side=19)  # the same card, a sticker 2/3 the size
    x, y = (int(v) for v in cv2.perspectiveTransform(np.array([[(0.25, 0.5)]], np.float32),
                                                     TABLE_TO_PX)[0, 0])
    frame[y - 30:y + 30, x - 30:x + 30] = small[y - 30:y + 30, x - 30:x + 30]
    view = T.read_table(Detector().detect(frame), "pillars", zones, card_mm=25, corner_mm=40)
    assert view.rejected == (tom,) and view.ok
    result = T.check(spec("pillars"), state, Detector().detect(frame))
    assert result.rejected == (tom,)
