"""Benchmark helper of scripts/bench-iio.sh (not a test): `shakectl bench-iio` beside iio-sensor-proxy.

One run: a umockdev testbed of the fake accelerometer (Tests/IIOSensorsTests/Fixtures), fed ten
scans every 100 ms (100 Hz, a watermark of ten, as a real buffer would wake a reader) and the same
reading in its raw attributes; Debian's iio-sensor-proxy on a private system bus with the
accelerometer claimed by `monitor-sensor --accel`, as the shell claims it; then `shakectl
bench-iio --mode MODE` under the same testbed. Prints shakectl's JSON line with
iio-sensor-proxy's CPU over the same seconds added (proxyCpuMillisecondsPerSecond).

iio-sensor-proxy runs polled (IIO_SENSOR_PROXY_TYPE=iio-poll-accel), as Debian 12's 3.0 does on
phones (docs/sensor-sharing.md); the driver allows raw reads, so both read at once.

MODE time-shared (and floor-time-shared): iio-sensor-proxy runs buffered instead (the fixture's
trigger named accel_3d-dev0, as 3.0 wants), its buffer enabled, on a driver that refuses raw reads
while buffered, both under the kernel model (IIO_EXCLUSIVITY_SHIM, the library scripts/bench-iio.sh
builds): shaked then shares the buffer in time (opens, reads and closes the node ten times a second),
and the floor reader does the same reads (`iio-floor-reader SECONDS --reopen`).

MODE floor-every-N: the floor reader with the node open, reading every N watermarks by a timer
(`iio-floor-reader SECONDS --every N`), as shaked's reader does while its detector lets the samples
wait (N = 3 at rest, 2 while no stroke is under way).

MODE polled (and floor-polled): shakectl reads in_accel_*_raw at POLL_RATE Hz (`--mode polled
--polling-rate`, default 60, the daemon's PollingRate), and the floor reader makes the same reads at
the same rate (`iio-floor-reader SECONDS --poll RATE SYSPATH`).

The device lies still unless MODE ends in "-moving" (buffered-moving, polled-moving): then its scans
sway by 3 m/s² at 1.5 Hz, as in a walking hand, so the detector never finds it at rest and a buffered
reader is read every other watermark, no stroke being under way (docs/sensors.md); in polled-moving its raw attributes follow, ten
times a second (only there, as writing them slows the feeder's batches a little).

Usage: PYTHON -m shaked_harness.bench_iio_beside_proxy SHAKECTL MODE SECONDS
       PYTHON -m shaked_harness.bench_iio_beside_proxy FLOOR_READER floor SECONDS
       POLL_RATE=HZ PYTHON -m shaked_harness.bench_iio_beside_proxy SHAKECTL polled SECONDS
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from . import iio_sharing as sharing  # the testbed, feeder and bus of the sharing tests


def cpu_seconds(pid):
    """CPU time of all the process's threads, in ns from schedstat (stat's clock ticks are too coarse)."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total / 1e9


def main():
    # A bench stopped by SIGTERM (or ^C) still stops its bus, iio-sensor-proxy and monitor (`finally` below).
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    shakectl, mode, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    directory = tempfile.mkdtemp(prefix="bench-iio-")
    moving = mode.endswith("-moving")
    mode = mode.removesuffix("-moving")
    shared = mode in ("time-shared", "floor-time-shared")
    testbed = sharing.UMockdev.Testbed.new()
    testbed.add_from_string(sharing.fixture_text("buffered" if shared else "polled"))
    bus_path = os.path.join(directory, "system_bus_socket")
    with open(os.path.join(directory, "bus.conf"), "w") as f:
        f.write(sharing.BUS_CONFIG % bus_path)
    bus_env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS="unix:path=" + bus_path)
    for key in ("LD_PRELOAD", "UMOCKDEV_DIR"):
        bus_env.pop(key, None)
    device_env = dict(bus_env, UMOCKDEV_DIR=testbed.get_root_dir(), LD_PRELOAD=sharing.PRELOAD)
    if shared:
        device_env.update(LD_PRELOAD="%s:%s" % (os.environ["IIO_EXCLUSIVITY_SHIM"], sharing.PRELOAD),
                          IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE="1")
    # 3 m/s² in raw counts (the fixture's scale is 0.000598550 m/s² a count): twice the detector's calm level.
    # Ten scans at once every 100 ms: umockdev's node wakes a reader at every write, so this is how a
    # buffer with a watermark of ten wakes one (scan by scan, every reader would wake 100 times a second).
    feeder = sharing.Feeder(testbed, sway=5012 if moving else 0, sway_raw=moving and "polled" in mode, burst=10)
    feeder.set((400, -200, 16384))
    feeder.start()
    processes = []
    try:
        processes.append(subprocess.Popen(
            ["dbus-daemon", "--config-file=" + os.path.join(directory, "bus.conf"), "--nofork", "--nopidfile"],
            env=bus_env, stderr=subprocess.DEVNULL))
        sharing.wait_until(lambda: os.path.exists(bus_path), 10)
        proxy = subprocess.Popen(["/usr/sbin/iio-sensor-proxy"], env=device_env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(proxy)
        sharing.wait_until(lambda: subprocess.run(
            ["busctl", "--address=unix:path=" + bus_path, "status", "net.hadess.SensorProxy"],
            capture_output=True).returncode == 0, 20)
        monitor = sharing.Monitor(bus_env)
        processes.append(monitor.process)
        sharing.wait_until(lambda: any("Has accelerometer" in line for line in monitor.lines), 10)
        poll_rate = os.environ.get("POLL_RATE", "60")
        if mode == "floor":  # SHAKECTL is then the floor reader (Tests/harness/iio_floor_reader.c)
            command = [shakectl, str(seconds)]
        elif mode.startswith("floor-every-"):  # the floor reading every N watermarks, by a timer
            command = [shakectl, str(seconds), "--every", mode.removeprefix("floor-every-")]
        elif mode == "floor-time-shared":
            command = [shakectl, str(seconds), "--reopen"]
        elif mode == "floor-polled":
            command = [shakectl, str(seconds), "--poll", poll_rate, sharing.SYSPATH]
        else:
            command = [shakectl, "bench-iio", "--mode", "automatic" if shared else mode, "--rate", "100",
                       "--polling-rate", poll_rate, "--seconds", str(seconds), "--format", "json"]
        bench = subprocess.Popen(command, env=device_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        # shakectl's one-second warm-up and six of settling (`--settle`), the C reader's one second: then
        # the same window for both.
        time.sleep(1.5 if mode.startswith("floor") else 7.5)
        start, started = cpu_seconds(proxy.pid), time.monotonic()
        output, errors = bench.communicate(timeout=seconds + 60)
        proxy_ms = (cpu_seconds(proxy.pid) - start) * 1000 / (time.monotonic() - started)
        if bench.returncode != 0 or not output.strip():
            raise SystemExit("%s exited with %s and printed no result; its standard error:\n%s"
                             % (" ".join(command), bench.returncode, errors.strip()))
        result = json.loads(output.strip().splitlines()[-1])
        result["proxyCpuMillisecondsPerSecond"] = round(proxy_ms, 3)
        result["device"] = "moving" if moving else "still"
        print(json.dumps(result, sort_keys=True), flush=True)
    finally:
        feeder.stop()
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=5)


if __name__ == "__main__":
    main()
