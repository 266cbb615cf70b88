#!/usr/bin/env python3
"""Each driver kind of shaked_harness.iio_drivers as a umockdev device, checked against what it claims.

Usage: test_drivers.py SHIM.so     (with the Python of scripts/python-env.sh, which has the harness installed
                                   and sees Debian's gi and gir1.2-umockdev-1.0)
For each kind, a testbed made here (gi's UMockdev, as iio_sharing.py makes it) must take the fixture and
show the driver's name, rates, buffer and triggers; then a child under the kernel model, with the kind's
model_env(), checks the behaviour: raw reads (refused while buffered or not, with their sleep), enabling
the buffer with and without a trigger, and that nothing else is there.
"""

import errno
import os
import struct
import subprocess
import sys
import time

from shaked_harness.iio_drivers import (DRIVERS, FIFO, KINDS, NODE, SYSPATH, TRIGGERED, fixture_text, model_env,
                                        udev_proxy_type)

PRELOAD = "libumockdev-preload.so.0"


def fail(what):
    sys.exit("FAIL " + what)


def read(path):
    with open(path) as f:
        return f.read()


def store(path, value):
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def outcome(action):
    """The errno of action(), 0 when it succeeds."""
    try:
        action()
    except OSError as error:
        return error.errno
    return 0


def check(condition, what):
    if not condition:
        fail(what)
    print("ok   " + what)


def check_testbed(kind, root):
    """What the fixture puts in sysfs, seen from the test process through the testbed's directory."""
    d = DRIVERS[kind]
    device = root + SYSPATH
    check(read(device + "/name") == d.name + "\n", "%s: name is %s" % (kind, d.name))
    check(read("%s/%s" % (device, d.rate_attribute)) == d.rate + "\n",
          "%s: %s starts at %s" % (kind, d.rate_attribute, d.rate))
    check(read("%s/%s" % (device, d.available_attribute)) == d.available + "\n",
          "%s: %s lists %s" % (kind, d.available_attribute, d.available))
    other_rates = {"sampling_frequency", "in_accel_sampling_frequency"} - {d.rate_attribute}
    check(not any(os.path.exists("%s/%s" % (device, name)) for name in other_rates),
          "%s: no other rate attribute" % kind)
    check(os.path.isdir(device + "/buffer") == bool(d.buffer) and
          os.path.isdir(device + "/scan_elements") == bool(d.buffer),
          "%s: %s" % (kind, "buffer/ and scan_elements/ (%s)" % d.buffer if d.buffer else "no buffer at all"))
    check(os.path.exists(device + "/trigger/current_trigger") == bool(d.trigger),
          "%s: %s" % (kind, "trigger/current_trigger" if d.trigger else "no trigger/ directory"))
    if d.trigger:
        current = read(device + "/trigger/current_trigger").strip()
        check(current == (d.trigger if d.trigger_selected else ""),
              "%s: current_trigger starts as %r" % (kind, current))
    triggers = sorted(read("%s/sys/bus/iio/devices/%s/name" % (root, entry)).strip()
                      for entry in os.listdir(root + "/sys/bus/iio/devices") if entry.startswith("trigger"))
    expected = sorted(([d.trigger] if d.trigger else []) + list(d.other_triggers))
    check(triggers == expected, "%s: triggers %s" % (kind, triggers))
    properties = read(device + "/uevent")
    check("IIO_SENSOR_PROXY_TYPE=%s\n" % udev_proxy_type(kind) in properties,
          "%s: IIO_SENSOR_PROXY_TYPE=%s" % (kind, udev_proxy_type(kind)))


