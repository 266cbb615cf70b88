#!/usr/bin/env python3
"""Benchmark (not a test): iio-sensor-proxy's memory and CPU, the daemon shaked sits beside.

Runs Debian's iio-sensor-proxy (apt-get install iio-sensor-proxy) against the fake accelerometer
of Tests/IIOSensorsTests/Fixtures/fake-accel.umockdev under umockdev-run, on a private system
bus (a dbus-daemon of our own; DBUS_SYSTEM_BUS_ADDRESS points the daemon and its client at it).
The fixture gets IIO_SENSOR_PROXY_TYPE=iio-buffer-accel, as iio-sensor-proxy's udev rule would
set, and a umockdev script feeds it 100 scans a second (ten every 100 ms). iio-sensor-proxy 3.0
nevertheless polls it (in_accel_*_raw every 700 ms): its buffered driver takes a device only when a
trigger named accel_3d-devN exists, and this one's is fake_accel-dev0 (docs/sensor-sharing.md), as
on phones. `monitor-sensor
--accel` claims the accelerometer. Per run it prints, unclaimed and claimed: VmRSS, RssAnon,
PSS, the same less umockdev's preload library (which a real system doesn't load), CPU ms per
second, and the smaps breakdown by mapping.

Usage: scripts/bench-iio-sensor-proxy [--runs 3] [--seconds 10]
Run as root (the bus policy lets root own net.hadess.SensorProxy).
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from shaked_harness import ROOT, memory
from shaked_harness.private_bus import BUS_CONFIG

FIXTURE = os.path.join(ROOT, "Tests", "IIOSensorsTests", "Fixtures", "fake-accel.umockdev")
PRELOAD = "libumockdev-preload.so.0"



def progress(text):
    print(text, file=sys.stderr, flush=True)


def escape(data):
    """umockdev's script escapes: bytes below 32 as ^ + (byte + 64), ^ itself as ^`."""
    out = bytearray()
    for byte in data:
        if byte < 32:
            out += bytes([ord("^"), byte + 64])
        elif byte == ord("^"):
            out += b"^`"
        else:
            out.append(byte)
    return bytes(out)


