#!/usr/bin/env python3
"""The kernel model by itself (iio-exclusivity.c), on the fake accelerometer under umockdev.

Usage: test_model.py SHIM.so     (runs itself under umockdev-run once per rule, with that rule's settings)
Each check can fail: the model must refuse what the kernel refuses, and allow what it allows.
"""

import ctypes
import errno
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "Tests", "IIOSensorsTests", "Fixtures", "fake-accel.umockdev")
DEVICE = "/sys/bus/iio/devices/iio:device0"
NODE = "/dev/iio:device0"
TRIGGER = "fake_accel-dev0"


def fail(what):
    sys.exit("FAIL " + what)


def expect_errno(code, action, what):
    try:
        action()
    except OSError as error:
        if error.errno != code:
            fail("%s: errno %s, expected %s" % (what, errno.errorcode.get(error.errno), errno.errorcode[code]))
        print("ok   %s: %s" % (what, errno.errorcode[code]))
        return
    fail("%s: succeeded, expected %s" % (what, errno.errorcode[code]))


def expect_ok(action, what):
    try:
        value = action()
    except OSError as error:
        fail("%s: %s" % (what, error))
    print("ok   %s" % what)
    return value


def expect_value(name, value, what):
    seen = attribute(name)
    if seen != value:
        fail("%s: %s holds %r, expected %r" % (what, name, seen, value))
    print("ok   %s: %s = %r" % (what, name, seen))


def attribute(name):
    with open(os.path.join(DEVICE, name)) as f:
        return f.read()


def store(name, value):
    """A sysfs write as GLib and Swift do it: open, one write(2), close."""
    fd = os.open(os.path.join(DEVICE, name), os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def read_raw(axis="x"):
    fd = os.open("%s/in_accel_%s_raw" % (DEVICE, axis), os.O_RDONLY)
    try:
        return os.read(fd, 64)
    finally:
        os.close(fd)


def copied(copy):
    """Copies in_accel_x_raw to a file with `copy` (os.copy_file_range or os.sendfile)."""
    source = os.open(DEVICE + "/in_accel_x_raw", os.O_RDONLY)
    target = os.open("/tmp", os.O_WRONLY | os.O_TMPFILE)
    try:
        if copy is os.sendfile:
            return copy(target, source, None, 64)
        return copy(source, target, 64)
    finally:
        os.close(source)
        os.close(target)


def fortified_read():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.__read_chk.restype = ctypes.c_ssize_t
    libc.__read_chk.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t]
    fd = os.open(DEVICE + "/in_accel_x_raw", os.O_RDONLY)
    buffer = ctypes.create_string_buffer(64)
    try:
        if libc.__read_chk(fd, buffer, 64, 64) < 0:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        return buffer.value
    finally:
        os.close(fd)


def enable_buffer():
    store("scan_elements/in_accel_x_en", "1")
    store("buffer/enable", "1")


class Stdio:
    """libc's stdio, called as C programs call it (libiio's local_write_dev_attr, iio-sensor-proxy's
    _write_sysfs_int and _write_sysfs_string), so that the model's fopen is the one reached."""

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        for name, restype, argtypes in [
                ("fopen", ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p]),
                ("fputs", ctypes.c_int, [ctypes.c_char_p, ctypes.c_void_p]),
                ("fread", ctypes.c_size_t, [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p]),
                ("fflush", ctypes.c_int, [ctypes.c_void_p]), ("ferror", ctypes.c_int, [ctypes.c_void_p]),
                ("fclose", ctypes.c_int, [ctypes.c_void_p]),
                ("setvbuf", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t])]:
            function = getattr(self.libc, name)
            function.restype, function.argtypes = restype, argtypes

    def write(self, name, value, unbuffered):
        """Returns the errno of the write (0 when it succeeded), checking fputs, fflush, then fclose."""
        stream = self.libc.fopen(os.path.join(DEVICE, name).encode(), b"we")
        if not stream:
            fail("fopen %s: errno %d" % (name, ctypes.get_errno()))
        if unbuffered:
            self.libc.setvbuf(stream, None, 2, 0)  # _IONBF, as _write_sysfs_int does
        ctypes.set_errno(0)
        failed = self.libc.fputs(value.encode(), stream) < 0
        failed = self.libc.fflush(stream) != 0 or failed
        failed = self.libc.ferror(stream) != 0 or failed
        code = ctypes.get_errno() if failed else 0
        if self.libc.fclose(stream) != 0 and not code:
            code = ctypes.get_errno()
        return code

    def read(self, name):
        stream = self.libc.fopen(os.path.join(DEVICE, name).encode(), b"re")
        if not stream:
            raise OSError(ctypes.get_errno(), "fopen")
        buffer = ctypes.create_string_buffer(64)
        ctypes.set_errno(0)
        n = self.libc.fread(buffer, 1, 63, stream)
        code = ctypes.get_errno() if self.libc.ferror(stream) else 0
        self.libc.fclose(stream)
        if code:
            raise OSError(code, os.strerror(code))
        return buffer.raw[:n]


