"""The text field the agent follows: its accessible object, and its app's process and name."""

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402


class Field:
    """The focused field: its accessible object, and its app's process and name."""

    def __init__(self, accessible, pid, app_name):
        self.accessible, self.pid, self.app_name = accessible, pid, app_name
        # Its length and caret when last seen, and whether it announces its changes (text-changed events;
        # Qt Quick's fields don't, so their changes are told by the caret's steps and the length).
        self.count = Atspi.Text.get_character_count(accessible)
        self.caret = Atspi.Text.get_caret_offset(accessible)
        self.announces = False

    def text(self):
        return Atspi.Text.get_text(self.accessible, 0, -1)

    def focused(self):
        return self.accessible.get_state_set().contains(Atspi.StateType.FOCUSED)
