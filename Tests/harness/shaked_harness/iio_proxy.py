"""Runs a real iio-sensor-proxy of a given Debian release on a umockdev testbed and a private system bus.

Two versions, each Debian's own build:
  - "3.0": Debian 12's package, installed on this machine (/usr/sbin/iio-sensor-proxy);
  - "3.7": Debian 13's package (3.7-3), in a Debian 13 root made once per machine by
    scripts/debian-root.sh (debootstrap; /var/cache/shaked/roots/trixie-amd64), run with chroot in a
    private mount namespace (unshare) where the host's /tmp (testbed, bus socket, the model's
    library) and /dev (the testbed's ptys) are bind-mounted. Its own libraries, its own umockdev
    preload (0.19) and its own monitor-sensor run there; docs/testing.md says why a root and not a build.

What 3.7-3 needs under umockdev, each verified here (docs/sensor-sharing.md has the sources):
  - with UMOCKDEV_DIR set it reads $UMOCKDEV_DIR/iio-dev-data.bin instead of the node (its own test
    hook, get_device_file() in src/utils.c): that file is made a link to the testbed's node (the pty);
  - the exclusivity model (iio-exclusivity.c) treats a path as the node when it contains
    "/dev/iio:device", so 3.7 is shown the testbed under a folder of that name
    (/run/shaked-testbed/dev/iio:device-testbed), which makes its opens of that file the node's;
  - it asks polkit (net.hadess.SensorProxy.claim-sensor) before granting a claim: python-dbusmock's
    polkitd template runs on the private bus and allows that action only.
"""

import os
import shutil
import subprocess
import sys
import time

ROOTS = os.environ.get("SHAKED_ROOTS", "/var/cache/shaked/roots")
TRIXIE = os.path.join(ROOTS, "trixie-amd64")
HOST_PROXY = "/usr/sbin/iio-sensor-proxy"
TESTBED_ALIAS = "/run/shaked-testbed/dev/iio:device-testbed"
CLAIM_ACTION = "net.hadess.SensorProxy.claim-sensor"

# Runs "$@" chrooted in $1 with the host's /tmp and /dev, and the testbed $2 under TESTBED_ALIAS.
# The mounts live in this namespace only and go with its last process.
CHROOT_SCRIPT = r"""
set -e
root=$1 testbed=$2
shift 2
mount --rbind /tmp "$root/tmp"
mount --rbind /dev "$root/dev"
mount -t proc proc "$root/proc"
mount -t tmpfs tmpfs "$root/run"
if [ -n "$testbed" ]; then
    mkdir -p "$root%s"
    mount --bind "$testbed" "$root%s"
fi
exec chroot "$root" "$@"
""" % (TESTBED_ALIAS, TESTBED_ALIAS)


class ProxyVersion:
    """One iio-sensor-proxy: how to start it and its monitor-sensor, and what it needs around it."""

    def __init__(self, name):
        if name not in ("3.0", "3.7"):
            raise ValueError("unknown iio-sensor-proxy version %r: 3.0 (Debian 12) or 3.7 (Debian 13)" % name)
        self.name = name
        self.in_root = name == "3.7"

    def check(self):
        """Raises with what to do when this version cannot run here."""
        if self.in_root:
            binary = os.path.join(TRIXIE, "usr/libexec/iio-sensor-proxy")
            if not os.path.exists(binary):
                raise RuntimeError("no Debian 13 root with iio-sensor-proxy at %s; make it with: scripts/debian-root.sh "
                                   "--suite trixie --arch amd64 iio-sensor-proxy umockdev libumockdev0" % TRIXIE)
            if shutil.which("unshare") is None:
                raise RuntimeError("unshare not found; install util-linux")
        elif not os.path.exists(HOST_PROXY):
            raise RuntimeError("%s not found; install Debian 12's iio-sensor-proxy" % HOST_PROXY)

    def installed_path(self):
        """Where this version's binary is, seen from here: what shaked looks for to know it is installed."""
        return os.path.join(TRIXIE, "usr/libexec/iio-sensor-proxy") if self.in_root else HOST_PROXY

    def _wrap(self, argv, testbed):
        if not self.in_root:
            return argv
        return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", CHROOT_SCRIPT, "sh", TRIXIE,
                testbed or ""] + argv

    def preload(self, shim):
        """LD_PRELOAD for this version: the model, then umockdev's preload of its own release."""
        return "%s:libumockdev-preload.so.0" % shim

    def start(self, env, testbed, log):
        """Starts the daemon (its output to `log`) on the testbed folder `testbed`; returns the Popen."""
        env = dict(env)
        if self.in_root:
            # Its test hook reads $UMOCKDEV_DIR/iio-dev-data.bin: the node's pty, under the alias the model knows.
            link = os.path.join(testbed, "iio-dev-data.bin")
            if not os.path.lexists(link):
                os.symlink(os.path.realpath(os.path.join(testbed, "dev", "iio:device0")), link)
            env["UMOCKDEV_DIR"] = TESTBED_ALIAS
            argv = ["/usr/libexec/iio-sensor-proxy"]
        else:
            env["UMOCKDEV_DIR"] = testbed
            argv = [HOST_PROXY]
        return subprocess.Popen(self._wrap(argv, testbed), env=env, stdout=log, stderr=subprocess.STDOUT)

    def monitor_command(self, *arguments):
        """monitor-sensor of the same release (3.7's prints the tilt as well)."""
        return self._wrap(["/usr/bin/monitor-sensor", *arguments], None)


class PolkitMock:
    """python-dbusmock's polkitd template on the private system bus, allowing only the claim (3.7 asks)."""

    def __init__(self, bus_env, bus_address):
        self.process = subprocess.Popen([sys.executable, "-m", "dbusmock", "--system", "--template", "polkitd"],
                                        env=bus_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            done = subprocess.run(
                ["busctl", "--address=" + bus_address, "call", "org.freedesktop.PolicyKit1",
                 "/org/freedesktop/PolicyKit1/Authority", "org.freedesktop.DBus.Mock", "SetAllowed", "as", "1",
                 CLAIM_ACTION], capture_output=True)
            if done.returncode == 0:
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("python-dbusmock's polkitd did not come up (install python3-dbusmock): %s"
                                   % done.stderr.decode()[-300:])
            time.sleep(0.1)
