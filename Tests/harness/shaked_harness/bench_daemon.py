#!/usr/bin/env python3
"""Benchmarks the shaked daemon: memory, start-up, shake-to-intent latency and idle cost.

Measures, against a real daemon running --demo (synthetic motion, shakes played through the
real detector), in --runs repetitions (3), each with fresh daemons:
  - start to first reply: from exec to the first GetInfo answered on the socket;
  - idle VmRSS, RssAnon and PSS: the socket served, the sensor closed, no subscribers;
  - VmRSS and PSS with 1,000 subscribers (each its own connection, subscribed, unfocused, with
    something to undo), and the cost per subscriber: the VmRSS difference divided by 1,000;
  - CPU time and samples read while those subscribers are connected but none is focused;
  - latency from the sample that completes a shake (the daemon stamps CLOCK_MONOTONIC right
    after the detector recognizes it and reports it on Monitor) to the intent arriving at the
    subscriber (CLOCK_MONOTONIC when this process reads it), p50 and p99, with 1 and with
    1,000 connected subscribers;
  - the smaps breakdown by mapping (Rss, Pss, Private_Dirty per file and for anonymous memory);
  - the same memory figures and start to subscribed for shake-idle-app, an app that links
    ShakeClient, subscribes and does nothing else.
The daemon gets a configuration that raises [Limits] for the subscribers, and inherits an
RLIMIT_NOFILE raised to fit them.

The page cache decides part of the resident memory: the kernel maps a file's cached pages 64 KiB
around each page touched (fault-around), and whole when they sit in a large folio, whose size
depends on how the file was written (the linker and cp differed by up to 0.7 MiB for the same
bytes). With --page-cache cold (the default), the executable's cached pages are dropped before each
start (posix_fadvise DONTNEED, this file only), as at boot, where nothing has read it yet: the
kernel reads it back on demand. The shared libraries stay cached, as on a phone, where other
processes use them. --page-cache warm leaves the file as it is.

Usage: scripts/bench-daemon [--binary PATH] [--client-binary PATH] [--runs 3] [--shakes 40] [--subscribers 1000]
                              [--page-cache cold|warm]
By default it measures the release build that ships (scripts/build-release.sh), and builds it first
when it is missing. Progress goes to stderr, results to stdout.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from shaked_harness import ROOT, memory
from shaked_harness.varlink_socket import Connection

UNDO = "io.shaked.Undo."


def evict(binary):
    """Drops the file's pages from the page cache, so the next exec reads it from disk as at boot."""
    fd = os.open(binary, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def progress(text):
    print(text, file=sys.stderr, flush=True)


class Daemon:
    """shaked --demo on a socket in `directory`, with limits raised for `subscribers` connections."""

    def __init__(self, binary, directory, subscribers, cold):
        self.socket = os.path.join(directory, "io.shaked.Undo")
        config = os.path.join(directory, "bench.conf")
        connections = subscribers * 2 + 64
        with open(config, "w") as f:
            f.write("[Prompt]\nCooldown=0\n\n[Limits]\nConnections=%d\nConnectionsPerUser=%d\n"
                    "Subscriptions=%d\nSubscriptionsPerUser=%d\nCallsPerSecond=10000\n"
                    "CallsPerSecondPerUser=100000\nIdleTimeout=600\n"
                    % (connections, connections, subscribers + 16, subscribers + 16))
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        self.log = open(os.path.join(directory, "shaked.log"), "w")
        if cold:
            evict(binary)
        started = time.monotonic()
        self.process = subprocess.Popen([binary, "--demo", "--config", config, "--socket", self.socket,
                                         "--log-level", "warning"], stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.process.pid
        # Start to first reply: exec, loading, configuration, binding, and one GetInfo answered.
        deadline = started + 30
        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("shaked did not start; see %s" % self.log.name)
            try:
                probe = Connection(self.socket)
            except (FileNotFoundError, ConnectionRefusedError):
                time.sleep(0.0005)
                continue
            probe.call("org.varlink.service.GetInfo")
            self.start_ms = (time.monotonic() - started) * 1000
            probe.sock.close()
            break

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


def subscribe(path, app):
    connection = Connection(path)
    connection.send(UNDO + "Subscribe", {"app": app, "name": app}, more=True)
    token = connection.reply()[0]["token"]
    return connection, token


def measure_latency(daemon, shakes):
    """Shakes through the demo source; returns latencies in ms."""
    app, token = subscribe(daemon.socket, "bench.Focused")
    calls = Connection(daemon.socket)
    monitor = Connection(daemon.socket)
    monitor.send(UNDO + "Monitor", more=True)
    monitor.reply()  # started
    calls.call(UNDO + "SetContext", {"token": token, "focused": True, "undo": "Typing"})
    time.sleep(0.5)  # the demo source starts with the context
    latencies = []
    prompt = {"title": "Undo Typing", "actions": [
        {"role": "cancel", "label": "Cancel", "destructive": False, "preferred": False},
        {"role": "undo", "label": "Undo", "destructive": False, "preferred": False}]}
    missed = 0
    for i in range(shakes):
        calls.call("io.shaked.Demo.Shake")
        try:
            event, arrived = app.reply(timeout=3)
        except TimeoutError:
            missed += 1
            continue
        intent = event["event"]["intent"]
        while True:  # the shake's own monitor event (outcomes may come first)
            shake = monitor.reply()[0]["event"]
            if shake["kind"] == "shake":
                break
        latencies.append((arrived - shake["time"]) * 1000)
        calls.call(UNDO + "AnswerIntent", {"token": token, "intent": intent, "prompt": prompt})
        calls.call(UNDO + "Choose", {"token": token, "intent": intent, "choice": "cancel"})
        app.reply()  # cancelled
        time.sleep(0.9)  # let the synthetic shake finish playing before the next
        if (i + 1) % 10 == 0:
            progress("  %d/%d shakes" % (i + 1, shakes))
    for c in (app, calls, monitor):
        c.sock.close()
    return latencies, missed


def percentile(values, p):
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[rank]


def footprint(pid):
    status = memory.status_kib(pid)
    return {"rss": status["VmRSS"], "anon": status["RssAnon"], "pss": memory.pss_kib(pid),
            "smaps": memory.smaps_breakdown(pid)}


def start_client(binary, socket_path, cold):
    """The idle app: returns (process, ms from exec to its subscription accepted)."""
    if cold:
        evict(binary)
    started = time.monotonic()
    process = subprocess.Popen([binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=dict(os.environ, SHAKED_SOCKET=socket_path))
    line = process.stdout.readline().strip()
    elapsed = (time.monotonic() - started) * 1000
    if line != "connected":
        process.kill()
        raise RuntimeError("shake-idle-app said %r, not connected" % line)
    return process, elapsed


def repetition(args, directory):
    """One round: an idle daemon (and the idle app), then a daemon with N subscribers."""
    result = {}
    progress("idle daemon")
    daemon = Daemon(args.binary, directory, args.subscribers, args.cold)
    result["start_ms"] = daemon.start_ms
    time.sleep(args.settle)
    result["idle"] = footprint(daemon.pid)
    if args.client_binary:
        client, result["client_start_ms"] = start_client(args.client_binary, daemon.socket, args.cold)
        time.sleep(args.settle)
        result["client"] = footprint(client.pid)
        client.terminate()
        client.wait(timeout=10)
    if args.shakes:
        result["latency_1"] = measure_latency(daemon, args.shakes)
    daemon.stop()

    n = args.subscribers
    progress("%d subscribers" % n)
    daemon = Daemon(args.binary, directory, n, args.cold)
    time.sleep(args.settle)
    before = footprint(daemon.pid)
    others = []
    calls = Connection(daemon.socket)
    for i in range(n - 1):
        connection, token = subscribe(daemon.socket, "bench.App%d" % i)
        calls.call(UNDO + "SetContext", {"token": token, "focused": False, "undo": "Typing"})
        others.append(connection)
    # The last one subscribes as measure_latency's focused app; count it here as it is there.
    last, token = subscribe(daemon.socket, "bench.Last")
    calls.call(UNDO + "SetContext", {"token": token, "focused": False, "undo": "Typing"})
    time.sleep(args.settle)
    after = footprint(daemon.pid)
    result["subscribed"] = after
    result["per_subscriber_kib"] = (after["rss"] - before["rss"]) / n
    result["per_subscriber_anon_kib"] = (after["anon"] - before["anon"]) / n
    last.sock.close()
    status = calls.call(UNDO + "GetStatus")["status"]
    cpu_before, reads_before = memory.cpu_seconds(daemon.pid), status["samplesRead"]
    time.sleep(args.idle_seconds)
    status = calls.call(UNDO + "GetStatus")["status"]
    result["idle_cpu_ms"] = (memory.cpu_seconds(daemon.pid) - cpu_before) * 1000 / args.idle_seconds
    result["idle_reads"] = status["samplesRead"] - reads_before
    result["idle_sensor_active"] = status["sensorActive"]
    if args.shakes:
        result["latency_n"] = measure_latency(daemon, args.shakes)
    for connection in others:
        connection.sock.close()
    calls.sock.close()
    daemon.stop()
    return result


def series(runs, value, form="%.1f"):
    values = [value(r) for r in runs]
    text = ", ".join(form % v for v in values)
    if len(values) > 1:
        text += " (median " + form % statistics.median(values) + ")"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="the daemon (default: shaked of scripts/build-release.sh)")
    parser.add_argument("--client-binary", help="the idle app (default: shake-idle-app of scripts/build-release.sh); "
                        "'' to skip it")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shakes", type=int, default=40, help="shakes per latency measurement; 0 to skip")
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument("--settle", type=float, default=1.0, help="seconds to wait before reading memory")
    parser.add_argument("--page-cache", choices=("cold", "warm"), default="cold",
                        help="cold: drop the executables' cached pages before each start, as at boot (default); "
                        "warm: leave them as they are")
    args = parser.parse_args()
    args.cold = args.page_cache == "cold"
    if args.binary is None or args.client_binary is None:
        build = [os.path.join(ROOT, "scripts", "build-release.sh")]
        shipped = subprocess.run(build + ["--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                                 text=True).stdout.strip()
        if args.binary is None:
            args.binary = os.path.join(shipped, "shaked")
        if args.client_binary is None:
            args.client_binary = os.path.join(shipped, "shake-idle-app")
        for path in (args.binary, args.client_binary):
            if path.startswith(shipped) and not os.path.exists(path):
                progress("building %s (scripts/build-release.sh) ..." % os.path.basename(path))
                subprocess.run(build + ["--product", os.path.basename(path)], cwd=ROOT, check=True, stdout=sys.stderr)
    for path in (args.binary, args.client_binary):
        if path and not os.path.exists(path):
            sys.exit("error: %s does not exist; build it, or leave the option out to use the shipped build" % path)
    # The benchmark's own sockets, and the daemon's (it inherits the limit): 2 per subscriber.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.subscribers * 4 + 256)), hard))
    runs = []
    for run in range(args.runs):
        progress("run %d/%d" % (run + 1, args.runs))
        with tempfile.TemporaryDirectory(prefix="shaked-bench-") as directory:
            runs.append(repetition(args, directory))

    n = args.subscribers
    print("shaked daemon benchmark (%s, %d runs, page cache %s)" % (args.binary, args.runs, args.page_cache))
    print("  start to first reply (exec to GetInfo answered), ms: %s" % series(runs, lambda r: r["start_ms"]))
    print("  idle VmRSS, MiB:      %s" % series(runs, lambda r: memory.mib(r["idle"]["rss"]), "%.2f"))
    print("  idle RssAnon, MiB:    %s" % series(runs, lambda r: memory.mib(r["idle"]["anon"]), "%.2f"))
    print("  idle PSS, MiB:        %s" % series(runs, lambda r: memory.mib(r["idle"]["pss"]), "%.2f"))
    print("  %d subscribers, VmRSS, MiB: %s" % (n, series(runs, lambda r: memory.mib(r["subscribed"]["rss"]),
                                                          "%.2f")))
    print("  %d subscribers, PSS, MiB:   %s" % (n, series(runs, lambda r: memory.mib(r["subscribed"]["pss"]),
                                                          "%.2f")))
    print("  per subscriber (VmRSS difference / %d), KiB: %s" % (n, series(runs, lambda r: r["per_subscriber_kib"])))
    print("  per subscriber, anonymous only, KiB:      %s" % series(runs, lambda r: r["per_subscriber_anon_kib"]))
    print("  %d subscribers, none focused, %.0f s: CPU ms/s %s; samples read %s; sensor active %s"
          % (n - 1, args.idle_seconds, series(runs, lambda r: r["idle_cpu_ms"], "%.3f"),
             ", ".join(str(r["idle_reads"]) for r in runs), ", ".join(str(r["idle_sensor_active"]) for r in runs)))
    if args.shakes:
        for label, key in (("1 subscriber", "latency_1"), ("%d subscribers" % n, "latency_n")):
            print("  latency, shake recognized -> intent at the app, %s:" % label)
            print("    p50 ms: %s" % series(runs, lambda r: statistics.median(r[key][0]), "%.3f"))
            print("    p99 ms: %s" % series(runs, lambda r: percentile(r[key][0], 99), "%.3f"))
            print("    shakes %s, missed %s" % (", ".join(str(len(r[key][0])) for r in runs),
                                                ", ".join(str(r[key][1]) for r in runs)))
    memory.print_breakdown("idle daemon, smaps by mapping, run 1", runs[0]["idle"]["smaps"])
    memory.print_breakdown("%d subscribers, smaps by mapping, run 1" % n, runs[0]["subscribed"]["smaps"], limit=6)
    if args.client_binary:
        print("idle app (%s: ShakeClient, subscribed, unfocused)" % args.client_binary)
        print("  start to subscribed (exec to the Subscribe reply), ms: %s"
              % series(runs, lambda r: r["client_start_ms"]))
        print("  VmRSS, MiB:   %s" % series(runs, lambda r: memory.mib(r["client"]["rss"]), "%.2f"))
        print("  RssAnon, MiB: %s" % series(runs, lambda r: memory.mib(r["client"]["anon"]), "%.2f"))
        print("  PSS, MiB:     %s" % series(runs, lambda r: memory.mib(r["client"]["pss"]), "%.2f"))
        memory.print_breakdown("idle app, smaps by mapping, run 1", runs[0]["client"]["smaps"])


if __name__ == "__main__":
    main()