def check_node():
    """Rule 1: one opener of the node."""
    first = expect_ok(lambda: os.open(NODE, os.O_RDONLY | os.O_NONBLOCK), "first open of the node")
    expect_errno(errno.EBUSY, lambda: os.open(NODE, os.O_RDONLY | os.O_NONBLOCK), "second open in the same process")
    child = subprocess.run([sys.executable, "-c", "import os; os.open(%r, os.O_RDONLY | os.O_NONBLOCK)" % NODE],
                           capture_output=True, text=True)
    if child.returncode == 0 or "Device or resource busy" not in child.stderr:
        fail("open from another process while held: rc %d, %s" % (child.returncode, child.stderr.strip()))
    print("ok   open from another process while held: EBUSY")
    duplicate = os.dup(first)
    os.close(first)
    expect_errno(errno.EBUSY, lambda: os.open(NODE, os.O_RDONLY), "open while a dup of the holder stays open")
    os.close(duplicate)
    again = expect_ok(lambda: os.open(NODE, os.O_RDONLY | os.O_NONBLOCK), "open after the last close")
    os.close(again)


def check_raw_reads(claims):
    """Rule 2: raw reads while the buffer is enabled, refused by drivers that claim direct mode."""
    expect_ok(read_raw, "raw read with the buffer disabled")
    enable_buffer()
    if claims:
        expect_errno(errno.EBUSY, read_raw, "raw read with the buffer enabled (driver claims direct mode)")
        fd = expect_ok(lambda: os.open(DEVICE + "/in_accel_y_raw", os.O_RDONLY), "opening a raw attribute still works")
        expect_errno(errno.EBUSY, lambda: os.pread(fd, 64, 0), "pread of it while enabled")
        os.close(fd)
        expect_errno(errno.EBUSY, lambda: Stdio().read("in_accel_z_raw"), "fread of it through stdio while enabled")
        for name, copy in [("copy_file_range (coreutils' cat)", os.copy_file_range), ("sendfile", os.sendfile)]:
            expect_errno(errno.EBUSY, lambda: copied(copy), "%s of it while enabled" % name)
        expect_errno(errno.EBUSY, fortified_read, "__read_chk (_FORTIFY_SOURCE) of it while enabled")
    else:
        value = expect_ok(read_raw, "raw read with the buffer enabled (driver does not claim direct mode)")
        if value.strip() != b"100":
            fail("raw value %r, expected 100" % value)
        if expect_ok(lambda: copied(os.copy_file_range), "copy_file_range of it") != 4:
            fail("copy_file_range copied other than the 4 bytes of '100\\n'")
        expect_ok(fortified_read, "__read_chk of it")
    expect_ok(lambda: attribute("in_accel_scale"), "other attributes read while enabled")
    store("buffer/enable", "0")
    expect_ok(read_raw, "raw read after the buffer is disabled again")


