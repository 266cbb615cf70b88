"""The notes window: a GtkTextView with GTK's own undo, taking part in shake to undo."""

import gettext

from gi.repository import Adw, GLib, Gtk

from . import prompt
from .undo_names import UndoNames

_ = gettext.gettext


class NotesWindow(Adw.ApplicationWindow):
    def __init__(self, application, link):
        super().__init__(application=application, title=_("Notes"), default_width=360, default_height=640)
        self.link = link
        self.language = prompt.language()
        self.published = None  # the last SetContext sent, to send only changes
        self.publish_pending = False  # a SetContext is due when the main loop is idle
        self.intent = None  # the open intent's event
        self.dialog = None
        self.dialog_was_active = False
        self.handing_back = None  # after a prompt is answered: a timer while focus returns here
        self.agent_intent = None  # the open intent whose prompt the session's agent draws
        self.answering = None  # the intent answered, until the reply says who draws its prompt

        self.buffer = Gtk.TextBuffer(enable_undo=True)
        self.names = UndoNames(self.buffer)
        self.text_view = Gtk.TextView(buffer=self.buffer, wrap_mode=Gtk.WrapMode.WORD_CHAR,
                                      top_margin=12, bottom_margin=12, left_margin=12, right_margin=12)
        self.text_view.update_property([Gtk.AccessibleProperty.LABEL], [_("Note")])
        self.text_view.connect("cut-clipboard", self._named, "Cut")
        self.text_view.connect("backspace", self._named, "Delete")
        self.text_view.connect("delete-from-cursor", self._named, "Delete")
        self.text_view.connect("paste-clipboard", self._on_paste)
        self.buffer.connect("paste-done", self._on_paste_done)
        for signal in ("changed", "notify::can-undo", "notify::can-redo"):
            self.buffer.connect(signal, lambda *_: self.publish())
        self.connect("notify::is-active", self._on_active)

        self.status = Gtk.Label(label=_("Connecting to shaked…"), css_classes=["dim-label", "caption"])
        menu = Gtk.MenuButton(icon_name="open-menu-symbolic", menu_model=application.menu)
        menu.update_property([Gtk.AccessibleProperty.LABEL], [_("Main Menu")])
        header = Adw.HeaderBar()
        header.pack_end(menu)
        scroller = Gtk.ScrolledWindow(child=self.text_view, vexpand=True)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        for child in (header, scroller, self.status):
            box.append(child)
        self.set_content(box)
        self.set_focus(self.text_view)

        link.connect("connected", self._on_connected)
        link.connect("disconnected", self._on_disconnected)
        link.connect("event", self._on_event)
        link.connect("sensor", self._on_sensor)

    # Naming the person's actions

    def _named(self, _view, *args):
        """Runs before GtkTextView's own handler: the change it makes gets this name."""
        name = args[-1]
        self.names.doing_name = name
        GLib.idle_add(self._clear_name)

    def _clear_name(self):
        self.names.doing_name = None

    def _on_paste(self, _view):
        self.names.doing_name = "Paste"  # the clipboard is read asynchronously

    def _on_paste_done(self, *_):
        self.names.doing_name = None

    def make_bold(self):
        """Markdown bold around the selection (or the word at the cursor), as one undo step."""
        found, start, end = self.buffer.get_selection_bounds() or (False, None, None)
        if not found:
            start = self.buffer.get_iter_at_mark(self.buffer.get_insert())
            end = start.copy()
            if not start.starts_word():
                start.backward_word_start()
            end.forward_word_end()
        if start.equal(end):
            return
        end_mark = self.buffer.create_mark(None, end, False)
        with self.names.doing("Bold"):
            self.buffer.begin_user_action()
            self.buffer.insert(start, "**")
            self.buffer.insert(self.buffer.get_iter_at_mark(end_mark), "**")
            self.buffer.end_user_action()
        self.buffer.delete_mark(end_mark)

    # Telling shaked what can be undone

    def focused(self):
        """Whether the person is in this app: this window or its own prompt is active (a prompt
        just presented counts until it has been active once, and the window while the window
        manager hands focus back from an answered prompt, for at most half a second)."""
        if self.is_active() or self.handing_back is not None or self.agent_intent or self.answering:
            return True  # the agent's prompt for this app is active instead of this window
        return self.dialog is not None and (self.dialog.is_active() or not self.dialog_was_active)

    def publish(self):
        """SetContext whenever focus or the undo and redo names change: once the main loop is
        idle, so that the states GTK passes through within one change (a keystroke, an undo, a
        prompt handing focus back) are not sent, and the daemon does not turn the sensor off
        and on for each."""
        if not self.publish_pending:
            self.publish_pending = True
            GLib.idle_add(self._publish_now)

    def _publish_now(self):
        self.publish_pending = False
        if self.link.token is None:
            return GLib.SOURCE_REMOVE
        name = lambda n: prompt.action_name(n, self.language) if n else None
        context = (self.focused(), name(self.names.undo_name), name(self.names.redo_name))
        if context == self.published:
            return GLib.SOURCE_REMOVE
        self.published = context
        focused, undo, redo = context
        self.link.call("SetContext", token=self.link.token, focused=focused, undo=undo, redo=redo)
        return GLib.SOURCE_REMOVE

    def _on_connected(self, _link):
        self.published = None
        self.status.set_label(_("Shake to undo is on"))
        self.publish()

    def _on_sensor(self, _link, available, reason):
        # shaked's reason is in English ("shake to undo unavailable: the accelerometer is in use
        # by iio-sensor-proxy (pid 812)"); the line that carries it is the app's own.
        self.status.set_label(_("Shake to undo is on") if available else
                              _("Shake to undo is unavailable: %s") % reason.removeprefix("shake to undo unavailable: "))

    def _on_disconnected(self, _link, _why):
        self.published = None
        self.agent_intent = None
        self.status.set_label(_("shaked is not running; reconnecting…"))
        self.close_dialog()

    # Intents

    def _on_event(self, _link, kind, event):
        if kind != "intent" and event["intent"] == self.agent_intent:
            self.agent_intent = None
            if self.handing_back is None and kind == "perform":  # focus comes back from the agent's prompt
                self.handing_back = GLib.timeout_add(500, self._handed_back)
            self.publish()
        if kind == "intent":
            self.show_prompt(event)
        elif kind == "perform":
            self.perform(event)
        elif kind == "cancelled":
            self.close_dialog()

    def show_prompt(self, event):
        operation = event["operation"]
        other = self.names.redo_name if operation == "undo" else self.names.undo_name
        composed = prompt.compose(operation, event["actionName"], self.language, also_offer=other)

        def answered(reply, error):
            self.answering = None
            if error is not None:  # PromptRejected is a bug in this app: say so loudly
                self.status.set_label(_("shaked refused the prompt: %s") % error)
                raise RuntimeError("AnswerIntent failed: %s" % error)
            if reply["agent"]:  # the session's prompt agent draws it: this app counts as in front meanwhile
                self.agent_intent = event["intent"]
            else:
                self.intent = event
                self.dialog, self.dialog_was_active = prompt.dialog(self, composed), False
                self.dialog.connect("response", self._on_response)
                self.dialog.connect("notify::is-active", self._on_dialog_active)
                self.dialog.present()

        self.answering = event["intent"]  # in front until the reply says who draws the prompt
        self.link.call("AnswerIntent", answered, token=self.link.token, intent=event["intent"], prompt=composed)

    def _on_dialog_active(self, dialog, _pspec):
        self.dialog_was_active = self.dialog_was_active or dialog.is_active()
        self.publish()

    def _on_response(self, dialog, response):
        if self.intent is not None and self.link.token is not None:
            self.link.call("Choose", token=self.link.token, intent=self.intent["intent"], choice=response)
            if self.handing_back is None:
                self.handing_back = GLib.timeout_add(500, self._handed_back)
        self.intent = None
        self.dialog = None

    def _on_active(self, *_):
        if self.is_active() and self.handing_back is not None:
            GLib.source_remove(self.handing_back)
            self.handing_back = None
        self.publish()

    def _handed_back(self):
        """Focus did not come back from the prompt in time: the person went elsewhere."""
        self.handing_back = None
        self.publish()
        return GLib.SOURCE_REMOVE

    def close_dialog(self):
        self.intent = None
        if self.dialog is not None:
            dialog, self.dialog = self.dialog, None
            dialog.close()

    def perform(self, event):
        """GTK's undo or redo, then the changed text selected and scrolled to."""
        changes = self.names.undo() if event["operation"] == "undo" else self.names.redo()
        start, end = changed_span(changes)
        self.buffer.select_range(self.buffer.get_iter_at_offset(end), self.buffer.get_iter_at_offset(start))
        self.text_view.scroll_to_mark(self.buffer.get_insert(), 0.1, False, 0, 0)
        self.text_view.grab_focus()
        summary = describe(changes)
        self.status.set_label(summary)
        self.link.call("ReportResult", token=self.link.token, intent=event["intent"], summary=summary)
        self.publish()


