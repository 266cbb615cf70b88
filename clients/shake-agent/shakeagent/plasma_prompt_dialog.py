"""Draws the daemon's checked prompts on Plasma, one at a time, in the shell's own style: Kirigami, in
a process of its own (plasma_prompt.py), which says what the person chose. The same signals as
PromptDialog, which draws them with libadwaita on Phosh and GNOME."""

import importlib.util
import json
import os
import subprocess
import sys

from gi.repository import GLib, GObject

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plasma_prompt.py")


def available():
    """True on a Plasma session where Kirigami can be drawn from Python."""
    if "KDE" not in os.environ.get("XDG_CURRENT_DESKTOP", "").split(":"):
        return False
    return importlib.util.find_spec("PySide6") is not None


class PlasmaPromptDialog(GObject.Object):
    __gsignals__ = {
        "chosen": (GObject.SignalFlags.RUN_FIRST, None, (str, str)),
        "left": (GObject.SignalFlags.RUN_FIRST, None, (str,)),
    }

    def __init__(self, application, own_pids):
        super().__init__()
        self.own_pids = own_pids  # where the prompt's process goes, so that its windows are known as the agent's
        self.process = None
        self.intent = None
        self.watch = None

    def show(self, agent_prompt):
        """Shows a prompt; a prompt still open (which the daemon never leaves open) goes first."""
        self.close()
        try:
            process = subprocess.Popen([sys.executable, "-B", PROGRAM, json.dumps(agent_prompt["prompt"])],
                                       stdout=subprocess.PIPE, text=True)
        except OSError as e:
            print("shake-agent: could not draw the prompt: %s" % e, file=sys.stderr)
            return
        self.process, self.intent = process, agent_prompt["intent"]
        self.own_pids.add(process.pid)
        channel = GLib.IOChannel.unix_new(process.stdout.fileno())
        self.watch = GLib.io_add_watch(channel, GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP,
                                       self._on_output, process)

    def close(self, intent=None):
        """Takes the open prompt down (the daemon cancelled it), without a choice."""
        if self.process is None or (intent is not None and intent != self.intent):
            return
        process = self._forget()
        process.terminate()
        self._reap(process)

    @property
    def is_open(self):
        return self.process is not None

    def _reap(self, process):
        def gone(*_):
            process.wait()
            self.own_pids.discard(process.pid)
        GLib.child_watch_add(GLib.PRIORITY_DEFAULT, process.pid, gone)

    def _forget(self):
        process, self.process, self.intent = self.process, None, None
        if self.watch is not None:
            GLib.source_remove(self.watch)
            self.watch = None
        return process

    def _on_output(self, _channel, condition, process):
        if process is not self.process:
            return False
        line = process.stdout.readline() if condition & GLib.IOCondition.IN else ""
        if line.startswith("left"):
            self.emit("left", self.intent)
            return True
        intent = self.intent
        self.watch = None
        self._forget()
        self._reap(process)
        # A prompt that ended without a choice (it crashed, or its window was closed) is a Cancel.
        self.emit("chosen", intent, line.split()[1] if line.startswith("chosen ") else "cancel")
        return False
