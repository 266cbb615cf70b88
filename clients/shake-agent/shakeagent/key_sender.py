"""Sends the toolkit's standard undo and redo keys (Ctrl+Z, Ctrl+Shift+Z) to the focused window:
XTest through xdotool on X11, the virtual keyboard protocol through wtype on Wayland."""

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
        shift = ["-M", "shift"] if operation == "redo" else []
        unshift = ["-m", "shift"] if operation == "redo" else []
        return ["wtype", "-M", "ctrl", *shift, "-P", "z", "-s", "50", "-p", "z", *unshift, "-m", "ctrl"]
    return ["xdotool", "key", "--clearmodifiers", "ctrl+shift+z" if operation == "redo" else "ctrl+z"]


def send(operation):
    """Sends the key; returns an error message, or None."""
    try:
        done = subprocess.run(command(operation), capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return None if done.returncode == 0 else (done.stderr.strip() or "status %d" % done.returncode)
