#!/usr/bin/env bash
# Builds shake-agent-keys into OUT (a folder): the client code for KWin's fake input protocol made with
# wayland-scanner from plasma-wayland-protocols' fake-input.xml, and the C program. Needs gcc,
# libwayland-dev, libwayland-bin (wayland-scanner) and plasma-wayland-protocols.
#
#   clients/shake-agent/keys/build.sh OUT      # prints OUT/shake-agent-keys
set -euo pipefail
out=${1:?usage: build.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
xml=/usr/share/plasma-wayland-protocols/fake-input.xml
[ -f "$xml" ] || { echo "error: $xml is missing: install plasma-wayland-protocols" >&2; exit 1; }
mkdir -p "$out"
wayland-scanner client-header "$xml" "$out/fake-input-client-protocol.h"
wayland-scanner private-code "$xml" "$out/fake-input-protocol.c"
gcc -O2 -Wall -Wextra -Werror -I"$out" -o "$out/shake-agent-keys" "$here/shake-agent-keys.c" \
    "$out/fake-input-protocol.c" $(pkg-config --cflags --libs wayland-client)
echo "$out/shake-agent-keys"
