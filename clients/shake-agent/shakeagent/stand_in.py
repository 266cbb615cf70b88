"""Takes the part of apps that don't take part in shake to undo: names what was done in their
focused text field, declares it to shaked (StandIn), answers the shake's intent with "Undo Typing",
and on the person's choice sends the app its own undo key, then reads the field again and reports
what changed."""

import re
import sys

import varlink
from gi.repository import GLib

from . import key_sender, words
from .edit_history import EditHistory

SETTLE_MS = 300  # the field is read again once its changes stop for this long
GIVE_UP_MS = 3000  # at most this long for the field to take focus back, or to change


class StandIn:
    def __init__(self, link, watch):
        self.link, self.watch = link, watch
        self.history = EditHistory()
        self.token = None  # the stand-in's subscription token, from StandIn's reply
        self.declared = None
        self.takes_part = set()  # pids that said TakesPart: apps that draw their own prompts
        # Without a way to send the app its undo key (KWin without the helper) it stands in for nobody.
        self.allowed = self.can_send = key_sender.available()
        if not self.can_send:
            print("shake-agent: no way to send an app its undo key here (%s is missing): standing in for no app"
                  % key_sender.command("undo")[0], file=sys.stderr)
        self.performing = None  # (intent, operation, text before) while the app's undo runs
        self.settle = None
        self.last_field = None
        watch.connect("field", self._on_field)
        watch.connect("edit", self._on_edit)
        link.connect("stand-in-event", self._on_event)
        link.connect("connected", lambda *_: self._reconnected())
        link.connect("disconnected", lambda *_: self._abandon())

    # What the field does

    def _on_field(self, _watch, field):
        if field is not self.last_field and self.performing is None:
            self.history.clear()  # another field or app: nothing here to undo yet
            self.allowed = self.can_send  # the person may have turned "apps that don't take part" back on
        self.last_field = field or self.last_field if self.watch.holding else field
        self._declare()

    def person_left(self):
        """The stand-in's prompt lost the focus to another window while open: the person went to
        another app. On Wayland that app may announce nothing on the accessibility bus (a GTK 4
        window that opens takes the focus without a focus event), so the prompt's own window is
        what tells. What could be undone in the field is left behind, as when focus moves."""
        if not self.watch.holding or self.performing is not None:
            return  # not the stand-in's prompt, or its choice is being carried out
        self.watch.holding = False
        self.watch.leave()

    def _on_edit(self, _watch, inserted, length):
        if self.performing is not None:
            self._changed_while_performing()
            return
        self.history.record(inserted, length)
        self._declare()

    def _abandon(self):
        """shaked went away: an intent it had open is gone with it."""
        self.watch.holding = False
        if self.settle is not None:
            GLib.source_remove(self.settle)
            self.settle = None
        self.performing = None

    def _reconnected(self):
        self.token, self.declared, self.allowed = None, None, self.can_send
        self._declare()

    def _declare(self):
        """Tells shaked what the focused field can undo, when that changed."""
        field = self.watch.field
        if self.link.token is None or not self.allowed:
            return
        if field is None or field.pid in self.takes_part:
            if self.declared is None or not self.declared[2]:
                return
            pid, app, _, undo, redo = self.declared
            state = (pid, app, False, undo, redo)
        else:
            state = (field.pid, app_id(field.app_name), True, self.history.undo_name, self.history.redo_name)
        if state == self.declared:
            return
        self.declared = state
        pid, app, focused, undo, redo = state
        name = field.app_name if field is not None else app
        self.link.call("StandIn", lambda reply, error: self._on_declared(pid, reply, error), token=self.link.token,
                       pid=pid, app=app, name=name[:64], focused=focused, undo=undo, redo=redo)

    def _on_declared(self, pid, reply, error):
        if error is None:
            self.token = reply["standIn"]
            return
        name = error.error() if isinstance(error, varlink.VarlinkError) else type(error).__name__
        if name.endswith("TakesPart"):
            self.takes_part.add(pid)  # it draws its own prompts (through this agent, as RegisterAgent's)
        elif name.endswith("NotAllowed"):
            self.allowed = False
            print("shake-agent: shaked does not let this agent stand in for apps (%s)" % error.parameters(),
                  file=sys.stderr)
        else:
            print("shake-agent: StandIn failed: %s" % name, file=sys.stderr)
        self.declared = None

    # The stand-in's intents

    def _on_event(self, _link, event):
        kind = event["kind"]
        if kind == "intent":
            self.watch.holding = True
            prompt = words.compose(event["operation"], event["actionName"], words.language(),
                                   also_offer=self._other_possible(event["operation"]))
            self.link.call("AnswerIntent", self._on_answered, token=self.token, intent=event["intent"], prompt=prompt)
        elif kind == "perform":
            self._perform(event["intent"], event["operation"])
        else:
            self.watch.holding = False

    def _other_possible(self, operation):
        return bool(self.history.redo_name if operation == "undo" else self.history.undo_name)

    def _on_answered(self, _reply, error):
        if error is not None:  # a PromptRejected here is a bug in words.compose
            print("shake-agent: AnswerIntent failed: %s" % error, file=sys.stderr)
            self.watch.holding = False

    def _perform(self, intent, operation):
        field = self.watch.field
        if field is None:
            self._report(intent, words.WORDS[words.language()]["unchanged"])
            return
        waited = [0]

        def when_focused():
            # The keys go to the focused window: wait until the prompt is gone and the field has focus.
            waited[0] += 50
            try:
                focused = field.focused()
            except GLib.GError:
                focused = False
            if not focused and waited[0] < GIVE_UP_MS:
                return True
            if not focused:  # the person went elsewhere: the key would reach another window
                self.watch.holding = False
                self._report(intent, words.WORDS[words.language()]["unchanged"])
                return False
            self.performing = (intent, operation, field.text(), field)
            problem = key_sender.send(operation)
            if problem:
                print("shake-agent: could not send the %s key: %s" % (operation, problem), file=sys.stderr)
            self.settle = GLib.timeout_add(GIVE_UP_MS, self._finish)
            return False
        GLib.timeout_add(50, when_focused)

    def _changed_while_performing(self):
        if self.settle is not None:
            GLib.source_remove(self.settle)
        self.settle = GLib.timeout_add(SETTLE_MS, self._finish)

    def _finish(self):
        self.settle = None
        intent, operation, before, field = self.performing
        self.performing = None
        self.watch.holding = False
        try:
            after = field.text()
        except GLib.GError:
            after = before
        changed = abs(len(before) - len(after)) or (0 if before == after else 1)
        (self.history.undone if operation == "undo" else self.history.redone)(changed)
        self._report(intent, words.result(before, after, words.language()))
        self._declare()
        return False

    def _report(self, intent, summary):
        # The summary quotes a few words of the change for the person to see; it is not logged.
        self.link.call("ReportResult", None, token=self.token, intent=intent, summary=summary)


def app_id(name):
    """A reverse-DNS id for a stand-in app from its accessible name ("gnome-text-editor")."""
    element = re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64] or "app"
    if element[0].isdigit():
        element = "_" + element
    return "org.shaked.StandIn." + element
