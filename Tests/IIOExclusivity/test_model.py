#!/usr/bin/env python3
"""The exclusivity model by itself (iio-exclusivity.c), on the fake accelerometer under umockdev.

Usage: test_model.py SHIM.so     (runs itself under umockdev-run for each driver kind)
Each check can fail: the model must refuse what the kernel refuses, and allow what it allows.
"""

import errno
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "Tests", "IIOSensorsTests", "Fixtures", "fake-accel.umockdev")
DEVICE = "/sys/bus/iio/devices/iio:device0"
NODE = "/dev/iio:device0"


def expect_errno(code, action, what):
    try:
        action()
    except OSError as error:
        if error.errno != code:
            sys.exit("FAIL %s: errno %s, expected %s" % (what, errno.errorcode.get(error.errno), errno.errorcode[code]))
        print("ok   %s: %s" % (what, errno.errorcode[code]))
        return
    sys.exit("FAIL %s: succeeded, expected %s" % (what, errno.errorcode[code]))


def expect_ok(action, what):
    try:
        value = action()
    except OSError as error:
        sys.exit("FAIL %s: %s" % (what, error))
    print("ok   %s" % what)
    return value


def read_raw():
    fd = os.open(DEVICE + "/in_accel_x_raw", os.O_RDONLY)
    try:
        return os.read(fd, 64)
    finally:
        os.close(fd)


def set_enable(value):
    with open(DEVICE + "/buffer/enable", "w") as f:
        f.write(value)


def inside(claims):
    """Runs under the preloads: the checks for one driver kind."""
    first = expect_ok(lambda: os.open(NODE, os.O_RDONLY | os.O_NONBLOCK), "first open of the node")
    expect_errno(errno.EBUSY, lambda: os.open(NODE, os.O_RDONLY | os.O_NONBLOCK), "second open in the same process")
    child = subprocess.run([sys.executable, "-c", "import os; os.open(%r, os.O_RDONLY | os.O_NONBLOCK)" % NODE],
                           capture_output=True, text=True)
    if child.returncode == 0 or "Device or resource busy" not in child.stderr:
        sys.exit("FAIL open from another process while held: rc %d, %s" % (child.returncode, child.stderr.strip()))
    print("ok   open from another process while held: EBUSY")
    duplicate = os.dup(first)
    os.close(first)
    expect_errno(errno.EBUSY, lambda: os.open(NODE, os.O_RDONLY), "open while a dup of the holder stays open")
    os.close(duplicate)
    again = expect_ok(lambda: os.open(NODE, os.O_RDONLY | os.O_NONBLOCK), "open after the last close")
    os.close(again)

    expect_ok(read_raw, "raw read with the buffer disabled")
    set_enable("1")
    if claims:
        expect_errno(errno.EBUSY, read_raw, "raw read with the buffer enabled (driver claims direct mode)")
        fd = expect_ok(lambda: os.open(DEVICE + "/in_accel_y_raw", os.O_RDONLY), "opening a raw attribute still works")
        expect_errno(errno.EBUSY, lambda: os.pread(fd, 64, 0), "pread of it while enabled")
        os.close(fd)
    else:
        value = expect_ok(read_raw, "raw read with the buffer enabled (driver does not claim direct mode)")
        if value.strip() != b"100":
            sys.exit("FAIL raw value %r, expected 100" % value)
    expect_ok(lambda: open(DEVICE + "/in_accel_scale").read(), "other attributes read while enabled")
    set_enable("0")
    expect_ok(read_raw, "raw read after the buffer is disabled again")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--inside":
        inside(sys.argv[2] == "1")
        return
    shim = os.path.abspath(sys.argv[1])
    for claims in ("1", "0"):
        print("driver %s direct mode:" % ("claims" if claims == "1" else "does not claim"))
        env = dict(os.environ, IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE=claims)
        env.pop("LD_PRELOAD", None)
        env.pop("UMOCKDEV_DIR", None)
        # umockdev-run puts its own preload first in LD_PRELOAD; the shim goes before it.
        command = ["umockdev-run", "-d", FIXTURE, "--", "env", "LD_PRELOAD=%s:libumockdev-preload.so.0" % shim,
                   sys.executable, os.path.abspath(__file__), "--inside", claims]
        result = subprocess.run(command, env=env)
        if result.returncode != 0:
            sys.exit(result.returncode)
    print("the exclusivity model: all checks passed")


if __name__ == "__main__":
    main()
