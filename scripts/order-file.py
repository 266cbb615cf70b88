#!/usr/bin/env python3
"""Writes Sources/shaked/Linking/shaked.order: the functions the daemon runs, for the linker to put together.

The kernel maps a file's pages into a process 64 KiB at a time around each page it touches
(fault-around), so a daemon whose code runs here and there through 20 MB of text has most of it
resident. lld's --symbol-ordering-file places the listed functions first and side by side, so the
code the daemon runs fills few pages. Package.swift passes this file to the linker for release
builds of shaked; a function missing from it (new code) still links, only placed with the rest.

How the list is made: the release build of shaked that ships (scripts/build-release.sh: the Swift runtime static so the standard
library's functions are listed too) runs under `valgrind --tool=callgrind` on a copy without debug
information (valgrind cannot read Swift's), and is driven the way a phone drives it: start with the default configuration (config/shaked.conf), the
varlink service calls, an app subscribing and taking the context, two shakes with their prompts
(one cancelled, one undone), the context lost, SIGTERM. Every function of the executable that ran
is written, most instructions first, and the daemon is linked again with the new list. Run it again
after large changes to the daemon (minutes: a release build, then about a minute under valgrind).

Usage: scripts/order-file.py [--binary PATH] [--output Sources/shaked/Linking/shaked.order]
Needs valgrind (apt-get install valgrind) and binutils.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from varlink_socket import Connection  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNDO = "io.shaked.Undo."
BUILD = [os.path.join(ROOT, "scripts", "build-release.sh"), "--product", "shaked"]


def progress(text):
    print(text, file=sys.stderr, flush=True)


def drive(path):
    """What a phone asks of the daemon in a day, once each."""
    tools = Connection(path, timeout=60)  # under valgrind
    tools.call("org.varlink.service.GetInfo")
    tools.call("org.varlink.service.GetInterfaceDescription", {"interface": "io.shaked.Undo"})
    tools.call(UNDO + "GetStatus")
    tools.call(UNDO + "GetPreferences")
    tools.send("io.shaked.Nothing.Here")
    tools.message()  # MethodNotFound
    tools.sock.sendall(b"{not json}\0")
    tools.message()  # InvalidParameter
    app = Connection(path, timeout=60)  # under valgrind
    app.send(UNDO + "Subscribe", {"app": "org.example.Notes", "name": "Notes"}, more=True)
    token = app.reply()[0]["token"]
    monitor = Connection(path, timeout=60)  # under valgrind
    monitor.send(UNDO + "Monitor", more=True)
    monitor.reply()
    tools.call(UNDO + "SetContext", {"token": token, "focused": True, "undo": "Typing"})
    time.sleep(2)  # the demo source starts with the context
    prompt = {"title": "Undo Typing", "actions": [
        {"role": "cancel", "label": "Cancel", "destructive": False, "preferred": False},
        {"role": "undo", "label": "Undo", "destructive": False, "preferred": False}]}
    for choice in ("cancel", "undo"):
        tools.call("io.shaked.Demo.Shake")
        intent = app.reply()[0]["event"]["intent"]
        tools.call(UNDO + "AnswerIntent", {"token": token, "intent": intent, "prompt": prompt})
        tools.call(UNDO + "Choose", {"token": token, "intent": intent, "choice": choice})
        app.reply()
        if choice == "undo":
            tools.call(UNDO + "ReportResult", {"token": token, "intent": intent, "summary": "Typing undone"})
        time.sleep(3)
    tools.call(UNDO + "SetContext", {"token": token, "focused": False, "undo": "Typing"})
    tools.call(UNDO + "GetStatus")
    for connection in (app, monitor, tools):
        connection.sock.close()


def executed_functions(profile, binary_name):
    """Functions of the executable in a callgrind profile (names not demangled), most instructions first."""
    objects, functions, cost = {}, {}, {}
    current = None
    current_object = None
    after_call = False
    for line in open(profile, errors="replace"):
        match = re.match(r"^(ob|cob)=\((\d+)\)(?: (.*))?", line)
        if match:
            if match.group(3):
                objects[match.group(2)] = match.group(3)
            if match.group(1) == "ob":
                current_object = objects[match.group(2)]
            continue
        match = re.match(r"^(fn|cfn)=\((\d+)\)(?: (.*))?", line)
        if match:
            if match.group(3):
                functions[match.group(2)] = match.group(3)
            if match.group(1) == "fn":
                ours = current_object and os.path.basename(current_object) == binary_name
                name = functions[match.group(2)]
                current = name if ours and not name.startswith("0x") else None
                if current:
                    cost.setdefault(current, 0)
            continue
        if line.startswith("calls="):
            after_call = True  # the next cost line is the callee's inclusive cost, not this function's
            continue
        if line[:1] in "0123456789+-*":
            if not after_call and current:
                fields = line.split()
                if len(fields) >= 2 and fields[1].isdigit():
                    cost[current] += int(fields[1])
            after_call = False
    return sorted(cost, key=lambda name: -cost[name])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="a release shaked with symbols (default: build one in .build-order)")
    parser.add_argument("--output", default=os.path.join(ROOT, "Sources", "shaked", "Linking", "shaked.order"))
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("error: valgrind not found; apt-get install valgrind")
    binary = args.binary
    if not binary:
        progress("building the release daemon, Swift runtime static (minutes) ...")
        subprocess.run(BUILD, cwd=ROOT, check=True, stdout=sys.stderr)
        binary = os.path.join(subprocess.run(BUILD + ["--show-bin-path"], cwd=ROOT, check=True,
                                             capture_output=True, text=True).stdout.strip(), "shaked")
    with tempfile.TemporaryDirectory(prefix="shaked-order-") as directory:
        copy = os.path.join(directory, "shaked")
        subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True)
        path = os.path.join(directory, "io.shaked.Undo")
        profile = os.path.join(directory, "callgrind.out")
        log = open(os.path.join(directory, "valgrind.log"), "w")
        progress("running the daemon under callgrind ...")
        daemon = subprocess.Popen(["valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + profile,
                                   copy, "--demo", "--config", os.path.join(ROOT, "config", "shaked.conf"), "--cooldown", "0",
                                   "--socket", path,
                                   "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 120
            while not os.path.exists(path):
                if daemon.poll() is not None or time.monotonic() > deadline:
                    sys.exit("error: the daemon did not start under valgrind; see its log:\n"
                             + open(log.name).read()[-3000:])
                time.sleep(0.2)
            drive(path)
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=120)
        finally:
            if daemon.poll() is None:
                daemon.kill()
        names = executed_functions(profile, "shaked")
    if len(names) < 1000:
        sys.exit("error: only %d functions of shaked ran; the profile looks wrong" % len(names))
    with open(args.output, "w") as f:
        f.write("\n".join(names) + "\n")
    progress("wrote %d functions to %s" % (len(names), os.path.relpath(args.output, ROOT)))
    if not args.binary:
        # SwiftPM does not relink when only the order file changed.
        os.unlink(binary)
        progress("relinking the daemon with it ...")
        subprocess.run(BUILD, cwd=ROOT, check=True, stdout=sys.stderr)


if __name__ == "__main__":
    main()
