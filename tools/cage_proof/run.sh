#!/usr/bin/env bash
# The boot path seen working, minus the hardware: Cage's headless backend, the kiosk inside it
# through `companion session` with SDL's Wayland driver, grim screenshots, a key through a
# Wayland virtual keyboard, the kiosk killed.  Runs in a Debian 13 root (cage 0.2.0 on wlroots
# 0.18, python3-pygame) made with debootstrap, entered with chroot as the user nobody.
#
#   sudo tools/cage_proof/run.sh [WORKDIR] [OUTDIR]     # ROTATION=90 for a turned picture
#
# Needs root, debootstrap and network to Debian (about 250 MB the first time).  Why a Debian 13
# root and not this machine's Cage: tools/cage_proof/README.md.
set -euo pipefail
WORK=${1:-/var/tmp/companion-cage}
OUT=${2:-$WORK/out}
ROOT="$WORK/trixie"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "$WORK" "$OUT"
if [ ! -x "$ROOT/usr/bin/cage" ]; then
    debootstrap --variant=minbase \
        --include=cage,grim,wtype,python3,python3-pygame,python3-platformdirs \
        trixie "$ROOT" http://deb.debian.org/debian > "$WORK/debootstrap.log"
fi
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
chroot --userspec=nobody:nogroup "$ROOT" env -i PATH=/usr/bin:/bin HOME=/tmp \
    XDG_RUNTIME_DIR=/run/user/nobody WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 \
    OUT=/out ROTATION="$ROTATION" /cage_proof/in_root.sh
' bash "$ROOT" "$SRC" "$OUT" "${ROTATION:-0}"
cat "$OUT/status.txt"
