"""``companion session``: the kiosk inside the Cage kiosk compositor, and how it ended.

Cage exits when its client does, but before Cage 0.1.5 always with status 0 (Debian 12's
0.1.4: ``cage -- sh -c 'exit 3'`` gives 0), so systemd could not tell a crash from a quit.
The session does not rely on Cage's status: Cage runs a small shell that runs the kiosk and
writes the kiosk's exit status to a file when it ends (``128 + N`` when killed by signal N,
as the shell reports it).  The session waits for Cage, reads that file and exits with the
kiosk's own status; no file means the kiosk never reported (Cage failed, or the shell was
killed), which is a failure too.  So the unit's result and its restart are the kiosk's, on
any Cage version.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

# Run by Cage: the kiosk, then its status into the file named by $1.  Not ``exec``: the shell
# must outlive the kiosk to write down how it ended.
REPORTER = '"$@"; echo $? > "$0.tmp" && mv "$0.tmp" "$0"'

NO_REPORT = 1
"""The session's status when the kiosk left no report."""


def kiosk_command(config: str | None, *, safe: bool = False) -> list[str]:
    """The kiosk, full screen, with this Python (in safe mode with ``safe``)."""
    argv = [sys.executable, "-m", "companion", "kiosk", "--fullscreen"]
    if config:
        argv += ["--config", config]
    if safe:
        argv.append("--safe-mode")
    return argv


# -- repeated failures: the safe mode -----------------------------------------------------------

SAFE_MODE_AFTER = 3
"""Failures of the kiosk within CRASH_WINDOW after which the next start is in safe mode."""

CRASH_WINDOW = 600.0
"""Seconds (since boot) within which failures count together."""

KEEP_FAILURES = 20
"""How many failures the log keeps."""


@dataclass(frozen=True)
class Failure:
    """One time the kiosk ended badly: its status, when (seconds since boot, on which boot;
    the wall clock too, though a Pi without a clock battery may be wrong about it), and its
    last words if it left any (the unexpected error that ended it)."""

    status: int
    uptime: float
    boot: str
    when: str
    fault: str = ""

    def describe(self) -> str:
        return describe(self.status) + (f": {self.fault}" if self.fault else "")


def state_dir() -> Path:
    """Where the session keeps its notes: the unit's state folder (``$STATE_DIRECTORY``, from
    ``StateDirectory=``), else the user's state folder."""
    value = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if value:
        return Path(value)
    import platformdirs

    return Path(platformdirs.user_state_dir("companion", appauthor=False))


def failures_path() -> Path:
    """The log of the kiosk's recent failures (``kiosk-failures.json``)."""
    return state_dir() / "kiosk-failures.json"


def fault_note_path() -> Path:
    """Where the kiosk leaves its last words when an unexpected error ends it."""
    return state_dir() / "kiosk-fault.txt"


def boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
    except OSError:
        return ""


def uptime() -> float:
    """Seconds since boot (counting suspend): failures are timed by it, not by the wall
    clock, which a Pi sets only once it reaches the network."""
    clock = getattr(time, "CLOCK_BOOTTIME", time.CLOCK_MONOTONIC)
    return time.clock_gettime(clock)


def read_failures(path: Path) -> list[Failure]:
    """The failures in the log at ``path``, oldest first; [] for a missing or unreadable log
    (a bad log must never keep the kiosk from starting)."""
    try:
        with path.open("rb") as f:
            data = json.loads(f.read(256 * 1024).decode("utf-8"))
        return [
            Failure(int(d["status"]), float(d["uptime"]), str(d["boot"]), str(d["when"]),
                    str(d.get("fault", ""))[:FAULT_LIMIT])
            for d in data
        ][-KEEP_FAILURES:]
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return []


def recent_failures(
    failures: Sequence[Failure], boot: str, now: float, window: float = CRASH_WINDOW
) -> list[Failure]:
    """The failures of this boot within ``window`` seconds of ``now`` (seconds since boot)."""
    return [f for f in failures if f.boot == boot and 0 <= now - f.uptime <= window]


def note_ending(path: Path, status: int, fault: str = "") -> None:
    """Write down how the kiosk ended: a failure is added to the log; a normal end (a quit, a
    stop, safe mode's Start normally) clears it.  Never raises: a read-only or full disk
    only loses the note."""
    with contextlib.suppress(OSError):
        if status == 0:
            path.unlink(missing_ok=True)
            return
        failures = read_failures(path)
        failures.append(Failure(status, uptime(), boot_id(),
                                datetime.now(UTC).isoformat(timespec="seconds"),
                                fault[:FAULT_LIMIT]))
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps([asdict(f) for f in failures[-KEEP_FAILURES:]]),
                       encoding="utf-8")
        os.replace(tmp, path)


FAULT_LIMIT = 500
"""How much of the kiosk's last words is kept."""


def note_fault(text: str, path: Path | None = None) -> None:
    """The kiosk's last words (the unexpected error that ends it), for the session to log."""
    with contextlib.suppress(OSError):
        where = path or fault_note_path()
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(text[:FAULT_LIMIT], encoding="utf-8")


def take_fault_note(path: Path | None = None) -> str:
    """The kiosk's last words, if it left any (the note is removed)."""
    where = path or fault_note_path()
    try:
        with where.open("rb") as f:
            text = f.read(FAULT_LIMIT * 4).decode("utf-8", "replace")
        where.unlink()
    except OSError:
        return ""
    return " ".join(text.split())[:FAULT_LIMIT]


