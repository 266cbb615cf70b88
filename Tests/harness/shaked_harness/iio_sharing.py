"""shaked beside the real iio-sensor-proxy on one fake accelerometer, in each of its modes.

For each case (iio-sensor-proxy buffered or polled, a driver that claims direct mode or not):
a umockdev testbed made here (gi's UMockdev) holds the accelerometer; iio-sensor-proxy (Debian 12's
3.0, or Debian 13's 3.7 with --proxy 3.7: iio_proxy.py) runs on a private system bus and
`monitor-sensor --accel` claims the accelerometer as the shell does; then the real shaked starts, an
app takes the context so shaked reads, and the device is turned twice (flat -> normal -> left-up)
through both its buffer and its raw attributes. Both iio-sensor-proxy and shaked run under
iio-exclusivity.c, the kernel's exclusivity model.

Checked per case: whether each orientation change reaches monitor-sensor, whether shaked's
samplesRead grows, what GetStatus says about the sensor, and what the app in context and the
prompt agent are told (the "sensor" replies of Subscribe and RegisterAgent). Expected:
  - rotation always works with the default Priority=rotation, and shaked reads in every case: it
    polls the raw attributes where the driver answers them, and shares iio-sensor-proxy's buffer in
    time where the driver refuses them (buffered, claims direct mode); the app is not told that
    shake to undo is unavailable;
  - with Priority=shake in that case, shaked reads and rotation stops.
The matrix of driver kinds and events is iio_matrix.py.

Usage (as root, from scripts/test-iio.sh, with the Python of scripts/python-env.sh):
  PYTHON -m shaked_harness.iio_sharing --shim LIB.so --shaked PATH [--proxy 3.0|3.7] [--case NAME]
Needs iio-sensor-proxy, umockdev, gir1.2-umockdev-1.0, python3-gi, dbus-daemon, busctl and
python3-dbusmock; for 3.7, the Debian 13 root of scripts/debian-root.sh.
"""

import argparse
import fcntl
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

from .daemon import OWN_ACCESS, UNDO, App, Daemon  # noqa: E402
from .iio_proxy import PolkitMock, ProxyVersion  # noqa: E402
from .private_bus import BUS_CONFIG  # noqa: E402
from .processes import stop_all  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

FIXTURE = os.path.join(ROOT, "Tests", "IIOSensorsTests", "Fixtures", "fake-accel.umockdev")
SYSPATH = "/sys/devices/platform/fake-accel.0/iio:device0"
NODE = "/dev/iio:device0"
PRELOAD = "libumockdev-preload.so.0"


# Raw readings (sensor axes) for each orientation. The fixture's mount matrix swaps x and y, and
# iio-sensor-proxy calls the device "normal" when its y axis points down, "left-up" when x points up.
FLAT = (0, 0, 16384)
ORIENTATIONS = [("normal", (-16384, 0, 0)), ("left-up", (0, 16384, 0))]

# (name, iio-sensor-proxy mode, driver claims direct mode, shaked's [Sensor] settings,
#  rotation expected to work, shaked expected to read)
CASES = [
    ("polled-claims", "polled", True, "Priority=rotation", True, True),
    ("polled-free", "polled", False, "Priority=rotation", True, True),
    ("buffered-claims", "buffered", True, "Priority=rotation", True, True),
    ("buffered-free", "buffered", False, "Priority=rotation", True, True),
    ("buffered-claims-shake-first", "buffered", True, "Priority=shake", False, True),
    # Only one reader truly possible: shaked is told to read a buffer of its own (Mode=buffered), which
    # holds the node and needs iio-sensor-proxy's buffer gone. Rotation wins, and shaked says why, naming
    # iio-sensor-proxy, to GetStatus and to the app.
    ("buffered-claims-own-buffer", "buffered", True, "Priority=rotation\nMode=buffered", True, False),
]