def inside(kind):
    """Under the preloads with the kind's model_env(): the driver's behaviour, through /sys."""
    d = DRIVERS[kind]
    device = "/sys/bus/iio/devices/iio:device0"
    rate = float(read("%s/%s" % (device, d.rate_attribute)))
    started = time.monotonic()
    value = read(device + "/in_accel_x_raw")
    took = time.monotonic() - started
    check(value == "100\n", "%s: raw read with no buffer running" % kind)
    if d.raw_read_periods:
        least = d.raw_read_periods / rate
        check(took >= least * 0.95, "%s: it sleeps %g periods at %g Hz: %.3f s (at least %.3f s)" % (
            kind, d.raw_read_periods, rate, took, least))
    code = outcome(lambda: store("%s/%s" % (device, d.rate_attribute), "7"))
    check(code == (errno.EINVAL if d.rate_listed_only else 0), "%s: an unlisted rate (7 Hz) %s" % (
        kind, "refused" if d.rate_listed_only else "taken (any rate)"))
    store("%s/%s" % (device, d.rate_attribute), d.rate)
    node = os.open(NODE, os.O_RDONLY | os.O_NONBLOCK)
    check(outcome(lambda: os.open(NODE, os.O_RDONLY | os.O_NONBLOCK)) == errno.EBUSY, "%s: one opener" % kind)
    os.close(node)
    if not d.buffer:
        return
    store(device + "/scan_elements/in_accel_x_en", "1")
    if d.trigger:
        store(device + "/trigger/current_trigger", "")
    code = outcome(lambda: store(device + "/buffer/enable", "1"))
    if d.buffer == TRIGGERED:
        check(code == errno.EINVAL, "%s: no buffer without a trigger (triggered buffer only)" % kind)
        store(device + "/trigger/current_trigger", d.trigger)
        store(device + "/buffer/enable", "1")
    else:
        check(code == 0, "%s: the buffer runs without a trigger (%s)" % (kind, d.buffer))
        if d.trigger:
            check(outcome(lambda: store(device + "/trigger/current_trigger", d.trigger)) == 0,
                  "%s: current_trigger writable while its FIFO runs" % kind)
            store(device + "/buffer/enable", "0")
            store(device + "/buffer/enable", "1")
    if d.trigger:
        check(outcome(lambda: store(device + "/trigger/current_trigger", d.trigger)) == errno.EBUSY,
              "%s: current_trigger busy while buffered" % kind)
    rates = read("%s/%s" % (device, d.available_attribute)).split()
    code = outcome(lambda: store("%s/%s" % (device, d.rate_attribute), rates[-1]))
    if d.rate_write_claims_direct_mode:
        check(code == errno.EBUSY, "%s: rate writes refused while buffered" % kind)
    else:
        check(code == 0, "%s: the rate written while buffered (%s)" % (kind, rates[-1]))
    code = outcome(lambda: read(device + "/in_accel_y_raw"))
    if d.claims_direct_mode:
        check(code == errno.EBUSY, "%s: raw reads refused while buffered" % kind)
    else:
        check(code == 0, "%s: raw reads allowed while buffered" % kind)
    store(device + "/buffer/enable", "0")
    if d.buffer == FIFO:
        check(not os.path.exists(device + "/trigger"), "%s: a FIFO without a trigger" % kind)


def check_player_layout(testbed):
    """The harness's player (iio_scene.Player) writes scans laid out as the kernel lays them out for the
    elements enabled (iio_compute_scan_bytes()): a buffer with x, y and z alone has 6-byte scans."""
    from shaked_harness.iio_scene import Player
    player = Player(testbed)
    elements = os.path.join(testbed.get_root_dir(), SYSPATH.lstrip("/"), "scan_elements")
    for enabled, size in ((("x", "y", "z", "timestamp"), 16), (("x", "y", "z"), 6), (("y", "z", "timestamp"), 16),
                          (("timestamp",), 8)):
        for name in ("in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"):
            store(os.path.join(elements, name + "_en"), "1\n" if name.rsplit("_", 1)[-1] in enabled else "0\n")
        fmt, names = player.layout()
        check(struct.calcsize(fmt) == size and len(names) == len(enabled),
              "the player's scan with %s enabled is %d bytes (%s)" % (", ".join(enabled), size, fmt))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--inside":
        inside(sys.argv[2])
        return
    import gi
    gi.require_version("UMockdev", "1.0")
    from gi.repository import UMockdev
    shim = os.path.abspath(sys.argv[1])
    for kind in KINDS:
        print("%s (%s):" % (kind, DRIVERS[kind].phones))
        testbed = UMockdev.Testbed.new()
        if not testbed.add_from_string(fixture_text(kind, udev_proxy_type(kind))):
            fail("%s: umockdev did not take the fixture" % kind)
        print("ok   %s: umockdev takes the fixture" % kind)
        check_testbed(kind, testbed.get_root_dir())
        env = dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir(), LD_PRELOAD="%s:%s" % (shim, PRELOAD),
                   **model_env(kind))
        result = subprocess.run([sys.executable, os.path.abspath(__file__), "--inside", kind], env=env)
        if result.returncode != 0:
            sys.exit(result.returncode)
        if kind == KINDS[0]:
            check_player_layout(testbed)
        del testbed
    print("the driver kinds: all checks passed")


if __name__ == "__main__":
    main()
