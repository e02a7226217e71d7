"""Drawing ahead (``companion.kiosk.lookahead``): in the idle time the kiosk draws the frames
one action away on a scratch surface, so the frame after the table's move blits its parts.

What it must do: the frame after a move blits every part drawn ahead for it (no part drawn
twice); nothing the table sees or taps changes while it draws ahead; what it kept looks and
acts as a fresh drawing (the retained walks, with the look-ahead between taps); it stops for
a waiting event; a drawing ahead that fails is dropped, not shown."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.engine import CHANCE, get_game  # noqa: E402
from companion.engine.simulate import sample  # noqa: E402
from companion.kiosk import retained, ui  # noqa: E402
from companion.kiosk.app import App  # noqa: E402
from companion.kiosk.screens.game import open_game  # noqa: E402

from .kiosk_helpers import make_app  # noqa: E402
from .sweeps import sampled  # noqa: E402
from .test_retained import _fresh, walk  # noqa: E402, F401 - (_fresh: its autouse fixture)

OWN = 2
"""Frames drawn ahead of every position besides those one action away: the frame on screen
itself and the game log's first frame."""


def _game(tmp: Path, name: str, size: tuple[int, int]) -> App:
    app = make_app(tmp, size=size)
    game = get_game(name)
    app.session = app.journal.start(game.setup(4), seed=0)
    open_game(app)
    app.render(force=True)
    return app


def _painted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every part painted from now (a first sight or drawn to be kept)."""
    painted: list[str] = []
    retain = retained._retain

    def counting(screen: object, surface: pygame.Surface, rect: pygame.Rect, key: object,
                 paint: Callable[[], object], name: str) -> object:
        def counted() -> object:
            painted.append(name)
            return paint()
        return retain(screen, surface, rect, key, counted, name)  # type: ignore[arg-type]

    monkeypatch.setattr(retained, "_retain", counting)
    return painted


def assert_kept_whole(app: App, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The part ``name`` of the frame on screen is painted at its first two sights (seen,
    then kept) and blitted whole at the third: a screen redrawn under a light or a message
    does not lay it out again."""
    retained.clear()  # (an earlier test may have kept this very part)
    painted = _painted(monkeypatch)
    for _k in range(2):
        app.render(force=True)
    assert name in painted, f"no part {name!r} on the screen"
    painted.clear()
    app.render(force=True)
    assert name not in painted, f"the part {name!r} was painted again"


def _to_decision(app: App) -> None:
    """Reveal at random until the table decides."""
    game, rng = app.session.game, random.Random(1)
    while game.current_player(app.session.state) == CHANCE:
        app.session.play(sample(game.chance_outcomes(app.session.state), rng))
    app.render(force=True)


def _all_ahead(app: App) -> int:
    done = 0
    while k := app.ahead.run(app.screen, app.surface, 1.0, lambda: False):
        done += k
    return done


def _parts_drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, int]]:
    """Every part drawn afresh and whole from now: (whether in a frame drawn ahead, its
    key's hash)."""
    drawn: list[tuple[bool, int]] = []
    real = retained._draw

    def draw(screen: object, surface: pygame.Surface, rect: pygame.Rect, paint: object,
             recorders: object, whole: object) -> retained.Kept:
        kept = real(screen, surface, rect, paint, recorders, whole)  # type: ignore[arg-type]
        drawn.append((retained._frame[0].ahead, hash(whole)))  # (drawn whole)
        return kept

    monkeypatch.setattr(retained, "_draw", draw)
    return drawn


@pytest.mark.parametrize(("name", "size"), sampled(
    [("pillars", (720, 1280)), ("builders", (800, 480))], keep=[0]))  # the Builders' look-ahead
