"""The agent's link to shaked over varlink (io.shaked.Undo), with the `varlink` package from PyPI.

One thread holds the RegisterAgent stream, one makes calls in order; what they learn comes back to
GTK's main loop through GLib.idle_add as signals, so the rest of the agent never sees a thread.
When shaked goes away the link says so and registers again, from 0.1 s up to 5 s apart.
"""

import os
import queue
import threading

import varlink
from gi.repository import GLib, GObject

INTERFACE = "io.shaked.Undo"
DEFAULT_SOCKET = "/run/shaked/io.shaked.Undo"


def socket_path(option=None):
    return option or os.environ.get("SHAKED_SOCKET") or DEFAULT_SOCKET


class AgentLink(GObject.Object):
    __gsignals__ = {
        "connected": (GObject.SignalFlags.RUN_FIRST, None, ()),
        "disconnected": (GObject.SignalFlags.RUN_FIRST, None, (str,)),
        # a checked prompt to draw: {"intent", "appName", "prompt"}
        "prompt": (GObject.SignalFlags.RUN_FIRST, None, (object,)),
        # the intent whose prompt ended without the agent
        "closed": (GObject.SignalFlags.RUN_FIRST, None, (str,)),
        # what a performed intent changed
        "summary": (GObject.SignalFlags.RUN_FIRST, None, (str,)),
        # an event of the agent's stand-in (kind "intent", "perform", "cancelled")
        "stand-in-event": (GObject.SignalFlags.RUN_FIRST, None, (object,)),
        # whether a shake can be recognized now, and why not ("shake to undo unavailable: …")
        "sensor": (GObject.SignalFlags.RUN_FIRST, None, (bool, str)),
    }

    def __init__(self, name, socket=None):
        super().__init__()
        self.name = name
        self.address = "unix:" + socket_path(socket)
        self.token = None
        self.calls = queue.Queue()
        self.stopping = threading.Event()
        self.stream = None

    def start(self):
        threading.Thread(target=self._read_stream, name="agent stream", daemon=True).start()
        threading.Thread(target=self._make_calls, name="agent calls", daemon=True).start()

    def stop(self):
        self.stopping.set()
        self.calls.put(None)
        if self.stream is not None:
            self.stream.close()

    def call(self, method, on_done=None, **parameters):
        """Calls `method` on the calls thread; on_done(reply, error) runs on the main loop."""
        self.calls.put((method, parameters, on_done))

    def _read_stream(self):
        delay = 0.1
        while not self.stopping.is_set():
            try:
                with varlink.Client(address=self.address) as client:
                    self.stream = client.open(INTERFACE, namespaced=False)
                    replies = self.stream.RegisterAgent(name=self.name, _more=True)
                    GLib.idle_add(self._connected, next(replies)["token"])
                    delay = 0.1
                    for reply in replies:
                        GLib.idle_add(self._dispatch, reply)
                    raise ConnectionError("shaked closed the stream")
            except (OSError, ValueError, varlink.VarlinkError, StopIteration) as error:
                GLib.idle_add(self._disconnected, str(error) or type(error).__name__)
            finally:
                self.stream = None
            self.stopping.wait(delay)
            delay = min(delay * 2, 5.0)

    def _make_calls(self):
        connection = None
        while True:
            item = self.calls.get()
            if item is None:
                return
            method, parameters, on_done = item
            reply = error = None
            for _attempt in (1, 2):  # a connection from before a daemon restart fails once
                try:
                    if connection is None:
                        connection = varlink.Client(address=self.address).open(INTERFACE, namespaced=False)
                    reply, error = getattr(connection, method)(**parameters), None
                    break
                except varlink.VarlinkError as e:
                    error = e
                    break
                except (OSError, ValueError) as e:
                    error, connection = e, None
            if on_done is not None:
                GLib.idle_add(on_done, reply, error)

    def _dispatch(self, reply):
        if reply.get("prompt"):
            self.emit("prompt", reply["prompt"])
        if reply.get("closed"):
            self.emit("closed", reply["closed"])
        if reply.get("summary"):
            self.emit("summary", reply["summary"])
        if reply.get("event"):
            self.emit("stand-in-event", reply["event"])
        if reply.get("sensor"):
            self.emit("sensor", reply["sensor"]["available"], reply["sensor"].get("reason") or "")

    def _connected(self, token):
        self.token = token
        self.emit("connected")

    def _disconnected(self, why):
        was = self.token
        self.token = None
        if was is not None or why:
            self.emit("disconnected", why)
