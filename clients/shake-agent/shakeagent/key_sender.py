"""Sends the toolkit's standard undo and redo keys to the focused window: Ctrl+Z, and Ctrl+Shift+Z
through XTest (xdotool) on X11, Ctrl+Y through the virtual keyboard protocol (wtype) on Wayland, and
Ctrl+Shift+Z through KWin's fake input protocol (shake-agent-keys) under KWin, which offers no virtual
keyboard to ordinary clients."""

import os
import subprocess

# The package's helper for KWin; SHAKE_AGENT_KEYS names another (a test's own build).
KEYS_HELPER = "/usr/libexec/shaked/shake-agent-keys"


def display_server():
    """"kwin", "wayland" or "x11", as GTK chose for this session and the session says it is."""
    if os.environ.get("GDK_BACKEND", "").startswith("x11"):
        return "x11"
    if not os.environ.get("WAYLAND_DISPLAY"):
        return "x11"
    return "kwin" if "KDE" in os.environ.get("XDG_CURRENT_DESKTOP", "").split(":") else "wayland"


def command(operation, server=None):
    server = server or display_server()
    if server == "kwin":
        # evdev key codes with the modifiers pressed as keys: Shift+Z is Ctrl+Shift+Z here, as in Qt.
        return [os.environ.get("SHAKE_AGENT_KEYS") or KEYS_HELPER, operation]
    if server == "wayland":
        # -k (type a key) does not reach GTK with the modifier held; press and release it instead.
        # wtype's keymap has one level per key, so Shift+Z arrives as Shift+z and GTK 4 does not take
        # it for Ctrl+Shift+Z; redo is Ctrl+Y there, GTK's and Qt's other redo key.
        key = "y" if operation == "redo" else "z"
        return ["wtype", "-M", "ctrl", "-P", key, "-s", "50", "-p", key, "-m", "ctrl"]
    return ["xdotool", "key", "--clearmodifiers", "ctrl+shift+z" if operation == "redo" else "ctrl+z"]


def available(server=None):
    """Whether the key can be sent here: under KWin only through the helper, which an install may lack
    (it is built for the session's Wayland; docs/agent.md). Without it the agent stands in for nobody:
    it never offers an undo it cannot carry out."""
    if (server or display_server()) != "kwin":
        return True
    return os.access(command("undo", "kwin")[0], os.X_OK)


def send(operation):
    """Sends the key; returns an error message, or None."""
    try:
        done = subprocess.run(command(operation), capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return None if done.returncode == 0 else (done.stderr.strip() or "status %d" % done.returncode)
