"""The session's prompt agent (clients/shake-agent) as a person meets it: real shaked on a socket in
a temporary folder, real GTK under Xvfb with openbox, shakes played with io.shaked.Demo.Shake, and
the screen read through AT-SPI. First with shake-notes, which takes part itself (the agent draws its
prompts and never stands in for it), then with GNOME Text Editor, which knows nothing of shaked."""

import os
import shutil
import time
import unittest

from shaked_harness.agent_app import Agent, active, focused
from shaked_harness.desktop import Daemon, Desktop, NotesApp, missing, wait_for

UNDO = "io.shaked.Undo"
EDITOR_ID = "org.shaked.StandIn.gnome-text-editor"
MISSING = missing()
desktop = None


def setUpModule():
    global desktop
    if MISSING:
        raise unittest.SkipTest("the agent's tests need %s (scripts/ensure-packages.sh installs them)" % MISSING)
    desktop = Desktop()
    desktop.start()


def tearDownModule():
    if desktop is not None:
        desktop.stop()


def shake(daemon):
    daemon.client().open("io.shaked.Demo", namespaced=False).Shake()


class AgentTestCase(unittest.TestCase):
    def setUp(self):
        self.daemon = Daemon("--demo", "--cooldown", "0.2").__enter__()
        self.agent = Agent(desktop, self.daemon)
        self.calls = self.daemon.client().open(UNDO, namespaced=False)

    def tearDown(self):
        output = self.agent.output()
        self.agent.stop()
        self.daemon.__exit__(None, None, None)
        # The agent's own prompts must pass the daemon's guideline checks.
        self.assertNotIn("AnswerIntent failed", output)
        self.assertNotIn("Traceback", output)

    def status(self):
        return self.calls.GetStatus()["status"]

    def prompt_after_shake(self):
        shake(self.daemon)
        try:
            return self.agent.wait_prompt()
        except AssertionError as e:
            raise AssertionError("%s\n-- shaked said:\n%s\n-- shake-agent said:\n%s"
                                 % (e, self.daemon.output()[-3000:], self.agent.output()[-3000:])) from None

    def wait_ready_for_another_shake(self, app):
        """Until a new shake can work: no intent open, `app` in context with the sensor on, and the
        detector re-armed after the last shake (at most 2 s), then the cooldown (0.2 s) with room."""
        def ready():
            s = self.status()
            return (s.get("openIntent") is None and s["sensorActive"] and s.get("currentApp") == app
                    and (s.get("lastShakeAgo") or 0) >= 2.0)
        wait_for(ready, 10, "shaked to be ready for another shake with %s in context" % app)
        time.sleep(0.5)


