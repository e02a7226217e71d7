#!/usr/bin/env bash
# Install the companion on Raspberry Pi OS (Bookworm or Trixie, Lite or with the desktop) and
# start it at every boot.  Run it from a clone of the repository:
#
#   sudo systemd/install-pi.sh             # install or update
#   systemd/install-pi.sh --dry-run        # print every step, change nothing
#
# It is idempotent: running it again updates the code and the unit and changes nothing else.
set -euo pipefail

PREFIX=/opt/companion
USER_NAME=companion
DRY_RUN=0
ENABLE=1
DEFAULT_TARGET=
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
    cat <<USAGE
usage: $0 [--dry-run] [--prefix DIR] [--user NAME] [--no-enable] [--default-target T]
  --dry-run         print every step and change nothing
  --prefix          where the code and its virtual environment go (default $PREFIX): an
                    absolute path of its own, not a system folder
  --user            the user the kiosk runs as (default $USER_NAME)
  --no-enable       install, but do not enable the unit at boot
  --default-target  also make T the default boot target (e.g. multi-user.target, so that a
                    desktop image boots into the kiosk alone); unchanged unless given
USAGE
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --prefix) PREFIX=${2:?--prefix needs a folder}; shift ;;
        --user) USER_NAME=${2:?--user needs a name}; shift ;;
        --no-enable) ENABLE=0 ;;
        --default-target) DEFAULT_TARGET=${2:?--default-target needs a target}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

die() {
    echo "install-pi.sh: $*" >&2
    exit 2
}

