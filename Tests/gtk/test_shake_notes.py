"""shake-notes, the GTK 4 / libadwaita template app, used as a person would: real GTK under Xvfb,
keys typed with xdotool, shakes played on `shaked --demo` (io.shaked.Demo.Shake), and what is
on screen read through the accessibility tree (AT-SPI)."""

import os
import time
import unittest

from shaked_harness.desktop import Daemon, Desktop, NotesApp, missing, wait_for

UNDO = "io.shaked.Undo"
MISSING = missing()
desktop = None


def setUpModule():
    global desktop
    if MISSING:
        raise unittest.SkipTest("the GTK tests need %s (scripts/ensure-packages.sh installs them)" % MISSING)
    desktop = Desktop()
    desktop.start()


def tearDownModule():
    if desktop is not None:
        desktop.stop()


def shake(daemon):
    daemon.client().open("io.shaked.Demo", namespaced=False).Shake()


class NotesTestCase(unittest.TestCase):
    env = None

    def setUp(self):
        self.daemon = Daemon("--demo", "--cooldown", "0.2").__enter__()
        self.app = NotesApp(desktop, self.daemon, env=self.env)

    def tearDown(self):
        output = self.app.output()
        self.app.stop()
        self.daemon.__exit__(None, None, None)
        # The app's prompts must pass the daemon's guideline checks: a PromptRejected is a bug.
        self.assertNotIn("AnswerIntent failed", output)
        self.assertNotIn("Traceback", output)

    def prompt_after_shake(self):
        shake(self.daemon)
        try:
            return wait_for(lambda: (lambda d: d and d[1] and d)(self.app.dialog()), 10, "the undo prompt")
        except AssertionError as e:
            raise AssertionError("%s\n-- shaked said:\n%s\n-- shake-notes said:\n%s"
                                 % (e, self.daemon.output()[-3000:], self.app.output()[-3000:])) from None

    def wait_ready_for_another_shake(self):
        """Waits, as a person would, until a new shake can work: the intent ended, the Notes
        window back in context with the sensor on, and the last shake 2 s past, so that the next
        one starts from a device held still (the detector's calm dwell is 1 s), as a person's does.
        Then the cooldown after an intent (0.2 s here) with room to spare."""
        calls = self.daemon.client().open(UNDO, namespaced=False)

        def ready():
            status = calls.GetStatus()["status"]
            return (status.get("openIntent") is None and status["sensorActive"]
                    and status.get("currentApp") == "org.shaked.Notes"
                    and (status.get("lastShakeAgo") or 0) >= 2.0 and status)
        try:
            wait_for(ready, 10, "shaked to be ready for another shake")
        except AssertionError as e:
            raise AssertionError("%s: %s\n-- shaked said:\n%s" % (e, calls.GetStatus()["status"],
                                                                 self.daemon.output()[-3000:])) from None
        time.sleep(0.5)

    def wait_closed(self):
        wait_for(lambda: self.app.dialog() is None, 10, "the prompt to close")


