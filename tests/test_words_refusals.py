"""Every refusal of both games in the table's language, from its rule tag and named fields:
each tag of the tables in docs/*.md has words in every language with its numbers in them, and
refusals met in random games read in Chinese and Japanese without a word of the engine's
English, notation or card ids."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.builders.refusals import REFUSALS
from companion.engine import CHANCE, IllegalAction, get_game
from companion.kiosk import i18n
from companion.kiosk.words import words_for
from companion.pillars.refusals import RULES

from .test_builders_explains import GAMES as BUILDERS_GAMES
from .test_builders_explains import NAMES, probes
from .test_pillars_explains import _candidates
from .test_words_actions import ALLOWED_ASCII, leaks

DOCS = Path(__file__).resolve().parents[1] / "docs"


def doc_tags(page: str) -> dict[str, tuple[str, ...]]:
    """The refusal table of ``docs/<page>``: tag -> fields (``?`` marks an optional one)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    section = text.split("## Refusals: rule tags and fields", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`"):
            fields = tuple(re.findall(r"`([a-z_]+\??)`", cells[1]))
            out[cells[0].strip("`")] = fields
    return out


SAMPLES: dict[str, dict[str, Any]] = {
    "pillars": {
        "player": 1, "owner": 0, "card": "mason3", "space": "priory1", "resource": "stone",
        "need": 7, "have": 3, "cost": 9, "gold": 4, "capacity": 4, "used": 4, "limit": 5,
        "value": 6, "round": 3, "card_round": 2, "colour": "green", "step": "craftsman",
        "verb": "take",
    },
    "builders": {
        "player": 1, "owner": 0, "card": "abbaye", "site": "grue-1", "cost": 4, "ap": 2,
        "coins": 7, "spent": 2, "turn": 12, "possible": 31, "place": "row", "row": "worker",
        "deck": "worker", "step": "reveal building", "kind": "NoneType",
    },
}

NUMBERS = {
    "need", "have", "cost", "gold", "capacity", "used", "limit", "value", "round",
    "card_round", "ap", "spent", "coins", "possible",
}
"""Fields that are numbers a sentence must say."""

UNSAID = {
    ("turn.ap", "coins"),
    ("send.ap", "coins"),
    ("over", "turn"),
    ("chance.revealed", "possible"),
}
"""Numbers a refusal need not say: the coins behind the extra-action hint, the turn number,
how many other cards could come up."""


def test_the_docs_tables_are_the_engines() -> None:
    assert set(doc_tags("pillars.md")) == set(RULES)
    assert set(doc_tags("builders.md")) == set(REFUSALS)


PAGES = sorted(
    p.name for p in DOCS.glob("*.md")
    if "## Refusals: rule tags and fields" in p.read_text(encoding="utf-8")
)
"""The docs pages with a refusal table: one per game, named after it."""


def test_each_game_has_its_refusal_table() -> None:
    assert PAGES == ["builders.md", "pillars.md"]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_every_documented_tag_has_words_with_its_numbers(page: str, lang: str) -> None:
    name = page.removesuffix(".md")
    i18n.set_language(lang)
    game = get_game(name)
    state = game.initial_state(game.setup(3))
    words = words_for(name)
    generic = i18n._("That is not allowed now")
    for tag, fields in doc_tags(page).items():
        values = {f.rstrip("?"): SAMPLES[name][f.rstrip("?")] for f in fields}
        english = f"the engine's English for {tag}"
        text = words.refusal(IllegalAction("x", english, tag, **values), state)
        assert text and text != generic and "English" not in text, (tag, text)
        for f, v in values.items():
            if f in NUMBERS and (tag, f) not in UNSAID:
                assert str(v) in text, (tag, f, text)
        assert not leaks(text, lang), (tag, text)


def _english_words(message: str) -> set[str]:
    return {w for w in re.findall(r"[A-Za-z]{2,}", message) if w not in ALLOWED_ASCII}


def _check(words: Any, exc: IllegalAction, state: Any, lang: str) -> str:
    text = str(words.refusal(exc, state))
    assert text and text != i18n._("That is not allowed now"), (exc.rule, str(exc))
    names = tuple(state.setup.names)
    assert not leaks(text, lang, names), (exc.rule, text)
    if lang != "en":
        for name in names:
            text = text.replace(name, " ")
        shared = _english_words(str(exc)) & set(re.findall(r"[A-Za-z]{2,}", text))
        assert not shared, (exc.rule, text, str(exc))
    return exc.rule


@pytest.mark.full  # whole random games (1 s of CPU): -m full; every tag's words by default
@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_pillars_refusals_of_random_games_are_in_the_language(lang: str) -> None:
    i18n.set_language(lang)
    game = get_game("pillars")
    words = words_for("pillars")
    tags: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.initial_state(game.setup(2 + seed % 3, start_player=seed % 2))
        seen: list[Any] = []
        while not game.is_over(state):
            for a in _candidates(state, rng, seen)[:12]:
                try:
                    game.apply(state, a)
                except IllegalAction as exc:
                    tags.add(_check(words, exc, state, lang))
            if game.current_player(state) == CHANCE:
                outs = game.chance_outcomes(state)
                action = rng.choices([o for o, _p in outs], [p for _o, p in outs])[0]
            else:
                legal = game.legal_actions(state)
                seen.extend(legal)
                action = rng.choice(legal)
            state = game.apply(state, action)
    assert len(tags) >= 15, sorted(tags)


@pytest.mark.full  # random games (2 s of CPU): -m full; every tag's words by default
@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_builders_refusals_of_random_games_are_in_the_language(lang: str) -> None:
    i18n.set_language(lang)
    game = get_game("builders")
    words = words_for("builders")
    tags: set[str] = set()
    for seed, (n, options, start) in enumerate(BUILDERS_GAMES):
        rng = random.Random(seed)
        state = game.initial_state(game.setup(NAMES[:n], start, options))
        for _step in range(300):
            for a in probes(state, rng):
                try:
                    game.apply(state, a)
                except IllegalAction as exc:
                    tags.add(_check(words, exc, state, lang))
            if game.is_over(state):
                break
            if game.current_player(state) == CHANCE:
                outs = game.chance_outcomes(state)
                action = rng.choices([o for o, _p in outs], [p for _o, p in outs])[0]
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)
    assert len(tags) >= 15, sorted(tags)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_shared_refusals_have_words(lang: str) -> None:
    from companion.engine import AmbiguousAction, MalformedAction, UndoBlocked

    i18n.set_language(lang)
    words = words_for("builders")
    state = get_game("builders").initial_state(get_game("builders").setup(2))
    for exc in (
        MalformedAction("coins 2", "write the AP spent with its unit: coins 2ap"),
        AmbiguousAction("compagnon-1111", ["a", "b"]),
        UndoBlocked("cannot undo reveal worker maitre-3200: it revealed information"),
    ):
        text = words.refusal(exc, state)
        assert text != i18n._("That is not allowed now")
        assert not leaks(text, lang), text
        if lang != "en":
            assert not _english_words(str(exc)) & set(re.findall(r"[A-Za-z]{2,}", text))


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_set_up_with_two_players_of_one_name_is_worded(lang: str) -> None:
    from companion.engine import PlayerSpec, SetupError
    from companion.kiosk.words import refusal_text

    i18n.set_language(lang)
    with pytest.raises(SetupError) as err:
        get_game("pillars").setup([PlayerSpec("Ann", "red"), PlayerSpec("Ann", "blue")])
    assert err.value.rule == "setup.names"
    text = refusal_text(err.value)
    assert text == i18n._("Two players have the same name: give each one a name of their own")
