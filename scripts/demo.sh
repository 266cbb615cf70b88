#!/usr/bin/env bash
# The main job, as README.md gives it: shake to undo with no hardware. Starts the daemon on
# synthetic motion (`shaked --demo`) and the terminal notes app built on ShakeClient
# (`shakectl demo`) against it; the daemon stops when the app quits.
# Installs the Debian packages the build needs when missing (needs root or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(pkg-config libiio-dev libudev-dev)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "error: no Swift toolchain on PATH (Swift 6.2 or later is needed)" >&2; exit 1; }

echo "building shaked and shakectl (the first build takes a few minutes) ..."
swift build --product shaked
swift build --product shakectl
bin=$(swift build --show-bin-path)

dir=$(mktemp -d /tmp/shaked-demo.XXXXXX)
socket="$dir/io.shaked.Undo"
"$bin/shaked" --demo --socket "$socket" 2>"$dir/shaked.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null || true; echo "daemon log: $dir/shaked.log"' EXIT
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { cat "$dir/shaked.log" >&2; echo "error: shaked did not start" >&2; exit 1; }

"$bin/shakectl" demo --socket "$socket"
