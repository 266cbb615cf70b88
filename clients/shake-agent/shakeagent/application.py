"""The agent: one per user session, with no window of its own. It registers with shaked as the
prompt agent, draws every prompt, and stands in for apps that don't take part."""

import gettext
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, Gio, GLib  # noqa: E402

from . import a11y_status, plasma_prompt_dialog  # noqa: E402
from .agent_link import AgentLink  # noqa: E402
from .prompt_dialog import PromptDialog  # noqa: E402
from .result_toast import ResultToast  # noqa: E402
from .stand_in import StandIn  # noqa: E402
from .text_watch import TextWatch  # noqa: E402

_ = gettext.gettext
APP_ID = "org.shaked.Agent"


class AgentApplication(Adw.Application):
    def __init__(self):
        super().__init__(application_id=APP_ID, flags=Gio.ApplicationFlags.NON_UNIQUE)
        self.add_main_option("socket", 0, GLib.OptionFlags.NONE, GLib.OptionArg.STRING,
                             _("The shaked socket (default: $SHAKED_SOCKET, else /run/shaked/io.shaked.Undo)"),
                             "PATH")
        self.socket = None
        self.link = None

    def do_handle_local_options(self, options):
        socket = options.lookup_value("socket", GLib.VariantType("s"))
        self.socket = socket.get_string() if socket else None
        return -1

    def do_activate(self):
        if self.link is not None:
            return
        self.hold()  # runs with no window until the session ends
        self.link = AgentLink(_("Shake to Undo"), self.socket)
        # In the shell's own style: Kirigami on Plasma, libadwaita elsewhere (Phosh, GNOME).
        self.watch = TextWatch()
        self.prompts = (plasma_prompt_dialog.PlasmaPromptDialog(self, self.watch.own_pids)
                        if plasma_prompt_dialog.available() else PromptDialog(self))
        self.toast = ResultToast(self)
        self.stand_in = StandIn(self.link, self.watch)
        self.link.connect("prompt", lambda _l, prompt: self.prompts.show(prompt))
        self.link.connect("closed", lambda _l, intent: self.prompts.close(intent))
        self.link.connect("summary", lambda _l, summary: self.toast.show(summary))
        self.link.connect("sensor", self._on_sensor)
        self.link.connect("connected", lambda *_: print("shake-agent: registered with shaked", file=sys.stderr))
        self.link.connect("disconnected", self._on_disconnected)
        self.prompts.connect("chosen", self._on_chosen)
        self.prompts.connect("left", lambda *_: self.stand_in.person_left())
        a11y_status.enable()  # Qt 6 apps join the accessibility bus only then
        self.watch.start()
        self.link.start()

    def _on_disconnected(self, _link, why):
        self.prompts.close()  # the daemon that asked is gone; nothing can be chosen
        print("shake-agent: not registered with shaked (%s); trying again" % why, file=sys.stderr)

    def _on_sensor(self, _link, available, reason):
        # Said once per change, as the result of an undo is: the apps it stands in for can't say it.
        print("shake-agent: %s" % ("shake to undo available again" if available else reason), file=sys.stderr)
        self.toast.show(_("Shake to undo is available again") if available else
                        _("Shake to undo is unavailable: %s") % reason.removeprefix("shake to undo unavailable: "))

    def _on_chosen(self, _prompts, intent, role):
        if self.link.token is not None:
            self.link.call("Choose", self._on_choose_done, token=self.link.token, intent=intent, choice=role)

    def _on_choose_done(self, _reply, error):
        if error is not None:
            print("shake-agent: Choose failed: %s" % error, file=sys.stderr)

    def do_shutdown(self):
        if self.link is not None:
            self.link.stop()
        Adw.Application.do_shutdown(self)


def main(argv):
    return AgentApplication().run(argv)
