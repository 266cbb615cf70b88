"""Follows the focused editable text field of other apps on the accessibility bus (AT-SPI), as a
screen reader does: which field has the focus, and the sizes of its insertions and deletions.
The text of an event is never kept."""

import os
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib, GObject  # noqa: E402

from .field import Field  # noqa: E402

# Password fields are left alone: nothing of them is followed, read or undone.
TEXT_ROLES = {Atspi.Role.TEXT, Atspi.Role.ENTRY, Atspi.Role.PARAGRAPH, Atspi.Role.DOCUMENT_TEXT}


class TextWatch(GObject.Object):
    __gsignals__ = {
        # the field now focused (a Field), or None when the focus left editable text
        "field": (GObject.SignalFlags.RUN_FIRST, None, (object,)),
        # the focused field changed: inserted (bool), length in characters
        "edit": (GObject.SignalFlags.RUN_FIRST, None, (bool, int)),
    }

    def __init__(self):
        super().__init__()
        self.field = None
        # While the agent's prompt for the field is up, its app's window is inactive on purpose.
        self.holding = False
        # The agent's own processes (its Kirigami prompt runs in one of its own on Plasma).
        self.own_pids = {os.getpid()}
        self.listener = Atspi.EventListener.new(self._on_event)

    def start(self):
        for event in ("object:state-changed:focused", "object:text-changed:insert", "object:text-changed:delete",
                      "object:text-caret-moved", "window:deactivate", "window:activate"):
            self.listener.register(event)


    def _on_event(self, event):
        try:
            self._handle(event)
        except GLib.GError:
            pass  # the object went away while we looked at it (a window closing)

    def _handle(self, event):
        if os.environ.get("SHAKE_AGENT_DEBUG"):
            print("event", event.type, event.detail1, event.detail2, file=sys.stderr)
        source = event.source
        if source is None:
            return
        pid = source.get_process_id()
        if pid in self.own_pids:
            return  # the agent's own prompt: the field keeps its place
        kind = event.type
        if kind.startswith("object:state-changed:focused"):
            if event.detail1:
                self._focus(source, pid)
        elif kind.startswith("object:text-changed"):
            if event.detail2 <= 0 or not self._follow(source, pid):
                return
            self.field.announces = True
            self.field.count = Atspi.Text.get_character_count(source)
            self.emit("edit", kind.startswith("object:text-changed:insert"), event.detail2)
        elif kind.startswith("object:text-caret-moved"):
            # Qt Quick's fields (Kirigami's among them) say nothing of their text changing, only that the
            # caret moved: there a change is told by the caret's step and the field's length (never its
            # text). The length is read when the event is handled, which may be several keys later: each
            # step of the caret takes its own part of the change, so that typing stays typing.
            if not self._follow(source, pid) or self.field.announces:
                return
            field = self.field
            step, field.caret = event.detail1 - field.caret, event.detail1
            pending = Atspi.Text.get_character_count(source) - field.count
            if pending > 0 and step > 0:
                field.count += min(step, pending)
                self.emit("edit", True, min(step, pending))
            elif pending < 0 and step < 0:
                field.count -= min(-step, -pending)
                self.emit("edit", False, min(-step, -pending))
        elif kind.startswith("window:deactivate"):
            if self.field is not None and pid == self.field.pid and not self.holding:
                self._set(None)
        elif kind.startswith("window:activate"):
            if self.field is not None and pid != self.field.pid:
                self._set(None)  # another app: what could be undone was the other app's

    def _follow(self, source, pid):
        """True when the event's source is the field followed, which it may become now: GTK 4 does not
        always say when a field takes the focus; the field being typed into does."""
        if self.field is not None and source == self.field.accessible:
            return True
        if self.holding or not self._is_focused_text(source):
            return False
        self._set(Field(source, pid, source.get_application().get_name() or "app"))
        return True

    @staticmethod
    def _is_focused_text(source):
        states = source.get_state_set()
        return editable(source) and states.contains(Atspi.StateType.FOCUSED)

    def _focus(self, source, pid):
        if editable(source):
            if self.field is not None and source == self.field.accessible:
                self.emit("field", self.field)  # back to the same field: what it had stays
                return
            self._set(Field(source, pid, source.get_application().get_name() or "app"))
        else:
            self._set(None)

    def leave(self):
        """The focus went somewhere this watch did not see: no field is followed now."""
        self._set(None)

    def _set(self, field):
        if field is None and self.field is None:
            return
        self.field = field
        self.emit("field", field)


def editable(source):
    """A text field the person can type into: Qt marks its labels EDITABLE too, and READ_ONLY."""
    states = source.get_state_set()
    return (source.get_role() in TEXT_ROLES and states.contains(Atspi.StateType.EDITABLE)
            and not states.contains(Atspi.StateType.READ_ONLY))
