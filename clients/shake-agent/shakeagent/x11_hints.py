"""Marks an X11 window as a notification (EWMH _NET_WM_WINDOW_TYPE_NOTIFICATION) and as not taking
input (ICCCM WM_HINTS), so window managers show it without moving the keyboard focus to it. GTK 4
has no API for either, so this sets the properties with Xlib (libX11, which GTK's X11 backend
already loads) on the window's XID, before the window is mapped."""

import ctypes
import ctypes.util

_xlib = None


def _lib():
    global _xlib
    if _xlib is None:
        _xlib = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        _xlib.XOpenDisplay.restype = ctypes.c_void_p
        _xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        _xlib.XInternAtom.restype = ctypes.c_ulong
        _xlib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        _xlib.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                                          ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
        _xlib.XFlush.argtypes = [ctypes.c_void_p]
        _xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return _xlib


class _WMHints(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_long), ("input", ctypes.c_int), ("initial_state", ctypes.c_int),
                ("icon_pixmap", ctypes.c_ulong), ("icon_window", ctypes.c_ulong), ("icon_x", ctypes.c_int),
                ("icon_y", ctypes.c_int), ("icon_mask", ctypes.c_ulong), ("window_group", ctypes.c_ulong)]


def mark_as_notification(xid, display_name=None):
    """Sets the window type and input hint on window `xid`; returns whether it could."""
    xlib = _lib()
    display = xlib.XOpenDisplay(display_name)
    if not display:
        return False
    try:
        atom = lambda name: xlib.XInternAtom(display, name, 0)  # noqa: E731
        kind = (ctypes.c_ulong * 1)(atom(b"_NET_WM_WINDOW_TYPE_NOTIFICATION"))
        xlib.XChangeProperty(display, xid, atom(b"_NET_WM_WINDOW_TYPE"), atom(b"ATOM"), 32, 0, kind, 1)
        hints = _WMHints(flags=1, input=0)  # InputHint: the window takes no keyboard input
        xlib.XChangeProperty(display, xid, atom(b"WM_HINTS"), atom(b"WM_HINTS"), 32, 0, ctypes.byref(hints), 9)
        xlib.XFlush(display)
        return True
    finally:
        xlib.XCloseDisplay(display)
