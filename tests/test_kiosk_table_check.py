"""The table mode in the kiosk: the differences the camera finds, in the table's words, and the
table-check screen (the camera's own table tests, without the kiosk: test_vision_table.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.engine.registry import spec
from companion.kiosk import i18n
from companion.kiosk import words as W
from companion.kiosk.screens.table_check import difference_text
from companion.vision import table as T
from companion.vision.detect import Detector, Marker
from companion.vision.markers import CORNER_MARKERS
from tests.test_vision_table import lay_out, overhead, played


def said(game: str, state: Any, seen: Any, zones: Any = None, asked: Any = ()) -> list[str]:
    """The differences in the table's language, as the table-check screen shows them."""
    return [difference_text(game, d, state.setup)
            for d in T.differences(spec(game), state, seen, zones, asked)]


def test_a_pillars_table_in_words() -> None:
    state = played("pillars", 4, 6)
    zones = T.layout(spec("pillars"), 3)
    want = T.expected(spec("pillars"), state)
    moved = {k: list(v) for k, v in want.items()}
    gone = moved["craftsmen/0"].pop()
    wrong = moved["craftsmen/1"].pop()
    moved["craftsmen/2"].append(wrong)
    view = T.read_table(Detector().detect(overhead(lay_out("pillars", zones, moved))), "pillars",
                        zones)
    names = [p.name for p in state.setup.players]
    assert sorted(said("pillars", state, view.seen, zones)) == sorted([  # covered or gone
        f"{W.card_name('pillars', gone)} is not seen in {names[0]}'s craftsmen; tap here if it "
        "is not on the table",
        f"{W.card_name('pillars', wrong)} is in {names[2]}'s craftsmen on the table, in "
        f"{names[1]}'s craftsmen for the engine",
    ])
    assert sorted(said("pillars", state, view.seen, zones, asked={gone})) == sorted([
        f"{W.card_name('pillars', gone)} is missing from {names[0]}'s craftsmen",
        f"{W.card_name('pillars', wrong)} is in {names[2]}'s craftsmen on the table, in "
        f"{names[1]}'s craftsmen for the engine",
    ])


def test_builders_sites_and_workers_in_words() -> None:
    state = played("builders", 2, 14)
    want = T.expected(spec("builders"), state)
    p0 = state.players[0]
    name, other = state.setup.players[0].name, state.setup.players[1].name
    seen = {k: list(v) for k, v in want.items()}
    idle = next(w for w in p0.idle if w not in p0.finished)
    seen["workers/0"].remove(idle)
    seen["sites/1"].append(idle)
    assert said("builders", state, seen) == [
        f"{W.card_name('builders', idle)} is in {other}'s building sites on the table, in "
        f"{name}'s idle workers for the engine"
    ]
    i18n.set_language("zh")
    assert said("builders", state, seen)[0].endswith("的空闲工人")
    i18n.set_language("en")
    seen["workers/0"] += ["compagnon-1111", "compagnon-1111"]
    assert sum("is in" in d and "not for the engine" in d
               for d in said("builders", state, seen)) == 2


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
