"""Write ``tests/data/builders_cards.json`` from the shared card lists (``../shared/rules``).

The tests check the engine's Builders card data against this fixture, so they run on a clone
with nothing beside it.  Run it after the shared lists change, and ``--check`` to compare the
fixture with them (exit 1 on a difference)::

    .venv/bin/python tools/card_fixture.py
    .venv/bin/python tools/card_fixture.py --check
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "rules"
FIXTURE = ROOT / "tests" / "data" / "builders_cards.json"
RES = "SWKT"


def read_lists(folder: Path) -> dict[str, object]:
    """The fixture's content, read from the two CSV card lists in ``folder``."""
    with (folder / "builders_buildings.csv").open(encoding="utf-8", newline="") as f:
        buildings = [
            {
                "kind": r["kind"],
                "name_fr": r["name_fr"],
                "name_en": r["name_en"],
                "needs": [int(r[f"req_{x}"]) for x in RES],
                "coins": int(r["coins"]),
                "vp": int(r["vp"]),
                "output": [int(r[f"out_{x}"]) for x in RES],
            }
            for r in csv.DictReader(f)
        ]
    with (folder / "builders_workers.csv").open(encoding="utf-8", newline="") as f:
        workers = [
            {"rank": r["type"], "wage": int(r["wage"]), "output": [int(r[x]) for x in RES]}
            for r in csv.DictReader(f)
        ]
    return {
        "source": "shared/rules/builders_buildings.csv and builders_workers.csv, one entry a "
        "row in their order (resources stone, wood, knowledge, tile)",
        "buildings": buildings,
        "workers": workers,
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not SHARED.is_dir():
        print(f"card_fixture: {SHARED} is missing", file=sys.stderr)
        return 1
    if args == ["--check"]:
        same = json.loads(FIXTURE.read_text(encoding="utf-8")) == read_lists(SHARED)
        print(f"card_fixture: {FIXTURE} {'matches' if same else 'differs from'} {SHARED}")
        return 0 if same else 1
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(read_lists(SHARED), ensure_ascii=False, indent=1) + "\n",
                       encoding="utf-8")
    print(f"wrote {FIXTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
