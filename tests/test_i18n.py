"""The kiosk's translations: every message translated with its placeholders, every card named,
every glyph in the fonts; the gettext catalogues (the core's and each game's: extraction,
sharing out, compilation, plurals, numbers)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

from companion.builders import cards as B
from companion.builders.kiosk import names as BN
from companion.builders.kiosk.names import builders_action_help
from companion.builders.kiosk.rules_help import BUILDERS_HELP
from companion.engine import registry
from companion.kiosk import catalogue, i18n, words
from companion.kiosk.catalogue import Catalogue
from companion.kiosk.i18n import (
    LANGUAGES,
    _,
    n_,
    placeholders,
    resource_name,
    source_plurals,
    source_strings,
)
from companion.kiosk.words import card_name
from companion.pillars import data as P
from companion.pillars.kiosk import names as PN
from companion.pillars.kiosk.names import space_name, step_help
from companion.pillars.kiosk.rules_help import STEP_HELP
from companion.pillars.rules import STEPS

ROOT = Path(__file__).resolve().parents[1]
FONTS = ROOT / "assets" / "fonts"
FAMILIES = {"zh": "sc", "ja": "jp"}  # as companion.kiosk.fonts (which needs pygame) has them
TRANSLATED = ("zh", "ja")
LATIN = re.compile(r"[A-Za-z]")


# -- (a) the catalogues: complete, same placeholders, really translated ------------------------


def _catalog(lang: str, cat: Catalogue = catalogue.CORE) -> Catalog:
    return catalogue.read(lang, cat.folder, cat.domain)


CATALOGUES = [pytest.param(c, id=c.domain) for c in catalogue.catalogues()]
"""The core catalogue and each built-in game's."""


def _forms(message: object) -> tuple[str, ...]:
    string = message.string  # type: ignore[attr-defined]
    return string if isinstance(string, tuple) else (string,)


def _live(catalog: Catalog) -> dict[i18n.MessageKey, tuple[str, ...]]:
    return {(m.id, m.context): _forms(m) for m in catalog if m.id}


def test_source_strings_are_found() -> None:
    found = source_strings()
    assert "{name} (round {n})" in found  # used by i18n.card_name
    assert all(where and ":" in where[0] for where in found.values())
    plurals = source_plurals()
    assert ("Last round: {n} turn left", "Last round: {n} turns left") in plurals
    assert ("{n} coin", "{n} coins") in plurals


def test_no_text_is_both_a_plain_message_and_a_plural() -> None:
    """gettext keys a plural message by its singular: ``_("{n} coin")`` next to
    ``n_("{n} coin", "{n} coins", k)`` would be one message.  Use ``n_`` at both."""
    singulars = {one: where for (one, _many), where in source_plurals().items()}
    both = {
        text: (where[0], singulars[text][0])
        for text, where in source_strings().items()
        if text in singulars
    }
    assert not both, f"_() and n_() share these texts (use n_ at both): {both}"


