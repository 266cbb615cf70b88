"""Shake to undo under KWin on Wayland, as on a phone running Plasma Mobile: KWin 6 `--virtual`, KWrite
(Qt 6) and KWeather (Kirigami) from a Debian 13 root, with the agent standing in for them, and the Qt 6 /
Kirigami template (clients/qt-notes), which takes part; keys through KWin's fake input, the screen read
through AT-SPI. Run by scripts/test-kwin.sh (the root, its mounts); in a process of its own: pyatspi
keeps the first session bus it saw."""

import os
import tempfile
import unittest

import pyatspi

from shaked_harness.desktop import Daemon, wait_for
from shaked_harness.agent_app import application_of
from shaked_harness.kwin_apps import QT_NOTES, RootAgent, RootApp, press_in, prompt_in, python_path
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

    def start_app(self):
        raise NotImplementedError

    def setUp(self):
        self.daemon = Daemon("--demo", "--cooldown", "0.2").__enter__()
        self.agent = RootAgent(desktop, self.daemon)
        self.calls = self.daemon.client().open(UNDO, namespaced=False)
        self.app = self.start_app()
        wait_for(self.app.has_focus, 30, "the app's field to have the focus")

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


def a11y_status(name):
    """A property of org.a11y.Status on the session bus."""
    from gi.repository import Gio, GLib
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    return bus.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Get",
                         GLib.Variant("(ss)", ("org.a11y.Status", name)), GLib.VariantType("(v)"),
                         Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]


class KWriteTest(StandInUnderKWin, unittest.TestCase):
    APP_ID = "org.shaked.StandIn.kwrite"
    UNDONE = ""  # KTextEditor undoes a run of typing at once

    def start_app(self):
        # A file to edit: started with none, KWrite shows its welcome page, not an editing view.
        note = tempfile.mkstemp(prefix="note-", suffix=".txt", dir=desktop.dir)[1]
        return RootApp(desktop, ["kwrite", note], "kwrite")

    def test_redo_through_kwins_fake_input(self):
        self.test_typing_undone_by_the_apps_own_undo_key()

        def ready():
            s = self.calls.GetStatus()["status"]
            return s.get("openIntent") is None and s["sensorActive"] and s.get("currentApp") == self.APP_ID
        wait_for(ready, 20, "shaked ready for another shake, with Redo to offer")
        # The synthetic shake plays for 0.6 s or more before it is recognized: past the 0.2 s cooldown.
        self.daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
        try:
            # All the typing was undone: only Redo is left to offer.
            self.assertEqual(self.agent.wait_prompt(), ("Redo Typing", ["Cancel", "Redo"]))
        except AssertionError as e:
            raise self.explain(e) from None
        self.agent.press("Redo")
        self.agent.wait_closed()
        try:
            wait_for(lambda: self.app.text() == "hello world", 20, "KWrite's own redo (Ctrl+Shift+Z through fake input)")
        except AssertionError as e:
            raise self.explain(e) from None

    def test_accessibility_on_as_an_assistive_tool_never_as_a_screen_reader(self):
        # The agent turned it on (the session bus started with it off): Qt 6 apps join only then.
        self.assertTrue(a11y_status("IsEnabled"))
        self.assertFalse(a11y_status("ScreenReaderEnabled"))


class WithoutTheKeyHelperTest(unittest.TestCase):
    """An install without the helper (or a KWin that refuses it): the agent stands in for no app, so
    it never offers an undo it cannot carry out, and never sends a key."""

    def test_the_agent_stays_out(self):
        daemon = Daemon("--demo", "--cooldown", "0.2").__enter__()
        agent = RootAgent(desktop, daemon, keys=os.path.join(desktop.dir, "no-such-helper"))
        note = tempfile.mkstemp(prefix="note-", suffix=".txt", dir=desktop.dir)[1]
        app = RootApp(desktop, ["kwrite", note], "kwrite")
        try:
            wait_for(app.has_focus, 30, "KWrite's field to have the focus")
            desktop.type("hello")
            wait_for(lambda: app.text() == "hello", 20, "'hello' typed")
            self.assertIn("standing in for no app", agent.output())
            self.assertNotIn("agent stands in", daemon.output())
            calls = daemon.client().open(UNDO, namespaced=False)
            self.assertIsNone(calls.GetStatus()["status"].get("currentApp"))
        finally:
            app.stop()
            agent.stop()
            daemon.__exit__(None, None, None)


