"""Sends the toolkit's standard undo and redo keys to the focused window: Ctrl+Z, and Ctrl+Shift+Z
through XTest (xdotool) on X11 or Ctrl+Y through the virtual keyboard protocol (wtype) on Wayland."""

import os
import subprocess


def display_server():
    """"wayland" or "x11", as GTK chose for this session."""
    if os.environ.get("GDK_BACKEND", "").startswith("x11"):
        return "x11"
    return "wayland" if os.environ.get("WAYLAND_DISPLAY") else "x11"


def command(operation, server=None):
    server = server or display_server()
    if server == "wayland":
        # -k (type a key) does not reach GTK with the modifier held; press and release it instead.
        # wtype's keymap has one level per key, so Shift+Z arrives as Shift+z and GTK 4 does not take
        # it for Ctrl+Shift+Z; redo is Ctrl+Y there, GTK's and Qt's other redo key.
        key = "y" if operation == "redo" else "z"
        return ["wtype", "-M", "ctrl", "-P", key, "-s", "50", "-p", key, "-m", "ctrl"]
    return ["xdotool", "key", "--clearmodifiers", "ctrl+shift+z" if operation == "redo" else "ctrl+z"]


def send(operation):
    """Sends the key; returns an error message, or None."""
    try:
        done = subprocess.run(command(operation), capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return None if done.returncode == 0 else (done.stderr.strip() or "status %d" % done.returncode)
