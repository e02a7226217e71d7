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
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
    cat <<USAGE
usage: $0 [--dry-run] [--prefix DIR] [--user NAME] [--no-enable]
  --dry-run    print every step and change nothing
  --prefix     where the code and its virtual environment go (default $PREFIX)
  --user       the user the kiosk runs as (default $USER_NAME)
  --no-enable  install, but do not enable the unit at boot
USAGE
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --prefix) PREFIX=${2:?--prefix needs a folder}; shift ;;
        --user) USER_NAME=${2:?--user needs a name}; shift ;;
        --no-enable) ENABLE=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

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
run apt-get update
run apt-get install -y --no-install-recommends \
    cage python3-venv python3-pip python3-picamera2 python3-lgpio python3-gpiozero \
    fonts-noto-cjk libsdl2-2.0-0

echo "== the user $USER_NAME"
if id -u "$USER_NAME" >/dev/null 2>&1; then
    echo "  $USER_NAME exists"
else
    run useradd --system --home-dir /var/lib/companion --no-create-home \
        --shell /usr/sbin/nologin --user-group "$USER_NAME"
fi
for group in gpio video input render; do
    if getent group "$group" >/dev/null 2>&1; then
        run usermod -aG "$group" "$USER_NAME"
    else
        echo "  no group $group on this system: skipped"
    fi
done

echo "== the code in $PREFIX"
run mkdir -p "$PREFIX"
run rm -rf "$PREFIX/src"
run cp -a "$SRC" "$PREFIX/src"
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
# the unit's file system is read-only: compile now for a fast start
run "$PREFIX/venv/bin/python" -m compileall -q "$PREFIX/src/companion"

echo "== the logind session and the unit"
write /etc/pam.d/companion < "$SRC/systemd/companion.pam"
sed -e "s#@PREFIX@#$PREFIX#g" -e "s#^User=companion#User=$USER_NAME#" \
    -e "s#^Group=companion#Group=$USER_NAME#" "$SRC/systemd/companion.service" \
    | write /etc/systemd/system/companion.service
run systemctl daemon-reload
if [ "$ENABLE" -eq 1 ]; then
    run systemctl set-default graphical.target
    run systemctl enable companion.service
fi

echo "== done"
echo "  start it now:  sudo systemctl start companion"
echo "  check it:      $PREFIX/venv/bin/companion doctor"
echo "  its logs:      journalctl -u companion -b"
