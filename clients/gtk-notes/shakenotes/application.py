"""The application: its actions and menu, the link to shaked, and the Shake to Undo switch."""

import gettext

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, Gio, GLib  # noqa: E402

from .shake_link import ShakeLink  # noqa: E402
from .window import NotesWindow  # noqa: E402

_ = gettext.gettext
APP_ID = "org.shaked.Notes"


class NotesApplication(Adw.Application):
    def __init__(self):
        super().__init__(application_id=APP_ID, flags=Gio.ApplicationFlags.NON_UNIQUE)
        self.add_main_option("socket", 0, GLib.OptionFlags.NONE, GLib.OptionArg.STRING,
                             _("The shaked socket (default: $SHAKED_SOCKET, else /run/shaked/io.shaked.Undo)"),
                             "PATH")
        self.socket = None
        self.link = None
        self.menu = Gio.Menu()
        self.menu.append(_("Shake to Undo"), "app.shake-to-undo")
        self.menu.append(_("In Apps That Don't Take Part"), "app.stand-in")
        self.menu.append(_("Bold"), "app.bold")
        self.menu.append(_("Quit"), "app.quit")

        # The person's own switch (iOS: Accessibility › Touch › Shake to Undo), kept by shaked.
        self.shake_to_undo = Gio.SimpleAction.new_stateful("shake-to-undo", None, GLib.Variant.new_boolean(True))
        self.shake_to_undo.set_enabled(False)  # until shaked says what it is
        self.shake_to_undo.connect("change-state", self._on_shake_to_undo)
        self.add_action(self.shake_to_undo)
        # The second switch: whether the session's agent offers it in apps that don't take part.
        self.stand_in = Gio.SimpleAction.new_stateful("stand-in", None, GLib.Variant.new_boolean(True))
        self.stand_in.set_enabled(False)
        self.stand_in.connect("change-state", self._on_stand_in)
        self.add_action(self.stand_in)
        for name, accel, callback in (("bold", "<Control>b", lambda *_: self.window.make_bold()),
                                      ("quit", "<Control>q", lambda *_: self.quit())):
            action = Gio.SimpleAction.new(name, None)
            action.connect("activate", callback)
            self.add_action(action)
            self.set_accels_for_action("app." + name, [accel])

    def do_handle_local_options(self, options):
        self.socket = options.lookup_value("socket", GLib.VariantType("s"))
        self.socket = self.socket.get_string() if self.socket else None
        return -1  # carry on

    def do_activate(self):
        self.link = ShakeLink(APP_ID, _("Notes"), self.socket)
        self.window = NotesWindow(self, self.link)
        self.link.connect("connected", lambda *_: self.link.call("GetPreferences", self._show_preferences))
        # The switch may have been changed elsewhere (shakectl preferences): look again on return.
        self.window.connect("notify::is-active", self._refresh_preferences)
        self.link.connect("disconnected", lambda *_: (self.shake_to_undo.set_enabled(False),
                                                      self.stand_in.set_enabled(False)))
        self.link.start()
        self.window.present()

    def do_shutdown(self):
        if self.link is not None:
            self.link.stop()
        Adw.Application.do_shutdown(self)

    def _refresh_preferences(self, *_):
        if self.link.token is not None and self.window.is_active():
            self.link.call("GetPreferences", self._show_preferences)

    def _on_shake_to_undo(self, action, value):
        self.link.call("SetPreferences", self._show_preferences, shakeToUndo=value.get_boolean())

    def _on_stand_in(self, action, value):
        self.link.call("SetPreferences", self._show_preferences, standIn=value.get_boolean())

    def _show_preferences(self, reply, error):
        if error is not None:
            self.window.status.set_label(_("Shake to Undo could not be changed: %s") % error)
            return
        stand_in = reply["preferences"].get("standIn", True)
        if not self.stand_in.get_enabled() or self.stand_in.get_state().get_boolean() != stand_in:
            self.stand_in.set_state(GLib.Variant.new_boolean(stand_in))
            self.stand_in.set_enabled(True)
        on = reply["preferences"]["shakeToUndo"]
        if self.shake_to_undo.get_enabled() and self.shake_to_undo.get_state().get_boolean() == on:
            return  # nothing new; leave the status line (it may show what an undo changed)
        self.shake_to_undo.set_state(GLib.Variant.new_boolean(on))
        self.shake_to_undo.set_enabled(True)
        self.window.status.set_label(_("Shake to undo is on") if on else _("Shake to undo is off"))


def main(argv):
    return NotesApplication().run(argv)
