"""The agent and the apps under KWin, in the Debian 13 root (kwin_desktop.KWinDesktop), read through
AT-SPI as a screen reader reads them: KWrite's editing view, a Kirigami app's text field, and the
agent's Kirigami prompt (a process of its own, named shake-agent-prompt on the bus)."""

import os
import shutil

import varlink

from . import ROOT
from .agent_app import AGENT, accessible_tree, application_of, focused
from .desktop import wait_for

UNDO = "io.shaked.Undo"


def applications(name):
    import pyatspi
    return [app for app in pyatspi.Registry.getDesktop(0) if app is not None and app.name == name]


def editable_text(app):
    """The app's editable text fields, however deep (KWrite's editing view is 11 levels down)."""
    import pyatspi
    return [n for n in accessible_tree(app) if n.getRoleName() in ("text", "entry", "paragraph")
            and n.getState().contains(pyatspi.STATE_EDITABLE) and not n.getState().contains(pyatspi.STATE_READ_ONLY)]


QT_NOTES = os.path.join(ROOT, "clients", "qt-notes", "qt-notes")


def python_path(desktop):
    """A folder with the varlink package (pure Python) for the root's python3, which lacks it."""
    python = os.path.join(desktop.dir, "python")
    if not os.path.exists(python):
        shutil.copytree(os.path.dirname(varlink.__file__), os.path.join(python, "varlink"))
    return python


def showing(node):
    import pyatspi
    return node is not None and node.getState().contains(pyatspi.STATE_SHOWING)


def prompt_in(app):
    """(title, [button labels] left to right) of an undo prompt shown in `app`, or None: its heading
    ("Undo …" or "Redo …") and the push buttons on screen."""
    nodes = list(accessible_tree(app)) if app else []
    title = next((n.name for n in nodes if n.getRoleName() == "heading" and showing(n)
                  and n.name.split(" ")[0] in ("Undo", "Redo")), None)
    buttons = sorted((n for n in nodes if n.getRoleName() in ("push button", "button") and showing(n) and n.name),
                     key=lambda b: b.queryComponent().getExtents(0).x)
    return (title, [b.name for b in buttons]) if title and buttons else None


def press_in(app, label):
    for node in accessible_tree(app):
        if node.getRoleName() in ("push button", "button") and node.name == label and showing(node):
            node.queryAction().doAction(0)
            return
    raise AssertionError("no button %r in %s's prompt %r" % (label, app.name, prompt_in(app)))


class RootAgent:
    """shake-agent in the root, on `daemon`'s socket, with the varlink package copied beside it."""

    def __init__(self, desktop, daemon, keys=None):
        self.desktop = desktop
        python = python_path(desktop)
        self.log = "shake-agent-%d" % len(desktop.groups)
        self.process = desktop.spawn(["python3", AGENT, "--socket", daemon.socket], self.log,
                                     env={"PYTHONPATH": python, "SHAKE_AGENT_KEYS": keys or desktop.keys,
                                          # the varlink package's docstrings, under Debian 13's Python
                                          "PYTHONWARNINGS": "ignore::SyntaxWarning",
                                          "SHAKE_AGENT_DEBUG": os.environ.get("SHAKE_AGENT_DEBUG", "")})
        calls = daemon.client().open(UNDO, namespaced=False)
        wait_for(lambda: calls.GetStatus()["status"]["agent"] or self.process.poll() is not None, 30,
                 "the agent registered with shaked")
        assert self.process.poll() is None, "shake-agent exited: %s" % self.output()

    def output(self):
        return self.desktop._log(self.log)

    def stop(self):
        import signal
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)

    def prompt_app(self):
        apps = applications("shake-agent-prompt")
        return apps[-1] if apps else None

    def dialog(self):
        """(title, [button labels], left to right) of the open prompt, or None."""
        return prompt_in(self.prompt_app())

    def wait_prompt(self):
        return wait_for(self.dialog, 20, "the agent's Kirigami prompt")

    def wait_closed(self):
        wait_for(lambda: self.prompt_app() is None, 20, "the agent's prompt to close")

    def press(self, label):
        press_in(self.prompt_app(), label)


class RootApp:
    """A Qt 6 / KDE app in the root that knows nothing of shaked, and its one editable text field."""

    def __init__(self, desktop, argv, log, env=None, wait=True):
        self.desktop = desktop
        self.process = desktop.spawn(argv, log, env=env)
        self.log = log
        if wait:
            wait_for(self.field, 60, "%s's text field on the accessibility bus" % argv[0])

    def find(self, role, name):
        app = application_of(self.process.pid)
        return next((n for n in (accessible_tree(app) if app else ()) if n.getRoleName() == role and n.name == name),
                    None)

    def press(self, name):
        """Presses a button by its name, as a screen reader (or a finger) would."""
        wait_for(lambda: self.find("push button", name), 30, "the button %r" % name).queryAction().doAction(0)

    def field(self):
        app = application_of(self.process.pid)
        fields = editable_text(app) if app else []
        return fields[0] if fields else None

    def text(self):
        return self.field().queryText().getText(0, -1)

    def has_focus(self):
        return focused(self.field())

    def stop(self):
        # A KDE app with unsaved text does not end on SIGTERM (it would ask to save): SIGKILL after 5 s.
        import signal
        import subprocess
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=5)
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