class KWeatherTest(StandInUnderKWin, unittest.TestCase):
    """A Kirigami app: KWeather's first start, whose welcome pages end in the search for a location
    (a Kirigami.SearchField; with no network here it finds nothing, which changes nothing below)."""

    APP_ID = "org.shaked.StandIn.kweather"
    UNDONE = ""

    def start_app(self):
        config = tempfile.mkdtemp(prefix="kweather-", dir=desktop.dir)  # a first start every time
        app = RootApp(desktop, ["kweather"], "kweather", env={"XDG_CONFIG_HOME": config}, wait=False)
        showing = lambda node: node is not None and node.getState().contains(pyatspi.STATE_SHOWING)  # noqa: E731
        # Each page comes in by an animation: the next press waits until the page is there.
        for press, page in (("Get Started", "Appearance"), ("Next", "Units"), ("Next", "Add Location")):
            app.press(press)
            wait_for(lambda: showing(app.find("label", page)), 30, "KWeather's page %r" % page)
        wait_for(lambda: showing(app.field()), 30, "KWeather's search field")
        app.field().queryComponent().grabFocus()
        return app


class QtNotesTest(unittest.TestCase):
    """The Qt 6 / Kirigami template (clients/qt-notes), which takes part: its own prompt, Qt's undo."""

    def setUp(self):
        self.daemon = Daemon("--demo", "--cooldown", "0.2").__enter__()
        self.calls = self.daemon.client().open(UNDO, namespaced=False)
        self.app = RootApp(desktop, ["python3", QT_NOTES, "--socket", self.daemon.socket], "qt-notes",
                           env={"PYTHONPATH": python_path(desktop), "PYTHONWARNINGS": "ignore::SyntaxWarning"})
        wait_for(self.app.has_focus, 30, "the note's text area to have the focus")

    def tearDown(self):
        self.app.stop()
        self.daemon.__exit__(None, None, None)
        self.assertNotIn("AnswerIntent failed", desktop._log("qt-notes"))
        self.assertNotIn("Traceback", desktop._log("qt-notes"))

    def test_undo_typing_in_its_own_prompt(self):
        desktop.type("buy milk")
        wait_for(lambda: self.app.text() == "buy milk", 20, "'buy milk' typed")
        status = lambda: self.calls.GetStatus()["status"]  # noqa: E731
        wait_for(lambda: status().get("currentApp") == "org.shaked.QtNotes", 20, "Qt Notes in context")
        self.daemon.client().open("io.shaked.Demo", namespaced=False).Shake()
        app = application_of(self.app.process.pid)
        try:
            self.assertEqual(wait_for(lambda: prompt_in(app), 20, "Qt Notes' Kirigami prompt"),
                             ("Undo Typing", ["Cancel", "Undo"]))
        except AssertionError as e:
            raise AssertionError("%s\n-- shaked said:\n%s\n-- qt-notes said:\n%s"
                                 % (e, self.daemon.output()[-3000:], desktop._log("qt-notes")[-3000:])) from None
        press_in(app, "Undo")
        wait_for(lambda: self.app.text() == "", 20, "Qt's own undo of the typing")
        wait_for(lambda: "result reported" in self.daemon.output(), 20, "the result reported to shaked")
        wait_for(lambda: prompt_in(app) is None, 20, "the prompt to close")


if __name__ == "__main__":
    unittest.main()
