#!/usr/bin/env bash
# The IIO tests (Tests/IIOSensorsTests): real libudev and libiio against a fake sysfs and /dev
# made by umockdev, run under its preload (umockdev-wrapper). The device tests skip themselves
# without the preload, so this script fails if they were skipped.
#
#   scripts/test-iio.sh                      # builds into .build, then tests
#   SCRATCH_PATH=.build-iio scripts/test-iio.sh
#
# Needs the Debian packages umockdev libumockdev-dev libiio-dev libiio-utils libudev-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

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
umockdev-wrapper swift test --skip-build "${scratch[@]}" --filter IIOSensorsTests 2>&1 | tee "$log" || status=$?
if grep -q "Suite DeviceTests skipped" "$log"; then
    echo "error: the umockdev device tests were skipped: the preload did not reach the test process" >&2
    exit 1
fi
exit "$status"