class ParticipatingAppTest(AgentTestCase):
    """shake-notes takes part itself: with the agent running, the agent draws its prompts."""

    def setUp(self):
        super().setUp()
        self.app = NotesApp(desktop, self.daemon)

    def tearDown(self):
        self.app.stop()
        super().tearDown()
        self.assertNotIn("agent stands in", self.daemon.output(), "the agent never stands in for an app that takes part")

    def test_the_agent_draws_the_prompt_and_focus_returns_to_the_note(self):
        self.app.type("buy milk")
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo"]))
        self.assertIsNone(self.app.dialog(), "the app draws nothing while the agent does")
        self.agent.press("Undo")
        self.agent.wait_closed()
        # The result is shown for 3 s (result_toast.SHOWN_FOR_MS): read it first, then the app.
        self.assertEqual(wait_for(self.agent.result, 10, "the result shown"), "Removed “milk”")
        text = wait_for(lambda: self.app.text() if self.app.text() != "buy milk" else None, 10, "the undo")
        self.assertTrue("buy milk".startswith(text) and len(text) < len("buy milk"), text)
        # As before the prompt: the Notes window active and its note focused, read from AT-SPI.
        wait_for(lambda: active(self.app.window) and focused(self.app.find("text", "Note")), 10,
                 "the focus back in the note")

    def test_cancel_leaves_the_note_and_focus_returns(self):
        self.app.type("buy milk")
        self.prompt_after_shake()
        desktop.xdotool("key", "Escape")  # the keyboard works on the agent's prompt as on the app's own
        self.agent.wait_closed()
        wait_for(lambda: focused(self.app.find("text", "Note")), 10, "the focus back in the note")
        wait_for(lambda: "cancelled detail=declined" in self.daemon.output(), 10, "the cancel to reach shaked")
        self.assertEqual(self.app.text(), "buy milk")

    def test_the_prompt_goes_when_shaked_cancels_it(self):
        self.app.type("buy milk")
        self.prompt_after_shake()
        self.app.stop()  # the app quits with its prompt open: shaked cancels, the agent takes it down
        self.agent.wait_closed()
        self.assertIn("cancelled detail=disconnected", self.daemon.output())
        self.app = NotesApp(desktop, self.daemon)  # for tearDown

    def test_the_agent_comes_back_after_shaked_restarts(self):
        self.app.type("buy milk")
        socket, state = self.daemon.socket, self.daemon.state
        self.daemon.__exit__(None, None, None)
        self.daemon = Daemon("--demo", "--cooldown", "0.2", state=state)
        self.daemon.socket, self.daemon.address = socket, "unix:" + socket
        self.daemon.args[self.daemon.args.index("--socket") + 1] = socket
        self.daemon.__enter__()
        self.calls = self.daemon.client().open(UNDO, namespaced=False)
        self.agent.wait_registered(self.daemon)
        wait_for(lambda: self.status().get("currentApp") == "org.shaked.Notes", 15, "the app back in context")
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo"]))
        desktop.xdotool("key", "Escape")
        self.agent.wait_closed()


@unittest.skipIf(shutil.which("gnome-text-editor") is None, "needs gnome-text-editor (scripts/test.sh installs it)")
class TextEditorTest(AgentTestCase):
    """GNOME Text Editor knows nothing of shaked: the agent stands in for it."""

    def setUp(self):
        super().setUp()
        from shaked_harness.text_editor import TextEditor
        self.editors = [TextEditor(desktop)]
        self.editor = self.editors[0]

    def tearDown(self):
        for editor in self.editors:
            editor.stop()
        super().tearDown()

    def test_undo_typing_then_redo(self):
        self.assertFalse(self.status()["sensorActive"], "nothing typed yet: the sensor stays off")
        self.editor.type("hello world")
        wait_for(lambda: self.status().get("currentApp") == EDITOR_ID, 10, "the agent to stand in for the editor")
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo"]))
        self.agent.press("Undo")  # on screen, as a finger would
        self.agent.wait_closed()
        # The result is shown for 3 s (result_toast.SHOWN_FOR_MS): read it first, then the editor.
        self.assertEqual(wait_for(self.agent.result, 10, "the result shown"), "Removed “world”")
        wait_for(lambda: self.editor.text() == "hello", 10, "the editor's own undo of the last word (GTK groups \" world\")")
        wait_for(self.editor.has_focus, 10, "the focus back in the editor's field")

        self.wait_ready_for_another_shake(EDITOR_ID)
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo", "Redo"]))
        self.agent.press("Redo")
        self.agent.wait_closed()
        self.assertEqual(wait_for(lambda: (lambda r: r != "Removed “world”" and r)(self.agent.result()), 10,
                                  "the redo's result"), "Restored “world”")
        wait_for(lambda: self.editor.text() == "hello world", 10, "the editor's own redo")

    def test_cancel_leaves_the_text(self):
        self.editor.type("hello world")
        self.prompt_after_shake()
        self.agent.press("Cancel")
        self.agent.wait_closed()
        wait_for(lambda: "cancelled detail=declined" in self.daemon.output(), 10, "the cancel to reach shaked")
        wait_for(self.editor.has_focus, 10, "the focus back in the editor's field")
        self.assertEqual(self.editor.text(), "hello world")

    def test_another_app_taking_the_focus_cancels_the_prompt(self):
        from shaked_harness.text_editor import TextEditor
        self.editors.append(TextEditor(desktop))
        self.editor.type("hello world")
        self.prompt_after_shake()
        self.editors[1].activate()  # the person goes to another app with the prompt open
        self.agent.wait_closed()
        # Cancelled because the editor is no longer in front: the agent tells shaked either that the
        # field lost the focus (its prompt lost it first) or that another app's field has it.
        self.assertRegex(self.daemon.output(), r"cancelled detail=(focusLost|contextChanged)")
        self.assertEqual(self.editor.text(), "hello world")

    def test_the_switch_for_apps_that_dont_take_part_keeps_the_agent_out(self):
        # The person turns it off in shake-notes' menu; the agent then leaves GNOME Text Editor alone.
        notes = NotesApp(desktop, self.daemon)
        try:
            notes.press_menu_button()
            item = wait_for(lambda: notes.find("menu item", "In Apps That Don't Take Part"), 10, "the menu's switch")
            item.queryAction().doAction(0)
            wait_for(lambda: not self.calls.GetPreferences()["preferences"]["standIn"], 10, "the switch off in shaked")
        finally:
            notes.stop()
        self.editor.type("hello world")
        wait_for(lambda: "stand-in-off" in self.agent.output(), 10, "shaked to refuse the agent's StandIn")
        status = self.status()
        self.assertNotEqual(status.get("currentApp"), EDITOR_ID)
        self.assertFalse(status["sensorActive"], "no app in context: the sensor stays off")


