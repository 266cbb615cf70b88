"""shaked's Python harness: the daemon and desktop the tests drive, the soak, the benchmarks, memory
readings from /proc, and a raw varlink connection. Installed into the build folder's virtual
environment by scripts/python-env.sh (editable, so the files here are the ones that run); the
commands in scripts/ are its entry points."""

import os

#: The checkout: this file is Tests/harness/shaked_harness/__init__.py.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