# by default: test_frames_after_drawing_ahead_equal_fresh_frames; both under -m full
def test_the_frame_after_a_move_blits_what_was_drawn_ahead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str,
        size: tuple[int, int]) -> None:
    """Twenty decisions of a seeded game, the look-ahead done before each: every part of the
    frame after the move that a frame drawn ahead drew is blitted, not drawn again; and the
    frames after the moves draw fewer parts than the frames ahead drew for them."""
    app = _game(tmp_path, name, size)
    game, rng = get_game(name), random.Random(4)
    drawn = _parts_drawn(monkeypatch)
    decisions = ahead_total = after_total = 0
    while decisions < 20:
        state = app.session.state
        chance = game.current_player(state) == CHANCE
        drawn.clear()
        n = _all_ahead(app)
        if not chance:  # the frame on screen, the log's, one per action allowed, one per
            picks = len(list(app.screen.ui_variants()))  # worker to pick
            assert n == OWN + len(game.legal_actions(state)) + picks
        ahead = {h for was_ahead, h in drawn if was_ahead}
        app.session.play(sample(game.chance_outcomes(state), rng) if chance
                         else rng.choice(game.legal_actions(state)))
        drawn.clear()
        app.render(force=True)
        again = [h for _a, h in drawn if h in ahead]
        assert not again, f"decision {decisions}: {len(again)} parts drawn ahead were drawn again"
        if not chance:
            decisions += 1
            ahead_total += len(ahead)
            after_total += len(drawn)
    assert after_total < ahead_total / 10


def test_drawing_ahead_puts_back_the_panels_own_state(tmp_path: Path) -> None:
    """What a panel's drawing changes in its own state (a page turned back into range) is put
    back after a frame ahead: the table's pages and picks stay as they were, three deep."""
    from companion.kiosk.screens import ahead

    app = _game(tmp_path, "builders", (800, 480))
    screen = app.screen
    assert app.session.game.current_player(app.session.state) == CHANCE  # the picker's cards
    screen.picker.s.page = 50  # out of range: its drawing turns it back (%= pages)
    before = [(obj, dict(attrs)) for obj, attrs in ahead._snapshot(screen)]
    assert _all_ahead(app) > 1
    assert screen.picker.s.page == 50
    assert any(obj is screen.picker.s for obj, _a in before)
    for obj, attrs in before:  # (a cache made outside the drawing may be new: a word table)
        assert all(vars(obj).get(k, ...) is v for k, v in attrs.items()), obj


