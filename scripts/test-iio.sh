#!/usr/bin/env bash
# The IIO tests (Tests/IIOSensorsTests): real libudev and libiio against a fake sysfs and /dev
# made by umockdev, run under its preload (umockdev-wrapper). The device tests skip themselves
# without the preload, so this script fails if they were skipped. Then the kernel's exclusivity
# model (Tests/IIOExclusivity/iio-exclusivity.c) by itself, shaked beside the real iio-sensor-proxy
# in each of its modes under that model, Debian 12's 3.0 and Debian 13's 3.7, and the sharing matrix
# (docs/sensor-sharing.md).
#
#   scripts/test-iio.sh                      # builds into .build, then tests
#   SCRATCH_PATH=.build-iio scripts/test-iio.sh
#
# Needs the Debian packages umockdev libumockdev-dev libiio-dev libiio-utils libudev-dev, and for
# the sharing tests iio-sensor-proxy, python3-gi, gir1.2-umockdev-1.0, dbus, python3-dbusmock and a C
# compiler (installed here when missing), and a Debian 13 root (scripts/debian-root.sh, debootstrap).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-packages.sh iio-sensor-proxy python3-gi gir1.2-umockdev-1.0 dbus gcc python3-dbusmock util-linux
# Debian 13's iio-sensor-proxy 3.7 runs from a Debian 13 root (made once per machine; docs/testing.md).
scripts/debian-root.sh --suite trixie --arch amd64 iio-sensor-proxy umockdev libumockdev0 >/dev/null

for tool in umockdev-wrapper pkg-config; do
    command -v "$tool" >/dev/null || {
        echo "error: $tool not found; install: apt-get install umockdev libumockdev-dev libiio-dev libiio-utils libudev-dev" >&2
        exit 1
    }
done
scratch=()
if [ -n "${SCRATCH_PATH:-}" ]; then scratch=(--scratch-path "$SCRATCH_PATH"); fi

swift build --build-tests "${scratch[@]}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# In a PID namespace of its own (and its own /proc): the reader looks for a running iio-sensor-proxy
# there, and must not find one another test on this machine started.
unshare --pid --fork --mount-proc --kill-child umockdev-wrapper swift test --skip-build "${scratch[@]}" \
    --filter IIOSensorsTests 2>&1 | tee "$log" || status=$?
if grep -q "Suite DeviceTests skipped" "$log"; then
    echo "error: the umockdev device tests were skipped: the preload did not reach the test process" >&2
    exit 1
fi
[ "$status" -eq 0 ] || exit "$status"

bin=$(swift build --show-bin-path "${scratch[@]}")
shim="$bin/libiio-exclusivity.so"
cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$shim" Tests/IIOExclusivity/iio-exclusivity.c -ldl
echo "== the exclusivity model"
python3 Tests/IIOExclusivity/test_model.py "$shim"
echo "== the driver kinds as umockdev devices (Tests/harness/shaked_harness/iio_drivers.py)"
"$(scripts/python-env.sh)" Tests/IIOExclusivity/test_drivers.py "$shim"
python=$(scripts/python-env.sh)
for version in 3.0 3.7; do
    echo "== shaked beside iio-sensor-proxy $version"
    "$python" -W ignore::ResourceWarning -m shaked_harness.iio_sharing --shim "$shim" --shaked "$bin/shaked" \
        --proxy "$version"
done
echo "== the sharing matrix: {3.0, 3.7} x driver kinds x who starts first (docs/sensor-sharing.md)"
"$python" -W ignore::ResourceWarning -m shaked_harness.iio_matrix --shim "$shim" --shaked "$bin/shaked"