def run_session(cage: str, config: str | None, *, failures: Path | None = None) -> int:
    """The kiosk in Cage (:func:`run`), in safe mode when it failed SAFE_MODE_AFTER times
    within CRASH_WINDOW on this boot; how it ended is added to the log of failures.  The
    unit restarts the session whatever happens, so the kiosk never stays dark: after
    repeated failures it comes back in safe mode, which shows what failed and the journal's
    games."""
    log = failures or failures_path()
    recent = recent_failures(read_failures(log), boot_id(), uptime())
    safe = len(recent) >= SAFE_MODE_AFTER
    if safe:
        print(f"companion session: the kiosk failed {len(recent)} times in the last "
              f"{CRASH_WINDOW / 60:.0f} minutes ({recent[-1].describe()}): starting it in "
              "safe mode", file=sys.stderr)
    take_fault_note(log.with_name(fault_note_path().name))  # an old note is not this run's
    status = run(cage, kiosk_command(config, safe=safe))
    note_ending(log, status, take_fault_note(log.with_name(fault_note_path().name)))
    return status


def describe(status: int) -> str:
    """How the kiosk ended, in words, from the shell's ``$?``."""
    if status == 0:
        return "the kiosk quit normally"
    if status > 128:
        try:
            name = signal.Signals(status - 128).name
        except ValueError:
            name = f"signal {status - 128}"
        return f"the kiosk was killed by {name} (status {status})"
    return f"the kiosk exited with status {status}"


def runtime_dir() -> str | None:
    """Where Cage's socket and the status file go: the unit's own runtime folder
    (``$RUNTIME_DIRECTORY``, from ``RuntimeDirectory=``: writable under ProtectSystem=strict),
    else ``$XDG_RUNTIME_DIR`` if it is writable, else None (a temporary folder)."""
    for name in ("RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR"):
        value = os.environ.get(name, "").split(":")[0]
        if value and os.path.isdir(value) and os.access(value, os.W_OK | os.X_OK):
            return value
    return None


STOP_GRACE = 10.0
"""Seconds Cage has to end after SIGTERM before the whole session is killed."""


def _die_with_parent() -> None:
    """In Cage's process (before exec): SIGKILL when the session dies, whatever kills it."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _address(name: str) -> str:
    return "\0" + name[1:] if name.startswith("@") else name


def run(cage: str, kiosk: Sequence[str], *, cage_options: Sequence[str] = ("-d",)) -> int:
    """Run ``kiosk`` inside Cage and return the kiosk's own exit status (NO_REPORT if it left
    none).

    Under systemd the session is the unit's main process, and the only one systemd can be
    sure to hear from: pam_systemd moves the unit's processes into the logind session's scope,
    where systemd no longer tells them apart from any other process.  So the kiosk's
    notifications (READY=1, WATCHDOG=1, STOPPING=1) come to a socket of the session, which
    passes them on from its own process.  Cage, the shell and the kiosk form one process
    group that the session ends with itself: SIGTERM (a stop) is passed on to Cage, and after
    STOP_GRACE seconds, or at once on SIGABRT (systemd's watchdog) or SIGHUP, the group is
    killed; Cage also gets SIGKILL if the session itself is killed."""
    found = shutil.which(cage)
    if found is None:
        print(
            f"companion session: {cage!r} not found; install it with 'sudo apt install cage' "
            "(see the README's Pi guide)",
            file=sys.stderr,
        )
        return NO_REPORT
    runtime = runtime_dir()
    env = dict(os.environ)
    if runtime is not None:
        env["XDG_RUNTIME_DIR"] = runtime  # Cage's Wayland socket and the kiosk's status
    folder = Path(tempfile.mkdtemp(prefix="companion-session-", dir=runtime))
    report = folder / "kiosk-status"
    upstream = os.environ.get("NOTIFY_SOCKET", "")
    relay: socket.socket | None = None
    if upstream:
        relay = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        relay.bind(str(folder / "notify"))
        env["NOTIFY_SOCKET"] = str(folder / "notify")
    argv = [found, *cage_options, "--", "/bin/sh", "-c", REPORTER, str(report), *kiosk]
    proc = subprocess.Popen(  # noqa: S603 - our own command line
        argv, env=env, start_new_session=True, preexec_fn=_die_with_parent
    )
    deadline: list[float] = []

    def kill_group() -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        if signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            deadline.append(time.monotonic() + STOP_GRACE)
        else:  # SIGABRT from the watchdog, SIGHUP: the kiosk is stuck, end it now
            print(f"companion session: {signal.Signals(signum).name}: ending the kiosk",
                  file=sys.stderr)
            kill_group()

    watched = (signal.SIGTERM, signal.SIGINT, signal.SIGABRT, signal.SIGHUP)
    old = {s: signal.signal(s, on_signal) for s in watched}
    try:
        while proc.poll() is None:
            if deadline and time.monotonic() > deadline[0]:
                kill_group()
            if relay is None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=0.5)
                continue
            ready, _w, _x = select.select([relay], [], [], 0.5)
            if ready:
                message = relay.recv(4096)
                with contextlib.suppress(OSError):
                    relay.sendto(message, _address(upstream))
        cage_status = proc.returncode
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        kill_group()  # whatever Cage left behind: the shell, a kiosk that did not end
        if relay is not None:
            relay.close()
    try:
        text = report.read_text(encoding="ascii").strip()
        status = int(text) if text.isdigit() else None
    except OSError:
        status = None
    shutil.rmtree(folder, ignore_errors=True)
    if deadline:  # asked to stop (systemctl stop): however the kiosk ended, that is success
        print(f"companion session: stopped on request ({describe(status)})"
              if status is not None else "companion session: stopped on request",
              file=sys.stderr)
        return 0
    if status is None:
        print(
            f"companion session: the kiosk did not report how it ended (Cage exited with "
            f"status {cage_status}); treated as a failure",
            file=sys.stderr,
        )
        return NO_REPORT
    print(f"companion session: {describe(status)} (Cage exited with status {cage_status})",
          file=sys.stderr)
    return status
