"""Shows what an undo or redo changed ("Removed “world”"), as the guidelines ask: show the result.
A small window at the top of the screen that goes by itself after a few seconds; it does not take
the keyboard focus from the app that was undone (on X11; on Wayland nothing is shown, since an
ordinary window can't appear there without taking the focus)."""

import gi
from gi.repository import GLib, Gtk

from .x11_hints import mark_as_notification

SHOWN_FOR_MS = 3000


class ResultToast:
    def __init__(self, application):
        self.application = application
        self.window = None
        self.timer = None

    def show(self, summary):
        self.hide()
        label = Gtk.Label(label=summary, wrap=True, margin_top=12, margin_bottom=12, margin_start=18,
                          margin_end=18)
        label.add_css_class("heading")
        window = Gtk.Window(application=self.application, decorated=False, resizable=False, title=summary,
                            child=label, focusable=False, can_focus=False)
        window.add_css_class("osd")
        window.update_property([Gtk.AccessibleProperty.LABEL], [summary])
        if not self._without_focus(window):
            return  # no way to show it without taking the focus from the app: the app's own change shows it
        self.window = window
        window.set_visible(True)  # not present(), which asks for the focus
        self.timer = GLib.timeout_add(SHOWN_FOR_MS, self.hide)

    @staticmethod
    def _without_focus(window):
        """Marks the window as not to be focused when mapped: on X11 a notification that takes no input
        and was never used (_NET_WM_USER_TIME 0),
        which window managers honour. Wayland has no such thing for an ordinary window; False there."""
        window.realize()
        surface = window.get_surface()
        try:
            gi.require_version("GdkX11", "4.0")
            from gi.repository import GdkX11
        except (ImportError, ValueError):
            return False
        if not isinstance(surface, GdkX11.X11Surface):
            return False
        surface.set_user_time(0)  # EWMH: not to be focused when mapped
        return mark_as_notification(surface.get_xid())

    def hide(self):
        if self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None
        if self.window is not None:
            self.window.destroy()
            self.window = None
        return False
