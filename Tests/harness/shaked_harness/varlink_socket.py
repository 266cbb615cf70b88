"""A raw varlink connection over a Unix socket, for the benchmark scripts: NUL-framed JSON calls,
replies read with a deadline. (The tests use Python's varlink package instead.)"""

import json
import select
import socket
import time


class Connection:
    def __init__(self, path, timeout=10.0):
        self.timeout = timeout
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""

    def send(self, method, parameters=None, more=False):
        message = {"method": method, "parameters": parameters or {}}
        if more:
            message["more"] = True
        self.sock.sendall(json.dumps(message).encode() + b"\0")

    def message(self, timeout=None):
        """The next message as a dict, error replies included, and CLOCK_MONOTONIC when it arrived."""
        timeout = timeout or self.timeout
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.sock], [], [], remaining)[0]:
                raise TimeoutError("no reply within %s s" % timeout)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the daemon closed the connection")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        arrived = time.monotonic()
        return json.loads(message), arrived

    def reply(self, timeout=None):
        """The next reply's parameters and when it arrived; an error reply raises RuntimeError."""
        reply, arrived = self.message(timeout)
        if "error" in reply:
            raise RuntimeError("%s %s" % (reply["error"], reply.get("parameters")))
        return reply["parameters"], arrived

    def call(self, method, parameters=None):
        self.send(method, parameters)
        return self.reply()[0]
