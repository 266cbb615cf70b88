"""One phone, faked: a umockdev accelerometer of a given driver kind, the real iio-sensor-proxy of a
given version on a private system bus, monitor-sensor claiming the accelerometer as the shell does,
and the real shaked with an app in context, every process under the kernel model (iio-exclusivity.c).

The device is played by `Player`, as the kernel and the chip would: a scan into the buffer every
sample period while the buffer is enabled (the kernel fills its kfifo only then), and the same reading
in the raw attributes; a reading held still, or a recorded trace (m/s², device axes, any rate) replayed
in real time. Used by iio_matrix.py; each scene runs in a process of its own (one umockdev testbed a
process).
"""

import bisect
import csv
import fcntl
import os
import shutil
import struct
import subprocess
import tempfile
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

from . import iio_drivers  # noqa: E402
from .daemon import OWN_ACCESS, UNDO, App, Daemon, prompt  # noqa: E402
from .iio_proxy import PolkitMock, ProxyVersion  # noqa: E402
from .private_bus import BUS_CONFIG  # noqa: E402
from .processes import stop_all  # noqa: E402

# m/s² per count: the ±8 g range (the fixture's 0.000598550 is ±2 g, which clips a hard shake's
# 45 m/s² to 19.6 and tests the clipping rather than the reading path).
SCALE = 0.002394202
G = round(9.80665 / SCALE)  # counts, 1 g
# Raw readings (sensor axes). The fixture's mount matrix swaps x and y: iio-sensor-proxy calls the
# device "normal" when its y axis points down, "left-up" when x points up.
FLAT = (0, 0, G)
NORMAL = (-G, 0, 0)
LEFT_UP = (0, G, 0)


