#!/usr/bin/env bash
# The Python the tests, the soak and the benchmarks run on: a virtual environment in .build/venv, made
# from Debian's python3 with its packages visible (--system-site-packages: the GTK tests need its
# PyGObject and pyatspi), with the varlink client and the harness (Tests/harness, editable) installed
# into it, never into the system's Python. Prints the environment's python; does nothing more when it
# is already there.
#
#   py=$(scripts/python-env.sh) && "$py" -m unittest discover -s Tests/python
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$PWD/.build/venv
python=$venv/bin/python
if ! "$python" -c "import varlink, shaked_harness" 2>/dev/null; then
    {
        scripts/ensure-packages.sh python3-venv
        /usr/bin/python3 -m venv --system-site-packages "$venv"
        "$python" -m pip install -q --disable-pip-version-check varlink
        "$python" -m pip install -q --disable-pip-version-check --no-build-isolation -e Tests/harness
    } >&2
fi
echo "$python"
