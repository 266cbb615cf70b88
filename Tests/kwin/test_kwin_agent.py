"""The agent standing in for Qt 6 apps under KWin on Wayland, as on a phone running Plasma Mobile:
KWin 6 `--virtual` and KWrite from a Debian 13 root, keys through KWin's fake input, the screen read
through AT-SPI. Run by scripts/test-kwin.sh (the root, its mounts); in a process of its own: pyatspi
keeps the first session bus it saw."""

import os
import tempfile
import unittest

from shaked_harness.desktop import Daemon, wait_for
from shaked_harness.kwin_apps import RootAgent, RootApp
from shaked_harness.kwin_desktop import KWinDesktop, missing

UNDO = "io.shaked.Undo"
desktop = None


def setUpModule():
    global desktop
    if missing():
        raise unittest.SkipTest("the KWin tests need %s" % missing())
    desktop = KWinDesktop()
    desktop.start()


def tearDownModule():
    if desktop is not None:
        desktop.stop()


class StandInUnderKWin:
    """One app's flow: type, shake, "Undo Typing" in the Kirigami prompt, Undo, the text back."""

    APP_ID = None
    UNDONE = None  # what the app's own undo leaves of "hello world" typed in one go

    def command(self):
        raise NotImplementedError

    def setUp(self):
        self.daemon = Daemon("--demo", "--cooldown", "0.2").__enter__()
        self.agent = RootAgent(desktop, self.daemon)
        self.calls = self.daemon.client().open(UNDO, namespaced=False)
        command = self.command()
        self.app = RootApp(desktop, command, os.path.basename(command[0]))
        wait_for(self.app.has_focus, 30, "%s's field to have the focus" % command[0])

    def tearDown(self):
        self.app.stop()
        output = self.agent.output()
        self.agent.stop()
        self.daemon.__exit__(None, None, None)
        self.assertNotIn("AnswerIntent failed", output)
        self.assertNotIn("Traceback", output)
        self.assertNotIn("could not send", output)

    def explain(self, e):
        return AssertionError("%s\n-- shaked said:\n%s\n-- shake-agent said:\n%s"
                              % (e, self.daemon.output()[-3000:], self.agent.output()[-3000:]))

    def type(self, text):
        before = self.app.text()
        desktop.type(text)
        wait_for(lambda: self.app.text() == before + text, 20, "%r typed" % text)
        try:
            wait_for(lambda: self.calls.GetStatus()["status"].get("currentApp") == self.APP_ID, 20,
                     "the agent to stand in for %s" % self.APP_ID)
        except AssertionError as e:
            raise self.explain(e) from None

    def test_typing_undone_by_the_apps_own_undo_key(self):
        self.type("hello world")
        self.daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
        try:
            self.assertEqual(self.agent.wait_prompt(), ("Undo Typing", ["Cancel", "Undo"]))
        except AssertionError as e:
            raise self.explain(e) from None
        self.agent.press("Undo")
        self.agent.wait_closed()
        try:
            wait_for(lambda: self.app.text() == self.UNDONE, 20,
                     "the app's own undo (Ctrl+Z through KWin's fake input) to leave %r" % self.UNDONE)
            wait_for(lambda: "result reported" in self.daemon.output(), 20, "the result reported to shaked")
        except AssertionError as e:
            raise self.explain(e) from None


class KWriteTest(StandInUnderKWin, unittest.TestCase):
    APP_ID = "org.shaked.StandIn.kwrite"
    UNDONE = ""  # KTextEditor undoes a run of typing at once

    def command(self):
        # A file to edit: started with none, KWrite shows its welcome page, not an editing view.
        note = tempfile.mkstemp(prefix="note-", suffix=".txt", dir=desktop.dir)[1]
        return ["kwrite", note]


if __name__ == "__main__":
    unittest.main()