def check_config_writes():
    """Rule 3: configuration writes while the buffer is enabled."""
    stdio = Stdio()
    store("buffer/length", "64")
    expect_value("buffer/length", "64\n", "a store replaces a longer value (no leftover digits)")
    store("trigger/current_trigger", TRIGGER)
    expect_value("trigger/current_trigger", TRIGGER + "\n", "current_trigger set to an existing trigger")
    store("trigger/current_trigger", "NULL")
    expect_value("trigger/current_trigger", "\n", "a name no trigger has clears current_trigger")
    store("trigger/current_trigger", TRIGGER)
    expect_errno(errno.EINVAL, lambda: store("buffer/enable", "1"), "enable with no scan element enabled")
    expect_value("buffer/enable", "0\n", "a refused enable")
    expect_errno(errno.EINVAL, lambda: store("buffer/watermark", "0"), "watermark 0")
    enable_buffer()
    expect_value("buffer/enable", "1\n", "enable after enabling a scan element")
    expect_ok(lambda: store("buffer/enable", "1"), "enable again while enabled (already in that state)")
    expect_errno(errno.EBUSY, lambda: store("scan_elements/in_accel_y_en", "1"), "scan element enabled while buffered")
    expect_errno(errno.EBUSY, lambda: store("scan_elements/in_accel_x_en", "1"), "scan element set to its own value")
    expect_errno(errno.EBUSY, lambda: store("scan_elements/in_timestamp_en", "1"), "timestamp enabled while buffered")
    expect_ok(lambda: store("buffer/length", "64"), "buffer/length written with its current value")
    expect_errno(errno.EBUSY, lambda: store("buffer/length", "128"), "buffer/length changed while buffered")
    expect_errno(errno.EBUSY, lambda: store("buffer/watermark", "2"), "buffer/watermark changed while buffered")
    expect_errno(errno.EBUSY, lambda: store("trigger/current_trigger", TRIGGER), "current_trigger written while buffered")
    expect_errno(errno.EBUSY, lambda: store("trigger/current_trigger", "NULL"),
                 "current_trigger emptied while buffered (iio-sensor-proxy's teardown)")
    expect_ok(lambda: store("sampling_frequency", "30"),
              "any rate, even while buffered, without the rate rules (inv_mpu6050's sampling_frequency)")
    for unbuffered in (True, False):
        how = "fopen+fputs, unbuffered (iio-sensor-proxy)" if unbuffered else "fopen+fputs+fflush (libiio)"
        for name, value in [("scan_elements/in_accel_x_en", "0"), ("trigger/current_trigger", "NULL"),
                            ("buffer/length", "128")]:
            code = stdio.write(name, value, unbuffered)
            if code != errno.EBUSY:
                fail("%s of %s while buffered: errno %s, expected EBUSY" % (how, name, errno.errorcode.get(code, code)))
            print("ok   %s of %s while buffered: EBUSY" % (how, name))
    expect_value("scan_elements/in_accel_x_en", "1\n", "refused writes leave the values as they were")
    expect_value("buffer/length", "64\n", "refused writes leave the values as they were")
    expect_value("trigger/current_trigger", TRIGGER + "\n", "refused writes leave the values as they were")
    if stdio.write("buffer/enable", "0", True) != 0:
        fail("disabling the buffer through stdio")
    expect_value("buffer/enable", "0\n", "buffer disabled through stdio (anyone may)")
    for unbuffered in (True, False):
        if stdio.write("buffer/length", "128" if unbuffered else "256", unbuffered) != 0:
            fail("buffer/length through stdio with the buffer disabled")
    expect_value("buffer/length", "256\n", "stdio writes succeed once the buffer is disabled")
    expect_ok(lambda: store("scan_elements/in_accel_y_en", "1"), "scan element enabled once disabled")
    expect_ok(lambda: store("trigger/current_trigger", ""), "current_trigger emptied once disabled")
    store("buffer/enable", "1")
    expect_ok(lambda: store("trigger/current_trigger", TRIGGER),
              "current_trigger set while a buffer runs without one (the driver's FIFO, not triggered mode)")
    store("buffer/enable", "0")
    expect_errno(errno.EINVAL, lambda: store("scan_elements/in_accel_y_en", "maybe"), "a scan element set to a non-boolean")
    expect_errno(errno.ENOENT, lambda: os.open(DEVICE + "/buffer/no_such_attribute", os.O_WRONLY | os.O_CREAT, 0o644),
                 "opening an attribute the device lacks, with O_CREAT (sysfs makes no files)")
    expect_errno(errno.ENOENT, lambda: stdio_open_for_writing("buffer/no_such_attribute"),
                 "fopen(\"w\") of an attribute the device lacks")


def stdio_open_for_writing(name):
    stdio = Stdio()
    stream = stdio.libc.fopen(os.path.join(DEVICE, name).encode(), b"w")
    if not stream:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    stdio.libc.fclose(stream)


def check_needs_trigger():
    """Rule 3, a driver with only a triggered buffer: enabling needs a trigger."""
    store("trigger/current_trigger", "")
    store("scan_elements/in_accel_x_en", "1")
    expect_errno(errno.EINVAL, lambda: store("buffer/enable", "1"), "enable with no trigger (triggered buffer only)")
    store("trigger/current_trigger", TRIGGER)
    expect_ok(lambda: store("buffer/enable", "1"), "enable once the trigger is set")
    store("buffer/enable", "0")


def check_rate_writes():
    """Rule 4: rate writes (the fixture lists 12.5 25 50 100 200)."""
    expect_errno(errno.EINVAL, lambda: store("sampling_frequency", "fast"), "a rate that is not a number")
    expect_errno(errno.EINVAL, lambda: store("sampling_frequency", "30"), "a rate the driver does not list")
    expect_value("sampling_frequency", "100\n", "a refused rate leaves the rate as it was")
    expect_ok(lambda: store("sampling_frequency", "12.500000"), "a listed rate, written as the kernel shows it")
    expect_ok(lambda: store("sampling_frequency", "25"), "a listed rate")
    enable_buffer()
    expect_errno(errno.EBUSY, lambda: store("sampling_frequency", "200"),
                 "a rate written while buffered (st_lsm6dsx claims direct mode)")
    expect_value("sampling_frequency", "25\n", "the rate a refused write leaves")
    store("buffer/enable", "0")
    expect_ok(lambda: store("sampling_frequency", "200"), "the rate written once the buffer is disabled")


