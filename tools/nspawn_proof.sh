#!/usr/bin/env bash
# The install script and the unit, for real, in a Debian 12 container booted with systemd as
# PID 1 (systemd-nspawn on a debootstrap root), minus the hardware: Cage uses its headless
# backend (a drop-in replaces tty1 and DRM).  Then: the kiosk is killed (it comes back), frozen
# (the watchdog ends and restarts it), killed five times more (it always comes back, in safe
# mode after three failures), and stopped (it stays stopped).  Prints the figures.
#
#   sudo tools/nspawn_proof.sh [WORKDIR]      # default /var/tmp/companion-nspawn
#
# Needs: debootstrap, systemd-container, bc; root; network to Debian and PyPI.  About 10 min the
# first time (debootstrap and pip), 2 min after.  Not part of `make test` (see README).
set -euo pipefail

WORK=${1:-/var/tmp/companion-nspawn}
ROOT="$WORK/rootfs"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$WORK"

if [ ! -x "$ROOT/lib/systemd/systemd" ]; then
    echo "== debootstrap Debian 12 into $ROOT"
    debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,python3,ca-certificates \
        bookworm "$ROOT" http://deb.debian.org/debian > "$WORK/debootstrap.log"
fi
# A TLS-inspecting proxy's certificates, if this machine trusts any, for pip in the container.
cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/" 2>/dev/null || true

# nspawn refuses to clean up under a /run that is not a tmpfs.
mkdir -p /run/systemd/nspawn
mountpoint -q /run/systemd/nspawn || mount -t tmpfs tmpfs /run/systemd/nspawn

echo "== boot the container (systemd as PID 1)"
systemd-nspawn -D "$ROOT" --register=no --keep-unit -b --console=read-only -q \
    > "$WORK/boot.log" 2>&1 < /dev/null &
NSPAWN=$!
trap 'kill "$NSPAWN" 2>/dev/null; wait "$NSPAWN" 2>/dev/null || true' EXIT
inside() {
    local pid1
    pid1=$(pgrep -P "$NSPAWN" -x systemd)
    nsenter --target "$pid1" --mount --uts --ipc --net --pid --cgroup -- \
        env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}
for _ in $(seq 1 60); do
    sleep 1
    state=$(inside systemctl is-system-running 2>/dev/null || true)
    case "$state" in running|degraded) break ;; esac
done
echo "  systemd in the container: $state"
inside update-ca-certificates > /dev/null 2>&1 || true

echo "== the install script, for real"
rm -rf "$ROOT/root/companion"
mkdir -p "$ROOT/root/companion"
git -C "$SRC" ls-files -z | (cd "$SRC" && xargs -0 tar cf -) | tar xf - -C "$ROOT/root/companion"
start=$(date +%s)
inside bash -c 'cd /root/companion && bash systemd/install-pi.sh' > "$WORK/install.log" 2>&1
echo "  install-pi.sh: exit 0 in $(( $(date +%s) - start )) s (log: $WORK/install.log)"
inside stat -c '  %U:%G %A %n' /opt/companion/src /opt/companion/src/companion/cli.py
if inside runuser -u companion -- touch /opt/companion/src/companion/x 2>/dev/null; then
    echo "  the kiosk's user can write its code: FAIL"; exit 1
fi
echo "  the kiosk's user cannot write its code"
echo "  default target: $(inside systemctl get-default) (unchanged)"

echo "== the unit, headless (this drop-in only replaces tty1 and DRM)"
mkdir -p "$ROOT/etc/systemd/system/companion.service.d"
cat > "$ROOT/etc/systemd/system/companion.service.d/headless.conf" <<'EOF'
[Unit]
ConditionPathExists=
[Service]
TTYPath=
StandardInput=null
Environment=WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1
EOF
cat > "$ROOT/usr/local/bin/kioskpid" <<'EOF'
#!/bin/sh
for p in /proc/[0-9]*; do
    if tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -q "^[^ ]*python[0-9.]* -m companion kiosk"; then
        echo "${p#/proc/}"; exit 0
    fi
done
exit 1
EOF
chmod +x "$ROOT/usr/local/bin/kioskpid"
inside systemctl daemon-reload
inside systemctl reset-failed companion 2>/dev/null || true
t0=$(date +%s.%N)
inside systemctl restart companion  # enabled: it started at boot already
echo "  (re)started: $(inside systemctl is-active companion), READY=1 after $(echo "$(date +%s.%N) - $t0" | bc) s"

# Wait until the unit runs a new main process; print how long it took.
back_after() {
    local before=$1 t0=$2 main state
    for _ in $(seq 1 150); do
        sleep 0.5
        main=$(inside systemctl show companion -p MainPID --value)
        state=$(inside systemctl is-active companion || true)
        if [ "$main" != "$before" ] && [ "$main" != 0 ] && [ "$state" = active ]; then
            echo "back after $(echo "$(date +%s.%N) - $t0" | bc) s (restarts: $(inside systemctl show companion -p NRestarts --value))"
            return 0
        fi
    done
    echo "NOT back"; return 1
}

echo "== kill the kiosk (SIGKILL)"
main=$(inside systemctl show companion -p MainPID --value)
inside sh -c "kill -KILL $(inside kioskpid)"
echo "  $(back_after "$main" "$(date +%s.%N)")"
inside journalctl -b --no-pager -o cat -n 40 | grep "companion session:" | tail -1 | sed 's/^/  /'

echo "== freeze the kiosk (SIGSTOP): the watchdog"
main=$(inside systemctl show companion -p MainPID --value)
frozen=$(inside kioskpid)
inside sh -c "kill -STOP $frozen"
echo "  $(back_after "$main" "$(date +%s.%N)")"
inside journalctl -b --no-pager -o cat -n 80 | grep -E "Watchdog timeout|SIGABRT|result 'watchdog'" | tail -3 | sed 's/^/  /'
if inside test -e "/proc/$frozen"; then echo "  the frozen kiosk is still there: FAIL"; exit 1; fi
echo "  the frozen kiosk is gone"

echo "== crash it again and again (5 SIGKILLs): never a dark screen, safe mode after 3"
# The old unit's StartLimitBurst=5 left it failed for good at the fifth kill in 10 minutes.
for n in 1 2 3 4 5; do
    main=$(inside systemctl show companion -p MainPID --value)
    inside sh -c "kill -KILL $(inside kioskpid)"
    line=$(back_after "$main" "$(date +%s.%N)") || { echo "  kill $n: $line"; exit 1; }
    mode=normal
    # shellcheck disable=SC2016 # $(kioskpid) is expanded inside the container
    if inside sh -c 'tr "\0" " " < /proc/$(kioskpid)/cmdline' | grep -q -- "--safe-mode"; then
        mode="safe mode"
    fi
    echo "  kill $n: $line, $(inside systemctl is-active companion), $mode"
done
echo "  unit: $(inside systemctl is-active companion), result: $(inside systemctl show companion -p Result --value)"
inside journalctl -b --no-pager -o cat -n 200 | grep "starting it in safe mode" | tail -1 | sed 's/^/  /'

echo "== stop"
inside systemctl stop companion
sleep 7
echo "  after 7 s: $(inside systemctl is-active companion || true); kiosk: $(inside kioskpid || echo none)"
