"""The boot path, run for real minus the hardware (slow: `pytest -m slow`, as root, with network
to Debian; the commands and figures are in the README and tools/cage_proof/README.md).

- the install script and the unit in a Debian 12 container booted with systemd (nspawn): the
  kiosk starts, comes back after a kill, is restarted by the watchdog when frozen, and stays
  stopped when stopped;
- the kiosk through `companion session` in Cage's headless backend (Debian 13's cage 0.2.0),
  captured with grim, the same picture the kiosk draws itself; a key through a Wayland virtual
  keyboard changes it; a turned display; the kiosk killed gives the session its status;
- why Debian 12's cage 0.1.4 captures a full-screen pygame window as black (direct scan-out);
- the journal on a full 4 MB tmpfs: a message in the table's language, the game goes on.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.network]

ROOT = Path(__file__).resolve().parents[1]
WORK = Path(os.environ.get("COMPANION_PROOF_DIR", "/var/tmp/companion-proof"))


def need(*tools: str) -> None:
    assert os.geteuid() == 0, "these proofs make containers and chroots: run them as root"
    for tool in tools:
        assert shutil.which(tool), f"{tool} is missing: apt-get install it (see the README)"


def picture(path: Path) -> object:
    import numpy as np
    import pygame

    return np.asarray(pygame.surfarray.array3d(pygame.image.load(str(path))), dtype=int)


def own_render(size: tuple[int, int], rotation: int, tmp: Path) -> object:
    """The home screen as the kiosk draws it itself (SDL's dummy driver), for comparison."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import numpy as np
    import pygame

    from companion.journal import Journal
    from companion.kiosk.app import App
    from companion.kiosk.config import Config

    pygame.display.init()
    pygame.font.init()
    journal = Journal.open(tmp / "journal.sqlite3")
    app = App(Config(sound=False, rotation=rotation), size=size, fullscreen=False,
              journal=journal, config_path=tmp / "config.toml")
    app.render(force=True)
    app.present()
    array = np.asarray(pygame.surfarray.array3d(app.display), dtype=int)
    journal.close()
    return array


def close_to(a: object, b: object) -> float:
    """The share of pixels that differ by more than 48 levels in some channel."""
    import numpy as np

    return float((np.abs(np.asarray(a) - np.asarray(b)) > 48).any(axis=2).mean())


@pytest.mark.parametrize("rotation", [0, 90])
def test_the_kiosk_in_cage_is_seen_and_takes_a_key(tmp_path: Path, rotation: int) -> None:
    need("debootstrap", "unshare", "chroot")
    out = tmp_path / "out"
    run = subprocess.run(
        ["bash", str(ROOT / "tools/cage_proof/run.sh"), str(WORK / "cage"), str(out)],
        capture_output=True, text=True, env={**os.environ, "ROTATION": str(rotation)},
        timeout=1200,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    status = (out / "status.txt").read_text()
    assert "session_status=137" in status and "killed by SIGKILL" in status, status
    # captured once the picture stayed the same for 6 s (the queued start-up notices gone)
    assert "settled_after=" in status and "settled_after=never" not in status, status
    home = picture(out / "home.png")
    assert home.shape[:2] == (1280, 720)  # type: ignore[attr-defined]
    assert home.mean() > 20  # type: ignore[attr-defined] # not a black screen
    mine = own_render((1280, 720), rotation, tmp_path)
    assert close_to(home, mine) < 0.02, "the captured picture is not the kiosk's own"
    after = picture(out / "after_key.png")
    noise, change = close_to(home, mine), close_to(home, after)
    print(f"rotation {rotation}: vs its own render {noise:.4f}, after the key {change:.4f}")
    assert change > max(0.005, 5 * noise), "the key through the virtual keyboard changed nothing"


def test_cage_0_1_4_scans_a_full_screen_window_out(tmp_path: Path) -> None:
    need("cage", "grim", "convert", "setpriv")
    site = next((ROOT / ".venv/lib").glob("python3*/site-packages"))
    run = subprocess.run(
        ["bash", str(ROOT / "tools/cage_proof/scanout_0_1_4.sh")],
        capture_output=True, text=True, env={**os.environ, "PYGAME_DIR": str(site)},
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    counts = {
        label: (int(black), int(red))
        for label, black, red in re.findall(
            r"^(.*?): +cage .*? black (\d+)/5, red (\d+)/5", run.stdout, flags=re.M
        )
    }
    print(run.stdout)
    assert counts["full screen, as the kiosk"][0] >= 1  # scanned out: captured black
    assert counts["full screen, output turned 180°"] == (0, 5)  # composited: always red
    assert counts["full screen, without -d"] == (5, 0)  # the window hidden by SDL: black


def test_install_and_unit_in_a_booted_container() -> None:
    need("debootstrap", "systemd-nspawn", "nsenter", "bc")
    run = subprocess.run(
        ["bash", str(ROOT / "tools/nspawn_proof.sh"), str(WORK / "nspawn")],
        capture_output=True, text=True, timeout=1500,
    )
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert "install-pi.sh: exit 0" in out and "cannot write its code" in out
    assert "(re)started: active" in out
    assert "killed by SIGKILL (status 137) (Cage exited with status 0)" in out
    assert "Failed with result 'watchdog'" in out and "the frozen kiosk is gone" in out
    assert "kill 5: back after" in out and "starting it in safe mode" in out
    assert "kill 3: back after" in out and out.split("kill 3:")[1].split("\n")[0].endswith(
        "safe mode")  # three failures: the kill, the watchdog, kill 1, then kill 2, 3...
    assert "unit: active" in out
    assert "after 7 s: inactive; kiosk: none" in out


def test_a_full_4_mb_tmpfs_is_a_message_and_the_game_goes_on(tmp_path: Path) -> None:
    """The audit's reproduction: the journal on a 4 MB tmpfs, played until it is full."""
    need("mount", "umount")
    import random

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.engine import CHANCE, get_game
    from companion.engine.simulate import sample
    from tests.kiosk_helpers import make_app

    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], check=True)
    try:
        app = make_app(disk, language="ja")
        assert app.journal is not None
        game = get_game("pillars")
        rng = random.Random(3)
        filler = disk / "filler"
        with filler.open("wb") as f:  # leave the journal a little room, then none
            f.write(b"\0" * (4 * 1024 * 1024 - 600 * 1024))
        refused = None
        for _ in range(200):
            app.session = app.journal.start(game.setup(4), seed=rng.randrange(2**31))
            for _ in range(400):
                state = app.session.state
                if game.is_over(state):
                    break
                if game.current_player(state) == CHANCE:
                    action = sample(game.chance_outcomes(state), rng)
                else:
                    action = rng.choice(game.legal_actions(state))
                if not app.play(action):
                    refused = app.toast_text
                    break
            if refused:
                break
        assert refused is not None and "保存先がいっぱい" in refused, refused
        app.journal.close()
    finally:
        subprocess.run(["umount", str(disk)], check=False)
