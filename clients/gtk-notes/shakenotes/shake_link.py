"""The app's link to shaked over varlink (io.shaked.Undo), with the `varlink` package from PyPI.

The varlink client blocks, so it runs in two threads: one reads the Subscribe stream, one makes
calls in order. Everything they learn comes back to GTK's main loop through GLib.idle_add, as
signals of this object, so the rest of the app never sees a thread. When the daemon goes away
the link says so and tries again, from 0.1 s up to 5 s apart.
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


class ShakeLink(GObject.Object):
    __gsignals__ = {
        "connected": (GObject.SignalFlags.RUN_FIRST, None, ()),
        "disconnected": (GObject.SignalFlags.RUN_FIRST, None, (str,)),
        # kind ("intent", "perform", "cancelled") and the event as a dict
        "event": (GObject.SignalFlags.RUN_FIRST, None, (str, object)),
        # whether a shake can be recognized now, and why not ("shake to undo unavailable: …")
        "sensor": (GObject.SignalFlags.RUN_FIRST, None, (bool, str)),
    }

    def __init__(self, app_id, name, socket=None):
        super().__init__()
        self.app_id, self.name = app_id, name
        self.address = "unix:" + socket_path(socket)
        self.token = None
        self.calls = queue.Queue()
        self.stopping = threading.Event()
        self.stream = None

    def start(self):
        threading.Thread(target=self._read_events, name="shaked events", daemon=True).start()
        threading.Thread(target=self._make_calls, name="shaked calls", daemon=True).start()

    def stop(self):
        self.stopping.set()
        self.calls.put(None)
        if self.stream is not None:
            self.stream.close()

    def call(self, method, on_done=None, **parameters):
        """Calls `method` on the calls thread; on_done(reply, error) runs on the main loop, with
        error a varlink.VarlinkError or an OSError, else None."""
        self.calls.put((method, parameters, on_done))

    # The threads

    def _read_events(self):
        delay = 0.1
        while not self.stopping.is_set():
            try:
                with varlink.Client(address=self.address) as client:
                    self.stream = client.open(INTERFACE, namespaced=False)
                    replies = self.stream.Subscribe(app=self.app_id, name=self.name, _more=True)
                    token = next(replies)["token"]
                    GLib.idle_add(self._connected, token)
                    delay = 0.1
                    for reply in replies:
                        if "sensor" in reply:
                            sensor = reply["sensor"]
                            GLib.idle_add(self.emit, "sensor", sensor["available"], sensor.get("reason") or "")
                        event = reply.get("event")
                        if event is not None:
                            GLib.idle_add(self.emit, "event", event["kind"], event)
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
            for attempt in (1, 2):  # a connection from before a daemon restart fails once
                try:
                    if connection is None:
                        client = varlink.Client(address=self.address)
                        connection = client.open(INTERFACE, namespaced=False)
                    reply, error = getattr(connection, method)(**parameters), None
                    break
                except varlink.VarlinkError as e:
                    error = e
                    break
                except (OSError, ValueError) as e:
                    error, connection = e, None
            if on_done is not None:
                GLib.idle_add(on_done, reply, error)

    # Back on the main loop

    def _connected(self, token):
        self.token = token
        self.emit("connected")

    def _disconnected(self, why):
        self.token = None
        self.emit("disconnected", why)
