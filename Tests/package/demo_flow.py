#!/usr/bin/env python3
"""The --demo flow against an installed shaked, for scripts/test-package.sh: a synthetic shake
becomes a confirmed undo through the Python varlink client, and the installed shakectl reads the
daemon's status. Exits non-zero, saying which step failed, when anything goes wrong.

    SHAKED_BINARY=/usr/bin/shaked .build/venv/bin/python Tests/package/demo_flow.py /usr/bin/shakectl
"""

import faulthandler
import json
import os
import socket
import subprocess
import sys
import time

from shaked_harness.daemon import UNDO, App, Daemon, prompt
from shaked_harness.flow import Flow

socket.setdefaulttimeout(20)


FLOW = Flow("demo flow")
check, say = FLOW.check, FLOW.say


def main():
    shakectl = sys.argv[1] if len(sys.argv) > 1 else "/usr/bin/shakectl"
    check(os.environ.get("SHAKED_BINARY"), "set SHAKED_BINARY to the installed shaked")
    # Every wait below has its own limit; should one still hang, this prints where and exits.
    faulthandler.dump_traceback_later(120, exit=True)
    with Daemon("--demo", "--config", os.environ.get("SHAKED_CONFIG", "/etc/shaked/shaked.conf")) as daemon:
        say("the daemon listens on " + daemon.socket)
        app = App(daemon)
        with daemon.client() as client, client.open(UNDO, namespaced=False) as tool, \
                client.open("io.shaked.Demo", namespaced=False) as demo:
            before = tool.GetStatus()["status"].get("samplesRead", 0)
            app.context(focused=True, undo="Typing")
            # The demo source plays only while it is read, and a Shake before it is read is dropped
            # (io.shaked.Demo.varlink): wait for samples, as a person waits for the app to appear.
            deadline = time.monotonic() + 20
            while tool.GetStatus()["status"].get("samplesRead", 0) <= before:
                check(time.monotonic() < deadline, "the demo sensor read nothing in 20 s after the context was set")
                time.sleep(0.05)
            say("an app subscribed and set its context, and the sensor reads; shaking")
            demo.Shake()
            intent = app.next_event()
            say("the app got an intent")
            check(intent["kind"] == "intent" and intent["actionName"] == "Typing", "no undo intent: %r" % intent)
            app.calls.AnswerIntent(token=app.token, intent=intent["intent"], prompt=prompt("Undo Typing"))

            say("the app answered with a prompt; asking shakectl status")
            status = subprocess.run([shakectl, "status", "--socket", daemon.socket, "--format", "json"],
                                    capture_output=True, text=True, timeout=30)
            check(status.returncode == 0, "shakectl status failed: " + status.stderr)
            reported = json.loads(status.stdout)
            check(reported.get("openIntent") == intent["intent"], "shakectl status: %s" % status.stdout)
            check(reported.get("currentApp") == "org.example.Notes", "shakectl status: %s" % status.stdout)

            app.calls.Choose(token=app.token, intent=intent["intent"], choice="undo")
            perform = app.next_event()
            check((perform["kind"], perform["operation"]) == ("perform", "undo"), "no perform: %r" % perform)
            app.calls.ReportResult(token=app.token, intent=intent["intent"], summary="Removed line 3")
            check("openIntent" not in tool.GetStatus()["status"], "the intent stayed open after the result")
        app.close()
        check(daemon.alive(), "the daemon exited:\n" + daemon.output())
        say("stopping the daemon")
    faulthandler.cancel_dump_traceback_later()
    print("demo flow: a synthetic shake became a confirmed undo; shakectl status saw the open prompt")


if __name__ == "__main__":
    main()
