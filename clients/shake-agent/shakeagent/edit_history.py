"""What can be undone in a field the agent follows, named as iOS names a text field's undo:
"Typing", "Delete", "Paste" (one large insertion). Only kinds and lengths are kept, never text."""

PASTE_AT_LEAST = 4  # characters inserted at once: a keyboard types one (an input method a few)


class EditHistory:
    def __init__(self):
        self.undo_steps = []  # [kind, characters], oldest first
        self.redo_steps = []

    def clear(self):
        self.undo_steps, self.redo_steps = [], []

    @staticmethod
    def kind(inserted, length):
        if not inserted:
            return "Delete"
        return "Paste" if length >= PASTE_AT_LEAST else "Typing"

    def record(self, inserted, length):
        """A change the person made: runs of typing or deleting make one step, as toolkits group them."""
        kind = self.kind(inserted, length)
        last = self.undo_steps[-1] if self.undo_steps else None
        if last is not None and last[0] == kind and kind != "Paste":
            last[1] += length
        else:
            self.undo_steps.append([kind, length])
        self.redo_steps = []

    @property
    def undo_name(self):
        return self.undo_steps[-1][0] if self.undo_steps else None

    @property
    def redo_name(self):
        return self.redo_steps[-1][0] if self.redo_steps else None

    def undone(self, changed):
        """The app undid `changed` characters of the last step (toolkits undo typing a word at a time)."""
        if not self.undo_steps or changed == 0:
            return
        step = self.undo_steps[-1]
        self.redo_steps.append([step[0], changed])
        step[1] -= changed
        if step[1] <= 0:
            self.undo_steps.pop()

    def redone(self, changed):
        if not self.redo_steps or changed == 0:
            return
        kind, _length = self.redo_steps.pop()
        last = self.undo_steps[-1] if self.undo_steps else None
        if last is not None and last[0] == kind and kind != "Paste":
            last[1] += changed
        else:
            self.undo_steps.append([kind, changed])
