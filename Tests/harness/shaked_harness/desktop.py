"""A desktop for testing the GTK app as a person would use it: Xvfb, a session bus, the
accessibility bus, a small window manager (openbox, so focus and activation behave), keys typed
with xdotool, and what is on screen read through AT-SPI."""

import importlib.util
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

from shaked_harness import ROOT

from shaked_harness.daemon import Daemon

APP = os.path.join(ROOT, "clients", "gtk-notes", "shake-notes")
NEEDED = ["Xvfb", "xdotool", "openbox", "dbus-daemon"]


def missing():
    """What this machine lacks to run the GTK tests (scripts/ensure-packages.sh installs it)."""
    absent = [tool for tool in NEEDED if shutil.which(tool) is None]
    try:
        import gi
        gi.require_version("Gtk", "4.0")
        gi.require_version("Adw", "1")
        gi.require_version("Atspi", "2.0")
        import varlink  # noqa: F401
    except (ImportError, ValueError) as e:
        absent.append(str(e))
    # Only looked for: pyatspi binds to the session bus when imported, which must be the test's own.
    if importlib.util.find_spec("pyatspi") is None:
        absent.append("python3-pyatspi")
    return absent


def wait_for(condition, timeout=10, what="condition"):
    """Polls until condition() returns something true; returns it, or fails naming `what`."""
    from gi.repository import GLib
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except GLib.GError:  # the accessibility tree changed under the walk (a window closing): look again
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %s s waiting for %s" % (timeout, what))
        time.sleep(0.1)


