#!/usr/bin/env python3
"""The companion's Python packages, read from ``pyproject.toml``: the one list the install
script, the proofs and the arm64 check all use, so that none of them can drift from it.

    python3 tools/requirements.py                  # the run-time requirements, one a line
    python3 tools/requirements.py --extras kiosk   # the base and the kiosk extra's only
    python3 tools/requirements.py --extra-names    # the run-time extras: kiosk,panel,vision

Run-time means ``[project].dependencies`` and every optional extra except ``dev`` (the
development tools).  Standard library only (``tomllib``: Python 3.11, Debian 12's), so it runs
on a bare Debian or Raspberry Pi OS before anything is installed.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
NOT_RUN_TIME = ("dev",)


def project(path: Path = PYPROJECT) -> dict[str, object]:
    """The ``[project]`` table of ``path``; ValueError naming what is missing."""
    with path.open("rb") as f:
        data = tomllib.load(f)
    table = data.get("project")
    if not isinstance(table, dict):
        raise ValueError(f"{path}: no [project] table")
    return table


def extra_names(path: Path = PYPROJECT) -> list[str]:
    """The run-time extras, sorted (every optional extra but the development tools)."""
    extras = project(path).get("optional-dependencies", {})
    if not isinstance(extras, dict):
        raise ValueError(f"{path}: [project.optional-dependencies] is not a table")
    return sorted(name for name in extras if name not in NOT_RUN_TIME)


def requirements(extras: list[str] | None = None, path: Path = PYPROJECT) -> list[str]:
    """The base requirements and those of ``extras`` (default: every run-time extra), in the
    file's order; ValueError for an extra the file does not have."""
    table = project(path)
    base = table.get("dependencies", [])
    optional = table.get("optional-dependencies", {})
    assert isinstance(base, list) and isinstance(optional, dict)
    wanted = extra_names(path) if extras is None else extras
    out = list(base)
    for name in wanted:
        if name not in optional:
            raise ValueError(f"{path}: no extra {name!r} (the extras: {', '.join(optional)})")
        out += [r for r in optional[name] if r not in out]
    return [str(r) for r in out]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--extras", help="comma-separated extras (default: every run-time one)")
    parser.add_argument("--extra-names", action="store_true",
                        help="print the run-time extras' names, comma-separated")
    args = parser.parse_args(argv)
    try:
        if args.extra_names:
            print(",".join(extra_names()))
            return 0
        extras = [e for e in args.extras.split(",") if e] if args.extras is not None else None
        print("\n".join(requirements(extras)))
    except (OSError, ValueError, tomllib.TOMLDecodeError) as exc:
        print(f"requirements.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
