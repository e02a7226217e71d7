#!/usr/bin/env bash
# The boot path seen working, minus the hardware: Cage's headless backend, the kiosk inside it
# through `companion session` with SDL's Wayland driver, grim screenshots, a key through a
# Wayland virtual keyboard, the kiosk killed.  Runs in a Debian 13 root (cage 0.2.0 on wlroots
# 0.18, python3-pygame) made with debootstrap, entered with chroot as the user nobody.
#
#   sudo tools/cage_proof/run.sh [WORKDIR] [OUTDIR]     # ROTATION=90 for a turned picture
#
# Needs root, debootstrap and network to Debian and PyPI (about 250 MB the first time).  Why a
# Debian 13 root and not this machine's Cage: tools/cage_proof/README.md.
set -euo pipefail
WORK=${1:-/var/tmp/companion-cage}
OUT=${2:-$WORK/out}
ROOT="$WORK/trixie"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "$WORK" "$OUT"
if [ ! -x "$ROOT/usr/bin/cage" ] || [ ! -d "$ROOT/usr/lib/python3.13/ensurepip" ]; then
    debootstrap --variant=minbase \
        --include=cage,grim,wtype,python3,python3-venv,python3-pygame,ca-certificates \
        trixie "$ROOT" http://deb.debian.org/debian > "$WORK/debootstrap.log"
fi
# The kiosk's Python packages: the base and the kiosk extra of pyproject.toml (read by
# tools/requirements.py, so the list cannot drift from the project's), in a venv that also sees
# Debian's python3-pygame (SDL 2.32 with its Wayland driver, which satisfies pygame>=2.5).
cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/" 2>/dev/null || true
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
chroot "$ROOT" update-ca-certificates > /dev/null 2>&1 || true
[ -x "$ROOT/venv/bin/python3" ] || chroot "$ROOT" python3 -m venv --system-site-packages /venv
mapfile -t REQUIREMENTS < <(python3 "$SRC/tools/requirements.py" --extras kiosk)
chroot "$ROOT" /venv/bin/pip install --quiet --disable-pip-version-check "${REQUIREMENTS[@]}" \
    > "$WORK/pip.log" 2>&1 || { cat "$WORK/pip.log" >&2; exit 1; }
mkdir -p "$ROOT/src" "$ROOT/out" "$ROOT/cage_proof"
cp "$SRC/tools/cage_proof/in_root.sh" "$ROOT/cage_proof/"
chmod 755 "$ROOT/cage_proof/in_root.sh"
chmod 777 "$OUT"
# shellcheck disable=SC2016 # the script runs in the new namespace, with its own arguments
unshare -m bash -c '
set -e
ROOT=$1 SRC=$2 OUT=$3 ROTATION=$4
mount --make-rprivate /
mount -t proc proc "$ROOT/proc"
mount --rbind /dev "$ROOT/dev"
mount -t tmpfs tmpfs "$ROOT/tmp"
mount -t tmpfs tmpfs "$ROOT/run"
mkdir -p "$ROOT/run/user/nobody"
chown nobody:nogroup "$ROOT/run/user/nobody"
chmod 700 "$ROOT/run/user/nobody"
mount --bind -o ro "$SRC" "$ROOT/src"
mount --bind "$OUT" "$ROOT/out"
chroot --userspec=nobody:nogroup "$ROOT" env -i PATH=/venv/bin:/usr/bin:/bin HOME=/tmp \
    XDG_RUNTIME_DIR=/run/user/nobody WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 \
    OUT=/out ROTATION="$ROTATION" /cage_proof/in_root.sh
' bash "$ROOT" "$SRC" "$OUT" "${ROTATION:-0}"
cat "$OUT/status.txt"
