"""Takes clients/gtk-notes/screenshot.png: shake-notes on a phone-sized Xvfb screen with its
"Undo Typing" prompt open, on `shaked --demo`. Needs what scripts/test.sh installs and a
built .build/debug/shaked; installs imagemagick (`import`, `convert`) when it is missing."""

import os
import subprocess
import sys
import tempfile

from shaked_harness import ROOT
from shaked_harness.desktop import Daemon, Desktop, NotesApp, wait_for


def main():
    subprocess.run([os.path.join(ROOT, "scripts", "ensure-packages.sh"), "imagemagick"], check=True)
    desktop = Desktop(width=360, height=640)
    desktop.start()
    try:
        with Daemon("--demo") as daemon:
            app = NotesApp(desktop, daemon)
            app.type("buy milk")
            daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
            wait_for(lambda: (lambda d: d and d[1])(app.dialog()), 10, "the prompt")
            raw = os.path.join(tempfile.mkdtemp(), "screen.png")
            desktop.screenshot(raw)
            out = os.path.join(ROOT, "clients", "gtk-notes", "screenshot.png")
            subprocess.run(["convert", raw, "+dither", "-colors", "32", "-strip", out], check=True)
            print(out, os.path.getsize(out), "bytes")
            app.stop()
    finally:
        desktop.stop()


if __name__ == "__main__":
    main()