def test_pybabel_extract_finds_every_message(tmp_path: Path) -> None:
    """babel.cfg and the extraction method find exactly what the tests check (the ``_()`` and
    ``n_()`` literals, the tables of game words, the registry's words)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import i18n_update
    finally:
        sys.path.remove(str(ROOT / "tools"))
    template = i18n_update.extract(tmp_path / "companion.pot")
    extracted = {(m.id, m.context) for m in template if m.id}
    expected = set(i18n.catalogue_messages())
    assert extracted - expected == set(), "babel.cfg finds more than i18n.catalogue_messages()"
    assert expected - extracted == set(), "babel.cfg misses messages"
    mason = template.get("Mason", context="pillars craftsman")
    assert mason is not None and any("mason" in c for c in mason.auto_comments)
    # Shared out: every message goes to exactly one catalogue.
    parts = [{(m.id, m.context) for m in i18n_update.share(template, c) if m.id}
             for c in catalogue.catalogues()]
    assert sum(len(p) for p in parts) == len(extracted) and set().union(*parts) == extracted


def test_the_messages_are_shared_out_by_who_uses_them() -> None:
    """A message the core uses, or two games share, is the core's; one only a game uses (its
    card names, sentences, help, title) is that game's."""
    core, pillars, builders, *others = catalogue.catalogues()  # and any installed game's
    assert (pillars.game, builders.game) == ("pillars", "builders")
    assert pillars.folder == registry.spec("pillars").locale  # found through the spec
    mine = {c.domain: set(i18n.catalogue_messages(c))
            for c in (core, pillars, builders, *others)}
    assert ("Round {n}", None) in mine["companion"]  # the kiosk core says it
    assert ("Mason", "pillars craftsman") in mine["pillars"]
    assert ("The Pillars of the Earth", None) in mine["pillars"]  # the title, from its record
    assert (STEP_HELP["draft"], "pillars step help") in mine["pillars"]
    assert ("Abbey", "builders card") in mine["builders"]
    assert ("stone", "resource") in mine["companion"]  # both games have stone
    assert ("sand", "resource") in mine["pillars"] and ("tile", "resource") in mine["builders"]
    assert not (mine["companion"] & mine["pillars"] or mine["companion"] & mine["builders"])
    assert not mine["pillars"] & mine["builders"]
    assert set(i18n.catalogue_messages()) == set().union(*mine.values())


@pytest.mark.parametrize("cat", CATALOGUES)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_catalogue_holds_its_own_messages(lang: str, cat: Catalogue) -> None:
    """No message is in two catalogues (the look-up reads them in turn), and none lingers in
    one that no longer owns it."""
    live = set(_live(_catalog(lang, cat)))
    own = set(i18n.catalogue_messages(cat))
    assert live == own, f"run tools/i18n_update.py: {sorted(map(str, live ^ own))[:5]}"


@pytest.mark.parametrize("cat", CATALOGUES)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str, cat: Catalogue) -> None:
    live = _live(_catalog(lang, cat))
    fuzzy = {(m.id, m.context) for m in _catalog(lang, cat) if m.id and m.fuzzy}
    missing = {
        key: where[0]
        for key, where in i18n.catalogue_messages(cat).items()
        if key not in live or not all(live[key]) or key in fuzzy
    }
    assert not missing, (
        f"{len(missing)} messages missing, untranslated or fuzzy in "
        f"{cat.po(lang).relative_to(ROOT)}; run .venv/bin/python "
        f"tools/i18n_missing.py {lang}: {list(missing.items())[:10]}"
    )


@pytest.mark.parametrize("cat", CATALOGUES)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str, cat: Catalogue) -> None:
    wrong = {}
    for (msgid, context), forms in _live(_catalog(lang, cat)).items():
        english = placeholders(msgid[1] if isinstance(msgid, tuple) else msgid)
        if isinstance(msgid, tuple):
            assert placeholders(msgid[0]) == english, msgid
        for form in forms:
            if form and placeholders(form) != english:
                wrong[(msgid, context)] = form
    assert not wrong, f"{lang}: placeholders differ: {wrong}"


@pytest.mark.parametrize("cat", CATALOGUES)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_plural_forms_are_the_languages(lang: str, cat: Catalogue) -> None:
    catalog = _catalog(lang, cat)
    assert catalog.num_plurals == 1 and catalog.plural_expr == "0"
    for message in catalog:
        if message.id and isinstance(message.id, tuple):
            assert len(_forms(message)) == catalog.num_plurals, message.id


@pytest.mark.parametrize("cat", CATALOGUES)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_are_not_empty_or_untranslated(lang: str, cat: Catalogue) -> None:
    live = _live(_catalog(lang, cat))
    assert all(form.strip() for forms in live.values() for form in forms)
    # Everything but a few symbols, abbreviations and English place names is really translated.
    same = {m for (m, ctx), forms in live.items() if ctx is None and forms == (m,)}
    assert same <= {"OK", "AP", "VP", ", "}, same