def wait_until(condition, timeout, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def read_trace(path):
    """A trace file's (t, x, y, z) rows, in s and m/s²."""
    with open(path) as f:
        rows = [(float(r["t"]), float(r["x"]), float(r["y"]), float(r["z"])) for r in csv.DictReader(f)]
    return rows


class Player(threading.Thread):
    """Plays the device at `rate` Hz: scans into the node's pty while buffer/enable is 1, the reading
    in in_accel_*_raw always."""

    # The fastest the player keeps up with in Python: a rate set above it is played at it.
    FASTEST = 250.0

    def __init__(self, testbed, rate_attribute="sampling_frequency"):
        super().__init__(daemon=True)
        self.testbed = testbed
        self.period = 0.01
        self.rate_attribute = rate_attribute
        self.fd = testbed.get_dev_fd(iio_drivers.NODE)
        fcntl.fcntl(self.fd, fcntl.F_SETFL, fcntl.fcntl(self.fd, fcntl.F_GETFL) | os.O_NONBLOCK)
        self.sysfs = os.path.join(testbed.get_root_dir(), iio_drivers.SYSPATH.lstrip("/"))
        self.enable_path = os.path.join(self.sysfs, "buffer", "enable")
        self.lock = threading.Lock()
        self.reading = FLAT
        self.trace = None
        self.trace_start = 0.0
        self.shown = None
        self.stopped = threading.Event()
        self.scans_written = 0
        # The longest time between two ticks during the last replay, in s: on a loaded machine the
        # player itself can stall, and a shake it did not play is no test of the reader.
        self.worst_gap = 0.0
        self.show(FLAT)

    def hold(self, reading):
        """Holds the device still in `reading` (raw counts, sensor axes)."""
        with self.lock:
            self.reading = reading
            self.trace = None

    def replay(self, rows):
        """Replays a trace (read_trace's rows) from now; returns its length in seconds."""
        with self.lock:
            self.trace = ([r[0] - rows[0][0] for r in rows], rows)
            self.trace_start = time.monotonic()
            self.worst_gap = 0.0
        return rows[-1][0] - rows[0][0]

    def _current(self, now):
        with self.lock:
            if self.trace is None:
                return self.reading
            times, rows = self.trace
            t = now - self.trace_start
            if t >= times[-1]:
                self.trace = None
                return self.reading
            i = max(1, bisect.bisect_right(times, t))
            t0, t1 = times[i - 1], times[i]
            a, b = rows[i - 1], rows[i]
            w = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
            x, y, z = (a[k] + w * (b[k] - a[k]) for k in (1, 2, 3))
            # Trace axes as shaked sees them after the fixture's mount matrix (which swaps x and y).
            return tuple(max(-32768, min(32767, int(round(v / SCALE)))) for v in (y, x, z))

    def show(self, reading):
        # Written and renamed into place, so that a reader sees the old value or the new, never a partial
        # one, without the fsync of umockdev's set_attribute (which a hundred times a second cannot keep up).
        if reading != self.shown:
            for axis, value in zip("xyz", reading):
                path = os.path.join(self.sysfs, "in_accel_%s_raw" % axis)
                with open(path + ".new", "w") as f:
                    f.write("%d\n" % value)
                os.replace(path + ".new", path)
            self.shown = reading

    def enabled(self):
        try:
            with open(self.enable_path) as f:
                return f.read(1) == "1"
        except OSError:
            return False

    # The scan elements in scan index order, with their storage size and struct code (the fixtures' types).
    ELEMENTS = (("in_accel_x", 2, "h"), ("in_accel_y", 2, "h"), ("in_accel_z", 2, "h"), ("in_timestamp", 8, "q"))

    def layout(self):
        """The scan as the kernel lays it out when the buffer is enabled (iio_compute_scan_bytes() in
        industrialio-buffer.c): the enabled elements in index order, each aligned to its size, the scan
        padded to a multiple of the largest. Returns the struct format and the enabled element names."""
        fmt, offset, largest, names = "<", 0, 1, []
        for name, size, code in self.ELEMENTS:
            try:
                with open(os.path.join(self.sysfs, "scan_elements", name + "_en")) as f:
                    if f.read(1) != "1":
                        continue
            except OSError:
                continue
            pad = -offset % size
            fmt += "x" * pad + code
            offset += pad + size
            largest = max(largest, size)
            names.append(name)
        return fmt + "x" * (-offset % largest), names

    def rate(self, unclamped=False):
        """The device's sampling_frequency now (the chip runs at it), at most FASTEST unless `unclamped`."""
        try:
            with open(os.path.join(self.sysfs, self.rate_attribute)) as f:
                rate = float(f.read().strip())
        except (OSError, ValueError):
            return 1.0 / self.period
        return rate if unclamped else min(max(rate, 0.5), self.FASTEST)

    def run(self):
        next_tick = time.monotonic()
        ticks = 0
        previous = next_tick
        layout = None
        while not self.stopped.is_set():
            now = time.monotonic()
            if self.trace is not None:
                self.worst_gap = max(self.worst_gap, now - previous)
            previous = now
            if ticks % 20 == 0:
                self.period = 1.0 / self.rate()
            ticks += 1
            next_tick += self.period
            delay = next_tick - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            elif delay < -0.5:  # far behind (a loaded machine): carry on from now
                next_tick = time.monotonic()
            reading = self._current(time.monotonic())
            self.show(reading)
            if not self.enabled():
                layout = None
            else:
                # The layout is fixed when the buffer is enabled: a scan holds the elements enabled then
                # (a buffer enabled with x, y and z alone has 6-byte scans, not 16). The *_en cannot change
                # while it runs, so they are read again every fifth tick too: a disable and enable by two
                # processes within one tick (libiio's close, then 3.7's set-up) is not missed.
                if layout is None or ticks % 5 == 0:
                    layout = self.layout()
                fmt, names = layout
                values = [reading[i] for i, axis in enumerate("xyz") if "in_accel_" + axis in names]
                if "in_timestamp" in names:
                    values.append(time.monotonic_ns())
                try:
                    os.write(self.fd, struct.pack(fmt, *values))
                    self.scans_written += 1
                except BlockingIOError:
                    pass  # nobody reads: the fifo is full, and the kernel drops new scans then

    def stop(self):
        self.stopped.set()


class Monitor:
    """monitor-sensor --accel of the proxy's release: claims the accelerometer and collects its lines."""

    def __init__(self, version, env):
        self.process = subprocess.Popen(version.monitor_command("--accel"), env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines = []
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip())

    def orientation(self):
        """The orientation last reported: at the claim ("=== Has accelerometer (orientation: X, ...") or since."""
        for line in reversed(self.lines):
            if "orientation changed: " in line:
                return line.split("orientation changed: ", 1)[1].strip()
            if "Has accelerometer (orientation: " in line:
                return line.split("(orientation: ", 1)[1].split(",")[0].split(")")[0].strip()
        return None

    def saw(self, text, since=0):
        return any(text in line for line in self.lines[since:])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Scene:
    """The processes of one phone; use as a context manager."""

    def __init__(self, version, kind, shim, shaked_config=""):
        self.version = ProxyVersion(version)
        self.kind = kind
        self.dir = tempfile.mkdtemp(prefix="iio-scene-")
        os.chmod(self.dir, 0o755)
        # In /tmp, where a chrooted iio-sensor-proxy (3.7) sees it too.
        self.shim = os.path.join(self.dir, "libiio-exclusivity.so")
        shutil.copy(shim, self.shim)
        self.testbed = UMockdev.Testbed.new()
        text = iio_drivers.fixture_text(kind, iio_drivers.udev_proxy_type(kind))
        text = text.replace("A: in_accel_scale=0.000598550\\n", "A: in_accel_scale=%.9f\\n" % SCALE)
        if not self.testbed.add_from_string(text):
            raise RuntimeError("umockdev did not take the %s fixture" % kind)
        self.bus_path = os.path.join(self.dir, "system_bus_socket")
        self.bus_address = "unix:path=" + self.bus_path
        self.bus_env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.bus_address)
        for key in ("LD_PRELOAD", "UMOCKDEV_DIR"):
            self.bus_env.pop(key, None)
        self.device_env = dict(self.bus_env, UMOCKDEV_DIR=self.testbed.get_root_dir(),
                               LD_PRELOAD=self.version.preload(self.shim), **iio_drivers.model_env(kind))
        self.shaked_config = shaked_config
        self.processes = []
        self.proxy = None
        self.proxy_logs = []
        self.daemon = None
        self.app = None
        self.replies = []
        self.player = Player(self.testbed, iio_drivers.DRIVERS[kind].rate_attribute)

    def __enter__(self):
        self.player.start()
        with open(os.path.join(self.dir, "bus.conf"), "w") as f:
            f.write(BUS_CONFIG % self.bus_path)
        bus = subprocess.Popen(["dbus-daemon", "--config-file=" + os.path.join(self.dir, "bus.conf"), "--nofork",
                                "--nopidfile"], env=self.bus_env, stderr=subprocess.DEVNULL)
        self.processes.append(bus)
        if not wait_until(lambda: os.path.exists(self.bus_path), 10):
            raise RuntimeError("dbus-daemon did not start")
        self.processes.append(PolkitMock(self.bus_env, self.bus_address).process)
        return self

    def __exit__(self, *exc):
        self.player.stop()
        if self.app:
            self.app.close()
        if self.daemon:
            self.daemon.__exit__(None, None, None)
        self.stop_proxy()
        stop_all(self.processes)
        shutil.rmtree(self.dir, ignore_errors=True)

    # iio-sensor-proxy
    def start_proxy(self):
        log = open(os.path.join(self.dir, "iio-sensor-proxy-%d.log" % len(self.proxy_logs)), "w")
        self.proxy_logs.append(log.name)
        self.proxy = self.version.start(dict(self.device_env, G_MESSAGES_DEBUG="all"), self.testbed.get_root_dir(),
                                        log)
        up = wait_until(lambda: self.proxy.poll() is not None or subprocess.run(
            ["busctl", "--address=" + self.bus_address, "status", "net.hadess.SensorProxy"],
            capture_output=True).returncode == 0, 20)
        if not up or self.proxy.poll() is not None:
            raise RuntimeError("iio-sensor-proxy did not come up:\n" + self.proxy_log()[-3000:])

    def stop_proxy(self):
        if self.proxy and self.proxy.poll() is None:
            self.proxy.terminate()
            try:
                self.proxy.wait(10)
            except subprocess.TimeoutExpired:
                self.proxy.kill()
                self.proxy.wait()

    def proxy_log(self):
        text = ""
        for name in self.proxy_logs:
            with open(name) as f:
                text += f.read()
        return text

    # shaked and the app in context
    def start_shaked(self, system_bus=True, proxy_installed=True):
        """Starts shaked with the app in context. Without `system_bus`, shaked finds no system bus; without
        `proxy_installed`, it is told iio-sensor-proxy is not installed (as on a phone without it), else
        where this version's binary is."""
        config = os.path.join(self.dir, "shaked.conf")
        with open(config, "w") as f:
            f.write(self.shaked_config + "\n" + OWN_ACCESS)
        env = dict(self.device_env,
                   SHAKED_TEST_ROTATION_SERVICE_FILES=self.version.installed_path() if proxy_installed else "")
        if not system_bus:
            env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + os.path.join(self.dir, "no-bus")
        self.daemon = Daemon("--config", config, env=env).__enter__()
        self.app = App(self.daemon)
        threading.Thread(target=self._collect_replies, daemon=True).start()
        self.app.context(focused=True, undo="Typing")

    def _collect_replies(self):
        try:
            for reply in self.app.events:
                self.replies.append(reply)
                event = reply.get("event")
                if event and event["kind"] == "intent":
                    # As an app does: propose the undo, then (as the person) cancel, ready for the next shake.
                    self.app.calls.AnswerIntent(token=self.app.token, intent=event["intent"], prompt=prompt())
                    self.app.calls.Choose(token=self.app.token, intent=event["intent"], choice="cancel")
        except Exception:
            pass

    def intents(self):
        return sum(1 for r in self.replies if r.get("event", {}).get("kind") == "intent")

    def status(self):
        with self.daemon.client() as client, client.open(UNDO, namespaced=False) as tool:
            return tool.GetStatus()["status"]
