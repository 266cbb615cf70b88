"""The soak's processes (scripts/soak): the daemon under test, sampled from /proc, and the forked
worker processes, one per user, that talk to the conductor over pipes."""

import asyncio
import faulthandler
import json
import os
import random
import resource
import signal
import socket
import subprocess
import time

from shaked_harness.soak.clients import UNDO, Channel, Closed

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Daemon:
    """The daemon under test, with the descriptor limit its connection limit needs."""

    def __init__(self, binary, directory, config, nofile):
        self.socket = os.path.join(directory, "io.shaked.Undo")
        self.log_path = os.path.join(directory, "shaked.log")
        self.log = open(self.log_path, "w")
        args = [binary, "--demo", "--config", config, "--socket", self.socket]
        if os.geteuid() == 0 and os.path.isdir("/run/systemd/system") and os.path.isdir("/run/systemd/seats"):
            # logind runs: only the seat's user could hold the context. Hide it in a mount namespace.
            args = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                    'mount -t tmpfs tmpfs /run/systemd && exec "$@"', "sh", *args]

        def limits():
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=limits)
        self.pid = self.process.pid
        deadline = time.monotonic() + 30
        while not os.path.exists(self.socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("error: shaked did not start; its log:\n" + self.output())
            time.sleep(0.05)

    def warm_up(self):
        """Serves a few connections and one focused app, then waits for them to close: descriptors the
        daemon makes once, on first use (a timer per event loop), then count in the start figures."""
        def call(sock, method, parameters=None, more=False):
            message = {"method": method, "parameters": parameters or {}, **({"more": True} if more else {})}
            sock.sendall(json.dumps(message).encode() + b"\0")
            data = b""
            while not data.endswith(b"\0"):
                chunk = sock.recv(65536)
                if not chunk:
                    raise SystemExit("error: shaked closed a warm-up connection; its log:\n" + self.output())
                data += chunk
            return json.loads(data[:-1])

        socks = []
        for _ in range(8):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(10)
            sock.connect(self.socket)
            call(sock, UNDO + "GetStatus")
            socks.append(sock)
        token = call(socks[0], UNDO + "Subscribe", {"app": "org.soak.WarmUp", "name": "Warm-up"}, True)
        call(socks[1], UNDO + "SetContext", {"token": token["parameters"]["token"], "focused": True, "undo": "Typing"})
        time.sleep(1)
        for sock in socks:
            sock.close()
        time.sleep(1)

    def output(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def sample(self):
        """RSS (KiB), open descriptors, threads and CPU seconds; None once the process is gone."""
        try:
            with open("/proc/%d/status" % self.pid) as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
            fds = len(os.listdir("/proc/%d/fd" % self.pid))
            with open("/proc/%d/stat" % self.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            return None
        if status.get("State", "").strip().startswith("Z"):
            return None
        return {"rss": int(status["VmRSS"].split()[0]), "fds": fds, "threads": int(status["Threads"]),
                "cpu": (int(fields[11]) + int(fields[12])) / CLOCK_TICKS, "t": time.monotonic()}

    def stop(self):
        """SIGTERM; the exit status (None when it had to be killed)."""
        if self.process.poll() is not None:
            return self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        finally:
            self.log.close()


def fork_worker(make, uid, inherited, seed):
    """Forks a worker process running `make(channel)`'s main() as `uid` (when root); returns (pid, command
    fd, report fd). The child keeps the modules already loaded, so it needs no file access as that user."""
    commands_r, commands_w = os.pipe()
    reports_r, reports_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            for fd in inherited + [commands_w, reports_r]:
                os.close(fd)
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            wanted = 4096 if os.geteuid() == 0 or hard == resource.RLIM_INFINITY else min(4096, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            if os.geteuid() == 0 and uid != 0:
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            faulthandler.register(signal.SIGUSR1, all_threads=False)  # kill -USR1 PID: where a worker is
            random.seed(seed)
            channel = Channel(commands_r, reports_w)
            loop = asyncio.new_event_loop()
            loop.set_exception_handler(lambda loop, context: unhandled(channel, context))
            loop.run_until_complete(make(channel).main())
        except BaseException as e:  # noqa: BLE001 - never return into the conductor's code
            try:
                failure = {"type": "failure", "category": "soak", "what": "worker crashed: %r" % e}
                os.write(reports_w, (json.dumps(failure) + "\n").encode())
            except OSError:
                pass
            code = 1
        os._exit(code)
    os.close(commands_r)
    os.close(reports_w)
    return pid, commands_w, reports_r


def unhandled(channel, context):
    """A worker's task failed with nobody waiting: a reply future of a connection that closed is expected
    (dropped apps, hostile clients); anything else is the soak's own bug, and reported."""
    error = context.get("exception")
    if isinstance(error, (Closed, ConnectionError, asyncio.TimeoutError, asyncio.CancelledError)):
        return
    channel.report("failure", category="soak", what="worker task: %s %r" % (context.get("message"), error))


class Worker:
    """The conductor's handle on one worker process."""

    def __init__(self, number, kind, uid, pid, commands_fd, reports_fd):
        self.number, self.kind, self.uid, self.pid = number, kind, uid, pid
        self.commands_fd, self.reports_fd = commands_fd, reports_fd
        self.stats = {}

    def send(self, command):
        data = (json.dumps(command) + "\n").encode()
        while data:
            data = data[os.write(self.commands_fd, data):]
