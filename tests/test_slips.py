"""The small slips a new table met: a message of the game left over the end screen, the header
naming the next step while the table still hands out, the end screen's header cut, an ASCII
colon in a Chinese preview, coins drawn as a bare sign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.engine import CHANCE, get_game
from companion.kiosk import i18n, ui
from companion.kiosk.breakdown import entry_lines
from companion.kiosk.screens.end import EndScreen
from companion.kiosk.screenshots import enter_position, find_prefixes
from companion.pillars.kiosk.handouts import PillarsHandOuts
from tests.kiosk_helpers import drawn_texts, enter, make_app, position

BUILDERS = get_game("builders")
PILLARS = get_game("pillars")


def test_the_end_screen_shows_no_message_left_from_the_game(tmp_path: Path) -> None:
    setup, actions, action = position(
        "builders", lambda s, a, n: BUILDERS.is_over(n) and not BUILDERS.is_over(s), seed=3,
        players=2)
    app = make_app(tmp_path)
    enter(app, setup, actions)
    app.toast("1 more turn", good=True, now=True)  # what the game said in its last turns
    app.screen.propose(action)
    if app.screen.preview is not None:
        app.screen.confirm_preview()
    for _k in range(200):
        if isinstance(app.screen, EndScreen):
            break
        if app.screen.handouts.current is not None:
            app.screen.confirm_handout()
        app.tick(0.1)
    assert isinstance(app.screen, EndScreen)
    assert app.toast_text is None
    app.journal.close()


def test_while_the_table_hands_out_the_header_says_so(tmp_path: Path) -> None:
    plan = PillarsHandOuts(PILLARS)
    setup, actions, action = position(
        "pillars", lambda s, a, n: PILLARS.current_player(s) == CHANCE and s.step == "roll"
        and plan.steps(s, a, n), seed=3, players=3)
    app = make_app(tmp_path)
    enter(app, setup, actions)
    app.screen.commit(action)
    app.tick(5.0)
    step = app.screen.handouts.current
    assert step is not None
    texts = drawn_texts(app)
    assert "The table hands out" in texts, texts
    who = PILLARS.current_player(app.session.state)
    if who >= 0:  # the next step's decider is not named yet
        assert f"{app.session.state.setup.players[who].name}'s decision" not in texts
    app.journal.close()


def test_the_end_screen_names_the_companion_s_seat_whole(tmp_path: Path) -> None:
    setup, actions = find_prefixes("builders", ["over"], players=3)["over"]
    app = make_app(tmp_path, language="ja")
    try:
        app.session = app.journal.start(setup, seed=0, companions={1: "easy"})
        for a in actions:
            app.session.play(a)
        app.go("end", game_id=app.session.id)
        ui.OVERFLOWS.clear()
        texts = drawn_texts(app)
        assert not any("…" in t for t in texts), [t for t in texts if "…" in t]
        assert any("◆" in t for t in texts)
    finally:
        i18n.set_language("en")
        app.journal.close()


def test_a_chinese_preview_uses_the_full_width_colon() -> None:
    setup, actions, action = position("pillars", lambda s, a, n: len(
        {e.player for e in PILLARS.ledger(n)[len(PILLARS.ledger(s)):]}) >= 2, seed=3,
        players=3)
    before = PILLARS.initial_state(setup)
    for a in actions:
        before = PILLARS.apply_text(before, a)
    after = PILLARS.apply(before, action)
    i18n.set_language("zh")
    try:
        lines = entry_lines(PILLARS, before, PILLARS.ledger(after)[len(PILLARS.ledger(before)):])
    finally:
        i18n.set_language("en")
    assert lines
    for _colour, text in lines:
        assert "：" in text and ": " not in text, text


def _turn_texts(app: Any, language: str, journal: Any) -> list[str]:
    setup, actions = find_prefixes("builders", ["turn"], players=4)["turn"]
    i18n.set_language(language)
    enter_position(app, journal, setup, actions, virtual_deck=False)
    app.screen.handouts.clear()
    return drawn_texts(app)


def test_coins_are_never_a_bare_sign_in_chinese_or_japanese(tmp_path: Path) -> None:
    for size in ((800, 480), (720, 1280)):
        app = make_app(tmp_path / f"{size[0]}", size=size)
        try:
            for language in ("zh", "ja"):
                texts = _turn_texts(app, language, app.journal)
                assert not [t for t in texts if "¤" in t], (size, language)
        finally:
            i18n.set_language("en")
            app.journal.close()
