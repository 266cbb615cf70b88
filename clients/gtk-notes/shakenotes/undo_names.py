"""Names for GTK's undo steps, the way a person would say them ("Typing", "Paste", "Bold").

GtkTextBuffer keeps its own undo history but no names. This records, for every change GTK
records, what the person was doing, and follows GTK as it undoes and redoes: the changes GTK
replays tell which records one undo step covered (GTK merges typed words into one step, and a
user action such as a paste into another).
"""

from contextlib import contextmanager
from dataclasses import dataclass
import gettext

_ = gettext.gettext


@dataclass
class Record:
    name: str  # "Typing"
    inserted: bool  # True for text added, False for text removed
    chars: int


class UndoNames:
    def __init__(self, buffer):
        self.buffer = buffer
        self.done = []  # records GTK can undo, oldest first
        self.undone = []  # steps GTK can redo, each a list of records; the next one last
        self.doing_name = None
        self.replayed = None  # while GTK undoes or redoes: the changes it makes
        buffer.connect("insert-text", self._on_insert_text)
        buffer.connect("delete-range", self._on_delete_range)

    @contextmanager
    def doing(self, name):
        """Names the changes made inside the block."""
        self.doing_name = name
        try:
            yield
        finally:
            self.doing_name = None

    @property
    def undo_name(self):
        if not self.buffer.get_can_undo():
            return None
        return self.done[-1].name if self.done else _("Change")

    @property
    def redo_name(self):
        if not self.buffer.get_can_redo():
            return None
        return self.undone[-1][-1].name if self.undone and self.undone[-1] else _("Change")

    def undo(self):
        """GTK's undo; returns the changes it made as (inserted, offset, text) tuples."""
        changes = self._replay(self.buffer.undo)
        step = []
        for inserted, _offset, text in changes:
            # Putting text back reverses removals, taking it away reverses additions.
            chars = len(text)
            while chars > 0 and self.done and self.done[-1].inserted != inserted:
                record = self.done.pop()
                chars -= record.chars
                step.insert(0, record)
        self.undone.append(step)
        return changes

    def redo(self):
        """GTK's redo; returns the changes it made, as undo() does."""
        changes = self._replay(self.buffer.redo)
        if self.undone:
            self.done.extend(self.undone.pop())
        return changes

    def _replay(self, operation):
        self.replayed = []
        try:
            operation()
            return self.replayed
        finally:
            self.replayed = None

    def _on_insert_text(self, _buffer, where, text, _length):
        self._record(True, where.get_offset(), text)

    def _on_delete_range(self, buffer, start, end):
        self._record(False, start.get_offset(), buffer.get_text(start, end, True))

    def _record(self, inserted, offset, text):
        if self.replayed is not None:
            self.replayed.append((inserted, offset, text))
            return
        if not text:
            return
        default = _("Typing") if inserted else _("Delete")
        self.done.append(Record(self.doing_name or default, inserted, len(text)))
        self.undone.clear()
