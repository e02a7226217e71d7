#!/bin/sh
# Inside the Debian 13 root (cage 0.2.0), as an unprivileged user: the kiosk through
# `companion session` in Cage's headless backend; screenshots with grim; a key sent through a
# Wayland virtual keyboard (wtype); the kiosk killed.  Writes the pictures and status.txt to $OUT.
set -u
OUT=${OUT:-/out}
export PYTHONPATH=/src XDG_DATA_HOME=/tmp/data XDG_CONFIG_HOME=/tmp/config SDL_VIDEODRIVER=wayland
mkdir -p /tmp/config/companion
printf '[kiosk]\nsound = false\nrotation = %s\n' "${ROTATION:-0}" > /tmp/config/companion/config.toml
python3 -c "from companion import session; import sys; sys.exit(session.run('cage', session.kiosk_command(None)))" \
    > /tmp/session.log 2>&1 &
spid=$!
WAYLAND_DISPLAY=
for _ in $(seq 1 100); do
    sleep 0.1
    for socket in "$XDG_RUNTIME_DIR"/wayland-[0-9]; do
        [ -S "$socket" ] && WAYLAND_DISPLAY=${socket##*/}
    done
    [ -n "$WAYLAND_DISPLAY" ] && break
done
export WAYLAND_DISPLAY
# The home screen once it has settled: the start-up notices (4 s each, queued) gone, the
# picture the same for 6 s running (longer than a notice stays), at most 60 s after the start.
settled=
stable=0
for second in $(seq 1 60); do
    sleep 1
    grim /tmp/now.png 2>/dev/null || continue
    if [ -f /tmp/before.png ] && cmp -s /tmp/now.png /tmp/before.png; then
        stable=$((stable + 1))
    else
        stable=0
    fi
    mv /tmp/now.png /tmp/before.png
    if [ "$stable" -ge 6 ]; then
        settled=$second
        break
    fi
done
cp /tmp/before.png "$OUT/home.png"
# wtype's keyboard must exist a moment before it types: a client learns of a new keyboard
# only then (typed at once, the key is lost).  L is the kiosk's language key.
wtype -s 1500 l
sleep 1.5
grim "$OUT/after_key.png"
kpid=
for p in /proc/[0-9]*; do
    if tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -q "^[^ ]*python[0-9.]* -m companion kiosk"; then
        kpid=${p#/proc/}
    fi
done
kill -KILL "$kpid"
wait "$spid"
status=$?
{
    echo "session_status=$status"
    echo "settled_after=${settled:-never} s"
    grep "companion session:" /tmp/session.log
    cage -v 2>&1 | head -1
} > "$OUT/status.txt"
