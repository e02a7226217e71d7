"""The action log: round/turn sections, every action once, the ledger's changes by cause, newest
first for the screen, oldest first for the text, in every language."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.builders.causes import CAUSES as BUILDERS_CAUSES
from companion.engine import CHANCE, Playthrough, Record, RecordError, get_game
from companion.engine.ledger import Entry
from companion.kiosk import i18n
from companion.kiosk.gamelog import log_entries, log_text
from companion.kiosk.words import words_for
from companion.pillars.causes import CAUSES as PILLARS_CAUSES

from .test_words_actions import leaks


def play(name: str, seed: int, players: int = 3) -> Playthrough[Any, Any]:
    """A whole seeded random game; Builders players send workers when they can, so that
    buildings get finished."""
    game = get_game(name)
    pt: Playthrough[Any, Any] = Playthrough(game, game.setup(players), seed)
    rng = random.Random(seed)
    while not game.is_over(pt.state):
        s = pt.state
        if game.current_player(s) == CHANCE:
            outs = game.chance_outcomes(s)
            pt.play(rng.choices([o for o, _p in outs], [p for _o, p in outs])[0])
        else:
            legal = game.legal_actions(s)
            send = [a for a in legal if str(a).startswith("send")]
            pt.play(rng.choice(send if send and rng.random() < 0.7 else legal))
    return pt


@pytest.fixture(scope="module")
def games() -> dict[str, Playthrough[Any, Any]]:
    return {"pillars": play("pillars", 4), "builders": play("builders", 5)}


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_sections_hold_every_action_once_in_order(
    name: str, games: dict[str, Playthrough[Any, Any]]
) -> None:
    pt = games[name]
    game = pt.game
    oldest = log_entries(game, pt.setup, pt.actions, newest_first=False)
    newest = log_entries(game, pt.setup, pt.actions)
    indices = [e.index for s in oldest for e in s.entries if e.kind == "action"]
    assert indices == list(range(len(pt.actions)))
    assert [s.period for s in newest] == [s.period for s in reversed(oldest)]
    assert list(newest[0].entries) == list(reversed(oldest[-1].entries))
    periods = [s.period for s in oldest]
    assert periods == sorted(set(periods)), "one section per round or turn, in order"
    assert oldest[0].heading == ("Round 1" if name == "pillars" else "Turn 1: Red")


def test_the_round_end_says_why_points_changed(games: dict[str, Playthrough[Any, Any]]) -> None:
    pt = games["pillars"]
    lines = [
        c
        for s in log_entries(pt.game, pt.setup, pt.actions, newest_first=False)
        for e in s.entries
        for c in e.changes
    ]
    text = "\n".join(lines)
    assert "(the wool mill, " in text
    assert "(resource cards" in text
    assert "(tax: the die shows " in text or "(the King's Court)" in text


def test_the_ledger_is_all_in_the_log(games: dict[str, Playthrough[Any, Any]]) -> None:
    """Every VP entry of the ledger is shown (or said by its action's sentence): the numbers
    in the log add up to each player's final VP."""
    for name, pt in games.items():
        game = pt.game
        words = words_for(name)
        states = [game.initial_state(pt.setup)]
        for a in pt.actions:
            states.append(game.apply(states[-1], a))
        shown = 0
        said = 0
        for i, a in enumerate(pt.actions):
            new = game.ledger(states[i + 1])[len(game.ledger(states[i])) :]
            for e in new:
                role = words.ledger_role(states[i], a, e)
                assert role in ("said", "action", "rules")
                shown += role != "said"
                said += role == "said"
        assert shown and said, (name, shown, said)
        start = [e for e in game.ledger(states[0])]
        assert len(game.ledger(states[-1])) == len(start) + shown + said


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_the_text_log_is_in_the_language(
    name: str, lang: str, games: dict[str, Playthrough[Any, Any]]
) -> None:
    i18n.set_language(lang)
    pt = games[name]
    text = log_text(pt.game, pt.record())
    assert not leaks(text, lang), leaks(text, lang)[:10]
    assert i18n._("Game over") in text
    words = words_for(name)
    first = words.period_heading(pt.game.initial_state(pt.setup))
    assert first in ("第1轮", "ラウンド1", "第1回合：红方", "手番1：赤")
    assert text.index(first) < text.index(i18n._("Game over"))


def test_a_record_that_does_not_replay_is_refused() -> None:
    game = get_game("builders")
    setup = game.setup(2)
    with pytest.raises(RecordError) as err:
        log_entries(game, setup, ["end turn"])
    assert err.value.position == 1
    with pytest.raises(RecordError):
        log_text(get_game("pillars"), Record(setup, ()))


@pytest.mark.parametrize(
    ("name", "causes"), [("pillars", PILLARS_CAUSES), ("builders", BUILDERS_CAUSES)]
)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_cause_has_words(name: str, causes: dict[str, Any], lang: str) -> None:
    i18n.set_language(lang)
    words = words_for(name)
    samples = {
        "card": "stone3" if name == "pillars" else "grue-1",
        "space": "priory1",
        "resource": "stone",
        "count": 2,
        "roll": 4,
        "due": 4,
        "workers": 7,
        "ap": 2,
        "coins": 23,
        "site": "abbaye",
    }
    for tag, cause in causes.items():
        detail = tuple((f, samples[f]) for f in cause.fields)
        entry = Entry(1, 0, cause.whats[0], -3, tag, detail)
        text = words.change_text(entry)
        assert words.cause_text(entry) not in (tag, ""), (tag, text)
        assert "-3" in text, text
        for f, v in detail:
            if f in ("roll", "workers", "ap"):
                assert str(v) in text, (tag, text)
        assert not leaks(text, lang), (tag, text)


def test_a_builders_turn_that_ends_by_itself_says_so(
    games: dict[str, Playthrough[Any, Any]],
) -> None:
    pt = games["builders"]
    game = pt.game
    states = [game.initial_state(pt.setup)]
    for a in pt.actions:
        states.append(game.apply(states[-1], a))
    ended = {
        i
        for i, a in enumerate(pt.actions)
        if str(a) != "end turn"
        and (states[i + 1].turn != states[i].turn or states[i + 1].over)
    }
    assert ended, "the game has no turn that ended by itself"
    entries = [e for s in log_entries(game, pt.setup, pt.actions, newest_first=False)
               for e in s.entries]
    said = {e.index for e in entries if e.text.endswith("'s turn ended by itself: no action "
                                                         "was left")}
    assert said == ended
    assert entries[-1].text.startswith("The game is over: ")
    assert entries[-1].seat is None and entries[-1].kind == "rules"
    assert not entries[-1].chance


def test_the_pillars_log_says_who_becomes_start_player(
    games: dict[str, Playthrough[Any, Any]],
) -> None:
    pt = games["pillars"]
    entries = [e for s in log_entries(pt.game, pt.setup, pt.actions, newest_first=False)
               for e in s.entries]
    starts = [e for e in entries if e.text.endswith(" becomes the start player")]
    assert len(starts) >= 5 and all(e.kind == "rules" for e in starts)


def test_the_event_seen_with_ellen_is_told_when_phase_three_begins() -> None:
    """Found by seed: a game in which someone holds Ellen; each of her rounds' event is
    secret in the log until the last builder is placed, then told."""
    game = get_game("pillars")
    for seed in range(60):
        pt = play("pillars", seed, 4)
        if any(str(a).startswith("event ") and s == "peek"
               for a, s in zip(pt.actions, _steps(pt), strict=True)):
            break
    else:
        pytest.fail("no game in 60 seeds had Ellen out")
    entries = [e for s in log_entries(game, pt.setup, pt.actions, newest_first=False)
               for e in s.entries]
    peeks = [e.index for e in entries if e.text.endswith("looked at the coming event in secret")]
    told = [e for e in entries if e.kind == "rules" and e.text.startswith("The event of this")]
    assert peeks and len(told) == len(peeks)
    assert all(t.index > p for t, p in zip(told, peeks, strict=True))


def _steps(pt: Playthrough[Any, Any]) -> list[str]:
    game = pt.game
    state = game.initial_state(pt.setup)
    out = []
    for a in pt.actions:
        out.append(state.step)
        state = game.apply(state, a)
    return out


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_a_solo_game_log_names_the_automa_in_the_language(lang: str) -> None:
    i18n.set_language(lang)
    game = get_game("builders")
    pt: Playthrough[Any, Any] = Playthrough(game, game.setup(1), 1)
    rng = random.Random(1)
    while not game.is_over(pt.state):
        s = pt.state
        if game.current_player(s) == CHANCE:
            outs = game.chance_outcomes(s)
            pt.play(rng.choices([o for o, _p in outs], [p for _o, p in outs])[0])
        else:
            pt.play(rng.choice(game.legal_actions(s)))
    text = log_text(game, pt.record())
    assert not leaks(text, lang), leaks(text, lang)[:5]
    assert i18n._("the Automa") in text
