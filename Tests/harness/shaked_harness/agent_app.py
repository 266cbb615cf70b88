"""The session's prompt agent (clients/shake-agent) on a daemon's socket, its prompts read through
AT-SPI as a screen reader reads them."""

import os
import subprocess
import sys

from .desktop import ROOT, end, wait_for

AGENT = os.path.join(ROOT, "clients", "shake-agent", "shake-agent")
UNDO = "io.shaked.Undo"


def accessible_tree(node):
    """The node and everything under it; a node that goes away during the walk ends its branch."""
    from gi.repository import GLib
    yield node
    try:
        children = [node.getChildAtIndex(i) for i in range(node.childCount)]
    except GLib.GError:
        return
    for child in children:
        if child is not None:
            yield from accessible_tree(child)


def application_of(pid):
    import pyatspi
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.get_process_id() == pid:
            return app
    return None


class Agent:
    """shake-agent, started on `daemon`'s socket; waits until shaked has it registered."""

    def __init__(self, desktop, daemon, env=None):
        self.desktop = desktop
        self.log_path = os.path.join(desktop.dir, "shake-agent-%d.log" % len(os.listdir(desktop.dir)))
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([sys.executable, AGENT, "--socket", daemon.socket],
                                        stdout=self.log, stderr=subprocess.STDOUT,
                                        env=dict(os.environ, **(env or {})))
        self.wait_registered(daemon)

    def wait_registered(self, daemon):
        calls = daemon.client().open(UNDO, namespaced=False)
        wait_for(lambda: calls.GetStatus()["status"]["agent"], 20, "the agent registered with shaked")

    def stop(self):
        try:
            end(self.process, "shake-agent")
        finally:
            self.log.close()

    def output(self):
        with open(self.log_path) as f:
            return f.read()

    def find(self, role, name=None):
        app = application_of(self.process.pid)
        for node in (accessible_tree(app) if app else ()):
            if node.getRoleName() == role and (name is None or node.name == name):
                return node
        return None

    def _buttons(self, dialog):
        """The dialog's buttons as laid out: Adw.MessageDialog keeps a second, unused row (width 0)."""
        for node in accessible_tree(dialog):
            if node.getRoleName() == "push button" and node.queryComponent().getExtents(0).width > 0:
                yield node

    def dialog(self):
        """(heading, [button labels]) of the agent's open prompt, or None."""
        dialog = self.find("dialog")
        if dialog is None:
            return None
        labels = [next((c.name for c in accessible_tree(b) if c.getRoleName() == "label"), b.name)
                  for b in self._buttons(dialog)]
        return dialog.name, labels

    def wait_prompt(self, what="the agent's prompt"):
        return wait_for(lambda: (lambda d: d and d[1] and d)(self.dialog()), 10, what)

    def wait_closed(self):
        wait_for(lambda: self.dialog() is None, 10, "the agent's prompt to close")

    def press(self, label):
        """Presses a prompt button by its label, as a screen reader (or a finger) would."""
        for node in self._buttons(self.find("dialog")):
            if any(c.getRoleName() == "label" and c.name == label for c in accessible_tree(node)):
                node.queryAction().doAction(0)
                return
        raise AssertionError("no button %r in the agent's prompt %r" % (label, self.dialog()))

    def result(self):
        """The result the agent shows after an undo ("Removed “world”"), or None."""
        if self.find("dialog") is not None:
            return None
        label = self.find("label")
        return label.name if label is not None else None


def focused(node):
    import pyatspi
    return node is not None and node.getState().contains(pyatspi.STATE_FOCUSED)


def active(node):
    import pyatspi
    return node is not None and node.getState().contains(pyatspi.STATE_ACTIVE)