@unittest.skipIf(shutil.which("mousepad") is None, "needs mousepad (scripts/test.sh installs it)")
class Gtk3EditorTest(AgentTestCase):
    """A second toolkit: Mousepad is GTK 3, whose accessibility goes through ATK and its AT-SPI bridge."""

    def setUp(self):
        super().setUp()
        from shaked_harness.text_editor import MOUSEPAD, TextEditor
        self.editor = TextEditor(desktop, command=MOUSEPAD)

    def tearDown(self):
        self.editor.stop()
        super().tearDown()

    def test_undo_typing_in_a_gtk3_editor(self):
        self.editor.type("hello world")
        wait_for(lambda: self.status().get("currentApp") == "org.shaked.StandIn.mousepad", 10,
                 "the agent to stand in for Mousepad")
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo"]))
        self.agent.press("Undo")
        self.agent.wait_closed()
        self.assertEqual(wait_for(self.agent.result, 10, "the result shown"), "Removed “world”")  # shown 3 s
        wait_for(lambda: self.editor.text() == "hello", 10, "Mousepad's own undo of the last word")
        wait_for(self.editor.has_focus, 10, "the focus back in Mousepad's field")


@unittest.skipUnless(os.environ.get("SHAKED_TEST_QT") == "1" and shutil.which("featherpad"),
                     "opt-in (SHAKED_TEST_QT=1, apt-get install featherpad): Qt 5.15 joined the accessibility "
                     "bus in only about half of its starts here, so the suite can't count on it")
class QtEditorTest(AgentTestCase):
    """A third toolkit: FeatherPad is Qt 5, on the accessibility bus through Qt's own AT-SPI bridge.
    Once it is on the bus the flow is the same as for GTK; getting it there is what is unreliable."""

    def setUp(self):
        super().setUp()
        from shaked_harness.text_editor import FEATHERPAD, TextEditor, qt_accessible
        self.editor = TextEditor(desktop, command=FEATHERPAD, env=qt_accessible())

    def tearDown(self):
        self.editor.stop()
        super().tearDown()

    def test_undo_typing_in_a_qt_editor(self):
        self.editor.type("hello world")
        wait_for(lambda: self.status().get("currentApp") == "org.shaked.StandIn.FeatherPad", 10,
                 "the agent to stand in for FeatherPad")
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo"]))
        self.agent.press("Undo")
        self.agent.wait_closed()
        # Qt undoes a run of typing at once, where GTK undoes it a word at a time.
        self.assertEqual(wait_for(self.agent.result, 10, "the result shown"), "Removed “hello world”")  # shown 3 s
        wait_for(lambda: self.editor.text() == "", 10, "FeatherPad's own undo of the typing")
        wait_for(self.editor.has_focus, 10, "the focus back in FeatherPad's field")


if __name__ == "__main__":
    unittest.main()
