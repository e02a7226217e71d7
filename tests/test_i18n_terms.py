"""Terminology: the catalogues use the seeds' own words (tests on the .po files, which the kiosk
reads).

* The Builders in Japanese: the terms of the Japanese help (seeds/004_*.txt): 設備 for the
  machines (never 機械), コイン as the counter of coins (never 枚 or the ¤ sign).
* The Pillars of the Earth in Chinese: the terms of the Chinese rules (seeds/000_*.txt and the
  terminology table of shared/rules/pillars.md): 轮 for a round (回合 is a Builders turn),
  利益牌 for privilege cards (never 特权), the board's areas as the rules name them.
* Default player names, colour names and "X's decision" read naturally ("轮到红方决定", not
  "Red决定").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from companion.builders.kiosk import names as BN
from companion.kiosk import catalogue, i18n
from companion.kiosk.i18n import _
from companion.pillars.kiosk import names as PN

PILLARS_CONTEXTS = {"pillars step help", "pillars card", "pillars craftsman", "pillars area"}


def _translations(lang: str) -> Iterator[tuple[str, str | None, str]]:
    """Every translation of ``lang``, in the core catalogue and each game's."""
    for m in (m for catalog in catalogue.read_all(lang) for m in catalog):
        if not m.id:
            continue
        msgid = m.id[0] if isinstance(m.id, tuple) else m.id
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for form in forms:
            yield msgid, m.context, form


def test_japanese_builders_terms() -> None:
    wrong = [
        (msgid, text)
        for msgid, _ctx, text in _translations("ja")
        if "機械" in text or "¤" in text or re.search(r"\{coins\}枚|コイン\d*枚", text)
    ]
    assert not wrong, wrong
    machines = [t for m, _c, t in _translations("ja") if "machine" in m.lower()]
    assert machines and all("設備" in t for t in machines), machines
    i18n.set_language("ja")
    assert _("{n} coins", n=5) == "5コイン"  # the seed's "５コイン"
    assert BN.builders_action_help("coins") == (
        "1・2・3アクションポイントを使って、1・3・6コインを獲得します。"
    )


def test_chinese_pillars_terms() -> None:
    wrong = [
        (msgid, text)
        for msgid, ctx, text in _translations("zh")
        if (ctx in PILLARS_CONTEXTS and "回合" in text) or "特权" in text or "¤" in text
    ]
    assert not wrong, wrong
    i18n.set_language("zh")
    seed = {  # shared/rules/pillars.md, "Terminology across editions", the seed's column
        "archbishop": "主教座下",
        "priory": "小修道院",
        "court": "国王宫廷",
        "market": "建筑市场",
        "cathedral": "大教堂",
        "kingsbridge": "Kingsbridge",
        "shiring": "Shiring",
        "castle": "Shiring城堡",
    }
    assert {area: PN.area_name(area) for area in seed} == seed
    assert i18n.resource_name("gold") == "黄金"
    assert PN.pillars_card_name("wood3") == "森林"
    assert PN.pillars_card_name("stone3") == "采石场"
    assert PN.pillars_card_name("sand3") == "采砂场"
    assert _("The Pillars of the Earth") == "地球支柱"  # the seed's 游戏名称


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "Red's decision"), ("zh", "轮到红方决定"), ("ja", "赤が選ぶ番")],
)
def test_default_names_read_naturally(lang: str, expected: str) -> None:
    from companion.kiosk.words import default_name

    i18n.set_language(lang)
    assert _("{name}'s decision", name=default_name("red")) == expected
    if lang == "zh":
        names = {default_name(c) for c in ("red", "blue", "yellow", "green")}
        assert names == {"红方", "蓝方", "黄方", "绿方"}
        # "{name}决定" with an English name read "Red决定": the sentence now starts with 轮到.
        assert _("{name}'s decision", name="Ann") == "轮到Ann决定"


def test_one_name_for_the_companion_per_language() -> None:
    """The companion is 助手 in Chinese and コンパニオン in Japanese, in the set-up as in the
    game (never 自動 or 自动)."""
    want = {"zh": "助手", "ja": "コンパニオン"}
    for lang, term in want.items():
        found = 0
        for msgid, _ctx, text in _translations(lang):
            mentions = re.sub(r"companion (export|games|replay)\b", "", msgid)
            if not re.search(r"\bcompanion\b", mentions, re.IGNORECASE) or not text:
                continue
            found += 1
            assert term in text, (lang, msgid, text)
            assert "自動" not in text and "自动" not in text, (lang, msgid, text)
        assert found >= 10, (lang, found)