@pytest.mark.parametrize("cat", CATALOGUES)
def test_catalogs_have_the_same_messages(cat: Catalogue) -> None:
    assert set(_live(_catalog("zh", cat))) == set(_live(_catalog("ja", cat)))


def test_placeholders() -> None:
    assert placeholders("{name}'s turn, round {n:d} {{literal}}") == ["{n:d}", "{name}"]
    assert placeholders("no fields") == []


def test_an_english_text_is_once_in_its_table() -> None:
    for table in catalogue.tables().values():
        assert len(set(table.english.values())) == len(table.english), table.name
    assert [t.name for t in catalogue.game_tables("pillars")] == [
        "PILLARS_KINDS", "PILLARS_CARDS", "AREAS", "AREA_LINES", "PILLARS_RESOURCES", "STEP_HELP"
    ]


def test_a_games_catalogue_is_found_through_its_spec(tmp_path: Path) -> None:
    """A game registered with a ``locale`` folder is translated from it, beside the core."""
    from dataclasses import replace

    from tests.toygame import SPEC

    _write_po(tmp_path, "ja", {"Sticks": "棒取り", "Round {n}": "棒{n}"}, domain="sticks")
    registry.register(replace(SPEC, locale=tmp_path))
    i18n._loaded.clear()
    try:
        assert "sticks" in [c.domain for c in catalogue.catalogues()[1:]]
        i18n.set_language("ja")
        assert _("Sticks") == "棒取り"
        assert _("Round {n}", n=2) == "ラウンド2"  # the core's wins over a game's
        pillars = catalogue.load("ja", registry.spec("pillars").locale, "pillars")
        title = registry.spec("pillars").title
        assert _(title) == pillars.gettext(title) != title  # and every other game's
        assert "棒取り" in set(i18n.Locale("ja").strings())
    finally:
        registry.unregister("sticks")
        i18n._loaded.clear()


# -- (b) names of cards, spaces and resources --------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_pillars_tables_match_the_engine(lang: str) -> None:
    tables = catalogue.tables()
    assert set(tables["PILLARS_KINDS"].english) == set(P.KINDS)
    assert set(tables["PILLARS_RESOURCES"].english) == {*P.RESOURCES, "gold"}
    cards = set(P.RESOURCE_CARDS) | set(P.PRIVILEGES) | set(P.EVENTS)
    assert set(tables["PILLARS_CARDS"].english) == cards
    assert set(tables["AREAS"].english) == set(P.AREA_NAMES)
    i18n.set_language(lang)
    for kind in P.KINDS:
        assert PN.kind_name(kind) != P.KIND_NAMES[kind], kind
    for area in P.AREA_NAMES:
        assert PN.area_name(area) not in ("", P.AREA_NAMES[area]) or area in {
            "kingsbridge",
            "shiring",
        }, area


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
    tables = catalogue.tables()
    assert set(tables["BUILDERS_CARDS"].english) == set(B.BUILDING)
    assert set(tables["BUILDERS_RANKS"].english) == {w.rank for w in B.WORKERS}
    assert set(tables["BUILDERS_RESOURCES"].english) == {*B.RESOURCES, "coins"}
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
    assert PN.area_name("court") == "the King's Court"
    i18n.set_language("zh")
    assert words.short_card_name("pillars", "woodworker1") == "木匠大师"
    assert PN.kind_name("mason") == "泥瓦匠"
    assert PN.area_name("court") == "国王宫廷"
    i18n.set_language("ja")
    assert words.short_card_name("builders", "apprenti-1100") == "見習い"
    assert BN.builders_french_name("chateau-fort") == "Le château-fort"


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
    ids = i18n.resource_ids()
    assert ids == {*P.RESOURCES, *B.RESOURCES, "gold", "coins"}
    names = [resource_name(r) for r in ids]
    assert all(names) and len(set(names)) == len(names)
    assert PN.resource_name(P.STONE) == resource_name("stone")
    if lang != "en":
        assert not set(names) & ids