def timed(action):
    started = time.monotonic()
    value = action()
    return value, time.monotonic() - started


def check_raw_read_sleeps(periods):
    """Rule 4: a raw read sleeps `periods` sample periods of the current rate."""
    store("sampling_frequency", "10")
    value, took = timed(read_raw)
    if value.strip() != b"100" or took < periods / 10 * 0.95:
        fail("raw read at 10 Hz: %r in %.3f s, expected at least %.3f s" % (value, took, periods / 10))
    print("ok   raw read at 10 Hz took %.3f s (at least %g periods)" % (took, periods))
    store("sampling_frequency", "4")
    _, took = timed(lambda: os.pread(os.open(DEVICE + "/in_accel_y_raw", os.O_RDONLY), 64, 0))
    if took < periods / 4 * 0.95:
        fail("pread at 4 Hz took %.3f s, expected at least %.3f s: the rate is not read at read time" % (
            took, periods / 4))
    print("ok   the rate is read at read time: pread at 4 Hz took %.3f s" % took)
    _, took = timed(lambda: Stdio().read("in_accel_z_raw"))
    if took < periods / 4 * 0.95:
        fail("fread at 4 Hz took %.3f s, expected at least %.3f s" % (took, periods / 4))
    print("ok   a read through stdio sleeps too (%.3f s)" % took)
    fd = os.open(DEVICE + "/in_accel_x_raw", os.O_RDONLY)
    os.read(fd, 64)
    rest, took = timed(lambda: os.read(fd, 64))
    os.close(fd)
    if rest != b"" or took >= periods / 4 / 2:
        fail("the read at end of file: %r in %.3f s; read_raw runs once per read from offset 0" % (rest, took))
    print("ok   the read at end of file does not sleep again (%.3f s)" % took)
    _, took = timed(lambda: attribute("in_accel_scale"))
    if took >= periods / 4 / 2:
        fail("reading in_accel_scale took %.3f s: only raw reads sleep" % took)
    print("ok   other attributes do not sleep (%.3f s)" % took)


# Each rule by itself: its environment, and the checks run under it.
RULES = [
    ("node and raw reads, driver claims direct mode", {"IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE": "1"}, "claims"),
    ("node and raw reads, driver does not claim", {"IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE": "0"}, "free"),
    ("configuration writes while buffered", {}, "config"),
    ("a triggered-only buffer needs a trigger", {"IIO_EXCLUSIVITY_NEEDS_TRIGGER": "1"}, "needs-trigger"),
    ("rate writes: listed rates only, refused while buffered (st_lsm6dsx)",
     {"IIO_EXCLUSIVITY_RATE_LISTED_ONLY": "1", "IIO_EXCLUSIVITY_RATE_CLAIMS_DIRECT_MODE": "1"}, "rates"),
    ("per-read power-up sleeps (st_accel: 2 periods)", {"IIO_EXCLUSIVITY_RAW_READ_PERIODS": "2"}, "sleeps"),
]


def inside(phase):
    if phase == "claims":
        check_node()
        check_raw_reads(True)
    elif phase == "free":
        check_node()
        check_raw_reads(False)
    elif phase == "config":
        check_config_writes()
    elif phase == "needs-trigger":
        check_needs_trigger()
    elif phase == "rates":
        check_rate_writes()
    elif phase == "sleeps":
        check_raw_read_sleeps(float(os.environ["IIO_EXCLUSIVITY_RAW_READ_PERIODS"]))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--inside":
        inside(sys.argv[2])
        return
    shim = os.path.abspath(sys.argv[1])
    for title, settings, phase in RULES:
        print("%s:" % title)
        env = dict(os.environ, **settings)
        for key in ("LD_PRELOAD", "UMOCKDEV_DIR"):
            env.pop(key, None)
        # umockdev-run puts its own preload first in LD_PRELOAD; the shim goes before it.
        command = ["umockdev-run", "-d", FIXTURE, "--", "env", "LD_PRELOAD=%s:libumockdev-preload.so.0" % shim,
                   sys.executable, os.path.abspath(__file__), "--inside", phase]
        result = subprocess.run(command, env=env)
        if result.returncode != 0:
            sys.exit(result.returncode)
    print("the kernel model: all checks passed")


if __name__ == "__main__":
    main()
