"""Draws the daemon's checked prompts, one at a time, as libadwaita alerts: the title, Cancel on the
left, the action on the right and the default (Enter), Esc for Cancel; touch and keyboard alike."""

from gi.repository import Adw, GObject


class PromptDialog(GObject.Object):
    __gsignals__ = {
        # the intent and the role chosen ("cancel", "undo", "redo")
        "chosen": (GObject.SignalFlags.RUN_FIRST, None, (str, str)),
        # the open prompt lost the focus to another window: the person went elsewhere (the intent)
        "left": (GObject.SignalFlags.RUN_FIRST, None, (str,)),
    }

    def __init__(self, application):
        super().__init__()
        self.application = application
        self.dialog = None
        self.intent = None

    def show(self, agent_prompt):
        """Shows a prompt; a prompt still open (which the daemon never leaves open) goes first."""
        self.close()
        prompt = agent_prompt["prompt"]
        # Screen readers name the dialog by its heading (the window title too).
        dialog = Adw.MessageDialog(heading=prompt["title"], body=prompt.get("message") or "",
                                   application=self.application, modal=True)
        dialog.set_title(prompt["title"])
        for action in prompt["actions"]:
            dialog.add_response(action["role"], action["label"])
            if action["role"] != "cancel":
                dialog.set_response_appearance(
                    action["role"],
                    Adw.ResponseAppearance.DESTRUCTIVE if action["destructive"] else Adw.ResponseAppearance.SUGGESTED)
            if action["preferred"]:
                dialog.set_default_response(action["role"])
        dialog.set_close_response("cancel")
        dialog.connect("response", self._on_response)
        dialog.connect("notify::is-active", self._on_active_changed)
        self.dialog, self.intent, self.was_active = dialog, agent_prompt["intent"], False
        dialog.present()

    def close(self, intent=None):
        """Takes the open prompt down (the daemon cancelled it), without a choice."""
        if self.dialog is None or (intent is not None and intent != self.intent):
            return
        dialog, self.dialog, self.intent = self.dialog, None, None
        dialog.destroy()

    @property
    def is_open(self):
        return self.dialog is not None

    def _on_active_changed(self, dialog, _param):
        # Only a prompt that had the focus and lost it while still open: not its first mapping, and
        # not its closing (the dialog is no longer ours by then).
        if dialog is not self.dialog:
            return
        if dialog.is_active():
            self.was_active = True
        elif self.was_active:
            self.emit("left", self.intent)

    def _on_response(self, dialog, role):
        if dialog is not self.dialog:
            return
        intent = self.intent
        self.dialog, self.intent = None, None
        dialog.destroy()
        self.emit("chosen", intent, role)
