#!/usr/bin/env bash
# The whole test suite, as README.md and .ci/run give it. Installs what is missing first
# (Debian packages, with sudo when not root: the build's C libraries, umockdev, systemd's tools,
# tmux, Xvfb and the GTK stack, debhelper and lintian for the package), puts the Python varlink
# client and the harness into .build/venv (scripts/python-env.sh), builds, and runs every step.
#
# Each step prints one line: its name, how many of its tests passed and failed, and its time. A
# step's whole output goes to .build/test-logs/STEP.log; a failing step names its log and shows its
# last lines. The run ends with one line: `N passed, N failed`, over every step's tests.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$PWD/.build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log
passed=0 failed=0 steps_failed=0
suite_start=$SECONDS

# Counts from a step's log: Swift Testing's and XCTest's summaries, unittest's, or else the step
# itself as one test. Prints "PASSED FAILED".
count() {
    local kind=$1 log=$2 status=$3 total bad
    case $kind in
    swift)
        total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} in .*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
        bad=$(grep -E '^✘ Test .* failed after' "$log" | grep -vc '^✘ Test run with')
        echo "$((total - bad)) $bad" ;;
    unittest)
        total=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\}.*/\1/p' "$log" | tail -1)
        bad=$(sed -n 's/^FAILED (\(.*\))/\1/p' "$log" | tr ',' '\n' | grep -Eo '(failures|errors)=[0-9]+' | cut -d= -f2 |
            awk '{s += $1} END {print s + 0}')
        skipped=$(sed -n 's/.*skipped=\([0-9]*\).*/\1/p' "$log" | tail -1)
        echo "$((${total:-0} - bad - ${skipped:-0})) $bad" ;;
    fuzz)
        echo "$(grep -cE '^[a-z-]+: [0-9?]+ executions' "$log") $(grep -cE '^[a-z-]+: FAILED' "$log")" ;;
    *) [ "$status" -eq 0 ] && echo "1 0" || echo "0 1" ;;
    esac
}

# run_step LIMIT_MINUTES NAME KIND COMMAND...: KIND says how to count its tests (swift, unittest,
# fuzz, one, or none for a step that is not a test). A hang fails the step with its name.
run_step() {
    local limit=$1 name=$2 kind=$3 start=$SECONDS status=0
    shift 3
    local log="$logs/${name// /-}.log"
    # A function of this script runs in a bash of its own, so that timeout can run it.
    if declare -F "$1" >/dev/null; then set -- bash -c "$(declare -f "$1"); $1"; fi
    timeout --kill-after=30 "${limit}m" "$@" >"$log" 2>&1 </dev/null || status=$?
    # swift test runs the test bundle in a process group of its own, which timeout's kill misses: end
    # whatever a timed-out step left running from this checkout's build.
    [ "$status" -ne 124 ] || pkill -KILL -f "^$PWD/\.build/" 2>/dev/null || true
    local p=0 f=0 line
    [ "$kind" = none ] || read -r p f < <(count "$kind" "$log" "$status")
    [ "$status" -ne 0 ] && [ "$f" -eq 0 ] && [ "$kind" != none ] && f=1
    passed=$((passed + p)) failed=$((failed + f))
    line=$(printf '%-28s %s' "$name" "$([ "$kind" = none ] || echo "$p passed, $f failed, ")$((SECONDS - start)) s")
    if [ "$status" -eq 0 ]; then
        echo "ok    $line"
        return 0
    fi
    steps_failed=$((steps_failed + 1))
    local why="exit status $status"
    [ "$status" -eq 124 ] && why="timed out after $limit min"
    echo "FAIL  $line ($why); the whole output: $log"
    tail -n 15 "$log" | sed 's/^/      | /'
    [ "$kind" = none ] && { echo "$passed passed, $((failed + 1)) failed"; exit 1; }
    return 0
}

packages() {
    scripts/ensure-packages.sh pkg-config chromium umockdev libumockdev-dev libiio-dev libiio-utils libudev-dev \
        libsystemd-dev tmux systemd util-linux &&
        scripts/ensure-packages.sh xvfb xdotool openbox dbus at-spi2-core python3-pyatspi python3-gi gir1.2-gtk-4.0 \
            gir1.2-adw-1 gir1.2-atspi-2.0 python3-venv gnome-text-editor wtype phoc mousepad libatk-adaptor \
            python3-dbusmock &&
        # Every step's own packages, in one place: apt runs once, before the roots are made beside the steps.
        scripts/ensure-packages.sh iio-sensor-proxy gir1.2-umockdev-1.0 gcc python3-dbusmock dpkg-dev debhelper \
            lintian binutils udev python3 man-db debootstrap qemu-user-static binfmt-support debian-archive-keyring &&
        scripts/python-env.sh &&
        command -v swift &&
        { [ -d ../shared/traces ] || { echo "error: the trace corpus must be at ../shared/traces, beside this checkout"; false; }; }
}

