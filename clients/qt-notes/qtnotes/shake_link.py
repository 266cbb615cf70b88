"""The app's link to shaked over varlink (io.shaked.Undo), with the `varlink` package from PyPI.

The varlink client blocks, so it runs in two threads: one reads the Subscribe stream, one makes calls
in order. What they learn reaches the rest of the app as Qt signals, which Qt delivers on the main
thread (queued across threads), so QML never sees a thread. When the daemon goes away the link says so
and tries again, from 0.1 s up to 5 s apart.
"""

import os
import queue
import threading

import varlink
from PySide6.QtCore import QObject, Signal

INTERFACE = "io.shaked.Undo"
DEFAULT_SOCKET = "/run/shaked/io.shaked.Undo"


class ShakeLink(QObject):
    connected = Signal()
    disconnected = Signal(str)
    # kind ("intent", "perform", "cancelled") and the event as a dict
    event = Signal(str, "QVariantMap")
    # a call's result: the callback's key, the reply (or None) and the error (or "")
    replied = Signal(int, "QVariant", str)

    def __init__(self, app_id, name, socket=None):
        super().__init__()
        self.app_id, self.name = app_id, name
        self.address = "unix:" + (socket or os.environ.get("SHAKED_SOCKET") or DEFAULT_SOCKET)
        self.token = None
        self.calls = queue.Queue()
        self.callbacks = {}
        self.stopping = threading.Event()
        self.replied.connect(self._on_replied)

    def start(self):
        threading.Thread(target=self._read_events, name="shaked events", daemon=True).start()
        threading.Thread(target=self._make_calls, name="shaked calls", daemon=True).start()

    def stop(self):
        self.stopping.set()
        self.calls.put(None)

    def call(self, method, on_done=None, **parameters):
        """Calls `method` on the calls thread; on_done(reply, error) runs on the main thread."""
        key = len(self.callbacks) + 1
        self.callbacks[key] = on_done
        self.calls.put((key, method, parameters))

    def _on_replied(self, key, reply, error):
        on_done = self.callbacks.pop(key, None)
        if on_done is not None:
            on_done(reply, error or None)

    def _read_events(self):
        delay = 0.1
        while not self.stopping.is_set():
            try:
                with varlink.Client(address=self.address) as client:
                    stream = client.open(INTERFACE, namespaced=False)
                    replies = stream.Subscribe(app=self.app_id, name=self.name, _more=True)
                    self.token = next(replies)["token"]
                    self.connected.emit()
                    delay = 0.1
                    for reply in replies:
                        event = reply.get("event")
                        if event is not None:
                            self.event.emit(event["kind"], event)
                    raise ConnectionError("shaked closed the stream")
            except (OSError, ValueError, varlink.VarlinkError, StopIteration) as error:
                self.token = None
                self.disconnected.emit(str(error) or type(error).__name__)
            self.stopping.wait(delay)
            delay = min(delay * 2, 5.0)

    def _make_calls(self):
        connection = None
        while True:
            item = self.calls.get()
            if item is None:
                return
            key, method, parameters = item
            reply, error = None, ""
            for _attempt in (1, 2):  # a connection from before a daemon restart fails once
                try:
                    if connection is None:
                        connection = varlink.Client(address=self.address).open(INTERFACE, namespaced=False)
                    reply, error = getattr(connection, method)(**parameters), ""
                    break
                except varlink.VarlinkError as e:
                    error = e.error()
                    break
                except (OSError, ValueError) as e:
                    error, connection = str(e) or type(e).__name__, None
            self.replied.emit(key, reply, error)