def end(process, what, timeout=30):
    """Sends a process the test started SIGTERM and waits for it to be gone. Under load a GTK app takes
    seconds to go: each of its threads (Mesa's shader cache among them) must be scheduled once more
    to exit before the process can be reaped (5.5 s with two busy loops beside it). So the wait is
    for the exit itself, bounded only against a hang, which fails naming the program."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise AssertionError("%s did not exit within %s s of SIGTERM" % (what, timeout)) from None


class Desktop:
    """Xvfb on a free display with a session bus, AT-SPI and openbox; stop() ends what start() began."""

    def __init__(self, width=360, height=720, prefix="shaked-desktop-"):
        self.size = "%dx%dx24" % (width, height)
        self.dir = tempfile.mkdtemp(prefix=prefix)
        self.processes = []
        self.bus_pid = None

    def start(self):
        # Xvfb picks a free display and writes its number to the pipe once it accepts connections
        # (-displayfd), so nothing guesses at lock files or waits on a socket that is not ready.
        # -noreset: by default an X server resets when its last client disconnects, and a reset
        # closes every connection still in its setup. at-spi-bus-launcher connects only to set
        # the root window's AT_SPI_BUS and closes at once; when that close left no other client,
        # openbox, connecting just then, was cut off ("Failed to open the display"): 5 starts in
        # 80 with two busy loops beside them (Xvfb -audit 4 shows the launcher's client close, then
        # openbox's, which never finished its setup); none in 80 with -noreset. A reset would also
        # drop AT_SPI_BUS.
        ready_read, ready_write = os.pipe()
        self._spawn(["Xvfb", "-displayfd", str(ready_write), "-screen", "0", self.size, "-nolisten", "tcp",
                     "-noreset"], pass_fds=(ready_write,))
        os.close(ready_write)
        with os.fdopen(ready_read) as ready:
            display = self._read_line(ready, 20, "Xvfb")
        os.environ.update(DISPLAY=":%s" % display, GDK_BACKEND="x11", GTK_A11Y="atspi", NO_AT_BRIDGE="0",
                          GSETTINGS_BACKEND="memory", XDG_RUNTIME_DIR=self.dir)
        self._start_session_bus()
        # Openbox runs its --startup command once it manages the screen: from then on windows
        # can be activated (_NET_ACTIVE_WINDOW).
        managing = os.path.join(self.dir, "openbox-managing")
        openbox = self._spawn(["openbox", "--sm-disable", "--startup", "touch " + managing])
        wait_for(lambda: os.path.exists(managing) or openbox.poll() is not None, 20, "openbox to start")
        if openbox.poll() is not None:
            raise AssertionError("openbox exited (status %s): %s" % (openbox.returncode, self._log("openbox")))

    def _start_session_bus(self):
        """A session bus of its own, with the accessibility bus on it, for what runs on this desktop."""
        bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                             check=True, capture_output=True, text=True).stdout.split()
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = bus[0]
        self.bus_pid = int(bus[1])
        self._spawn(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"])

    def _read_line(self, stream, timeout, what):
        if not select.select([stream], [], [], timeout)[0]:
            raise AssertionError("%s did not start within %s s: %s" % (what, timeout, self._log(what)))
        line = stream.readline().strip()
        if not line:
            raise AssertionError("%s exited before it was ready: %s" % (what, self._log(what)))
        return line

    def _log(self, program):
        with open(os.path.join(self.dir, program + ".log")) as f:
            return f.read()[-2000:]

    def _spawn(self, argv, **kw):
        log = open(os.path.join(self.dir, os.path.basename(argv[0]) + ".log"), "w")
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, **kw)
        self.processes.append(process)
        return process

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
        if self.bus_pid:
            try:
                os.kill(self.bus_pid, 15)
            except ProcessLookupError:
                pass

    def xdotool(self, *args):
        done = subprocess.run(["xdotool", *args], capture_output=True, text=True)
        if done.returncode != 0:
            raise AssertionError("xdotool %s failed (status %d): %s"
                                 % (" ".join(args), done.returncode, done.stderr.strip()))

    def screenshot(self, path):
        subprocess.run(["import", "-window", "root", path], check=True)


class NotesApp:
    """shake-notes on a daemon's socket, read through AT-SPI."""

    def __init__(self, desktop, daemon, env=None):
        self.desktop = desktop
        self.log_path = os.path.join(desktop.dir, "shake-notes.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([sys.executable, APP, "--socket", daemon.socket],
                                        stdout=self.log, stderr=subprocess.STDOUT, env=dict(os.environ, **(env or {})))
        self.window = wait_for(self._find_window, 20, "the Notes window")
        wait_for(lambda: self.status() not in ("", "Connecting to shaked…"), 10, "a connection to shaked")

    def stop(self):
        try:
            end(self.process, "shake-notes")
        finally:
            self.log.close()

    def output(self):
        with open(self.log_path) as f:
            return f.read()

    # Reading the screen

    def _application(self):
        import pyatspi
        for app in pyatspi.Registry.getDesktop(0):
            if app is not None and app.name == "shake-notes" and app.get_process_id() == self.process.pid:
                return app
        return None

    def _find_window(self):
        app = self._application()
        return app and next((w for w in self._all(app) if w.getRoleName() == "frame"), None)

    def _all(self, node):
        """The node and everything under it. A node that goes away during the walk (a dialog
        closing) ends its branch instead of failing the walk."""
        yield node
        from gi.repository import GLib
        try:
            children = [node.getChildAtIndex(i) for i in range(node.childCount)]
        except GLib.GError:
            return
        for child in children:
            if child is not None:
                yield from self._all(child)

    def find(self, role, name=None):
        app = self._application()
        for node in (self._all(app) if app else ()):
            if node.getRoleName() == role and (name is None or node.name == name):
                return node
        return None

    def text(self):
        return self.find("text", "Note").queryText().getText(0, -1)

    def selection(self):
        """The selected range of the note, (start, end); a caret alone gives (caret, caret)."""
        text = self.find("text", "Note").queryText()
        if text.getNSelections():
            return tuple(sorted(text.getSelection(0)))
        return (text.caretOffset, text.caretOffset)

    def status(self):
        """The status line at the bottom of the window (the window's last label)."""
        window = self._find_window()
        labels = [n for n in self._all(window) if n.getRoleName() == "label"] if window else []
        return labels[-1].name if labels else ""

    def dialog(self):
        """(heading, [button labels]) of the open prompt, or None."""
        dialog = self.find("dialog")
        if dialog is None:
            return None
        buttons = []
        for node in self._buttons(dialog):
            buttons.append(next((c.name for c in self._all(node) if c.getRoleName() == "label"), node.name))
        return dialog.name, buttons

    def _buttons(self, dialog):
        """The dialog's buttons as laid out: Adw.MessageDialog keeps a second, unused row (width 0)."""
        for node in self._all(dialog):
            if node.getRoleName() == "push button" and node.queryComponent().getExtents(0).width > 0:
                yield node

    def press(self, label):
        """Presses a prompt button by its label, as a screen reader would."""
        for node in self._buttons(self.find("dialog")):
            if any(c.getRoleName() == "label" and c.name == label for c in self._all(node)):
                node.queryAction().doAction(0)
                return
        raise AssertionError("no button %r in the prompt %r" % (label, self.dialog()))

    # Using it

    def press_menu_button(self):
        app = self._application()
        for node in self._all(app):
            if node.getRoleName() in ("push button", "toggle button") and node.name == "Main Menu":
                action = node.queryAction()
                if action.nActions:
                    action.doAction(0)
                    return
        raise AssertionError("no Main Menu button that can be pressed")

    def x_window(self):
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "^Notes$"],
                               check=True, capture_output=True, text=True, timeout=20)
        return found.stdout.split()[0]

    def activate(self):
        self.desktop.xdotool("windowactivate", "--sync", self.x_window())

    def type(self, text):
        self.activate()
        self.desktop.xdotool("type", "--delay", "40", text)
        wait_for(lambda: self.text().endswith(text), 10, "%r typed into the note" % text)


__all__ = ["Daemon", "Desktop", "NotesApp", "end", "missing", "wait_for"]
