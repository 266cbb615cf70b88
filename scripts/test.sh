#!/usr/bin/env bash
# The whole test suite, as README.md and .ci/run give it. Installs what is missing first
# (Debian packages; needs root or sudo), builds, and runs every test target.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/ensure-packages.sh pkg-config chromium umockdev libumockdev-dev libiio-dev libiio-utils libudev-dev tmux systemd
python3 -c "import varlink" 2>/dev/null || python3 -m pip install -q varlink
command -v swift >/dev/null || { echo "error: no Swift toolchain on PATH (Swift 6.2 or later is needed)" >&2; exit 1; }
[ -d ../shared/traces ] || { echo "error: the trace corpus must be at ../shared/traces, beside this checkout" >&2; exit 1; }

swift build --build-tests
swift test --skip-build --skip IIOSensorsTests
# The daemon through a real third-party varlink client (Python's varlink package).
python3 -W ignore::ResourceWarning -m unittest discover -s Tests/python
if [ -x scripts/test-iio.sh ]; then scripts/test-iio.sh; fi
scripts/test-package.sh