def test_the_companion_s_visit_is_drawn_ahead(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the companion has decided, the one frame ahead is the state after its whole
    visit; the frame after the table confirms blits the parts drawn for it."""
    from .test_kiosk_seats import press, start, think

    app = make_app(tmp_path, size=(800, 480))
    start(app, "builders", 2, 0)
    game, rng = get_game("builders"), random.Random(2)
    while game.current_player(app.session.state) == CHANCE:
        app.session.play(sample(game.chance_outcomes(app.session.state), rng))
    actions = think(app)
    before = app.session.state
    drawn = _parts_drawn(monkeypatch)
    assert _all_ahead(app) == OWN + 1  # the frame on screen, the log's, and the visit done
    ahead = {h for _a, h in drawn}
    found: list[int] = []
    get = retained.STORE.get

    def store_get(key: int) -> retained.Kept | None:
        kept = get(key)
        if kept is not None:
            found.append(key)
        return kept

    monkeypatch.setattr(retained.STORE, "get", store_get)
    press(app, "confirm")
    after = before
    for a in actions:
        after = game.apply(after, a)
    assert app.session.state == after
    drawn.clear()
    app.render(force=True)
    assert ahead & set(found), "the frame after the visit blitted nothing drawn ahead"
    assert not ahead & {h for _a, h in drawn}


def test_a_worker_picked_is_drawn_ahead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """The Builders: each idle worker picked is a frame ahead (the first tap of a send);
    the frame after the tap blits what was drawn for it, and the panel's own choice is the
    one it was until the tap."""
    app = _game(tmp_path, "builders", (720, 1280))
    _to_decision(app)
    screen = app.screen
    choice = screen.mine.s
    drawn = _parts_drawn(monkeypatch)
    _all_ahead(app)
    assert screen.mine.s is choice and choice.selected is None
    assert drawn, "nothing was drawn ahead"
    worker = next(b for b in screen.buttons if b.key.startswith("select "))
    drawn.clear()
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=worker.rect.center,
                                        button=1, touch=False))
    app.render(force=True)
    assert screen.mine.s.selected == worker.key.removeprefix("select ")
    assert drawn == [], "the frame after the pick drew parts afresh"


def test_drawing_ahead_changes_nothing_the_table_sees(tmp_path: Path) -> None:
    """The frame on screen, the touch targets and roles, the screen's and its panels'
    attributes, the preview, the game's state and the recorders are as they were."""
    app = _game(tmp_path, "pillars", (800, 480))
    game = get_game("pillars")
    _to_decision(app)
    screen, state = app.screen, app.session.state
    pixels = pygame.image.tobytes(app.surface, "RGB")
    buttons, roles = list(screen.buttons), [b.roles for b in screen.buttons]
    attrs = dict(vars(screen))
    overflows = list(ui.OVERFLOWS)
    assert _all_ahead(app) == OWN + len(game.legal_actions(state)) > 3
    assert pygame.image.tobytes(app.surface, "RGB") == pixels
    assert screen.buttons == buttons and [b.roles for b in screen.buttons] == roles
    assert vars(screen).keys() == attrs.keys()
    assert all(vars(screen)[k] is v for k, v in attrs.items()), "an attribute was replaced"
    assert app.session.state is state and screen.state is state
    assert overflows == ui.OVERFLOWS and ui.DRAWN is None
    assert app.ahead.failed == 0


def test_a_preview_draws_its_result_ahead(tmp_path: Path) -> None:
    """With a preview waiting for Confirm, the one frame ahead is the previewed result."""
    app = _game(tmp_path, "pillars", (800, 480))
    game = get_game("pillars")
    _to_decision(app)
    screen = app.screen
    step = game.step(app.session.state, game.legal_actions(app.session.state)[0])
    from companion.kiosk.screens.game import Preview

    screen.preview = Preview.of(step, "test", [])
    app.render(force=True)
    assert _all_ahead(app) == OWN + 2  # the frame on screen, the log's, Cancel's, Confirm's
    assert screen.preview is not None and screen.preview.taken is step


def test_a_reveal_is_drawn_ahead_as_its_preview(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A card the table shows is previewed before Confirm: drawn ahead as that preview (as
    ``propose`` makes it), so the preview's frame blits what was drawn for it."""
    app = _game(tmp_path, "pillars", (800, 480))
    game = get_game("pillars")
    state = app.session.state
    assert game.current_player(state) == CHANCE
    drawn = _parts_drawn(monkeypatch)
    _all_ahead(app)
    assert app.screen.preview is None and drawn
    outcome = max(game.chance_outcomes(state), key=lambda o: o[1])[0]
    app.screen.propose(outcome)
    assert app.screen.preview is not None
    painted = _painted(monkeypatch)
    app.render(force=True)
    assert painted == [], f"the preview's frame drew {painted} afresh"


def test_the_frame_on_screen_is_drawn_ahead_too(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn again (a message gone, a light), the frame on screen paints no part: its parts
    were kept whole by drawing it ahead, not left to their second sight."""
    app = _game(tmp_path, "builders", (720, 1280))
    _to_decision(app)
    _all_ahead(app)
    painted = _painted(monkeypatch)
    app.render(force=True)
    assert painted == [], f"the frame on screen drew {painted} again"


def test_nothing_is_drawn_ahead_while_an_event_waits(tmp_path: Path) -> None:
    app = _game(tmp_path, "builders", (800, 480))
    _to_decision(app)
    assert app.ahead.run(app.screen, app.surface, 1.0, lambda: True) == 0
    assert app.ahead.run(app.screen, app.surface, 0.0, lambda: False) == 1  # at least one
    assert app.ahead.drawn == 1


def test_a_tap_stops_a_frame_ahead_between_two_parts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event that comes while a frame is drawn ahead stops it before its next part (the
    tap waits for one part, not a frame); the frame is drawn again at the next idle pass,
    and every frame ahead is drawn in the end, once."""
    from companion.kiosk import lookahead

    monkeypatch.setattr(lookahead, "CHECK_EVERY", 0.0)
    app = _game(tmp_path, "pillars", (800, 480))
    _to_decision(app)
    looks: list[int] = []
    drawn = _parts_drawn(monkeypatch)

    def waiting() -> bool:  # a tap at the fourth look, in the middle of the first frame
        looks.append(len(drawn))
        return len(looks) == 4

    ahead = app.ahead
    assert ahead.run(app.screen, app.surface, 1.0, waiting) == 0
    assert ahead.interrupted == 1 and len(drawn) <= 3  # stopped before its fourth part
    assert app.screen.ahead_state is None and ahead.failed == 0
    done = ahead.run(app.screen, app.surface, 1.0, waiting) + _all_ahead(app)
    legal = len(get_game("pillars").legal_actions(app.session.state))
    assert done == ahead.drawn == OWN + legal  # the stopped frame drawn again, each once
    assert len(drawn) == len(set(drawn)), "a part drawn whole before the tap was drawn again"


def test_a_frame_ahead_that_fails_is_dropped(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame that fails to draw ahead ends the look-ahead for that position quietly: no
    fault screen, the screen's drawing as it was; the real frame still draws."""
    app = _game(tmp_path, "builders", (800, 480))
    _to_decision(app)
    screen = app.screen
    real = type(screen).render

    def render(self: object, surface: pygame.Surface) -> None:
        if retained._frame and retained._frame[0].ahead:
            raise RuntimeError("a fault only in a frame ahead")
        real(self, surface)  # type: ignore[arg-type]

    monkeypatch.setattr(type(screen), "render", render)
    assert _all_ahead(app) == 0
    assert app.ahead.failed == 1 and app.screen is screen and screen.ahead_state is None
    assert app.render(force=True) and app.screen is screen


def test_the_main_loop_draws_ahead_when_idle(tmp_path: Path) -> None:
    """``App.run``: a pass that draws nothing and has no event draws ahead."""
    app = _game(tmp_path, "builders", (800, 480))
    _to_decision(app)
    pygame.event.clear()
    app.run(max_passes=4)
    assert app.ahead.drawn >= 1


@pytest.mark.parametrize(("name", "size", "skip", "steps"), sampled([
    ("pillars", (720, 1280), 0, 60), ("builders", (800, 480), 60, 18),
    ("builders", (800, 480), 60, 60)], keep=[1]))  # all: -m full
def test_frames_after_drawing_ahead_equal_fresh_frames(tmp_path: Path, name: str,
                                                       size: tuple[int, int], skip: int,
                                                       steps: int) -> None:
    """The retained walk, with the look-ahead before every tap: every frame equals a fresh
    drawing (pixels, touch targets, roles), and every kept part its fresh drawing."""
    assert walk(tmp_path, name, size, steps=steps, seed=7, skip=skip, ahead=True) >= steps * 2 // 3
    assert retained.STORE.hits > 0


def test_a_part_that_reads_the_table_s_state_is_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A part whose key reads the table's state (not the screen's, which a frame drawn ahead
    puts in) is kept ahead under the key of the frame on screen: drawn again, that frame
    shows the next state's bar, and the walk with the look-ahead names it."""
    from companion.pillars.kiosk import players

    def top_key(screen: players.PillarsScreen) -> tuple[object, ...]:
        state = screen.session.state  # the table's, also in a frame drawn ahead
        who = screen.game.current_player(state)
        return (state.round, state.step, who, state.setup.players[who] if who >= 0 else None,
                screen.hint_offered(), screen.can_undo())

    monkeypatch.setattr(players, "top_key", top_key)
    with pytest.raises(AssertionError, match="pillars bar|pixels differ|touch targets"):
        # (ten moves in, a few taps show it; from the start, 24 to 36 taps)
        walk(tmp_path, "pillars", (800, 480), steps=60, seed=5, skip=10, ahead=True)


def _tap(app: App, key: str) -> None:
    button = next(b for b in app.screen.buttons if b.key == key)
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center,
                                        button=1, touch=False))


def test_continue_on_a_result_is_drawn_ahead(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The Pillars: with a result on show (a round's breakdown, what an event did), the frame
    ahead is Continue's alone (every other frame would show the result over it), and the
    frame after Continue blits what was drawn for it."""
    app = _game(tmp_path, "pillars", (720, 1280))
    _to_decision(app)
    screen = app.screen
    screen.show_result("What happened", [("Alice", "+2 gold")])
    app.render(force=True)
    drawn = _parts_drawn(monkeypatch)
    assert _all_ahead(app) == OWN + 1
    assert screen.result is not None, "drawing ahead dismissed the result"
    drawn.clear()
    _tap(app, "continue")
    app.render(force=True)
    assert screen.result is None
    assert drawn == [], "the frame after Continue drew parts afresh"


def test_continue_drawn_ahead_leaves_what_waits_as_it_was(tmp_path: Path) -> None:
    """Continue drawn ahead shows the next result waiting, or queues the hand-outs that
    waited for the result, on copies: the table's results, hand-outs and queue are as they
    were, and the real Continue then does both."""
    from companion.kiosk.handout import HandLine, HandOut

    app = _game(tmp_path, "pillars", (800, 480))
    _to_decision(app)
    screen = app.screen
    step = HandOut("Deal", (HandLine(0, "gold", 1, "test"),), key="deal")
    screen.show_result("First", [("Alice", "+2 gold")])
    screen.show_result("Second", [("Bob", "+1 gold")])
    app.render(force=True)
    for k in range(2):  # the second result waiting, then the hand-out after it
        waiting, after, queue = screen.waiting, screen.after_result, screen.handouts
        pending, ids = list(queue.pending), dict(queue.ids)
        assert _all_ahead(app) == OWN + 1
        assert screen.waiting is waiting and screen.after_result is after
        assert screen.handouts is queue and screen.handout_view.queue is queue
        assert queue.pending == pending and queue.ids == ids
        assert app.ahead.failed == 0
        _tap(app, "continue")
        app.render(force=True)
        if k == 0:
            assert screen.result is not None and screen.result[0] == "Second"
            screen.after_result.append((0, step))
    assert screen.result is None and screen.handouts.current is step


def test_the_first_idle_pass_loads_the_resource_names(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's table of resource names (which imports the other games' words) is
    loaded by the kiosk's first idle pass, not by the first frame that names a resource."""
    from companion.kiosk import i18n

    monkeypatch.setattr(i18n, "_resources", {})
    app = make_app(tmp_path)
    app.render(force=True)
    assert not i18n._resources
    app.ahead.run(app.screen, app.surface, 0.0, lambda: False)
    assert i18n._resources and not app.ahead.warm


def test_the_frames_of_a_new_turn_come_first(tmp_path: Path) -> None:
    """The Builders: the first frames ahead are those of the first action that hands the
    game to each other seat (or to a reveal) and of the first that leaves the seat fewest
    choices, before the workers picked and the other moves within the turn: their parts are
    the costliest, and serve every action that ends the turn or spends its last AP."""
    from companion.kiosk.screens.ahead import _next_frames

    app = _game(tmp_path, "builders", (800, 480))
    _to_decision(app)
    screen, state, game = app.screen, app.session.state, app.session.game
    jobs = [(getattr(job, "func", None).__name__, job)  # type: ignore[union-attr]
            for job in _next_frames(screen, state)]
    kinds = [name for name, _job in jobs]
    assert "_variant" in kinds  # (a worker to pick: the costliest frames come before it)
    picks = kinds.index("_variant")
    assert kinds[:picks] == ["_after"] * picks
    actions = [job.args[2][0] for name, job in jobs if name == "_after"]
    legal = game.legal_actions(state)
    assert sorted(map(str, actions)) == sorted(map(str, legal))
    who = game.current_player(state)
    after = {str(a): game.apply(state, a) for a in legal}
    firsts = {}
    for a in legal:  # the rules' order
        firsts.setdefault(game.current_player(after[str(a)]), a)
    firsts.pop(who)
    same = [a for a in legal if game.current_player(after[str(a)]) == who]
    fewest = min(same, key=lambda a: len(game.legal_actions(after[str(a)])))
    front = {str(a) for a in [*firsts.values(), fewest]}
    assert {str(a) for a in actions[:picks]} == front and picks == len(front)
    assert any(legal.index(a) >= picks for a in [*firsts.values(), fewest])  # (can fail)


def test_a_worker_picked_draws_its_sends_first(tmp_path: Path) -> None:
    """The Builders: once a worker is picked, the first frames ahead are those of its sends
    (the table's next tap sends it), before the new turns, the picks and the other moves."""
    from companion.builders.actions import Send
    from companion.kiosk.screens.ahead import _next_frames

    app = _game(tmp_path, "builders", (800, 480))
    game, rng = app.session.game, random.Random(2)
    while not any(isinstance(a, Send) for a in game.legal_actions(app.session.state)
                  if game.current_player(app.session.state) != CHANCE):
        state = app.session.state
        if game.current_player(state) == CHANCE:
            app.session.play(sample(game.chance_outcomes(state), rng))
        else:  # (a site started first, when it can be)
            legal = game.legal_actions(state)
            app.session.play(next((a for a in legal if type(a).__name__ == "Start"),
                                  rng.choice(legal)))
    app.render(force=True)
    screen, state = app.screen, app.session.state
    sends: dict[str, list[str]] = {}
    for a in game.legal_actions(state):
        if isinstance(a, Send):
            sends.setdefault(a.worker, []).append(str(a))
    assert sends, "no worker to send"
    worker = max(sends, key=lambda w: len(sends[w]))
    screen.mine.select(worker)
    jobs = list(_next_frames(screen, state))
    first = [str(job.args[2][0]) for job in jobs[:len(sends[worker])]]  # type: ignore[union-attr]
    assert sorted(first) == sorted(sends[worker])
    assert len(jobs) > len(first)  # (the rest follow)
    screen.mine.select(worker)  # (put down again: the rules' order, the new turns first)
    jobs = list(_next_frames(screen, state))
    assert [str(j.args[2][0]) for j in jobs[:len(first)]  # type: ignore[union-attr]
            if getattr(j, "func", None).__name__ == "_after"] != first  # type: ignore[union-attr]


def test_moves_taken_at_once_come_before_those_previewed(tmp_path: Path) -> None:
    """The Builders: after the new turns and the workers picked, the moves the table sees at
    once (coins, a send) are drawn ahead before those the screen previews (a card taken from
    a row: its preview is drawn on the tap over the frame on screen, and its result is drawn
    ahead while the table reads it)."""
    from companion.kiosk.screens.ahead import _next_frames

    app = _game(tmp_path, "builders", (800, 480))
    _to_decision(app)
    screen, state, game = app.screen, app.session.state, app.session.game
    jobs = list(_next_frames(screen, state))
    last_pick = max(k for k, job in enumerate(jobs) if job.func.__name__ == "_variant")
    moves = [job.args[2][0] for job in jobs[last_pick + 1:]]  # type: ignore[attr-defined]
    previewed = [screen.wants_preview(state, a, game.apply(state, a)) for a in moves]
    assert any(previewed) and not all(previewed)  # (both kinds: the check can fail)
    assert previewed == sorted(previewed)
    legal = game.legal_actions(state)  # (not the rules' own order)
    in_rules = [screen.wants_preview(state, a, game.apply(state, a)) for a in legal]
    assert in_rules != sorted(in_rules)


def test_the_end_screen_is_made_ahead_of_the_last_continue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Pillars' last round: with its breakdown on show, the end screen is made and drawn
    ahead; Continue shows that screen, whose first frame paints nothing afresh; and a screen
    made ahead reads the game again when shown if the game it was made for changed."""
    from companion.kiosk.screens.end import EndScreen
    from tests.kiosk_helpers import enter, handed_out, position

    setup, actions, last = position("pillars", lambda s, a, n: n.over, players=3)
    app = make_app(tmp_path, size=(800, 480))
    enter(app, setup, actions)
    screen = app.screen
    assert screen.commit(last)
    app.render(force=True)
    handed_out(app)
    app.render(force=True)
    assert screen.result is not None and app.screen is screen
    assert _all_ahead(app) == OWN + 1  # the frame on screen, the log's, the end's
    made = next(iter(app.ahead.prepared.values()))
    assert isinstance(made, EndScreen)
    drawn = _parts_drawn(monkeypatch)
    _tap(app, "continue")
    assert app.screen is made
    app.render(force=True)
    assert drawn == [], "the end screen's first frame drew parts afresh"
    made._read()  # (as a screen made before an undo and another last action)
    state = made.state
    made.state = object()
    made.on_show()
    assert made.state is app.session.state and made.state is state


def test_a_preview_and_a_result_on_show_are_kept_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A preview waiting for Confirm and a result waiting for Continue stay on screen while
    the table reads them: redrawn, each is blitted whole (not laid out again), and its
    buttons still do what they did."""
    from companion.kiosk.screens.game import Preview

    app = _game(tmp_path, "pillars", (720, 1280))
    _to_decision(app)
    screen, game = app.screen, get_game("pillars")
    screen.preview = Preview.of(game.step(app.session.state,
                                          game.legal_actions(app.session.state)[0]), "t", [])
    assert_kept_whole(app, monkeypatch, "preview")
    _tap(app, "cancel")
    assert screen.preview is None
    screen.show_result("What happened", [("red", "+2 gold")])
    assert_kept_whole(app, monkeypatch, "result")
    _tap(app, "continue")
    assert screen.result is None
