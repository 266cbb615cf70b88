"""Starts the real shaked binary on a socket in a temporary directory, for the tests here."""

import os
import shlex
import signal
import subprocess
import tempfile
import time
import unittest
import warnings

import varlink

from shaked_harness import ROOT
TRACES = os.path.join(os.path.dirname(ROOT), "shared", "traces")
SHAKED = os.environ.get("SHAKED_BINARY", os.path.join(ROOT, ".build", "debug", "shaked"))

UNDO = "io.shaked.Undo"

# What root may always do, granted to the user running the tests, so they pass as anyone.
OWN_ACCESS = '[Access]\nRequestUsers={0}\nMonitorUsers={0}\nAgentUsers={0}\n'.format(os.getuid())

# Connections the tests drop on purpose are closed by the daemon side; not worth a warning each.
warnings.simplefilter("ignore", ResourceWarning)


def prompt(title="Undo Typing", actions=None, message=None):
    """A prompt as the wire carries it; by default a correct "Undo Typing"."""
    if actions is None:
        actions = [("cancel", "Cancel"), ("undo", "Undo")]
    result = {
        "title": title,
        "actions": [
            {"role": a[0], "label": a[1], "destructive": a[2] if len(a) > 2 else False,
             "preferred": a[3] if len(a) > 3 else False}
            for a in actions
        ],
    }
    if message is not None:
        result["message"] = message
    return result


class Daemon:
    """A running shaked; use as a context manager. `args` are extra command-line arguments."""

    def __init__(self, *args, env=None, wrapper=None, state=None):
        self.dir = tempfile.mkdtemp(prefix="shaked-test-")
        os.chmod(self.dir, 0o755)
        self.socket = os.path.join(self.dir, "io.shaked.Undo")
        self.address = "unix:" + self.socket
        self.log_path = os.path.join(self.dir, "shaked.log")
        # Never the host's /etc/shaked: the defaults, plus what root may always do granted to the
        # user running the tests (so they pass as an ordinary user), unless a test gives its own.
        if "--config" not in args:
            own = os.path.join(self.dir, "tests.conf")
            with open(own, "w") as f:
                f.write(OWN_ACCESS)
            args = ("--config", own, *args)
        self.args = [SHAKED, "--socket", self.socket, *args]
        if wrapper:  # a shell snippet that ends by running "$@" (the daemon's command line)
            self.args = ["sh", "-c", wrapper, "sh", *self.args]
        # Never the host's /var/lib/shaked: preferences go to `state`, else a folder of this daemon's.
        # Never the host's logind either (a screen that locks while the tests run would turn the
        # sensor off): a system bus that isn't there, unless a test gives its own in `env`.
        self.state = state or os.path.join(self.dir, "state")
        self.env = dict(os.environ, STATE_DIRECTORY=self.state,
                        DBUS_SYSTEM_BUS_ADDRESS="unix:path=" + os.path.join(self.dir, "no-system-bus"))
        self.env.update(env or {})
        self.process = None

    def __enter__(self):
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(self.args, stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + 20
        while not self.listening():
            if self.process.poll() is not None:
                raise RuntimeError("shaked exited with %s:\n%s" % (self.process.returncode, self.output()))
            if time.monotonic() > deadline:
                raise RuntimeError("shaked did not listen within 20 s:\n" + self.output())
            time.sleep(0.02)
        return self

    def listening(self):
        """Whether the socket listens (the file appears at bind, before listen). Read from
        /proc/net/unix rather than by connecting, so no test's connection count is disturbed."""
        with open("/proc/net/unix") as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                # Flags 00010000 is __SO_ACCEPTCON: a listening socket.
                if len(fields) >= 8 and fields[-1] == self.socket and int(fields[3], 16) & 0x10000:
                    return True
        return False

    def __exit__(self, *exc):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def output(self):
        with open(self.log_path) as f:
            return f.read()

    def alive(self):
        return self.process.poll() is None

    def client(self):
        return varlink.Client(self.address)


class App:
    """A subscribed app: one streaming connection for events, one for calls."""

    def __init__(self, daemon, app="org.example.Notes", name="Notes"):
        self.client = daemon.client()
        self.stream_con = self.client.open(UNDO, namespaced=False)
        self.calls = self.client.open(UNDO, namespaced=False)
        self.events = self.stream_con.Subscribe(app=app, name=name, _more=True)
        self.token = next(self.events)["token"]

    def context(self, focused=True, undo="Typing", redo=None):
        self.calls.SetContext(token=self.token, focused=focused, undo=undo, redo=redo)

    def next_event(self):
        """The next event, passing over replies that only say whether the sensor is available."""
        while True:
            reply = next(self.events)
            if "event" in reply:
                return reply["event"]

    def close(self):
        for c in (self.stream_con, self.calls):
            try:
                c.close()
            except Exception:
                pass
        self.client.cleanup()


def error_of(call):
    """Runs a call expected to fail; returns (error name, parameters)."""
    try:
        call()
    except varlink.VarlinkError as e:
        return e.error(), e.parameters()
    raise AssertionError("the call succeeded")


class Raw:
    """A raw varlink connection: bytes in, NUL-framed JSON replies out."""

    def __init__(self, daemon):
        import socket as _socket
        self.sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(daemon.socket)
        self.buffer = b""

    def send(self, data):
        self.sock.sendall(data)

    def call(self, method, parameters=None, **flags):
        import json
        message = {"method": method, **flags}
        if parameters is not None:
            message["parameters"] = parameters
        self.send(json.dumps(message).encode() + b"\0")
        return self.reply()

    def reply(self):
        """The next reply as a dict, or None when the daemon closed the connection."""
        import json
        while b"\0" not in self.buffer:
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:  # closed with our unread bytes still queued on its side
                return None
            if not chunk:
                return None
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self):
        self.sock.close()


# Tests that run children as another user need root; everything else runs as anyone.
needs_root = unittest.skipUnless(os.geteuid() == 0, "needs root: runs children as another user (setuid)")


def write_config(text):
    """A configuration file with `text`, in a new temporary directory; returns its path."""
    path = os.path.join(tempfile.mkdtemp(prefix="shaked-conf-"), "shaked.conf")
    with open(path, "w") as f:
        f.write(text)
    return path


def run_as(uid, function, *args):
    """Runs `function(*args)` in a forked child as another user (the tests run as root); returns its
    result as a string. The child keeps the modules already loaded, so it needs no file access."""
    import json
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            result = str(function(*args))
        except BaseException as e:  # report anything to the parent, never return into the test runner
            result = "child failed: %r" % (e,)
        os.write(write_end, result.encode())
        os._exit(0)
    os.close(write_end)
    chunks = []
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode()
