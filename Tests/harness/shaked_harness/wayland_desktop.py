"""A phone's display server without a screen: phoc (Phosh's compositor) headless, with a session bus,
the accessibility bus, and one virtual keyboard kept for the whole run (as a phone's on-screen
keyboard is), since headless phoc gives no window the keyboard focus without one."""

import os
import shutil
import subprocess

from .desktop import Desktop, wait_for

NEEDED = ["phoc", "wtype", "dbus-daemon"]


def missing():
    return [tool for tool in NEEDED if shutil.which(tool) is None]


class WaylandDesktop(Desktop):
    """Headless phoc instead of Xvfb and openbox; the session bus, logs and stop() are Desktop's."""

    def __init__(self):
        super().__init__(prefix="shaked-wayland-")
        os.chmod(self.dir, 0o700)

    def start(self):
        os.environ.update(XDG_RUNTIME_DIR=self.dir, WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1",
                          WLR_RENDERER="pixman", GDK_BACKEND="wayland", GTK_A11Y="atspi", NO_AT_BRIDGE="0",
                          GSETTINGS_BACKEND="memory")
        os.environ.pop("DISPLAY", None)
        self._start_session_bus()
        # phoc creates its socket in XDG_RUNTIME_DIR once it serves clients; -E keeps it running.
        phoc = self._spawn(["phoc", "-E", "sleep 100000"])
        socket = os.path.join(self.dir, "wayland-0")
        wait_for(lambda: os.path.exists(socket) or phoc.poll() is not None, 20, "phoc to serve wayland-0")
        if phoc.poll() is not None:
            raise AssertionError("phoc exited (status %s): %s" % (phoc.returncode, self._log("phoc")))
        os.environ["WAYLAND_DISPLAY"] = "wayland-0"
        self.keyboard = self._spawn(["wtype", "-s", "100000000"])

    def wtype(self, *args):
        done = subprocess.run(["wtype", *args], capture_output=True, text=True, timeout=20)
        if done.returncode != 0:
            raise AssertionError("wtype %s failed (status %d): %s" % (" ".join(args), done.returncode, done.stderr))