run_step 15 "packages and venv" none packages
python=$PWD/.build/venv/bin/python
# What the Debian 13 step keeps between runs (its roots and the arm64 SDK: downloads, and package set-up
# under qemu, mostly waiting on the network and one core) is made beside the steps below, not after them,
# under a time limit of its own like every step (its time, cold and warm, is in docs/testing.md).
roots_log="$logs/Debian-13-roots.log" roots_start=$SECONDS roots_limit=60
rm -f "$logs/.roots-done"
{
    # The KWin step's root (scripts/test-kwin.sh) is made beside the Debian 13 roots, into a log of its own.
    timeout --kill-after=30 "${roots_limit}m" bash -c 'scripts/test-kwin.sh --prepare >"$1" 2>&1 & kwin=$!
        scripts/test-debian13.sh --prepare; status=$?
        wait "$kwin" || { echo "the KWin root failed: its log is $1"; tail -n 15 "$1"; status=1; }
        exit "$status"' prepare "$logs/KWin-root.log" >"$roots_log" 2>&1 </dev/null
    status=$?
    echo "$SECONDS" >"$logs/.roots-done"
    exit "$status"
} &
roots_pid=$!
# A run that ends before waiting for it (a failed build ends the script, as does Ctrl-C) ends it too.
# timeout leads a process group of its own and passes a SIGTERM on to it; what it ran may take a moment
# to clean up (debootstrap's own traps), and whatever is left after 30 s is killed.
end_roots() {
    local group
    group=$(pgrep -P "$roots_pid" -x timeout) || return 0
    kill -TERM "$group" 2>/dev/null
    for _ in $(seq 30); do pgrep -g "$group" >/dev/null || break; sleep 1; done
    kill -KILL -- "-$group" 2>/dev/null
    wait "$roots_pid" 2>/dev/null
}
trap end_roots EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
run_step 40 "build" none swift build --build-tests
run_step 30 "Swift tests" swift swift test --skip-build --skip IIOSensorsTests
# The daemon through a real third-party varlink client (Python's varlink package); a locked or idle
# session against python-dbusmock's logind on a private system bus (test_session_hints.py).
run_step 15 "Python varlink tests" unittest "$python" -W ignore::ResourceWarning -m unittest discover -s Tests/python
# The GTK 4 notes app (clients/gtk-notes) as a person uses it: Xvfb, xdotool, AT-SPI.
run_step 15 "GTK tests" unittest "$python" -W ignore::ResourceWarning -m unittest discover -s Tests/gtk -p "test_shake_notes.py"
# The session's prompt agent (clients/shake-agent): its naming with no display; then with shake-notes,
# GNOME Text Editor and Mousepad (GTK 3) under X11 (FeatherPad, Qt 5, with SHAKED_TEST_QT=1), and
# under headless phoc (Wayland). Each in a process of its own: pyatspi keeps the session bus it found
# when first imported.
run_step 5 "agent naming" unittest env PYTHONPATH=clients/shake-agent "$python" -W ignore::ResourceWarning \
    -m unittest discover -s Tests/gtk -p "test_agent_words.py"
run_step 15 "agent tests (X11)" unittest "$python" -W ignore::ResourceWarning -m unittest discover -s Tests/gtk \
    -p "test_shake_agent.py"
run_step 15 "agent tests (Wayland)" unittest "$python" -W ignore::ResourceWarning -m unittest discover -s Tests/gtk \
    -p "test_shake_agent_wayland.py"
# Hostile and well-behaved clients at once.
run_step 5 "soak" one scripts/soak --seconds 20 --clients 200 --binary .build/debug/shaked
run_step 20 "IIO tests under umockdev" swift scripts/test-iio.sh
# Each libFuzzer target for 20 s under AddressSanitizer (docs/testing.md).
run_step 25 "fuzzing" fuzz scripts/fuzz.sh all 20
run_step 30 "the Debian package" one scripts/test-package.sh
# The agent under KWin 6 (Wayland) with Debian 13's KWrite and KWeather, as on Plasma Mobile, in the
# Debian 13 root made beside the steps above (scripts/test-kwin.sh waits for it under debian-root.sh's lock).
run_step 20 "agent tests (KWin)" unittest scripts/test-kwin.sh
# The amd64 and arm64 packages in fresh Debian 13 roots, arm64 under qemu-user, built with Debian's Swift.
# The roots and the arm64 SDK are made once per machine and kept (/var/cache/shaked/roots), and with the
# arm64 build they are made beside the steps above (docs/testing.md has the times, cold and warm).
roots_status=0
wait "$roots_pid" || roots_status=$?
trap - EXIT INT TERM
roots_line=$(printf '%-28s %s' "Debian 13 roots (beside)" \
    "$(($(cat "$logs/.roots-done" 2>/dev/null || echo "$SECONDS") - roots_start)) s beside the steps above")
if [ "$roots_status" -eq 0 ]; then echo "ok    $roots_line"; else
    roots_why="exit status $roots_status"
    [ "$roots_status" -ne 124 ] || roots_why="timed out after $roots_limit min"
    echo "FAIL  $roots_line ($roots_why); the whole output: $roots_log"
    tail -n 15 "$roots_log" | sed 's/^/      | /'
    echo "$passed passed, $((failed + 1)) failed"
    exit 1
fi
run_step 30 "Debian 13 packages" one scripts/test-debian13.sh
echo "all steps in $((SECONDS - suite_start)) s; logs in ${logs#"$PWD"/}"
echo "$passed passed, $failed failed"
[ "$steps_failed" -eq 0 ]
