#!/usr/bin/env bash
# The whole test suite, as README.md and .ci/run give it. Installs what is missing first
# (Debian packages; needs root or sudo), builds, and runs every test target.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/ensure-packages.sh pkg-config chromium umockdev libumockdev-dev libiio-dev libiio-utils libudev-dev libsystemd-dev tmux systemd util-linux
python3 -c "import varlink" 2>/dev/null || python3 -m pip install -q varlink
# The GTK app and its tests: Debian's Python (it has gi and pyatspi), a display server, a window
# manager, the accessibility bus. The `varlink` package goes into that Python too.
scripts/ensure-packages.sh xvfb xdotool openbox dbus at-spi2-core python3-pyatspi python3-gi gir1.2-gtk-4.0 \
    gir1.2-adw-1 gir1.2-atspi-2.0 python3-pip gnome-text-editor wtype phoc mousepad libatk-adaptor
/usr/bin/python3 -c "import varlink" 2>/dev/null || /usr/bin/python3 -m pip install -q --break-system-packages varlink
command -v swift >/dev/null || { echo "error: no Swift toolchain on PATH (Swift 6.2 or later is needed)" >&2; exit 1; }
[ -d ../shared/traces ] || { echo "error: the trace corpus must be at ../shared/traces, beside this checkout" >&2; exit 1; }

# Each step says when it starts and how long it took, and has a time limit far above what it
# needs here (minutes, see docs/testing.md), so a hang fails the run with the step's name instead of
# running into CI's own limit.
suite_start=$SECONDS
run_step() {
    local limit=$1 name=$2 start=$SECONDS
    shift 2
    echo "== test.sh: $name (limit ${limit} min)"
    local status=0
    timeout --kill-after=30 "${limit}m" "$@" || status=$?
    if [ "$status" -ne 0 ]; then
        local why="status $status"
        [ "$status" -eq 124 ] && why="timed out after $limit min"
        echo "test.sh: FAILED: $name ($why, after $((SECONDS - start)) s)" >&2
        exit 1
    fi
    echo "== test.sh: $name passed in $((SECONDS - start)) s"
}

run_step 40 "build" swift build --build-tests
run_step 20 "Swift tests" swift test --skip-build --skip IIOSensorsTests
# The daemon through a real third-party varlink client (Python's varlink package).
run_step 15 "Python varlink tests" python3 -W ignore::ResourceWarning -m unittest discover -s Tests/python
# The GTK 4 notes app (clients/gtk-notes) as a person uses it: Xvfb, xdotool, AT-SPI.
run_step 15 "GTK tests" /usr/bin/python3 -W ignore::ResourceWarning -m unittest discover -s Tests/gtk -p "test_shake_notes.py"
# The session's prompt agent (clients/shake-agent): its naming with no display; then with shake-notes,
# GNOME Text Editor and Mousepad (GTK 3) under X11 (FeatherPad, Qt 5, with SHAKED_TEST_QT=1), and under headless phoc (Wayland).
# Each in a process of its own: pyatspi keeps the session bus it found when first imported.
run_step 5 "agent naming" /usr/bin/python3 -W ignore::ResourceWarning -m unittest discover -s Tests/gtk -p "test_agent_words.py"
run_step 15 "agent tests (X11)" /usr/bin/python3 -W ignore::ResourceWarning -m unittest discover -s Tests/gtk -p "test_shake_agent.py"
run_step 15 "agent tests (Wayland)" /usr/bin/python3 -W ignore::ResourceWarning -m unittest discover -s Tests/gtk -p "test_shake_agent_wayland.py"
# Hostile and well-behaved clients at once.
run_step 5 "soak" scripts/soak.py --seconds 20 --clients 200 --binary .build/debug/shaked
run_step 20 "IIO tests under umockdev" scripts/test-iio.sh
# Each libFuzzer target for 20 s under AddressSanitizer (docs/testing.md: Adversarial tests).
run_step 25 "fuzzing" scripts/fuzz.sh all 20
run_step 30 "the Debian package" scripts/test-package.sh
echo "== test.sh: all passed in $((SECONDS - suite_start)) s"