def _sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?:\s|$)|[。！？]", text))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_step_help(lang: str) -> None:
    steps = {s for s, _who, _what in STEPS}
    assert set(STEP_HELP) == steps
    assert set(catalogue.tables()["STEP_HELP"].english) == steps
    i18n.set_language(lang)
    for step in steps:
        text = step_help(step)
        assert 1 <= _sentences(text) <= 3, (step, text)
    with pytest.raises(KeyError):
        step_help("nope")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_builders_action_help(lang: str) -> None:
    kinds = {"start", "recruit", "send", "coins", "buy action", "end turn"}
    assert set(BUILDERS_HELP) == kinds
    assert set(catalogue.tables()["BUILDERS_HELP"].english) == kinds
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
    texts = [t for read in catalogue.read_all(lang) for t in catalogue.translated_texts(read)]
    missing = _uncovered(texts, _cmap(path))
    assert not missing, f"{path.name} lacks {missing!r}: run .venv/bin/python tools/build_fonts.py"


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("family", ["sc", "jp"])
def test_every_font_covers_english_and_the_language_names(family: str, bold: bool) -> None:
    path = FONTS / f"NotoSansCJK{family}-Subset-{'Bold' if bold else 'Regular'}.otf"
    texts = [*i18n.english_strings(), *i18n.LANGUAGE_NAMES.values()]
    missing = _uncovered(texts, _cmap(path))
    assert not missing, f"{path.name} lacks {missing!r}: run .venv/bin/python tools/build_fonts.py"


# -- (d) look-up, fallback and formatting ------------------------------------------------------


