#!/usr/bin/env bash
# Why a pygame window comes out black in grim under Debian 12's cage 0.1.4 (wlroots 0.15,
# headless, pixman): a plain red window, captured four ways.  Run as root on Debian 12 with
# cage, grim, python3 and imagemagick installed; PYGAME_DIR is a site-packages folder that
# holds pygame (it is copied where the user nobody can read it).
#
#   sudo PYGAME_DIR=.venv/lib/python3.11/site-packages tools/cage_proof/scanout_0_1_4.sh [N]
#
# Each case runs N times (default 5): the captures of a scanned-out window are black most of
# the time, not always, so the counts are what to read.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=$(mktemp -d /tmp/cage014-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
cp -r "${PYGAME_DIR:?set PYGAME_DIR}/pygame" "$WORK/"
[ -d "$PYGAME_DIR/pygame.libs" ] && cp -r "$PYGAME_DIR/pygame.libs" "$WORK/"
cp "$HERE/red.py" "$WORK/"
mkdir -m 700 "$WORK/rt" && chown nobody:nogroup "$WORK/rt"
chmod -R a+rX "$WORK"
N=${1:-5}
shot() {  # label, cage options, red.py argument, file name
    # shellcheck disable=SC2016 # expanded by the inner shell, from its arguments
    setpriv --reuid=nobody --regid=nogroup --clear-groups env -i PATH=/usr/bin:/bin \
        PYTHONPATH="$WORK" XDG_RUNTIME_DIR="$WORK/rt" WLR_BACKENDS=headless \
        WLR_LIBINPUT_NO_DEVICES=1 SDL_VIDEODRIVER=wayland bash -c '
        cage $2 -- /usr/bin/python3 "$1/red.py" $3 > "$1/rt/$4.log" 2>&1 &
        pid=$!
        sleep 4
        WAYLAND_DISPLAY=wayland-0 grim "$1/rt/$4.png"
        kill $pid; wait $pid 2>/dev/null || true' bash "$WORK" "$2" "$3" "$4"
    convert "$WORK/rt/$4.png" -format '%[fx:mean.r]' info:
}
count() {  # label, cage options, red.py argument, file name
    local red=0 black=0 other=0 mean
    for i in $(seq 1 "$N"); do
        mean=$(shot "$1" "$2" "$3" "$4-$i")
        case "$mean" in
            1) red=$((red + 1)) ;;
            0) black=$((black + 1)) ;;
            *) other=$((other + 1)) ;;
        esac
    done
    printf '%-34s cage %-9s black %d/%d, red %d/%d, other %d/%d\n' \
        "$1:" "${2:-(none)}" "$black" "$N" "$red" "$N" "$other" "$N"
}
count "full screen, as the kiosk" "-d" "" full
count "full screen, output turned 180°" "-d -r -r" "" turned
count "full screen, without -d" "" "" nodecor
