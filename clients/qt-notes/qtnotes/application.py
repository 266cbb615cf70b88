"""Qt Notes: one page with a text area, its own undo stack (Qt's, in the text area), and shake to undo
through shaked: the names of what can be undone published with SetContext, the prompt drawn by the app
in Kirigami's style (main.qml), Qt's undo performed and what changed reported."""

import argparse
import os
import sys

from PySide6.QtCore import Property, QObject, QUrl, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlApplicationEngine

from . import prompt
from .shake_link import ShakeLink

APP_ID = "org.shaked.QtNotes"


class Notes(QObject):
    """What main.qml talks to: it reports the text area's changes and the window's focus, and shows the
    prompts this object asks for."""

    # the prompt to show (title, actions) and the intent it answers; closing it (the daemon cancelled)
    promptRequested = Signal(str, "QVariantList")
    promptClosed = Signal()
    # perform: the QML undoes or redoes in the text area, then calls performed()
    performRequested = Signal(str)
    statusChanged = Signal()

    def __init__(self, link):
        super().__init__()
        self.link = link
        self.undo_names, self.redo_names = [], []  # what the person did, one name per step of Qt's undo
        self.length, self.focused, self.published = 0, False, None
        self.intent, self.before, self.performing = None, None, False
        self._status = "connecting to shaked…"
        link.connected.connect(lambda: self._set_status("") or self.publish(force=True))
        link.disconnected.connect(lambda why: self._set_status("shaked is not running; reconnecting…"))
        link.event.connect(self._on_event)

    @Property(str, notify=statusChanged)
    def status(self):
        return self._status

    def _set_status(self, text):
        self._status = text
        self.statusChanged.emit()

    # From the QML

    @Slot(int)
    def edited(self, length):
        """The text changed to `length` characters by the person's hand: named as iOS names a field's
        undo. Qt merges a run of typing into one undo step, and so do the names."""
        change, self.length = length - self.length, length
        if self.performing or change == 0:
            return
        name = "Paste" if change >= 4 else "Typing" if change > 0 else "Delete"
        if not (self.undo_names and self.undo_names[-1] == name and name != "Paste"):
            self.undo_names.append(name)
        self.redo_names.clear()
        self.publish()

    @Slot(bool)
    def activeChanged(self, active):
        self.focused = active
        self.publish()

    @Slot(str, str)
    def chosen(self, intent, role):
        if self.link.token is not None:
            self.link.call("Choose", token=self.link.token, intent=intent, choice=role)

    @Slot(str, str, int)
    def performed(self, before, after, length):
        """Qt's undo or redo ran: the names move, and the summary goes to shaked."""
        operation, intent = self.performing
        self.performing, self.length = False, length
        moved_from, moved_to = ((self.undo_names, self.redo_names) if operation == "undo"
                                else (self.redo_names, self.undo_names))
        if moved_from:
            moved_to.append(moved_from.pop())
        self.link.call("ReportResult", token=self.link.token, intent=intent, summary=summary(before, after))
        self.publish()

    # To and from shaked

    def publish(self, force=False):
        """SetContext, when what it says changed (a keystroke passes through no other state)."""
        state = (self.focused, self.undo_names[-1] if self.undo_names else None,
                 self.redo_names[-1] if self.redo_names else None)
        if self.link.token is None or (state == self.published and not force):
            return
        self.published = state
        focused, undo, redo = state
        self.link.call("SetContext", token=self.link.token, focused=focused, undo=undo, redo=redo)

    def _on_event(self, kind, event):
        if kind == "intent":
            operation = event["operation"]
            other = self.redo_names if operation == "undo" else self.undo_names
            composed = prompt.compose(operation, event["actionName"], prompt.language(), also_offer=bool(other))

            def answered(reply, error):
                if error is not None:  # PromptRejected is a bug in this app: say so loudly
                    print("qt-notes: AnswerIntent failed: %s" % error, file=sys.stderr)
                elif not reply["agent"]:  # else the session's prompt agent draws it
                    self.intent = event["intent"]
                    self.promptRequested.emit(composed["title"], [dict(a, intent=event["intent"])
                                                                  for a in composed["actions"]])
            self.link.call("AnswerIntent", answered, token=self.link.token, intent=event["intent"], prompt=composed)
        elif kind == "perform":
            self.performing = (event["operation"], event["intent"])
            self.performRequested.emit(event["operation"])
        elif kind == "cancelled":
            self.intent = None
            self.promptClosed.emit()


def summary(before, after):
    """What changed, quoted briefly: "Removed “milk”", "Restored “milk”"."""
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    removed, added = before[start:len(before) - end], after[start:len(after) - end]
    quote = lambda text: "“%s”" % (text if len(text) <= 24 else text[:23] + "…")  # noqa: E731
    if removed and not added:
        return "Removed " + quote(removed)
    if added and not removed:
        return "Restored " + quote(added)
    return "The text did not change" if not removed else "Changed " + quote(removed)


def main(argv):
    parser = argparse.ArgumentParser(prog="qt-notes")
    parser.add_argument("--socket", help="the shaked socket (default: $SHAKED_SOCKET, else /run/shaked/io.shaked.Undo)")
    args = parser.parse_args(argv[1:])
    app = QGuiApplication(argv[:1])
    app.setApplicationName("qt-notes")
    app.setDesktopFileName(APP_ID)
    link = ShakeLink(APP_ID, "Qt Notes", args.socket)
    notes = Notes(link)
    engine = QQmlApplicationEngine()
    engine.rootContext().setContextProperty("notes", notes)
    engine.load(QUrl.fromLocalFile(os.path.join(os.path.dirname(os.path.abspath(__file__)), "main.qml")))
    if not engine.rootObjects():
        return 1
    link.start()
    status = app.exec()
    link.stop()
    return status