def write_script(path, seconds, rate=100):
    """Scans of x, y, z (le:s16), two pad bytes and a timestamp (le:s64), ten every 100 ms."""
    per_wake = rate // 10
    with open(path, "wb") as f:
        for wake in range(int((seconds + 10) * 10)):
            chunk = b""
            for i in range(per_wake):
                n = wake * per_wake + i
                wobble = (n * 37) % 4000 - 2000
                chunk += struct.pack("<hhhxxq", wobble, -wobble // 2, 16384, 1_000_000_000 + n * (10**9 // rate))
            f.write(b"r 100 " + escape(chunk) + b"\n")


def write_fixture(path):
    with open(FIXTURE) as f:
        text = f.read()
    marker = "E: SUBSYSTEM=iio\n"
    text = text.replace(marker, marker + "E: IIO_SENSOR_PROXY_TYPE=iio-buffer-accel\n", 1)
    with open(path, "w") as f:
        f.write(text)


def wait_for_name(env, name, process, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("iio-sensor-proxy exited with %s" % process.returncode)
        result = subprocess.run(
            ["busctl", "--address=" + env["DBUS_SYSTEM_BUS_ADDRESS"], "status", name],
            env=env, capture_output=True)
        if result.returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError("%s did not appear on the bus" % name)


def proxy_pid(wrapper):
    """umockdev-run runs the daemon as its child: find the child whose command is iio-sensor-proxy."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % entry) as f:
                    stat = f.read()
            except OSError:
                continue
            name = stat[stat.index("(") + 1:stat.rindex(")")]
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if name == "iio-sensor-prox" and parent == wrapper:
                return int(entry)
        time.sleep(0.05)
    raise RuntimeError("iio-sensor-proxy did not start under umockdev-run")


def snapshot(pid, seconds):
    cpu = memory.thread_cpu_seconds(pid)
    time.sleep(seconds)
    cpu_ms = (memory.thread_cpu_seconds(pid) - cpu) * 1000 / seconds
    status = memory.status_kib(pid)
    breakdown = memory.smaps_breakdown(pid)
    preload = [sum(v) for v in zip((0, 0, 0), *(v for k, v in breakdown.items() if k.startswith(PRELOAD)))]
    return {"rss": status["VmRSS"], "anon": status["RssAnon"], "pss": memory.pss_kib(pid),
            "preload_rss": preload[0], "preload_pss": preload[1], "cpu_ms": cpu_ms, "smaps": breakdown}


def run_once(directory, seconds):
    bus_path = os.path.join(directory, "system_bus_socket")
    config = os.path.join(directory, "bus.conf")
    with open(config, "w") as f:
        f.write(BUS_CONFIG % bus_path)
    env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS="unix:path=" + bus_path)
    bus = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork", "--nopidfile"])
    processes = [bus]
    try:
        deadline = time.monotonic() + 10
        while not os.path.exists(bus_path):
            if time.monotonic() > deadline:
                raise RuntimeError("dbus-daemon did not start")
            time.sleep(0.05)
        fixture = os.path.join(directory, "accel.umockdev")
        script = os.path.join(directory, "accel.script")
        write_fixture(fixture)
        write_script(script, seconds * 2 + 10)
        log = open(os.path.join(directory, "proxy.log"), "w")
        wrapper = subprocess.Popen(
            ["umockdev-run", "-d", fixture, "-s", "/dev/iio:device0=" + script, "--", "iio-sensor-proxy"],
            env=env, stdout=log, stderr=subprocess.STDOUT)
        processes.append(wrapper)
        pid = proxy_pid(wrapper.pid)
        wait_for_name(env, "net.hadess.SensorProxy", wrapper)
        time.sleep(1)
        unclaimed = snapshot(pid, seconds)
        monitor = subprocess.Popen(["monitor-sensor", "--accel"], env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        processes.append(monitor)
        line = monitor.stdout.readline()  # "+++ Accelerometer orientation changed" or similar: claimed
        if not line:
            raise RuntimeError("monitor-sensor printed nothing")
        time.sleep(2)
        claimed = snapshot(pid, seconds)
        claimed["monitor_first_line"] = line.strip()
        return unclaimed, claimed
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    for tool in ("iio-sensor-proxy", "monitor-sensor", "umockdev-run", "dbus-daemon", "busctl"):
        if shutil.which(tool) is None and not os.path.exists("/usr/sbin/" + tool):
            sys.exit("%s is missing: apt-get install iio-sensor-proxy umockdev dbus-daemon systemd" % tool)
    version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "iio-sensor-proxy"],
                             capture_output=True, text=True).stdout
    runs = []
    for run in range(args.runs):
        progress("run %d/%d" % (run + 1, args.runs))
        with tempfile.TemporaryDirectory(prefix="iio-sensor-proxy-bench-") as directory:
            runs.append(run_once(directory, args.seconds))
    print("iio-sensor-proxy %s under umockdev, fake accelerometer at 100 Hz, %d runs of %.0f s"
          % (version, args.runs, args.seconds))
    for label, index in (("unclaimed", 0), ("accelerometer claimed", 1)):
        values = [r[index] for r in runs]
        print("  %s:" % label)
        print("    VmRSS MiB:             %s" % ", ".join("%.1f" % memory.mib(v["rss"]) for v in values))
        print("    RssAnon MiB:           %s" % ", ".join("%.1f" % memory.mib(v["anon"]) for v in values))
        print("    PSS MiB:               %s" % ", ".join("%.1f" % memory.mib(v["pss"]) for v in values))
        print("    VmRSS less %s MiB: %s" % (PRELOAD, ", ".join(
            "%.1f" % memory.mib(v["rss"] - v["preload_rss"]) for v in values)))
        print("    PSS less the preload MiB:   %s" % ", ".join(
            "%.1f" % memory.mib(v["pss"] - v["preload_pss"]) for v in values))
        print("    CPU ms per second:     %s" % ", ".join("%.2f" % v["cpu_ms"] for v in values))
    memory.print_breakdown("smaps by mapping, claimed, run 1", runs[0][1]["smaps"])


if __name__ == "__main__":
    main()
