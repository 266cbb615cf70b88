#!/usr/bin/env bash
# The main job, as README.md gives it: shake to undo with no hardware. Starts the daemon on
# synthetic motion (`shaked --demo`) and the terminal notes app built on ShakeClient
# (`shakectl demo`) against it; the daemon stops when the app quits.
# Installs the Debian packages the build needs when missing (needs root or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/ensure-packages.sh pkg-config libiio-dev libudev-dev libsystemd-dev
command -v swift >/dev/null || { echo "error: no Swift toolchain on PATH (Swift 6.2 or later is needed)" >&2; exit 1; }

echo "building shaked and shakectl (the first build takes a few minutes) ..."
swift build --product shaked
swift build --product shakectl
bin=$(swift build --show-bin-path)

dir=$(mktemp -d /tmp/shaked-demo.XXXXXX)
socket="$dir/io.shaked.Undo"
# Preferences (shakectl preferences) stay in the demo's folder, not /var/lib/shaked.
STATE_DIRECTORY="$dir/state" "$bin/shaked" --demo --socket "$socket" 2>"$dir/shaked.log" &
daemon=$!
# Cleanup must not depend on the daemon being alive: it may have been killed, or have failed, before
# the app quits. Under `set -e` a failing `kill` in the trap would end the script there, with status 1
# and no log line, so every step here tolerates a daemon that is gone, and the script keeps the app's status.
stop_daemon() {
    local status=$?
    if kill "$daemon" 2>/dev/null; then
        wait "$daemon" 2>/dev/null || true
    else
        local daemon_status=0
        wait "$daemon" 2>/dev/null || daemon_status=$?
        echo "shaked had already stopped (exit status $daemon_status)" >&2
    fi
    echo "daemon log: $dir/shaked.log"
    exit "$status"
}
trap stop_daemon EXIT
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { cat "$dir/shaked.log" >&2; echo "error: shaked did not start" >&2; exit 1; }

echo "shaked is serving $socket (log: $dir/shaked.log); try shakectl status --socket $socket"
sleep 1
"$bin/shakectl" demo --socket "$socket"
