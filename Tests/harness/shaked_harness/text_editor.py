"""Text editors that know nothing of shaked, read through AT-SPI: GNOME Text Editor (GTK 4),
Mousepad (GTK 3) and FeatherPad (Qt 5)."""

import os
import subprocess
import tempfile

from .agent_app import accessible_tree, application_of, focused
from .desktop import wait_for


GNOME_TEXT_EDITOR = ["gnome-text-editor", "--standalone"]
MOUSEPAD = ["mousepad", "--disable-server"]
FEATHERPAD = ["featherpad"]


def qt_accessible():
    """What Qt 5 needs to join the accessibility bus: to be told to, and the bus's address. Asked for
    the address itself (org.a11y.Bus.GetAddress), Qt 5.15 lost the race with its own connection in
    most starts here ("Error in contacting registry: Not connected to D-Bus server")."""
    from gi.repository import Gio, GLib
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    address = bus.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                            GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 10000, None).unpack()[0]
    return {"QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "QT_ACCESSIBILITY": "1", "QT_QPA_PLATFORM": "xcb",
            "AT_SPI_BUS_ADDRESS": address}


class TextEditor:
    """`gnome-text-editor --standalone` (or another editor's command) with a home of its own (it
    restores unsaved text from its last run otherwise); waits until its text field is on the
    accessibility bus."""

    def __init__(self, desktop, env=None, command=GNOME_TEXT_EDITOR):
        self.desktop = desktop
        self.home = tempfile.mkdtemp(prefix="shaked-editor-", dir=desktop.dir)
        own = {name: os.path.join(self.home, name.lower()) for name in
               ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")}
        self.log = open(os.path.join(self.home, "editor.log"), "w")
        self.process = subprocess.Popen(command, stdout=self.log,
                                        stderr=subprocess.STDOUT, env=dict(os.environ, **own, **(env or {})))
        wait_for(self.field, 30, "%s's text field" % command[0])

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()

    def field(self):
        app = application_of(self.process.pid)
        return app and next((n for n in accessible_tree(app) if n.getRoleName() == "text"), None)

    def text(self):
        return self.field().queryText().getText(0, -1)

    def has_focus(self):
        return focused(self.field())

    def activate(self):
        """Brings its window to the front (X11), and waits until its text field has the focus."""
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(self.process.pid)],
                               check=True, capture_output=True, text=True, timeout=20)
        self.desktop.xdotool("windowactivate", "--sync", found.stdout.split()[-1])
        wait_for(self.has_focus, 10, "the editor's field to have the focus")

    def type(self, text):
        before = self.text()
        self.activate()
        self.desktop.xdotool("type", "--delay", "40", text)
        wait_for(lambda: self.text() == before + text, 10, "%r typed into the editor" % text)
