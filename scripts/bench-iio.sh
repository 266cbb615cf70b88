#!/usr/bin/env bash
# Benchmark (not a test): the cost of reading the accelerometer at 100 Hz, buffered against
# polled, beside iio-sensor-proxy in the same run (Tests/harness/shaked_harness/bench_iio_beside_proxy.py): the fake
# device of Tests/IIOSensorsTests/Fixtures/fake-accel.umockdev in a umockdev testbed, fed ten scans
# every 100 ms (as a real IIO buffer with watermark 10 would wake a reader) and the same reading in
# in_accel_*_raw; Debian's iio-sensor-proxy polling it with the accelerometer claimed by
# monitor-sensor, as on a phone; then `shakectl bench-iio` (buffered: the buffer; polled:
# in_accel_*_raw at POLL_RATE), which reads as the daemon does (its SensorService and detector). The
# device lies still, as a phone held to read does, except in buffered-moving, where it sways as in a
# walking hand (so the buffer is read every other watermark, while no stroke is under way, instead of
# every third). Prints, per run, one JSON line: CPU ms per second of the process and of the reading
# thread alone, reading-thread wake-ups per second, context switches per second, heap bytes and
# allocations per sample (see `shakectl bench-iio --help`), the process's CPU with the sensor closed
# afterwards and what reading adds (the difference), and iio-sensor-proxy's CPU ms per second over the
# same window.
# Then the floor: Tests/harness/iio_floor_reader.c, a C reader that only polls and reads the same
# buffer, what any reader pays under this harness (the kernel, umockdev's preload); floor-every-2 and
# floor-every-3 read it every second and third watermark by a timer, as shaked's reader does while its
# detector lets the samples wait (no stroke under way; at rest). The time-shared
# modes: iio-sensor-proxy buffered on a driver that refuses raw reads (under the kernel model), shaked
# sharing its buffer in time, and the floor doing the same opens, reads and closes every 100 ms. The
# polled modes read in_accel_*_raw at POLL_RATE Hz (default 60, the daemon's PollingRate): shakectl's
# polled reader (polled, polled-moving) and the floor reading the same three files at the same rate
# (floor-polled).
#
#   scripts/bench-iio.sh [RUNS] [SECONDS]     (defaults 3 and 10)
#   SCRATCH_PATH=.build-iio scripts/bench-iio.sh
#   SHAKECTL=/path/to/shakectl scripts/bench-iio.sh   (another build, for A/B; skips the build)
#   BENCH_MODES="time-shared floor-time-shared" scripts/bench-iio.sh   (only these modes)
#   POLL_RATE=100 BENCH_MODES="polled floor-polled" scripts/bench-iio.sh   (polling at another rate)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
seconds=${2:-10}
scratch=()
if [ -n "${SCRATCH_PATH:-}" ]; then scratch=(--scratch-path "$SCRATCH_PATH"); fi

if [ -z "${SHAKECTL:-}" ]; then
    swift build -c release --product shakectl "${scratch[@]}"
    SHAKECTL="$(swift build -c release --show-bin-path "${scratch[@]}")/shakectl"
fi
scripts/ensure-packages.sh iio-sensor-proxy python3-gi gir1.2-umockdev-1.0 dbus
python=$(scripts/python-env.sh)

# The floor: a reader in C that only polls and reads the buffer, under the same testbed.
floor=$(mktemp -d)/iio-floor-reader
cc -O2 -Wall -Wextra -Werror -o "$floor" Tests/harness/iio_floor_reader.c
# The kernel model, for the time-shared modes (iio-sensor-proxy's buffer enabled, raw reads refused).
export IIO_EXCLUSIVITY_SHIM=$(dirname "$floor")/libiio-exclusivity.so
cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$IIO_EXCLUSIVITY_SHIM" Tests/IIOExclusivity/iio-exclusivity.c -ldl
for mode in ${BENCH_MODES:-buffered buffered-moving floor floor-every-2 floor-every-3 polled polled-moving floor-polled time-shared time-shared-moving floor-time-shared}; do
    for run in $(seq "$runs"); do
        printf '%s run %s: ' "$mode" "$run"
        "$python" -m shaked_harness.bench_iio_beside_proxy "$(case $mode in floor*) echo "$floor" ;; *) echo "$SHAKECTL" ;; esac)" \
            "$mode" "$seconds"
    done
done
rm -rf "$(dirname "$floor")"