def fixture_text(proxy_mode, version="3.0"):
    """The shared fixture. For 3.0, named as its buffered driver wants: it uses the buffer only when a
    trigger called accel_3d-devN exists (drv-iio-buffer-accel.c, get_trigger_name); 3.7 looks for
    NAME-devN, the fixture's own naming."""
    with open(FIXTURE) as f:
        text = f.read()
    if version == "3.0":
        text = text.replace("A: name=fake_accel\\n", "A: name=accel_3d\\n")
        text = text.replace("A: name=fake_accel-dev0\\n", "A: name=accel_3d-dev0\\n")
    kind = "iio-buffer-accel" if proxy_mode == "buffered" else "iio-poll-accel"
    marker = "E: SUBSYSTEM=iio\n"
    return text.replace(marker, marker + "E: IIO_SENSOR_PROXY_TYPE=%s\n" % kind, 1)


class Feeder(threading.Thread):
    """Plays the device: a scan every 10 ms into the buffer, and the same reading in the raw attributes.

    With `sway` (in raw counts), the buffer's scans swing along x by that much at 1.5 Hz about the
    reading: a device carried in a walking hand, moving all the time but not shaken. With `sway_raw`
    too, the raw attributes follow the last scan of each batch, so that a poller sees the device move.

    With `burst` N, the scans are written N at once every N * 10 ms, each stamped with its own time:
    umockdev's node wakes a reader at every write, so this is how a buffer whose watermark is N
    wakes one (scripts/bench-iio.sh, ten a watermark). The default, one scan every 10 ms, is how a
    data-ready trigger fills the kernel's buffer, which a reader sharing it in time sees."""

    def __init__(self, testbed, sway=0, sway_raw=False, burst=1):
        super().__init__(daemon=True)
        self.sway = sway
        self.sway_raw = sway_raw
        self.burst = max(1, int(burst))
        self.testbed = testbed
        self.fd = testbed.get_dev_fd(NODE)
        fcntl.fcntl(self.fd, fcntl.F_SETFL, fcntl.fcntl(self.fd, fcntl.F_GETFL) | os.O_NONBLOCK)
        self.carry = b""
        self.stopped = threading.Event()
        self.set(FLAT)

    def set(self, reading):
        self.reading = reading
        for axis, value in zip("xyz", reading):
            self.testbed.set_attribute(SYSPATH, "in_accel_%s_raw" % axis, "%d\n" % value)

    def run(self):
        # By default one scan every 10 ms, as a data-ready trigger fills the kernel's buffer (ten every 100 ms
        # in one burst stamped alike made a time-shared reader that woke just after each burst leave
        # iio-sensor-proxy nothing). A burst's scans are stamped 10 ms apart, the last now.
        n = 0
        next_scan = time.monotonic()
        while not self.stopped.is_set():
            next_scan += 0.01 * self.burst
            delay = next_scan - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            elif delay < -0.5:  # far behind (a loaded machine): carry on from now
                next_scan = time.monotonic()
            chunk = self.carry
            now = time.monotonic_ns()
            for i in range(self.burst):
                n += 1
                x, y, z = self.reading
                x += int(self.sway * math.sin(2 * math.pi * 1.5 * n / 100))
                chunk += struct.pack("<hhhxxq", x, y, z, now - (self.burst - 1 - i) * 10_000_000)
            # Nobody reading: the pty fills and refuses; keep scans whole across partial writes.
            try:
                written = os.write(self.fd, chunk)
            except BlockingIOError:
                written = 0
            rest = chunk[written:]
            self.carry = rest[:len(rest) % 16] if written else b""
            if self.sway_raw:
                self.testbed.set_attribute(SYSPATH, "in_accel_x_raw", "%d\n" % x)

    def stop(self):
        self.stopped.set()


class Monitor(threading.Thread):
    """monitor-sensor --accel: claims the accelerometer as the shell does, and collects its lines."""

    def __init__(self, env, version=None):
        super().__init__(daemon=True)
        command = version.monitor_command("--accel") if version else ["monitor-sensor", "--accel"]
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines = []
        self.start()

    def run(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip())

    def saw(self, orientation, since):
        return any(("orientation changed: %s" % orientation) in line for line in self.lines[since:])