def _write_po(
    root: Path, lang: str, entries: dict[str, str], domain: str = catalogue.DOMAIN
) -> Path:
    catalog = Catalog(locale=lang, domain=domain, fuzzy=False)
    for msgid, msgstr in entries.items():
        catalog.add(msgid, msgstr)
    path = catalogue.po_path(lang, root, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    from babel.messages.pofile import write_po

    with path.open("wb") as f:
        write_po(f, catalog)
    return path


def test_fallback_and_formatting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
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
    _write_po(tmp_path, "ja", {"Round {n}": "ラウンド{m}", "Scores": ""})
    monkeypatch.setitem(i18n._loaded, "ja", catalogue.load("ja", tmp_path))
    assert _("Round {n}", n=2) == "Round 2"
    assert _("Scores") == "Scores"


def test_plurals() -> None:
    assert n_("{n} turn left", "{n} turns left", 1) == "1 turn left"
    assert n_("{n} turn left", "{n} turns left", 0) == "0 turns left"
    assert n_("{card}: {n} use left", "{card}: {n} uses left", 2, card="Mason") == (
        "Mason: 2 uses left"
    )
    assert words.words_for("builders").money_label(1) == "1 coin"
    assert words.words_for("builders").money_label(12) == "12 coins"
    i18n.set_language("ja")
    one = n_("Last round: {n} turn left", "Last round: {n} turns left", 1)
    two = n_("Last round: {n} turn left", "Last round: {n} turns left", 2)
    assert one == "最終ラウンド：残り1手番" and two == "最終ラウンド：残り2手番"
    assert n_("Not in any {n} catalogue", "Not in any {n} catalogues", 3) == (
        "Not in any 3 catalogues"
    )
    i18n.set_language("zh")
    assert words.words_for("builders").money_label(1) == "1金币"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_through_babel(lang: str) -> None:
    i18n.set_language(lang)
    assert i18n.number(7) == "7"
    assert i18n.number(12345) == "12,345"  # the same grouping in en, zh and ja (CLDR)
    assert i18n.number(-2.5) == "-2.5"
    assert _("No such string, {n}", n=12345) == "No such string, 12,345"
    assert _("No such string, {n:d}", n=12345) == "No such string, 12345"  # its own spec
    assert _("No such string, {n}", n=True) == "No such string, True"


def test_a_fresh_mo_is_read_and_a_stale_one_is_not(tmp_path: Path) -> None:
    import os

    po = _write_po(tmp_path, "zh", {"Scores": "分数"})
    assert not catalogue.is_fresh("zh", tmp_path)
    assert catalogue.load("zh", tmp_path).gettext("Scores") == "分数"  # compiled in memory
    (mo,) = catalogue.compile_all(["zh"], tmp_path)
    assert catalogue.is_fresh("zh", tmp_path)
    mo.write_bytes(catalogue.compile_catalog(catalogue.read("zh", tmp_path)))
    assert catalogue.load("zh", tmp_path).gettext("Scores") == "分数"
    # A translator edits the .po after the .mo was built: the .po wins.
    _write_po(tmp_path, "zh", {"Scores": "得分"})
    os.utime(po, (mo.stat().st_mtime + 10, mo.stat().st_mtime + 10))
    assert not catalogue.is_fresh("zh", tmp_path)
    assert catalogue.load("zh", tmp_path).gettext("Scores") == "得分"


@pytest.mark.full  # make and pybabel in their own processes (1 s of CPU): -m full
def test_make_compiles_the_catalogues(tmp_path: Path) -> None:
    """`make catalogues` (a prerequisite of `make run` and `make test`) writes each .mo; run on
    a copy of the Makefile and the .po files, with this venv's pybabel."""
    assert re.search(r"^run: .*\$\(MO\)", (ROOT / "Makefile").read_text(), re.M)
    assert re.search(r"^test: .*\$\(MO\)", (ROOT / "Makefile").read_text(), re.M)
    (tmp_path / "Makefile").write_bytes((ROOT / "Makefile").read_bytes())
    cats = catalogue.catalogues()
    # the core's and each game's: every .po under companion/, and the third game's
    assert len(cats) == 1 + len(registry.specs()) >= 4
    for cat in cats:
        for lang in TRANSLATED:
            po = tmp_path / cat.po(lang).relative_to(ROOT)
            po.parent.mkdir(parents=True)
            po.write_bytes(cat.po(lang).read_bytes())
    bin_dir = Path(sys.executable).parent
    out = subprocess.run(
        ["make", "-C", str(tmp_path), "catalogues", f"BIN={bin_dir}"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    for cat in cats:
        root = tmp_path / cat.folder.relative_to(ROOT)
        for lang in TRANSLATED:
            assert catalogue.is_fresh(lang, root, cat.domain)
            assert catalogue.mo_path(lang, root, cat.domain).read_bytes() == (
                catalogue.compile_catalog(_catalog(lang, cat))
            ), "pybabel compile and catalogue.compile_catalog differ"
    assert "pybabel" in (ROOT / "systemd" / "install-pi.sh").read_text()  # the Pi's install


def test_languages() -> None:
    assert LANGUAGES == ("en", "zh", "ja")
    assert i18n.LANGUAGE_NAMES == {"en": "English", "zh": "简体中文", "ja": "日本語"}
    with pytest.raises(ValueError):
        i18n.set_language("fr")
    assert i18n.language() == "en"


def _tool(name: str) -> object:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(ROOT / "tools"))


def test_the_missing_strings_tool(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool("i18n_missing")
    assert tool.main(["--check"]) == 0  # type: ignore[attr-defined]
    out = capsys.readouterr().out
    for cat in catalogue.catalogues():
        assert f"# zh {cat.domain}: 0 missing" in out and f"# ja {cat.domain}: 0 missing" in out
    core, pillars, *_others = catalogue.catalogues()
    read = catalogue.read
    lacking = {
        "companion": catalogue.read("ja"),
        "pillars": catalogue.read("ja", pillars.folder, "pillars"),
    }
    lacking["companion"].delete("Undone: {action}")
    lacking["companion"].get("Round {n}").flags.add("fuzzy")  # type: ignore[union-attr]
    mason = lacking["pillars"].get("Mason", context="pillars craftsman")
    mason.string = ""  # type: ignore[union-attr]

    def fake(lang: str, root: Path = catalogue.LOCALE_DIR, domain: str = "companion") -> Catalog:
        return lacking[domain] if lang == "ja" else read(lang, root, domain)

    monkeypatch.setattr(catalogue, "read", fake)
    found = tool.missing("ja", core)  # type: ignore[attr-defined]
    assert {k: state for k, (state, _w) in found.items()} == {
        ("Undone: {action}", None): "absent",
        ("Round {n}", None): "fuzzy",
    }
    found = tool.missing("ja", pillars)  # type: ignore[attr-defined]
    assert {k: state for k, (state, _w) in found.items()} == {
        ("Mason", "pillars craftsman"): "untranslated",
    }
    entry = tool.entry("Mason", "pillars craftsman", ["PILLARS_KINDS['mason']"])  # type: ignore[attr-defined]
    assert entry.splitlines()[1:] == ['msgctxt "pillars craftsman"', 'msgid "Mason"', 'msgstr ""']


def test_the_update_tool_obsoletes_and_revives() -> None:
    tool = _tool("i18n_update")
    catalog = Catalog(locale="ja", fuzzy=False)
    catalog.add("Kept", "残る")
    catalog.add("Gone", "消える")
    template = Catalog(fuzzy=False)
    template.add("Kept")
    template.add("New")
    tool.update(catalog, template)  # type: ignore[attr-defined]
    assert catalog.get("Kept").string == "残る"  # type: ignore[union-attr]
    assert not catalog.get("New").string  # type: ignore[union-attr]
    assert catalog.get("Gone") is None and "Gone" in catalog.obsolete
    template.add("Gone")
    tool.update(catalog, template)  # type: ignore[attr-defined]
    assert catalog.get("Gone").string == "消える"  # type: ignore[union-attr]


def test_every_registry_word_is_translated() -> None:
    """Game titles and option names come from the games' registry records, not from ``_()``
    calls in the kiosk: they are extracted too, and translated."""
    from companion.engine.registry import specs

    words = catalogue.registry_words()
    assert {s.title for s in specs()} <= set(words)
    messages = i18n.catalogue_messages()
    assert all((w, None) in messages for w in words)
    for cat in catalogue.catalogues()[1:]:  # each game's own words are in its catalogue or shared
        assert cat.game is not None
        own = i18n.catalogue_messages(cat)
        assert (registry.spec(cat.game).title, None) in own
    for lang in TRANSLATED:
        i18n.set_language(lang)
        assert all(_(w) != w for w in words), lang


def test_locales_list_the_translations() -> None:
    assert list(i18n.LOCALES) == ["zh", "ja"] and len(i18n.LOCALES) == 2
    ja = i18n.LOCALES["ja"]
    assert ja.catalog["Round {n}"] == "ラウンド{n}"
    assert "Mason" not in ja.catalog  # a name has a context: not a plain message
    assert "石工" in set(ja.strings())
    assert i18n.LOCALES["ja"] is ja
    with pytest.raises(KeyError):
        i18n.LOCALES["en"]


@pytest.mark.parametrize("lang", catalogue.TRANSLATED)
def test_the_compiled_messages_are_the_catalogues_translated_ones(lang: str) -> None:
    """``compiled_messages`` (what the line breaker's glossary reads: the loaded .mo, not the
    .po files) gives every translated, non-fuzzy, singular message of the .po files, with its
    context, and nothing else."""
    from_po = {
        (m.context, str(m.id), m.string)
        for catalog in catalogue.read_all(lang)
        for m in catalog
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
        and not m.fuzzy
    }
    from_mo = set(i18n.compiled_messages(lang))
    assert from_mo == from_po
    assert any(context is not None for context, _e, _t in from_mo)
