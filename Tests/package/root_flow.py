#!/usr/bin/env python3
"""The installed shaked in a Debian root (scripts/test-debian13.sh), through the Python varlink client on
this machine talking to the daemon's Unix socket inside the root:

1. started as shaked.service and shaked.socket say (ExecStart=, User=, Group=, StateDirectory=, the
   socket of ListenStream= passed as systemd passes it), the daemon answers GetInfo and GetStatus;
2. with --replay on a recorded shake, an app that subscribed and set its context gets the undo
   intent, and a monitor sees the shake.

The root's programs run through chroot (an arm64 root's through qemu-user). The root's /tmp must be
this machine's /tmp and the trace must be at the same path inside the root (the script mounts both).

    SHAKED_BINARY=/usr/sbin/shaked python root_flow.py ROOT TRACE.csv
"""

import configparser
import faulthandler
import os
import shlex
import socket
import subprocess
import sys
import time

import varlink

from shaked_harness.daemon import UNDO, App, Daemon
from shaked_harness.flow import Flow

socket.setdefaulttimeout(60)


FLOW = Flow("root flow")
check, say = FLOW.check, FLOW.say


def unit(root, name):
    """The [Section] Key=value pairs of an installed unit (the last value of a repeated key)."""
    for directory in ("usr/lib/systemd/system", "lib/systemd/system"):
        path = os.path.join(root, directory, name)
        if os.path.exists(path):
            parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
            parser.optionxform = str
            parser.read(path)
            return parser
    raise SystemExit("root flow: no %s installed in %s" % (name, root))


def account(root, name, database):
    with open(os.path.join(root, "etc", database)) as f:
        for line in f:
            fields = line.split(":")
            if fields[0] == name:
                return int(fields[2])
    raise SystemExit("root flow: no %s %s in the root's /etc/%s (did sysusers run?)" % (database[:-2], name, database))


def wait_for(path, process, seconds):
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        check(process.poll() is None, "the daemon exited with %s" % process.returncode)
        check(time.monotonic() < deadline, "%s did not appear within %d s" % (path, seconds))
        time.sleep(0.1)


def started_as_the_units_say(root):
    service, sock = unit(root, "shaked.service"), unit(root, "shaked.socket")
    command = shlex.split(service["Service"]["ExecStart"])
    user, group = service["Service"]["User"], service["Service"]["Group"]
    uid, gid = account(root, user, "passwd"), account(root, group, "group")
    state = os.path.join("/var/lib", service["Service"]["StateDirectory"])
    listen = sock["Socket"]["ListenStream"]
    fdname = sock["Socket"]["FileDescriptorName"]
    os.makedirs(root + state, mode=0o700, exist_ok=True)
    os.chown(root + state, uid, gid)
    os.makedirs(os.path.dirname(root + listen), exist_ok=True)
    say("starting %s as %s:%s on %s" % (" ".join(command), user, group, listen))
    # systemd-socket-activate binds the socket and passes it as LISTEN_FDS; env and chroot exec, so the
    # daemon keeps the pid LISTEN_PID names.
    process = subprocess.Popen(
        ["systemd-socket-activate", "--listen=" + root + listen, "--fdname=" + fdname,
         "env", "STATE_DIRECTORY=" + state, "chroot", "--userspec=%d:%d" % (uid, gid), root, *command],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(root + listen, process, 30)
        with varlink.Client("unix:" + root + listen) as client:
            with client.open("org.varlink.service", namespaced=False) as service_con:
                info = service_con.GetInfo()
            check(UNDO in info["interfaces"], "GetInfo names no %s: %r" % (UNDO, info))
            say("GetInfo: %s %s, interfaces %s" % (info["product"], info["version"], ", ".join(info["interfaces"])))
            with client.open(UNDO, namespaced=False) as undo:
                status = undo.GetStatus()["status"]
            check(not status["sensorActive"], "no app in context, yet the sensor is on: %r" % status)
            say("GetStatus: %r" % status)
        check(process.poll() is None, "the daemon exited with %s" % process.returncode)
    finally:
        process.terminate()
        try:
            output, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
    say("the daemon stopped on SIGTERM with status %s" % process.returncode)
    check(process.returncode == 0, "the daemon did not stop cleanly on SIGTERM (%s):\n%s" % (process.returncode, output))


def replayed_shake_reaches_the_app(root, trace):
    with Daemon("--replay", trace, wrapper='exec chroot "$ROOT" "$@"', env={"ROOT": root}) as daemon:
        say("replaying %s; the daemon listens on %s" % (os.path.basename(trace), daemon.socket))
        app = App(daemon)
        with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
            monitor_con = client.open(UNDO, namespaced=False)
            monitor = monitor_con.Monitor(_more=True)
            check(next(monitor)["event"]["kind"] == "started", "the monitor did not start")
            app.context(focused=True, undo="Typing")
            intent = app.next_event()
            check(intent["kind"] == "intent" and intent["operation"] == "undo" and intent["actionName"] == "Typing",
                  "no undo intent: %r" % intent)
            say("the subscribed app got the intent: %r" % intent)
            began = next(monitor)["event"]
            check(began["kind"] == "began", "the monitor saw no shake begin: %r" % began)
            shake = next(monitor)["event"]
            check(shake["kind"] == "shake", "the monitor saw no shake: %r" % shake)
            say("the monitor saw the shake: %r" % shake)
            monitor_con.close()
        app.close()
        check(daemon.alive(), "the daemon exited:\n" + daemon.output())


def main():
    check(len(sys.argv) == 3, "usage: root_flow.py ROOT TRACE.csv")
    root, trace = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    check(os.environ.get("SHAKED_BINARY") == "/usr/sbin/shaked", "set SHAKED_BINARY=/usr/sbin/shaked (in the root)")
    faulthandler.dump_traceback_later(240, exit=True)
    started_as_the_units_say(root)
    replayed_shake_reaches_the_app(root, trace)
    faulthandler.cancel_dump_traceback_later()
    say("passed")


if __name__ == "__main__":
    main()