# The install folder is emptied and refilled on every run: it must be a folder of its own.
check_prefix() {
    case "$PREFIX" in
        /*) ;;
        *) die "--prefix must be an absolute path, not '$PREFIX'" ;;
    esac
    while [ "${PREFIX%/}" != "$PREFIX" ]; do
        PREFIX=${PREFIX%/}
    done
    case "$PREFIX/" in
        */../*|*/./*|*//*) die "--prefix must be a plain path (no '.', '..' or '//'): '$PREFIX'" ;;
    esac
    case "$PREFIX" in
        ''|/bin|/boot|/boot/*|/dev|/dev/*|/etc|/etc/*|/home|/lib|/lib32|/lib64|/media|/mnt|\
        /opt|/proc|/proc/*|/root|/run|/run/*|/sbin|/srv|/sys|/sys/*|/tmp|/usr|/usr/*|/var|\
        /var/lib|/var/tmp|/var/log|/var/log/*|/var/cache|/var/cache/*|/var/lib/companion|\
        /var/lib/companion/*)
            die "--prefix '${PREFIX:-/}' is a system folder; choose a folder of its own, e.g. /opt/companion" ;;
    esac
    case "$PREFIX/" in
        "$SRC"/*) die "--prefix '$PREFIX' is inside the source folder $SRC" ;;
    esac
    case "$SRC/" in
        "$PREFIX"/*) die "--prefix '$PREFIX' holds the source folder $SRC" ;;
    esac
    if [ -e "$PREFIX" ] && [ ! -d "$PREFIX" ]; then
        die "--prefix '$PREFIX' exists and is not a folder"
    fi
    if [ -d "$PREFIX" ] && [ -n "$(ls -A "$PREFIX")" ] && [ ! -e "$PREFIX/.companion-install" ]; then
        die "--prefix '$PREFIX' is a folder with other files in it (no earlier install there); choose an empty or new folder"
    fi
}

check_user() {
    case "$USER_NAME" in
        root) die "--user must not be root: the kiosk runs unprivileged" ;;
        [a-z_]*) ;;
        *) die "--user '$USER_NAME' is not a valid user name" ;;
    esac
    case "$USER_NAME" in
        *[!a-z0-9_-]*) die "--user '$USER_NAME' is not a valid user name" ;;
    esac
}

check_prefix
check_user

# Print a step, and run it unless this is a dry run.
run() {
    echo "+ $*"
    if [ "$DRY_RUN" -eq 0 ]; then
        "$@"
    fi
}

# Write standard input to a file (printed, not written, in a dry run).
write() {
    local path=$1
    if [ "$DRY_RUN" -eq 1 ]; then
        echo "+ write $path:"
        sed 's/^/    /'
    else
        echo "+ write $path"
        cat > "$path"
    fi
}

if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    echo "run it as root (sudo $0), or with --dry-run to see the steps" >&2
    exit 1
fi

echo "== packages from Raspberry Pi OS"
# cage: the Wayland kiosk compositor; python3-picamera2 and python3-lgpio come from apt because
# they need libcamera and the Pi 5's GPIO library; fonts-noto-cjk is the fallback font.
# libsdl2-2.0-0 brings the Wayland client libraries (libwayland-client0, libwayland-egl1,
# libwayland-cursor0, libdecor-0-0) that the SDL inside the pygame wheel loads at run time:
# without them a pygame window inside Cage crashes (segmentation fault) instead of opening.
# libpam-systemd and dbus: the logind session of /etc/pam.d/companion (pam_systemd.so); a
# minimal Debian lacks them, and without them the unit fails at its PAM step (224/PAM).
PACKAGES="cage python3-venv python3-pip python3-gpiozero fonts-noto-cjk libsdl2-2.0-0"
PACKAGES="$PACKAGES libpam-systemd dbus"
# xwayland: Debian 12's cage 0.1.4 is built with Xwayland support and refuses to start without
# the Xwayland program ("Cannot create XWayland server"), though the package does not depend
# on it; it is also SDL's x11 fallback (SDL_VIDEODRIVER=wayland,x11).
PACKAGES="$PACKAGES xwayland"
# Mesa's EGL and GL drivers (v3d on the Pi, llvmpipe elsewhere): the SDL inside pygame draws the
# window through EGL, and a Lite image has no Mesa; without them the kiosk stops at
# "EGL not initialized" (found in the nspawn run).
PACKAGES="$PACKAGES libegl-mesa0 libgl1-mesa-dri libgles2"
# Raspberry Pi OS's own packages: elsewhere (plain Debian, a test container) they are skipped
# with a note, and the camera and the panel report themselves missing in `companion doctor`.
PI_PACKAGES="python3-picamera2 python3-lgpio"
run apt-get update
for package in $PI_PACKAGES; do
    if [ "$DRY_RUN" -eq 1 ] || apt-cache show "$package" >/dev/null 2>&1; then
        PACKAGES="$PACKAGES $package"
    else
        echo "  $package is not in this system's apt sources (not Raspberry Pi OS?): skipped"
    fi
done
# shellcheck disable=SC2086 # the package list is meant to split into words
run apt-get install -y --no-install-recommends $PACKAGES

echo "== the user $USER_NAME"
if id -u "$USER_NAME" >/dev/null 2>&1; then
    echo "  $USER_NAME exists"
else
    run useradd --system --home-dir /var/lib/companion --no-create-home \
        --shell /usr/sbin/nologin --user-group "$USER_NAME"
fi
GROUPS_FOUND=
for group in gpio video input render; do
    if getent group "$group" >/dev/null 2>&1; then
        run usermod -aG "$group" "$USER_NAME"
        GROUPS_FOUND="${GROUPS_FOUND:+$GROUPS_FOUND }$group"
    else
        echo "  no group $group on this system: skipped (and left out of the unit)"
    fi
done

echo "== the code in $PREFIX (owned by root, read-only for $USER_NAME)"
run mkdir -p "$PREFIX"
run touch "$PREFIX/.companion-install"
run rm -rf "$PREFIX/src"
# not cp -a: the copy must not keep the cloning user's ownership
run cp -R --no-preserve=ownership,mode "$SRC" "$PREFIX/src"
run rm -rf "$PREFIX/src/.venv" "$PREFIX/src/.git"
if [ -x "$PREFIX/venv/bin/python" ]; then
    echo "  $PREFIX/venv exists"
else
    # --system-site-packages: picamera2 and lgpio come from apt, not PyPI
    run python3 -m venv --system-site-packages "$PREFIX/venv"
fi
# editable: the package reads hardware/pins.toml and assets/fonts from the source folder
# -c: numpy stays on the major version apt's picamera2 was built with (see the file)
run "$PREFIX/venv/bin/pip" install --upgrade -e "$PREFIX/src[kiosk,vision,panel]" \
    -c "$PREFIX/src/systemd/constraints-pi.txt"
# the unit's file system is read-only: compile now for a fast start (the translations too: the
# kiosk would otherwise compile each .po in memory at every start, see docs/i18n.md)
run "$PREFIX/venv/bin/python" -m compileall -q "$PREFIX/src/companion"
# every catalogue: the core's (companion/kiosk/locale) and each game's (companion/<game>/locale),
# found in the source folder (the copy holds the same files)
for po in "$SRC"/companion/*/locale/*/LC_MESSAGES/*.po; do
    rel=${po#"$SRC"/}
    lang=$(basename "$(dirname "$(dirname "$rel")")")
    run "$PREFIX/venv/bin/pybabel" compile --statistics -l "$lang" -i "$PREFIX/src/$rel" \
        -o "$PREFIX/src/${rel%.po}.mo"
done
# root owns it all and only root can change it: the kiosk's user cannot alter its own code
run chown -R root:root "$PREFIX"
run chmod -R u+rwX,go+rX,go-w "$PREFIX"

echo "== the logind session and the unit"
write /etc/pam.d/companion < "$SRC/systemd/companion.pam"
# SupplementaryGroups lists only groups that exist: systemd refuses to start a unit naming a
# missing one (status 216/GROUP).  In a dry run every group is listed.
if [ "$DRY_RUN" -eq 1 ]; then
    GROUPS_FOUND="gpio video input render"
fi
sed -e "s#@PREFIX@#$PREFIX#g" -e "s#^User=companion#User=$USER_NAME#" \
    -e "s#^Group=companion#Group=$USER_NAME#" \
    -e "s#^SupplementaryGroups=.*#SupplementaryGroups=$GROUPS_FOUND#" \
    "$SRC/systemd/companion.service" \
    | write /etc/systemd/system/companion.service
run systemctl daemon-reload
if [ "$ENABLE" -eq 1 ]; then
    run systemctl enable companion.service
fi
if [ -n "$DEFAULT_TARGET" ]; then
    run systemctl set-default "$DEFAULT_TARGET"
else
    echo "  the default boot target is left as it is ($(systemctl get-default 2>/dev/null || echo unknown))"
fi

echo "== done"
echo "  start it now:  sudo systemctl start companion"
echo "  check it:      $PREFIX/venv/bin/companion doctor"
echo "  its logs:      journalctl -u companion -b"
