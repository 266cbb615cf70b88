"""Takes clients/shake-agent/screenshot-plasma.png: KWrite, which knows nothing of shaked, under KWin on
a phone-sized virtual screen, with the agent's Kirigami "Undo Typing" prompt over it. On `shaked --demo`,
in the Debian 13 root of scripts/test-kwin.sh (`scripts/test-kwin.sh --screenshot` runs this). KWin
draws into a window on Xvfb for the picture (kwin_desktop.KWinOnXvfb): with no GPU its virtual backend
offers no screenshot."""

import os
import subprocess
import tempfile

from .desktop import ROOT, Daemon, wait_for
from .kwin_apps import RootAgent, RootApp
from .kwin_desktop import KWinOnXvfb


subprocess.run([os.path.join(ROOT, "scripts", "ensure-packages.sh"), "imagemagick"], check=True)
desktop = KWinOnXvfb()
desktop.start()
try:
    with Daemon("--demo") as daemon:
        agent = RootAgent(desktop, daemon)
        note = tempfile.mkstemp(prefix="note-", suffix=".txt", dir=desktop.dir)[1]
        app = RootApp(desktop, ["kwrite", note], "kwrite")
        wait_for(app.has_focus, 30, "KWrite's field to have the focus")
        desktop.type("hello world")
        wait_for(lambda: app.text() == "hello world", 20, "the typing")
        wait_for(lambda: "agent stands in" in daemon.output(), 20, "the agent to stand in for KWrite")
        daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
        agent.wait_prompt()
        out = os.path.join(ROOT, "clients", "shake-agent", "screenshot-plasma.png")
        raw = os.path.join(desktop.dir, "screen.png")
        desktop.screenshot(raw)
        subprocess.run(["convert", raw, "+dither", "-colors", "64", "-strip", out], check=True)
        print(out, os.path.getsize(out), "bytes")
        agent.press("Cancel")
        app.stop()
        agent.stop()
finally:
    desktop.stop()
