"""The Builders' card data, checked row by row against the card lists.

The lists are kept in the project as ``tests/data/builders_cards.json`` (written from the
CSV card lists by ``tools/card_fixture.py``), so these tests need nothing beside the clone."""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from companion.builders.cards import (
    APPRENTICES,
    BUILDING,
    BUILDINGS,
    MACHINE_IDS,
    OUTPUT,
    WAGE,
    WORKER,
    WORKERS,
    card_name,
    worker_id,
)

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "builders_cards.json"

RANKS = {"apprentice", "laborer", "craftsman", "master"}


def _rows(kind: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = json.loads(FIXTURE.read_text(encoding="utf-8"))[kind]
    return rows


def test_the_fixture_tool_reads_the_card_lists(tmp_path: Path) -> None:
    """``tools/card_fixture.py`` turns the CSV card lists into the fixture's form: here on two
    lists written for the test."""
    (tmp_path / "builders_buildings.csv").write_text(
        "kind,name_fr,name_en,req_S,req_W,req_K,req_T,coins,vp,out_S,out_W,out_K,out_T\n"
        "building,La tonnelle,Bower,1,0,0,1,8,0,0,0,0,0\n",
        encoding="utf-8",
    )
    (tmp_path / "builders_workers.csv").write_text(
        "type,wage,S,W,K,T\napprentice,2,1,1,0,0\n", encoding="utf-8"
    )
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from card_fixture import read_lists
    finally:
        sys.path.pop(0)
    made = read_lists(tmp_path)
    assert made["buildings"] == [
        {"kind": "building", "name_fr": "La tonnelle", "name_en": "Bower",
         "needs": [1, 0, 0, 1], "coins": 8, "vp": 0, "output": [0, 0, 0, 0]}
    ]
    assert made["workers"] == [{"rank": "apprentice", "wage": 2, "output": [1, 1, 0, 0]}]
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert fixture["buildings"][0] == made["buildings"][0]
    assert fixture["workers"][0] == made["workers"][0]


def _slug(french: str) -> str:
    """The id rule for buildings: the French name without its article, in ASCII."""
    name = re.sub(r"^(l'|la |le |les |une |un )", "", french.lower())
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")


def test_building_cards_match_the_card_list_row_by_row() -> None:
    rows = _rows("buildings")
    assert len(rows) == len(BUILDINGS) == 42
    for row, card in zip(rows, BUILDINGS, strict=True):
        assert card.kind == row["kind"]
        assert card.name_fr == row["name_fr"]
        assert card.name_en == row["name_en"]
        assert list(card.needs) == row["needs"], card.id
        assert card.coins == row["coins"], card.id
        assert card.vp == row["vp"], card.id
        assert list(card.output) == row["output"], card.id


def test_worker_cards_match_the_card_list_row_by_row() -> None:
    rows = _rows("workers")
    assert len(rows) == sum(c.count for c in WORKERS) == 42
    physical = [c for c in WORKERS for _ in range(c.count)]
    for row, card in zip(rows, physical, strict=True):
        assert card.rank == row["rank"]
        assert card.wage == row["wage"]
        assert list(card.output) == row["output"]


def test_counts_by_kind_and_rank() -> None:
    kinds = Counter(c.kind for c in BUILDINGS)
    assert kinds == {"building": 34, "machine": 8}
    ranks = Counter(c.rank for c in WORKERS for _ in range(c.count))
    assert ranks == {"apprentice": 6, "laborer": 12, "craftsman": 16, "master": 8}
    assert len(BUILDINGS) + sum(c.count for c in WORKERS) == 84


def test_ids_are_unique_ascii_slugs_of_the_french_names() -> None:
    ids = [c.id for c in BUILDINGS] + [c.id for c in WORKERS]
    assert len(ids) == len(set(ids)) == 42 + 41
    for card_id in ids:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", card_id), card_id
    for c in BUILDINGS:
        expected = _slug(c.name_fr)
        if c.is_machine:
            expected += "-1" if c.vp == 1 else "-2"
        assert c.id == expected
    for w in WORKERS:
        assert w.id == worker_id(w.rank, w.output)
        assert w.id.endswith("-" + "".join(map(str, w.output)))


def test_only_the_all_round_craftsman_has_two_copies() -> None:
    assert {c.id: c.count for c in WORKERS if c.count != 1} == {"compagnon-1111": 2}


def test_wages_outputs_and_machines() -> None:
    for w in WORKERS:
        assert w.rank in RANKS
        assert w.wage == sum(w.output)
        assert WAGE[w.id] == w.wage
        assert OUTPUT[w.id] == w.output
    assert len(MACHINE_IDS) == 8
    for m in MACHINE_IDS:
        card = BUILDING[m]
        assert WAGE[m] == 0 and card.coins == 0
        assert sum(card.output) == card.vp + 1
        produced = card.output.index(max(card.output))
        assert card.needs[produced] == 0
    assert len(APPRENTICES) == 6
    assert all(WORKER[a].wage == 2 for a in APPRENTICES)


def test_display_names_in_both_languages() -> None:
    assert card_name("abbaye") == "Abbey"
    assert card_name("abbaye", "fr") == "L'abbaye"
    assert card_name("grue-1") == "Crane (small)"
    assert card_name("grue-2", "fr") == "Une grue (grande)"
    assert card_name("maitre-3200") == "Master (3 stone, 2 wood)"
    assert card_name("compagnon-1111", "fr") == "Compagnon (1 pierre, 1 bois, 1 savoir, 1 tuile)"
    assert card_name("manoeuvre-0012") == "Laborer (1 knowledge, 2 tile)"
    with pytest.raises(KeyError):
        card_name("tour-eiffel")
