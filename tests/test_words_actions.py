"""Every action of both games in words, in every language: ``action_text`` (what was done,
naming the player) and ``instruction`` (what the table does), never notation or card ids."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion.builders import cards as B
from companion.engine import CHANCE, PlayerSpec, get_game
from companion.kiosk import i18n
from companion.kiosk.words import default_name, player_name, words_for
from companion.pillars import data as P
from tests.sweeps import covered

IDS = {
    *P.CRAFTSMEN,
    *P.RESOURCE_CARDS,
    *P.PRIVILEGES,
    *P.EVENTS,
    *P.SPACE_INDEX,
    *B.BUILDING,
    *B.WORKER,
}
"""Card and space ids of both games: none may reach a sentence."""

@functools.cache
def name_words() -> frozenset[str]:
    """Words of the English names and texts (``Forge`` is an id and a name): read from the
    sources when a test first asks, not when the tests are collected."""
    return frozenset(w.lower() for text in i18n.english_strings()
                     for w in re.findall(r"[A-Za-z][A-Za-z0-9'-]*", text))

NOTATION = re.compile(r"\b\d+ap\b|\b[a-z]+\d+[a-z]?\b|\b[a-z]+-\d+\b")
"""Tokens shaped like notation: ``2ap``, ``mason2``, ``court1``, ``grue-1``, ``maitre-3200``."""

ALLOWED_ASCII = {"Kingsbridge", "Shiring", "AP", "VP"}
"""Latin words the Chinese and Japanese catalogues keep (the Chinese rules keep the towns'
English names; AP and VP are how the seeds write them)."""


def leaks(text: str, lang: str, names: tuple[str, ...] = ()) -> list[str]:
    """What in ``text`` is not the table's language: ids, notation, English words in zh/ja
    (the players' own ``names`` aside)."""
    for name in names:
        text = text.replace(name, " ")
    # The Chinese rules keep the towns' names: "Kingsbridge1号位" is space 1 of Kingsbridge.
    text = re.sub(r"(Kingsbridge|Shiring)(\d)(?=[号番])", r"\1 \2", text)
    words = re.findall(r"[A-Za-z][A-Za-z0-9'-]*", text)
    found = [w for w in words if w.lower() in IDS and w.lower() not in name_words()]
    found += NOTATION.findall(text)
    if lang != "en":
        found += [
            w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ALLOWED_ASCII
        ]
    return found


def walk(name: str, seed: int, players: int = 3, steps: int = 400) -> Iterator[tuple[Any, Any]]:
    """(state, action) pairs of a seeded random game: every legal action and chance outcome
    offered along the way, then the one taken."""
    game = get_game(name)
    state = game.initial_state(game.setup(players))
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over(state):
            return
        if game.current_player(state) == CHANCE:
            outs = game.chance_outcomes(state)
            options = [o for o, _p in outs]
            for o in options:
                yield state, o
            action = rng.choices(options, [p for _o, p in outs])[0]
        else:
            options = list(game.legal_actions(state))
            extra = getattr(game, "start_player_actions", None)
            if extra is not None:
                options += extra(state)
            for o in options:
                yield state, o
            action = rng.choice(options)
        state = game.apply(state, action)


@pytest.mark.parametrize(("name", "lang", "seed"), covered(
    [(name, lang, seed) for name in ("pillars", "builders") for lang in i18n.LANGUAGES
     for seed in (1, 2)]))
def test_every_action_in_words(name: str, lang: str, seed: int) -> None:
    i18n.set_language(lang)
    words = words_for(name)
    verbs: set[str] = set()
    for state, action in walk(name, seed):
        verbs.add(str(action).split()[0])
        for text in (words.action_text(state, action), words.instruction(state, action)):
            assert text and text != str(action)
            assert not leaks(text, lang), (str(action), text)
    assert len(verbs) >= 6


def test_sentences_name_the_player_and_the_numbers() -> None:
    p = get_game("pillars")
    words = words_for("pillars")
    state = p.initial_state(p.setup(4))
    texts = {}
    for s, a in walk("pillars", 5, 4):
        if a.verb == "take" and a.args[0] == "stone3" and s.turn >= 0:
            texts["take"] = (words.action_text(s, a), words.instruction(s, a), s.turn)
            break
    assert "take" in texts, "no game offered the quarry"
    done, todo, seat = texts["take"]
    who = state.setup.players[seat].name
    assert done == f"{who} took the quarry with 8 workers"
    assert todo == f"take the quarry, put 8 of {who}'s workers on it"
    b = get_game("builders")
    bw = words_for("builders")
    for s, a in walk("builders", 3):
        if str(a) == "buy action":
            who = s.setup.players[s.turn_player].name
            assert bw.action_text(s, a) == f"{who} bought an extra action for 5 coins"
            break
    else:
        pytest.fail("no game bought an action")
    assert b.name == "builders"


def test_default_names_read_naturally_in_each_language() -> None:
    g = get_game("pillars")
    setup = g.setup([PlayerSpec("Red", "red"), PlayerSpec("Alice", "blue")])
    assert player_name(setup, 0) == "Red" and player_name(setup, 1) == "Alice"
    i18n.set_language("zh")
    assert player_name(setup, 0) == "红方" == default_name("red")
    zh_setup = g.setup([PlayerSpec("红色", "red"), PlayerSpec("蓝色", "blue")])
    assert [player_name(zh_setup, k) for k in (0, 1)] == ["红方", "蓝方"]
    i18n.set_language("ja")
    assert [player_name(zh_setup, k) for k in (0, 1)] == ["赤", "青"]
    i18n.set_language("en")
    assert [player_name(zh_setup, k) for k in (0, 1)] == ["Red", "Blue"]
    # A name that is another colour's word is a name, not a default.
    odd = g.setup([PlayerSpec("Blue", "red"), PlayerSpec("Bob", "blue")])
    i18n.set_language("zh")
    assert player_name(odd, 0) == "Blue"


def test_the_hidden_event_stays_hidden() -> None:
    """Ellen's look at the coming event is logged without the card."""
    i18n.set_language("en")
    words = words_for("pillars")
    for seed in range(40):
        for s, a in walk("pillars", seed, 4, 600):
            if s.step == "peek":
                text = words.action_text(s, a)
                assert "looked at the coming event" in text
                assert P.card_name(str(a.args[0])) not in text
                return
    pytest.fail("no random game gave Ellen out in 40 seeds")


def test_hand_built_nonsense_is_worded_not_raised() -> None:
    from companion.builders.actions import Send, Start
    from companion.pillars.actions import Action

    p, b = get_game("pillars"), get_game("builders")
    ps = p.initial_state(p.setup(2))
    bs = b.initial_state(b.setup(2))
    for words, state, action in (
        (words_for("pillars"), ps, Action("take", ("nonsense",))),
        (words_for("pillars"), ps, Action("buy", ("stone",))),
        (words_for("builders"), bs, Start("nonsense")),
        (words_for("builders"), bs, Send("x", "y")),
    ):
        for text in (words.action_text(state, action), words.instruction(state, action)):
            assert text and "nonsense" not in text
