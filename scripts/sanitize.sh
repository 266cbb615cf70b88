#!/usr/bin/env bash
# The daemon's tests under ThreadSanitizer and AddressSanitizer, failing on any report.
#
#   scripts/sanitize.sh              # thread, then address
#   scripts/sanitize.sh thread       # one of them
#
# Each sanitizer builds into its own scratch path (.build-tsan, .build-asan), so the ordinary
# .build is untouched. What runs: ShakeServiceTests and ShakeClientTests, the tests that start
# the real (sanitized) shaked (DaemonTests, and ShakectlTests' DaemonCommandTests and DemoTests),
# and IIOSensorsTests under umockdev-wrapper, as scripts/test-iio.sh runs them. Every sanitized
# process, the test runner and each daemon it starts, writes its reports to a folder (log_path);
# the run fails if a test fails or if any report was written, and prints the reports.
#
# Needs what scripts/test.sh and scripts/test-iio.sh need (umockdev, libiio, tmux, ...).
set -euo pipefail
cd "$(dirname "$0")/.."

kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(thread address)
for kind in "${kinds[@]}"; do
    case $kind in thread | address) ;; *) echo "usage: scripts/sanitize.sh [thread|address]" >&2; exit 2 ;; esac
done
command -v umockdev-wrapper >/dev/null || {
    echo "error: umockdev-wrapper not found; install: apt-get install umockdev libumockdev-dev libiio-dev libudev-dev" >&2
    exit 1
}

# Tests that run the daemon or its logic; the rest (detector, traces, configuration) is single-threaded
# and covered by the fuzz targets.
filter='ShakeServiceTests|ShakeClientTests|DaemonTests|DaemonCommandTests|DemoTests'

run() {
    local kind=$1 scratch reports status=0 start
    case $kind in thread) scratch=.build-tsan ;; address) scratch=.build-asan ;; esac
    reports=$(mktemp -d)
    start=$(date +%s)
    echo "== $kind sanitizer: building into $scratch" >&2
    swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" >&2
    local built=$(($(date +%s) - start))

    # Reports from every sanitized process go to files, so a daemon's report cannot be lost in a pipe.
    export TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=0:second_deadlock_stack=1"
    # Leaks are not checked here: LeakSanitizer flags XCTest, Foundation.Process and the test models'
    # own undo closures in the test runner. The fuzz targets check leaks; the soak checks RSS.
    export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=0:verify_asan_link_order=0"
    export SWIFT_BACKTRACE=enable=no
    swift test --skip-build --scratch-path "$scratch" --filter "$filter" >&2 || status=$?
    umockdev-wrapper swift test --skip-build --scratch-path "$scratch" --filter IIOSensorsTests >&2 || status=$?
    unset TSAN_OPTIONS ASAN_OPTIONS

    local tested=$(($(date +%s) - start - built)) count
    count=$(find "$reports" -type f | wc -l)
    echo "== $kind sanitizer: build ${built} s, tests ${tested} s, $count report file(s), test status $status"
    if [ "$count" -gt 0 ]; then
        for f in "$reports"/*; do echo "--- $f" >&2; head -60 "$f" >&2; done
        echo "error: the $kind sanitizer reported problems (all reports: $reports)" >&2
        return 1
    fi
    rm -rf "$reports"
    return "$status"
}

failed=0
for kind in "${kinds[@]}"; do run "$kind" || failed=1; done
exit "$failed"
