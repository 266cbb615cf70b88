"""The agent's prompt on Plasma, drawn by Kirigami (plasma_prompt.qml) in a process of its own, since
the agent runs GLib's main loop and Qt runs its own. Reads the prompt as JSON from its argument and
writes one line to stdout for what happened: "chosen ROLE", or "left" when the prompt, having had the
focus, lost it while open (the person went to another window).

    python3 plasma_prompt.py '{"title": "Undo Typing", "actions": [...]}'

Needs Debian's python3-pyside6.qtquick, python3-pyside6.qtqml and qml6-module-org-kde-kirigami."""

import json
import os
import sys

from PySide6.QtCore import Property, QObject, QUrl, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlApplicationEngine


class Prompt(QObject):
    """What the QML reads, and where its choice goes."""

    def __init__(self, prompt):
        super().__init__()
        self._prompt = prompt
        self.was_active = False
        self.done = False

    @Property(str, constant=True)
    def title(self):
        return self._prompt["title"]

    @Property(str, constant=True)
    def message(self):
        return self._prompt.get("message") or ""

    @Property("QVariantList", constant=True)
    def actions(self):
        return self._prompt["actions"]

    @Property(str, constant=True)
    def preferred(self):
        return next((a["role"] for a in self._prompt["actions"] if a["preferred"]), "cancel")

    @Slot(str)
    def choose(self, role):
        if not self.done:
            self.done = True
            print("chosen", role, flush=True)
            QGuiApplication.quit()

    @Slot(bool)
    def activeChanged(self, active):
        if active:
            self.was_active = True
        elif self.was_active and not self.done:
            print("left", flush=True)


def main():
    app = QGuiApplication(sys.argv[:1])
    app.setApplicationName("shake-agent-prompt")
    app.setDesktopFileName("org.shaked.Agent")
    prompt = Prompt(json.loads(sys.argv[1]))
    engine = QQmlApplicationEngine()
    engine.rootContext().setContextProperty("prompt", prompt)
    engine.load(QUrl.fromLocalFile(os.path.join(os.path.dirname(os.path.abspath(__file__)), "plasma_prompt.qml")))
    if not engine.rootObjects():
        return 1
    status = app.exec()
    del engine  # the window goes before the prompt object its bindings read
    return status


if __name__ == "__main__":
    sys.exit(main())
