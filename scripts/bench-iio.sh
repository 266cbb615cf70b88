#!/usr/bin/env bash
# Benchmark (not a test): the cost of reading the accelerometer at 100 Hz, buffered against
# polled, from the fake device of Tests/IIOSensorsTests/Fixtures/fake-accel.umockdev under
# umockdev. Buffered: the device delivers a watermark of 10 scans every 100 ms, as a real IIO
# buffer with watermark 10 would. Polled: in_accel_*_raw read at 100 Hz.
# Prints, per run, CPU ms per second, reading-thread wake-ups per second, context switches
# per second and heap bytes and allocations per sample (see `shakectl bench-iio --help`).
#
#   scripts/bench-iio.sh [RUNS] [SECONDS]     (defaults 3 and 10)
#   SCRATCH_PATH=.build-iio scripts/bench-iio.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
seconds=${2:-10}
scratch=()
if [ -n "${SCRATCH_PATH:-}" ]; then scratch=(--scratch-path "$SCRATCH_PATH"); fi

swift build -c release --product shakectl "${scratch[@]}"
bin="$(swift build -c release --show-bin-path "${scratch[@]}")/shakectl"
fixture=Tests/IIOSensorsTests/Fixtures/fake-accel.umockdev
script=$(mktemp)
trap 'rm -f "$script"' EXIT
"$bin" bench-iio --make-script "$script" --seconds "$seconds" --rate 100

for mode in buffered polled; do
    for run in $(seq "$runs"); do
        printf '%s run %s: ' "$mode" "$run"
        umockdev-run -d "$fixture" -s "/dev/iio:device0=$script" -- \
            "$bin" bench-iio --mode "$mode" --rate 100 --seconds "$seconds" --format json 2>/dev/null
    done
done
