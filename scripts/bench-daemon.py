#!/usr/bin/env python3
"""Benchmarks the shaked daemon: shake-to-intent latency, memory and idle cost.

Measures, against a real daemon running --demo (synthetic motion, shakes played through the
real detector):
  - latency from the sample that completes a shake (the daemon stamps CLOCK_MONOTONIC right
    after the detector recognizes it and reports it on Monitor) to the intent arriving at the
    subscriber (CLOCK_MONOTONIC when this process reads it), p50 and p99, with 1 and with
    1,000 connected subscribers;
  - the daemon's resident memory (VmRSS) idle and with 1,000 subscribers;
  - its CPU time and the samples it reads while subscribers are connected but none is focused.

Usage: scripts/bench-daemon.py [--binary .build/release/shaked] [--shakes 40] [--subscribers 1000]
Builds the release binary first when it is missing. Prints progress to stderr, results to stdout.
"""

import argparse
import json
import os
import resource
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNDO = "io.shaked.Undo."
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def progress(text):
    print(text, file=sys.stderr, flush=True)


class Connection:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""

    def send(self, method, parameters=None, more=False):
        message = {"method": method, "parameters": parameters or {}}
        if more:
            message["more"] = True
        self.sock.sendall(json.dumps(message).encode() + b"\0")

    def reply(self, timeout=10.0):
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.sock], [], [], remaining)[0]:
                raise TimeoutError("no reply within %s s" % timeout)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the daemon closed the connection")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        arrived = time.monotonic()
        reply = json.loads(message)
        if "error" in reply:
            raise RuntimeError("%s %s" % (reply["error"], reply.get("parameters")))
        return reply["parameters"], arrived

    def call(self, method, parameters=None):
        self.send(method, parameters)
        return self.reply()[0]


class Daemon:
    def __init__(self, binary, directory, subscribers):
        self.socket = os.path.join(directory, "io.shaked.Undo")
        config = os.path.join(directory, "bench.conf")
        with open(config, "w") as f:
            f.write("[prompt]\ncooldown = 0\n\n[limits]\nconnections-per-user = %d\nsubscriptions = %d\ncalls-per-second = 10000\n"
                    % (subscribers * 2 + 16, subscribers + 16))
        self.log = open(os.path.join(directory, "shaked.log"), "w")
        self.process = subprocess.Popen([binary, "--demo", "--config", config, "--socket", self.socket,
                                         "--log-level", "warning"], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not os.path.exists(self.socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("shaked did not start; see %s" % self.log.name)
            time.sleep(0.05)

    def rss_kib(self):
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])

    def cpu_seconds(self):
        with open("/proc/%d/stat" % self.process.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "shaked"))
    parser.add_argument("--shakes", type=int, default=40)
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=10)
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        progress("building %s (release) ..." % args.binary)
        subprocess.run(["swift", "build", "-c", "release", "--product", "shaked"], cwd=ROOT, check=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.subscribers * 2 + 64)), hard))
    results = {}
    with tempfile.TemporaryDirectory(prefix="shaked-bench-") as directory:
        progress("1 subscriber: starting the daemon")
        daemon = Daemon(args.binary, directory, args.subscribers)
        time.sleep(1)
        results["rss_idle_mib"] = daemon.rss_kib() / 1024
        lat, missed = measure_latency(daemon, args.shakes)
        results["latency_1"] = (lat, missed)
        daemon.stop()

        progress("%d subscribers: starting the daemon" % args.subscribers)
        daemon = Daemon(args.binary, directory, args.subscribers)
        others = []
        calls = Connection(daemon.socket)
        for i in range(args.subscribers - 1):
            connection, token = subscribe(daemon.socket, "bench.App%d" % i)
            calls.call(UNDO + "SetContext", {"token": token, "focused": False, "undo": "Typing"})
            others.append(connection)
            if (i + 1) % 250 == 0:
                progress("  %d subscribed" % (i + 1))
        time.sleep(1)
        status = calls.call(UNDO + "GetStatus")["status"]
        cpu_before, reads_before = daemon.cpu_seconds(), status["samplesRead"]
        progress("  none focused: watching CPU and reads for %.0f s" % args.idle_seconds)
        time.sleep(args.idle_seconds)
        status = calls.call(UNDO + "GetStatus")["status"]
        results["idle_cpu_percent"] = (daemon.cpu_seconds() - cpu_before) / args.idle_seconds * 100
        results["idle_reads"] = status["samplesRead"] - reads_before
        results["idle_sensor_active"] = status["sensorActive"]
        lat, missed = measure_latency(daemon, args.shakes)
        results["latency_n"] = (lat, missed)
        results["rss_n_mib"] = daemon.rss_kib() / 1024
        for connection in others:
            connection.sock.close()
        daemon.stop()

    n = args.subscribers
    print("shaked daemon benchmark (%s, %d shakes per run)" % (os.path.basename(args.binary), args.shakes))
    for label, key in (("1 subscriber", "latency_1"), ("%d subscribers" % n, "latency_n")):
        lat, missed = results[key]
        print("  latency, shake recognized -> intent at the app, %s: p50 %.3f ms, p99 %.3f ms, max %.3f ms"
              " (%d shakes, %d missed)" % (label, statistics.median(lat), percentile(lat, 99), max(lat),
                                           len(lat), missed))
    print("  RSS idle: %.1f MiB; with %d subscribers: %.1f MiB" % (results["rss_idle_mib"], n, results["rss_n_mib"]))
    print("  %d subscribers, none focused, %.0f s: CPU %.2f%%, samples read %d, sensor active %s"
          % (n - 1, args.idle_seconds, results["idle_cpu_percent"], results["idle_reads"],
             results["idle_sensor_active"]))


if __name__ == "__main__":
    main()
