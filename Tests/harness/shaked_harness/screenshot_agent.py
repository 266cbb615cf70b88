"""Takes clients/shake-agent/screenshot-prompt.png and screenshot-result.png: GNOME Text Editor, which
knows nothing of shaked, on a phone-sized Xvfb screen, with the agent's "Undo Typing" prompt over it,
then with the result of choosing Undo ("Removed “world”"). On `shaked --demo`. Needs what
scripts/test.sh installs and a built .build/debug/shaked; installs imagemagick when it is missing."""

import os
import subprocess
import tempfile

from .agent_app import Agent
from .desktop import ROOT, Daemon, Desktop, wait_for
from .text_editor import TextEditor


def shoot(desktop, name):
    raw = os.path.join(tempfile.mkdtemp(), "screen.png")
    desktop.screenshot(raw)
    out = os.path.join(ROOT, "clients", "shake-agent", name)
    subprocess.run(["convert", raw, "+dither", "-colors", "48", "-strip", out], check=True)
    print(out, os.path.getsize(out), "bytes")


subprocess.run([os.path.join(ROOT, "scripts", "ensure-packages.sh"), "imagemagick", "gnome-text-editor"], check=True)
desktop = Desktop(width=360, height=640)
desktop.start()
try:
    with Daemon("--demo") as daemon:
        agent = Agent(desktop, daemon)
        editor = TextEditor(desktop)
        editor.type("hello world")
        daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
        agent.wait_prompt()
        shoot(desktop, "screenshot-prompt.png")
        agent.press("Undo")
        wait_for(agent.result, 10, "the result")
        wait_for(lambda: editor.text() == "hello", 10, "the undo")
        shoot(desktop, "screenshot-result.png")
        editor.stop()
        agent.stop()
finally:
    desktop.stop()
