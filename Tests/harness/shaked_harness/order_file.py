#!/usr/bin/env python3
"""Writes Sources/shaked/Linking/shaked.order: the symbols the daemon uses, for the linker to put together.

The kernel maps a file's pages into a process 64 KiB at a time around each page it touches
(fault-around), so a daemon whose code runs here and there through 13 MB of text has most of it
resident. lld's --symbol-ordering-file places the sections of the listed symbols first in their
output sections, in the order listed, so the code and data the daemon uses fill few pages. Package.swift passes this
file to the linker for release builds of shaked; a symbol missing from it (new code) still links,
only placed with the rest.

How the list is made: the release build of shaked that ships (scripts/build-release.sh: the Swift
runtime static, so the standard library's symbols are listed too) runs under valgrind, on a copy
without debug information (valgrind cannot read Swift's), started with the default configuration
(config/shaked.conf):
1. under callgrind, in two phases profiled apart: start, answer one call and sit idle (the code
   resident all day); then what a phone asks of it: the varlink service calls, an app subscribing
   and taking the context, two shakes with their prompts (one cancelled, one undone), the context
   lost, SIGTERM;
2. under lackey, which traces every load and store, from start to idle: the read-only data and
   zero-filled variables it touches (.rodata, .bss). Swift's conformance descriptors are among
   them, all 5,000: the runtime scans every one on a dynamic cast it has not seen before.
The file lists the data first, then the functions of the idle phase, then those only the day's
work ran, each group of functions most instructions first. Written in data sections of their own
by the compiler, the listed data end up together at the start of .rodata and .bss.
Run it again after large changes to the daemon (minutes: a release build, then a minute under each
tool); the daemon is linked again with the new list.

Usage: scripts/order-file [--binary PATH] [--output Sources/shaked/Linking/shaked.order]
Needs valgrind (apt-get install valgrind) and binutils.
"""

import argparse
import bisect
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from shaked_harness import ROOT
from shaked_harness.varlink_socket import Connection

UNDO = "io.shaked.Undo."
BUILD = [os.path.join(ROOT, "scripts", "build-release.sh"), "--product", "shaked"]


def progress(text):
    print(text, file=sys.stderr, flush=True)


def settle(path):
    """Phase 1: the first call answered, then idle as the benchmark measures it."""
    deadline = time.monotonic() + 120
    while True:
        try:
            probe = Connection(path, timeout=120)  # under valgrind
            break
        except ConnectionRefusedError:  # bound, not listening yet: valgrind is slow
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    probe.call("org.varlink.service.GetInfo")
    probe.sock.close()
    time.sleep(2)


def drive(path):
    """Phase 2: what a phone asks of the daemon in a day, once each."""
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
                # Callgrind names a function's recursion levels apart (`f'2`, --separate-recs): one symbol.
                name = re.sub(r"'\d+$", "", functions[match.group(2)])
                # Not symbols: addresses callgrind found no name for, and its "(below main)".
                current = name if ours and not name.startswith(("0x", "(")) else None
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


