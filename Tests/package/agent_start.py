"""The installed agent starts: /usr/bin/shake-agent under Xvfb with a session bus and the accessibility
bus, against the installed shaked --demo, registers as the prompt agent (GetStatus says so) and
draws the prompt for an app that takes part. Run by scripts/test-package.sh after dpkg -i."""

import os
import subprocess
import sys

os.environ.setdefault("SHAKED_BINARY", "/usr/sbin/shaked")

from shaked_harness.desktop import Daemon, Desktop, wait_for  # noqa: E402  (reads SHAKED_BINARY)


def main():
    desktop = Desktop()
    desktop.start()
    agent = None
    try:
        with Daemon("--demo") as daemon:
            log = open(os.path.join(desktop.dir, "agent.log"), "w")
            agent = subprocess.Popen(["/usr/bin/shake-agent", "--socket", daemon.socket], stdout=log,
                                     stderr=subprocess.STDOUT)
            calls = daemon.client().open("io.shaked.Undo", namespaced=False)
            try:
                wait_for(lambda: calls.GetStatus()["status"]["agent"], 30, "the installed agent to register")
            except AssertionError:
                with open(log.name) as f:
                    print(f.read()[-3000:], file=sys.stderr)
                raise
            print("the installed shake-agent registered with the installed shaked")
    finally:
        if agent is not None:
            agent.terminate()
            agent.wait(timeout=5)
        desktop.stop()


if __name__ == "__main__":
    main()
