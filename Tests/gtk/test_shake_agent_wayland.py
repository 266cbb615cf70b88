"""The agent standing in for GNOME Text Editor on Wayland, as on a phone running Phosh: headless phoc,
Wayland GTK, keys through the virtual keyboard protocol (wtype), the screen read through AT-SPI.
Run it in a process of its own (scripts/test.sh does): pyatspi keeps the first session bus it saw."""

import re
import shutil
import unittest

from shaked_harness.agent_app import Agent
from shaked_harness.desktop import Daemon, missing, wait_for
from shaked_harness.wayland_desktop import WaylandDesktop, missing as wayland_missing

UNDO = "io.shaked.Undo"
EDITOR_ID = "org.shaked.StandIn.gnome-text-editor"
MISSING = missing() + wayland_missing() + ([] if shutil.which("gnome-text-editor") else ["gnome-text-editor"])
desktop = None


def setUpModule():
    global desktop
    if MISSING:
        raise unittest.SkipTest("the Wayland agent tests need %s (scripts/test.sh installs them)" % MISSING)
    desktop = WaylandDesktop()
    desktop.start()


def tearDownModule():
    if desktop is not None:
        desktop.stop()


class WaylandTextEditorTest(unittest.TestCase):
    def setUp(self):
        from shaked_harness.text_editor import TextEditor
        self.daemon = Daemon("--demo", "--cooldown", "0.2").__enter__()
        self.agent = Agent(desktop, self.daemon)
        self.calls = self.daemon.client().open(UNDO, namespaced=False)
        self.editor = TextEditor(desktop)
        # The one window: it has the focus as soon as the compositor maps it (the keyboard is there).
        wait_for(self.editor.has_focus, 15, "the editor's field to have the focus")

    def tearDown(self):
        self.editor.stop()
        output = self.agent.output()
        self.agent.stop()
        self.daemon.__exit__(None, None, None)
        self.assertNotIn("AnswerIntent failed", output)
        self.assertNotIn("Traceback", output)

    def type(self, text):
        desktop.wtype("-k", "Shift_L")  # the first key a new wtype sends can be lost; make it a harmless one
        desktop.wtype(text)
        wait_for(lambda: self.editor.text() == text, 10, "%r typed" % text)
        wait_for(lambda: self.calls.GetStatus()["status"].get("currentApp") == EDITOR_ID, 10,
                 "the agent to stand in for the editor")

    def prompt_after_shake(self):
        self.daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
        try:
            return self.agent.wait_prompt()
        except AssertionError as e:
            raise AssertionError("%s\n-- shaked said:\n%s\n-- shake-agent said:\n%s"
                                 % (e, self.daemon.output()[-3000:], self.agent.output()[-3000:])) from None

    def test_undo_then_redo_through_the_virtual_keyboard(self):
        self.type("hello world")
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo"]))
        self.agent.press("Undo")
        self.agent.wait_closed()
        wait_for(lambda: self.editor.text() == "hello", 10, "the editor's own undo (Ctrl+Z through wtype)")
        wait_for(self.editor.has_focus, 10, "the focus back in the editor's field")
        wait_for(lambda: "result reported" in self.daemon.output(), 10, "the result reported to shaked")

        # Redo, with Ctrl+Y through the virtual keyboard (docs/agent.md: why not Ctrl+Shift+Z).
        def ready():
            s = self.calls.GetStatus()["status"]
            return (s.get("openIntent") is None and s["sensorActive"] and s.get("currentApp") == EDITOR_ID
                    and (s.get("lastShakeAgo") or 0) >= 2.0)
        wait_for(ready, 10, "shaked ready for another shake")
        import time
        time.sleep(0.5)  # the cooldown (0.2 s) after the intent, with room
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo", "Redo"]))
        self.agent.press("Redo")
        self.agent.wait_closed()
        wait_for(lambda: self.editor.text() == "hello world", 10, "the editor's own redo (Ctrl+Y through wtype)")

    def test_cancel_leaves_the_text(self):
        self.type("hello world")
        self.prompt_after_shake()
        self.agent.press("Cancel")
        self.agent.wait_closed()
        wait_for(lambda: "cancelled detail=declined" in self.daemon.output(), 10, "the cancel to reach shaked")
        wait_for(self.editor.has_focus, 10, "the focus back in the editor's field")
        self.assertEqual(self.editor.text(), "hello world")

    def test_another_app_taking_the_focus_cancels_the_prompt(self):
        from shaked_harness.text_editor import TextEditor
        self.type("hello world")
        self.prompt_after_shake()
        # The person opens another app with the prompt open; phoc gives the new window the focus.
        # The new GTK 4 window announces nothing on the accessibility bus: the prompt losing the
        # focus is what tells the agent.
        other = TextEditor(desktop)
        try:
            wait_for(other.has_focus, 15, "the second editor's field to have the focus")
            self.agent.wait_closed()
            try:
                # The agent tells shaked the field lost the focus (it cannot see which app has it).
                wait_for(lambda: re.search(r"cancelled detail=(focusLost|contextChanged)", self.daemon.output()), 10,
                         "shaked to cancel the prompt when the editor is no longer in front")
            except AssertionError as e:
                raise AssertionError("%s\n-- shaked said:\n%s" % (e, self.daemon.output()[-2000:])) from None
            self.assertEqual(self.editor.text(), "hello world")
        finally:
            other.stop()


if __name__ == "__main__":
    unittest.main()