def start_daemon(tool_arguments, copy, path, log):
    """The stripped daemon under a valgrind tool, serving `path`, with the default configuration."""
    daemon = subprocess.Popen(["valgrind"] + tool_arguments + [
        copy, "--demo", "--config", os.path.join(ROOT, "config", "shaked.conf"), "--cooldown", "0",
        "--socket", path, "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while not os.path.exists(path):
        if daemon.poll() is not None or time.monotonic() > deadline:
            daemon.kill()
            sys.exit("error: the daemon did not start under valgrind; see its log:\n" + open(log.name).read()[-3000:])
        time.sleep(0.2)
    return daemon


def profile_functions(copy, directory):
    """Functions run before idle, then those only the day's work ran (callgrind, both most instructions first)."""
    path = os.path.join(directory, "io.shaked.Undo")
    profile = os.path.join(directory, "callgrind.out")
    with open(os.path.join(directory, "callgrind.log"), "w") as log:
        daemon = start_daemon(["--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + profile], copy, path, log)
        try:
            settle(path)
            # Ends the first phase's profile: callgrind writes it to PROFILE.1 and starts counting anew.
            subprocess.run(["callgrind_control", "--dump=idle", str(daemon.pid)], check=True,
                           stdout=subprocess.DEVNULL)
            drive(path)
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=120)
        finally:
            if daemon.poll() is None:
                daemon.kill()
    idle = executed_functions(profile + ".1", "shaked")
    day = executed_functions(profile, "shaked")
    if len(idle) < 1000:
        sys.exit("error: only %d functions of shaked ran before it was idle; the profile looks wrong" % len(idle))
    seen = set(idle)
    return idle, [name for name in day if name not in seen]


def touched_data(binary, copy, directory):
    """Read-only data and zero-filled variables (.rodata, .bss) the daemon reads or writes up to idle.

    valgrind's lackey prints every load and store (about 10^8 lines up to idle, read here through a
    pipe, a minute). Each address in the executable is mapped to the symbol that holds it; names the
    executable defines more than once are left out, since the linker would move every copy.
    """
    path = os.path.join(directory, "io.shaked.Undo.data")
    fifo = os.path.join(directory, "lackey.fifo")
    os.mkfifo(fifo)
    words = set()

    def read_trace():
        with open(fifo, "rb", buffering=1 << 20) as trace:
            for line in trace:  # " L 04222cac,4", " S ...", " M ..."
                if line[:1] == b" " and line[1:2] in b"LSM":
                    comma = line.find(b",", 3)
                    if comma > 0:
                        words.add(int(line[3:comma], 16) >> 3)

    reader = threading.Thread(target=read_trace, daemon=True)
    reader.start()
    with open(os.path.join(directory, "lackey.log"), "w") as log:
        daemon = start_daemon(["--tool=lackey", "--trace-mem=yes", "--log-file=" + fifo], copy, path, log)
        try:
            settle(path)
            with open("/proc/%d/maps" % daemon.pid) as maps:
                mapped = [line.split() for line in maps if line.rstrip().endswith("/shaked")]
            load_bias = min(int(m[0].split("-")[0], 16) - int(m[2], 16) for m in mapped)
        finally:
            daemon.kill()
            daemon.wait()
    reader.join(timeout=120)
    sections = {}
    for line in subprocess.run(["readelf", "-SW", binary], check=True, capture_output=True, text=True).stdout.splitlines():
        fields = line.split("]", 1)[1].split() if line.strip().startswith("[") and "]" in line else []
        if len(fields) > 5 and fields[0] in (".rodata", ".bss"):
            sections[fields[0]] = (int(fields[2], 16), int(fields[4], 16))
    symbols, count = [], {}
    for line in subprocess.run(["nm", "-S", "--defined-only", binary], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        fields = line.split(None, 3)
        if len(fields) == 4 and fields[2] in "bBdDrRvV":  # Swift's .rodata is writable, so nm says d
            symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
            count[fields[3]] = count.get(fields[3], 0) + 1
    symbols.sort()
    starts = [symbol[0] for symbol in symbols]
    names, seen = [], set()
    for word in sorted(words):
        address = (word << 3) - load_bias
        if not any(start <= address < start + size for start, size in sections.values()):
            continue
        i = bisect.bisect_right(starts, address) - 1
        if i < 0 or not symbols[i][0] <= address < symbols[i][0] + max(symbols[i][1], 1):
            continue
        name = symbols[i][2]
        if name not in seen and count[name] == 1 and " " not in name:
            seen.add(name)
            names.append(name)
    if len(names) < 1000:
        sys.exit("error: only %d data symbols of shaked were touched before it was idle; the trace looks wrong"
                 % len(names))
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="a release shaked with symbols (default: build one with scripts/build-release.sh)")
    parser.add_argument("--output", default=os.path.join(ROOT, "Sources", "shaked", "Linking", "shaked.order"))
    args = parser.parse_args()
    for tool in ("valgrind", "callgrind_control", "nm", "readelf", "strip"):
        if not shutil.which(tool):
            sys.exit("error: %s not found; apt-get install valgrind binutils" % tool)
    binary = args.binary
    if not binary:
        progress("building the release daemon, Swift runtime static (minutes) ...")
        subprocess.run(BUILD, cwd=ROOT, check=True, stdout=sys.stderr)
        binary = os.path.join(subprocess.run(BUILD + ["--show-bin-path"], cwd=ROOT, check=True,
                                             capture_output=True, text=True).stdout.strip(), "shaked")
    with tempfile.TemporaryDirectory(prefix="shaked-order-") as directory:
        copy = os.path.join(directory, "shaked")
        subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True)
        progress("1/2 the daemon's functions, under callgrind (about a minute) ...")
        idle, day = profile_functions(copy, directory)
        progress("    %d functions run by idle, %d more by the day's work" % (len(idle), len(day)))
        progress("2/2 the data it touches up to idle, under lackey (about a minute) ...")
        data = touched_data(binary, copy, directory)
        progress("    %d data symbols" % len(data))
    names = data + idle + day
    with open(args.output, "w") as f:
        f.write("\n".join(names) + "\n")
    progress("wrote %d symbols to %s" % (len(names), os.path.relpath(args.output, ROOT)))
    if not args.binary:
        # SwiftPM does not relink when only the order file changed.
        os.unlink(binary)
        progress("relinking the daemon with it ...")
        subprocess.run(BUILD, cwd=ROOT, check=True, stdout=sys.stderr)


if __name__ == "__main__":
    main()