def wait_until(condition, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def collect_sensor_replies(replies, told):
    """Appends each SensorAvailability among a streaming call's replies, until its connection closes."""
    try:
        for reply in replies:
            if "sensor" in reply:
                told.append(reply["sensor"])
    except Exception:
        pass


def status_of(daemon):
    with daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
        return tool.GetStatus()["status"]


def run_case(case, shim, shaked, version):
    name, proxy_mode, claims, sensor_settings, _, _ = case
    directory = tempfile.mkdtemp(prefix="iio-sharing-")
    os.chmod(directory, 0o755)
    # In /tmp, where a chrooted iio-sensor-proxy (3.7) sees it too.
    shutil.copy(shim, os.path.join(directory, "libiio-exclusivity.so"))
    shim = os.path.join(directory, "libiio-exclusivity.so")
    processes = []
    testbed = UMockdev.Testbed.new()
    if not testbed.add_from_string(fixture_text(proxy_mode, version.name)):
        raise RuntimeError("umockdev did not take the fixture")
    bus_path = os.path.join(directory, "system_bus_socket")
    with open(os.path.join(directory, "bus.conf"), "w") as f:
        f.write(BUS_CONFIG % bus_path)
    bus_env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS="unix:path=" + bus_path)
    for key in ("LD_PRELOAD", "UMOCKDEV_DIR"):
        bus_env.pop(key, None)
    device_env = dict(bus_env, UMOCKDEV_DIR=testbed.get_root_dir(), LD_PRELOAD="%s:%s" % (shim, PRELOAD),
                      IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE="1" if claims else "0")
    feeder = Feeder(testbed)
    feeder.start()
    result = {"case": name}
    try:
        bus = subprocess.Popen(["dbus-daemon", "--config-file=" + os.path.join(directory, "bus.conf"),
                                "--nofork", "--nopidfile"], env=bus_env)
        processes.append(bus)
        if not wait_until(lambda: os.path.exists(bus_path), 10):
            raise RuntimeError("dbus-daemon did not start")
        processes.append(PolkitMock(bus_env, "unix:path=" + bus_path).process)
        proxy_log = open(os.path.join(directory, "iio-sensor-proxy.log"), "w")
        proxy = version.start(dict(device_env, G_MESSAGES_DEBUG="all"), testbed.get_root_dir(), proxy_log)
        processes.append(proxy)
        ready = wait_until(lambda: proxy.poll() is not None or subprocess.run(
            ["busctl", "--address=unix:path=" + bus_path, "status", "net.hadess.SensorProxy"],
            capture_output=True).returncode == 0, 20)
        if not ready or proxy.poll() is not None:
            raise RuntimeError("iio-sensor-proxy did not come up:\n" + open(proxy_log.name).read()[-3000:])
        monitor = Monitor(bus_env, version)
        processes.append(monitor.process)
        if not wait_until(lambda: any("Has accelerometer" in line for line in monitor.lines), 10):
            raise RuntimeError("monitor-sensor saw no accelerometer: %s" % monitor.lines)
        config = os.path.join(directory, "shaked.conf")
        with open(config, "w") as f:
            f.write('[Sensor]\n%s\n%s' % (sensor_settings, OWN_ACCESS))
        with Daemon("--config", config, env=device_env) as daemon:
            app = App(daemon)
            # What the app is told about the sensor (Subscribe's replies that carry "sensor").
            told = []
            listener = threading.Thread(target=collect_sensor_replies, args=(app.events, told), daemon=True)
            listener.start()
            # And the session's prompt agent, which stands in for apps that don't take part.
            agent_client = daemon.client()
            agent = agent_client.open(UNDO, namespaced=False)
            agent_replies = agent.RegisterAgent(name="harness agent", _more=True)
            next(agent_replies)
            agent_told = []
            agent_listener = threading.Thread(target=collect_sensor_replies, args=(agent_replies, agent_told),
                                              daemon=True)
            agent_listener.start()
            app.context(focused=True, undo="Typing")
            # The sensor starts (or says why not) within the retry schedule's first steps.
            wait_until(lambda: status_of(daemon)["samplesRead"] > 0, 4)
            before = status_of(daemon)
            seen = []
            for orientation, reading in ORIENTATIONS:
                mark = len(monitor.lines)
                feeder.set(reading)
                # iio-sensor-proxy reads every 700 ms; a buffered one may first drain a backlog.
                seen.append(wait_until(lambda: monitor.saw(orientation, mark), 12 if case[4] else 5))
            after = status_of(daemon)
            # What they were told while the app was in context: once it leaves, the sensor goes off and
            # a listener still connected may hear that shake to undo is no longer unavailable.
            result["told"] = list(told)
            result["agent_told"] = list(agent_told)
            app.close()
            agent.close()
            agent_client.cleanup()
            listener.join(5)
            agent_listener.join(5)
            result.update(
                rotation=all(seen), rotations=seen, samples=after["samplesRead"] - before["samplesRead"],
                sensor=after["sensor"], unavailable=after.get("unavailable"), shaked_log=daemon.output()[-2000:])
        result["proxy_log"] = open(proxy_log.name).read()[-2000:]
        result["monitor"] = monitor.lines[-6:]
        return result
    finally:
        feeder.stop()
        stop_all(processes)
        shutil.rmtree(directory, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shim", required=True)
    parser.add_argument("--shaked", required=True)
    parser.add_argument("--case", action="append", help="run only these cases")
    parser.add_argument("--proxy", default="3.0", help="iio-sensor-proxy version: 3.0 (Debian 12) or 3.7 (Debian 13)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    from . import daemon as daemon_module
    daemon_module.SHAKED = os.path.abspath(args.shaked)
    version = ProxyVersion(args.proxy)
    version.check()
    failures = 0
    print("iio-sensor-proxy %s" % version.name)
    print("%-30s %-9s %-9s %-8s %s" % ("case", "rotation", "shaked", "samples", "shaked's sensor status"))
    for case in CASES:
        if args.case and case[0] not in args.case:
            continue
        started = time.monotonic()
        result = run_case(case, os.path.abspath(args.shim), args.shaked, version)
        want_rotation, want_reading = case[4], case[5]
        reads = result["samples"] > 0
        ok = result["rotation"] == want_rotation and reads == want_reading
        # Where shaked cannot read, it must say why and name the holder, to status tools and to apps.
        if not want_reading and ("in use by iio-sensor-proxy" not in result["sensor"] or not (
                result["unavailable"] or "").startswith("shake to undo unavailable: the accelerometer is in use by "
                                                         "iio-sensor-proxy (pid ")):
            ok = False
        if want_reading and result["unavailable"]:
            ok = False
        # The app in context is told too, not left to find out from GetStatus.
        for told in (result["told"], result["agent_told"]):
            if not want_reading and not (told and not told[-1]["available"]
                                         and told[-1].get("reason") == result["unavailable"]):
                ok = False
            if want_reading and told and not told[-1]["available"]:
                ok = False
        print("%-30s %-9s %-9s %-8d %s  [%s, %.1f s]" % (
            case[0], "works" if result["rotation"] else "stops", "reads" if reads else "no", result["samples"],
            result["sensor"][:160], "ok" if ok else "FAIL", time.monotonic() - started), flush=True)
        if not ok or args.verbose:
            print("  expected rotation %s, shaked reading %s; orientation changes seen: %s" % (
                want_rotation, want_reading, result["rotations"]))
            print("  unavailable: %s; the app was told: %s; the agent: %s" % (
                result["unavailable"], result["told"], result["agent_told"]))
            print("  monitor-sensor: %s" % result["monitor"])
            print("  shaked log:\n" + result["shaked_log"])
            print("  iio-sensor-proxy log:\n" + result["proxy_log"])
        failures += not ok
    if failures:
        sys.exit("%d sharing case(s) failed" % failures)
    print("sharing with iio-sensor-proxy: every case as expected")


if __name__ == "__main__":
    main()