def changed_span(changes):
    """The span of text an undo or redo touched, in offsets after it: what came back, or where
    text went."""
    low = high = None
    for inserted, offset, text in changes:
        n = len(text)
        if low is None:
            low, high = offset, offset + (n if inserted else 0)
        elif inserted:
            low, high = (low + n if offset <= low else low), (high + n if offset <= high else high)
            low, high = min(low, offset), max(high, offset + n)
        else:
            low = low if low <= offset else max(offset, low - n)
            high = high if high <= offset else max(offset, high - n)
            low, high = min(low, offset), max(high, offset)
    return (low or 0, high or 0)


def describe(changes):
    """A short summary for ReportResult and the status line: "Restored “milk”"."""
    put_back = "".join(t for inserted, _o, t in changes if inserted)
    taken = "".join(t for inserted, _o, t in changes if not inserted)
    text = put_back or taken
    excerpt = "".join(c for c in " ".join(text.split()) if c.isprintable())  # shaked's field rules
    excerpt = excerpt if len(excerpt) <= 40 else excerpt[:39] + "…"
    if not excerpt:
        return _("Restored spaces") if put_back else _("Removed spaces")
    verb = _("Restored") if put_back and not taken else _("Removed") if taken and not put_back else _("Changed")
    return "%s “%s”" % (verb, excerpt)
