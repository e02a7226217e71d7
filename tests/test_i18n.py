"""The kiosk's translations: every string translated, every card named, every glyph in the fonts."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

from companion.builders import cards as B
from companion.kiosk import i18n, words
from companion.kiosk.i18n import (
    LANGUAGES,
    LOCALES,
    _,
    builders_action_help,
    placeholders,
    resource_name,
    source_strings,
    space_name,
    step_help,
)
from companion.kiosk.locale import en
from companion.kiosk.words import card_name
from companion.pillars import data as P
from companion.pillars.rules import STEPS

ROOT = Path(__file__).resolve().parents[1]
FONTS = ROOT / "assets" / "fonts"
FAMILIES = {"zh": "sc", "ja": "jp"}  # as companion.kiosk.fonts (which needs pygame) has them
TRANSLATED = ("zh", "ja")
LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


# -- (a) the UI strings ----------------------------------------------------------------------


def test_source_strings_are_found() -> None:
    found = source_strings()
    assert "{name} (round {n})" in found  # used by i18n.card_name
    assert all(where and ":" in where[0] for where in found.values())


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_source_string_is_translated(lang: str) -> None:
    catalog = LOCALES[lang].catalog
    missing = {s: w[0] for s, w in source_strings().items() if not catalog.get(s)}
    assert not missing, (
        f"{len(missing)} _() strings missing from companion/kiosk/locale/{lang}.py; "
        f"run .venv/bin/python tools/i18n_missing.py {lang}: {list(missing.items())[:10]}"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str) -> None:
    wrong = {
        key: value
        for key, value in LOCALES[lang].catalog.items()
        if placeholders(key) != placeholders(value)
    }
    assert not wrong, f"{lang}: placeholders differ: {wrong}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_are_not_empty_or_untranslated(lang: str) -> None:
    loc = LOCALES[lang]
    assert all(value.strip() for value in loc.strings())
    # Everything but a few symbols, abbreviations and English place names is really translated.
    same = {k for k, v in loc.catalog.items() if k == v}
    assert same <= {"OK", "AP", "VP", ", "}, same


def test_catalogs_have_the_same_keys() -> None:
    zh, ja = LOCALES["zh"], LOCALES["ja"]
    assert set(zh.catalog) == set(ja.catalog)


def test_placeholders() -> None:
    assert placeholders("{name}'s turn, round {n:d} {{literal}}") == ["{n:d}", "{name}"]
    assert placeholders("no fields") == []


# -- (b) names of cards, spaces and resources --------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_pillars_tables_match_the_engine(lang: str) -> None:
    loc = LOCALES[lang]
    assert set(loc.pillars_kinds) == set(P.KINDS)
    assert set(loc.pillars_cards) == set(P.RESOURCE_CARDS) | set(P.PRIVILEGES) | set(P.EVENTS)
    assert set(loc.areas) == set(P.AREA_NAMES)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_pillars_card_and_space_has_a_name(lang: str) -> None:
    cards = (*P.CRAFTSMEN, *P.RESOURCE_CARDS, *P.PRIVILEGES, *P.EVENTS)
    assert len(cards) == 36 + 9 + 16 + 10
    i18n.set_language(lang)
    for card in cards:
        name = card_name("pillars", card)
        assert name and name != P.card_name(card) and not LATIN.search(name), (card, name)
    for space in P.SPACES:
        name = space_name(space.id)
        assert name and name != P.space_name(space.id), (space, name)
    assert len({space_name(s.id) for s in P.SPACES}) == len(P.SPACES)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_builders_card_has_a_name(lang: str) -> None:
    loc = LOCALES[lang]
    assert set(loc.builders_cards) == set(B.BUILDING)
    assert set(loc.builders_ranks) == {w.rank for w in B.WORKERS}
    assert len(B.BUILDINGS) + sum(w.count for w in B.WORKERS) == 84
    i18n.set_language(lang)
    ids = (*B.BUILDING, *B.WORKER)
    names = {card: card_name("builders", card) for card in ids}
    for card, name in names.items():
        assert name and name != B.card_name(card) and not LATIN.search(name), (card, name)
    assert len(set(names.values())) == len(ids), "two cards share a name"


def test_english_names_come_from_the_engines() -> None:
    i18n.set_language("en")
    for card in (*P.CRAFTSMEN, *P.RESOURCE_CARDS, *P.PRIVILEGES, *P.EVENTS):
        assert card_name("pillars", card) == P.card_name(card)
    for space in P.SPACE_INDEX:
        assert space_name(space) == P.space_name(space)
    for card in (*B.BUILDING, *B.WORKER):
        assert card_name("builders", card) == B.card_name(card)


def test_composed_names() -> None:
    i18n.set_language("zh")
    assert card_name("pillars", "mason2") == "泥瓦匠（第2轮）"
    assert card_name("pillars", "mortar0r") == "砂浆搅拌师（起始）"
    assert space_name("court1") == "国王宫廷1号位"
    assert space_name("castle") == "Shiring城堡"
    assert card_name("builders", "maitre-3200") == "大师（3石头、2木头）"
    assert card_name("builders", "grue-2") == "起重机（大）"
    i18n.set_language("ja")
    assert card_name("pillars", "mason2") == "石工（ラウンド2）"
    assert space_name("market4") == "市場4番"
    assert card_name("builders", "apprenti-0011") == "見習い（知識1・瓦1）"


def test_short_names_and_areas() -> None:
    i18n.set_language("en")
    assert words.short_card_name("pillars", "mason2") == "Mason"
    assert words.short_card_name("pillars", "koenig") == P.card_name("koenig")
    assert words.short_card_name("builders", "maitre-3200") == "Master"
    assert words.short_card_name("builders", "abbaye") == "Abbey"
    assert i18n.area_name("court") == "the King's Court"
    i18n.set_language("zh")
    assert words.short_card_name("pillars", "woodworker1") == "木匠大师"
    assert i18n.kind_name("mason") == "泥瓦匠"
    assert i18n.area_name("court") == "国王宫廷"
    i18n.set_language("ja")
    assert words.short_card_name("builders", "apprenti-1100") == "見習い"
    assert i18n.builders_french_name("chateau-fort") == "Le château-fort"


def test_unknown_names_raise() -> None:
    for lang in LANGUAGES:
        i18n.set_language(lang)
        with pytest.raises(KeyError):
            card_name("pillars", "nope")
        with pytest.raises(KeyError):
            card_name("builders", "nope")
        with pytest.raises(KeyError):
            card_name("chess", "mason2")
        with pytest.raises(KeyError):
            resource_name("plutonium")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_resources(lang: str) -> None:
    i18n.set_language(lang)
    names = [resource_name(r) for r in i18n.RESOURCE_IDS]
    assert all(names) and len(set(names)) == len(names)
    assert resource_name(P.STONE) == resource_name("stone")
    if lang != "en":
        assert set(LOCALES[lang].resources) == set(i18n.RESOURCE_IDS)


def _sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?:\s|$)|[。！？]", text))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_step_help(lang: str) -> None:
    steps = {s for s, _who, _what in STEPS}
    assert set(en.STEP_HELP) == steps
    if lang != "en":
        assert set(LOCALES[lang].step_help) == steps
    i18n.set_language(lang)
    for step in steps:
        text = step_help(step)
        assert 1 <= _sentences(text) <= 3, (step, text)
    with pytest.raises(KeyError):
        step_help("nope")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_builders_action_help(lang: str) -> None:
    kinds = {"start", "recruit", "send", "coins", "buy action", "end turn"}
    assert set(en.BUILDERS_HELP) == kinds
    if lang != "en":
        assert set(LOCALES[lang].builders_help) == kinds
    i18n.set_language(lang)
    for kind in kinds:
        assert 1 <= _sentences(builders_action_help(kind)) <= 3
    assert builders_action_help("Buy") == builders_action_help("buy action")
    assert builders_action_help("end  turn") == builders_action_help("end turn")
    with pytest.raises(KeyError):
        builders_action_help("nope")


# -- (c) every character is in the bundled font of its language --------------------------------


def _cmap(path: Path) -> set[int]:
    return set(TTFont(str(path), lazy=True).getBestCmap())


def _uncovered(texts: list[str], cmap: set[int]) -> str:
    return "".join(sorted({ch for t in texts for ch in t if ch >= " " and ord(ch) not in cmap}))


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_font_covers_every_translation(lang: str, bold: bool) -> None:
    path = FONTS / f"NotoSansCJK{FAMILIES[lang]}-Subset-{'Bold' if bold else 'Regular'}.otf"
    loc = LOCALES[lang]
    missing = _uncovered([*loc.strings()], _cmap(path))
    assert not missing, f"{path.name} lacks {missing!r}: run .venv/bin/python tools/build_fonts.py"


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("family", ["sc", "jp"])
def test_every_font_covers_english_and_the_language_names(family: str, bold: bool) -> None:
    path = FONTS / f"NotoSansCJK{family}-Subset-{'Bold' if bold else 'Regular'}.otf"
    texts = [*i18n.english_strings(), *i18n.LANGUAGE_NAMES.values()]
    missing = _uncovered(texts, _cmap(path))
    assert not missing, f"{path.name} lacks {missing!r}: run .venv/bin/python tools/build_fonts.py"


# -- (d) look-up, fallback and formatting ------------------------------------------------------


def test_fallback_and_formatting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert i18n.language() == "en"
    assert _("Round {n}", n=3) == "Round 3"
    i18n.set_language("zh")
    assert i18n.language() == "zh"
    assert _("Round {n}", n=3) == "第3轮"
    assert _("No such string, {who}", who="Ann") == "No such string, Ann"
    assert _("Literal {braces} without arguments") == "Literal {braces} without arguments"
    i18n.set_language("ja")
    assert _("{name}'s turn", name="Ken") == "Kenの手番"
    assert _("No such string") == "No such string"
    # A broken or empty translation shows the English text instead of failing.
    monkeypatch.setitem(LOCALES["ja"].catalog, "Round {n}", "ラウンド{m}")
    assert _("Round {n}", n=2) == "Round 2"
    monkeypatch.setitem(LOCALES["ja"].catalog, "Round {n}", "")
    assert _("Round {n}", n=2) == "Round 2"


def test_languages() -> None:
    assert LANGUAGES == ("en", "zh", "ja")
    assert i18n.LANGUAGE_NAMES == {"en": "English", "zh": "简体中文", "ja": "日本語"}
    with pytest.raises(ValueError):
        i18n.set_language("fr")
    assert i18n.language() == "en"


def test_the_missing_strings_tool_runs() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "i18n_missing.py"), "--no-unused"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "# zh:" in out and "# ja:" in out
    for line in out.splitlines():
        if line.startswith("    "):
            assert re.fullmatch(r'    ".*": "",  # \S+:\d+( \(\+\d+\))?', line), line


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_registry_word_is_translated(lang: str) -> None:
    """Game titles and option names come from the games' registry records, not from ``_()``
    calls in the kiosk: they must be in every catalogue too."""
    from companion.engine.registry import specs

    catalog = LOCALES[lang].catalog
    words = []
    for spec in specs():
        words.append(spec.title)
        for opt in spec.options.values():
            if opt.label:
                words += [opt.label, *opt.labels]
    missing = [w for w in words if not catalog.get(w)]
    assert not missing, f"add to companion/kiosk/locale/{lang}.py: {missing}"