class UndoFlowTest(NotesTestCase):
    def test_undo_typing_removes_it_and_selects_where_it_was(self):
        self.app.type("buy milk")
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo"]))
        desktop.xdotool("key", "Return")  # Undo is the default response
        self.wait_closed()
        text = wait_for(lambda: self.app.text() if self.app.text() != "buy milk" else None, 10, "the undo")
        self.assertTrue("buy milk".startswith(text) and len(text) < len("buy milk"), text)
        self.assertEqual(self.app.selection(), (len(text), len(text)), "the caret where the typing was")
        self.assertIn("Removed", wait_for(lambda: "Removed" in self.app.status() and self.app.status()))

    def test_typing_and_undoing_keep_the_sensor_on(self):
        # Each keystroke and each undo passes GTK through states with nothing to undo; the app
        # sends only where it settles, so the daemon does not close and reopen the sensor.
        self.app.type("buy milk")
        self.prompt_after_shake()
        desktop.xdotool("key", "Return")
        self.wait_closed()
        wait_for(lambda: "result reported" in self.daemon.output(), 10, "the undo reported")
        self.app.type(" and eggs")
        log = self.daemon.output()
        self.assertEqual((log.count("sensor on"), log.count("sensor off")), (1, 0), log)

    def test_cancel_changes_nothing(self):
        self.app.type("buy milk")
        self.prompt_after_shake()
        desktop.xdotool("key", "Escape")
        self.wait_closed()
        time.sleep(0.5)
        self.assertEqual(self.app.text(), "buy milk")

    def test_losing_focus_cancels_the_prompt(self):
        self.app.type("buy milk")
        self.prompt_after_shake()
        # The person leaves the app (iOS: to the Home screen): the prompt goes, nothing is undone.
        desktop.xdotool("windowminimize", self.app.x_window())
        self.wait_closed()
        self.assertEqual(self.app.text(), "buy milk")
        self.assertIn("cancelled detail=focusLost", self.daemon.output())

    def test_undo_then_redo_restores_and_selects_the_text(self):
        self.app.type("buy milk")
        self.prompt_after_shake()
        desktop.xdotool("key", "Return")
        self.wait_closed()
        undone = wait_for(lambda: self.app.text() if self.app.text() != "buy milk" else None, 10, "the undo")
        self.wait_ready_for_another_shake()
        # Both are possible now: the prompt offers Redo as well, to the right of Undo.
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo", "Redo"]))
        self.app.press("Redo")
        self.wait_closed()
        wait_for(lambda: self.app.text() == "buy milk", 10, "the redo")
        self.assertEqual(self.app.selection(), (len(undone), len("buy milk")), "the restored text is selected")

    def test_a_delete_is_named_and_its_undo_selects_what_came_back(self):
        self.app.type("buy milk")
        self.app.activate()
        desktop.xdotool("key", "ctrl+a", "BackSpace")
        wait_for(lambda: self.app.text() == "", 10, "the deletion")
        self.assertEqual(self.prompt_after_shake()[0], "Undo Delete")
        desktop.xdotool("key", "Return")
        wait_for(lambda: self.app.text() == "buy milk", 10, "the text back")
        self.assertEqual(self.app.selection(), (0, len("buy milk")))


class KoreanTest(NotesTestCase):
    env = {"LANG": "ko_KR.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}

    def test_the_prompt_is_composed_in_korean(self):
        self.app.type("buy milk")
        self.assertEqual(self.prompt_after_shake(), ("실행 취소 입력", ["취소", "실행 취소"]))
        desktop.xdotool("key", "Escape")
        self.wait_closed()


class DaemonRestartTest(NotesTestCase):
    def test_the_app_says_shaked_is_gone_and_comes_back(self):
        self.app.type("buy milk")
        socket, state = self.daemon.socket, self.daemon.state
        self.daemon.__exit__(None, None, None)
        wait_for(lambda: "not running" in self.app.status(), 10, "the status to say shaked is gone")
        self.daemon = Daemon("--demo", "--cooldown", "0.2", state=state)
        self.daemon.socket, self.daemon.address = socket, "unix:" + socket
        self.daemon.args[self.daemon.args.index("--socket") + 1] = socket
        self.daemon.__enter__()
        wait_for(lambda: self.app.status() == "Shake to undo is on", 15, "the app to reconnect")
        self.assertEqual(self.prompt_after_shake(), ("Undo Typing", ["Cancel", "Undo"]))
        desktop.xdotool("key", "Escape")
        self.wait_closed()


class ShakeToUndoSwitchTest(NotesTestCase):
    def test_the_menu_switch_turns_shakes_and_the_sensor_off(self):
        self.app.type("buy milk")
        calls = self.daemon.client().open(UNDO, namespaced=False)
        wait_for(lambda: calls.GetStatus()["status"]["sensorActive"], 10, "the sensor on")
        self.app.press_menu_button()
        item = wait_for(lambda: self.app.find("menu item", "Shake to Undo"), 10, "the menu's switch")
        item.queryAction().doAction(0)
        wait_for(lambda: not calls.GetPreferences()["preferences"]["shakeToUndo"], 10, "the switch off in shaked")
        wait_for(lambda: "off" in self.app.status(), 10, "the status to say it is off")
        self.app.activate()
        before = wait_for(lambda: (lambda s: not s["sensorActive"] and s)(calls.GetStatus()["status"]), 10,
                          "the sensor off")
        shake(self.daemon)
        time.sleep(1.5)
        self.assertIsNone(self.app.dialog(), "no prompt from a shake")
        self.assertEqual(calls.GetStatus()["status"]["samplesRead"], before["samplesRead"], "no samples read")


if __name__ == "__main__":
    unittest.main()
