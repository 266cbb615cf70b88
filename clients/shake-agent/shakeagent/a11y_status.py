"""Turns the session's accessibility on as an assistive tool does: org.a11y.Status.IsEnabled on the
session bus. Qt 6 apps (KWrite, Kirigami apps) join the accessibility bus only when it is true (or a
screen reader runs). ScreenReaderEnabled is never touched: on some desktops it starts a screen reader."""

import sys

from gi.repository import Gio, GLib


def enable():
    """Sets IsEnabled; returns True when it is set (it may already have been)."""
    try:
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        bus.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Set",
                      GLib.Variant("(ssv)", ("org.a11y.Status", "IsEnabled", GLib.Variant("b", True))),
                      None, Gio.DBusCallFlags.NONE, 5000, None)
        return True
    except GLib.GError as e:
        print("shake-agent: could not turn accessibility on (org.a11y.Status.IsEnabled): %s" % e.message,
              file=sys.stderr)
        return False
